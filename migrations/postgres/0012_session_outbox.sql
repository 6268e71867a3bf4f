-- 0012 (PostgreSQL): the twin of migrations/sqlite/0013_session_outbox.sql (the posts a committed
-- change of a game session made due, sent after the commit; the message each became).

CREATE TABLE session_outbox (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES game_sessions (id),
    slot       TEXT,
    payload    JSONB NOT NULL,
    staged_at  DOUBLE PRECISION NOT NULL,
    message_id BIGINT,
    sent_at    DOUBLE PRECISION
);
CREATE INDEX session_outbox_unsent ON session_outbox (session_id, id) WHERE sent_at IS NULL;
CREATE INDEX session_outbox_slots ON session_outbox (session_id, slot, id) WHERE slot IS NOT NULL;
