-- 021 compaction lock: a session is compacted by one process at a time. A run takes the lease
-- (`compacting_until`, Unix ms) before its memory flush and summary, and gives it back after;
-- a lease left by a process that died expires.
ALTER TABLE sessions ADD COLUMN compacting_until INTEGER;
ALTER TABLE sessions ADD COLUMN compacting_by TEXT;
