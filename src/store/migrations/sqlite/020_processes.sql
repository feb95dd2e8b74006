-- 020 processes: commands `exec` started in the background (`exec {background: true}`), each
-- watched by a keeper process on its host; the `process` tool and `goclaw process` read them.
CREATE TABLE processes (
    id          INTEGER PRIMARY KEY,
    session     TEXT NOT NULL DEFAULT '',
    agent       TEXT NOT NULL DEFAULT '',
    run_id      TEXT,
    host        TEXT NOT NULL,
    command     TEXT NOT NULL,                 -- scrubbed
    cwd         TEXT NOT NULL,
    detached    INTEGER NOT NULL DEFAULT 0,
    keeper_pid  INTEGER,
    pid         INTEGER,
    status      TEXT NOT NULL DEFAULT 'starting'
                CHECK (status IN ('starting', 'running', 'exited', 'killed', 'timed_out', 'failed', 'lost')),
    exit_code   INTEGER,
    signal      INTEGER,
    reason      TEXT,
    read_offset INTEGER NOT NULL DEFAULT 0,
    started_at  INTEGER NOT NULL,
    deadline_at INTEGER NOT NULL,
    ended_at    INTEGER
) STRICT;
CREATE INDEX processes_by_session ON processes (session, status);
CREATE INDEX processes_by_end ON processes (ended_at);
