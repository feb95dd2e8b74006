//! A task worked on by a run. The claim records the run (`run_id`), so the run ends only the
//! task it holds (a task taken from it, by a blocker or the lead, is left alone), a dispatcher
//! counts its runs on the task, and a claim whose run is gone — a crashed member or dispatcher —
//! goes back to pending ([`Board::release_dead_claims`], part of every recovery).

use super::*;
use crate::store::db::Value as DbValue;

/// A run that never recorded itself is dead this long after its claim (its process failed to
/// start); one that ended without ending its task, this long after its end (it ends its task
/// right after its run row).
pub(super) const START_GRACE_MS: i64 = 30_000;

/// The claims alive on a team's board (`?1`), given `?2` = now − [`START_GRACE_MS`]: a run working
/// on its task, or one about to (its process starting, or ending its task just after its run
/// row). Every test is on a known value: with no run row, `r.status = 'abandoned'` was NULL, and
/// `NOT (… OR NULL)` left out exactly the claims of runs still starting.
pub(super) const LIVE_CLAIMS: &str = "FROM tasks t LEFT JOIN runs r ON r.id = t.run_id
     WHERE t.team_id = ?1 AND t.status = 'in_progress' AND t.run_id IS NOT NULL
       AND NOT ((r.id IS NULL AND coalesce(t.locked_at, 0) < ?2)
                OR (r.id IS NOT NULL AND r.status = 'abandoned')
                OR (r.id IS NOT NULL AND r.status != 'running' AND coalesce(r.ended_at, 0) < ?2))";

/// How a run's work on its task ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEnd {
    /// The answer completes the task.
    Complete(String),
    /// The answer is submitted for review.
    Review(String),
    /// The run failed: the task fails (`FAILED: reason`).
    Fail(String),
    /// The run was stopped (Ctrl-C, SIGTERM, a deadline of its dispatcher): the task goes back
    /// to pending, nobody holding it, so it is not lost.
    Release,
}

