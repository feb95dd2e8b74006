//! Runs as scripts see them: a filtered list, one run with its children, waiting for runs to
//! end, and cancelling them. A run is cancelled by its owner: SIGTERM to the process running it,
//! which ends it cleanly (`run.cancelled`, children too), whichever process asks.

use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;

use super::record::reap_abandoned;
use crate::error::{ErrorKind, Result};
use crate::store::page::{Page, PageRequest};
use crate::store::sql;

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
    #[serde(skip)]
    pub pid: Option<i64>,
}

impl RunRow {
    /// The error kind a command line maps this run's end to (`None`: completed or running).
    pub fn error_kind(&self) -> Option<ErrorKind> {
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

const COLUMNS: &str = "id, status, agent, session, parent_run_id, depth, label, started_at, ended_at, iterations, content, error, pid, message";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RunRow> {
    Ok(RunRow {
        id: r.get(0)?,
        status: r.get(1)?,
        agent: r.get(2)?,
        session: r.get(3)?,
        parent_run_id: r.get(4)?,
        depth: r.get(5)?,
        label: r.get(6)?,
        started_at: r.get(7)?,
        ended_at: r.get(8)?,
        iterations: r.get(9)?,
        content: r.get(10)?,
        error: r.get(11)?,
        pid: r.get(12)?,
        message: r.get(13)?,
    })
}

/// Marks abandoned the runs whose process is gone, when the store can be written: a reader
/// never fails because another process is writing.
/// Subagents that ended over an hour ago are archived at the same time.
fn reap(conn: &Connection) {
    let _ = reap_abandoned(conn);
    let _ = crate::subagents::archive(conn);
}

/// Runs, newest first (runs whose process is gone are marked abandoned first).
pub fn list(conn: &Connection, f: &RunFilter) -> Result<Page<RunRow>> {
    reap(conn);
    let (mut filter, values) = crate::store::where_equal(&[
        ("parent_run_id", f.parent.as_deref()),
        ("status", f.status.as_deref()),
        ("agent", f.agent.as_deref()),
        ("session", f.session.as_deref()),
    ]);
    let mut values: Vec<rusqlite::types::Value> =
        values.into_iter().map(|v| v.to_string().into()).collect();
    if let Some((at, id)) = f.page.after_time_key()? {
        values.extend([at.into(), id.into()]);
        let n = values.len();
        crate::store::and_where(
            &mut filter,
            &format!("(started_at, id) < (?{}, ?{n})", n - 1),
        );
    }
    let mut stmt = conn
        .prepare(&format!(
            "SELECT {COLUMNS} FROM runs {filter} ORDER BY started_at DESC, id DESC LIMIT {}",
            f.page.fetch()
        ))
        .map_err(sql)?;
    let rows: Vec<RunRow> = stmt
        .query_map(rusqlite::params_from_iter(values), row)
        .and_then(|rows| rows.collect())
        .map_err(sql)?;
    Ok(Page::cut(rows, &f.page, |r| {
        crate::store::page::time_key(r.started_at, &r.id)
    }))
}

/// Every running run (of one session), newest first.
pub fn running(conn: &Connection, session: Option<&str>) -> Result<Vec<RunRow>> {
    reap(conn);
    let mut stmt = conn
        .prepare(&format!(
            "SELECT {COLUMNS} FROM runs WHERE status = 'running' AND (?1 IS NULL OR session = ?1)
             ORDER BY started_at DESC, id DESC"
        ))
        .map_err(sql)?;
    stmt.query_map([session], row)
        .and_then(|rows| rows.collect())
        .map_err(sql)
}

/// One run by id (or a unique prefix of it).
pub fn get(conn: &Connection, id: &str) -> Result<Option<RunRow>> {
    reap(conn);
    let exact = by_id(conn, id)?;
    if exact.is_some() || id.chars().count() < MIN_PREFIX {
        return Ok(exact);
    }
    // A prefix of one run's id (compared as text, so no character is a wildcard).
    let mut stmt = conn
        .prepare(&format!(
            "SELECT {COLUMNS} FROM runs WHERE substr(id, 1, length(?1)) = ?1 LIMIT 2"
        ))
        .map_err(sql)?;
    let found: Vec<RunRow> = stmt
        .query_map([id], row)
        .and_then(|rows| rows.collect())
        .map_err(sql)?;
    match found.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.clone())),
        _ => Err(crate::error::Error::usage(format!(
            "`{id}` is the start of several runs' ids: give more of it"
        ))),
    }
}

/// One run by its whole id.
fn by_id(conn: &Connection, id: &str) -> Result<Option<RunRow>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM runs WHERE id = ?1"),
        [id],
        row,
    )
    .optional()
    .map_err(sql)
}

/// The shortest prefix of a run id that names it.
const MIN_PREFIX: usize = 8;

/// A run's children, oldest first.
pub fn children(conn: &Connection, id: &str) -> Result<Vec<RunRow>> {
    let mut stmt = conn
        .prepare(&format!(
            "SELECT {COLUMNS} FROM runs WHERE parent_run_id = ?1 ORDER BY started_at, id"
        ))
        .map_err(sql)?;
    stmt.query_map([id], row)
        .and_then(|rows| rows.collect())
        .map_err(sql)
}

/// Waits until the runs have ended (`any`: until one has), or `timeout` passes; returns them as
/// they are then. A run the store does not know is `None`.
pub fn wait(
    conn: &Connection,
    ids: &[String],
    any: bool,
    timeout: Option<Duration>,
) -> Result<Vec<Option<RunRow>>> {
    let start = Instant::now();
    crate::store::poll(Duration::from_millis(250), || {
        // One reap per look, then each run by its whole id.
        reap(conn);
        let now: Vec<Option<RunRow>> = ids
            .iter()
            .map(|id| by_id(conn, id))
            .collect::<Result<_>>()?;
        let ended = |r: &Option<RunRow>| r.as_ref().is_none_or(|r| r.status != "running");
        let done = if any {
            now.iter().any(ended)
        } else {
            now.iter().all(ended)
        };
        Ok((done || timeout.is_some_and(|t| start.elapsed() >= t)).then_some(now))
    })
}

/// Asks the process running `run` to cancel it (SIGTERM). `false` when it is not running.
pub fn cancel(run: &RunRow) -> bool {
    if run.status != "running" {
        return false;
    }
    run.pid.is_some_and(crate::subagents::terminate)
}

/// The running runs of a session.
pub fn running_in_session(conn: &Connection, session: &str) -> Result<Vec<RunRow>> {
    running(conn, Some(session))
}
