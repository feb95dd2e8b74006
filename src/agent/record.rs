//! What a run keeps in the store: the session's messages (committed atomically at the end,
//! checkpointed as uncommitted rows on the way), the run row with its status machine, owner pid
//! and heartbeat, and the spans of its trace. Runs whose owner died are marked `abandoned` by
//! whoever looks next, and their uncommitted messages removed, so a session never holds half a
//! run.

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Value, json};

use crate::error::{Error, ErrorKind, Result};
use crate::providers::Message;
pub use crate::sessions::{history, history_page, session, sessions};
use crate::text::scrub::Scrubber;

/// A run's final status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Running,
    Completed,
    Failed,
    Cancelled,
    TimedOut,
    Denied,
    Abandoned,
    Limited,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Completed => "completed",
            RunStatus::Failed => "failed",
            RunStatus::Cancelled => "cancelled",
            RunStatus::TimedOut => "timed_out",
            RunStatus::Denied => "denied",
            RunStatus::Abandoned => "abandoned",
            RunStatus::Limited => "limited",
        }
    }
}

/// A heartbeat older than this, with the owner pid alive, means the pid was reused.
const STALE_HEARTBEAT_MS: i64 = 10 * 60 * 1000;

use crate::store::page::{Page, PageRequest};
use crate::store::{now_ms, sql};

/// Marks runs whose owner is gone as abandoned and removes their uncommitted messages.
/// Returns the ids marked.
pub fn reap_abandoned(conn: &Connection) -> Result<Vec<String>> {
    let mut stmt = conn
        .prepare("SELECT id, pid, heartbeat_at FROM runs WHERE status = 'running'")
        .map_err(sql)?;
    let running: Vec<(String, Option<i64>, Option<i64>)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .and_then(|rows| rows.collect())
        .map_err(sql)?;
    let now = now_ms();
    let mut reaped = Vec::new();
    for (id, pid, heartbeat) in running {
        let alive = pid.is_some_and(|p| {
            p > 0
                && nix::sys::signal::kill(nix::unistd::Pid::from_raw(p as i32), None)
                    .map_or_else(|e| e == nix::errno::Errno::EPERM, |_| true)
        });
        let stale = heartbeat.is_none_or(|h| now - h > STALE_HEARTBEAT_MS);
        if alive && !stale {
            continue;
        }
        conn.execute(
            "UPDATE runs SET status = 'abandoned', ended_at = ?2,
                 error = 'the process running it ended without finishing it'
             WHERE id = ?1 AND status = 'running'",
            params![id, now],
        )
        .map_err(sql)?;
        conn.execute(
            "DELETE FROM session_messages WHERE run_id = ?1 AND committed = 0",
            params![id],
        )
        .map_err(sql)?;
        reaped.push(id);
    }
    Ok(reaped)
}

/// A run about to start.
#[derive(Debug, Clone, Copy)]
pub struct NewRun<'a> {
    pub id: &'a str,
    pub session: Option<&'a str>,
    pub agent: &'a str,
    pub user: Option<&'a str>,
    pub provider: &'a str,
    pub model: &'a str,
    /// The message as given (stored scrubbed).
    pub message: &'a str,
    /// A subagent's parent run, depth and label.
    pub parent: Option<(&'a str, u32, &'a str)>,
}

/// A new run row, `running`, owned by this process.
pub fn start_run(conn: &Connection, scrubber: &Scrubber, run: &NewRun) -> Result<()> {
    let NewRun {
        id,
        session,
        agent,
        user,
        provider,
        model,
        message,
        parent,
    } = *run;
    let now = now_ms();
    conn.execute(
        "INSERT INTO runs (id, session, agent, user_id, status, pid, heartbeat_at, started_at, provider, model, message,
                           parent_run_id, depth, label)
         VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        params![
            id,
            session,
            agent,
            user,
            std::process::id(),
            now,
            provider,
            model,
            scrubber.scrub_str(message, None),
            parent.map(|p| p.0),
            parent.map_or(0, |p| p.1),
            parent.map(|p| p.2)
        ],
    )
    .map_err(sql)?;
    Ok(())
}

pub fn heartbeat(conn: &Connection, id: &str, iterations: u32) -> Result<()> {
    conn.execute(
        "UPDATE runs SET heartbeat_at = ?2, iterations = ?3 WHERE id = ?1",
        params![id, now_ms(), iterations],
    )
    .map_err(sql)?;
    Ok(())
}

