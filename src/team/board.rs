//! The task board (reference §11), over the store. Each transition is one guarded UPDATE in a
//! `BEGIN IMMEDIATE` transaction; the guard's row count decides, so two workers never both win.
//! Dependents are unblocked in the same transaction. Every change writes an audit event.
//!
//! Fixed, not copied, from the original (§11.6 and #1133): only the holder completes, fails or
//! submits its task, and progress, comments that block and `ask_user` are the holder's too; an
//! unassigned task is `pending` and any member may claim it (an assigned one only by its
//! assignee); `retry` works from every status it names; dependency cycles and self-references
//! are refused when made; a stale task can still be claimed (stale is a warning, not a lock);
//! approving a `require_approval` task nobody has worked on releases it for work instead of
//! completing it. Dependents are released whenever a task reaches a terminal status.

use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};
use serde::Serialize;
use serde_json::{Value, json};

use super::{Team, now_ms, sql};
use crate::error::{Error, Result};
use crate::store::Store;

/// Statuses that release dependents and end work.
pub const TERMINAL: [&str; 3] = ["completed", "cancelled", "failed"];
/// Longest blocker reason kept (runes), and comment (bytes), as the original.
const BLOCKER_REASON_RUNES: usize = 500;
pub const MAX_COMMENT_BYTES: usize = 10_000;

/// A task as listed.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Task {
    pub id: String,
    pub identifier: String,
    pub task_number: i64,
    pub subject: String,
    pub status: String,
    pub owner: Option<String>,
    pub assignee: Option<String>,
    pub priority: i64,
    pub created_by: String,
    pub progress_percent: Option<i64>,
    pub progress_step: Option<String>,
    pub blocked_by: Vec<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A task with everything known about it.
#[derive(Debug, Clone, Serialize)]
pub struct Detail {
    #[serde(flatten)]
    pub task: Task,
    pub description: String,
    pub result: Option<String>,
    pub ask_user: Option<String>,
    pub dedupe_key: Option<String>,
    pub comments: Vec<Value>,
    pub attachments: Vec<String>,
    pub events: Vec<Event>,
}

/// An audit event.
#[derive(Debug, Clone, Serialize)]
pub struct Event {
    pub id: i64,
    pub task_id: String,
    pub identifier: String,
    pub event: String,
    pub actor: String,
    pub data: Value,
    pub at: i64,
}

/// What `create` is asked for.
#[derive(Debug, Clone, Default)]
pub struct NewTask {
    pub subject: String,
    pub description: String,
    pub priority: i64,
    pub blocked_by: Vec<String>,
    pub assignee: Option<String>,
    pub dedupe_key: Option<String>,
    pub require_approval: bool,
    pub request: bool,
}

/// What `update` may change.
#[derive(Debug, Clone, Default)]
pub struct Changes {
    pub subject: Option<String>,
    pub description: Option<String>,
    pub priority: Option<i64>,
    pub blocked_by: Option<Vec<String>>,
    pub assignee: Option<Option<String>>,
}

/// What a recovery pass did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Recovered {
    pub recovered: Vec<String>,
    pub stale: Vec<String>,
    pub unblocked: Vec<String>,
}

/// The board of one team, acting as one agent.
pub struct Board<'s> {
    store: &'s mut Store,
    pub team: Team,
    pub actor: String,
}

const COLUMNS: &str =
    "id, identifier, task_number, subject, status, owner, assignee, priority, created_by,
                       progress_percent, progress_step, created_at, updated_at";

fn row_task(r: &rusqlite::Row<'_>) -> rusqlite::Result<Task> {
    Ok(Task {
        id: r.get(0)?,
        identifier: r.get(1)?,
        task_number: r.get(2)?,
        subject: r.get(3)?,
        status: r.get(4)?,
        owner: r.get(5)?,
        assignee: r.get(6)?,
        priority: r.get(7)?,
        created_by: r.get(8)?,
        progress_percent: r.get(9)?,
        progress_step: r.get(10)?,
        blocked_by: Vec::new(),
        created_at: r.get(11)?,
        updated_at: r.get(12)?,
    })
}

