//! The `cron` tool (§14, group `automation`): status, list, add, update, remove, run, runs over
//! the calling agent's jobs in the store. A job made here captures the caller's final tool list
//! (`CallContext::allowed_tools`) as its ceiling. Jobs run from `goclaw cron tick` (the system
//! crontab) or `goclaw cron daemon`; `run` starts `goclaw cron tick --force ID` in the
//! background (same store, config and workspace; the lease keeps it single) rather than running
//! an agent inside a tool call. Differences from the original: `job.agentId` is not
//! honoured (a job runs as its creator), and there is no channel delivery (`deliver`) here.

use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::cron::{self, Job, NewJob, Payload, Schedule};
use crate::error::{Error, Result};
use crate::store::Store;
use crate::store::db::Db;
use crate::store::now_ms;
use crate::store::page::PageRequest;

/// `cron`.
pub struct CronTool;

fn pretty(v: Value) -> ToolResult {
    ToolResult::text(serde_json::to_string_pretty(&v).unwrap_or_default())
}

/// The job `key` when the caller owns it (agent and, when the job has one, user); otherwise
/// "not found", as the original says.
fn owned(conn: Db<'_>, ctx: &CallContext, key: &str) -> Result<Job> {
    let not_found = || Error::not_found(format!("job {key} not found"));
    let job = cron::find(conn, key, ctx.agent.as_deref()).map_err(|_| not_found())?;
    if !job.owned_by(ctx.agent.as_deref(), ctx.user.as_deref()) {
        return Err(not_found());
    }
    Ok(job)
}

fn job_key(args: &Map<String, Value>) -> Option<String> {
    args.get("jobId")
        .or_else(|| args.get("id"))
        .and_then(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
}

fn payload(job: &Map<String, Value>) -> std::result::Result<Option<Payload>, String> {
    if let Some(tool) = job.get("tool").and_then(Value::as_str) {
        let args = job.get("args").cloned().unwrap_or_else(|| json!({}));
        if !args.is_object() {
            return Err("job.args must be an object".into());
        }
        return Ok(Some(Payload::Tool {
            tool: tool.to_string(),
            args,
        }));
    }
    Ok(job
        .get("message")
        .and_then(Value::as_str)
        .filter(|m| !m.trim().is_empty())
        .map(|m| Payload::Run {
            message: m.to_string(),
        }))
}

/// The jobs of `jobs` the caller owns.
fn mine(ctx: &CallContext, jobs: Vec<Job>) -> Vec<Job> {
    jobs.into_iter()
        .filter(|j| j.owned_by(ctx.agent.as_deref(), ctx.user.as_deref()))
        .collect()
}

impl CronTool {
    fn act(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &Store,
    ) -> Result<ToolResult> {
        let action = args
            .get("action")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if action.is_empty() {
            return Ok(ToolResult::bad_args("action parameter is required"));
        }
        match action {
            "status" => status(ctx, store.db()),
            "list" => list(ctx, store.db()),
            "add" => add(ctx, args, store.db()),
            "update" | "remove" | "run" | "runs" => {
                let Some(key) = job_key(args) else {
                    return Ok(ToolResult::bad_args("jobId is required"));
                };
                let job = owned(store.db(), ctx, &key)?;
                match action {
                    "remove" => remove(store.db(), &job),
                    "runs" => runs(args, store.db(), &job),
                    "run" => run(ctx, args, store, &job),
                    _ => update(args, store.db(), &job),
                }
            }
            other => Ok(ToolResult::bad_args(&format!("unknown action: {other}"))),
        }
    }
}

/// `status`: how many jobs, how many enabled, and which runs next.
fn status(ctx: &CallContext, conn: Db<'_>) -> Result<ToolResult> {
    let jobs = mine(ctx, cron::list(conn, None)?);
    let next = jobs
        .iter()
        .filter(|j| j.enabled)
        .filter_map(|j| j.next_run_ms.map(|n| (n, &j.name)))
        .min();
    Ok(pretty(json!({
        "jobs": jobs.len(),
        "enabled": jobs.iter().filter(|j| j.enabled).count(),
        "nextRunMs": next.map(|n| n.0),
        "nextJob": next.map(|n| n.1),
        "nowMs": now_ms(),
    })))
}

/// `list`: the caller's jobs.
fn list(ctx: &CallContext, conn: Db<'_>) -> Result<ToolResult> {
    let jobs = mine(ctx, cron::list(conn, None)?);
    Ok(pretty(json!({"jobs": jobs, "count": jobs.len()})))
}

/// `add`: a new job of the caller's, with the caller's tool list as its ceiling.
fn add(ctx: &CallContext, args: &Map<String, Value>, conn: Db<'_>) -> Result<ToolResult> {
    let Some(job) = args.get("job").and_then(Value::as_object) else {
        return Ok(ToolResult::bad_args("job object is required"));
    };
    let name = job
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .trim();
    if name.is_empty() {
        return Ok(ToolResult::bad_args("job.name is required"));
    }
    let Some(schedule) = job.get("schedule") else {
        return Ok(ToolResult::bad_args("job.schedule is required"));
    };
    let schedule = match Schedule::parse(schedule, now_ms()) {
        Ok(s) => s,
        Err(e) => return Ok(ToolResult::error(e)),
    };
    let payload = match payload(job) {
        Ok(Some(p)) => p,
        Ok(None) => return Ok(ToolResult::bad_args("job.message is required")),
        Err(e) => return Ok(ToolResult::error(e)),
    };
    if let Payload::Tool { tool, .. } = &payload
        && !ctx.allowed_tools.iter().any(|t| t == tool)
    {
        return Ok(ToolResult::error(format!(
            "job.tool {tool} is not a tool you may use, so a job of yours cannot use it either"
        )));
    }
    let new = NewJob {
        name: name.to_string(),
        agent: ctx.agent.clone(),
        user: ctx.user.clone(),
        session: job
            .get("session")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| ctx.session_key.clone()),
        schedule,
        payload,
        allowed_tools: ctx.allowed_tools.clone(),
        created_by: format!("agent:{}", ctx.agent.as_deref().unwrap_or("default")),
        delete_after_run: job
            .get("deleteAfterRun")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        // Where a result goes is the operator's choice (`goclaw cron add --deliver`), not an
        // agent's.
        deliver: None,
    };
    let created = cron::add(conn, &new)?;
    Ok(pretty(json!({"job": created})))
}

