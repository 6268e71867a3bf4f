-- 0003: members server-muted by a flight get a table of their own (they were a JSON list in
-- flights.notes, queried with json_extract).  A row means "the bot muted this member, or is about
-- to": written before the Discord call, removed once the unmute went through, so a restart knows
-- whom to unmute.  `seq` keeps the order the members were muted in.  Discord ids are 64-bit.

CREATE TABLE flight_muted (
    flight_id TEXT NOT NULL REFERENCES flights (id) ON DELETE CASCADE,
    user_id   BIGINT NOT NULL,
    seq       INTEGER NOT NULL,
    PRIMARY KEY (flight_id, user_id)
);
CREATE INDEX flight_muted_by_flight ON flight_muted (flight_id, seq);

INSERT OR IGNORE INTO flight_muted (flight_id, user_id, seq)
    SELECT flights.id, CAST(muted.value AS INTEGER), muted.key
    FROM flights, json_each(flights.notes, '$.muted') AS muted
    WHERE json_type(flights.notes, '$.muted') = 'array';

UPDATE flights SET notes = json_remove(notes, '$.muted') WHERE json_type(notes, '$.muted') IS NOT NULL;
