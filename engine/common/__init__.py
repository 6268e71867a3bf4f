"""Small pieces both games on the platform need (Space Alert and Project: ELITE).

Only patterns live here, never rules: an injected clock and a seeded die.  Each game keeps its own
rules package (`engine/` for Space Alert, `engine/elite/` for ELITE).
"""
