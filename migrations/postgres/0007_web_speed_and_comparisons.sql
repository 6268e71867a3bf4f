-- 0007 (web logbook, helper "web"; renumber freely on merge): what the web pages need to be fast
-- at size, and the what-if comparisons the flight page shows.  The same shape as sqlite/0008.

-- A server's newest logbook row (MAX(id)) and its flight count from one index range (an
-- index-only scan): the version a cached server page is keyed by.
CREATE INDEX logbook_guild_rows ON logbook (guild_id, id);

-- A server's ended campaigns, and their count and versions (part of the server page's version).
CREATE INDEX campaigns_by_guild ON campaigns (guild_id, status, version);

-- What-if comparisons asked for on a logged flight: a player's /whatif plan, or a Hindsight
-- answer.  `changes` is a language-free JSON summary of the changed plan; asking the same thing
-- twice keeps one row.
CREATE TABLE flight_comparisons (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    flight_id     TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('whatif', 'hindsight')),
    asked_by      BIGINT,
    asked_name    TEXT NOT NULL,
    board         TEXT NOT NULL DEFAULT '',
    plan          TEXT NOT NULL DEFAULT '',
    changes       JSONB NOT NULL DEFAULT '[]',
    real_outcome  TEXT NOT NULL,
    real_total    INTEGER NOT NULL,
    alt_outcome   TEXT NOT NULL,
    alt_total     INTEGER NOT NULL,
    diverges_at   INTEGER,
    asked_at      TEXT NOT NULL,
    UNIQUE (flight_id, kind, asked_by, board, plan)
);
CREATE INDEX flight_comparisons_by_flight ON flight_comparisons (flight_id, id);