/// The end of a run, with what it produced.
pub struct RunEnd<'a> {
    pub status: RunStatus,
    pub content: &'a str,
    pub silent: bool,
    pub iterations: u32,
    pub tool_calls: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost: f64,
    pub error: Option<&'a str>,
}

/// Ends a run and writes its messages to the session, in one transaction: the session exists
/// afterwards with every message of the run, or (on any failure) nothing of it changed.
pub fn finish_run(
    conn: &mut Connection,
    scrubber: &Scrubber,
    id: &str,
    session: Option<(&str, &str, Option<&str>)>, // (key, agent, user)
    messages: &[Message],
    end: &RunEnd,
    provider_model: (&str, &str),
) -> Result<()> {
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(sql)?;
    let now = now_ms();
    let changed = tx
        .execute(
            "UPDATE runs SET status = ?2, ended_at = ?3, content = ?4, silent = ?5, iterations = ?6,
                 tool_calls = ?7, input_tokens = ?8, output_tokens = ?9, cost = ?10, error = ?11
             WHERE id = ?1 AND status = 'running'",
            params![
                id,
                end.status.as_str(),
                now,
                scrubber.scrub_str(end.content, None),
                end.silent,
                end.iterations,
                end.tool_calls,
                end.input_tokens as i64,
                end.output_tokens as i64,
                end.cost,
                end.error.map(|e| scrubber.scrub_str(e, None))
            ],
        )
        .map_err(sql)?;
    if changed == 0 {
        return Err(Error::new(
            ErrorKind::Conflict,
            format!("run {id} is no longer running (another process marked it abandoned)"),
        ));
    }
    // The run's checkpoint goes whatever the end: a completed run's messages replace it.
    tx.execute(
        "DELETE FROM session_messages WHERE run_id = ?1 AND committed = 0",
        params![id],
    )
    .map_err(sql)?;
    if let Some((key, agent, user)) = session {
        append(&tx, scrubber, (key, agent, user), id, messages, true)?;
        tx.execute(
            "UPDATE sessions SET updated_at = ?2, provider = ?3, model = ?4,
                 input_tokens = input_tokens + ?5, output_tokens = output_tokens + ?6
             WHERE key = ?1",
            params![
                key,
                now,
                provider_model.0,
                provider_model.1,
                end.input_tokens as i64,
                end.output_tokens as i64
            ],
        )
        .map_err(sql)?;
    }
    tx.commit().map_err(sql)
}

/// Replaces the run's checkpoint with `messages`, uncommitted.
pub fn checkpoint(
    conn: &mut Connection,
    scrubber: &Scrubber,
    id: &str,
    session: (&str, &str, Option<&str>),
    messages: &[Message],
) -> Result<()> {
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(sql)?;
    tx.execute(
        "DELETE FROM session_messages WHERE run_id = ?1 AND committed = 0",
        params![id],
    )
    .map_err(sql)?;
    append(&tx, scrubber, session, id, messages, false)?;
    tx.commit().map_err(sql)
}

/// Adds `messages` to a session, every string in them scrubbed: what a user typed or a model
/// wrote is stored as carefully as a tool result.
fn append(
    tx: &Connection,
    scrubber: &Scrubber,
    (key, agent, user): (&str, &str, Option<&str>),
    run_id: &str,
    messages: &[Message],
    committed: bool,
) -> Result<()> {
    let now = now_ms();
    tx.execute(
        "INSERT INTO sessions (key, agent, user_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)
         ON CONFLICT (key) DO NOTHING",
        params![key, agent, user, now],
    )
    .map_err(sql)?;
    let next: i64 = tx
        .query_row(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM session_messages WHERE session = ?1",
            params![key],
            |r| r.get(0),
        )
        .map_err(sql)?;
    let mut stmt = tx
        .prepare_cached(
            "INSERT INTO session_messages (session, seq, message, run_id, committed) VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .map_err(sql)?;
    for (i, m) in messages.iter().enumerate() {
        let mut value = serde_json::to_value(m).map_err(|e| Error::internal(e.to_string()))?;
        scrubber.scrub_json(&mut value);
        let text = value.to_string();
        stmt.execute(params![key, next + i as i64, text, run_id, committed])
            .map_err(sql)?;
    }
    Ok(())
}

/// Deletes a session (its messages go with it). False when there was none.
pub fn remove_session(conn: &Connection, key: &str) -> Result<bool> {
    Ok(conn
        .execute("DELETE FROM sessions WHERE key = ?1", params![key])
        .map_err(sql)?
        > 0)
}

/// One span of a run's trace.
#[derive(Debug, Default)]
pub struct Span<'a> {
    pub kind: &'a str,
    pub name: &'a str,
    pub parent: Option<i64>,
    pub started_at: i64,
    pub duration_ms: i64,
    pub status: &'a str,
    pub error: Option<&'a str>,
    pub provider: Option<&'a str>,
    pub model: Option<&'a str>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub cost: Option<f64>,
    pub finish_reason: Option<&'a str>,
    pub tool_call_id: Option<&'a str>,
    pub input_preview: Option<&'a str>,
    pub output_preview: Option<&'a str>,
}

