-- 0003 (PostgreSQL): the twin of migrations/sqlite/0005_careers.sql: careers, statistics,
-- leaderboards, campaigns, flight school and schedules.  Same tables and indexes; BIGINT Discord
-- ids, JSONB documents, and the career triggers as PL/pgSQL functions.

ALTER TABLE logbook ADD COLUMN campaign_id TEXT;

CREATE INDEX logbook_crew_career ON logbook_crew (user_id, logbook_id);
DROP INDEX IF EXISTS logbook_crew_by_user;

CREATE INDEX logbook_board_guild
    ON logbook (guild_id, mission_id, normal_difficulty, serious_difficulty, total DESC, id)
    WHERE outcome = 'survived' AND campaign_id IS NULL;
CREATE INDEX logbook_board_all
    ON logbook (mission_id, normal_difficulty, serious_difficulty, total DESC, id)
    WHERE outcome = 'survived' AND campaign_id IS NULL;
DROP INDEX IF EXISTS logbook_board;

CREATE TABLE logbook_threats (
    logbook_id BIGINT NOT NULL REFERENCES logbook (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    card_id    TEXT NOT NULL,
    deck       TEXT NOT NULL,
    fate       TEXT NOT NULL,
    PRIMARY KEY (logbook_id, position)
);

INSERT INTO logbook_threats (logbook_id, position, card_id, deck, fate)
SELECT l.id, (j.ord - 1)::INTEGER, j.value ->> 'id',
       CASE WHEN j.value ->> 'id' LIKE 'SI%' THEN 'serious_internal'
            WHEN j.value ->> 'id' LIKE 'SE%' THEN 'serious_external'
            WHEN j.value ->> 'id' LIKE 'I%' THEN 'common_internal'
            ELSE 'common_external' END,
       j.value ->> 'fate'
FROM logbook l
CROSS JOIN LATERAL jsonb_array_elements(
    CASE WHEN jsonb_typeof(l.result -> 'threats') = 'array' THEN l.result -> 'threats' ELSE '[]'::JSONB END
) WITH ORDINALITY AS j (value, ord)
WHERE j.value ->> 'id' IS NOT NULL AND j.value ->> 'fate' IS NOT NULL;

CREATE TABLE career_totals (
    user_id  BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    normal   TEXT NOT NULL,
    serious  TEXT NOT NULL,
    flights  INTEGER NOT NULL DEFAULT 0,
    survived INTEGER NOT NULL DEFAULT 0,
    points   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, guild_id, normal, serious)
);
CREATE TABLE career_roles (
    user_id  BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    roles    JSONB NOT NULL,
    n        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, guild_id, roles)
);
CREATE TABLE career_decks (
    user_id  BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    deck     TEXT NOT NULL,
    n        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, guild_id, deck)
);
CREATE TABLE career_killers (
    user_id  BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    threat   TEXT NOT NULL,
    n        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, guild_id, threat)
);

INSERT INTO career_totals (user_id, guild_id, normal, serious, flights, survived, points)
SELECT c.user_id, l.guild_id, l.normal_difficulty, l.serious_difficulty, COUNT(*),
       COUNT(*) FILTER (WHERE l.outcome = 'survived'),
       COALESCE(SUM(l.total) FILTER (WHERE l.outcome = 'survived'), 0)
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
CREATE FUNCTION career_on_crew() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO career_totals AS t (user_id, guild_id, normal, serious, flights, survived, points)
    SELECT NEW.user_id, l.guild_id, l.normal_difficulty, l.serious_difficulty, 1,
           CASE WHEN l.outcome = 'survived' THEN 1 ELSE 0 END,
           CASE WHEN l.outcome = 'survived' THEN l.total ELSE 0 END
    FROM logbook l WHERE l.id = NEW.logbook_id
    ON CONFLICT (user_id, guild_id, normal, serious) DO UPDATE SET
        flights = t.flights + 1, survived = t.survived + excluded.survived, points = t.points + excluded.points;
    INSERT INTO career_roles AS r (user_id, guild_id, roles, n)
    SELECT NEW.user_id, l.guild_id, NEW.roles, 1 FROM logbook l WHERE l.id = NEW.logbook_id
    ON CONFLICT (user_id, guild_id, roles) DO UPDATE SET n = r.n + 1;
    INSERT INTO career_killers AS k (user_id, guild_id, threat, n)
    SELECT NEW.user_id, l.guild_id, l.destroyed_by, 1 FROM logbook l
    WHERE l.id = NEW.logbook_id AND l.outcome = 'destroyed' AND l.destroyed_by IS NOT NULL
    ON CONFLICT (user_id, guild_id, threat) DO UPDATE SET n = k.n + 1;
    -- threats already written for this flight (the pair is counted by whichever row comes second)
    INSERT INTO career_decks AS d (user_id, guild_id, deck, n)
    SELECT NEW.user_id, l.guild_id, th.deck, COUNT(*) FROM logbook_threats th JOIN logbook l ON l.id = th.logbook_id
    WHERE th.logbook_id = NEW.logbook_id AND th.fate = 'destroyed' GROUP BY l.guild_id, th.deck
    ON CONFLICT (user_id, guild_id, deck) DO UPDATE SET n = d.n + excluded.n;
    RETURN NULL;
END
$$;
CREATE TRIGGER career_on_crew AFTER INSERT ON logbook_crew
    FOR EACH ROW WHEN (NEW.user_id IS NOT NULL) EXECUTE FUNCTION career_on_crew();

CREATE FUNCTION career_on_threat() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO career_decks AS d (user_id, guild_id, deck, n)
    SELECT c.user_id, l.guild_id, NEW.deck, 1 FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id
    WHERE c.logbook_id = NEW.logbook_id AND c.user_id IS NOT NULL
    ON CONFLICT (user_id, guild_id, deck) DO UPDATE SET n = d.n + 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER career_on_threat AFTER INSERT ON logbook_threats
    FOR EACH ROW WHEN (NEW.fate = 'destroyed') EXECUTE FUNCTION career_on_threat();

CREATE INDEX guild_settings_by_key ON guild_settings (key, value);

CREATE TABLE campaigns (
    id           TEXT PRIMARY KEY,
    guild_id     BIGINT NOT NULL,
    channel_id   BIGINT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('running', 'finished', 'lost', 'abandoned')),
    state        JSONB NOT NULL,
    missions     INTEGER NOT NULL DEFAULT 0,
    total        INTEGER,
    destroyed_by TEXT,
    started_at   TEXT NOT NULL,
    finished_at  TEXT
);
CREATE TABLE campaign_crew (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    user_id     BIGINT,
    name        TEXT NOT NULL,
    PRIMARY KEY (campaign_id, position)
);
CREATE INDEX campaign_crew_by_user ON campaign_crew (user_id, campaign_id);
CREATE INDEX campaigns_running ON campaigns (status) WHERE status = 'running';
CREATE INDEX campaigns_board_guild ON campaigns (guild_id, total DESC, id) WHERE status = 'finished';
CREATE INDEX campaigns_board_all ON campaigns (total DESC, id) WHERE status = 'finished';

CREATE TABLE school_progress (
    user_id    BIGINT PRIMARY KEY,
    progress   JSONB NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE schedules (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    host_id    BIGINT NOT NULL,
    at         DOUBLE PRECISION NOT NULL,
    mission    TEXT NOT NULL,
    campaign   INTEGER NOT NULL DEFAULT 0,
    reminded   INTEGER NOT NULL DEFAULT 0,
    done       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX schedules_due ON schedules (done, at);
