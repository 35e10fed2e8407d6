-- 0009: a game's secret seed and salt live apart from its public config (issue 20): a read of
-- games.config never shows them. Games registered before are moved over, and their config loses
-- the two keys.
CREATE TABLE secrets (
	game_id TEXT PRIMARY KEY REFERENCES games (id),
	seed    TEXT NOT NULL CHECK (seed <> ''),
	salt    TEXT NOT NULL
) STRICT;

INSERT INTO secrets (game_id, seed, salt)
	SELECT id, json_extract(config, '$.seed'), COALESCE(json_extract(config, '$.salt'), '')
	FROM games
	WHERE json_type(config, '$.seed') = 'text' AND json_extract(config, '$.seed') <> '';

UPDATE games SET config = json_remove(config, '$.seed', '$.salt')
	WHERE json_type(config, '$.seed') IS NOT NULL OR json_type(config, '$.salt') IS NOT NULL;
