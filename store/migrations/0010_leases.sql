-- 0010: games leased, not locked, where several daemons share one database (PostgreSQL). A game
-- is run by the daemon holding its lease until expires_at; the token grows by one each time the
-- game changes hands, and every write for the game checks the writer still holds that token (a
-- daemon that was paused past its lease can never write for the game again). daemons lists the
-- daemons alive (seen_at renewed with their leases), so each takes a fair share of the games.
CREATE TABLE leases (
	game_id    TEXT PRIMARY KEY REFERENCES games (id),
	owner      TEXT NOT NULL CHECK (owner <> ''),
	token      INTEGER NOT NULL CHECK (token >= 1),
	expires_at TEXT NOT NULL
) STRICT;

CREATE TABLE daemons (
	owner      TEXT PRIMARY KEY CHECK (owner <> ''),
	started_at TEXT NOT NULL,
	seen_at    TEXT NOT NULL
) STRICT;
