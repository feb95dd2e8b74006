-- 026 run exit code: the exit code the run's own command ended with (8 when its provider failed,
-- 2 for a usage error, 143 when SIGTERM stopped it), so `runs wait` exits as the run did; the
-- status alone said 1 for every failure. NULL while running, for runs the reaper marked
-- abandoned, and in rows written before (their status decides, as it did).
ALTER TABLE runs ADD COLUMN exit_code INTEGER;
