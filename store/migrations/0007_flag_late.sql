-- 0007: a flag of its own kind for a post or private message that reached the bot late (first
-- seen after later ones were judged, or a private message written before a timed rule that has
-- fired): 'late' joins the kinds; and 'clock_jump', the flag that holds the timed rules after this
-- host's clock jumped forward until a moderator confirms. SQLite cannot change a CHECK in place, so the table is copied
-- into one with the wider CHECK (ids, states and notes kept; nothing references flags).
CREATE TABLE flags_0007 (
	id          INTEGER PRIMARY KEY,
	game_id     TEXT NOT NULL REFERENCES games (id),
	source      TEXT CHECK (source IN ('thread', 'pm')),
	post_id     TEXT,
	kind        TEXT NOT NULL
	            CHECK (kind IN ('unreadable', 'edited', 'deleted', 'not_in_roster', 'dispute', 'late', 'clock_jump', 'other')),
	detail      TEXT NOT NULL DEFAULT '',
	created_at  TEXT NOT NULL,
	state       TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'accepted', 'rejected', 'dismissed')),
	resolved_by TEXT NOT NULL DEFAULT '',
	resolved_at TEXT,
	note        TEXT NOT NULL DEFAULT '',
	CHECK ((source IS NULL) = (post_id IS NULL)),
	CHECK ((state = 'open') = (resolved_at IS NULL)),
	FOREIGN KEY (game_id, source, post_id) REFERENCES posts (game_id, source, post_id)
) STRICT;
INSERT INTO flags_0007 (id, game_id, source, post_id, kind, detail, created_at, state, resolved_by, resolved_at, note)
	SELECT id, game_id, source, post_id, kind, detail, created_at, state, resolved_by, resolved_at, note FROM flags;
DROP TABLE flags;
ALTER TABLE flags_0007 RENAME TO flags;
CREATE INDEX flags_by_state ON flags (state, game_id, id);
CREATE INDEX flags_by_post ON flags (game_id, source, post_id);