/// Adds a span; its error and previews are scrubbed.
pub fn add_span(conn: &Connection, scrubber: &Scrubber, run_id: &str, s: &Span) -> Result<i64> {
    let scrub = |t: Option<&str>| t.map(|t| scrubber.scrub_str(t, None));
    conn.execute(
        "INSERT INTO spans (run_id, parent_id, kind, name, started_at, duration_ms, status, error, provider, model,
                            input_tokens, output_tokens, cost, finish_reason, tool_call_id, input_preview, output_preview)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
        params![
            run_id, s.parent, s.kind, s.name, s.started_at, s.duration_ms, s.status, scrub(s.error), s.provider,
            s.model, s.input_tokens.map(|n| n as i64), s.output_tokens.map(|n| n as i64), s.cost, s.finish_reason, s.tool_call_id,
            scrub(s.input_preview), scrub(s.output_preview)
        ],
    )
    .map_err(sql)?;
    Ok(conn.last_insert_rowid())
}

/// Points the run's spans at its root span.
pub fn adopt_spans(conn: &Connection, run_id: &str, root: i64) -> Result<()> {
    conn.execute(
        "UPDATE spans SET parent_id = ?2 WHERE run_id = ?1 AND id != ?2 AND parent_id IS NULL",
        params![run_id, root],
    )
    .map_err(sql)?;
    Ok(())
}

const RUN_COLUMNS: &str =
    "id, session, agent, user_id, status, pid, started_at, ended_at, provider, model,
     content, silent, iterations, tool_calls, input_tokens, output_tokens, cost, error";

fn run_row(r: &rusqlite::Row) -> rusqlite::Result<Value> {
    Ok(json!({
        "run_id": r.get::<_, String>(0)?, "session": r.get::<_, Option<String>>(1)?,
        "agent": r.get::<_, String>(2)?, "user": r.get::<_, Option<String>>(3)?,
        "status": r.get::<_, String>(4)?, "pid": r.get::<_, Option<i64>>(5)?,
        "started_at": r.get::<_, i64>(6)?, "ended_at": r.get::<_, Option<i64>>(7)?,
        "provider": r.get::<_, Option<String>>(8)?, "model": r.get::<_, Option<String>>(9)?,
        "content": r.get::<_, Option<String>>(10)?, "silent": r.get::<_, bool>(11)?,
        "iterations": r.get::<_, i64>(12)?, "tool_calls": r.get::<_, i64>(13)?,
        "usage": {"input_tokens": r.get::<_, i64>(14)?, "output_tokens": r.get::<_, i64>(15)?, "cost": r.get::<_, f64>(16)?},
        "error": r.get::<_, Option<String>>(17)?,
    }))
}

/// Runs, newest first.
pub fn runs(conn: &Connection, session: Option<&str>, page: &PageRequest) -> Result<Page<Value>> {
    let (at, id) = page.after_time_key()?.unwrap_or((i64::MAX, String::new()));
    let mut stmt = conn
        .prepare(&format!(
            "SELECT {RUN_COLUMNS} FROM runs WHERE (?1 IS NULL OR session = ?1)
               AND (started_at < ?2 OR (started_at = ?2 AND (?3 = '' OR id < ?3)))
             ORDER BY started_at DESC, id DESC LIMIT ?4"
        ))
        .map_err(sql)?;
    let rows: Vec<Value> = stmt
        .query_map(params![session, at, id, page.fetch()], run_row)
        .and_then(|rows| rows.collect())
        .map_err(sql)?;
    Ok(Page::cut(rows, page, |r| {
        crate::store::page::time_key(
            r["started_at"].as_i64().unwrap_or(0),
            r["run_id"].as_str().unwrap_or(""),
        )
    }))
}

