-- 002 tools: the audit trail of tool calls, the rate limiter's window, the exec allowlist.

-- Every call through the gate, whatever its outcome. Arguments and result are scrubbed.
CREATE TABLE tool_calls (
    id          INTEGER PRIMARY KEY,
    at          TEXT NOT NULL,              -- RFC 3339, UTC, milliseconds
    agent       TEXT,
    user_id     TEXT,
    session_key TEXT,
    channel     TEXT,
    chat_id     TEXT,
    tool        TEXT NOT NULL,              -- the name as called (alias or canonical)
    arguments   TEXT NOT NULL,              -- JSON
    outcome     TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'denied', 'limited', 'invalid', 'not_found', 'dry_run')),
    is_error    INTEGER NOT NULL CHECK (is_error IN (0, 1)),
    duration_ms INTEGER NOT NULL,
    decision    TEXT NOT NULL,              -- JSON: what the gate decided and why
    result      TEXT                        -- the start of for_llm
) STRICT;
CREATE INDEX tool_calls_at ON tool_calls (at);
CREATE INDEX tool_calls_session ON tool_calls (session_key, at);

-- The sliding one-hour window of the tool rate limiter, per session key.
CREATE TABLE rate_limit_events (
    key   TEXT NOT NULL,
    at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX rate_limit_events_key ON rate_limit_events (key, at_ms);

-- Exec approvals: a program (absolute path) and an argument prefix, allowed or denied.
CREATE TABLE exec_approvals (
    id         INTEGER PRIMARY KEY,
    program    TEXT NOT NULL,
    args       TEXT NOT NULL,               -- JSON array
    decision   TEXT NOT NULL CHECK (decision IN ('allow', 'deny')),
    created_at TEXT NOT NULL,
    note       TEXT,
    UNIQUE (program, args, decision)
) STRICT;
