-- 0005 (PostgreSQL): the twin of migrations/sqlite/0007_game_documents.sql (campaigns and ELITE
-- games as versioned documents; one ELITE game per channel held by a unique index).

ALTER TABLE campaigns ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
-- a player's flight-school progress too: two school flights ending at once both count
ALTER TABLE school_progress ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

ALTER TABLE elite_games DROP CONSTRAINT elite_games_pkey;
ALTER TABLE elite_games ADD COLUMN id TEXT;
ALTER TABLE elite_games ADD COLUMN host_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE elite_games ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
UPDATE elite_games SET id = 'legacy-' || channel_id,
    host_id = COALESCE((state ->> 'host_id')::BIGINT, 0);
ALTER TABLE elite_games ALTER COLUMN id SET NOT NULL;
ALTER TABLE elite_games ADD PRIMARY KEY (id);
CREATE UNIQUE INDEX elite_games_one_per_channel ON elite_games (channel_id);
