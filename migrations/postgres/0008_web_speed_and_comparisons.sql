-- 0008 (web logbook, helper "web"; renumber freely on merge): what the web pages need to be fast
-- at size, and the what-if comparisons the flight page shows.  The same shape as sqlite/0009.

-- Each server's flight count, last flight and newest logbook row, kept by a trigger as flights are
-- logged (the index and career pages show the counts of up to every public server; the newest
-- row is the version a cached page is keyed by).  Flights are never deleted from the logbook; if
-- that changes, rebuild this from the logbook.
CREATE TABLE guild_totals (
    guild_id   BIGINT PRIMARY KEY,
    flights    BIGINT NOT NULL DEFAULT 0,
    last_flown TEXT,
    latest_id  BIGINT NOT NULL DEFAULT 0
);
INSERT INTO guild_totals (guild_id, flights, last_flown, latest_id)
SELECT guild_id, COUNT(*), MAX(flown_at), MAX(id) FROM logbook GROUP BY guild_id;
CREATE FUNCTION guild_totals_on_logbook() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO guild_totals AS g (guild_id, flights, last_flown, latest_id)
    VALUES (NEW.guild_id, 1, NEW.flown_at, NEW.id)
    ON CONFLICT (guild_id) DO UPDATE SET
        flights = g.flights + 1,
        last_flown = GREATEST(g.last_flown, excluded.last_flown),
        latest_id = GREATEST(g.latest_id, excluded.latest_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER guild_totals_on_logbook AFTER INSERT ON logbook
    FOR EACH ROW EXECUTE FUNCTION guild_totals_on_logbook();

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
