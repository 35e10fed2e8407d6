-- 0003 (PostgreSQL): the whole first-seen post as JSON (see SQLite's 0003_post_json.sql).
ALTER TABLE posts ADD COLUMN post_json TEXT CHECK (post_json IS NULL OR post_json::jsonb IS NOT NULL);
