-- 0008 (web logbook, helper "web"; renumber freely on merge): what the web pages need to be fast
-- at size, and the what-if comparisons the flight page shows.  Read by bot/platform/storage/web.py
-- and written by bot/platform/storage/comparisons.py.

-- A server's newest logbook row (MAX(id)) and its flight count in one short index range: the
-- version a cached server page is keyed by, so a page is never older than the logbook.
CREATE INDEX logbook_guild_rows ON logbook (guild_id, id);

-- A server's ended campaigns (its page lists the best ten); their count and versions are part of
-- the page's version too.
CREATE INDEX campaigns_by_guild ON campaigns (guild_id, status, version);

-- What-if comparisons asked for on a logged flight: a player's /whatif plan, or a Hindsight
-- answer.  `changes` is a language-free JSON summary of the changed plan (turns and action codes)
-- so every page language can word it; the outcomes are the engine's.  Asking the same thing twice
-- keeps one row (the UNIQUE key; `plan` is the /whatif plan string, '' for Hindsight).
CREATE TABLE flight_comparisons (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    flight_id     TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('whatif', 'hindsight')),
    asked_by      INTEGER,                  -- the member's user id
    asked_name    TEXT NOT NULL,            -- their name as the server showed it
    board         TEXT NOT NULL DEFAULT '', -- whose 12 actions changed (a solo player: the android)
    plan          TEXT NOT NULL DEFAULT '',
    changes       TEXT NOT NULL DEFAULT '[]',
    real_outcome  TEXT NOT NULL,
    real_total    INTEGER NOT NULL,
    alt_outcome   TEXT NOT NULL,
    alt_total     INTEGER NOT NULL,
    diverges_at   INTEGER,                  -- the first turn that played out differently
    asked_at      TEXT NOT NULL,
    UNIQUE (flight_id, kind, asked_by, board, plan)
);
-- The flight page reads a flight's comparisons (and its newest id, the page's version) here.
CREATE INDEX flight_comparisons_by_flight ON flight_comparisons (flight_id, id);