/// Why the run `run_id` no longer holds task `task` (failed by a blocker comment, cancelled,
/// taken back, deleted), or `None` while it does: a plain read, no recovery. A run checks it
/// before each iteration and its watch every 250 ms.
pub fn taken_from(db: Db<'_>, task: &Task, run_id: &str) -> Result<Option<String>> {
    let now: Option<(String, Option<String>)> = db.query_opt(
        "SELECT status, run_id FROM tasks WHERE id = ?1",
        db_params![&task.id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(match now {
        Some((status, held)) if status == "in_progress" && held.as_deref() == Some(run_id) => None,
        Some((status, _)) => Some(format!(
            "task {} was taken from the run: it is {status} now",
            task.identifier
        )),
        None => Some(format!("task {} is gone", task.identifier)),
    })
}

impl Board<'_> {
    /// Claims a task for a run of the acting agent: the one named, or (`None`) the most urgent
    /// it may take. `None` back when there was nothing to claim. A dispatcher's claim gives
    /// its `limit` of dispatches per task: the claim counts, and a task that used them all is
    /// not taken.
    pub fn claim_for_run(
        &mut self,
        key: Option<&str>,
        run_id: &str,
        limit: Option<i64>,
    ) -> Result<Option<Task>> {
        match key {
            Some(k) => self.claim_inner(k, Some((run_id, limit))).map(Some),
            None => self.claim_next_inner(Some((run_id, limit))),
        }
    }

    /// Fails a task nobody works on (pending, stale or blocked) that cannot be done: it used
    /// all its dispatches. Dependents stay blocked, as for any failure.
    pub fn give_up(&mut self, key: &str, reason: &str) -> Result<Option<Task>> {
        let team = self.team.clone();
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let n = tx
            .execute(
                "UPDATE tasks SET status = 'failed', result = ?2, owner = NULL, run_id = NULL, updated_at = ?3
                 WHERE id = ?1 AND status IN ('pending', 'stale', 'blocked')",
                db_params![task.id, format!("FAILED: {reason}"), now_ms()],
            )?;
        if n == 0 {
            return Ok(None);
        }
        Self::event(
            &tx,
            &team,
            &task.id,
            "failed",
            SYSTEM,
            json!({"reason": reason}),
        )?;
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit()?;
        Ok(Some(t))
    }

    /// Takes a task for a run of the acting agent: claims it when it is pending; when the agent
    /// holds it already (claimed by hand, or given back after a rejected review), records the
    /// run, unless another run of it is working on it.
    pub fn take_for_run(&mut self, key: &str, run_id: &str) -> Result<Task> {
        let team = self.team.clone();
        // Dead claims go back first: a task whose run never started is claimed anew here, not
        // released under this run's attach (which then refused it as held by nobody).
        self.recover()?;
        let tx = self.read()?;
        let task = Self::find(&tx, &team, key)?;
        drop(tx);
        if task.status != "in_progress" {
            return self
                .claim_for_run(Some(&task.id), run_id, None)?
                .ok_or_else(|| Error::internal("a claimed task vanished"));
        }
        if task.owner.as_deref() != Some(self.actor.as_str()) {
            return Err(Self::refused(
                &task,
                "work on",
                "a pending task, or one the agent holds",
            ));
        }
        self.attach_run(&task.id, run_id, false)?;
        self.reload(&task.id)
    }

    /// Records `run_id` on a task the acting agent holds, when no other live run has it. The
    /// lock is taken anew for the run: a dead claim is one whose run has not started
    /// `START_GRACE_MS` after its lock, and a claim made by hand long before must not count
    /// against a run just given the task (it was released before its process wrote its row,
    /// and the task started twice). A run that has the task and has not written its row yet
    /// (it takes the task first, then starts: its MCP servers, its provider) is live for that
    /// grace too: a second `run --task` took the task from it, and both worked on it.
    fn attach_run(&mut self, id: &str, run_id: &str, dispatched: bool) -> Result<()> {
        let (team, actor, lock) = (self.team.clone(), self.actor.clone(), self.lock_ms());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, id)?;
        let now = now_ms();
        let n = tx
            .execute(
                "UPDATE tasks SET run_id = ?3, dispatch_count = dispatch_count + ?4, locked_at = ?6, lock_expires_at = ?5, updated_at = ?6
                 WHERE id = ?1 AND status = 'in_progress' AND owner = ?2
                   AND (run_id IS NULL OR run_id = ?3
                        OR NOT (EXISTS (SELECT 1 FROM runs r WHERE r.id = tasks.run_id AND r.status = 'running')
                                OR (NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = tasks.run_id)
                                    AND coalesce(locked_at, 0) > ?7)))",
                db_params![
                    id,
                    actor,
                    run_id,
                    i64::from(dispatched),
                    now + lock,
                    now,
                    now - START_GRACE_MS
                ],
            )?;
        if n == 0 {
            return Err(Error::conflict(format!(
                "cannot work on task {}: run {} is working on it",
                task.identifier,
                task.run_id.unwrap_or_default()
            )));
        }
        if task.run_id.as_deref() != Some(run_id) {
            Self::event(&tx, &team, id, "run", &actor, json!({"run_id": run_id}))?;
        }
        tx.commit()
    }

    /// Ends the work of `run_id` on task `id`, if the run still holds it; `None` when the task
    /// was taken from it (failed by a blocker, cancelled, or already ended by the run's own
    /// tool calls), which is then left as it is.
    ///
    /// The run's end is applied before recovery, in the same transaction: recovery first took
    /// a task whose run had just died for a dead claim (back to pending, not failed, so it never
    /// counted against its dispatches), and when nothing else was written after it, the early
    /// return rolled that recovery back too, leaving the task in progress under a dead run.
    pub fn end_run(&mut self, id: &str, run_id: &str, end: &RunEnd) -> Result<Option<Task>> {
        let team = self.team.clone();
        if team.status == "active" {
            self.db.prepare_ahead(|| Self::recovery_looks(&self.db))?;
        }
        let tx = self.begin_without_recovery()?;
        let ended = Self::apply_end(&tx, &team, id, run_id, end)?;
        if team.status == "active" {
            Self::recover_in(&tx, &team)?;
        }
        tx.commit()?;
        Ok(ended)
    }

    fn apply_end(
        tx: &Db<'_>,
        team: &Team,
        id: &str,
        run_id: &str,
        end: &RunEnd,
    ) -> Result<Option<Task>> {
        let task = Self::find(tx, team, id)?;
        if task.status != "in_progress" || task.run_id.as_deref() != Some(run_id) {
            return Ok(None);
        }
        let holder = task.owner.clone().unwrap_or_else(|| SYSTEM.to_string());
        let (set, value, event, release) = match end {
            RunEnd::Complete(result) => (
                "status = 'completed', result = ?3, progress_percent = NULL",
                Some(result.clone()),
                "completed",
                true,
            ),
            RunEnd::Review(result) => (
                "status = 'in_review', result = ?3",
                Some(result.clone()),
                "reviewed",
                false,
            ),
            RunEnd::Fail(reason) => (
                "status = 'failed', result = ?3",
                Some(format!("FAILED: {reason}")),
                "failed",
                false,
            ),
            RunEnd::Release => (
                "status = 'pending', owner = NULL, progress_percent = NULL, progress_step = NULL",
                None,
                "released",
                false,
            ),
        };
        let n = tx
            .execute(
                &format!(
                    "UPDATE tasks SET {set}, run_id = NULL, locked_at = NULL, lock_expires_at = NULL, ask_user = NULL, updated_at = ?4
                     WHERE id = ?1 AND status = 'in_progress' AND run_id = ?2"
                ),
                db_params![id, run_id, value, now_ms()],
            )?;
        if n == 0 {
            return Ok(None);
        }
        Self::event(
            tx,
            team,
            id,
            event,
            &holder,
            json!({"run_id": run_id, "result": value}),
        )?;
        if release {
            Self::release_dependents(tx, team, id, &holder)?;
        }
        Self::find(tx, team, id).map(Some)
    }

    /// Claims still alive on the board of team `team_id`: a run working on its task, or one
    /// about to (its process starting, or ending its task just after its run row): what
    /// `release_dead_claims` would not release. Another dispatcher waits for these.
    pub fn live_claims(db: Db<'_>, team_id: i64) -> Result<i64> {
        db.query_row(
            &format!("SELECT count(*) {LIVE_CLAIMS}"),
            db_params![team_id, now_ms() - START_GRACE_MS],
            |r| r.get(0),
        )
    }

    /// The members with a live claim on the board of team `team_id` (see
    /// [`live_claims`](Self::live_claims)): working on a task, from any dispatcher or machine.
    pub fn live_owners(db: Db<'_>, team_id: i64) -> Result<Vec<String>> {
        db.query_map(
            &format!("SELECT DISTINCT t.owner {LIVE_CLAIMS} AND t.owner IS NOT NULL"),
            db_params![team_id, now_ms() - START_GRACE_MS],
            |r| r.get(0),
        )
    }

    /// The claims held by runs that are gone (see [`release_dead_claims`](Self::release_dead_claims)).
    pub(super) fn dead_claims_look(db: &Db<'_>) -> String {
        format!(
            "SELECT t.id, t.run_id FROM tasks t LEFT JOIN runs r ON r.id = t.run_id
             WHERE t.team_id = ?1 AND t.status = 'in_progress' AND t.run_id IS NOT NULL
               AND ((r.id IS NULL AND t.locked_at < ?2)
                    OR r.status = 'abandoned'
                    OR (r.id IS NOT NULL AND r.status != 'running' AND coalesce(r.ended_at, 0) < ?2)){}",
            Self::lock_order(db, "t.id")
        )
    }

    /// Claims whose run is gone go back to pending: the run ended without ending its task, or
    /// never started (each `START_GRACE_MS` ago). A run still marked running
    /// whose process died is found by the run reaper first (`agent::record::reap_abandoned`).
    pub(super) fn release_dead_claims(tx: &Db<'_>, team: &Team) -> Result<Vec<String>> {
        let now = now_ms();
        let found: Vec<(String, String)> = tx.query_map(
            &Self::dead_claims_look(tx),
            db_params![team.id, now - START_GRACE_MS],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let mut dead = Vec::new();
        for (id, run_id) in found {
            // Guarded by what was found: on PostgreSQL claims do not wait for recovery, and a
            // task that moved meanwhile is left as it is now (and gets no event).
            let n = tx.execute(
                "UPDATE tasks SET status = 'pending', owner = NULL, run_id = NULL, locked_at = NULL, lock_expires_at = NULL,
                        progress_percent = NULL, progress_step = NULL, updated_at = ?2
                 WHERE id = ?1 AND status = 'in_progress' AND run_id = ?3",
                db_params![id, now, run_id],
            )?;
            if n == 0 {
                continue;
            }
            Self::event(
                tx,
                team,
                &id,
                "recovered",
                SYSTEM,
                json!({"reason": "its run is gone"}),
            )?;
            dead.push(id);
        }
        Ok(dead)
    }

    /// What a member leaving the team held goes back to the board: its tasks in progress to
    /// pending, its pending tasks' assignment cleared (no one else could claim them). The
    /// member could end none of them any more; they waited for their lock to expire.
    pub(crate) fn release_member(tx: &Db<'_>, team: &Team, agent: &str) -> Result<Vec<String>> {
        let now = now_ms();
        let held: Vec<String> = tx.query_map(
            "SELECT id FROM tasks WHERE team_id = ?1 AND owner = ?2 AND status = 'in_progress'",
            db_params![team.id, agent],
            |r| r.get(0),
        )?;
        for id in &held {
            tx.execute(
                "UPDATE tasks SET status = 'pending', owner = NULL, run_id = NULL, locked_at = NULL, lock_expires_at = NULL,
                        progress_percent = NULL, progress_step = NULL, ask_user = NULL, updated_at = ?2
                 WHERE id = ?1",
                db_params![id, now],
            )?;
            let why = json!({"reason": format!("{agent} left the team")});
            Self::event(tx, team, id, "released", SYSTEM, why)?;
        }
        tx.execute(
            "UPDATE tasks SET assignee = NULL, updated_at = ?3
             WHERE team_id = ?1 AND assignee = ?2 AND status IN ('pending', 'blocked')",
            db_params![team.id, agent, now],
        )?;
        Ok(held)
    }

    /// Counts one more run a dispatcher started on the task (one it holds already).
    pub fn count_dispatch(&mut self, key: &str) -> Result<()> {
        let team = self.team.clone();
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        tx.execute(
            "UPDATE tasks SET dispatch_count = dispatch_count + 1 WHERE id = ?1",
            db_params![&task.id],
        )?;
        tx.commit()
    }

    /// Takes back the dispatch a team run counted for `run_id` when that run ended cancelled
    /// (stopped by the user or the team run's deadline, not failed by its task).
    pub fn uncount_stopped_dispatch(&mut self, key: &str, run_id: &str) -> Result<()> {
        let team = self.team.clone();
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        tx.execute(
            "UPDATE tasks SET dispatch_count = dispatch_count - 1
             WHERE id = ?1 AND dispatch_count > 0
               AND EXISTS (SELECT 1 FROM runs WHERE id = ?2 AND status = 'cancelled')",
            db_params![&task.id, run_id],
        )?;
        tx.commit()
    }

    /// The task as it is now.
    pub fn reload(&mut self, key: &str) -> Result<Task> {
        let team = self.team.clone();
        let tx = self.read()?;
        Self::find(&tx, &team, key)
    }
}

