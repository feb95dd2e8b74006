-- Team runs: a task is worked on by a run. The run that holds a task (run_id) is recorded with the
-- claim, so a claim whose run is gone (a crashed member or dispatcher) can be released, and a
-- run ends only the task it holds. dispatch_count counts the runs a dispatcher started on the
-- task (its circuit breaker); gate is a command the run's answer must pass (a quality gate).
ALTER TABLE tasks ADD COLUMN run_id TEXT;
ALTER TABLE tasks ADD COLUMN dispatch_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN gate TEXT;
CREATE INDEX tasks_by_run ON tasks (run_id) WHERE run_id IS NOT NULL;

-- Two more task events: `run` (a run took the task) and `released` (a stopped run gave it back).
-- SQLite cannot change a CHECK constraint, so the table is copied.
CREATE TABLE task_events_new (
    id      INTEGER PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    team_id INTEGER NOT NULL,
    event   TEXT NOT NULL CHECK (event IN ('created', 'claimed', 'assigned', 'progress', 'commented', 'reviewed',
                 'approved', 'rejected', 'completed', 'failed', 'cancelled', 'updated', 'stale', 'recovered', 'retried',
                 'attached', 'asked_user', 'cleared_ask_user', 'unblocked', 'run', 'released')),
    actor   TEXT NOT NULL,
    data    TEXT NOT NULL DEFAULT '{}',             -- JSON
    at      INTEGER NOT NULL
) STRICT;
INSERT INTO task_events_new (id, task_id, team_id, event, actor, data, at)
    SELECT id, task_id, team_id, event, actor, data, at FROM task_events;
DROP TABLE task_events;
ALTER TABLE task_events_new RENAME TO task_events;
CREATE INDEX task_events_task ON task_events (task_id, id);
CREATE INDEX task_events_team ON task_events (team_id, id);

-- A third kind of span: `gate`, one check of a run's answer by a quality gate or an evaluator.
CREATE TABLE spans_new (
    id             INTEGER PRIMARY KEY,
    run_id         TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    parent_id      INTEGER,
    kind           TEXT NOT NULL CHECK (kind IN ('agent', 'llm', 'tool', 'gate')),
    name           TEXT NOT NULL,
    started_at     INTEGER NOT NULL,
    duration_ms    INTEGER,
    status         TEXT NOT NULL,
    error          TEXT,
    provider       TEXT,
    model          TEXT,
    input_tokens   INTEGER,
    output_tokens  INTEGER,
    cost           REAL,
    finish_reason  TEXT,
    tool_call_id   TEXT,
    input_preview  TEXT,                            -- GOCLAW_TRACE_VERBOSE=1 only (LLM input)
    output_preview TEXT
) STRICT;
INSERT INTO spans_new SELECT * FROM spans;
DROP TABLE spans;
ALTER TABLE spans_new RENAME TO spans;
CREATE INDEX spans_by_run ON spans (run_id, id);
