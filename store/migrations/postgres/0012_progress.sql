-- 0012 (PostgreSQL): long reads under way (the cold catch-up of a long thread), one row a game
-- while it lasts: pages done, pages to go, the estimate of what is left, when the read began and
-- when the row was written. `forumgm games list` and the web UI show them beside /healthz and the
-- log.
CREATE TABLE progress (
	game_id     TEXT PRIMARY KEY CHECK (game_id <> ''),
	pages_done  INTEGER NOT NULL,
	pages_to_go INTEGER NOT NULL,
	eta_seconds BIGINT NOT NULL,
	since       TEXT NOT NULL,
	updated_at  TEXT NOT NULL
);
