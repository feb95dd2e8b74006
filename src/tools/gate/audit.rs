//! The audit trail and the rate limiter, both in the store: every call's row in `tool_calls`
//! (written as `started` before a tool runs, completed after), the sliding-hour window of
//! `rate_limit_events`, and the trail as `goclaw tools history` reads it.

use std::time::Duration;

use rusqlite::TransactionBehavior;
use serde::Serialize;
use serde_json::Value;

use super::CallRequest;
use crate::error::Result;
use crate::store::page::{Page, PageRequest};
use crate::store::{Store, now_ms, sql_error};
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
pub(super) fn insert(
    scrubber: &Scrubber,
    store: &Store,
    req: &CallRequest,
    row: &Row,
) -> rusqlite::Result<i64> {
    let mut args = req.args.clone();
    scrubber.scrub_json(&mut args);
    let scrub = |s: &Option<String>| s.as_ref().map(|v| scrubber.scrub_str(v, None));
    store.conn().execute(
        "INSERT INTO tool_calls (at, agent, user_id, session_key, channel, chat_id, tool, arguments, outcome,
                                 is_error, duration_ms, decision, result)
         VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        rusqlite::params![
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
            row.preview,
        ],
    )?;
    Ok(store.conn().last_insert_rowid())
}

/// Completes the row of a call that started (or inserts one for a call that never started).
pub(super) fn finish(
    scrubber: &Scrubber,
    store: &Store,
    req: &CallRequest,
    row: &Row,
    started: Option<i64>,
) -> Result<i64> {
    let written = match started {
        Some(id) => store
            .conn()
            .execute(
                "UPDATE tool_calls SET outcome = ?1, is_error = ?2, duration_ms = ?3, decision = ?4, result = ?5
                 WHERE id = ?6",
                rusqlite::params![
                    row.outcome,
                    row.is_error,
                    row.took.as_millis() as i64,
                    row.decision.to_string(),
                    row.preview,
                    id
                ],
            )
            .map(|_| id),
        None => insert(scrubber, store, req, row),
    };
    written.map_err(|e| sql_error(store.path(), e))
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
/// `max`, else record now; one `BEGIN IMMEDIATE` transaction, so processes share the window.
pub fn allow_rate(store: &mut Store, key: &str, max: u32) -> Result<bool> {
    let path = store.path().to_path_buf();
    let err = |e| sql_error(&path, e);
    let now = now_ms();
    let tx = store
        .conn_mut()
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(err)?;
    tx.execute(
        "DELETE FROM rate_limit_events WHERE key = ?1 AND at_ms < ?2",
        (key, now - 3_600_000),
    )
    .map_err(err)?;
    let count: i64 = tx
        .query_row(
            "SELECT count(*) FROM rate_limit_events WHERE key = ?1",
            [key],
            |r| r.get(0),
        )
        .map_err(err)?;
    if count >= i64::from(max) {
        tx.commit().map_err(err)?;
        return Ok(false);
    }
    tx.execute(
        "INSERT INTO rate_limit_events (key, at_ms) VALUES (?1, ?2)",
        (key, now),
    )
    .map_err(err)?;
    tx.commit().map_err(err)?;
    Ok(true)
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
    let (mut filter, values) = crate::store::where_equal(&[
        ("tool", f.tool.as_deref()),
        ("session_key", f.session.as_deref()),
        ("agent", f.agent.as_deref()),
    ]);
    if let Some(id) = f.page.after_id()? {
        crate::store::and_where(&mut filter, &format!("id < {id}"));
    }
    let mut stmt = store
        .conn()
        .prepare(&format!(
            "SELECT id, at, agent, session_key, tool, arguments, outcome, is_error, duration_ms, decision, result, user_id, channel
             FROM tool_calls {filter} ORDER BY id DESC LIMIT {}",
            f.page.fetch()
        ))
        .map_err(|e| sql_error(store.path(), e))?;
    let json = |s: String| serde_json::from_str::<Value>(&s).unwrap_or(Value::Null);
    stmt.query_map(rusqlite::params_from_iter(values), |r| {
        Ok(HistoryRow {
            id: r.get(0)?,
            at: crate::store::text_time_ms(&r.get::<_, String>(1)?),
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
    })
    .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
    .map(|rows| Page::cut(rows, &f.page, |r| r.id.to_string()))
    .map_err(|e| sql_error(store.path(), e))
}
