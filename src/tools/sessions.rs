//! The sessions tools (seed 000 §2): `sessions_list` and `sessions_history` read the caller
//! agent's sessions (an agent sees its own conversations, not other agents'),
//! `sessions_send` starts a run on one of them in the background (its run id comes back at
//! once; `goclaw runs wait` or `sessions_history` shows the answer) and `session_status` tells a
//! run where it stands: its run, session, iterations used and left, token use, children.

use std::process::Stdio;

use serde_json::{Map, Value, json};

use super::child_run::{RunFlags, output_until, run_command, spawn_with_message};
use super::{CallContext, Risk, Tool, ToolResult, given_arg};
use crate::error::{Error, Result};
use crate::store::Store;
use crate::store::page::PageRequest;

/// The agent whose sessions the caller sees.
fn caller_agent(ctx: &CallContext) -> &str {
    ctx.agent.as_deref().unwrap_or("default")
}

/// The caller's session `key`, or why not.
fn own_session(ctx: &CallContext, store: &Store, key: &str) -> Result<Value> {
    match crate::sessions::session(store.db(), key)? {
        Some(s) if s["agent"] == caller_agent(ctx) => Ok(s),
        _ => Err(Error::not_found(format!(
            "no session \"{key}\" of agent {} (sessions_list shows them)",
            caller_agent(ctx)
        ))),
    }
}

/// `sessions_list`.
pub struct SessionsList;

impl Tool for SessionsList {
    fn name(&self) -> &str {
        "sessions_list"
    }
    fn description(&self) -> &str {
        "List your sessions (conversations), most recently used first."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "limit":{"type":"integer","minimum":1,"description":"At most this many (default 20)"}}})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        ToolResult::from_result((|| {
            let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(20) as usize;
            let page = crate::sessions::sessions(
                store.db(),
                Some(caller_agent(ctx)),
                &PageRequest::first(limit),
            )?;
            Ok(ToolResult::silent(
                json!({"sessions": page.items, "count": page.items.len(), "more": page.next_cursor.is_some()})
                    .to_string(),
            ))
        })())
    }
}

/// `sessions_history`.
pub struct SessionsHistory;

impl Tool for SessionsHistory {
    fn name(&self) -> &str {
        "sessions_history"
    }
    fn description(&self) -> &str {
        "Read the messages of one of your sessions (the newest, up to limit)."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "session_key":{"type":"string"},
            "limit":{"type":"integer","minimum":1,"description":"The newest this many messages (default 50)"}},
            "required":["session_key"]})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        ToolResult::from_result((|| {
            let key = given_arg(args, "session_key")
                .ok_or_else(|| Error::usage("session_key is required"))?;
            own_session(ctx, store, key)?;
            let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(50) as usize;
            let all = crate::sessions::history(store.db(), key)?;
            let newest = &all[all.len().saturating_sub(limit)..];
            Ok(ToolResult::silent(
                json!({"session_key": key, "messages": newest, "count": newest.len(), "total": all.len()})
                    .to_string(),
            ))
        })())
    }
}

/// `sessions_send`.
pub struct SessionsSend;

impl Tool for SessionsSend {
    fn name(&self) -> &str {
        "sessions_send"
    }
    fn description(&self) -> &str {
        "Send a message into one of your sessions: a run on it starts in the background and its run id comes back at once."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "session_key":{"type":"string"},
            "message":{"type":"string"}},
            "required":["session_key","message"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    /// The message goes to another run's model: scrubbed, as every argument that leaves.
    fn outbound(&self) -> bool {
        true
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        ToolResult::from_result(send(ctx, args, store))
    }
}

/// Starts `goclaw run --detach` on the session, as the session's agent.
fn send(ctx: &CallContext, args: &Map<String, Value>, store: &Store) -> Result<ToolResult> {
    let key =
        given_arg(args, "session_key").ok_or_else(|| Error::usage("session_key is required"))?;
    let message = given_arg(args, "message").ok_or_else(|| Error::usage("message is required"))?;
    if ctx.session_key.as_deref() == Some(key) {
        return Ok(ToolResult::error(
            "that is this run's own session: answer here instead",
        ));
    }
    let session = own_session(ctx, store, key)?;
    // The provider and model of this run, else the ones the session last used.
    let (provider, model) = match &ctx.run {
        Some(run) => (Some(run.provider.as_str()), Some(run.model.as_str())),
        None => (session["provider"].as_str(), session["model"].as_str()),
    };
    let flags = RunFlags {
        detach: true,
        on_ask: Some("deny".into()),
        session: Some(key.to_string()),
        agent: ctx.agent.clone(),
        user: session["user"].as_str().map(str::to_string),
        provider: provider.map(str::to_string),
        model: model.map(str::to_string),
        // The run it starts cannot start further runs, nor do more than this run may.
        sent: true,
        allow_tools: Some(ctx.allowed_tools.clone()),
        ..RunFlags::default()
    };
    let mut cmd = run_command(
        (&ctx.store, &ctx.workspace, ctx.config_path.as_deref()),
        &flags,
    )
    .map_err(|e| Error::internal(format!("cannot find the goclaw binary: {e}")))?;
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    // Its start is waited for until this run must stop (the new run, detached, goes on).
    let out = spawn_with_message(&mut cmd, message)
        .and_then(|child| output_until(child, &ctx.stop))
        .map_err(|e| Error::internal(format!("cannot start the run: {e}")))?;
    let Some(out) = out else {
        return Ok(ToolResult::error(format!(
            "stopped before the run on session {key} said it started (it may still: `goclaw runs list --session {key}`)"
        )));
    };
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    match doc["run_id"].as_str() {
        Some(run_id) if out.status.success() => Ok(ToolResult::text(format!(
            "Sent to session {key}: run {run_id} started (it answers in that session)."
        ))),
        _ => Ok(ToolResult::error(format!(
            "the run on session {key} did not start: {}",
            doc["error"]["message"]
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| String::from_utf8_lossy(&out.stderr).trim().to_string())
        ))),
    }
}

/// `session_status`.
pub struct SessionStatus;

impl Tool for SessionStatus {
    fn name(&self) -> &str {
        "session_status"
    }
    fn description(&self) -> &str {
        "Where this run stands: run and session, iterations used and left, token use, subagents."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{}})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        ctx: &CallContext,
        _args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        ToolResult::from_result((|| {
            let mut doc = json!({"agent": caller_agent(ctx), "session_key": ctx.session_key});
            if let Some(run) = &ctx.run {
                let iterations: i64 = store
                    .db()
                    .query_row(
                        "SELECT iterations FROM runs WHERE id = ?1",
                        crate::db_params![run.run_id],
                        |r| r.get(0),
                    )
                    .unwrap_or(0);
                let children = crate::subagents::children(store.db(), &run.run_id)?;
                doc["run"] = json!({
                    "run_id": run.run_id, "parent_run_id": run.parent_run_id, "depth": run.depth,
                    "provider": run.provider, "model": run.model,
                    "iterations": iterations, "max_iterations": run.max_iterations,
                    "iterations_left": i64::from(run.max_iterations).saturating_sub(iterations),
                    "subagents_running": children.iter().filter(|c| c.active()).count(),
                    "subagents": children.len(),
                });
            }
            if let Some(key) = &ctx.session_key
                && let Some(s) = crate::sessions::session(store.db(), key)?
            {
                doc["session"] = s;
            }
            Ok(ToolResult::silent(doc.to_string()))
        })())
    }
}
