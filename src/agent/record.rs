//! What a run keeps in the store: the session's messages (committed atomically at the end,
//! checkpointed as uncommitted rows on the way), the run row with its status machine, owner pid
//! and heartbeat, and the spans of its trace. Runs whose owner died are marked `abandoned` by
//! whoever looks next, and their uncommitted messages removed, so a session never holds half a
//! run.

use crate::db_params;
use crate::store::db::{Begin, Db, Dialect, Row};
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

use crate::store::now_ms;
use crate::store::page::{Page, PageRequest};

/// Marks runs whose owner is gone as abandoned and removes their uncommitted messages.
/// Returns the ids marked.
pub fn reap_abandoned(db: Db<'_>) -> Result<Vec<String>> {
    // (id, pid, heartbeat, host, pid's start, pid's namespace)
    type Running = (
        String,
        Option<i64>,
        Option<i64>,
        Option<String>,
        Option<i64>,
        Option<String>,
    );
    let running: Vec<Running> = db.query_map(
        "SELECT id, pid, heartbeat_at, host, pid_start, pid_ns FROM runs WHERE status = 'running'",
        &[],
        |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        },
    )?;
    let now = now_ms();
    let mut reaped = Vec::new();
    let here = crate::host::name();
    for (id, pid, heartbeat, host, start, ns) in running {
        // A pid names a process on the run's own machine (a run written before hosts were
        // kept is this machine's); another machine's run lives while its heartbeat is fresh.
        let local = host.is_none_or(|h| h == here);
        // A pid of another PID namespace (a goclaw inside a command's, or outside the one this
        // goclaw runs in) cannot be looked at: taken to run, its heartbeat decides.
        let ns = ns.as_deref();
        let alive =
            local && pid.is_some_and(|pid| crate::host::Recorded { pid, start, ns }.may_run());
        let stale = heartbeat.is_none_or(|h| now - h > STALE_HEARTBEAT_MS);
        if (alive || !local) && !stale {
            continue;
        }
        let tx = db.transaction(Begin::Write)?;
        let marked = tx.execute(
            "UPDATE runs SET status = 'abandoned', ended_at = ?2,
                 error = 'the process running it ended without finishing it'
             WHERE id = ?1 AND status = 'running'",
            db_params![id, now],
        )?;
        if marked > 0 {
            tx.execute(
                "DELETE FROM session_messages WHERE run_id = ?1 AND committed = 0",
                db_params![id],
            )?;
        }
        tx.commit()?;
        if marked > 0 {
            reaped.push(id);
        }
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
pub fn start_run(db: Db<'_>, scrubber: &Scrubber, run: &NewRun) -> Result<()> {
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
    db.execute(
        "INSERT INTO runs (id, session, agent, user_id, status, pid, heartbeat_at, started_at, provider, model, message,
                           parent_run_id, depth, label, host, pid_start, pid_ns)
         VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        db_params![
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
            // A label is the model's text, like the message.
            parent.map(|p| scrubber.scrub_str(p.2, None)),
            crate::host::name(),
            crate::host::own_start(),
            crate::host::pid_namespace()
        ],
    )?;
    Ok(())
}

pub fn heartbeat(db: Db<'_>, id: &str, iterations: u32) -> Result<()> {
    db.execute(
        "UPDATE runs SET heartbeat_at = ?2, iterations = ?3 WHERE id = ?1",
        db_params![id, now_ms(), iterations],
    )?;
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
    /// What kind of failure ended it: its command's exit code is stored (`runs wait` exits
    /// with it).
    pub kind: Option<ErrorKind>,
}

