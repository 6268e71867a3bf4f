-- 0007: campaigns and ELITE games become versioned documents changed through a unit of work
-- (load, pure change, save with a version check, retry), like flights; and the store holds
-- "one running game per channel" for ELITE with a unique index (a second /elite start is
-- refused by the database, not by a check before an insert).  Written through
-- bot/storage/platform.py.

ALTER TABLE campaigns ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
-- a player's flight-school progress too: two school flights ending at once both count
ALTER TABLE school_progress ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- ELITE games in progress: an id of their own, the host (member id) and a version.
CREATE TABLE elite_games_v2 (
    id         TEXT PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    host_id    INTEGER NOT NULL DEFAULT 0,
    state      TEXT NOT NULL,
    pack       TEXT,
    version    INTEGER NOT NULL DEFAULT 1,
    updated_at TEXT NOT NULL
);
INSERT INTO elite_games_v2 (id, channel_id, guild_id, host_id, state, pack, version, updated_at)
SELECT 'legacy-' || channel_id, channel_id, guild_id,
       COALESCE(CAST(json_extract(state, '$.host_id') AS INTEGER), 0), state, pack, 1, updated_at
FROM elite_games;
DROP TABLE elite_games;
ALTER TABLE elite_games_v2 RENAME TO elite_games;
CREATE UNIQUE INDEX elite_games_one_per_channel ON elite_games (channel_id);
