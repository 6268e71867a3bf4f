-- 0002 (PostgreSQL): what several bot processes agree on; same tables as
-- migrations/sqlite/0004_cluster.sql.
--
-- leases: who runs a flight's clock.  Held by `holder` (host:pid) until `expires_at` (unix
-- seconds); renewed by the holder, taken by anyone once expired.  The upsert that takes a lease
-- locks the row, so two processes racing for one flight cannot both win.
CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX leases_by_holder ON leases (holder);

-- identify_slots: the last IDENTIFY time handed out per rate-limit bucket.
CREATE TABLE identify_slots (
    bucket  INTEGER PRIMARY KEY,
    last_at DOUBLE PRECISION NOT NULL
);

-- cluster_values: small facts shared by every process (the hash of the last synced command tree).
CREATE TABLE cluster_values (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
