//! Subagents (seed 000 §6): runs that other runs start. The parent reserves the child in the
//! store first (`subagents` row, status `spawning`), in one transaction that counts the limits
//! under the store's write lock (an advisory lock on PostgreSQL), so they hold across processes
//! and machines like the rate limiter; a refused spawn is
//! kept as `rejected` with its reason. The child is a `goclaw run` process of its own (its own
//! run row, session, trace and events, linked by `parent_run_id`), so it uses another core,
//! survives a crash of the parent's tool thread and can be signalled by `goclaw runs cancel`.
//! A child whose parent process is gone cancels itself (see `agent`), unless it was detached.
//!
//! A child's lifecycle is Spawning → Running → Completed | Failed | Cancelled, or Rejected, and
//! Archived once it ended long ago: the first and last two are this table's, the others its
//! run's (`timed_out`, `denied` and `abandoned` runs count as failed).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::db_params;
use crate::error::{Error, Result};
use crate::store::db::{Begin, Db, Dialect, Row};
use crate::store::now_ms;

/// A child that has not started its run within this long failed to start.
const SPAWN_GRACE_MS: i64 = 30_000;
/// How long a cancel waits for a started child to record its run.
const START_WAIT: Duration = Duration::from_secs(5);
/// Finished children are archived after this long (seed: 60 minutes).
pub const ARCHIVE_AFTER_MS: i64 = 60 * 60 * 1000;

/// `[agents.KEY.subagents]`: the limits of the seed, per agent.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Running subagents across all parents.
    pub max_concurrent: u32,
    /// How deep children may nest (1: children, no grandchildren).
    pub max_spawn_depth: u32,
    /// Running children of one parent.
    pub max_children_per_agent: u32,
    /// LLM iterations of each child.
    pub max_iterations: u32,
}

impl Limits {
    /// Each limit at most `ceiling`'s (a spawned child's are at most its parent's).
    pub fn cap(self, ceiling: Option<Limits>) -> Limits {
        let Some(c) = ceiling else { return self };
        Limits {
            max_concurrent: self.max_concurrent.min(c.max_concurrent),
            max_spawn_depth: self.max_spawn_depth.min(c.max_spawn_depth),
            max_children_per_agent: self.max_children_per_agent.min(c.max_children_per_agent),
            max_iterations: self.max_iterations.min(c.max_iterations),
        }
    }
}

/// The limits as `goclaw run --subagent-limits` takes them: `CONCURRENT,DEPTH,CHILDREN,ITERATIONS`.
impl std::fmt::Display for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{},{},{},{}",
            self.max_concurrent,
            self.max_spawn_depth,
            self.max_children_per_agent,
            self.max_iterations
        )
    }
}

impl std::str::FromStr for Limits {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Limits, String> {
        let n: Vec<u32> = s
            .split(',')
            .map(|p| p.trim().parse::<u32>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| format!("`{s}`: {e}"))?;
        match n[..] {
            [
                max_concurrent,
                max_spawn_depth,
                max_children_per_agent,
                max_iterations,
            ] => Ok(Limits {
                max_concurrent,
                max_spawn_depth,
                max_children_per_agent,
                max_iterations,
            }),
            _ => Err(format!(
                "`{s}`: expected CONCURRENT,DEPTH,CHILDREN,ITERATIONS"
            )),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_concurrent: 8,
            max_spawn_depth: 1,
            max_children_per_agent: 5,
            max_iterations: 20,
        }
    }
}

/// A child about to be spawned.
#[derive(Debug, Clone)]
pub struct NewChild<'a> {
    pub run_id: &'a str,
    pub parent_run_id: &'a str,
    /// The parent's depth (0 for a top-level run).
    pub parent_depth: u32,
    pub label: &'a str,
    pub agent: &'a str,
    pub task: &'a str,
    pub detached: bool,
}

/// A child as its parent (or a script) sees it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Child {
    pub run_id: String,
    pub parent_run_id: String,
    pub label: String,
    pub agent: String,
    pub depth: u32,
    /// spawning | running | completed | failed | cancelled | rejected | archived
    pub status: String,
    /// The child's answer, once it completed.
    pub content: Option<String>,
    pub error: Option<String>,
    pub pid: Option<i64>,
    /// When that process started ([`crate::host::process_start`]; `None` in older rows).
    #[serde(skip)]
    pub pid_start: Option<i64>,
    /// The PID namespace of that pid ([`crate::host::pid_namespace`]; `None` in older rows).
    #[serde(skip)]
    pub pid_ns: Option<String>,
    pub detached: bool,
    pub created_at: i64,
    #[serde(skip)]
    pub announced: bool,
}

