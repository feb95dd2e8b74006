-- 015 notify: a new message or board event of a team notifies channel goclaw_team_<id> when
-- its transaction commits, so `team message wait` and the team-run dispatcher on any machine
-- wake at once instead of polling (they still look now and then, should one be missed).
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
