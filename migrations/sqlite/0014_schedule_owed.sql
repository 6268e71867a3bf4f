-- 0014: what a claimed schedule row still owes the channel (issue 25, "posts exactly once").
-- The scheduler claims a due row and records in the same statement what it now owes: `owed` is
-- 'remind', 'drop' or 'open' (NULL: nothing), `owed_at` the claim's unix time (the start of the
-- channel look-up after a crash) and `posted_message_id` the message the post became, once known.
-- After the commit it posts, records the message, (for 'open') awaits the game's opening, and
-- clears `owed`; a process that restarts or takes over finishes rows still owing, looking the
-- post up in the channel before sending it again.  Written through bot/platform/storage/platform.py.

ALTER TABLE schedules ADD COLUMN owed TEXT;
ALTER TABLE schedules ADD COLUMN owed_at REAL;
ALTER TABLE schedules ADD COLUMN posted_message_id INTEGER;
CREATE INDEX schedules_owed ON schedules (id) WHERE owed IS NOT NULL;