/// A task as a dispatcher watches it: the task, its result and how many runs were dispatched
/// on it.
#[derive(Debug, Clone)]
pub struct TaskState {
    pub task: Task,
    pub result: Option<String>,
    pub dispatch_count: i64,
}

/// Which of a team's tasks a dispatcher looks at: each an indexed read of what it needs, not the
/// whole board.
#[derive(Debug, Clone, Copy)]
pub enum Watch<'a> {
    /// Every task (the report at the end).
    All,
    /// One task, by id.
    Task(&'a str),
    /// The tasks `agent` holds with no run working on them (given back after a rejected review).
    HeldWithoutRun(&'a str),
    /// The tasks waiting for a run (nobody holds them) that used `n` dispatches or more.
    Spent(i64),
    /// The tasks a run submitted for review (a holder, in review).
    Submitted,
}

/// The team's tasks `which` names: a plain read.
pub fn snapshot(db: Db<'_>, team_id: i64, which: Watch<'_>) -> Result<Vec<TaskState>> {
    // Only the whole board is read in order (by the unique index on the number); the other
    // sets are small and read as they come.
    let (filter, value): (&str, Option<DbValue>) = match which {
        Watch::All => (" ORDER BY task_number", None),
        Watch::Task(id) => (" AND id = ?2", Some(DbValue::Text(id.to_string()))),
        Watch::HeldWithoutRun(agent) => (
            " AND status = 'in_progress' AND owner = ?2 AND run_id IS NULL",
            Some(DbValue::Text(agent.to_string())),
        ),
        Watch::Spent(n) => (
            " AND status IN ('pending', 'stale') AND owner IS NULL AND dispatch_count >= ?2",
            Some(DbValue::Int(n)),
        ),
        Watch::Submitted => (" AND status = 'in_review' AND owner IS NOT NULL", None),
    };
    let sql_text =
        format!("SELECT {COLUMNS}, result, dispatch_count FROM tasks WHERE team_id = ?1{filter}");
    let row = |r: &Row| {
        Ok(TaskState {
            task: row_task(r)?,
            result: r.get(14)?,
            dispatch_count: r.get(15)?,
        })
    };
    match value {
        Some(v) => db.query_map(&sql_text, db_params![team_id, v], row),
        None => db.query_map(&sql_text, db_params![team_id], row),
    }
}

/// The board's events after event `after`, oldest first (at most `limit`): a plain read.
pub fn events_after(db: Db<'_>, team_id: i64, after: i64, limit: usize) -> Result<Vec<Event>> {
    db.query_map(
        "SELECT e.id, e.task_id, t.identifier, e.event, e.actor, e.data, e.at FROM task_events e JOIN tasks t ON t.id = e.task_id
         WHERE e.team_id = ?1 AND e.id > ?2 ORDER BY e.id LIMIT ?3",
        db_params![team_id, after, limit],
        row_event,
    )
}

/// The id of the board's last event (0 for none).
pub fn last_event(db: Db<'_>, team_id: i64) -> Result<i64> {
    db.query_row(
        "SELECT coalesce(max(id), 0) FROM task_events WHERE team_id = ?1",
        db_params![team_id],
        |r| r.get(0),
    )
}

/// The task a run's ancestor works on (a subagent's parent, or further up), by identifier: what
/// the task's run may not do with the board (complete it, claim another), its subagents may not
/// either.
pub fn task_of_ancestor(db: Db<'_>, run_id: &str) -> Result<Option<String>> {
    db.query_opt(
        "WITH RECURSIVE up (id, depth) AS (
             SELECT parent_run_id, 1 FROM runs WHERE id = ?1
             UNION ALL
             SELECT r.parent_run_id, up.depth + 1 FROM runs r JOIN up ON r.id = up.id
             WHERE up.depth < 32
         )
         SELECT t.identifier FROM tasks t JOIN up ON t.run_id = up.id
         WHERE t.status = 'in_progress' LIMIT 1",
        db_params![run_id],
        |r| r.get(0),
    )
}
