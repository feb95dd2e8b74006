-- Team runs: a task is worked on by a run. The run that holds a task (run_id) is recorded with the
-- claim, so a claim whose run is gone (a crashed member or dispatcher) can be released, and a
-- run ends only the task it holds. dispatch_count counts the runs a dispatcher started on the
-- task (its circuit breaker); gate is a command the run's answer must pass (a quality gate).
ALTER TABLE tasks ADD COLUMN run_id TEXT;
ALTER TABLE tasks ADD COLUMN dispatch_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN gate TEXT;
CREATE INDEX tasks_by_run ON tasks (run_id) WHERE run_id IS NOT NULL;
