-- 0013 (PostgreSQL): the twin of migrations/sqlite/0014_schedule_owed.sql (what a claimed
-- schedule row still owes the channel: the post and, for an opening, the game's lobby or vote).

ALTER TABLE schedules ADD COLUMN owed TEXT;
ALTER TABLE schedules ADD COLUMN owed_at DOUBLE PRECISION;
ALTER TABLE schedules ADD COLUMN posted_message_id BIGINT;
CREATE INDEX schedules_owed ON schedules (id) WHERE owed IS NOT NULL;
