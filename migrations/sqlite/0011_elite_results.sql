-- 0011: ELITE records its finished games the way every session game does (issue 23): the
-- session's `game_results` row, plus its own figures in `elite_results` (keyed by the session
-- instead of a logbook row), so the Space Alert logbook keeps Space Alert flights only.  Written by
-- bot/games/elite/storage.py.  The games the logbook kept are carried over: a game that already has
-- its session's result (finished since 0010) keeps that one; an older or abandoned game gets a
-- finished (or abandoned) session and a result of its own, dated when it was logged.  Each server's
-- count on the web pages (guild_totals) keeps counting ELITE games, now from game_results.

CREATE TABLE elite_results (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,  -- the order games were recorded in
    session_id    TEXT NOT NULL UNIQUE REFERENCES game_results (session_id),
    guild_id      INTEGER NOT NULL,
    finished_at   TEXT NOT NULL,
    map           TEXT NOT NULL,
    mission       TEXT NOT NULL,
    difficulty    TEXT NOT NULL,
    players       INTEGER NOT NULL,
    heroes        TEXT NOT NULL,            -- JSON list of hero ids
    rounds        INTEGER NOT NULL,
    result        TEXT NOT NULL CHECK (result IN ('victory', 'defeat', 'abandoned')),
    cause         TEXT,
    bosses_killed INTEGER NOT NULL DEFAULT 0,
    seed          INTEGER NOT NULL
);
-- ELITE boards: its games newest first, wins per difficulty, fewest rounds to a win per mission.
CREATE INDEX elite_results_rows ON elite_results (guild_id, id);
CREATE INDEX elite_results_wins ON elite_results (guild_id, difficulty) WHERE result = 'victory';
CREATE INDEX elite_results_fewest ON elite_results (guild_id, mission, rounds) WHERE result = 'victory';

-- Which session each logged game is: the one whose result is this game (same server, channel,
-- result and seed), else a new one named after the logbook row.
CREATE TABLE elite_carried (logbook_id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, fresh BOOLEAN NOT NULL);
INSERT INTO elite_carried (logbook_id, session_id, fresh)
SELECT l.id,
       COALESCE(
           (SELECT MIN(r.session_id) FROM game_results r
            WHERE r.game = 'elite' AND r.guild_id = l.guild_id AND r.channel_id = l.channel_id
              AND r.outcome = e.result AND json_extract(r.details, '$.seed') = e.seed),
           'elite-logbook-' || l.id),
       NOT EXISTS (SELECT 1 FROM game_results r
                   WHERE r.game = 'elite' AND r.guild_id = l.guild_id AND r.channel_id = l.channel_id
                     AND r.outcome = e.result AND json_extract(r.details, '$.seed') = e.seed)
FROM logbook l JOIN logbook_elite e ON e.logbook_id = l.id
WHERE l.game = 'elite';

INSERT INTO game_sessions (id, game, guild_id, channel_id, host_id, status, state, version, created_at, updated_at)
SELECT c.session_id, 'elite', l.guild_id, l.channel_id, 0,
       CASE WHEN e.result = 'abandoned' THEN 'abandoned' ELSE 'finished' END,
       json_object('lang', l.language), 1, l.flown_at, l.flown_at
FROM elite_carried c JOIN logbook l ON l.id = c.logbook_id JOIN logbook_elite e ON e.logbook_id = l.id
WHERE c.fresh;

INSERT INTO game_results (session_id, game, guild_id, channel_id, finished_at, outcome, players, details)
SELECT c.session_id, 'elite', l.guild_id, l.channel_id, l.flown_at, e.result, '[]', l.result
FROM elite_carried c JOIN logbook l ON l.id = c.logbook_id JOIN logbook_elite e ON e.logbook_id = l.id
WHERE c.fresh;

INSERT OR IGNORE INTO elite_results (session_id, guild_id, finished_at, map, mission, difficulty, players, heroes, rounds,
                           result, cause, bosses_killed, seed)
SELECT c.session_id, e.guild_id, r.finished_at, e.map, e.mission, e.difficulty, e.players, e.heroes, e.rounds,
       e.result, e.cause, e.bosses_killed, e.seed
FROM elite_carried c JOIN logbook_elite e ON e.logbook_id = c.logbook_id
JOIN game_results r ON r.session_id = c.session_id
ORDER BY c.logbook_id;

DROP TABLE logbook_elite;
DELETE FROM logbook WHERE game = 'elite';
DROP TABLE elite_carried;

-- The web pages count a server's ELITE games with its flights, as they did when the logbook kept them.
CREATE TRIGGER guild_totals_on_elite_result AFTER INSERT ON game_results WHEN NEW.game = 'elite'
BEGIN
    INSERT INTO guild_totals (guild_id, flights, last_flown, latest_id)
    VALUES (NEW.guild_id, 1, NEW.finished_at, 0)
    ON CONFLICT (guild_id) DO UPDATE SET
        flights = flights + 1,
        last_flown = max(COALESCE(last_flown, ''), excluded.last_flown);
END;
