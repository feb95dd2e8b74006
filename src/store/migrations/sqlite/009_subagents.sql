-- Subagents: runs started by other runs. A run row says who started it (parent_run_id), how deep
-- it is and its label. The subagents table is the spawn's own record, written by the parent
-- before the child exists, so the limits (concurrent children, children per parent, depth) are
-- counted in one transaction across processes; a spawn a limit refused stays as 'rejected', an
-- old finished one becomes 'archived'. While the child runs, its status is its run's.
ALTER TABLE runs ADD COLUMN parent_run_id TEXT;
ALTER TABLE runs ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN label TEXT;
CREATE INDEX runs_by_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;

CREATE TABLE subagents (
    run_id        TEXT PRIMARY KEY,                 -- the child's run id, chosen by the parent
    parent_run_id TEXT NOT NULL,
    depth         INTEGER NOT NULL,
    label         TEXT NOT NULL,
    agent         TEXT NOT NULL,
    task          TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('spawning', 'started', 'rejected', 'archived')),
    pid           INTEGER,                          -- the child process, once started
    detached      INTEGER NOT NULL DEFAULT 0 CHECK (detached IN (0, 1)),
    announced     INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1)),
    reason        TEXT,                             -- why a spawn was rejected
    created_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX subagents_by_parent ON subagents (parent_run_id, created_at);
