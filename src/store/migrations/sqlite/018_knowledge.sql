-- 018 knowledge: the knowledge graph. Entities (a name, a type, properties as a JSON object)
-- per agent ('' for none) and user ('' for everyone), and the relations between them; full text
-- over an entity's name, type and properties (FTS5, kept by triggers).
CREATE TABLE kg_entities (
    id         INTEGER PRIMARY KEY,
    agent      TEXT NOT NULL DEFAULT '',
    user_id    TEXT NOT NULL DEFAULT '',
    name       TEXT NOT NULL,
    type       TEXT NOT NULL DEFAULT '',
    props      TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (agent, user_id, name)
) STRICT;
CREATE TABLE kg_relations (
    id         INTEGER PRIMARY KEY,
    src        INTEGER NOT NULL REFERENCES kg_entities (id) ON DELETE CASCADE,
    rel        TEXT NOT NULL,
    dst        INTEGER NOT NULL REFERENCES kg_entities (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL DEFAULT '',   -- who related them ('' for everyone)
    props      TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    UNIQUE (src, rel, dst, user_id)
) STRICT;
CREATE INDEX kg_relations_by_dst ON kg_relations (dst);
CREATE VIRTUAL TABLE kg_fts USING fts5 (name, type, props, content = 'kg_entities', content_rowid = 'id');
CREATE TRIGGER kg_entities_ai AFTER INSERT ON kg_entities BEGIN
    INSERT INTO kg_fts (rowid, name, type, props) VALUES (new.id, new.name, new.type, new.props);
END;
CREATE TRIGGER kg_entities_ad AFTER DELETE ON kg_entities BEGIN
    INSERT INTO kg_fts (kg_fts, rowid, name, type, props) VALUES ('delete', old.id, old.name, old.type, old.props);
END;
CREATE TRIGGER kg_entities_au AFTER UPDATE ON kg_entities BEGIN
    INSERT INTO kg_fts (kg_fts, rowid, name, type, props) VALUES ('delete', old.id, old.name, old.type, old.props);
    INSERT INTO kg_fts (rowid, name, type, props) VALUES (new.id, new.name, new.type, new.props);
END;