/// Ends a run and writes its messages to the session, in one transaction: the session exists
/// afterwards with every message of the run, or (on any failure) nothing of it changed.
pub fn finish_run(
    db: Db<'_>,
    scrubber: &Scrubber,
    id: &str,
    session: Option<(&str, &str, Option<&str>)>, // (key, agent, user)
    messages: &[Message],
    end: &RunEnd,
    provider_model: (&str, &str),
) -> Result<()> {
    let tx = db.transaction(Begin::Write)?;
    let now = now_ms();
    let changed = tx.execute(
        "UPDATE runs SET status = ?2, ended_at = ?3, content = ?4, silent = ?5, iterations = ?6,
             tool_calls = ?7, input_tokens = ?8, output_tokens = ?9, cost = ?10, error = ?11,
             exit_code = ?12
         WHERE id = ?1 AND status = 'running'",
        db_params![
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
            end.error.map(|e| scrubber.scrub_str(e, None)),
            i64::from(end.kind.map_or(0, ErrorKind::exit_code))
        ],
    )?;
    if changed == 0 {
        return Err(Error::new(
            ErrorKind::Conflict,
            format!("run {id} is no longer running (another process marked it abandoned)"),
        ));
    }
    // The run's checkpoint goes whatever the end: a completed run's messages replace it.
    tx.execute(
        "DELETE FROM session_messages WHERE run_id = ?1 AND committed = 0",
        db_params![id],
    )?;
    if let Some((key, agent, user)) = session {
        append(*tx, scrubber, (key, agent, user), (id, now), messages, true)?;
        tx.execute(
            "UPDATE sessions SET updated_at = ?2, provider = ?3, model = ?4,
                 input_tokens = input_tokens + ?5, output_tokens = output_tokens + ?6
             WHERE key = ?1",
            db_params![
                key,
                now,
                provider_model.0,
                provider_model.1,
                end.input_tokens as i64,
                end.output_tokens as i64
            ],
        )?;
    }
    tx.commit()
}

/// Replaces the run's checkpoint with `messages`, uncommitted.
pub fn checkpoint(
    db: Db<'_>,
    scrubber: &Scrubber,
    id: &str,
    session: (&str, &str, Option<&str>),
    messages: &[Message],
) -> Result<()> {
    let tx = db.transaction(Begin::Write)?;
    tx.execute(
        "DELETE FROM session_messages WHERE run_id = ?1 AND committed = 0",
        db_params![id],
    )?;
    append(*tx, scrubber, session, (id, now_ms()), messages, false)?;
    tx.commit()
}

/// Adds `messages` of the run `run_id` to a session, every string in them scrubbed: what a
/// user typed or a model wrote is stored as carefully as a tool result. A session made here is
/// made at `now`, the time the caller stamps its own changes with (a session's `created_at`
/// is never after its `updated_at`).
fn append(
    tx: Db<'_>,
    scrubber: &Scrubber,
    (key, agent, user): (&str, &str, Option<&str>),
    (run_id, now): (&str, i64),
    messages: &[Message],
    committed: bool,
) -> Result<()> {
    tx.execute(
        "INSERT INTO sessions (key, agent, user_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)
         ON CONFLICT (key) DO NOTHING",
        db_params![key, agent, user, now],
    )?;
    // One writer of a session's messages at a time: SQLite's write lock is the store's; on
    // PostgreSQL the session's row is locked, so two machines never take the same `seq`.
    if tx.dialect() == Dialect::Postgres {
        tx.query_row(
            "SELECT 1 FROM sessions WHERE key = ?1 FOR UPDATE",
            db_params![key],
            |_| Ok(()),
        )?;
    }
    let next: i64 = tx.query_row(
        "SELECT COALESCE(MAX(seq), 0) + 1 FROM session_messages WHERE session = ?1",
        db_params![key],
        |r| r.get(0),
    )?;
    for (i, m) in messages.iter().enumerate() {
        let mut value = serde_json::to_value(m).map_err(|e| Error::internal(e.to_string()))?;
        scrubber.scrub_json(&mut value);
        let text = value.to_string();
        tx.execute(
            "INSERT INTO session_messages (session, seq, message, run_id, committed) VALUES (?1, ?2, ?3, ?4, ?5)",
            db_params![key, next + i as i64, text, run_id, committed],
        )?;
    }
    Ok(())
}

/// Deletes a session (its messages go with it). False when there was none.
pub fn remove_session(db: Db<'_>, key: &str) -> Result<bool> {
    Ok(db.execute("DELETE FROM sessions WHERE key = ?1", db_params![key])? > 0)
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
pub fn add_span(db: Db<'_>, scrubber: &Scrubber, run_id: &str, s: &Span) -> Result<i64> {
    let scrub = |t: Option<&str>| t.map(|t| scrubber.scrub_str(t, None));
    db.query_row(
        "INSERT INTO spans (run_id, parent_id, kind, name, started_at, duration_ms, status, error, provider, model,
                            input_tokens, output_tokens, cost, finish_reason, tool_call_id, input_preview, output_preview)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17) RETURNING id",
        db_params![
            run_id, s.parent, s.kind, s.name, s.started_at, s.duration_ms, s.status, scrub(s.error), s.provider,
            s.model, s.input_tokens.map(|n| n as i64), s.output_tokens.map(|n| n as i64), s.cost, s.finish_reason, s.tool_call_id,
            scrub(s.input_preview), scrub(s.output_preview)
        ],
        |r| r.get(0),
    )
}

