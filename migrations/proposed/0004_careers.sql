-- PROPOSED by campaign14 (issue 14) for storage9 to number and place (migrations/sqlite/).
-- Careers, statistics, leaderboards, campaigns, flight school and schedules.  Every query of
-- bot/exts/stats/queries.py is answered from one of these indexes (bench/records.py measures them).

-- A campaign mission is a logbook line of its own; campaign_id groups the bracketed entry.
-- Single-flight leaderboards leave campaign lines out (campaigns have their own board).
ALTER TABLE logbook ADD COLUMN campaign_id TEXT;

-- Careers: "every flight of this player, newest first" without touching other players' rows.
CREATE INDEX logbook_crew_career ON logbook_crew (user_id, logbook_id);
DROP INDEX IF EXISTS logbook_crew_by_user;

-- Leaderboards: per mission and difficulty pair, best total first; partial, so destroyed ships
-- and campaign lines cost no index space.  One for a server, one across all public servers.
CREATE INDEX logbook_board_guild
    ON logbook (guild_id, mission_id, normal_difficulty, serious_difficulty, total DESC, id)
    WHERE outcome = 'survived' AND campaign_id IS NULL;
CREATE INDEX logbook_board_all
    ON logbook (mission_id, normal_difficulty, serious_difficulty, total DESC, id)
    WHERE outcome = 'survived' AND campaign_id IS NULL;
DROP INDEX IF EXISTS logbook_board;

-- The threats of each logged flight (filled from the engine Result when the entry is written),
-- so "threats destroyed by kind" is one indexed join instead of parsing every stored result.
CREATE TABLE logbook_threats (
    logbook_id INTEGER NOT NULL REFERENCES logbook (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    card_id    TEXT NOT NULL,
    deck       TEXT NOT NULL,   -- common_external | serious_external | common_internal | serious_internal
    fate       TEXT NOT NULL,   -- destroyed | survived | active | not_appeared
    PRIMARY KEY (logbook_id, position)
);

-- Public leaderboards: the servers whose guild_settings say leaderboard = "public".
CREATE INDEX guild_settings_by_key ON guild_settings (key, value);

-- Campaigns (rulebook §6): the engine.campaign.flow.Campaign document, scored when finished.
CREATE TABLE campaigns (
    id           TEXT PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('running', 'finished', 'lost', 'abandoned')),
    state        TEXT NOT NULL,          -- JSON: Campaign.to_dict()
    missions     INTEGER NOT NULL DEFAULT 0,
    total        INTEGER,                -- NULL until finished; stays NULL when lost
    destroyed_by TEXT,
    started_at   TEXT NOT NULL,
    finished_at  TEXT
);
CREATE TABLE campaign_crew (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    user_id     INTEGER,
    name        TEXT NOT NULL,
    PRIMARY KEY (campaign_id, position)
);
CREATE INDEX campaign_crew_by_user ON campaign_crew (user_id, campaign_id);
CREATE INDEX campaigns_running ON campaigns (status) WHERE status = 'running';
CREATE INDEX campaigns_board_guild ON campaigns (guild_id, total DESC, id) WHERE status = 'finished';
CREATE INDEX campaigns_board_all ON campaigns (total DESC, id) WHERE status = 'finished';

-- Flight school progress, one JSON document per player (engine.school.progress.SchoolProgress).
CREATE TABLE school_progress (
    user_id    INTEGER PRIMARY KEY,
    progress   TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- /mission schedule: restart-proof announcements; the due ones are found by (done, at).
CREATE TABLE schedules (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    host_id    INTEGER NOT NULL,
    at         REAL NOT NULL,            -- unix time the lobby opens
    mission    TEXT NOT NULL,
    campaign   INTEGER NOT NULL DEFAULT 0,
    reminded   INTEGER NOT NULL DEFAULT 0,
    done       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX schedules_due ON schedules (done, at);
