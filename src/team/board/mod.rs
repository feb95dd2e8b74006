//! The task board (reference §11), over the store. Each transition is one guarded UPDATE in a
//! `BEGIN IMMEDIATE` transaction; the guard's row count decides, so two workers never both win.
//! Dependents are unblocked in the same transaction. Every change writes an audit event.
//!
//! Fixed, not copied, from the original (§11.6 and #1133): only the holder completes, fails or
//! submits its task, and progress and `ask_user` are the holder's too; an unassigned task is
//! `pending` and any member may claim it (an assigned one only by its assignee); `retry` works
//! from every status it names; dependency cycles and self-references are refused when made; a
//! stale task can still be claimed (stale is a warning, not a lock); approving a
//! `require_approval` task nobody has worked on releases it for work instead of completing it.
//!
//! Dependents wait for their blocker's work: they are released when it completes or is
//! cancelled (the lead decided it is not needed), not when it fails. A failed blocker keeps them
//! blocked until it is retried and completes, or is cancelled (the original released them on a
//! failure too, so work that needed a result started without it).
//!
//! A task can be worked on by a run (`goclaw run --task`, the team dispatcher): the claim records
//! the run (`work.rs`), the run ends only the task it holds, and a claim whose run is gone is
//! released by recovery.

use serde::Serialize;
use serde_json::{Value, json};

use super::{Team, now_ms};
use crate::db_params;
use crate::error::{Error, Result};
use crate::store::db::{Begin, Db, Dialect, Row, ToValue, Tx};

/// The candidates an ambiguous task reference lists (then "and more").
const SHOWN_CANDIDATES: usize = 6;
/// A task's blockers, by their identifiers.
const BLOCKERS: &str = "SELECT t.identifier FROM task_deps d JOIN tasks t ON t.id = d.blocker_id WHERE d.task_id = ?1 ORDER BY t.task_number";
/// [`Board::find`]'s look-up by the whole id.
const FIND_BY_ID: &str = "id = ?2";
/// A task's audit event.
const EVENT: &str = "INSERT INTO task_events (task_id, team_id, event, actor, data, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
pub use crate::store::page::{Page, PageRequest};

mod create;
mod deps;
mod edits;
mod queries;
mod recover;
mod transitions;
mod work;

pub use work::{
    RunEnd, TaskState, Watch, events_after, last_event, snapshot, taken_from, task_of_ancestor,
};

/// Statuses that end work.
pub const TERMINAL: [&str; 3] = ["completed", "cancelled", "failed"];
/// Statuses that release dependents: the work was done, or dropped.
pub const RELEASING: [&str; 2] = ["completed", "cancelled"];
/// The actor of changes goclaw makes itself (recovery, the dispatcher).
pub const SYSTEM: &str = "system";
/// Longest blocker reason kept (runes), and comment (bytes), as the original.
const BLOCKER_REASON_RUNES: usize = 500;
pub const MAX_COMMENT_BYTES: usize = 10_000;

/// A task as listed.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, schemars::JsonSchema)]
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
    /// The run working on it, when a run holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A task with everything known about it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Detail {
    #[serde(flatten)]
    pub task: Task,
    pub description: String,
    pub result: Option<String>,
    /// A command the answer of a run on the task must pass (a quality gate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<String>,
    /// Runs a dispatcher started on it.
    pub dispatch_count: i64,
    pub ask_user: Option<String>,
    pub dedupe_key: Option<String>,
    pub comments: Vec<Value>,
    pub attachments: Vec<String>,
    pub events: Vec<Event>,
}

/// An audit event.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewTask {
    pub subject: String,
    pub description: String,
    pub priority: i64,
    pub blocked_by: Vec<String>,
    pub assignee: Option<String>,
    pub dedupe_key: Option<String>,
    pub require_approval: bool,
    pub request: bool,
    /// A command a run's answer on the task must pass (a quality gate).
    pub gate: Option<String>,
}

/// What `update` may change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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
    db: Db<'s>,
    pub team: Team,
    /// Who the board's events name.
    pub actor: String,
    /// Whether goclaw itself acts (a team run's dispatcher, or a verdict it applies for its
    /// reviewer's run): it may do what the lead may whatever `actor` is. A flag, not a name, so an
    /// agent called `system` gets no more than any member.
    goclaw: bool,
}

const COLUMNS: &str =
    "id, identifier, task_number, subject, status, owner, assignee, priority, created_by,
                       progress_percent, progress_step, created_at, updated_at, run_id";

fn row_task(r: &Row) -> Result<Task> {
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
        run_id: r.get(13)?,
    })
}

/// An event as `SELECT e.id, e.task_id, t.identifier, e.event, e.actor, e.data, e.at` reads it.
fn row_event(r: &Row) -> Result<Event> {
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
}

/// A transition of a task its holder makes: from which status, the SQL `SET` list (`?4` is the
/// value), the event written, and whether dependents are released.
#[derive(Debug, Clone, Copy)]
struct HolderMove {
    action: &'static str,
    from: &'static str,
    set: &'static str,
    event: &'static str,
    release: bool,
}

