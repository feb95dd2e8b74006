//! The `process` tool (seed 001 §runtime): the background commands `exec {background: true}`
//! started ([`super::exec::background`]). `list` shows those the caller sees
//! ([`background::Seen`]: its session's; a run's own without a session, as every subagent is;
//! every one outside any run), `poll` the output written since the last poll and the status,
//! `log` the last lines, `kill` ends one.

use serde_json::{Map, Value, json};

use super::exec::background::{self, Process, Seen};
use super::{CallContext, Risk, Tool, ToolResult};
use crate::error::{Error, Result};
use crate::store::Store;

/// What one `poll` returns at most.
pub const POLL_LIMIT: usize = 64 * 1024;
/// Lines `log` returns unless asked; the most it returns.
pub const LOG_LINES: u64 = 100;
pub const MAX_LOG_LINES: u64 = 5000;

pub struct ProcessTool;

impl Tool for ProcessTool {
    fn name(&self) -> &'static str {
        "process"
    }
    fn description(&self) -> &'static str {
        "Manage background commands started with exec {background: true}: list them, poll one \
         for new output and its status, read its log, or kill it"
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "action":{"type":"string","enum":["list","poll","log","kill"]},
            "id":{"type":"integer","description":"The process (poll, log, kill)"},
            "lines":{"type":"integer","minimum":1,"maximum":MAX_LOG_LINES,"description":"log: how many of the last lines (default 100)"}},
            "required":["action"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }

    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        ToolResult::from_result(act(ctx, args, store))
    }
}

fn act(ctx: &CallContext, args: &Map<String, Value>, store: &mut Store) -> Result<ToolResult> {
    let root = background::logs_root(&ctx.key_dir);
    let seen = match (ctx.session_key.as_deref(), &ctx.run) {
        (Some(session), _) => Seen::Session(session),
        (None, Some(run)) => Seen::Run(&run.run_id),
        (None, None) => Seen::All,
    };
    let db = store.db();
    let action = super::trimmed_arg(args, "action");
    if action == "list" {
        let list = background::list(db, &root, seen)?;
        return Ok(ToolResult::text(json!({ "processes": list }).to_string()));
    }
    if !["poll", "log", "kill"].contains(&action) {
        return Err(Error::usage(format!(
            "unknown action `{action}`: expected list, poll, log or kill"
        )));
    }
    let id = args
        .get("id")
        .and_then(Value::as_i64)
        .ok_or_else(|| Error::usage(format!("{action} needs the process's id")))?;
    let p = background::get(db, &root, id, seen)?;
    let dir = background::process_dir(&root, id);
    let answer = match action {
        "poll" => {
            here(&p)?;
            let read = background::read_from(&dir, p.read_offset as u64, POLL_LIMIT);
            let started_inside = read.dropped > 0;
            let read = background::whole_words(read, started_inside, p.running());
            background::set_read_offset(db, id, read.next)?;
            let mut a = status(&p);
            a["output"] = text(&read.bytes).into();
            a["more"] = (read.next < read.total).into();
            if read.dropped > 0 {
                a["dropped_bytes"] = read.dropped.into();
            }
            a
        }
        "log" => {
            here(&p)?;
            let lines = args
                .get("lines")
                .and_then(Value::as_u64)
                .unwrap_or(LOG_LINES)
                .clamp(1, MAX_LOG_LINES);
            let read = background::tail(&dir, lines as usize, p.running());
            let mut a = status(&p);
            a["log"] = text(&read.bytes).into();
            a["total_bytes"] = read.total.into();
            a
        }
        _ => status(&background::kill(db, &root, &p)?),
    };
    Ok(ToolResult::text(answer.to_string()))
}

/// A log lives on the host that runs the command.
fn here(p: &Process) -> Result<()> {
    if p.host == crate::host::name() {
        return Ok(());
    }
    Err(Error::failed(format!(
        "background process {} runs on host {}: its log is there",
        p.id, p.host
    )))
}

fn status(p: &Process) -> Value {
    let mut a = json!({"process": p.id, "status": p.status, "command": p.command});
    if let Some(c) = p.exit_code {
        a["exit_code"] = c.into();
    }
    if let Some(s) = p.signal {
        a["signal"] = s.into();
    }
    if let Some(r) = &p.reason {
        a["reason"] = r.as_str().into();
    }
    a
}

/// Output as text: binary output is described, not shown (as `exec` does).
fn text(bytes: &[u8]) -> String {
    if bytes.contains(&0) {
        return format!("[binary output: {} bytes, not shown]", bytes.len());
    }
    String::from_utf8_lossy(bytes).into_owned()
}
