-- 0010: ELITE's games in progress move onto the platform's session store (game_sessions, 0008):
-- one versioned document per game, one game of any kind per channel.  Each stored game is carried
-- over with its id, host and version; the data pack it started with goes into its document
-- (`pack`), where bot/games/elite/storage.py reads it.  A channel that already has another
-- game's session in progress keeps that one (the partial unique index allows only one).
INSERT INTO game_sessions (id, game, guild_id, channel_id, host_id, status, state, version, created_at, updated_at)
SELECT id, 'elite', guild_id, channel_id, host_id, 'running',
       CASE WHEN pack IS NULL THEN state ELSE json_set(state, '$.pack', json(pack)) END,
       version, updated_at, updated_at
FROM elite_games
WHERE channel_id NOT IN (SELECT channel_id FROM game_sessions WHERE status IN ('lobby', 'running'));

DROP TABLE elite_games;
