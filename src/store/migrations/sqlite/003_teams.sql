-- 003 teams: teams and members, the task board (tasks, dependencies, comments, attachments,
-- audit events, full-text search) and the mailbox (messages and per-recipient reads).

CREATE TABLE teams (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    lead       TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
    settings   TEXT NOT NULL DEFAULT '{}',          -- JSON
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE team_members (
    team_id  INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    agent    TEXT NOT NULL,
    role     TEXT NOT NULL CHECK (role IN ('lead', 'member', 'reviewer')),
    added_at TEXT NOT NULL,
    PRIMARY KEY (team_id, agent)
) STRICT;

CREATE TABLE tasks (
    id               TEXT PRIMARY KEY,              -- UUID v7
    team_id          INTEGER NOT NULL REFERENCES teams (id),
    task_number      INTEGER NOT NULL,
    identifier       TEXT NOT NULL,                 -- T-007-3f9a
    subject          TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL CHECK (status IN
                         ('pending', 'in_progress', 'completed', 'blocked', 'failed', 'in_review', 'cancelled', 'stale')),
    priority         INTEGER NOT NULL DEFAULT 0,
    assignee         TEXT,                          -- who should do it (NULL: any member)
    owner            TEXT,                          -- who holds it now
    created_by       TEXT NOT NULL,
    result           TEXT,
    progress_percent INTEGER,
    progress_step    TEXT,
    locked_at        INTEGER,                       -- unix ms
    lock_expires_at  INTEGER,                       -- unix ms
    ask_user         TEXT,
    dedupe_key       TEXT,
    require_approval INTEGER NOT NULL DEFAULT 0,
    comment_count    INTEGER NOT NULL DEFAULT 0,
    metadata         TEXT NOT NULL DEFAULT '{}',
    created_at       INTEGER NOT NULL,              -- unix ms
    updated_at       INTEGER NOT NULL,
    UNIQUE (team_id, identifier),
    UNIQUE (team_id, task_number),
    UNIQUE (team_id, dedupe_key)
) STRICT;
CREATE INDEX tasks_board ON tasks (team_id, status, priority DESC, created_at);
CREATE INDEX tasks_owner ON tasks (owner, status);

-- Open dependencies only: an edge goes when its blocker reaches a terminal status.
CREATE TABLE task_deps (
    task_id    TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    blocker_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    PRIMARY KEY (task_id, blocker_id)
) STRICT;
CREATE INDEX task_deps_blocker ON task_deps (blocker_id);

CREATE TABLE task_comments (
    id         INTEGER PRIMARY KEY,
    task_id    TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    author     TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('note', 'blocker')),
    text       TEXT NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE task_attachments (
    id         INTEGER PRIMARY KEY,
    task_id    TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    added_by   TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (task_id, path)
) STRICT;

CREATE TABLE task_events (
    id      INTEGER PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    team_id INTEGER NOT NULL,
    event   TEXT NOT NULL CHECK (event IN ('created', 'claimed', 'assigned', 'progress', 'commented', 'reviewed',
                 'approved', 'rejected', 'completed', 'failed', 'cancelled', 'updated', 'stale', 'recovered', 'retried',
                 'attached', 'asked_user', 'cleared_ask_user', 'unblocked')),
    actor   TEXT NOT NULL,
    data    TEXT NOT NULL DEFAULT '{}',             -- JSON
    at      INTEGER NOT NULL
) STRICT;
CREATE INDEX task_events_task ON task_events (task_id, id);
CREATE INDEX task_events_team ON task_events (team_id, id);

-- Full-text search over subject and description, kept in step by triggers.
CREATE VIRTUAL TABLE tasks_fts USING fts5 (subject, description, content = 'tasks', content_rowid = 'rowid', tokenize = 'unicode61');
CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO tasks_fts (rowid, subject, description) VALUES (new.rowid, new.subject, new.description);
END;
CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
    INSERT INTO tasks_fts (tasks_fts, rowid, subject, description) VALUES ('delete', old.rowid, old.subject, old.description);
END;
CREATE TRIGGER tasks_fts_update AFTER UPDATE OF subject, description ON tasks BEGIN
    INSERT INTO tasks_fts (tasks_fts, rowid, subject, description) VALUES ('delete', old.rowid, old.subject, old.description);
    INSERT INTO tasks_fts (rowid, subject, description) VALUES (new.rowid, new.subject, new.description);
END;

-- The mailbox. A broadcast has no recipient; who has read what is kept per recipient.
CREATE TABLE messages (
    id         INTEGER PRIMARY KEY,
    team_id    INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    sender     TEXT NOT NULL,
    recipient  TEXT,                                -- NULL: every member but the sender
    kind       TEXT NOT NULL CHECK (kind IN ('chat', 'broadcast', 'escalation')),
    text       TEXT NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX messages_recipient ON messages (team_id, recipient, id);

CREATE TABLE message_reads (
    message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    agent      TEXT NOT NULL,
    read_at    INTEGER NOT NULL,
    PRIMARY KEY (message_id, agent)
) STRICT;
