-- 0005: careers, statistics, leaderboards, campaigns, flight school and schedules.  Every query of
-- bot/storage/careers.py is answered from one of these indexes (bench/records.py measures them).

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

-- Backfill the threats of flights logged before this migration from their stored results.
INSERT INTO logbook_threats (logbook_id, position, card_id, deck, fate)
SELECT l.id, j.key, json_extract(j.value, '$.id'),
       CASE WHEN json_extract(j.value, '$.id') LIKE 'SI%' THEN 'serious_internal'
            WHEN json_extract(j.value, '$.id') LIKE 'SE%' THEN 'serious_external'
            WHEN json_extract(j.value, '$.id') LIKE 'I%' THEN 'common_internal'
            ELSE 'common_external' END,
       json_extract(j.value, '$.fate')
FROM logbook l, json_each(l.result, '$.threats') j;

-- Career totals, kept by triggers as flights are logged.  /stats must not scan a regular's
-- thousands of flights (measured: 150-400 ms p99 for the busiest players without these); with
-- them it reads a few dozen rows.  Keyed by server too, so a server shows only what it may.
-- Flights are never deleted from the logbook; if that changes, rebuild these from the logbook.
CREATE TABLE career_totals (
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    normal   TEXT NOT NULL,
    serious  TEXT NOT NULL,
    flights  INTEGER NOT NULL DEFAULT 0,
    survived INTEGER NOT NULL DEFAULT 0,
    points   INTEGER NOT NULL DEFAULT 0,        -- sum of the totals of the flights survived
    PRIMARY KEY (user_id, guild_id, normal, serious)
) WITHOUT ROWID;
CREATE TABLE career_roles (
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    roles    TEXT NOT NULL,                     -- the JSON list as logbook_crew holds it
    n        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, guild_id, roles)
) WITHOUT ROWID;
CREATE TABLE career_decks (
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    deck     TEXT NOT NULL,
    n        INTEGER NOT NULL DEFAULT 0,        -- threats of this deck destroyed on their flights
    PRIMARY KEY (user_id, guild_id, deck)
) WITHOUT ROWID;
CREATE TABLE career_killers (
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    threat   TEXT NOT NULL,
    n        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, guild_id, threat)
) WITHOUT ROWID;

INSERT INTO career_totals (user_id, guild_id, normal, serious, flights, survived, points)
SELECT c.user_id, l.guild_id, l.normal_difficulty, l.serious_difficulty, COUNT(*),
       SUM(l.outcome = 'survived'), COALESCE(SUM(CASE WHEN l.outcome = 'survived' THEN l.total END), 0)
FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id WHERE c.user_id IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO career_roles (user_id, guild_id, roles, n)
SELECT c.user_id, l.guild_id, c.roles, COUNT(*)
FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id WHERE c.user_id IS NOT NULL GROUP BY 1, 2, 3;
INSERT INTO career_decks (user_id, guild_id, deck, n)
SELECT c.user_id, l.guild_id, t.deck, COUNT(*)
FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id JOIN logbook_threats t ON t.logbook_id = l.id
WHERE c.user_id IS NOT NULL AND t.fate = 'destroyed' GROUP BY 1, 2, 3;
INSERT INTO career_killers (user_id, guild_id, threat, n)
SELECT c.user_id, l.guild_id, l.destroyed_by, COUNT(*)
FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id
WHERE c.user_id IS NOT NULL AND l.outcome = 'destroyed' AND l.destroyed_by IS NOT NULL GROUP BY 1, 2, 3;

-- A crew row is written after its logbook row (foreign key): count the flight for the member.
CREATE TRIGGER career_on_crew AFTER INSERT ON logbook_crew WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO career_totals (user_id, guild_id, normal, serious, flights, survived, points)
    SELECT NEW.user_id, l.guild_id, l.normal_difficulty, l.serious_difficulty, 1,
           l.outcome = 'survived', CASE WHEN l.outcome = 'survived' THEN l.total ELSE 0 END
    FROM logbook l WHERE l.id = NEW.logbook_id
    ON CONFLICT (user_id, guild_id, normal, serious) DO UPDATE SET
        flights = flights + 1, survived = survived + excluded.survived, points = points + excluded.points;
    INSERT INTO career_roles (user_id, guild_id, roles, n)
    SELECT NEW.user_id, l.guild_id, NEW.roles, 1 FROM logbook l WHERE l.id = NEW.logbook_id
    ON CONFLICT (user_id, guild_id, roles) DO UPDATE SET n = n + 1;
    INSERT INTO career_killers (user_id, guild_id, threat, n)
    SELECT NEW.user_id, l.guild_id, l.destroyed_by, 1 FROM logbook l
    WHERE l.id = NEW.logbook_id AND l.outcome = 'destroyed' AND l.destroyed_by IS NOT NULL
    ON CONFLICT (user_id, guild_id, threat) DO UPDATE SET n = n + 1;
    -- threats already written for this flight (the pair is counted by whichever row comes second)
    INSERT INTO career_decks (user_id, guild_id, deck, n)
    SELECT NEW.user_id, l.guild_id, t.deck, COUNT(*) FROM logbook_threats t JOIN logbook l ON l.id = t.logbook_id
    WHERE t.logbook_id = NEW.logbook_id AND t.fate = 'destroyed' GROUP BY t.deck
    ON CONFLICT (user_id, guild_id, deck) DO UPDATE SET n = n + excluded.n;
END;

CREATE TRIGGER career_on_threat AFTER INSERT ON logbook_threats WHEN NEW.fate = 'destroyed'
BEGIN
    INSERT INTO career_decks (user_id, guild_id, deck, n)
    SELECT c.user_id, l.guild_id, NEW.deck, 1 FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id
    WHERE c.logbook_id = NEW.logbook_id AND c.user_id IS NOT NULL
    ON CONFLICT (user_id, guild_id, deck) DO UPDATE SET n = n + 1;
END;

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
