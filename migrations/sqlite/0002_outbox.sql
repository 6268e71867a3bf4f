-- 0002: channel posts still queued when the bot shut down (the drain timed out), re-sent in order
-- after the restart and deleted once sent.  `payload` is a JSON document written by
-- bot/exts/mission/_flights.py ({"op": "text", ...} or {"op": "result", ...}).

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,  -- the sending order
    flight_id  TEXT NOT NULL REFERENCES flights (id) ON DELETE CASCADE,
    payload    TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX outbox_by_flight ON outbox (flight_id, id);
