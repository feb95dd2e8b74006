-- 006 context: agents' context files (SOUL.md, IDENTITY.md, AGENTS.md, TOOLS.md, USER.md,
-- BOOTSTRAP.md, HEARTBEAT.md), agent-level (user_id '') or per user, and memory documents
-- (MEMORY.md, memory/*), global (user_id '') or per user, split into chunks indexed with FTS5.

CREATE TABLE context_files (
    agent      TEXT NOT NULL,
    user_id    TEXT NOT NULL DEFAULT '',
    name       TEXT NOT NULL,
    content    TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (agent, user_id, name)
) STRICT;

CREATE TABLE memory_docs (
    id         INTEGER PRIMARY KEY,
    agent      TEXT NOT NULL,
    user_id    TEXT NOT NULL DEFAULT '',
    path       TEXT NOT NULL,
    content    TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (agent, user_id, path)
) STRICT;

CREATE TABLE memory_chunks (
    id         INTEGER PRIMARY KEY,
    doc_id     INTEGER NOT NULL REFERENCES memory_docs (id) ON DELETE CASCADE,
    start_line INTEGER NOT NULL,
    end_line   INTEGER NOT NULL,
    text       TEXT NOT NULL,
    embedding  BLOB                                  -- little-endian f32s, with [memory] embeddings
) STRICT;
CREATE INDEX memory_chunks_by_doc ON memory_chunks (doc_id);

CREATE VIRTUAL TABLE memory_fts USING fts5 (text, content = 'memory_chunks', content_rowid = 'id');
CREATE TRIGGER memory_chunks_ai AFTER INSERT ON memory_chunks BEGIN
    INSERT INTO memory_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER memory_chunks_ad AFTER DELETE ON memory_chunks BEGIN
    INSERT INTO memory_fts (memory_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
