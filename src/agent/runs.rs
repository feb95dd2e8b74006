//! Runs as scripts see them: a filtered list, one run with its children, waiting for runs to
//! end, and cancelling them. A run is cancelled by its owner: SIGTERM to the process running it,
//! which ends it cleanly (`run.cancelled`, children too), whichever process asks.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::record::reap_abandoned;
use crate::db_params;
use crate::error::{ErrorKind, Result};
use crate::store::db::{Db, Row, ToValue};
use crate::store::page::{Page, PageRequest};

/// One run.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunRow {
    pub id: String,
    pub status: String,
    pub agent: String,
    pub session: Option<String>,
    pub parent_run_id: Option<String>,
    pub depth: u32,
    pub label: Option<String>,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub iterations: i64,
    /// What the run was asked (scrubbed); a run that did not complete keeps it here only.
    pub message: Option<String>,
    pub content: Option<String>,
    pub error: Option<String>,
    /// The exit code the run's command ended with (`None` while it runs, for a run marked
    /// abandoned, and in rows written before it was kept).
    pub exit_code: Option<i64>,
    #[serde(skip)]
    pub pid: Option<i64>,
    /// When that process started ([`crate::host::process_start`]; `None` in older rows).
    #[serde(skip)]
    pub pid_start: Option<i64>,
    /// The PID namespace of that pid ([`crate::host::pid_namespace`]; `None` in older rows).
    #[serde(skip)]
    pub pid_ns: Option<String>,
    /// The machine of the process running it (`None`: written before hosts were kept).
    #[serde(skip)]
    pub host: Option<String>,
}

impl RunRow {
    /// The error kind a command line maps this run's end to (`None`: completed or running):
    /// its command's, when the row keeps its exit code, else its status's.
    pub fn error_kind(&self) -> Option<ErrorKind> {
        if let Some(code) = self.exit_code.filter(|_| self.status != "running") {
            return ErrorKind::from_exit_code(code);
        }
        match self.status.as_str() {
            "completed" | "running" => None,
            "cancelled" => Some(ErrorKind::Interrupted),
            "timed_out" => Some(ErrorKind::Timeout),
            "denied" => Some(ErrorKind::Denied),
            "limited" => Some(ErrorKind::Limited),
            _ => Some(ErrorKind::Failed),
        }
    }
}

/// Which runs to list.
#[derive(Debug, Clone, Default)]
pub struct RunFilter {
    pub parent: Option<String>,
    pub status: Option<String>,
    pub agent: Option<String>,
    pub session: Option<String>,
    pub page: PageRequest,
}

const COLUMNS: &str = "id, status, agent, session, parent_run_id, depth, label, started_at, ended_at, iterations, content, error, pid, message, host, pid_start, pid_ns, exit_code";

fn row(r: &Row) -> Result<RunRow> {
    Ok(RunRow {
        id: r.get(0)?,
        status: r.get(1)?,
        agent: r.get(2)?,
        session: r.get(3)?,
        parent_run_id: r.get(4)?,
        depth: u32::try_from(r.get::<i64>(5)?).unwrap_or(0),
        label: r.get(6)?,
        started_at: r.get(7)?,
        ended_at: r.get(8)?,
        iterations: r.get(9)?,
        content: r.get(10)?,
        error: r.get(11)?,
        pid: r.get(12)?,
        message: r.get(13)?,
        host: r.get(14)?,
        pid_start: r.get(15)?,
        pid_ns: r.get(16)?,
        exit_code: r.get(17)?,
    })
}

/// Marks abandoned the runs whose process is gone, when the store can be written at once: a
/// reader never fails, nor waits, because another process is writing (the next command reaps).
/// Subagents that ended over an hour ago are archived at the same time.
fn reap(db: Db<'_>) {
    crate::store::without_waiting(|| {
        let _ = reap_abandoned(db);
        let _ = crate::subagents::archive(db);
    });
}

/// Runs, newest first (runs whose process is gone are marked abandoned first).
pub fn list(db: Db<'_>, f: &RunFilter) -> Result<Page<RunRow>> {
    reap(db);
    let (mut filter, values) = crate::store::where_equal(&[
        ("parent_run_id", f.parent.as_deref()),
        ("status", f.status.as_deref()),
        ("agent", f.agent.as_deref()),
        ("session", f.session.as_deref()),
    ]);
    let mut params: Vec<&dyn ToValue> = values.iter().map(|v| v as &dyn ToValue).collect();
    let after = f.page.after_time_key()?;
    if let Some((at, id)) = &after {
        params.extend([at as &dyn ToValue, id as &dyn ToValue]);
        let n = params.len();
        crate::store::and_where(
            &mut filter,
            &format!("(started_at, id) < (?{}, ?{n})", n - 1),
        );
    }
    let rows = db.query_map(
        &format!(
            "SELECT {COLUMNS} FROM runs {filter} ORDER BY started_at DESC, id DESC LIMIT {}",
            f.page.fetch()
        ),
        &params,
        row,
    )?;
    Ok(Page::cut(rows, &f.page, |r| {
        crate::store::page::time_key(r.started_at, &r.id)
    }))
}

