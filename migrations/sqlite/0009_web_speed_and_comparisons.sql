-- 0009 (web logbook, helper "web"; renumber freely on merge): what the web pages need to be fast
-- at size, and the what-if comparisons the flight page shows.  Read by bot/platform/storage/web.py
-- and bot/games/space_alert/records/public.py; the comparisons are Space Alert's
-- (bot/games/space_alert/comparisons.py).

-- Each server's flight count, last flight and newest logbook row, kept by a trigger as flights are
-- logged.  The index and career pages show the counts of up to every public server, and counting
-- a server's rows costs as many index steps as it has flights (bench/web.py: 30,000 per index
-- page at 100,000 flights); the newest row is the version a cached page is keyed by.  Flights are
-- never deleted from the logbook; if that changes, rebuild this from the logbook.
CREATE TABLE guild_totals (
    guild_id   INTEGER PRIMARY KEY,
    flights    INTEGER NOT NULL DEFAULT 0,
    last_flown TEXT,
    latest_id  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO guild_totals (guild_id, flights, last_flown, latest_id)
SELECT guild_id, COUNT(*), MAX(flown_at), MAX(id) FROM logbook GROUP BY guild_id;
CREATE TRIGGER guild_totals_on_logbook AFTER INSERT ON logbook
BEGIN
    INSERT INTO guild_totals (guild_id, flights, last_flown, latest_id)
    VALUES (NEW.guild_id, 1, NEW.flown_at, NEW.id)
    ON CONFLICT (guild_id) DO UPDATE SET
        flights = flights + 1,
        last_flown = max(COALESCE(last_flown, ''), excluded.last_flown),
        latest_id = max(latest_id, excluded.latest_id);
END;

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
