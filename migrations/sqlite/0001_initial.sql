-- 0001: flights (lobby and live state), their append-only event log, the logbook, per-server
-- settings and custom missions.  JSON columns hold documents whose schema the code versions
-- itself (engine/flight's to_dict carries its own version); SQL migrations only shape tables.

CREATE TABLE flights (
    id               TEXT PRIMARY KEY,             -- short hex id, also inside every custom_id
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('lobby', 'flying', 'finished', 'aborted')),
    language         TEXT NOT NULL,
    voice            INTEGER NOT NULL DEFAULT 0,
    time_scale       REAL NOT NULL DEFAULT 1,
    options          TEXT NOT NULL,                -- JSON: mission, difficulties, seed
    crew             TEXT NOT NULL,                -- JSON: [{user_id, name, roles}]
    state            TEXT,                         -- JSON: engine.flight Flight.to_dict()
    started_at       REAL,                         -- unix time of flight time 0 (wall clock)
    lobby_message_id INTEGER,
    deck_message_id  INTEGER,
    notes            TEXT NOT NULL DEFAULT '{}',   -- JSON: adapter bookkeeping (notices sent, ...)
    version          INTEGER NOT NULL DEFAULT 0,   -- bumped on every save; checked on UPDATE
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

-- One active flight (lobby or flying) per channel, enforced by the database itself.
CREATE UNIQUE INDEX flights_one_active_per_channel
    ON flights (channel_id) WHERE status IN ('lobby', 'flying');
CREATE INDEX flights_by_status ON flights (status);

CREATE TABLE flight_events (
    flight_id TEXT NOT NULL REFERENCES flights (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    at        TEXT NOT NULL,
    actor_id  INTEGER,
    kind      TEXT NOT NULL,
    payload   TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (flight_id, seq)
);

CREATE TABLE logbook (
    id                      INTEGER PRIMARY KEY AUTOINCREMENT,
    flight_id               TEXT UNIQUE,
    guild_id                INTEGER NOT NULL,
    channel_id              INTEGER NOT NULL,
    flown_at                TEXT NOT NULL,
    mission_id              TEXT NOT NULL,          -- S2-1, a custom mission id, or 'random'
    generator               TEXT,                   -- JSON {seed, preset, ...} for generated missions
    seed                    INTEGER,
    normal_difficulty       TEXT NOT NULL,
    serious_difficulty      TEXT NOT NULL,
    language                TEXT NOT NULL,
    outcome                 TEXT NOT NULL CHECK (outcome IN ('survived', 'destroyed')),
    destroyed_by            TEXT,
    threat_points_destroyed INTEGER NOT NULL DEFAULT 0,
    threat_points_survived  INTEGER NOT NULL DEFAULT 0,
    penalties               TEXT NOT NULL DEFAULT '{}',  -- JSON {damage, worst_zone, knocked_out, battlebots}
    observation             INTEGER NOT NULL DEFAULT 0,
    total                   INTEGER NOT NULL DEFAULT 0,
    result                  TEXT NOT NULL               -- JSON: the engine Result without the log
);
CREATE INDEX logbook_by_guild ON logbook (guild_id, flown_at);
CREATE INDEX logbook_board ON logbook (guild_id, mission_id, normal_difficulty, serious_difficulty, total);

CREATE TABLE logbook_crew (
    logbook_id INTEGER NOT NULL REFERENCES logbook (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    user_id    INTEGER,                                 -- NULL for androids
    name       TEXT NOT NULL,
    roles      TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (logbook_id, position)
);
CREATE INDEX logbook_crew_by_user ON logbook_crew (user_id);

CREATE TABLE guild_settings (
    guild_id INTEGER NOT NULL,
    key      TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (guild_id, key)
);

CREATE TABLE custom_missions (
    guild_id   INTEGER NOT NULL,
    mission_id TEXT NOT NULL,
    name       TEXT NOT NULL,
    timeline   TEXT NOT NULL,                           -- JSON in the timeline file format
    created_by INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, mission_id)
);