/// Points the run's spans at its root span.
pub fn adopt_spans(db: Db<'_>, run_id: &str, root: i64) -> Result<()> {
    db.execute(
        "UPDATE spans SET parent_id = ?2 WHERE run_id = ?1 AND id != ?2 AND parent_id IS NULL",
        db_params![run_id, root],
    )?;
    Ok(())
}

const RUN_COLUMNS: &str =
    "id, session, agent, user_id, status, pid, started_at, ended_at, provider, model,
     content, silent, iterations, tool_calls, input_tokens, output_tokens, cost, error";

fn run_row(r: &Row) -> Result<Value> {
    Ok(json!({
        "run_id": r.get::<String>(0)?, "session": r.get::<Option<String>>(1)?,
        "agent": r.get::<String>(2)?, "user": r.get::<Option<String>>(3)?,
        "status": r.get::<String>(4)?, "pid": r.get::<Option<i64>>(5)?,
        "started_at": r.get::<i64>(6)?, "ended_at": r.get::<Option<i64>>(7)?,
        "provider": r.get::<Option<String>>(8)?, "model": r.get::<Option<String>>(9)?,
        "content": r.get::<Option<String>>(10)?, "silent": r.get::<bool>(11)?,
        "iterations": r.get::<i64>(12)?, "tool_calls": r.get::<i64>(13)?,
        "usage": {"input_tokens": r.get::<i64>(14)?, "output_tokens": r.get::<i64>(15)?, "cost": r.get::<f64>(16)?},
        "error": r.get::<Option<String>>(17)?,
    }))
}

/// Runs, newest first.
pub fn runs(db: Db<'_>, session: Option<&str>, page: &PageRequest) -> Result<Page<Value>> {
    let (at, id) = page.after_time_key()?.unwrap_or((i64::MAX, String::new()));
    let rows: Vec<Value> = db.query_map(
        &format!(
            "SELECT {RUN_COLUMNS} FROM runs WHERE (CAST(?1 AS TEXT) IS NULL OR session = ?1)
               AND (started_at < ?2 OR (started_at = ?2 AND (?3 = '' OR id < ?3)))
             ORDER BY started_at DESC, id DESC LIMIT ?4"
        ),
        db_params![session, at, id, page.fetch()],
        run_row,
    )?;
    Ok(Page::cut(rows, page, |r| {
        crate::store::page::time_key(
            r["started_at"].as_i64().unwrap_or(0),
            r["run_id"].as_str().unwrap_or(""),
        )
    }))
}

/// One run with its spans.
pub fn trace(db: Db<'_>, run_id: &str) -> Result<Option<Value>> {
    let run = db.query_opt(
        &format!("SELECT {RUN_COLUMNS} FROM runs WHERE id = ?1"),
        db_params![run_id],
        run_row,
    )?;
    let Some(mut run) = run else { return Ok(None) };
    let spans: Vec<Value> = db.query_map(
        "SELECT id, parent_id, kind, name, started_at, duration_ms, status, error, provider, model,
                input_tokens, output_tokens, cost, finish_reason, tool_call_id, input_preview, output_preview
         FROM spans WHERE run_id = ?1 ORDER BY id",
        db_params![run_id],
        |r| {
            Ok(json!({
                "id": r.get::<i64>(0)?, "parent_id": r.get::<Option<i64>>(1)?,
                "kind": r.get::<String>(2)?, "name": r.get::<String>(3)?,
                "started_at": r.get::<i64>(4)?, "duration_ms": r.get::<Option<i64>>(5)?,
                "status": r.get::<String>(6)?, "error": r.get::<Option<String>>(7)?,
                "provider": r.get::<Option<String>>(8)?, "model": r.get::<Option<String>>(9)?,
                "input_tokens": r.get::<Option<i64>>(10)?, "output_tokens": r.get::<Option<i64>>(11)?,
                "cost": r.get::<Option<f64>>(12)?, "finish_reason": r.get::<Option<String>>(13)?,
                "tool_call_id": r.get::<Option<String>>(14)?,
                "input_preview": r.get::<Option<String>>(15)?, "output_preview": r.get::<Option<String>>(16)?,
            }))
        },
    )?;
    run["spans"] = Value::Array(spans);
    Ok(Some(run))
}

