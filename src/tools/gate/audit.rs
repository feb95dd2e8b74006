//! The audit trail and the rate limiter, both in the store: every call's row in `tool_calls`
//! (written as `started` before a tool runs, completed after), the sliding-hour window of
//! `rate_limit_events`, and the trail as `goclaw tools history` reads it.

use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use super::CallRequest;
use crate::db_params;
use crate::error::Result;
use crate::store::db::{Begin, Db, Dialect, Row as DbRow, ToValue};
use crate::store::page::{Page, PageRequest};
use crate::store::{Store, now_ms, now_text};
use crate::text::scrub::Scrubber;

/// What an audit row says of a call's end (or its start).
pub(super) struct Row<'a> {
    pub tool: &'a str,
    pub outcome: &'a str,
    pub is_error: bool,
    pub took: Duration,
    pub decision: &'a Value,
    pub preview: Option<&'a str>,
}

/// Inserts an audit row: the caller's fields and arguments scrubbed, the rest as given.
pub(super) fn insert(scrubber: &Scrubber, db: Db<'_>, req: &CallRequest, row: &Row) -> Result<i64> {
    let mut args = req.args.clone();
    scrubber.scrub_json(&mut args);
    let preview = row.preview.map(printable);
    let scrub = |s: &Option<String>| s.as_ref().map(|v| scrubber.scrub_str(v, None));
    db.query_row(
        "INSERT INTO tool_calls (at, agent, user_id, session_key, channel, chat_id, tool, arguments, outcome,
                                 is_error, duration_ms, decision, result, pid, pid_start, pid_ns, host)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17) RETURNING id",
        db_params![
            now_text(),
            scrub(&req.agent),
            scrub(&req.user),
            scrub(&req.session_key),
            scrub(&req.channel),
            scrub(&req.chat_id),
            row.tool,
            args.to_string(),
            row.outcome,
            row.is_error,
            row.took.as_millis() as i64,
            row.decision.to_string(),
            preview,
            std::process::id(),
            crate::host::own_start(),
            crate::host::pid_namespace(),
            crate::host::name(),
        ],
        |r| r.get(0),
    )
}

/// Closes the rows of calls whose process is gone (killed mid-call), as `error` saying so: a row
/// left `started` for ever told the trail's reader the call was still running. A row of another
/// machine, of another PID namespace, or without a process (written before they were kept), is
/// left as it is.
pub fn close_abandoned(db: Db<'_>) -> Result<()> {
    type Started = (i64, i64, Option<i64>, Option<String>, Option<String>);
    let started: Vec<Started> = db.query_map(
        "SELECT id, pid, pid_start, pid_ns, host FROM tool_calls WHERE outcome = 'started' AND pid IS NOT NULL",
        db_params![],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )?;
    let here = crate::host::name();
    for (id, pid, start, ns, host) in started {
        let process = crate::host::Recorded {
            pid,
            start,
            ns: ns.as_deref(),
        };
        if host.as_deref().is_some_and(|h| h != here) || process.may_run() {
            continue;
        }
        db.execute(
            "UPDATE tool_calls SET outcome = 'error', is_error = 1, result = ?2
             WHERE id = ?1 AND outcome = 'started'",
            db_params![
                id,
                format!(
                    "abandoned: the process making the call (pid {pid}) ended before the call did; whatever the tool did by then was done"
                )
            ],
        )?;
    }
    Ok(())
}

/// Completes the row of a call that started (or inserts one for a call that never started).
pub(super) fn finish(
    scrubber: &Scrubber,
    db: Db<'_>,
    req: &CallRequest,
    row: &Row,
    started: Option<i64>,
) -> Result<i64> {
    match started {
        Some(id) => db
            .execute(
                "UPDATE tool_calls SET outcome = ?1, is_error = ?2, duration_ms = ?3, decision = ?4, result = ?5
                 WHERE id = ?6",
                db_params![
                    row.outcome,
                    row.is_error,
                    row.took.as_millis() as i64,
                    row.decision.to_string(),
                    row.preview.map(printable),
                    id
                ],
            )
            .map(|_| id),
        None => insert(scrubber, db, req, row),
    }
}

/// A result preview as the trail keeps it on either backend: a NUL (which PostgreSQL's text
/// cannot hold) shown as U+FFFD, so a result that holds one is still recorded.
fn printable(text: &str) -> String {
    text.replace('\0', "\u{FFFD}")
}