impl Child {
    /// Still to end (spawning or running).
    pub fn active(&self) -> bool {
        matches!(self.status.as_str(), "spawning" | "running")
    }
}

/// Reserves a child under the limits; `Err` with a message written for the model when a limit
/// refuses it (the spawn is then kept as `rejected`).
pub fn reserve(db: Db<'_>, c: &NewChild, limits: &Limits) -> Result<()> {
    let tx = db.transaction(Begin::Write)?;
    if tx.dialect() == Dialect::Postgres {
        tx.query_row(
            "SELECT pg_advisory_xact_lock(hashtextextended('goclaw subagents', 0))",
            &[],
            |_| Ok(()),
        )?;
    }
    let now = now_ms();
    let refusal = refusal(*tx, c, limits, now)?;
    tx.execute(
        "INSERT INTO subagents (run_id, parent_run_id, depth, label, agent, task, status, detached, reason, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        db_params![
            c.run_id,
            c.parent_run_id,
            c.parent_depth + 1,
            c.label,
            c.agent,
            c.task,
            if refusal.is_some() { "rejected" } else { "spawning" },
            c.detached,
            refusal,
            now
        ],
    )?;
    tx.commit()?;
    match refusal {
        Some(why) => Err(Error::new(crate::error::ErrorKind::Limited, why)),
        None => Ok(()),
    }
}

/// Which limit refuses the child, if one does, with the current count.
fn refusal(db: Db<'_>, c: &NewChild, l: &Limits, now: i64) -> Result<Option<String>> {
    if c.parent_depth + 1 > l.max_spawn_depth {
        return Ok(Some(format!(
            "spawn refused: maximum spawn depth reached ({}/{}); do this task yourself",
            c.parent_depth, l.max_spawn_depth
        )));
    }
    let active = |filter: &str, arg: Option<&str>| -> Result<u32> {
        let q = format!(
            "SELECT count(*) FROM subagents s LEFT JOIN runs r ON r.id = s.run_id
             WHERE s.status IN ('spawning', 'started')
               AND ((r.id IS NULL AND s.created_at > ?1) OR r.status = 'running')
               {filter}"
        );
        let n: i64 = db.query_row(&q, db_params![now - SPAWN_GRACE_MS, arg], |r| r.get(0))?;
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    };
    let children = active("AND s.parent_run_id = ?2", Some(c.parent_run_id))?;
    if children >= l.max_children_per_agent {
        return Ok(Some(format!(
            "spawn refused: at capacity ({children}/{} children of this run running); wait for one to finish (list shows them) or cancel one",
            l.max_children_per_agent
        )));
    }
    let all = active("AND CAST(?2 AS TEXT) IS NULL", None)?;
    if all >= l.max_concurrent {
        return Ok(Some(format!(
            "spawn refused: at capacity ({all}/{} subagents running across all runs); wait for one to finish",
            l.max_concurrent
        )));
    }
    Ok(None)
}

/// The child's process started: its pid, and when it started ([`crate::host::process_start`]).
pub fn started(db: Db<'_>, run_id: &str, (pid, start): (u32, Option<i64>)) -> Result<()> {
    db.execute(
        "UPDATE subagents SET status = 'started', pid = ?2, pid_start = ?3, pid_ns = ?4
         WHERE run_id = ?1 AND status = 'spawning'",
        db_params![run_id, pid, start, crate::host::pid_namespace()],
    )?;
    Ok(())
}

/// The child could not start: its reservation is kept as rejected, with why.
pub fn failed_to_start(db: Db<'_>, run_id: &str, why: &str) -> Result<()> {
    db.execute(
        "UPDATE subagents SET status = 'rejected', reason = ?2 WHERE run_id = ?1",
        db_params![run_id, why],
    )?;
    Ok(())
}

/// Why a child cancelled before it recorded its run did not run.
const CANCELLED_EARLY: &str = "cancelled before it started";

