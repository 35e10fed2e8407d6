-- 0008 (PostgreSQL): each game's chain (see SQLite's 0008_chain.sql): gapless and append-only.
CREATE TABLE chain (
	game_id TEXT NOT NULL REFERENCES games (id),
	k       BIGINT NOT NULL CHECK (k >= 1),
	post_id TEXT NOT NULL CHECK (post_id <> ''),
	head    TEXT NOT NULL CHECK (length(head) = 64),
	PRIMARY KEY (game_id, k)
);

CREATE FUNCTION chain_gapless() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.k IS DISTINCT FROM (SELECT COALESCE(MAX(k), 0) + 1 FROM chain WHERE game_id = NEW.game_id) THEN
		RAISE EXCEPTION 'chain: k must be the next one of its game';
	END IF;
	RETURN NEW;
END $$;
CREATE TRIGGER chain_gapless BEFORE INSERT ON chain FOR EACH ROW EXECUTE FUNCTION chain_gapless();
CREATE FUNCTION chain_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'chain: append-only';
END $$;
CREATE TRIGGER chain_no_update BEFORE UPDATE ON chain FOR EACH ROW EXECUTE FUNCTION chain_append_only();
CREATE TRIGGER chain_no_delete BEFORE DELETE ON chain FOR EACH ROW EXECUTE FUNCTION chain_append_only();
