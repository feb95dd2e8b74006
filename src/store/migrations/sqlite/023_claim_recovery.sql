-- 023 claim recovery: every write to a board first releases claims whose lock expired or whose
-- run is gone. Both looks went through tasks_age (team_id, status) and so visited every task in
-- progress, at every claim: these partial indexes hold only the claims each look is about.
CREATE INDEX tasks_lock_expiry ON tasks (team_id, lock_expires_at)
    WHERE status = 'in_progress' AND run_id IS NULL;
CREATE INDEX tasks_run_claims ON tasks (team_id, status, run_id)
    WHERE run_id IS NOT NULL;
