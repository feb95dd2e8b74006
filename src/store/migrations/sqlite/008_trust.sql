-- The audit row is written before a tool runs (outcome 'started'), then completed; a call whose
-- row cannot be written does not run. SQLite cannot change a CHECK constraint in place, so the
-- table is rebuilt with the same columns and indexes.
CREATE TABLE tool_calls_new (
    id          INTEGER PRIMARY KEY,
    at          TEXT NOT NULL,              -- RFC 3339, UTC, milliseconds
    agent       TEXT,
    user_id     TEXT,
    session_key TEXT,
    channel     TEXT,
    chat_id     TEXT,
    tool        TEXT NOT NULL,              -- the name as called (alias or canonical)
    arguments   TEXT NOT NULL,              -- JSON
    outcome     TEXT NOT NULL CHECK (outcome IN ('started', 'ok', 'error', 'denied', 'limited', 'invalid', 'not_found', 'dry_run')),
    is_error    INTEGER NOT NULL CHECK (is_error IN (0, 1)),
    duration_ms INTEGER NOT NULL,
    decision    TEXT NOT NULL,              -- JSON: what the gate decided and why
    result      TEXT                        -- the start of for_llm
) STRICT;
INSERT INTO tool_calls_new SELECT * FROM tool_calls;
DROP TABLE tool_calls;
ALTER TABLE tool_calls_new RENAME TO tool_calls;
CREATE INDEX tool_calls_at ON tool_calls (at);
CREATE INDEX tool_calls_session ON tool_calls (session_key, at);
