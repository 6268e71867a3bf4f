-- 0008: one table for the sessions of every game the platform hosts (bot/platform/sessions.py):
-- a versioned JSON document per game, changed through a unit of work like flights.  A partial
-- unique index holds "one game in progress per channel", so two simultaneous starts cannot both
-- win.  Written through bot/platform/storage/sessions.py.

CREATE TABLE game_sessions (
    id         TEXT PRIMARY KEY,
    game       TEXT NOT NULL,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    host_id    INTEGER NOT NULL,
    status     TEXT NOT NULL,
    state      TEXT NOT NULL,
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
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    finished_at TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    players     TEXT NOT NULL,
    details     TEXT NOT NULL
);
CREATE INDEX game_results_by_guild ON game_results (game, guild_id, finished_at);
CREATE TABLE game_result_players (
    session_id TEXT NOT NULL REFERENCES game_results (session_id),
    user_id    INTEGER NOT NULL,
    won        BOOLEAN NOT NULL,
    PRIMARY KEY (session_id, user_id)
);
CREATE INDEX game_result_players_by_user ON game_result_players (user_id);
