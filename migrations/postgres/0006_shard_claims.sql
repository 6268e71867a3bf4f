-- 0005 (PostgreSQL): which process runs which shard (issue 25; bot/claims.py).
--
-- shard_claims: one row per shard, held by `holder` (host:pid) until `expires_at` (unix seconds),
-- renewed by its heartbeat.  `token` grows by one whenever the shard changes hands (a fencing
-- token): a process renews only the token it was given, so one that stalled past its claim finds
-- the shard gone and stops instead of running it beside its successor.  `identity` is host/name:
-- a process restarted in place recognises its own dead predecessor by it.
CREATE TABLE shard_claims (
    shard_id    INTEGER PRIMARY KEY,
    shard_count INTEGER NOT NULL,
    holder      TEXT NOT NULL,
    identity    TEXT NOT NULL,
    token       BIGINT NOT NULL,
    expires_at  DOUBLE PRECISION NOT NULL,
    claimed_at  DOUBLE PRECISION NOT NULL
);
CREATE INDEX shard_claims_by_holder ON shard_claims (holder);

-- cluster_members: every running process, active or standby, as its heartbeat last saw it.
CREATE TABLE cluster_members (
    process    TEXT PRIMARY KEY,
    identity   TEXT NOT NULL,
    role       TEXT NOT NULL,  -- active | standby
    shards     TEXT NOT NULL,  -- what it runs (active) or may take over (standby), as --shards
    started_at DOUBLE PRECISION NOT NULL,
    seen_at    DOUBLE PRECISION NOT NULL
);

-- takeovers: shards that changed hands from a process that did not hand them back.
CREATE TABLE takeovers (
    id        BIGSERIAL PRIMARY KEY,
    at        DOUBLE PRECISION NOT NULL,
    taker     TEXT NOT NULL,
    previous  TEXT NOT NULL,
    shards    TEXT NOT NULL,
    reason    TEXT NOT NULL  -- lapsed | predecessor
);
