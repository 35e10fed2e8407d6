-- 0004: a secret key per game for its outbox markers. Until now a marker was a hash of the game id
-- and the item's number, so anyone could compute the next one and post it first, making the daemon
-- believe a reply that failed had landed. A marker is now an HMAC of (game id, n) under the game's
-- key: 32 random bytes made once, when the game queues its first item after this migration, and
-- never shown (no log, no command prints it). Items queued before keep their stored markers.
CREATE TABLE marker_keys (
	game_id TEXT PRIMARY KEY REFERENCES games (id),
	key     BLOB NOT NULL CHECK (length(key) = 32)
) STRICT;
