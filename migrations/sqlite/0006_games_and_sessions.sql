-- 0006: the platform's second game (Project: ELITE) and what campaigns, schedules and
-- the ELITE director keep between restarts.  Written through bot/storage/platform.py.

-- A logbook row knows its game.  Space Alert rows keep their columns; an ELITE row sets
-- mission_id = its mission, both difficulties = its difficulty, outcome survived (victory) or
-- destroyed (defeat, abandoned), and its own figures live in logbook_elite.
ALTER TABLE logbook ADD COLUMN game TEXT NOT NULL DEFAULT 'space_alert' CHECK (game IN ('space_alert', 'elite'));
CREATE INDEX logbook_by_game ON logbook (guild_id, game, flown_at);

CREATE TABLE logbook_elite (
    logbook_id    INTEGER PRIMARY KEY REFERENCES logbook (id) ON DELETE CASCADE,
    guild_id      INTEGER NOT NULL,
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
-- ELITE boards: wins per difficulty, fewest rounds to a win per mission (per server).
CREATE INDEX logbook_elite_rows ON logbook_elite (guild_id, logbook_id);
CREATE INDEX logbook_elite_wins ON logbook_elite (guild_id, difficulty) WHERE result = 'victory';
CREATE INDEX logbook_elite_fewest ON logbook_elite (guild_id, mission, rounds) WHERE result = 'victory';

-- ELITE games in progress, one per channel, rewritten on every step (a restart resumes them).
-- `state` is the director's journal (bot/exts/elite/_journal.py); `pack` the data pack the game
-- started with (a pack uploaded later does not change a running game).
CREATE TABLE elite_games (
    channel_id INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    state      TEXT NOT NULL,
    pack       TEXT,
    updated_at TEXT NOT NULL
);

-- ELITE data packs, one per server (validated by engine.elite.datapack before they are stored).
CREATE TABLE elite_packs (
    guild_id    INTEGER PRIMARY KEY,
    pack        TEXT NOT NULL,
    uploaded_by INTEGER NOT NULL,
    updated_at  TEXT NOT NULL
);

-- Campaign sessions live in `campaigns` (0005): while running, `state` holds the session
-- document the cog keeps ({"session", "members", "host"}); one running campaign per channel.
CREATE UNIQUE INDEX campaigns_one_running_per_channel ON campaigns (channel_id) WHERE status = 'running';

-- A scheduled flight's lobby options (difficulties, language) beside its mission.
ALTER TABLE schedules ADD COLUMN options TEXT NOT NULL DEFAULT '{}';

-- Campaigns still running in the settings-key stopgap (`campaign:<channel>` and the `campaigns`
-- index) move to their table; the cog fills their crew rows from `members` on its next save.
INSERT INTO campaigns (id, guild_id, channel_id, status, state, missions, started_at)
SELECT 'legacy-' || substr(key, 10), guild_id, CAST(substr(key, 10) AS INTEGER), 'running', value,
       COALESCE(json_array_length(value, '$.session.campaign.lines'), 0), datetime('now')
FROM guild_settings
WHERE key LIKE 'campaign:%' AND json_valid(value) AND json_extract(value, '$.session.phase') != 'finished';
DELETE FROM guild_settings WHERE key LIKE 'campaign:%' OR key = 'campaigns';
