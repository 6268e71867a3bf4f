-- 0010 (PostgreSQL): the twin of migrations/sqlite/0011_elite_results.sql (ELITE records its
-- finished games in game_results and its own elite_results; the games the logbook kept are carried
-- over, logbook_elite dropped; guild_totals keeps counting ELITE games).
CREATE TABLE elite_results (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- the order games were recorded in
    session_id    TEXT NOT NULL UNIQUE REFERENCES game_results (session_id),
    guild_id      BIGINT NOT NULL,
    finished_at   TEXT NOT NULL,
    map           TEXT NOT NULL,
    mission       TEXT NOT NULL,
    difficulty    TEXT NOT NULL,
    players       INTEGER NOT NULL,
    heroes        JSONB NOT NULL,
    rounds        INTEGER NOT NULL,
    result        TEXT NOT NULL CHECK (result IN ('victory', 'defeat', 'abandoned')),
    cause         TEXT,
    bosses_killed INTEGER NOT NULL DEFAULT 0,
    seed          BIGINT NOT NULL
);
CREATE INDEX elite_results_rows ON elite_results (guild_id, id);
CREATE INDEX elite_results_wins ON elite_results (guild_id, difficulty) WHERE result = 'victory';
CREATE INDEX elite_results_fewest ON elite_results (guild_id, mission, rounds) WHERE result = 'victory';

CREATE TEMPORARY TABLE elite_carried (logbook_id BIGINT PRIMARY KEY, session_id TEXT NOT NULL, fresh BOOLEAN NOT NULL);
INSERT INTO elite_carried (logbook_id, session_id, fresh)
SELECT l.id, COALESCE(m.session_id, 'elite-logbook-' || l.id), m.session_id IS NULL
FROM logbook l JOIN logbook_elite e ON e.logbook_id = l.id
LEFT JOIN LATERAL (
    SELECT MIN(r.session_id) AS session_id FROM game_results r
    WHERE r.game = 'elite' AND r.guild_id = l.guild_id AND r.channel_id = l.channel_id
      AND r.outcome = e.result AND (r.details->>'seed')::BIGINT = e.seed
) m ON TRUE
WHERE l.game = 'elite';

INSERT INTO game_sessions (id, game, guild_id, channel_id, host_id, status, state, version, created_at, updated_at)
SELECT c.session_id, 'elite', l.guild_id, l.channel_id, 0,
       CASE WHEN e.result = 'abandoned' THEN 'abandoned' ELSE 'finished' END,
       jsonb_build_object('lang', l.language), 1, l.flown_at, l.flown_at
FROM elite_carried c JOIN logbook l ON l.id = c.logbook_id JOIN logbook_elite e ON e.logbook_id = l.id
WHERE c.fresh;

INSERT INTO game_results (session_id, game, guild_id, channel_id, finished_at, outcome, players, details)
SELECT c.session_id, 'elite', l.guild_id, l.channel_id, l.flown_at, e.result, '[]'::jsonb, l.result
FROM elite_carried c JOIN logbook l ON l.id = c.logbook_id JOIN logbook_elite e ON e.logbook_id = l.id
WHERE c.fresh;

INSERT INTO elite_results (session_id, guild_id, finished_at, map, mission, difficulty, players, heroes, rounds,
                           result, cause, bosses_killed, seed)
SELECT c.session_id, e.guild_id, r.finished_at, e.map, e.mission, e.difficulty, e.players, e.heroes, e.rounds,
       e.result, e.cause, e.bosses_killed, e.seed
FROM elite_carried c JOIN logbook_elite e ON e.logbook_id = c.logbook_id
JOIN game_results r ON r.session_id = c.session_id
ORDER BY c.logbook_id
ON CONFLICT (session_id) DO NOTHING;

DROP TABLE logbook_elite;
DELETE FROM logbook WHERE game = 'elite';
DROP TABLE elite_carried;

CREATE FUNCTION guild_totals_on_elite_result() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO guild_totals AS g (guild_id, flights, last_flown, latest_id)
    VALUES (NEW.guild_id, 1, NEW.finished_at, 0)
    ON CONFLICT (guild_id) DO UPDATE SET
        flights = g.flights + 1,
        last_flown = GREATEST(g.last_flown, excluded.last_flown);
    RETURN NULL;
END
$$;
CREATE TRIGGER guild_totals_on_elite_result AFTER INSERT ON game_results
    FOR EACH ROW WHEN (NEW.game = 'elite') EXECUTE FUNCTION guild_totals_on_elite_result();
