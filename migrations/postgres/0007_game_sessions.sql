-- 0007 (PostgreSQL): the twin of migrations/sqlite/0008_game_sessions.sql (one versioned
-- document per game session; one game in progress per channel held by a partial unique index).

CREATE TABLE game_sessions (
    id         TEXT PRIMARY KEY,
    game       TEXT NOT NULL,
    guild_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    host_id    BIGINT NOT NULL,
    status     TEXT NOT NULL,
    state      JSONB NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX game_sessions_one_active_per_channel
    ON game_sessions (channel_id) WHERE status IN ('lobby', 'running');
CREATE INDEX game_sessions_active_by_game
    ON game_sessions (game, created_at) WHERE status IN ('lobby', 'running');

-- How each finished session ended (records and careers of the games that are not Space Alert
-- flights; those keep the logbook).  Written in the same unit of work as the session's last change.
CREATE TABLE game_results (
    session_id  TEXT PRIMARY KEY REFERENCES game_sessions (id),
    game        TEXT NOT NULL,
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    finished_at TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    players     JSONB NOT NULL,
    details     JSONB NOT NULL
);
CREATE INDEX game_results_by_guild ON game_results (game, guild_id, finished_at);
CREATE TABLE game_result_players (
    session_id TEXT NOT NULL REFERENCES game_results (session_id),
    user_id    BIGINT NOT NULL,
    won        BOOLEAN NOT NULL,
    PRIMARY KEY (session_id, user_id)
);
CREATE INDEX game_result_players_by_user ON game_result_players (user_id);
