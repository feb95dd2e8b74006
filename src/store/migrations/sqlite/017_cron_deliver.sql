-- 017 cron_deliver: a job may deliver its result to a channel ([channels.NAME] of config;
-- `goclaw cron add … --deliver NAME`); '' for none.
ALTER TABLE cron_jobs ADD COLUMN deliver TEXT NOT NULL DEFAULT '';
