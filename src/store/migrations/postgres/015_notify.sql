-- 015 notify and search: a new message or board event of a team notifies channel
-- goclaw_team_<id> when its transaction commits, so `team message wait` and the team-run
-- dispatcher on any machine wake at once instead of polling (they still look now and then,
-- should one be missed).
CREATE FUNCTION goclaw_notify_team() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('goclaw_team_' || NEW.team_id, TG_TABLE_NAME);
    RETURN NULL;
END
$$;
CREATE TRIGGER messages_notify AFTER INSERT ON messages
    FOR EACH ROW EXECUTE FUNCTION goclaw_notify_team();
CREATE TRIGGER task_events_notify AFTER INSERT ON task_events
    FOR EACH ROW EXECUTE FUNCTION goclaw_notify_team();
-- Full text splits words as SQLite's FTS5 does, at every character that is not a letter or a
-- digit (PostgreSQL's own parser keeps e-mail addresses, URLs, paths and numbers whole, so
-- `bar` did not find `foo@bar.com`).
ALTER TABLE tasks DROP COLUMN search;
ALTER TABLE tasks ADD COLUMN search tsvector GENERATED ALWAYS AS
    (to_tsvector('simple', regexp_replace(subject || ' ' || description, '[^[:alnum:]]+', ' ', 'g'))) STORED;
CREATE INDEX tasks_search ON tasks USING GIN (search);
ALTER TABLE memory_chunks DROP COLUMN search;
ALTER TABLE memory_chunks ADD COLUMN search tsvector GENERATED ALWAYS AS
    (to_tsvector('simple', regexp_replace(text, '[^[:alnum:]]+', ' ', 'g'))) STORED;
CREATE INDEX memory_chunks_search ON memory_chunks USING GIN (search);