/// One run with its spans.
pub fn trace(conn: &Connection, run_id: &str) -> Result<Option<Value>> {
    let run = conn
        .query_row(
            &format!("SELECT {RUN_COLUMNS} FROM runs WHERE id = ?1"),
            params![run_id],
            run_row,
        )
        .optional()
        .map_err(sql)?;
    let Some(mut run) = run else { return Ok(None) };
    let mut stmt = conn
        .prepare(
            "SELECT id, parent_id, kind, name, started_at, duration_ms, status, error, provider, model,
                    input_tokens, output_tokens, cost, finish_reason, tool_call_id, input_preview, output_preview
             FROM spans WHERE run_id = ?1 ORDER BY id",
        )
        .map_err(sql)?;
    let spans: Vec<Value> = stmt
        .query_map(params![run_id], |r| {
            Ok(json!({
                "id": r.get::<_, i64>(0)?, "parent_id": r.get::<_, Option<i64>>(1)?,
                "kind": r.get::<_, String>(2)?, "name": r.get::<_, String>(3)?,
                "started_at": r.get::<_, i64>(4)?, "duration_ms": r.get::<_, Option<i64>>(5)?,
                "status": r.get::<_, String>(6)?, "error": r.get::<_, Option<String>>(7)?,
                "provider": r.get::<_, Option<String>>(8)?, "model": r.get::<_, Option<String>>(9)?,
                "input_tokens": r.get::<_, Option<i64>>(10)?, "output_tokens": r.get::<_, Option<i64>>(11)?,
                "cost": r.get::<_, Option<f64>>(12)?, "finish_reason": r.get::<_, Option<String>>(13)?,
                "tool_call_id": r.get::<_, Option<String>>(14)?,
                "input_preview": r.get::<_, Option<String>>(15)?, "output_preview": r.get::<_, Option<String>>(16)?,
            }))
        })
        .and_then(|rows| rows.collect())
        .map_err(sql)?;
    run["spans"] = Value::Array(spans);
    Ok(Some(run))
}

/// A session's compaction state: (compaction count, the count at the last memory flush,
/// summary); `None` for a session not stored yet.
pub fn compaction_state(
    conn: &Connection,
    key: &str,
) -> Result<Option<(i64, i64, Option<String>)>> {
    conn.query_row(
        "SELECT compaction_count, flush_compaction, summary FROM sessions WHERE key = ?1",
        params![key],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .optional()
    .map_err(sql)
}

/// Records that memory was flushed in the current compaction cycle.
pub fn mark_flushed(conn: &Connection, key: &str) -> Result<()> {
    conn.execute(
        "UPDATE sessions SET flush_compaction = compaction_count WHERE key = ?1",
        params![key],
    )
    .map_err(sql)?;
    Ok(())
}

/// Stores `summary` and keeps only the last `keep` committed messages, in one transaction.
pub fn compact(
    conn: &mut Connection,
    scrubber: &Scrubber,
    key: &str,
    summary: &str,
    keep: usize,
) -> Result<()> {
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(sql)?;
    tx.execute(
        "DELETE FROM session_messages WHERE session = ?1 AND committed = 1 AND seq NOT IN
             (SELECT seq FROM session_messages WHERE session = ?1 AND committed = 1 ORDER BY seq DESC LIMIT ?2)",
        params![key, keep as i64],
    )
    .map_err(sql)?;
    tx.execute(
        "UPDATE sessions SET summary = ?2, compaction_count = compaction_count + 1, updated_at = ?3 WHERE key = ?1",
        params![key, scrubber.scrub_str(summary, None), now_ms()],
    )
    .map_err(sql)?;
    tx.commit().map_err(sql)
}

/// Replaces a session's committed history with `messages` (a repair), in one transaction.
pub fn replace_history(
    conn: &mut Connection,
    scrubber: &Scrubber,
    key: &str,
    run_id: &str,
    messages: &[Message],
) -> Result<()> {
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(sql)?;
    let (agent, user): (String, Option<String>) = tx
        .query_row(
            "SELECT agent, user_id FROM sessions WHERE key = ?1",
            params![key],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .map_err(sql)?;
    tx.execute(
        "DELETE FROM session_messages WHERE session = ?1 AND committed = 1",
        params![key],
    )
    .map_err(sql)?;
    append(
        &tx,
        scrubber,
        (key, &agent, user.as_deref()),
        run_id,
        messages,
        true,
    )?;
    tx.commit().map_err(sql)
}
