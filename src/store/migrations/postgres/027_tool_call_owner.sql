-- 027 tool call owner: the audit row of a call names the process making it (its pid, when that
-- process started, its PID namespace, its machine), so a row left `started` by a process that
-- was killed mid-call is closed when the trail is read (outcome `error`, saying so), as a run
-- whose process is gone is marked abandoned. NULL in rows written before: those stay as they are.
ALTER TABLE tool_calls ADD COLUMN pid BIGINT;
ALTER TABLE tool_calls ADD COLUMN pid_start BIGINT;
ALTER TABLE tool_calls ADD COLUMN pid_ns TEXT;
ALTER TABLE tool_calls ADD COLUMN host TEXT;
CREATE INDEX tool_calls_started ON tool_calls (id) WHERE outcome = 'started';
