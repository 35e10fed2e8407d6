-- 0002: indexes for the read paths (the daemon's edit checks and outbox drain, the moderator queue)
-- and for the flags -> posts foreign key.
CREATE INDEX posts_by_verdict ON posts (game_id, verdict);
CREATE INDEX outbox_by_state ON outbox (game_id, state, id);
CREATE INDEX flags_by_state ON flags (state, game_id, id);
CREATE INDEX flags_by_post ON flags (game_id, source, post_id);
