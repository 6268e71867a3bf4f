-- 0012: the outbox also holds what a campaign's own clock posts (issue 25): a vote closed, the next
-- mission announced, the repairs closed and the next vote opened.  Those posts belong to no flight,
-- so `flight_id` now names the ordered queue a post goes out in: a flight's id, or
-- `campaign:<campaign id>` (bot/games/space_alert/campaign/_cog.py).  SQLite cannot drop a foreign
-- key in place: the table is rebuilt without it, its rows, ids and sending order kept.  (Flights are
-- never deleted, so the cascade it loses never ran.)

CREATE TABLE outbox_v11 (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,  -- the sending order
    flight_id  TEXT NOT NULL,                      -- the queue: a flight id or campaign:<id>
    payload    TEXT NOT NULL,
    created_at TEXT NOT NULL
);
INSERT INTO outbox_v11 (id, flight_id, payload, created_at) SELECT id, flight_id, payload, created_at FROM outbox;
-- ids are never reused: the new table goes on counting where the old one was
DELETE FROM sqlite_sequence WHERE name = 'outbox_v11';
INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox_v11', seq FROM sqlite_sequence WHERE name = 'outbox';
DROP TABLE outbox;
ALTER TABLE outbox_v11 RENAME TO outbox;
CREATE INDEX outbox_by_flight ON outbox (flight_id, id);