/// The child's process ended: if it never recorded its run, it failed to start (`how` is its
/// exit status), or was cancelled then.
pub fn ended_unstarted(db: Db<'_>, run_id: &str, how: &str) -> Result<()> {
    let recorded = db
        .query_opt(
            "SELECT 1 FROM runs WHERE id = ?1",
            db_params![run_id],
            |_| Ok(()),
        )?
        .is_some();
    if !recorded {
        db.execute(
            "UPDATE subagents SET status = 'rejected', reason = coalesce(reason, ?2) WHERE run_id = ?1",
            db_params![
                run_id,
                format!("the child ended before its run started ({how})")
            ],
        )?;
    }
    Ok(())
}

const CHILD_COLUMNS: &str = "s.run_id, s.parent_run_id, s.label, s.agent, s.depth, s.status, r.status, r.content, coalesce(r.error, s.reason), s.pid, s.detached, s.created_at, s.announced, s.pid_start, s.pid_ns";

fn row_child(r: &Row, now: i64) -> Result<Child> {
    let own: String = r.get(5)?;
    let run: Option<String> = r.get(6)?;
    let created_at: i64 = r.get(11)?;
    let status = match (own.as_str(), run.as_deref()) {
        ("rejected" | "archived", _) => own.clone(),
        (_, None) if now - created_at > SPAWN_GRACE_MS => "failed".into(),
        (_, None) => "spawning".into(),
        (_, Some("running")) => "running".into(),
        (_, Some("completed")) => "completed".into(),
        (_, Some("cancelled")) => "cancelled".into(),
        (_, Some(_)) => "failed".into(),
    };
    Ok(Child {
        run_id: r.get(0)?,
        parent_run_id: r.get(1)?,
        label: r.get(2)?,
        agent: r.get(3)?,
        depth: u32::try_from(r.get::<i64>(4)?).unwrap_or(0),
        status,
        content: r.get(7)?,
        error: r.get(8)?,
        pid: r.get(9)?,
        detached: r.get(10)?,
        created_at,
        announced: r.get(12)?,
        pid_start: r.get(13)?,
        pid_ns: r.get(14)?,
    })
}

/// The children of a run, oldest first (rejected ones too; run ids are UUID v7, so in the order
/// they were made within a millisecond).
pub fn children(db: Db<'_>, parent_run_id: &str) -> Result<Vec<Child>> {
    let now = now_ms();
    db.query_map(
        &format!(
            "SELECT {CHILD_COLUMNS} FROM subagents s LEFT JOIN runs r ON r.id = s.run_id
             WHERE s.parent_run_id = ?1 ORDER BY s.created_at, s.run_id"
        ),
        db_params![parent_run_id],
        |r| row_child(r, now),
    )
}

/// One child by its run id.
pub fn child(db: Db<'_>, run_id: &str) -> Result<Option<Child>> {
    let now = now_ms();
    db.query_opt(
        &format!(
            "SELECT {CHILD_COLUMNS} FROM subagents s LEFT JOIN runs r ON r.id = s.run_id
             WHERE s.run_id = ?1"
        ),
        db_params![run_id],
        |r| row_child(r, now),
    )
}

/// Children that ended and whose end the parent has not been told of yet; marks them told.
pub fn take_finished(db: Db<'_>, parent_run_id: &str) -> Result<Vec<Child>> {
    let done: Vec<Child> = children(db, parent_run_id)?
        .into_iter()
        .filter(|c| !c.announced && !c.active() && c.status != "rejected")
        .collect();
    for c in &done {
        mark_announced(db, &c.run_id)?;
    }
    Ok(done)
}

/// The parent has the child's end already (a sync `run` returned it): it is not announced.
pub fn mark_announced(db: Db<'_>, run_id: &str) -> Result<()> {
    db.execute(
        "UPDATE subagents SET announced = 1 WHERE run_id = ?1",
        db_params![run_id],
    )?;
    Ok(())
}

