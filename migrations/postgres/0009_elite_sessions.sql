-- 0009 (PostgreSQL): the twin of migrations/sqlite/0010_elite_sessions.sql (ELITE's games in
-- progress carried onto game_sessions, their data pack inside the document; elite_games dropped).
INSERT INTO game_sessions (id, game, guild_id, channel_id, host_id, status, state, version, created_at, updated_at)
SELECT id, 'elite', guild_id, channel_id, host_id, 'running',
       CASE WHEN pack IS NULL THEN state ELSE state || jsonb_build_object('pack', pack) END,
       version, updated_at, updated_at
FROM elite_games
WHERE channel_id NOT IN (SELECT channel_id FROM game_sessions WHERE status IN ('lobby', 'running'));

DROP TABLE elite_games;
