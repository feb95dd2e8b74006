-- 012 run limits: a run can end `limited`, stopped by a budget before a request that would
-- exceed it (`goclaw run --max-cost`, `[agents.KEY] max_cost`). SQLite cannot change a CHECK
-- constraint, so the table is copied; foreign keys are off while migrations run (the
-- migration runner turns them off, then checks them), so dropping the old table deletes none
-- of its spans.
CREATE TABLE runs_new (
    id            TEXT PRIMARY KEY,                 -- UUID v7
    session       TEXT,
    agent         TEXT NOT NULL,
    user_id       TEXT,
    status        TEXT NOT NULL CHECK (status IN
                    ('running', 'completed', 'failed', 'cancelled', 'timed_out', 'denied', 'abandoned', 'limited')),
    pid           INTEGER,
    heartbeat_at  INTEGER,
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    provider      TEXT,
    model         TEXT,
    message       TEXT,                             -- the user's message
    content       TEXT,                             -- the final answer
    silent        INTEGER NOT NULL DEFAULT 0,
    iterations    INTEGER NOT NULL DEFAULT 0,
    tool_calls    INTEGER NOT NULL DEFAULT 0,
    input_tokens  INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost          REAL NOT NULL DEFAULT 0,
    error         TEXT,
    parent_run_id TEXT,
    depth         INTEGER NOT NULL DEFAULT 0,
    label         TEXT
) STRICT;
INSERT INTO runs_new (id, session, agent, user_id, status, pid, heartbeat_at, started_at, ended_at,
                      provider, model, message, content, silent, iterations, tool_calls,
                      input_tokens, output_tokens, cost, error, parent_run_id, depth, label)
    SELECT id, session, agent, user_id, status, pid, heartbeat_at, started_at, ended_at,
           provider, model, message, content, silent, iterations, tool_calls,
           input_tokens, output_tokens, cost, error, parent_run_id, depth, label FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
CREATE INDEX runs_by_session ON runs (session, started_at);
CREATE INDEX runs_running ON runs (status) WHERE status = 'running';
CREATE INDEX runs_by_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;
CREATE INDEX runs_started ON runs (started_at, id);
CREATE INDEX runs_agent ON runs (agent, started_at);
