-- 0001 (PostgreSQL): the same tables as migrations/sqlite/0001-0003, in PostgreSQL's types.
-- Discord ids are BIGINT (64-bit snowflakes); JSON documents are JSONB; times stay ISO-8601 text
-- like in SQLite, so both backends hand the bot identical records.

CREATE TABLE flights (
    id               TEXT PRIMARY KEY,
    guild_id         BIGINT NOT NULL,
    channel_id       BIGINT NOT NULL,
    host_id          BIGINT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('lobby', 'flying', 'finished', 'aborted')),
    language         TEXT NOT NULL,
    voice            BOOLEAN NOT NULL DEFAULT FALSE,
    time_scale       DOUBLE PRECISION NOT NULL DEFAULT 1,
    options          JSONB NOT NULL,
    crew             JSONB NOT NULL,
    state            JSONB,
    started_at       DOUBLE PRECISION,
    lobby_message_id BIGINT,
    deck_message_id  BIGINT,
    notes            JSONB NOT NULL DEFAULT '{}',
    version          INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE UNIQUE INDEX flights_one_active_per_channel ON flights (channel_id) WHERE status IN ('lobby', 'flying');
CREATE INDEX flights_by_status ON flights (status);
CREATE INDEX flights_by_guild ON flights (guild_id) WHERE status IN ('lobby', 'flying');

CREATE TABLE flight_events (
    flight_id TEXT NOT NULL REFERENCES flights (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    at        TEXT NOT NULL,
    actor_id  BIGINT,
    kind      TEXT NOT NULL,
    payload   JSONB NOT NULL DEFAULT '{}',
    PRIMARY KEY (flight_id, seq)
);

CREATE TABLE flight_muted (
    flight_id TEXT NOT NULL REFERENCES flights (id) ON DELETE CASCADE,
    user_id   BIGINT NOT NULL,
    seq       INTEGER NOT NULL,
    PRIMARY KEY (flight_id, user_id)
);
CREATE INDEX flight_muted_by_flight ON flight_muted (flight_id, seq);

CREATE TABLE logbook (
    id                      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    flight_id               TEXT UNIQUE,
    guild_id                BIGINT NOT NULL,
    channel_id              BIGINT NOT NULL,
    flown_at                TEXT NOT NULL,
    mission_id              TEXT NOT NULL,
    generator               JSONB,
    seed                    BIGINT,
    normal_difficulty       TEXT NOT NULL,
    serious_difficulty      TEXT NOT NULL,
    language                TEXT NOT NULL,
    outcome                 TEXT NOT NULL CHECK (outcome IN ('survived', 'destroyed')),
    destroyed_by            TEXT,
    threat_points_destroyed INTEGER NOT NULL DEFAULT 0,
    threat_points_survived  INTEGER NOT NULL DEFAULT 0,
    penalties               JSONB NOT NULL DEFAULT '{}',
    observation             INTEGER NOT NULL DEFAULT 0,
    total                   INTEGER NOT NULL DEFAULT 0,
    result                  JSONB NOT NULL
);
CREATE INDEX logbook_by_guild ON logbook (guild_id, flown_at);
CREATE INDEX logbook_board ON logbook (guild_id, mission_id, normal_difficulty, serious_difficulty, total);

CREATE TABLE logbook_crew (
    logbook_id BIGINT NOT NULL REFERENCES logbook (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    user_id    BIGINT,
    name       TEXT NOT NULL,
    roles      JSONB NOT NULL DEFAULT '[]',
    PRIMARY KEY (logbook_id, position)
);
CREATE INDEX logbook_crew_by_user ON logbook_crew (user_id);

CREATE TABLE guild_settings (
    guild_id BIGINT NOT NULL,
    key      TEXT NOT NULL,
    value    JSONB NOT NULL,
    PRIMARY KEY (guild_id, key)
);

CREATE TABLE custom_missions (
    guild_id   BIGINT NOT NULL,
    mission_id TEXT NOT NULL,
    name       TEXT NOT NULL,
    timeline   JSONB NOT NULL,
    created_by BIGINT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, mission_id)
);

CREATE TABLE outbox (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    flight_id  TEXT NOT NULL REFERENCES flights (id) ON DELETE CASCADE,
    payload    JSONB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX outbox_by_flight ON outbox (flight_id, id);
