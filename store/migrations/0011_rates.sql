-- 0011: the forums' request budget shared by the daemons of one database (PostgreSQL): for each
-- forum host, the time its next request may go out. A daemon reserves that slot (and moves it on
-- by one request's interval) before each request, so several daemons on one forum together
-- still make at most the configured requests a second.
CREATE TABLE rates (
	host    TEXT PRIMARY KEY CHECK (host <> ''),
	next_at TEXT NOT NULL
) STRICT;
