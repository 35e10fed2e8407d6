-- 0007 (PostgreSQL): the 'late' and 'clock_jump' flag kinds (see SQLite's 0007_flag_late.sql);
-- PostgreSQL changes the CHECK in place.
ALTER TABLE flags DROP CONSTRAINT flags_kind_check;
ALTER TABLE flags ADD CONSTRAINT flags_kind_check
	CHECK (kind IN ('unreadable', 'edited', 'deleted', 'not_in_roster', 'dispute', 'late', 'clock_jump', 'other'));
