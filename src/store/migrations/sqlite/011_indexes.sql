-- Every hot query uses an index (`ops/query_plans.rs` checks the plans of the store's
-- operations): a run's uncommitted messages, a task's comments, the board in its listing order
-- (and the claimable tasks in theirs), stale candidates by age, the audit trail by tool, agent
-- and session, and runs newest first.
CREATE INDEX session_messages_uncommitted ON session_messages (run_id) WHERE committed = 0;
CREATE INDEX task_comments_task ON task_comments (task_id, id);
DROP INDEX tasks_board;
CREATE INDEX tasks_board ON tasks (team_id, status, priority DESC, created_at, task_number);
CREATE INDEX tasks_order ON tasks (team_id, priority DESC, created_at, task_number);
CREATE INDEX tasks_claimable ON tasks (team_id, priority DESC, created_at, task_number)
    WHERE status IN ('pending', 'stale') AND owner IS NULL;
CREATE INDEX tasks_age ON tasks (team_id, status, updated_at);
CREATE INDEX tool_calls_tool ON tool_calls (tool, id);
CREATE INDEX tool_calls_agent ON tool_calls (agent, id);
CREATE INDEX tool_calls_session_id ON tool_calls (session_key, id);
CREATE INDEX runs_started ON runs (started_at, id);
CREATE INDEX runs_agent ON runs (agent, started_at);
CREATE INDEX subagents_status ON subagents (status);
