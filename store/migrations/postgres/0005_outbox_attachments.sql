-- 0005 (PostgreSQL): files posted with an outbox item (see SQLite's 0005_outbox_attachments.sql).
CREATE TABLE blobs (
	sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),
	data   BYTEA NOT NULL CHECK (length(data) BETWEEN 1 AND 2097152)
);

CREATE TABLE outbox_attachments (
	outbox_id    BIGINT NOT NULL REFERENCES outbox (id),
	pos          INTEGER NOT NULL CHECK (pos BETWEEN 0 AND 7),
	name         TEXT NOT NULL CHECK (name <> ''),
	content_type TEXT NOT NULL CHECK (content_type <> ''),
	sha256       TEXT NOT NULL REFERENCES blobs (sha256),
	PRIMARY KEY (outbox_id, pos)
);
