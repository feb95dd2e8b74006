-- 005 agent: sessions and their messages, runs (one per `goclaw run`, with its status machine,
-- owner pid and heartbeat) and the spans of each run's trace. Times are milliseconds since the
-- Unix epoch (UTC).

CREATE TABLE sessions (
    key              TEXT PRIMARY KEY,
    agent            TEXT NOT NULL,
    user_id          TEXT,
    summary          TEXT,                          -- set by compaction
    model            TEXT,
    provider         TEXT,
    input_tokens     INTEGER NOT NULL DEFAULT 0,
    output_tokens    INTEGER NOT NULL DEFAULT 0,
    compaction_count INTEGER NOT NULL DEFAULT 0,
    flush_compaction INTEGER NOT NULL DEFAULT -1,     -- compaction_count when memory was last flushed
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
) STRICT;

-- A session's history. Rows a run has checkpointed but not yet committed carry its run id and
-- committed = 0; readers see committed rows only. The final flush commits them and adds the
-- rest in one transaction; an abandoned run's uncommitted rows are deleted.
CREATE TABLE session_messages (
    session   TEXT NOT NULL REFERENCES sessions (key) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    message   TEXT NOT NULL,                        -- JSON: role, content, tool_calls, tool_call_id
    run_id    TEXT NOT NULL,
    committed INTEGER NOT NULL DEFAULT 1 CHECK (committed IN (0, 1)),
    PRIMARY KEY (session, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE runs (
    id            TEXT PRIMARY KEY,                 -- UUID v7
    session       TEXT,
    agent         TEXT NOT NULL,
    user_id       TEXT,
    status        TEXT NOT NULL CHECK (status IN
                    ('running', 'completed', 'failed', 'cancelled', 'timed_out', 'denied', 'abandoned')),
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
    error         TEXT
) STRICT;
CREATE INDEX runs_by_session ON runs (session, started_at);
CREATE INDEX runs_running ON runs (status) WHERE status = 'running';

-- The trace of a run: a root `agent` span, one `llm` span per call, one `tool` span per call.
CREATE TABLE spans (
    id             INTEGER PRIMARY KEY,
    run_id         TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    parent_id      INTEGER,
    kind           TEXT NOT NULL CHECK (kind IN ('agent', 'llm', 'tool')),
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
CREATE INDEX spans_by_run ON spans (run_id, id);
