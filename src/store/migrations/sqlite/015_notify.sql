-- 015 notify: nothing on SQLite, whose waiters look again (a team's mailbox and board) and
-- whose FTS5 splits words already. On PostgreSQL this version adds the triggers that wake the
-- waiters across machines (LISTEN/NOTIFY) and splits full-text words as FTS5 does.
SELECT 1;