/// A session's compaction state: (compaction count, the count at the last memory flush,
/// summary); `None` for a session not stored yet.
/// The agent whose session `key` is, if there is one.
pub fn session_agent(db: Db<'_>, key: &str) -> Result<Option<String>> {
    db.query_opt(
        "SELECT agent FROM sessions WHERE key = ?1",
        db_params![key],
        |r| r.get(0),
    )
}

pub fn compaction_state(db: Db<'_>, key: &str) -> Result<Option<(i64, i64, Option<String>)>> {
    db.query_opt(
        "SELECT compaction_count, flush_compaction, summary FROM sessions WHERE key = ?1",
        db_params![key],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
}

/// How long a compaction lease lasts: past the flush (90 s) and the summary (120 s) it guards.
pub const COMPACTION_LEASE_MS: i64 = 5 * 60 * 1000;

/// Takes the session's compaction lease for `by` (a run id); `false` when another process holds
/// it (a lease that has expired is free).
pub fn take_compaction_lock(db: Db<'_>, key: &str, by: &str) -> Result<bool> {
    let now = now_ms();
    let changed = db.execute(
        "UPDATE sessions SET compacting_until = ?2, compacting_by = ?3
         WHERE key = ?1 AND (compacting_until IS NULL OR compacting_until < ?4 OR compacting_by = ?3)",
        db_params![key, now + COMPACTION_LEASE_MS, by, now],
    )?;
    Ok(changed == 1)
}

/// Gives the lease back (only the holder's).
pub fn release_compaction_lock(db: Db<'_>, key: &str, by: &str) -> Result<()> {
    db.execute(
        "UPDATE sessions SET compacting_until = NULL, compacting_by = NULL WHERE key = ?1 AND compacting_by = ?2",
        db_params![key, by],
    )?;
    Ok(())
}

/// Records that memory was flushed in the current compaction cycle.
pub fn mark_flushed(db: Db<'_>, key: &str) -> Result<()> {
    db.execute(
        "UPDATE sessions SET flush_compaction = compaction_count WHERE key = ?1",
        db_params![key],
    )?;
    Ok(())
}

/// Stores `summary` and keeps only the last `keep` committed messages, in one transaction.
pub fn compact(
    db: Db<'_>,
    scrubber: &Scrubber,
    key: &str,
    summary: &str,
    keep: usize,
) -> Result<()> {
    let tx = db.transaction(Begin::Write)?;
    tx.execute(
        "DELETE FROM session_messages WHERE session = ?1 AND committed = 1 AND seq NOT IN
             (SELECT seq FROM session_messages WHERE session = ?1 AND committed = 1 ORDER BY seq DESC LIMIT ?2)",
        db_params![key, keep as i64],
    )?;
    tx.execute(
        "UPDATE sessions SET summary = ?2, compaction_count = compaction_count + 1, updated_at = ?3 WHERE key = ?1",
        db_params![key, scrubber.scrub_str(summary, None), now_ms()],
    )?;
    tx.commit()
}

/// Replaces a session's committed history with `messages` (a repair), in one transaction.
pub fn replace_history(
    db: Db<'_>,
    scrubber: &Scrubber,
    key: &str,
    run_id: &str,
    messages: &[Message],
) -> Result<()> {
    let tx = db.transaction(Begin::Write)?;
    let (agent, user): (String, Option<String>) = tx.query_row(
        "SELECT agent, user_id FROM sessions WHERE key = ?1",
        db_params![key],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    tx.execute(
        "DELETE FROM session_messages WHERE session = ?1 AND committed = 1",
        db_params![key],
    )?;
    append(
        *tx,
        scrubber,
        (key, &agent, user.as_deref()),
        (run_id, now_ms()),
        messages,
        true,
    )?;
    tx.commit()
}
