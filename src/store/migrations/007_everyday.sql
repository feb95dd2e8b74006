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
