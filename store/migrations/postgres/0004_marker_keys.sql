-- 0004 (PostgreSQL): a secret key per game for its outbox markers (see SQLite's 0004_marker_keys.sql).
CREATE TABLE marker_keys (
	game_id TEXT PRIMARY KEY REFERENCES games (id),
	key     BYTEA NOT NULL CHECK (length(key) = 32)
);
