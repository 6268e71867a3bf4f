-- 0004 (PostgreSQL): the twin of migrations/sqlite/0006_games_and_sessions.sql (the ELITE game's
-- logbook rows, games in progress and data packs; one running campaign per channel; schedule options).

ALTER TABLE logbook ADD COLUMN game TEXT NOT NULL DEFAULT 'space_alert' CHECK (game IN ('space_alert', 'elite'));
CREATE INDEX logbook_by_game ON logbook (guild_id, game, flown_at);

CREATE TABLE logbook_elite (
    logbook_id    BIGINT PRIMARY KEY REFERENCES logbook (id) ON DELETE CASCADE,
    guild_id      BIGINT NOT NULL,
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
CREATE INDEX logbook_elite_rows ON logbook_elite (guild_id, logbook_id);
CREATE INDEX logbook_elite_wins ON logbook_elite (guild_id, difficulty) WHERE result = 'victory';
CREATE INDEX logbook_elite_fewest ON logbook_elite (guild_id, mission, rounds) WHERE result = 'victory';

CREATE TABLE elite_games (
    channel_id BIGINT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    state      JSONB NOT NULL,
    pack       JSONB,
    updated_at TEXT NOT NULL
);

CREATE TABLE elite_packs (
    guild_id    BIGINT PRIMARY KEY,
    pack        JSONB NOT NULL,
    uploaded_by BIGINT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE UNIQUE INDEX campaigns_one_running_per_channel ON campaigns (channel_id) WHERE status = 'running';

ALTER TABLE schedules ADD COLUMN options JSONB NOT NULL DEFAULT '{}';

-- Campaigns still running in the settings-key stopgap (`campaign:<channel>` and the `campaigns`
-- index) move to their table; the cog fills their crew rows from `members` on its next save.
INSERT INTO campaigns (id, guild_id, channel_id, status, state, missions, started_at)
SELECT 'legacy-' || substring(key FROM 10), guild_id, CAST(substring(key FROM 10) AS BIGINT), 'running', value,
       CASE WHEN jsonb_typeof(value -> 'session' -> 'campaign' -> 'lines') = 'array'
            THEN jsonb_array_length(value -> 'session' -> 'campaign' -> 'lines') ELSE 0 END,
       to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
FROM guild_settings
WHERE key LIKE 'campaign:%' AND value -> 'session' ->> 'phase' IS DISTINCT FROM 'finished';
DELETE FROM guild_settings WHERE key LIKE 'campaign:%' OR key = 'campaigns';