/// Every running run (of one session), newest first.
pub fn running(db: Db<'_>, session: Option<&str>) -> Result<Vec<RunRow>> {
    reap(db);
    db.query_map(
        &format!(
            "SELECT {COLUMNS} FROM runs WHERE status = 'running' AND (CAST(?1 AS TEXT) IS NULL OR session = ?1)
             ORDER BY started_at DESC, id DESC"
        ),
        db_params![session],
        row,
    )
}

/// One run by id, or by a unique start or end of it ([`MIN_PREFIX`] characters or more). A
/// run id is a UUIDv7: its start is the time (runs started within a minute share their first
/// 8 characters), its end is random (the last 8 almost always name one run).
pub fn get(db: Db<'_>, id: &str) -> Result<Option<RunRow>> {
    reap(db);
    let exact = by_id(db, id)?;
    // Only an id's own characters (hex digits and dashes): no LIKE wildcard gets through.
    if exact.is_some()
        || id.chars().count() < MIN_PREFIX
        || !id.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
    {
        return Ok(exact);
    }
    let part = id.to_ascii_lowercase();
    let found: Vec<RunRow> = db.query_map(
        &format!(
            "SELECT {COLUMNS} FROM runs WHERE substr(id, 1, length(?1)) = ?1 OR id LIKE '%' || ?1 LIMIT 2"
        ),
        db_params![part],
        row,
    )?;
    match found.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.clone())),
        _ => Err(crate::error::Error::usage(format!(
            "`{id}` is the start or end of several runs' ids: give more of it"
        ))),
    }
}

/// One run by its whole id.
fn by_id(db: Db<'_>, id: &str) -> Result<Option<RunRow>> {
    db.query_opt(
        &format!("SELECT {COLUMNS} FROM runs WHERE id = ?1"),
        db_params![id],
        row,
    )
}

/// The shortest start or end of a run id that names it.
const MIN_PREFIX: usize = 8;

/// A run's children, oldest first.
pub fn children(db: Db<'_>, id: &str) -> Result<Vec<RunRow>> {
    db.query_map(
        &format!("SELECT {COLUMNS} FROM runs WHERE parent_run_id = ?1 ORDER BY started_at, id"),
        db_params![id],
        row,
    )
}

/// Waits until the runs have ended (`any`: until one has), or `timeout` passes; returns them as
/// they are then. A run the store does not know is `None`.
pub fn wait(
    db: Db<'_>,
    ids: &[String],
    any: bool,
    timeout: Option<Duration>,
) -> Result<Vec<Option<RunRow>>> {
    let start = Instant::now();
    crate::store::poll(Duration::from_millis(250), || {
        // One reap per look, then each run by its whole id.
        reap(db);
        let now: Vec<Option<RunRow>> = ids.iter().map(|id| by_id(db, id)).collect::<Result<_>>()?;
        let ended = |r: &Option<RunRow>| r.as_ref().is_none_or(|r| r.status != "running");
        let done = if any {
            now.iter().any(ended)
        } else {
            now.iter().all(ended)
        };
        Ok((done || timeout.is_some_and(|t| start.elapsed() >= t)).then_some(now))
    })
}

/// Asks the process running `run` to cancel it (SIGTERM). `false` when it is not running, runs
/// on another machine (its pid means nothing here), or its process is gone (its pid, given to
/// another process since, is not signalled).
pub fn cancel(run: &RunRow) -> bool {
    if run.status != "running" || !run.runs_here() {
        return false;
    }
    run.process()
        .is_some_and(|p| p.signal(nix::sys::signal::Signal::SIGTERM))
}

impl RunRow {
    /// Its process can be signalled from here: on this machine, its pid one of this PID
    /// namespace (a run written before hosts or namespaces were kept is taken to be).
    pub fn runs_here(&self) -> bool {
        self.host
            .as_deref()
            .is_none_or(|h| h == crate::host::name())
            && self.process().is_none_or(|p| p.seen_here())
    }

    /// The process running it, as recorded.
    pub fn process(&self) -> Option<crate::host::Recorded<'_>> {
        self.pid.map(|pid| crate::host::Recorded {
            pid,
            start: self.pid_start,
            ns: self.pid_ns.as_deref(),
        })
    }
}

/// The running runs of a session.
pub fn running_in_session(db: Db<'_>, session: &str) -> Result<Vec<RunRow>> {
    running(db, Some(session))
}
