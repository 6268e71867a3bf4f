"""Which servers' records are public: the platform's part of the careers.

The reads behind /stats and the boards are Space Alert's and live with the game (its flights'
records and stats/storage.py under bot/games/space_alert, over the SQL core), as do the rows its
careers are counted from.  What stays here is what the platform itself needs: the server setting that makes a
server's records public, which the web pages and every game's public reads check.
"""

from __future__ import annotations

PUBLIC_SETTING = "leaderboard"  # guild_settings key; the JSON value "public" opens the server's records
PUBLIC_VALUE = '"public"'
PUBLIC_GUILDS = f"SELECT guild_id FROM guild_settings WHERE key = '{PUBLIC_SETTING}' AND value = '{PUBLIC_VALUE}'"