/// A transition the lead makes: the SQL guard on the task's status, what that guard needs (for
/// the refusal), the SQL `SET` list (`?3` is the value) and the event written. Dependents are
/// released whenever the task ends in a terminal status.
#[derive(Debug, Clone, Copy)]
struct LeadMove {
    action: &'static str,
    guard: &'static str,
    needs: &'static str,
    set: &'static str,
    event: &'static str,
}

/// The transitions, one row each.
impl Board<'_> {
    /// `complete`.
    const COMPLETE: HolderMove = HolderMove {
        action: "complete",
        from: "in_progress",
        set: "status = 'completed', result = ?4, locked_at = NULL, lock_expires_at = NULL, progress_percent = NULL, ask_user = NULL, run_id = NULL",
        event: "completed",
        release: true,
    };

    /// `fail`: dependents stay blocked (see the module's doc).
    const FAIL: HolderMove = HolderMove {
        action: "fail",
        from: "in_progress",
        set: "status = 'failed', result = ?4, locked_at = NULL, lock_expires_at = NULL, ask_user = NULL, run_id = NULL",
        event: "failed",
        release: false,
    };

    /// `review`.
    const REVIEW: HolderMove = HolderMove {
        action: "review",
        from: "in_progress",
        set: "status = 'in_review', result = coalesce(?4, result), run_id = NULL",
        event: "reviewed",
        release: false,
    };

    /// `cancel`.
    const CANCEL: LeadMove = LeadMove {
        action: "cancel",
        guard: "status NOT IN ('completed', 'cancelled')",
        needs: "an unfinished task",
        set: "status = 'cancelled', result = ?3, owner = NULL, locked_at = NULL, lock_expires_at = NULL, ask_user = NULL, run_id = NULL",
        event: "cancelled",
    };

    /// `approve`.
    const APPROVE: LeadMove = LeadMove {
        action: "approve",
        guard: "status = 'in_review'",
        needs: "in_review",
        set: "status = CASE WHEN owner IS NOT NULL THEN 'completed'
                           WHEN EXISTS (SELECT 1 FROM task_deps WHERE task_id = id) THEN 'blocked'
                           ELSE 'pending' END,
             locked_at = NULL, lock_expires_at = NULL, result = coalesce(result, ?3)",
        event: "approved",
    };

    /// `reject`.
    const REJECT: LeadMove = LeadMove {
        action: "reject",
        guard: "status = 'in_review'",
        needs: "in_review",
        set: "status = CASE WHEN owner IS NULL THEN 'cancelled' ELSE 'in_progress' END, result = ?3",
        event: "rejected",
    };

    /// `retry`.
    const RETRY: LeadMove = LeadMove {
        action: "retry",
        guard: "status IN ('stale', 'failed', 'cancelled', 'in_review', 'completed')",
        needs: "a stale, failed, cancelled, in-review or completed task",
        set: "status = CASE WHEN EXISTS (SELECT 1 FROM task_deps WHERE task_id = id) THEN 'blocked' ELSE 'pending' END,
             owner = NULL, locked_at = NULL, lock_expires_at = NULL, result = NULL, progress_percent = NULL,
             progress_step = NULL, ask_user = coalesce(?3, NULL), run_id = NULL",
        event: "retried",
    };
}

