-- Issue 7: the everyday tools' state.

-- todo: one list per session, in order.
CREATE TABLE todos (
    session_key TEXT NOT NULL,
    position INTEGER NOT NULL,
    content TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed')),
    active_form TEXT NOT NULL DEFAULT '',
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (session_key, position)
) STRICT;

-- credentialed_exec: CLIs registered with `goclaw secure-cli`; env is the sealed JSON object
-- of the variables injected into the child (AES-256-GCM, the key of secrets.rs), NULL when none.
CREATE TABLE secure_cli (
    id INTEGER PRIMARY KEY,
    binary_name TEXT NOT NULL,
    binary_path TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    env BLOB,
    env_keys TEXT NOT NULL DEFAULT '[]',
    deny_args TEXT NOT NULL DEFAULT '[]',
    deny_verbose TEXT NOT NULL DEFAULT '[]',
    timeout_secs INTEGER NOT NULL DEFAULT 30,
    tips TEXT NOT NULL DEFAULT '',
    agent TEXT NOT NULL DEFAULT '',
    enabled INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (binary_name, agent)
) STRICT;

-- Custom tools (seed 000 §11): shell templates registered with `goclaw tools add`; env is the
-- sealed JSON object of extra variables, NULL when none.
CREATE TABLE custom_tools (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    parameters TEXT NOT NULL DEFAULT '{}',
    command TEXT NOT NULL,
    working_dir TEXT NOT NULL DEFAULT '',
    timeout_secs INTEGER NOT NULL DEFAULT 60,
    env BLOB,
    env_keys TEXT NOT NULL DEFAULT '[]',
    agent TEXT NOT NULL DEFAULT '',
    enabled INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (name, agent)
) STRICT;

-- Skills published with publish_skill: a directory holding a SKILL.md, found with the
-- configured skill roots.
CREATE TABLE published_skills (
    dir TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    agent TEXT NOT NULL DEFAULT '',
    published_at INTEGER NOT NULL
) STRICT;

-- Cron: jobs (an agent run or a tool call on a schedule) and their runs. `allowed_tools` is the
-- creator's tool list when the job was made: a job never does more. A tick claims a due job by
-- advancing `next_run_ms` and taking the lease in one UPDATE, so overlapping ticks run it once.
CREATE TABLE cron_jobs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    agent TEXT NOT NULL DEFAULT '',
    user TEXT NOT NULL DEFAULT '',
    session TEXT NOT NULL DEFAULT '',
    schedule TEXT NOT NULL,
    payload TEXT NOT NULL,
    allowed_tools TEXT NOT NULL,
    created_by TEXT NOT NULL DEFAULT '',
    enabled INTEGER NOT NULL DEFAULT 1,
    delete_after_run INTEGER NOT NULL DEFAULT 0,
    next_run_ms INTEGER,
    last_run_ms INTEGER,
    last_status TEXT,
    last_error TEXT,
    lease_owner TEXT,
    lease_until_ms INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (agent, name)
) STRICT;

CREATE TABLE cron_runs (
    id INTEGER PRIMARY KEY,
    job_id INTEGER NOT NULL REFERENCES cron_jobs (id) ON DELETE CASCADE,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
    error TEXT,
    output TEXT,
    run_id TEXT,
    runner TEXT NOT NULL
) STRICT;
CREATE INDEX cron_runs_job ON cron_runs (job_id, started_at);
