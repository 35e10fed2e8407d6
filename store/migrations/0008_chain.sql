-- 0008: each game's chain (docs/fairness.md, section 1): every roster player's thread post the
-- referee absorbed, in the order it did, with the chain's head after it. A restored referee
-- continues the chain from the game's last row; the heads let `forumgm verify --config` re-derive
-- every draw (a draw records the chain position k it was made at).
CREATE TABLE chain (
	game_id TEXT NOT NULL REFERENCES games (id),
	k       INTEGER NOT NULL CHECK (k >= 1),
	post_id TEXT NOT NULL CHECK (post_id <> ''),
	head    TEXT NOT NULL CHECK (length(head) = 64),
	PRIMARY KEY (game_id, k)
) STRICT;

-- Gapless and append-only, like the event log: the chain is public and fixed once absorbed.
CREATE TRIGGER chain_gapless BEFORE INSERT ON chain
WHEN NEW.k IS NOT (SELECT COALESCE(MAX(k), 0) + 1 FROM chain WHERE game_id = NEW.game_id)
BEGIN
	SELECT RAISE(ABORT, 'chain: k must be the next one of its game');
END;
CREATE TRIGGER chain_no_update BEFORE UPDATE ON chain
BEGIN
	SELECT RAISE(ABORT, 'chain: append-only');
END;
CREATE TRIGGER chain_no_delete BEFORE DELETE ON chain
BEGIN
	SELECT RAISE(ABORT, 'chain: append-only');
END;
