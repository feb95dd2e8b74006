-- 024 cron running: every tick first fails the runs of ticks that died, looking for runs still
-- `running`; through cron_runs_job it visited every run of every idle job, a table that grows
-- by one row a job run. This partial index holds only the runs in progress.
CREATE INDEX cron_runs_running ON cron_runs (job_id) WHERE status = 'running';
