-- 0001: the core tables. Times are UTC text in a fixed-width form (2006-01-02T15:04:05.000000000Z),
-- so they sort as text. Booleans are 0/1.

-- One row per running game; id comes from config.yaml.
CREATE TABLE games (
	id               TEXT PRIMARY KEY,
	name             TEXT NOT NULL CHECK (name <> ''),               -- the rules engine: crusade, ...
	config           TEXT NOT NULL CHECK (json_valid(config)),
	created_at       TEXT NOT NULL,
	paused           INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
	pause_reason     TEXT NOT NULL DEFAULT '',
	paused_by        TEXT NOT NULL DEFAULT '',
	pause_changed_at TEXT
) STRICT;

-- Every post and private message the bot has seen, with its verdict.
CREATE TABLE posts (
	game_id       TEXT NOT NULL REFERENCES games (id),
	source        TEXT NOT NULL CHECK (source IN ('thread', 'pm')),
	post_id       TEXT NOT NULL CHECK (post_id <> ''),
	author        TEXT NOT NULL,
	author_id     TEXT NOT NULL DEFAULT '',
	posted_at     TEXT NOT NULL,
	first_seen_at TEXT NOT NULL,
	text_hash     TEXT NOT NULL CHECK (length(text_hash) = 64),     -- hex sha256 of the first-seen text
	text          TEXT NOT NULL,                                     -- the first-seen text
	verdict       TEXT NOT NULL DEFAULT 'pending'
	              CHECK (verdict IN ('pending', 'accepted', 'refused', 'ignored', 'flagged')),
	judged_at     TEXT,
	edited_hash   TEXT,                                              -- the latest differing hash seen
	edited_at     TEXT,
	vanished_at   TEXT,
	PRIMARY KEY (game_id, source, post_id),
	CHECK ((verdict = 'pending') = (judged_at IS NULL)),
	CHECK ((edited_hash IS NULL) = (edited_at IS NULL))
) STRICT;

-- The event log: a game's state is the fold of its events in seq order.
CREATE TABLE events (
	game_id TEXT NOT NULL REFERENCES games (id),
	seq     INTEGER NOT NULL CHECK (seq >= 1),
	at      TEXT NOT NULL,                                           -- game time of the cause
	kind    TEXT NOT NULL CHECK (kind <> ''),
	data    TEXT NOT NULL CHECK (json_valid(data)),                  -- the engine's JSON, verbatim
	cause   TEXT NOT NULL CHECK (cause <> ''),                       -- post:<id>, pm:<id>, timer, moderator:<name>
	actor   TEXT NOT NULL DEFAULT '',
	reason  TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (game_id, seq)
) STRICT;

-- The log is gapless and append-only, whoever writes to the file.
CREATE TRIGGER events_gapless BEFORE INSERT ON events
WHEN NEW.seq IS NOT (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = NEW.game_id)
BEGIN
	SELECT RAISE(ABORT, 'events: seq must be the next one of its game');
END;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
	SELECT RAISE(ABORT, 'events: the log is append-only');
END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
	SELECT RAISE(ABORT, 'events: the log is append-only');
END;

-- Replies and private messages to send. n numbers a game's items 1..n; the marker is derived from
-- (game_id, n), so a replay of the game produces the same markers.
CREATE TABLE outbox (
	id            INTEGER PRIMARY KEY,
	game_id       TEXT NOT NULL REFERENCES games (id),
	n             INTEGER NOT NULL CHECK (n >= 1),
	kind          TEXT NOT NULL CHECK (kind IN ('reply', 'pm')),
	recipient     TEXT NOT NULL DEFAULT '',
	subject       TEXT NOT NULL DEFAULT '',
	body          TEXT NOT NULL CHECK (body <> ''),
	marker        TEXT NOT NULL UNIQUE,
	event_seq     INTEGER NOT NULL CHECK (event_seq >= 0),           -- the game's last seq when queued
	created_at    TEXT NOT NULL,
	state         TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'posted', 'failed')),
	forum_post_id TEXT NOT NULL DEFAULT '',
	attempts      INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	last_error    TEXT NOT NULL DEFAULT '',
	posted_at     TEXT,
	UNIQUE (game_id, n),
	CHECK ((kind = 'pm') = (recipient <> '')),
	CHECK ((state = 'posted') = (posted_at IS NOT NULL))
) STRICT;

-- The moderator queue. source/post_id are both NULL for a flag not about a post.
CREATE TABLE flags (
	id          INTEGER PRIMARY KEY,
	game_id     TEXT NOT NULL REFERENCES games (id),
	source      TEXT CHECK (source IN ('thread', 'pm')),
	post_id     TEXT,
	kind        TEXT NOT NULL
	            CHECK (kind IN ('unreadable', 'edited', 'deleted', 'not_in_roster', 'dispute', 'other')),
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

-- How far each reader has read (forum.Cursor as JSON).
CREATE TABLE cursors (
	game_id    TEXT NOT NULL REFERENCES games (id),
	source     TEXT NOT NULL CHECK (source IN ('thread', 'pm')),
	cursor     TEXT NOT NULL CHECK (json_valid(cursor)),
	updated_at TEXT NOT NULL,
	PRIMARY KEY (game_id, source)
) STRICT;

-- The game clock: the time of the last timed rule fired, so each fires exactly once.
CREATE TABLE clocks (
	game_id       TEXT PRIMARY KEY REFERENCES games (id),
	last_timer_at TEXT NOT NULL
) STRICT;