/// The key calls are counted under: the session key, trimmed, lower-cased and with white space
/// collapsed (`Nightly ` and `nightly` share a quota); without a session, the agent
/// (`agent:KEY`, `agent:default` for none), so leaving the session out does not escape the limit.
pub fn rate_key(session: Option<&str>, agent: Option<&str>) -> String {
    match session.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => s
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase(),
        None => format!("agent:{}", agent.unwrap_or("default")),
    }
}

/// The sliding-window limiter (§8) in the store: drop events older than an hour, refuse at
/// `max`, else record now; in one transaction that holds the key's lock (SQLite's `BEGIN
/// IMMEDIATE`; a transaction-scoped advisory lock on the key on PostgreSQL), so processes on
/// every machine sharing the store share the window.
pub fn allow_rate(db: Db<'_>, key: &str, max: u32) -> Result<bool> {
    let now = now_ms();
    let tx = db.transaction(Begin::Write)?;
    if tx.dialect() == Dialect::Postgres {
        tx.query_row(
            "SELECT pg_advisory_xact_lock(hashtextextended('goclaw rate ' || ?1, 0))",
            db_params![key],
            |_| Ok(()),
        )?;
    }
    tx.execute(
        "DELETE FROM rate_limit_events WHERE key = ?1 AND at_ms < ?2",
        db_params![key, now - 3_600_000],
    )?;
    let count: i64 = tx.query_row(
        "SELECT count(*) FROM rate_limit_events WHERE key = ?1",
        db_params![key],
        |r| r.get(0),
    )?;
    if count < i64::from(max) {
        tx.execute(
            "INSERT INTO rate_limit_events (key, at_ms) VALUES (?1, ?2)",
            db_params![key, now],
        )?;
    }
    tx.commit()?;
    Ok(count < i64::from(max))
}

/// Which rows of the trail to read.
#[derive(Debug, Clone, Default)]
pub struct HistoryFilter {
    pub tool: Option<String>,
    pub session: Option<String>,
    pub agent: Option<String>,
    pub page: PageRequest,
}

/// One call in the trail.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryRow {
    pub id: i64,
    /// Unix milliseconds.
    pub at: i64,
    pub agent: Option<String>,
    pub session_key: Option<String>,
    pub tool: String,
    pub arguments: Value,
    pub outcome: String,
    pub is_error: bool,
    pub duration_ms: i64,
    pub decision: Value,
    pub result: Option<String>,
    pub user: Option<String>,
    pub channel: Option<String>,
}

/// One page of the trail, the newest calls first (the cursor is the last call's id).
pub fn history(store: &Store, f: &HistoryFilter) -> Result<Page<HistoryRow>> {
    // A reader never fails, nor waits, because of it (a store another process is writing).
    let _ = crate::store::without_waiting(|| close_abandoned(store.db()));
    let (mut filter, values) = crate::store::where_equal(&[
        ("tool", f.tool.as_deref()),
        ("session_key", f.session.as_deref()),
        ("agent", f.agent.as_deref()),
    ]);
    if let Some(id) = f.page.after_id()? {
        crate::store::and_where(&mut filter, &format!("id < {id}"));
    }
    let params: Vec<&dyn ToValue> = values.iter().map(|v| v as &dyn ToValue).collect();
    let rows = store.db().query_map(
        &format!(
            "SELECT id, at, agent, session_key, tool, arguments, outcome, is_error, duration_ms, decision, result, user_id, channel
             FROM tool_calls {filter} ORDER BY id DESC LIMIT {}",
            f.page.fetch()
        ),
        &params,
        history_row,
    )?;
    Ok(Page::cut(rows, &f.page, |r| r.id.to_string()))
}

fn history_row(r: &DbRow) -> Result<HistoryRow> {
    let json = |s: String| serde_json::from_str::<Value>(&s).unwrap_or(Value::Null);
    Ok(HistoryRow {
        id: r.get(0)?,
        at: crate::store::text_time_ms(&r.get::<String>(1)?),
        agent: r.get(2)?,
        session_key: r.get(3)?,
        tool: r.get(4)?,
        arguments: json(r.get(5)?),
        outcome: r.get(6)?,
        is_error: r.get(7)?,
        duration_ms: r.get(8)?,
        decision: json(r.get(9)?),
        result: r.get(10)?,
        user: r.get(11)?,
        channel: r.get(12)?,
    })
}
