-- 014 run hosts: the machine a run's process is on, so a store several machines share marks a
-- run abandoned by its pid only on that machine (elsewhere, by its heartbeat alone).
ALTER TABLE runs ADD COLUMN host TEXT;
