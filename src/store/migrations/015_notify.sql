-- 015 notify: nothing on SQLite, whose waiters look again (a team's mailbox and board). On
-- PostgreSQL this version adds the triggers that wake them across machines (LISTEN/NOTIFY).
SELECT 1;
