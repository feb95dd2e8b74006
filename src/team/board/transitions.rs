//! The status transitions: claims (one guarded UPDATE decides between racing workers), the holder's
//! (complete, fail, review) and the lead's (cancel, approve, reject, assign, retry), each a row of
//! [`HolderMove`](super::HolderMove) or [`LeadMove`](super::LeadMove).

use super::*;

/// The most urgent task the caller may claim (SQLite; PostgreSQL claims in one statement).
const NEXT: &str = "SELECT id FROM tasks WHERE team_id = ?1 AND status IN ('pending', 'stale') AND owner IS NULL
                   AND (assignee IS NULL OR assignee = ?2) AND (CAST(?3 AS BIGINT) IS NULL OR dispatch_count < ?3)
                 ORDER BY priority DESC, created_at, task_number LIMIT 1";
/// The claim of the task [`NEXT`] found, in the same transaction.
const TAKE: &str = "UPDATE tasks SET status = 'in_progress', owner = ?2, locked_at = ?3, lock_expires_at = ?4, updated_at = ?3,
                    run_id = ?5, dispatch_count = dispatch_count + CASE WHEN CAST(?6 AS BIGINT) IS NULL THEN 0 ELSE 1 END WHERE id = ?1";

impl Board<'_> {
    /// Claims a task: `pending` (or stale), unassigned or assigned to the caller.
    pub fn claim(&mut self, key: &str) -> Result<Task> {
        self.claim_inner(key, None)
    }

    /// Claims a task, for a run (`(run_id, dispatch limit)`) when one will work on it: the run
    /// is recorded in the same statement, and a dispatched claim (with a limit) counts against
    /// the task's dispatches and takes no task that used them all.
    pub(super) fn claim_inner(
        &mut self,
        key: &str,
        run: Option<(&str, Option<i64>)>,
    ) -> Result<Task> {
        self.writable()?;
        let (team, actor, lock) = (self.team.clone(), self.actor.clone(), self.lock_ms());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let now = now_ms();
        let (run_id, limit) = run.map_or((None, None), |(r, l)| (Some(r), l));
        let n = tx
            .execute(
                "UPDATE tasks SET status = 'in_progress', owner = ?2, locked_at = ?3, lock_expires_at = ?4, updated_at = ?3,
                        run_id = ?5, dispatch_count = dispatch_count + CASE WHEN CAST(?6 AS BIGINT) IS NULL THEN 0 ELSE 1 END
                 WHERE id = ?1 AND status IN ('pending', 'stale') AND owner IS NULL AND (assignee IS NULL OR assignee = ?2)
                   AND (CAST(?6 AS BIGINT) IS NULL OR dispatch_count < ?6)",
                db_params![task.id, actor, now, now + lock, run_id, limit],
            )?;
        if n == 0 {
            if task.assignee.as_ref().is_some_and(|a| *a != actor)
                && matches!(task.status.as_str(), "pending" | "stale")
            {
                return Err(Error::conflict(format!(
                    "cannot claim task {}: it is assigned to {}",
                    task.identifier,
                    task.assignee.clone().unwrap_or_default()
                )));
            }
            return Err(Self::refused(&task, "claim", "a pending task nobody holds"));
        }
        Self::event(
            &tx,
            &team,
            &task.id,
            "claimed",
            &actor,
            json!({"run_id": run_id}),
        )?;
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit()?;
        Ok(t)
    }

    /// Claims the most urgent task the caller may take, if any.
    pub fn claim_next(&mut self) -> Result<Option<Task>> {
        self.claim_next_inner(None)
    }

    /// [`claim_next`](Self::claim_next), for a run (see [`claim_inner`](Self::claim_inner)).
    pub(super) fn claim_next_inner(
        &mut self,
        run: Option<(&str, Option<i64>)>,
    ) -> Result<Option<Task>> {
        self.writable()?;
        if self.db.dialect() == Dialect::Postgres {
            return self.claim_next_skip_locked(run);
        }
        let (team, actor, lock) = (self.team.clone(), self.actor.clone(), self.lock_ms());
        self.db.prepare_ahead(Self::claim_next_statements)?;
        let tx = self.begin()?;
        // The write lock serialises claims: a member another dispatcher has working is seen.
        if run.is_some() && Self::working(&tx, &team, &actor)? {
            return Ok(None);
        }
        let limit = run.and_then(|(_, l)| l);
        let next: Option<String> =
            tx.query_opt(NEXT, db_params![team.id, actor, limit], |r| r.get(0))?;
        let Some(id) = next else { return Ok(None) };
        let now = now_ms();
        let run_id = run.map(|(r, _)| r);
        tx.execute(TAKE, db_params![id, actor, now, now + lock, run_id, limit])?;
        Self::claimed(tx, &team, &id, &actor, run_id).map(Some)
    }

    /// The statements a claim of the next task runs on SQLite after recovery's looks, compiled
    /// before it takes the write lock (see `Db::prepare_ahead`).
    pub(super) fn claim_next_statements() -> [String; 5] {
        [
            NEXT.to_string(),
            TAKE.to_string(),
            EVENT.to_string(),
            Self::find_by(FIND_BY_ID),
            BLOCKERS.to_string(),
        ]
    }

    /// [`claim_next_inner`](Self::claim_next_inner) on PostgreSQL, where claims need not wait
    /// for each other: recovery first, in its own transaction when nobody else writes the board
    /// (skipped otherwise: that writer recovers), then one statement takes the most urgent task
    /// no other transaction holds (`FOR UPDATE SKIP LOCKED`), so workers on every machine claim
    /// at once and never the same task.
    fn claim_next_skip_locked(&mut self, run: Option<(&str, Option<i64>)>) -> Result<Option<Task>> {
        let (team, actor, lock) = (self.team.clone(), self.actor.clone(), self.lock_ms());
        let tx = self.db.transaction(Begin::Write)?;
        let free = tx
            .query_opt(
                "SELECT id FROM teams WHERE id = ?1 FOR UPDATE SKIP LOCKED",
                db_params![team.id],
                |_| Ok(()),
            )?
            .is_some();
        if free {
            Self::recover_in(&tx, &team)?;
        }
        tx.commit()?;
        let tx = self.db.transaction(Begin::Write)?;
        if run.is_some() {
            // Claims for one member's runs take turns (a lock per team and member, until the
            // transaction ends), so the second sees the first's.
            tx.query_row(
                "SELECT pg_advisory_xact_lock(hashtextextended('goclaw member ' || ?1 || ' ' || ?2, 0))",
                db_params![team.id, actor],
                |_| Ok(()),
            )?;
            if Self::working(&tx, &team, &actor)? {
                return Ok(None);
            }
        }
        let (now, limit, run_id) = (now_ms(), run.and_then(|(_, l)| l), run.map(|(r, _)| r));
        let claimed: Option<String> = tx.query_opt(
            "UPDATE tasks SET status = 'in_progress', owner = ?2, locked_at = ?4, lock_expires_at = ?5, updated_at = ?4,
                    run_id = ?6, dispatch_count = dispatch_count + CASE WHEN CAST(?3 AS BIGINT) IS NULL THEN 0 ELSE 1 END
             WHERE id = (SELECT id FROM tasks WHERE team_id = ?1 AND status IN ('pending', 'stale') AND owner IS NULL
                           AND (assignee IS NULL OR assignee = ?2) AND (CAST(?3 AS BIGINT) IS NULL OR dispatch_count < ?3)
                         ORDER BY priority DESC, created_at, task_number LIMIT 1 FOR UPDATE SKIP LOCKED)
             RETURNING id",
            db_params![team.id, actor, limit, now, now + lock, run_id],
            |r| r.get(0),
        )?;
        let Some(id) = claimed else { return Ok(None) };
        Self::claimed(tx, &team, &id, &actor, run_id).map(Some)
    }

    /// Whether `actor` has a live claim on the board (a run working on a task, or starting
    /// on one; see [`Board::live_claims`]): one task per member at a time, across dispatchers.
    fn working(tx: &Tx<'_>, team: &Team, actor: &str) -> Result<bool> {
        tx.query_row(
            &format!(
                "SELECT count(*) {} AND t.owner = ?3",
                super::work::LIVE_CLAIMS
            ),
            db_params![team.id, now_ms() - super::work::START_GRACE_MS, actor],
            |r| r.get::<i64>(0),
        )
        .map(|n| n > 0)
    }

    /// The end of a claim made in `tx`: its event, and the task as it is now, committed.
    fn claimed(
        tx: Tx<'_>,
        team: &Team,
        id: &str,
        actor: &str,
        run_id: Option<&str>,
    ) -> Result<Task> {
        Self::event(&tx, team, id, "claimed", actor, json!({"run_id": run_id}))?;
        let t = Self::find(&tx, team, id)?;
        tx.commit()?;
        Ok(t)
    }

    /// Runs one guarded transition of a task the caller holds (or any, for `lead_may`).
    fn holder_transition(
        &mut self,
        key: &str,
        m: &HolderMove,
        value: Option<String>,
    ) -> Result<Task> {
        let HolderMove {
            action,
            from,
            set,
            event,
            release,
        } = *m;
        self.writable()?;
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        if task.status == from && task.owner.as_deref() != Some(actor.as_str()) {
            return Err(Error::conflict(format!(
                "cannot {action} task {}: it is held by {}, not {actor}",
                task.identifier,
                task.owner.clone().unwrap_or_else(|| "nobody".into())
            )));
        }
        let sql_text = format!(
            "UPDATE tasks SET {set}, updated_at = ?3 WHERE id = ?1 AND status = '{from}' AND owner = ?2"
        );
        let n = tx.execute(&sql_text, db_params![task.id, actor, now_ms(), value])?;
        if n == 0 {
            return Err(Self::refused(
                &task,
                action,
                &format!("{from}, held by the caller"),
            ));
        }
        Self::event(
            &tx,
            &team,
            &task.id,
            event,
            &actor,
            json!({"result": value}),
        )?;
        if release {
            Self::release_dependents(&tx, &team, &task.id, &actor)?;
        }
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit()?;
        Ok(t)
    }

    /// Completes a task the caller holds, and releases its dependents. In a team that requires
    /// review, and for a task with a quality gate, a member cannot complete it directly: it
    /// submits it for review, or a run on the task completes it once the gate passed.
    pub fn complete(&mut self, key: &str, result: &str) -> Result<Task> {
        if result.trim().is_empty() {
            return Err(Error::usage("complete needs a result"));
        }
        if !self.may_lead() {
            if self.team.setting("require_review").as_bool() == Some(true) {
                return Err(Error::denied(format!(
                    "team `{}` requires review: submit the result for review instead (review)",
                    self.team.name
                )));
            }
            let team = self.team.clone();
            let tx = self.read()?;
            let task = Self::find(&tx, &team, key)?;
            let gate: Option<String> = tx.query_row(
                "SELECT gate FROM tasks WHERE id = ?1",
                db_params![&task.id],
                |r| r.get(0),
            )?;
            drop(tx);
            if let Some(g) = gate {
                return Err(Error::denied(format!(
                    "task {} has a quality gate (`{g}`): a run on the task completes it once the gate passes (goclaw run --task {})",
                    task.identifier, task.identifier
                )));
            }
        }
        self.holder_transition(key, &Self::COMPLETE, Some(result.to_string()))
    }

    /// Fails a task the caller holds (`FAILED: reason`), releasing dependents as the original.
    pub fn fail(&mut self, key: &str, reason: &str) -> Result<Task> {
        if reason.trim().is_empty() {
            return Err(Error::usage("fail needs a reason"));
        }
        self.holder_transition(key, &Self::FAIL, Some(format!("FAILED: {reason}")))
    }

    /// Submits a task the caller holds for review, with its result.
    pub fn review(&mut self, key: &str, result: Option<&str>) -> Result<Task> {
        self.holder_transition(key, &Self::REVIEW, result.map(str::to_string))
    }

    /// Lead: cancels any unfinished task.
    pub fn cancel(&mut self, key: &str, reason: &str) -> Result<Task> {
        self.require_lead("cancel tasks")?;
        self.lead_transition(key, &Self::CANCEL, Some(reason.to_string()))
    }

    /// Lead: approves a task in review (it completes).
    pub fn approve(&mut self, key: &str) -> Result<Task> {
        self.require_lead("approve tasks")?;
        // A task nobody has worked on (created with require_approval) is released for work; one
        // submitted for review completes. (The original completed both.)
        self.lead_transition(key, &Self::APPROVE, None)
    }

    /// Lead: rejects a task in review. With a holder it goes back to them (in progress, the
    /// reason as feedback); without one it is cancelled.
    pub fn reject(&mut self, key: &str, reason: &str) -> Result<Task> {
        self.require_lead("reject tasks")?;
        self.lead_transition(key, &Self::REJECT, Some(format!("Rejected: {reason}")))
    }

    /// Lead: assigns a pending task to a member, who holds it at once.
    pub fn assign(&mut self, key: &str, agent: &str) -> Result<Task> {
        self.require_lead("assign tasks")?;
        self.require_member(agent)?;
        let now = now_ms();
        let lock = self.lock_ms();
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let n = tx
            .execute(
                "UPDATE tasks SET status = 'in_progress', owner = ?2, assignee = ?2, locked_at = ?3, lock_expires_at = ?4, updated_at = ?3, run_id = NULL
                 WHERE id = ?1 AND status IN ('pending', 'stale') AND owner IS NULL",
                db_params![task.id, agent, now, now + lock],
            )?;
        if n == 0 {
            return Err(Self::refused(
                &task,
                "assign",
                "a pending task nobody holds",
            ));
        }
        Self::event(
            &tx,
            &team,
            &task.id,
            "assigned",
            &actor,
            json!({"to": agent}),
        )?;
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit()?;
        Ok(t)
    }

    /// Lead: puts a stale, failed, cancelled, in-review or completed task back to pending.
    pub fn retry(&mut self, key: &str) -> Result<Task> {
        self.require_lead("retry tasks")?;
        self.lead_transition(key, &Self::RETRY, None)
    }

    /// Runs one guarded transition the lead makes.
    fn lead_transition(&mut self, key: &str, m: &LeadMove, value: Option<String>) -> Result<Task> {
        let LeadMove {
            action,
            guard,
            needs,
            set,
            event,
        } = *m;
        self.writable()?;
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let sql_text = format!("UPDATE tasks SET {set}, updated_at = ?2 WHERE id = ?1 AND {guard}");
        let n = tx.execute(&sql_text, db_params![task.id, now_ms(), value])?;
        if n == 0 {
            return Err(Self::refused(&task, action, needs));
        }
        Self::event(
            &tx,
            &team,
            &task.id,
            event,
            &actor,
            json!({"reason": value}),
        )?;
        // Dependents wait for the blocker's work to be done or dropped, whichever transition
        // got it there.
        let now_status: String = tx.query_row(
            "SELECT status FROM tasks WHERE id = ?1",
            db_params![&task.id],
            |r| r.get(0),
        )?;
        if RELEASING.contains(&now_status.as_str()) {
            Self::release_dependents(&tx, &team, &task.id, &actor)?;
        }
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit()?;
        Ok(t)
    }
}