/// Asks a running child to stop: SIGTERM to its process, which ends its run as cancelled (and
/// cancels its own children). `false` when it was not running.
pub fn cancel(db: Db<'_>, run_id: &str) -> Result<bool> {
    let Some(c) = child(db, run_id)? else {
        return Err(Error::not_found(format!(
            "no subagent with run id {run_id}"
        )));
    };
    if !c.active() {
        return Ok(false);
    }
    // A child whose process started but has not recorded its run yet cannot end it cleanly
    // until it handles the signal: it is given a moment to get there (it records its run, or
    // shows a handler for SIGTERM: it then stops whatever it is connecting to and records its
    // run as cancelled).
    type Recorded = Option<(i64, Option<i64>, Option<String>)>;
    let run_pid = || -> Result<Recorded> {
        db.query_opt(
            "SELECT pid, pid_start, pid_ns FROM runs WHERE id = ?1 AND pid IS NOT NULL",
            db_params![run_id],
            |r| Ok((r.get::<i64>(0)?, r.get(1)?, r.get(2)?)),
        )
    };
    let launched = c.pid.map(|pid| crate::host::Recorded {
        pid,
        start: c.pid_start,
        ns: c.pid_ns.as_deref(),
    });
    let handles_it = || {
        launched
            .as_ref()
            .is_some_and(|l| l.catches(nix::sys::signal::Signal::SIGTERM))
    };
    let mut pid = run_pid()?;
    let deadline = std::time::Instant::now() + START_WAIT;
    while pid.is_none() && c.pid.is_some() && !handles_it() && std::time::Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(20));
        pid = run_pid()?;
    }
    if pid.is_none() {
        // Should it end before it records its run (a signal that came before its own handling
        // of it), that is why.
        db.execute(
            "UPDATE subagents SET reason = ?2 WHERE run_id = ?1 AND reason IS NULL",
            db_params![run_id, CANCELLED_EARLY],
        )?;
    }
    match pid.or(c.pid.map(|p| (p, c.pid_start, c.pid_ns.clone()))) {
        // Only the process recorded: its pid may have gone to another process since.
        Some((pid, start, ns)) if pid > 0 => {
            let ns = ns.as_deref();
            crate::host::Recorded { pid, start, ns }.signal(nix::sys::signal::Signal::SIGTERM);
            Ok(true)
        }
        // Not started yet: the reservation is dropped, so it never starts counting.
        _ => {
            failed_to_start(db, run_id, CANCELLED_EARLY)?;
            Ok(true)
        }
    }
}

/// Waits until none of `run_ids` is active, or `give_up` says to stop waiting (checked every
/// poll); returns the children as they are then.
pub fn wait(
    db: Db<'_>,
    run_ids: &[String],
    give_up: &mut dyn FnMut() -> bool,
) -> Result<Vec<Child>> {
    crate::store::poll(Duration::from_millis(200), || {
        let now: Vec<Child> = run_ids
            .iter()
            .map(|id| child(db, id))
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .flatten()
            .collect();
        Ok((now.iter().all(|c| !c.active()) || give_up()).then_some(now))
    })
}

/// Asks the process `pid`, a child of this process not yet waited for (so its pid is still its
/// own), to end its run (SIGTERM, which it turns into a clean cancel).
pub fn terminate(pid: i64) -> bool {
    pid > 0
        && nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGTERM,
        )
        .is_ok()
}

