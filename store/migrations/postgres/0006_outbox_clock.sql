-- 0006 (PostgreSQL): the side's clock an outbox item starts (see SQLite's 0006_outbox_clock.sql).
ALTER TABLE outbox ADD COLUMN clock TEXT NOT NULL DEFAULT '';
