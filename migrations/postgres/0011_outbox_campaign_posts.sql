-- 0011: the outbox also holds what a campaign's own clock posts (issue 25): a vote closed, the next
-- mission announced, the repairs closed and the next vote opened.  Those posts belong to no flight,
-- so `flight_id` now names the ordered queue a post goes out in: a flight's id, or
-- `campaign:<campaign id>` (bot/games/space_alert/campaign/_cog.py); it no longer references
-- `flights` (flights are never deleted, so the cascade it loses never ran).

ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_flight_id_fkey;
