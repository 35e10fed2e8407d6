-- 0009 (PostgreSQL): a game's secret seed and salt apart from its public config (see SQLite's
-- 0009_secrets.sql). (No jsonb ? operator here: the store's queries take ? as a placeholder.)
CREATE TABLE secrets (
	game_id TEXT PRIMARY KEY REFERENCES games (id),
	seed    TEXT NOT NULL CHECK (seed <> ''),
	salt    TEXT NOT NULL
);

INSERT INTO secrets (game_id, seed, salt)
	SELECT id, config::jsonb ->> 'seed', COALESCE(config::jsonb ->> 'salt', '')
	FROM games
	WHERE jsonb_typeof(config::jsonb -> 'seed') = 'string' AND config::jsonb ->> 'seed' <> '';

UPDATE games SET config = ((config::jsonb - 'seed') - 'salt')::text
	WHERE config::jsonb -> 'seed' IS NOT NULL OR config::jsonb -> 'salt' IS NOT NULL;
