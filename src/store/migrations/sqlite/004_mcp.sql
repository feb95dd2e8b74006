-- 004 mcp: MCP servers added with `goclaw mcp add`, agent and user grants, access requests.

CREATE TABLE mcp_servers (
    id             INTEGER PRIMARY KEY,
    name           TEXT NOT NULL UNIQUE,
    transport      TEXT NOT NULL CHECK (transport IN ('stdio', 'streamable-http', 'sse')),
    command        TEXT,
    args           TEXT NOT NULL DEFAULT '[]',      -- JSON array
    url            TEXT,
    env_sealed     BLOB,                            -- AES-256-GCM: JSON object of env values
    headers_sealed BLOB,                            -- AES-256-GCM: JSON object of headers
    env_keys       TEXT NOT NULL DEFAULT '[]',      -- JSON array: names only, for display
    header_keys    TEXT NOT NULL DEFAULT '[]',
    tool_prefix    TEXT NOT NULL DEFAULT '',
    timeout_secs   INTEGER NOT NULL DEFAULT 60,
    access         TEXT NOT NULL DEFAULT 'open' CHECK (access IN ('open', 'granted')),
    enabled        INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
) STRICT;

CREATE TABLE mcp_grants (
    id         INTEGER PRIMARY KEY,
    server_id  INTEGER NOT NULL REFERENCES mcp_servers (id) ON DELETE CASCADE,
    scope      TEXT NOT NULL CHECK (scope IN ('agent', 'user')),
    subject    TEXT NOT NULL,                       -- agent key or user id
    enabled    INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    tool_allow TEXT,                                -- JSON array; NULL: every tool
    tool_deny  TEXT,                                -- JSON array
    granted_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (server_id, scope, subject)
) STRICT;

CREATE TABLE mcp_requests (
    id           INTEGER PRIMARY KEY,
    server_id    INTEGER NOT NULL REFERENCES mcp_servers (id) ON DELETE CASCADE,
    scope        TEXT NOT NULL CHECK (scope IN ('agent', 'user')),
    subject      TEXT NOT NULL,
    tools        TEXT,                              -- JSON array asked for; NULL: every tool
    reason       TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    requested_by TEXT NOT NULL,
    reviewed_by  TEXT,
    reviewed_at  INTEGER,
    review_note  TEXT,
    created_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX mcp_requests_status ON mcp_requests (status, id);
