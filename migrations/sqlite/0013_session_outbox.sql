-- 0013: the posts a committed change of a game session made due (issue 25, "posts exactly once").
-- A change stages them in the same unit of work as the session's document; the platform's
-- dispatcher (bot/platform/session_posts.py) sends them after the commit and writes the message it
-- became into the same row (`message_id`, `sent_at`), so a process that takes over sends only what
-- was committed but not confirmed sent.  `slot` names a redrawable post of the session ("status"):
-- its sent row's message id is what later edits of the slot target.  Written through
-- bot/platform/storage/session_outbox.py.

CREATE TABLE session_outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,  -- the sending order
    session_id TEXT NOT NULL REFERENCES game_sessions (id),
    slot       TEXT,
    payload    TEXT NOT NULL,
    staged_at  REAL NOT NULL,     -- unix time of the commit's unit of work (the history look-up's start)
    message_id INTEGER,           -- the message it became (an edit: the message it edited)
    sent_at    REAL               -- NULL: not confirmed sent
);
CREATE INDEX session_outbox_unsent ON session_outbox (session_id, id) WHERE sent_at IS NULL;
CREATE INDEX session_outbox_slots ON session_outbox (session_id, slot, id) WHERE slot IS NOT NULL;
