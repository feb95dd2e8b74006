-- 013 pages: every list that grows is read a page at a time in its listing order (keyset
-- cursors, `store/page.rs`), each through an index: the sessions most recently used first (of
-- one agent, or all), and a cron job's runs newest first.
CREATE INDEX sessions_recent ON sessions (updated_at, key);
CREATE INDEX sessions_agent_recent ON sessions (agent, updated_at, key);
CREATE INDEX cron_runs_job_id ON cron_runs (job_id, id);
