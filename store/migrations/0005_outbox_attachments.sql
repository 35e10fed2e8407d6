-- 0005: files posted with an outbox item (a picture of the field). A file's bytes are stored once,
-- by their sha256, however many items carry them; outbox_attachments lists an item's files in
-- order with the name and type each is posted under. Files are at most 2 MiB each (the store
-- refuses larger ones before they reach the database); an item has at most 8.
CREATE TABLE blobs (
	sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),            -- hex sha256 of data
	data   BLOB NOT NULL CHECK (length(data) BETWEEN 1 AND 2097152)
) STRICT;

CREATE TABLE outbox_attachments (
	outbox_id    INTEGER NOT NULL REFERENCES outbox (id),
	pos          INTEGER NOT NULL CHECK (pos BETWEEN 0 AND 7),      -- order within the item
	name         TEXT NOT NULL CHECK (name <> ''),
	content_type TEXT NOT NULL CHECK (content_type <> ''),
	sha256       TEXT NOT NULL REFERENCES blobs (sha256),
	PRIMARY KEY (outbox_id, pos)
) STRICT;