impl<'s> Board<'s> {
    /// Opens the board of `team` for `actor`, who must be a member. Nothing is read or written
    /// yet: each write recovers stale work first, in its own transaction.
    pub fn open(db: Db<'s>, team: Team, actor: &str) -> Result<Board<'s>> {
        if !team.is_member(actor) {
            return Err(Error::denied(format!(
                "`{actor}` is not a member of team `{}`",
                team.name
            )));
        }
        Ok(Board {
            db,
            team,
            actor: actor.to_string(),
            goclaw: false,
        })
    }

    /// The board as goclaw itself acts on it (the team dispatcher): the actor `system`, which
    /// may do what the lead may (the original's `system` channel) but holds no task.
    pub fn system(db: Db<'s>, team: Team) -> Board<'s> {
        Board {
            db,
            team,
            actor: SYSTEM.to_string(),
            goclaw: true,
        }
    }

    /// The board as goclaw acts on it for `member`'s run (a team run applying its reviewer's
    /// verdict): the system's rights, the events in `member`'s name.
    pub fn for_run_of(db: Db<'s>, team: Team, member: &str) -> Board<'s> {
        Board {
            db,
            team,
            actor: member.to_string(),
            goclaw: true,
        }
    }

    /// Whether the actor may do what the lead may.
    fn may_lead(&self) -> bool {
        self.goclaw || self.team.is_lead(&self.actor)
    }

    /// A write's transaction (`BEGIN IMMEDIATE`: two workers never both win), which first
    /// recovers stale work (expired claims, claims of dead runs, stale tasks): one transaction
    /// per change, recovery included.
    fn begin(&mut self) -> Result<Tx<'s>> {
        let team = self.team.clone();
        let active = team.status == "active";
        if active {
            // Recovery's looks, compiled before the write lock is taken (`Db::prepare_ahead`).
            self.db.prepare_ahead(|| Self::recovery_looks(&self.db))?;
        }
        let tx = self.begin_without_recovery()?;
        if active {
            Self::recover_in(&tx, &team)?;
        }
        Ok(tx)
    }

    /// A write's transaction on its own. PostgreSQL: one writer per team's board at a time, as
    /// SQLite has one per store (a lock on the team's row); readers are never held up.
    fn begin_without_recovery(&mut self) -> Result<Tx<'s>> {
        let tx = self.db.transaction(Begin::Write)?;
        if tx.dialect() == Dialect::Postgres {
            tx.execute(
                "SELECT id FROM teams WHERE id = ?1 FOR UPDATE",
                db_params![self.team.id],
            )?;
        }
        Ok(tx)
    }

    /// A read's transaction (deferred: it takes no write lock, and sees one state).
    fn read(&mut self) -> Result<Tx<'s>> {
        self.db.transaction(Begin::Read)
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
        if !self.may_lead() {
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

    /// Finds a task of this team by what a person or a model types: its number (`7`, `#7`,
    /// `T-7`, `T-007`), its identifier (`T-007-3f9a`), both in any case, its UUID, or the start
    /// of its UUID (at least 4 characters; one that fits several tasks is a usage error listing
    /// them).
    fn find(tx: &Db<'_>, team: &Team, key: &str) -> Result<Task> {
        let key = key.trim();
        let not_found = || {
            Error::not_found(format!("no task `{key}` in team `{}`", team.name))
                .with_hint("use the number, identifier or id from `goclaw tasks list`")
        };
        let by = |clause: &str, value: &dyn ToValue| -> Result<Vec<Task>> {
            tx.query_map(&Self::find_by(clause), db_params![team.id, value], row_task)
        };
        let found = match task_number(key) {
            Some((number, suffix)) => by("task_number = ?2", &number)?
                .into_iter()
                .filter(|t| suffix.is_none_or(|_| t.identifier.eq_ignore_ascii_case(key)))
                .collect(),
            None => {
                let exact = by(FIND_BY_ID, &key)?;
                let hexish =
                    key.len() >= 4 && key.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
                if exact.is_empty() && hexish {
                    by("substr(id, 1, length(?2)) = lower(?2)", &key)?
                } else {
                    exact
                }
            }
        };
        let mut task = match <[Task; 1]>::try_from(found) {
            Ok([task]) => task,
            Err(found) if found.is_empty() => return Err(not_found()),
            Err(found) => {
                let mut names: Vec<String> = found
                    .iter()
                    .take(SHOWN_CANDIDATES)
                    .map(|t| format!("{} ({})", t.identifier, t.subject))
                    .collect();
                if found.len() > SHOWN_CANDIDATES {
                    names.push("and more".into());
                }
                return Err(Error::usage(format!(
                    "task `{key}` is ambiguous in team `{}`: {}",
                    team.name,
                    names.join(", ")
                ))
                .with_hint("give more of the id, or the task's number"));
            }
        };
        task.blocked_by = Self::blockers(tx, &task.id)?;
        Ok(task)
    }

    /// The query [`find`](Self::find) looks a task up with, by `clause` on `?2`.
    fn find_by(clause: &str) -> String {
        format!(
            "SELECT {COLUMNS} FROM tasks WHERE team_id = ?1 AND {clause} ORDER BY task_number LIMIT {}",
            SHOWN_CANDIDATES + 1
        )
    }

    fn blockers(tx: &Db<'_>, id: &str) -> Result<Vec<String>> {
        tx.query_map(BLOCKERS, db_params![id], |r| r.get(0))
    }

    fn event(
        tx: &Db<'_>,
        team: &Team,
        task_id: &str,
        event: &str,
        actor: &str,
        data: Value,
    ) -> Result<()> {
        tx.execute(
            EVENT,
            db_params![task_id, team.id, event, actor, data.to_string(), now_ms()],
        )
        .map(|_| ())
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
}

#[cfg(test)]
mod tests;

/// The task number in `7`, `#7`, `T-7`, `t-007` or an identifier `T-007-3f9a` (then with its
/// suffix, which must match too).
fn task_number(key: &str) -> Option<(i64, Option<&str>)> {
    let rest = key
        .strip_prefix('#')
        .or_else(|| {
            key.get(..2)
                .filter(|p| p.eq_ignore_ascii_case("t-"))
                .map(|_| &key[2..])
        })
        .unwrap_or(key);
    let (digits, suffix) = match rest.split_once('-') {
        Some((d, s)) if key.len() != rest.len() => (d, Some(s)),
        Some(_) => return None,
        None => (rest, None),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().ok()?, suffix))
}