/// Children that ended more than an hour ago become `archived` (`goclaw runs prune`).
pub fn archive(db: Db<'_>) -> Result<usize> {
    let cutoff = now_ms() - ARCHIVE_AFTER_MS;
    db.execute(
        "UPDATE subagents SET status = 'archived'
         WHERE status = 'started' AND EXISTS
           (SELECT 1 FROM runs r WHERE r.id = subagents.run_id AND r.status != 'running' AND r.ended_at < ?1)",
        db_params![cutoff],
    )
    .map(|n| n as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// helper-36: a child's limits are its own under its parent's, and travel as one argument.
    #[test]
    fn limits_are_capped_by_the_parents_and_read_back() {
        let parent = Limits {
            max_concurrent: 3,
            max_spawn_depth: 1,
            max_children_per_agent: 2,
            max_iterations: 40,
        };
        let wide = Limits {
            max_concurrent: 50,
            max_spawn_depth: 5,
            max_children_per_agent: 20,
            max_iterations: 10,
        };
        let capped = wide.cap(Some(parent));
        assert_eq!(capped.to_string(), "3,1,2,10");
        assert_eq!(capped.to_string().parse::<Limits>(), Ok(capped));
        assert_eq!(wide.cap(None), wide);
        assert!("1,2,3".parse::<Limits>().is_err());
        assert!("1,2,3,x".parse::<Limits>().is_err());
    }

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.db"), crate::store::BUSY_TIMEOUT).unwrap();
        (dir, store)
    }

    fn new<'a>(id: &'a str, parent: &'a str, depth: u32) -> NewChild<'a> {
        NewChild {
            run_id: id,
            parent_run_id: parent,
            parent_depth: depth,
            label: id,
            agent: "default",
            task: "t",
            detached: false,
        }
    }

    #[test]
    fn each_limit_refuses_with_its_count_and_keeps_the_rejection() {
        let (_d, s) = store();
        let l = Limits::default();
        let e = reserve(s.db(), &new("deep", "p", 1), &l).unwrap_err();
        assert_eq!(e.kind, crate::error::ErrorKind::Limited);
        assert!(
            e.message.contains("maximum spawn depth reached (1/1)"),
            "{}",
            e.message
        );
        for i in 0..5 {
            reserve(s.db(), &new(&format!("a{i}"), "p1", 0), &l).unwrap();
        }
        let e = reserve(s.db(), &new("a5", "p1", 0), &l).unwrap_err();
        assert!(
            e.message.contains("at capacity (5/5 children"),
            "{}",
            e.message
        );
        for i in 0..3 {
            reserve(s.db(), &new(&format!("b{i}"), "p2", 0), &l).unwrap();
        }
        let e = reserve(s.db(), &new("b3", "p2", 0), &l).unwrap_err();
        assert!(
            e.message.contains("at capacity (8/8 subagents"),
            "{}",
            e.message
        );
        let rejected = children(s.db(), "p1").unwrap();
        assert_eq!(rejected.last().unwrap().status, "rejected");
        assert!(
            rejected
                .last()
                .unwrap()
                .error
                .as_deref()
                .unwrap()
                .contains("5/5")
        );
        // A reservation that never started stops counting after the grace period.
        s.conn()
            .unwrap()
            .execute("UPDATE subagents SET created_at = created_at - 60000", [])
            .unwrap();
        assert_eq!(children(s.db(), "p2").unwrap()[0].status, "failed");
        reserve(s.db(), &new("c0", "p2", 0), &l).unwrap();
    }

    /// A child whose run row is written (running) before its parent records it started is
    /// still counted: several spawns in one response let 7 of 5 through.
    #[test]
    fn a_child_running_before_its_spawn_is_recorded_started_counts() {
        let (_d, s) = store();
        let l = Limits {
            max_children_per_agent: 1,
            ..Limits::default()
        };
        reserve(s.db(), &new("fast", "p", 0), &l).unwrap();
        s.conn()
            .unwrap()
            .execute(
                "INSERT INTO runs (id, agent, status, started_at, parent_run_id, depth)
                 VALUES ('fast', 'default', 'running', 1, 'p', 1)",
                [],
            )
            .unwrap();
        // Past the grace a reservation without a run row gets: only the running row counts.
        s.conn()
            .unwrap()
            .execute("UPDATE subagents SET created_at = created_at - 60000", [])
            .unwrap();
        let e = reserve(s.db(), &new("second", "p", 0), &l).unwrap_err();
        assert!(e.message.contains("at capacity (1/1"), "{}", e.message);
    }

    #[test]
    fn a_finished_child_is_announced_once_and_a_sync_one_never() {
        let (_d, s) = store();
        let l = Limits::default();
        for id in ["x", "y"] {
            reserve(s.db(), &new(id, "p", 0), &l).unwrap();
            started(s.db(), id, (1, None)).unwrap();
            s.conn().unwrap()
                .execute(
                    "INSERT INTO runs (id, agent, status, started_at, ended_at, content, parent_run_id, depth)
                     VALUES (?1, 'default', 'completed', 1, 2, 'answer', 'p', 1)",
                    [id],
                )
                .unwrap();
        }
        mark_announced(s.db(), "y").unwrap();
        let told = take_finished(s.db(), "p").unwrap();
        assert_eq!(told.len(), 1);
        assert_eq!(told[0].run_id, "x");
        assert_eq!(told[0].status, "completed");
        assert_eq!(told[0].content.as_deref(), Some("answer"));
        assert!(take_finished(s.db(), "p").unwrap().is_empty());
    }
}