/// `remove`: deletes the job.
fn remove(conn: Db<'_>, job: &Job) -> Result<ToolResult> {
    cron::remove(conn, job.id)?;
    Ok(pretty(json!({"removed": job.id})))
}

/// `runs`: the job's latest runs (`limit`, default 20).
fn runs(args: &Map<String, Value>, conn: Db<'_>, job: &Job) -> Result<ToolResult> {
    let limit = args
        .get("limit")
        .and_then(Value::as_u64)
        .unwrap_or(20)
        .clamp(1, 500) as usize;
    let runs = cron::runs(conn, Some(job.id), &PageRequest::first(limit))?.items;
    Ok(pretty(json!({"runs": runs, "count": runs.len()})))
}

/// `run`: makes the job due and starts a tick for it in the background (the store is closed
/// first).
fn run(
    ctx: &CallContext,
    args: &Map<String, Value>,
    store: &Store,
    job: &Job,
) -> Result<ToolResult> {
    let force = args.get("runMode").and_then(Value::as_str) != Some("due");
    let due = job.next_run_ms.is_some_and(|n| n <= now_ms());
    if !force && !due {
        return Ok(pretty(json!({"queued": false, "reason": "not due"})));
    }
    cron::make_due(store.db(), job.id)?;
    Ok(match start_tick(ctx, job.id) {
        Ok(pid) => pretty(json!({"started": true, "jobId": job.id, "pid": pid,
            "note": "running in the background; the runs action shows how it ended"})),
        Err(e) => pretty(json!({"started": false, "queued": true, "jobId": job.id,
            "note": format!("could not start it now ({e}); it runs at the next `goclaw cron tick`")})),
    })
}

/// `update`: applies `patch` (or `job`): schedule, payload, enabled, session.
fn update(args: &Map<String, Value>, conn: Db<'_>, job: &Job) -> Result<ToolResult> {
    let patch = args.get("patch").or_else(|| args.get("job"));
    let patch = patch.and_then(Value::as_object);
    let schedule = match patch.and_then(|p| p.get("schedule")) {
        None => None,
        Some(s) => match Schedule::parse(s, now_ms()) {
            Ok(s) => Some(s),
            Err(e) => return Ok(ToolResult::error(e)),
        },
    };
    let payload = match patch.map(payload) {
        Some(Err(e)) => return Ok(ToolResult::error(e)),
        Some(Ok(p)) => p,
        None => None,
    };
    if let Some(Payload::Tool { tool, .. }) = &payload
        && !job.allowed_tools.iter().any(|t| t == tool)
    {
        return Ok(ToolResult::error(format!(
            "job.tool {tool} is outside what this job may use"
        )));
    }
    if let Some(enabled) = patch
        .and_then(|p| p.get("enabled"))
        .and_then(Value::as_bool)
    {
        cron::set_enabled(conn, job, enabled)?;
    }
    let session = patch.and_then(|p| p.get("session")).and_then(Value::as_str);
    let updated = cron::update(conn, job.id, schedule.as_ref(), payload.as_ref(), session)?;
    Ok(pretty(json!({"job": updated})))
}

/// Starts `goclaw cron tick --force ID` in the background, on the same store, config and
/// workspace, in its own process group (it outlives this call; the lease keeps it single).
fn start_tick(ctx: &CallContext, id: i64) -> std::io::Result<u32> {
    use std::os::unix::process::CommandExt;
    let mut cmd = cron::goclaw_child(&ctx.store, &ctx.workspace, ctx.config_path.as_deref())?;
    cmd.args(["--quiet", "cron", "tick", "--force", &id.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0);
    let mut child = cmd.spawn()?;
    let pid = child.id();
    // Reaped when it ends, so a long-lived caller (a run, `mcp serve`) keeps no zombies; if
    // this process ends first, init adopts it.
    std::thread::spawn(move || child.wait());
    Ok(pid)
}

impl Tool for CronTool {
    fn in_call_order(&self) -> bool {
        true
    }
    fn name(&self) -> &str {
        "cron"
    }
    fn description(&self) -> &str {
        "Schedule work: a message to run as you (an agent run) or one tool call, at a time (at), on an interval (every) or a cron expression with a time zone. Actions: status, list, add, update, remove, run, runs."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "action":{"type":"string","enum":["status","list","add","update","remove","run","runs"]},
            "job":{"type":"object","description":"For add: {name, schedule: {kind: at|every|cron, at_ms | every_ms (or atMs | everyMs) | expr, tz}, message | tool + args, session?, deleteAfterRun?}"},
            "patch":{"type":"object","description":"For update: schedule, message, tool + args, session, enabled"},
            "jobId":{"description":"For update, remove, run, runs: the job's id or name"},
            "runMode":{"type":"string","enum":["force","due"],"description":"For run (default force)"},
            "limit":{"type":"integer","description":"For runs (default 20)"}},
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
        match self.act(ctx, args, store) {
            Ok(r) => r,
            Err(e) => ToolResult::from_error(&e),
        }
    }
}
