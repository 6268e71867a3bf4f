"""Careers, statistics and leaderboards: SQL in `queries`, pure figures in `career`, the score
chart in `chart`.  The Discord commands (/stats, /leaderboard) build on these."""
