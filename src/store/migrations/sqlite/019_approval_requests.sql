-- 019 approval_requests: approvals parked for someone elsewhere to answer (`--on-ask wait`;
-- `goclaw approvals pending`, `goclaw approvals answer ID once|always|deny`).
CREATE TABLE approval_requests (
    id           INTEGER PRIMARY KEY,
    tool         TEXT NOT NULL,
    command      TEXT NOT NULL,                 -- the command as asked about, scrubbed
    subject      TEXT NOT NULL,                 -- JSON: the parsed commands
    reason       TEXT NOT NULL,
    agent        TEXT NOT NULL DEFAULT '',
    session      TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'once', 'always', 'deny', 'expired')),
    requested_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    answered_at  INTEGER,
    answered_by  TEXT
) STRICT;
CREATE INDEX approval_requests_by_status ON approval_requests (status, id);
