-- 0004: what several bot processes agree on through the database.  SQLite is normally
-- one process, but the tables exist on both backends so the storage interface is the same.
--
-- leases: who runs a flight's clock.  A row is held by `holder` (a process name, host:pid) until
-- `expires_at` (unix seconds); the holder renews it, anyone may take it once it has expired.
CREATE TABLE leases (
    name       TEXT PRIMARY KEY,   -- 'flight:<id>'
    holder     TEXT NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX leases_by_holder ON leases (holder);

-- identify_slots: the last IDENTIFY time handed out per rate-limit bucket (shard_id % max
-- concurrency), so processes starting together keep Discord's one-per-5-seconds rule.
CREATE TABLE identify_slots (
    bucket  INTEGER PRIMARY KEY,
    last_at REAL NOT NULL
);

-- cluster_values: small facts shared by every process (the hash of the last synced command tree).
CREATE TABLE cluster_values (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