impl<'s> Board<'s> {
    /// Opens the board of `team` for `actor`, who must be a member. Runs stale recovery first.
    pub fn open(store: &'s mut Store, team: Team, actor: &str) -> Result<Board<'s>> {
        if !team.is_member(actor) {
            return Err(Error::denied(format!(
                "`{actor}` is not a member of team `{}`",
                team.name
            )));
        }
        let mut b = Board {
            store,
            team,
            actor: actor.to_string(),
        };
        if b.team.status == "active" {
            b.recover()?;
        }
        Ok(b)
    }

    fn begin(&mut self) -> Result<Transaction<'_>> {
        self.store
            .conn_mut()
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)
    }

    fn writable(&self) -> Result<()> {
        if self.team.status != "active" {
            return Err(Error::conflict(format!(
                "team `{}` is archived",
                self.team.name
            )));
        }
        Ok(())
    }

    fn require_lead(&self, action: &str) -> Result<()> {
        if !self.team.is_lead(&self.actor) {
            return Err(Error::denied(format!(
                "only the team lead ({}) can {action}",
                self.team.lead
            )));
        }
        Ok(())
    }

    fn require_member(&self, agent: &str) -> Result<()> {
        if self.team.is_member(agent) {
            Ok(())
        } else {
            Err(Error::not_found(format!(
                "`{agent}` is not a member of team `{}`",
                self.team.name
            )))
        }
    }

    fn lock_ms(&self) -> i64 {
        self.team
            .setting("lock_minutes")
            .as_i64()
            .unwrap_or(30)
            .max(1)
            * 60_000
    }

    /// Finds a task of this team by UUID or identifier (`T-007-3f9a`).
    fn find(tx: &Transaction<'_>, team: &Team, key: &str) -> Result<Task> {
        let sql_text = format!(
            "SELECT {COLUMNS} FROM tasks WHERE team_id = ?1 AND (id = ?2 OR identifier = ?2)"
        );
        let task = tx
            .query_row(&sql_text, params![team.id, key], row_task)
            .optional()
            .map_err(sql)?;
        let mut task = task.ok_or_else(|| {
            Error::not_found(format!("no task `{key}` in team `{}`", team.name))
                .with_hint("use the id or identifier from `goclaw tasks list`")
        })?;
        task.blocked_by = Self::blockers(tx, &task.id)?;
        Ok(task)
    }

    fn blockers(tx: &Transaction<'_>, id: &str) -> Result<Vec<String>> {
        tx.prepare("SELECT t.identifier FROM task_deps d JOIN tasks t ON t.id = d.blocker_id WHERE d.task_id = ?1 ORDER BY t.task_number")
            .and_then(|mut s| s.query_map([id], |r| r.get(0)).and_then(|rows| rows.collect()))
            .map_err(sql)
    }

    fn event(
        tx: &Transaction<'_>,
        team: &Team,
        task_id: &str,
        event: &str,
        actor: &str,
        data: Value,
    ) -> Result<()> {
        tx.execute(
            "INSERT INTO task_events (task_id, team_id, event, actor, data, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![task_id, team.id, event, actor, data.to_string(), now_ms()],
        )
        .map(|_| ())
        .map_err(sql)
    }

    /// The refusal for a transition whose guard did not hold.
    fn refused(task: &Task, action: &str, needs: &str) -> Error {
        let holder = task
            .owner
            .as_ref()
            .map(|o| format!(", held by {o}"))
            .unwrap_or_default();
        Error::conflict(format!(
            "cannot {action} task {}: it is {}{holder}; {action} needs {needs}",
            task.identifier, task.status
        ))
    }

    /// Removes `id` from its dependents' open dependencies; those left with none go pending.
    fn release_dependents(
        tx: &Transaction<'_>,
        team: &Team,
        id: &str,
        actor: &str,
    ) -> Result<Vec<String>> {
        let dependents: Vec<String> = tx
            .prepare("SELECT task_id FROM task_deps WHERE blocker_id = ?1")
            .and_then(|mut s| {
                s.query_map([id], |r| r.get(0))
                    .and_then(|rows| rows.collect())
            })
            .map_err(sql)?;
        tx.execute("DELETE FROM task_deps WHERE blocker_id = ?1", [id])
            .map_err(sql)?;
        let mut unblocked = Vec::new();
        for dep in dependents {
            let n = tx
                .execute(
                    "UPDATE tasks SET status = 'pending', updated_at = ?2
                     WHERE id = ?1 AND status = 'blocked' AND NOT EXISTS (SELECT 1 FROM task_deps WHERE task_id = ?1)",
                    params![dep, now_ms()],
                )
                .map_err(sql)?;
            if n > 0 {
                Self::event(tx, team, &dep, "unblocked", actor, json!({"by": id}))?;
                unblocked.push(dep);
            }
        }
        Ok(unblocked)
    }

    /// Resolves blocker references to ids, refusing unknown, foreign and finished tasks.
    fn resolve_blockers(tx: &Transaction<'_>, team: &Team, refs: &[String]) -> Result<Vec<String>> {
        let mut ids = Vec::new();
        for r in refs {
            let t = Self::find(tx, team, r).map_err(|_| {
                Error::usage(format!("blocked_by: no task `{r}` in team `{}` — create dependency tasks first and use their ids", team.name))
            })?;
            if TERMINAL.contains(&t.status.as_str()) {
                return Err(Error::usage(format!(
                    "blocked_by task {} ({}) is already {}. Do not block on finished tasks",
                    t.identifier, t.subject, t.status
                )));
            }
            if !ids.contains(&t.id) {
                ids.push(t.id);
            }
        }
        Ok(ids)
    }

    /// Refuses edges `task -> blockers` that would close a cycle, naming it.
    fn refuse_cycles(tx: &Transaction<'_>, task: &Task, blockers: &[String]) -> Result<()> {
        for b in blockers {
            if *b == task.id {
                return Err(Error::usage(format!(
                    "task {} cannot block itself",
                    task.identifier
                )));
            }
            // Does `b` already (transitively) wait for `task`?
            let mut path = vec![b.clone()];
            if let Some(found) = Self::path_to(tx, b, &task.id, &mut path, 0)? {
                let names: Vec<String> = std::iter::once(task.id.clone())
                    .chain(found)
                    .map(|id| {
                        tx.query_row("SELECT identifier FROM tasks WHERE id = ?1", [&id], |r| {
                            r.get::<_, String>(0)
                        })
                        .unwrap_or(id)
                    })
                    .collect();
                return Err(Error::usage(format!(
                    "dependency cycle: {}",
                    names.join(" → ")
                )));
            }
        }
        Ok(())
    }

    fn path_to(
        tx: &Transaction<'_>,
        from: &str,
        target: &str,
        path: &mut Vec<String>,
        depth: usize,
    ) -> Result<Option<Vec<String>>> {
        if from == target {
            return Ok(Some(path.clone()));
        }
        if depth > 10_000 {
            return Ok(None);
        }
        let next: Vec<String> = tx
            .prepare("SELECT blocker_id FROM task_deps WHERE task_id = ?1")
            .and_then(|mut s| {
                s.query_map([from], |r| r.get(0))
                    .and_then(|rows| rows.collect())
            })
            .map_err(sql)?;
        for n in next {
            if path.contains(&n) && n != target {
                continue;
            }
            path.push(n.clone());
            if let Some(p) = Self::path_to(tx, &n, target, path, depth + 1)? {
                return Ok(Some(p));
            }
            path.pop();
        }
        Ok(None)
    }

    /// Creates a task; with a dedupe key already used, returns that task instead (`false`).
    pub fn create(&mut self, new: NewTask) -> Result<(Task, bool)> {
        self.writable()?;
        if new.subject.trim().is_empty() {
            return Err(Error::usage("a task needs a subject"));
        }
        if !self.team.is_lead(&self.actor) {
            let requests = self
                .team
                .setting("member_requests.enabled")
                .as_bool()
                .unwrap_or(false);
            if !requests {
                return Err(Error::denied(
                    "only the team lead can create tasks (members may comment instead)",
                ));
            }
            if !new.request {
                return Err(Error::denied(
                    "members can only create request tasks (pass --request)",
                ));
            }
        }
        if let Some(a) = &new.assignee {
            self.require_member(a)?;
        }
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        if let Some(key) = &new.dedupe_key {
            let existing: Option<String> = tx
                .query_row(
                    "SELECT id FROM tasks WHERE team_id = ?1 AND dedupe_key = ?2",
                    params![team.id, key],
                    |r| r.get(0),
                )
                .optional()
                .map_err(sql)?;
            if let Some(id) = existing {
                let t = Self::find(&tx, &team, &id)?;
                tx.commit().map_err(sql)?;
                return Ok((t, false));
            }
        }
        let blockers = Self::resolve_blockers(&tx, &team, &new.blocked_by)?;
        let id = uuid::Uuid::now_v7();
        let hex = id.simple().to_string();
        let number: i64 = tx
            .query_row(
                "SELECT coalesce(max(task_number), 0) + 1 FROM tasks WHERE team_id = ?1",
                [team.id],
                |r| r.get(0),
            )
            .map_err(sql)?;
        let identifier = format!("T-{number:03}-{}", &hex[hex.len() - 4..]);
        let status = if new.require_approval {
            "in_review"
        } else if !blockers.is_empty() {
            "blocked"
        } else {
            "pending"
        };
        let now = now_ms();
        tx.execute(
            "INSERT INTO tasks (id, team_id, task_number, identifier, subject, description, status, priority, assignee,
                                created_by, dedupe_key, require_approval, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13)",
            params![
                id.to_string(),
                team.id,
                number,
                identifier,
                new.subject,
                new.description,
                status,
                new.priority,
                new.assignee,
                actor,
                new.dedupe_key,
                new.require_approval,
                now
            ],
        )
        .map_err(sql)?;
        for b in &blockers {
            tx.execute(
                "INSERT INTO task_deps (task_id, blocker_id) VALUES (?1, ?2)",
                params![id.to_string(), b],
            )
            .map_err(sql)?;
        }
        Self::event(
            &tx,
            &team,
            &id.to_string(),
            "created",
            &actor,
            json!({"subject": new.subject, "status": status, "assignee": new.assignee}),
        )?;
        let task = Self::find(&tx, &team, &id.to_string())?;
        tx.commit().map_err(sql)?;
        Ok((task, true))
    }

    /// Claims a task: `pending` (or stale), unassigned or assigned to the caller.
    pub fn claim(&mut self, key: &str) -> Result<Task> {
        self.writable()?;
        let (team, actor, lock) = (self.team.clone(), self.actor.clone(), self.lock_ms());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let now = now_ms();
        let n = tx
            .execute(
                "UPDATE tasks SET status = 'in_progress', owner = ?2, locked_at = ?3, lock_expires_at = ?4, updated_at = ?3
                 WHERE id = ?1 AND status IN ('pending', 'stale') AND owner IS NULL AND (assignee IS NULL OR assignee = ?2)",
                params![task.id, actor, now, now + lock],
            )
            .map_err(sql)?;
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
        Self::event(&tx, &team, &task.id, "claimed", &actor, json!({}))?;
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit().map_err(sql)?;
        Ok(t)
    }

    /// Claims the most urgent task the caller may take, if any.
    pub fn claim_next(&mut self) -> Result<Option<Task>> {
        self.writable()?;
        let (team, actor, lock) = (self.team.clone(), self.actor.clone(), self.lock_ms());
        let tx = self.begin()?;
        let next: Option<String> = tx
            .query_row(
                "SELECT id FROM tasks WHERE team_id = ?1 AND status IN ('pending', 'stale') AND owner IS NULL
                   AND (assignee IS NULL OR assignee = ?2)
                 ORDER BY priority DESC, created_at, task_number LIMIT 1",
                params![team.id, actor],
                |r| r.get(0),
            )
            .optional()
            .map_err(sql)?;
        let Some(id) = next else { return Ok(None) };
        let now = now_ms();
        tx.execute(
            "UPDATE tasks SET status = 'in_progress', owner = ?2, locked_at = ?3, lock_expires_at = ?4, updated_at = ?3 WHERE id = ?1",
            params![id, actor, now, now + lock],
        )
        .map_err(sql)?;
        Self::event(&tx, &team, &id, "claimed", &actor, json!({}))?;
        let t = Self::find(&tx, &team, &id)?;
        tx.commit().map_err(sql)?;
        Ok(Some(t))
    }

    /// Runs one guarded transition of a task the caller holds (or any, for `lead_may`).
    #[allow(clippy::too_many_arguments)]
    fn holder_transition(
        &mut self,
        key: &str,
        action: &str,
        from: &str,
        set: &str,
        value: Option<String>,
        event: &str,
        release: bool,
    ) -> Result<Task> {
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
        let n = tx
            .execute(&sql_text, params![task.id, actor, now_ms(), value])
            .map_err(sql)?;
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
        tx.commit().map_err(sql)?;
        Ok(t)
    }

    /// Completes a task the caller holds, and releases its dependents.
    pub fn complete(&mut self, key: &str, result: &str) -> Result<Task> {
        if result.trim().is_empty() {
            return Err(Error::usage("complete needs a result"));
        }
        self.holder_transition(
            key,
            "complete",
            "in_progress",
            "status = 'completed', result = ?4, locked_at = NULL, lock_expires_at = NULL, progress_percent = NULL, ask_user = NULL",
            Some(result.to_string()),
            "completed",
            true,
        )
    }

    /// Fails a task the caller holds (`FAILED: reason`), releasing dependents as the original.
    pub fn fail(&mut self, key: &str, reason: &str) -> Result<Task> {
        self.holder_transition(
            key,
            "fail",
            "in_progress",
            "status = 'failed', result = ?4, locked_at = NULL, lock_expires_at = NULL, ask_user = NULL",
            Some(format!("FAILED: {reason}")),
            "failed",
            true,
        )
    }

    /// Submits a task the caller holds for review.
    pub fn review(&mut self, key: &str) -> Result<Task> {
        self.holder_transition(
            key,
            "review",
            "in_progress",
            "status = 'in_review', result = coalesce(?4, result)",
            None,
            "reviewed",
            false,
        )
    }

    /// Lead: cancels any unfinished task.
    pub fn cancel(&mut self, key: &str, reason: &str) -> Result<Task> {
        self.require_lead("cancel tasks")?;
        self.lead_transition(
            key,
            "cancel",
            "status NOT IN ('completed', 'cancelled')",
            "an unfinished task",
            "status = 'cancelled', result = ?3, owner = NULL, locked_at = NULL, lock_expires_at = NULL, ask_user = NULL",
            Some(reason.to_string()),
            "cancelled",
        )
    }

    /// Lead: approves a task in review (it completes).
    pub fn approve(&mut self, key: &str) -> Result<Task> {
        self.require_lead("approve tasks")?;
        // A task nobody has worked on (created with require_approval) is released for work; one
        // submitted for review completes. (The original completed both.)
        self.lead_transition(
            key,
            "approve",
            "status = 'in_review'",
            "in_review",
            "status = CASE WHEN owner IS NOT NULL THEN 'completed'
                           WHEN EXISTS (SELECT 1 FROM task_deps WHERE task_id = id) THEN 'blocked'
                           ELSE 'pending' END,
             locked_at = NULL, lock_expires_at = NULL, result = coalesce(result, ?3)",
            None,
            "approved",
        )
    }

    /// Lead: rejects a task in review. With a holder it goes back to them (in progress, the
    /// reason as feedback); without one it is cancelled.
    pub fn reject(&mut self, key: &str, reason: &str) -> Result<Task> {
        self.require_lead("reject tasks")?;
        self.lead_transition(
            key,
            "reject",
            "status = 'in_review'",
            "in_review",
            "status = CASE WHEN owner IS NULL THEN 'cancelled' ELSE 'in_progress' END, result = ?3",
            Some(format!("Rejected: {reason}")),
            "rejected",
        )
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
                "UPDATE tasks SET status = 'in_progress', owner = ?2, assignee = ?2, locked_at = ?3, lock_expires_at = ?4, updated_at = ?3
                 WHERE id = ?1 AND status IN ('pending', 'stale') AND owner IS NULL",
                params![task.id, agent, now, now + lock],
            )
            .map_err(sql)?;
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
        tx.commit().map_err(sql)?;
        Ok(t)
    }

    /// Lead: puts a stale, failed, cancelled, in-review or completed task back to pending.
    pub fn retry(&mut self, key: &str) -> Result<Task> {
        self.require_lead("retry tasks")?;
        self.lead_transition(
            key,
            "retry",
            "status IN ('stale', 'failed', 'cancelled', 'in_review', 'completed')",
            "a stale, failed, cancelled, in-review or completed task",
            "status = CASE WHEN EXISTS (SELECT 1 FROM task_deps WHERE task_id = id) THEN 'blocked' ELSE 'pending' END,
             owner = NULL, locked_at = NULL, lock_expires_at = NULL, result = NULL, progress_percent = NULL,
             progress_step = NULL, ask_user = coalesce(?3, NULL)",
            None,
            "retried",
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn lead_transition(
        &mut self,
        key: &str,
        action: &str,
        guard: &str,
        needs: &str,
        set: &str,
        value: Option<String>,
        event: &str,
    ) -> Result<Task> {
        self.writable()?;
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let sql_text = format!("UPDATE tasks SET {set}, updated_at = ?2 WHERE id = ?1 AND {guard}");
        let n = tx
            .execute(&sql_text, params![task.id, now_ms(), value])
            .map_err(sql)?;
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
        // Dependents wait for a terminal status, whichever transition reached it.
        let now_status: String = tx
            .query_row("SELECT status FROM tasks WHERE id = ?1", [&task.id], |r| {
                r.get(0)
            })
            .map_err(sql)?;
        if TERMINAL.contains(&now_status.as_str()) {
            Self::release_dependents(&tx, &team, &task.id, &actor)?;
        }
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit().map_err(sql)?;
        Ok(t)
    }

    /// Progress of a task the caller holds; it never goes down. Renews the lock.
    pub fn progress(&mut self, key: &str, percent: i64, step: Option<&str>) -> Result<Task> {
        if !(0..=100).contains(&percent) {
            return Err(Error::usage("percent must be 0-100"));
        }
        self.writable()?;
        let (team, actor, lock) = (self.team.clone(), self.actor.clone(), self.lock_ms());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let now = now_ms();
        let n = tx
            .execute(
                "UPDATE tasks SET progress_percent = max(coalesce(progress_percent, 0), ?3), progress_step = coalesce(?4, progress_step),
                        lock_expires_at = ?5, updated_at = ?6
                 WHERE id = ?1 AND status = 'in_progress' AND owner = ?2",
                params![task.id, actor, percent, step, now + lock, now],
            )
            .map_err(sql)?;
        if n == 0 {
            return Err(Self::refused(
                &task,
                "report progress on",
                "in_progress, held by the caller",
            ));
        }
        Self::event(
            &tx,
            &team,
            &task.id,
            "progress",
            &actor,
            json!({"percent": percent, "step": step}),
        )?;
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit().map_err(sql)?;
        Ok(t)
    }

    /// A comment. A `blocker` on a task in progress fails it (`Blocked: …`) and, when the
    /// team's `blocker_escalation` is on, tells the lead through the mailbox.
    pub fn comment(&mut self, key: &str, text: &str, blocker: bool) -> Result<(Task, String)> {
        if text.trim().is_empty() {
            return Err(Error::usage("a comment needs text"));
        }
        if text.len() > MAX_COMMENT_BYTES {
            return Err(Error::usage(format!(
                "comment text too long (max {MAX_COMMENT_BYTES} chars)"
            )));
        }
        self.writable()?;
        let escalate = self
            .team
            .setting("blocker_escalation.enabled")
            .as_bool()
            .unwrap_or(true);
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let now = now_ms();
        tx.execute(
            "INSERT INTO task_comments (task_id, author, kind, text, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![task.id, actor, if blocker { "blocker" } else { "note" }, text, now],
        )
        .map_err(sql)?;
        tx.execute(
            "UPDATE tasks SET comment_count = comment_count + 1, updated_at = ?2 WHERE id = ?1",
            params![task.id, now],
        )
        .map_err(sql)?;
        Self::event(
            &tx,
            &team,
            &task.id,
            "commented",
            &actor,
            json!({"type": if blocker { "blocker" } else { "note" }, "text": text}),
        )?;
        let mut note = format!(
            "Comment added to task #{} \"{}\".",
            task.task_number, task.subject
        );
        if blocker {
            if task.status != "in_progress" {
                note = format!(
                    "Blocker comment saved on task #{} \"{}\", but task is already {} — no escalation needed.",
                    task.task_number, task.subject, task.status
                );
            } else {
                let reason: String = text.chars().take(BLOCKER_REASON_RUNES).collect();
                tx.execute(
                    "UPDATE tasks SET status = 'failed', result = ?2, locked_at = NULL, lock_expires_at = NULL, updated_at = ?3
                     WHERE id = ?1 AND status = 'in_progress'",
                    params![task.id, format!("FAILED: Blocked: {reason}"), now],
                )
                .map_err(sql)?;
                Self::event(
                    &tx,
                    &team,
                    &task.id,
                    "failed",
                    &actor,
                    json!({"reason": format!("Blocked: {reason}")}),
                )?;
                Self::release_dependents(&tx, &team, &task.id, &actor)?;
                note = format!(
                    "Task #{} \"{}\" auto-failed due to blocker.",
                    task.task_number, task.subject
                );
                if escalate {
                    tx.execute(
                        "INSERT INTO messages (team_id, sender, recipient, kind, text, created_at) VALUES (?1, 'system:escalation', ?2, 'escalation', ?3, ?4)",
                        params![
                            team.id,
                            team.lead,
                            format!("[Escalation] Task #{} \"{}\" ({}) was blocked by {actor}: {reason}", task.task_number, task.subject, task.identifier),
                            now
                        ],
                    )
                    .map_err(sql)?;
                    note.push_str(
                        " Leader has been notified and can retry with updated instructions.",
                    );
                }
            }
        }
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit().map_err(sql)?;
        Ok((t, note))
    }

    /// Attaches a path (relative to the workspace) to a task.
    pub fn attach(&mut self, key: &str, path: &str) -> Result<Task> {
        if path.trim().is_empty() {
            return Err(Error::usage("attach needs a path"));
        }
        self.writable()?;
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let n = tx
            .execute(
                "INSERT OR IGNORE INTO task_attachments (task_id, path, added_by, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![task.id, path, actor, now_ms()],
            )
            .map_err(sql)?;
        if n == 0 {
            return Err(Error::conflict(format!(
                "{path} is already attached to task {}",
                task.identifier
            )));
        }
        Self::event(
            &tx,
            &team,
            &task.id,
            "attached",
            &actor,
            json!({"path": path}),
        )?;
        tx.commit().map_err(sql)?;
        Ok(task)
    }

    /// Lead: changes subject, description, priority, assignee or dependencies (status is not
    /// recomputed from dependencies, as the original, except that a pending task given open
    /// blockers becomes blocked).
    pub fn update(&mut self, key: &str, c: Changes) -> Result<Task> {
        self.require_lead("update tasks")?;
        self.writable()?;
        if c.subject.is_none()
            && c.description.is_none()
            && c.priority.is_none()
            && c.blocked_by.is_none()
            && c.assignee.is_none()
        {
            return Err(Error::usage(
                "no updates provided (set subject, description, priority, assignee or blocked_by)",
            ));
        }
        if c.subject.as_ref().is_some_and(|s| s.trim().is_empty()) {
            return Err(Error::usage("a task's subject cannot be empty"));
        }
        if let Some(Some(a)) = &c.assignee {
            self.require_member(a)?;
        }
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let now = now_ms();
        if let Some(s) = &c.subject {
            tx.execute(
                "UPDATE tasks SET subject = ?2, updated_at = ?3 WHERE id = ?1",
                params![task.id, s, now],
            )
            .map_err(sql)?;
        }
        if let Some(d) = &c.description {
            tx.execute(
                "UPDATE tasks SET description = ?2, updated_at = ?3 WHERE id = ?1",
                params![task.id, d, now],
            )
            .map_err(sql)?;
        }
        if let Some(p) = c.priority {
            tx.execute(
                "UPDATE tasks SET priority = ?2, updated_at = ?3 WHERE id = ?1",
                params![task.id, p, now],
            )
            .map_err(sql)?;
        }
        if let Some(a) = &c.assignee {
            tx.execute(
                "UPDATE tasks SET assignee = ?2, updated_at = ?3 WHERE id = ?1",
                params![task.id, a, now],
            )
            .map_err(sql)?;
        }
        if let Some(refs) = &c.blocked_by {
            let blockers = Self::resolve_blockers(&tx, &team, refs)?;
            Self::refuse_cycles(&tx, &task, &blockers)?;
            tx.execute("DELETE FROM task_deps WHERE task_id = ?1", [&task.id])
                .map_err(sql)?;
            for b in &blockers {
                tx.execute(
                    "INSERT INTO task_deps (task_id, blocker_id) VALUES (?1, ?2)",
                    params![task.id, b],
                )
                .map_err(sql)?;
            }
            if !blockers.is_empty() {
                tx.execute(
                    "UPDATE tasks SET status = 'blocked' WHERE id = ?1 AND status = 'pending'",
                    [&task.id],
                )
                .map_err(sql)?;
            } else {
                tx.execute(
                    "UPDATE tasks SET status = 'pending' WHERE id = ?1 AND status = 'blocked'",
                    [&task.id],
                )
                .map_err(sql)?;
            }
        }
        let fields: Vec<&str> = [
            c.subject.as_ref().map(|_| "subject"),
            c.description.as_ref().map(|_| "description"),
            c.priority.map(|_| "priority"),
            c.assignee.as_ref().map(|_| "assignee"),
            c.blocked_by.as_ref().map(|_| "blocked_by"),
        ]
        .into_iter()
        .flatten()
        .collect();
        Self::event(
            &tx,
            &team,
            &task.id,
            "updated",
            &actor,
            json!({"fields": fields}),
        )?;
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit().map_err(sql)?;
        Ok(t)
    }

    /// Holder: asks the user something (the task stays in progress); `None` clears it
    /// (holder or lead).
    pub fn ask_user(&mut self, key: &str, question: Option<&str>) -> Result<Task> {
        self.writable()?;
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let allowed = task.owner.as_deref() == Some(actor.as_str())
            || (question.is_none() && team.is_lead(&actor));
        if !allowed {
            return Err(Error::denied(format!(
                "only the holder of task {} can ask the user about it",
                task.identifier
            )));
        }
        let n = tx
            .execute(
                "UPDATE tasks SET ask_user = ?2, updated_at = ?3 WHERE id = ?1 AND status = 'in_progress'",
                params![task.id, question, now_ms()],
            )
            .map_err(sql)?;
        if n == 0 {
            return Err(Self::refused(&task, "ask the user about", "in_progress"));
        }
        let event = if question.is_some() {
            "asked_user"
        } else {
            "cleared_ask_user"
        };
        Self::event(
            &tx,
            &team,
            &task.id,
            event,
            &actor,
            json!({"question": question}),
        )?;
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit().map_err(sql)?;
        Ok(t)
    }

    /// Lists tasks: `filter` is a status, `active` (not completed or cancelled), `completed`
    /// (completed or cancelled), or `all`. Pages by `limit` and an opaque cursor.
    pub fn list(
        &mut self,
        filter: &str,
        limit: usize,
        cursor: Option<&str>,
    ) -> Result<(Vec<Task>, Option<String>)> {
        let cond = match filter {
            "" | "all" => "1 = 1".to_string(),
            "active" => "status NOT IN ('completed', 'cancelled')".to_string(),
            "completed" => "status IN ('completed', 'cancelled')".to_string(),
            s if [
                "pending",
                "in_progress",
                "blocked",
                "failed",
                "in_review",
                "cancelled",
                "stale",
            ]
            .contains(&s) =>
            {
                format!("status = '{s}'")
            }
            other => {
                return Err(Error::usage(format!(
                    "unknown status filter `{other}` (all, active, completed, pending, in_progress, blocked, failed, in_review, cancelled, stale)"
                )));
            }
        };
        let (cp, cc, cn) = match cursor {
            None => (i64::MAX, i64::MIN, i64::MIN),
            Some(c) => parse_cursor(c)?,
        };
        let limit = limit.clamp(1, 1000);
        let team = self.team.clone();
        let tx = self.begin()?;
        let sql_text = format!(
            "SELECT {COLUMNS} FROM tasks WHERE team_id = ?1 AND {cond}
               AND (priority < ?2 OR (priority = ?2 AND (created_at > ?3 OR (created_at = ?3 AND task_number > ?4))))
             ORDER BY priority DESC, created_at, task_number LIMIT ?5"
        );
        let mut tasks: Vec<Task> = tx
            .prepare(&sql_text)
            .and_then(|mut s| {
                s.query_map(params![team.id, cp, cc, cn, (limit + 1) as i64], row_task)
                    .and_then(|rows| rows.collect())
            })
            .map_err(sql)?;
        let next = if tasks.len() > limit {
            tasks.truncate(limit);
            tasks
                .last()
                .map(|t| format!("{}.{}.{}", t.priority, t.created_at, t.task_number))
        } else {
            None
        };
        for t in &mut tasks {
            t.blocked_by = Self::blockers(&tx, &t.id)?;
        }
        tx.commit().map_err(sql)?;
        Ok((tasks, next))
    }

    /// One task with its comments, attachments and events.
    pub fn get(&mut self, key: &str) -> Result<Detail> {
        let team = self.team.clone();
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let (description, result, ask_user, dedupe_key): (
            String,
            Option<String>,
            Option<String>,
            Option<String>,
        ) = tx
            .query_row(
                "SELECT description, result, ask_user, dedupe_key FROM tasks WHERE id = ?1",
                [&task.id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .map_err(sql)?;
        let comments: Vec<Value> = tx
            .prepare("SELECT author, kind, text, created_at FROM task_comments WHERE task_id = ?1 ORDER BY id")
            .and_then(|mut s| {
                s.query_map([&task.id], |r| {
                    Ok(json!({"author": r.get::<_, String>(0)?, "type": r.get::<_, String>(1)?, "text": r.get::<_, String>(2)?, "created_at": r.get::<_, i64>(3)?}))
                })
                .and_then(|rows| rows.collect())
            })
            .map_err(sql)?;
        let attachments: Vec<String> = tx
            .prepare("SELECT path FROM task_attachments WHERE task_id = ?1 ORDER BY id")
            .and_then(|mut s| {
                s.query_map([&task.id], |r| r.get(0))
                    .and_then(|rows| rows.collect())
            })
            .map_err(sql)?;
        let events = Self::load_events(&tx, team.id, Some(&task.id), 1000)?;
        tx.commit().map_err(sql)?;
        Ok(Detail {
            task,
            description,
            result,
            ask_user,
            dedupe_key,
            comments,
            attachments,
            events,
        })
    }

    fn load_events(
        tx: &Transaction<'_>,
        team_id: i64,
        task: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Event>> {
        tx.prepare(
            "SELECT e.id, e.task_id, t.identifier, e.event, e.actor, e.data, e.at FROM task_events e JOIN tasks t ON t.id = e.task_id
             WHERE e.team_id = ?1 AND (?2 IS NULL OR e.task_id = ?2) ORDER BY e.id LIMIT ?3",
        )
        .and_then(|mut s| {
            s.query_map(params![team_id, task, limit as i64], |r| {
                let data: String = r.get(5)?;
                Ok(Event {
                    id: r.get(0)?,
                    task_id: r.get(1)?,
                    identifier: r.get(2)?,
                    event: r.get(3)?,
                    actor: r.get(4)?,
                    data: serde_json::from_str(&data).unwrap_or(Value::Null),
                    at: r.get(6)?,
                })
            })
            .and_then(|rows| rows.collect())
        })
        .map_err(sql)
    }

    /// Audit events, of one task or the whole board, oldest first.
    pub fn events(&mut self, key: Option<&str>, limit: usize) -> Result<Vec<Event>> {
        let team = self.team.clone();
        let tx = self.begin()?;
        let id = match key {
            Some(k) => Some(Self::find(&tx, &team, k)?.id),
            None => None,
        };
        let ev = Self::load_events(&tx, team.id, id.as_deref(), limit)?;
        tx.commit().map_err(sql)?;
        Ok(ev)
    }

    /// Full-text search over subject and description (FTS5, ranked by bm25).
    pub fn search(&mut self, query: &str, limit: usize) -> Result<Vec<Task>> {
        let terms: Vec<String> = query
            .split_whitespace()
            .map(|w| {
                w.chars()
                    .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
                    .collect::<String>()
            })
            .filter(|w| !w.is_empty())
            .map(|w| format!("\"{w}\"*"))
            .collect();
        if terms.is_empty() {
            return Err(Error::usage("search needs a query"));
        }
        let team = self.team.clone();
        let tx = self.begin()?;
        let sql_text = format!(
            "SELECT {} FROM tasks_fts f JOIN tasks t ON t.rowid = f.rowid
             WHERE tasks_fts MATCH ?1 AND t.team_id = ?2 ORDER BY bm25(tasks_fts) LIMIT ?3",
            COLUMNS
                .split(',')
                .map(|c| format!("t.{}", c.trim()))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut tasks: Vec<Task> = tx
            .prepare(&sql_text)
            .and_then(|mut s| {
                s.query_map(
                    params![terms.join(" AND "), team.id, limit.clamp(1, 1000) as i64],
                    row_task,
                )
                .and_then(|rows| rows.collect())
            })
            .map_err(sql)?;
        for t in &mut tasks {
            t.blocked_by = Self::blockers(&tx, &t.id)?;
        }
        tx.commit().map_err(sql)?;
        Ok(tasks)
    }

    /// Stale handling (§11.2): expired locks go back to pending (nobody holds them), pending
    /// and in-review tasks left too long are marked stale, and blocked tasks whose blockers are
    /// all gone are released. Safe to run at any time, from any process.
    pub fn recover(&mut self) -> Result<Recovered> {
        let team = self.team.clone();
        let pending_h = team.setting("stale_pending_hours").as_i64().unwrap_or(2);
        let review_h = team.setting("stale_review_hours").as_i64().unwrap_or(4);
        let tx = self.begin()?;
        let now = now_ms();
        let mut out = Recovered::default();
        let ids =
            |tx: &Transaction<'_>, q: &str, p: &[&dyn rusqlite::ToSql]| -> Result<Vec<String>> {
                tx.prepare(q)
                    .and_then(|mut s| s.query_map(p, |r| r.get(0)).and_then(|rows| rows.collect()))
                    .map_err(sql)
            };
        for id in ids(
            &tx,
            "SELECT id FROM tasks WHERE team_id = ?1 AND status = 'in_progress' AND lock_expires_at < ?2",
            &[&team.id, &now],
        )? {
            tx.execute(
                "UPDATE tasks SET status = 'pending', owner = NULL, locked_at = NULL, lock_expires_at = NULL, updated_at = ?2
                 WHERE id = ?1 AND status = 'in_progress' AND lock_expires_at < ?2",
                params![id, now],
            )
            .map_err(sql)?;
            Self::event(
                &tx,
                &team,
                &id,
                "recovered",
                "system",
                json!({"reason": "lock expired"}),
            )?;
            out.recovered.push(id);
        }
        for (status, hours) in [("pending", pending_h), ("in_review", review_h)] {
            if hours <= 0 {
                continue;
            }
            let cutoff = now - hours * 3_600_000;
            for id in ids(
                &tx,
                &format!(
                    "SELECT id FROM tasks WHERE team_id = ?1 AND status = '{status}' AND updated_at < ?2"
                ),
                &[&team.id, &cutoff],
            )? {
                tx.execute(
                    "UPDATE tasks SET status = 'stale', updated_at = ?2 WHERE id = ?1",
                    params![id, now],
                )
                .map_err(sql)?;
                Self::event(&tx, &team, &id, "stale", "system", json!({"was": status}))?;
                out.stale.push(id);
            }
        }
        for id in ids(
            &tx,
            "SELECT id FROM tasks t WHERE team_id = ?1 AND status = 'blocked' AND NOT EXISTS (SELECT 1 FROM task_deps d WHERE d.task_id = t.id)",
            &[&team.id],
        )? {
            tx.execute(
                "UPDATE tasks SET status = 'pending', updated_at = ?2 WHERE id = ?1",
                params![id, now],
            )
            .map_err(sql)?;
            Self::event(&tx, &team, &id, "unblocked", "system", json!({}))?;
            out.unblocked.push(id);
        }
        tx.commit().map_err(sql)?;
        Ok(out)
    }
}

fn parse_cursor(c: &str) -> Result<(i64, i64, i64)> {
    let parts: Vec<i64> = c.split('.').filter_map(|p| p.parse().ok()).collect();
    match parts.as_slice() {
        [p, c, n] => Ok((*p, *c, *n)),
        _ => Err(Error::usage(format!(
            "invalid cursor `{c}`: pass the next_cursor of a previous list"
        ))),
    }
}

#[cfg(test)]
#[path = "board_tests.rs"]
mod tests;
