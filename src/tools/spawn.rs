//! The `spawn` tool (seed 000 §6): a run starts other runs. `spawn` starts a child and returns
//! at once with its run id; `run` starts one and waits for its answer; `list` shows the caller's
//! children; `cancel` stops one (by run id, `last` or `all`); `steer` cancels one, lets it settle
//! for 500 ms and starts it again with a new task. A child is a `goclaw run` process on the same
//! store, workspace and config, linked to its parent in the store (see [`crate::subagents`]),
//! under the caller agent's limits; its answer comes back into the parent's conversation when
//! it ends (the agent loop announces it).

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::child_run::{self, ChildRun, RunFlags};
use super::gate::RunLink;
use super::{CallContext, Risk, Tool, ToolResult, given_arg};
use crate::error::{Error, Result};
use crate::store::Store;
use crate::subagents::{self, Child, NewChild};

/// How long a steered child is given to settle before its replacement starts.
const STEER_SETTLE: Duration = Duration::from_millis(500);

/// `spawn`.
pub struct SpawnTool;

impl Tool for SpawnTool {
    fn in_call_order(&self) -> bool {
        true
    }
    fn name(&self) -> &str {
        "spawn"
    }
    fn description(&self) -> &str {
        "Start subagents: other runs that work on a task in parallel and report back. action spawn (returns at once; the answer arrives in this conversation when the child ends), run (waits for the answer), list, cancel (id, last or all), steer (cancel and restart with a new task)."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "action":{"type":"string","enum":["spawn","run","list","cancel","steer"]},
            "task":{"type":"string","description":"What the child should do (spawn, run; the new task for steer)"},
            "label":{"type":"string","description":"A short name for the child (at most 100 characters are kept)"},
            "agent":{"type":"string","description":"A configured agent to run as (default: a copy of you)"},
            "model":{"type":"string","description":"The child's model (default: yours)"},
            "id":{"type":"string","description":"cancel, steer: a child's run id, last or all"}},
            "required":["action"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    /// The task goes to another run's model, and into the store with the child's record: both
    /// get it scrubbed, as a run's own message is stored.
    fn outbound(&self) -> bool {
        true
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
    let Some(run) = ctx.run.as_ref() else {
        return Ok(ToolResult::error(
            "spawn works inside an agent run (goclaw run): there is no run to be the parent",
        ));
    };
    let action = given_arg(args, "action").unwrap_or_default();
    match action {
        "spawn" | "run" => {
            let child = start(ctx, run, args, store, given_arg(args, "task"))?;
            if action == "spawn" {
                return Ok(ToolResult::text(format!(
                    "Spawned subagent {} (run {}). It works in the background; its answer arrives in this conversation when it ends.",
                    child.label, child.run_id
                )));
            }
            let ended = wait_for(ctx, store, &child.run_id)?;
            // Its answer is this tool's result: the parent is not told again.
            subagents::mark_announced(store.db(), &child.run_id)?;
            Ok(answer(&ended))
        }
        "list" => {
            let children = subagents::children(store.db(), &run.run_id)?;
            Ok(ToolResult::silent(
                json!({"children": children, "count": children.len()}).to_string(),
            ))
        }
        "cancel" => {
            let targets = targets(store, run, given_arg(args, "id"))?;
            let mut cancelled = Vec::new();
            for c in &targets {
                if subagents::cancel(store.db(), &c.run_id)? {
                    cancelled.push(c.label.clone());
                }
            }
            Ok(ToolResult::text(if cancelled.is_empty() {
                "No running subagent to cancel.".to_string()
            } else {
                format!("Cancelled: {}.", cancelled.join(", "))
            }))
        }
        "steer" => steer(ctx, run, args, store),
        "" => Ok(ToolResult::bad_args("action parameter is required")),
        other => Ok(ToolResult::bad_args(&format!(
            "unknown action: {other} (use spawn, run, list, cancel or steer)"
        ))),
    }
}

/// The children `id` names: a run id, `last` (the newest running one) or `all` (every running
/// one).
fn targets(store: &Store, run: &RunLink, id: Option<&str>) -> Result<Vec<Child>> {
    let active: Vec<Child> = subagents::children(store.db(), &run.run_id)?
        .into_iter()
        .filter(Child::active)
        .collect();
    Ok(match id {
        None => {
            return Err(Error::usage(
                "id is required: a child's run id, last or all",
            ));
        }
        Some("all") => active,
        Some("last") => active.into_iter().last().into_iter().collect(),
        Some(id) => {
            let mine = subagents::children(store.db(), &run.run_id)?;
            let found = mine.into_iter().find(|c| c.run_id == id || c.label == id);
            vec![found.ok_or_else(|| Error::not_found(format!("no subagent {id} of this run")))?]
        }
    })
}

/// `steer`: the child stops, settles, and starts again on the new task.
fn steer(
    ctx: &CallContext,
    run: &RunLink,
    args: &Map<String, Value>,
    store: &mut Store,
) -> Result<ToolResult> {
    let target = targets(store, run, given_arg(args, "id").or(Some("last")))?;
    let Some(old) = target.into_iter().next() else {
        return Ok(ToolResult::error("no subagent to steer"));
    };
    subagents::cancel(store.db(), &old.run_id)?;
    std::thread::sleep(STEER_SETTLE);
    let mut args = args.clone();
    args.insert("label".into(), json!(old.label));
    // A copy of the caller is started again as a copy (on the caller's provider and model).
    let caller = ctx.agent.as_deref().unwrap_or("default");
    if old.agent != caller {
        args.insert("agent".into(), json!(old.agent));
    } else {
        args.remove("agent");
    }
    let child = start(ctx, run, &args, store, given_arg(&args, "task"))?;
    Ok(ToolResult::text(format!(
        "Steered {}: the old run {} was cancelled; the new one is {}.",
        child.label, old.run_id, child.run_id
    )))
}

/// The longest label kept, in characters.
const MAX_LABEL: usize = 100;

/// Reserves a child under the limits and starts its process.
fn start(
    ctx: &CallContext,
    run: &RunLink,
    args: &Map<String, Value>,
    store: &mut Store,
    task: Option<&str>,
) -> Result<Child> {
    let task = task.ok_or_else(|| Error::usage("task is required: what the child should do"))?;
    let agent = match given_arg(args, "agent") {
        Some(a) if !ctx.known_agents.iter().any(|k| k == a) => {
            return Err(Error::not_found(format!(
                "agent \"{a}\" is not configured (known: {})",
                ctx.known_agents.join(", ")
            )));
        }
        Some(a) if ctx.agent.as_deref() != Some(a) && crate::team::in_a_team(store.db(), a)? => {
            return Err(Error::denied(format!(
                "agent \"{a}\" is a member of a team: a subagent cannot act as another team member (its board rights are its own); spawn a copy of yourself or an agent outside teams"
            )));
        }
        Some(a) => Some(a.to_string()),
        None => ctx.agent.clone(),
    };
    let run_id = uuid::Uuid::now_v7().to_string();
    let count = subagents::children(store.db(), &run.run_id)?.len() + 1;
    // A name to tell children apart, not a second task: its first MAX_LABEL characters, a
    // control character as a space (it goes on the child's command line, where 240 KB or a
    // NUL made the spawn fail).
    let label = given_arg(args, "label")
        .map(|l| {
            l.chars()
                .take(MAX_LABEL)
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect()
        })
        .unwrap_or_else(|| format!("child-{count}"));
    let new = NewChild {
        run_id: &run_id,
        parent_run_id: &run.run_id,
        parent_depth: run.depth,
        label: &label,
        agent: agent.as_deref().unwrap_or("default"),
        task,
        detached: run.detach_children,
    };
    subagents::reserve(store.db(), &new, &ctx.subagents)?;
    // A copy of the caller runs on the caller's provider and model; a configured agent on its
    // own, unless the call names a model.
    let cloned = given_arg(args, "agent").is_none();
    let model = given_arg(args, "model").or(cloned.then_some(run.model.as_str()));
    let provider = cloned.then_some(run.provider.as_str());
    match launch(ctx, run, &new, agent.as_deref(), (provider, model)) {
        Ok(launched) => subagents::started(store.db(), &run_id, (launched.pid, launched.start))?,
        Err(e) => {
            let why = format!("the child process could not start: {e}");
            subagents::failed_to_start(store.db(), &run_id, &why)?;
            return Err(Error::failed(why));
        }
    }
    subagents::child(store.db(), &run_id)?
        .ok_or_else(|| Error::internal("a spawned child has no record"))
}

/// Starts the child's `goclaw run`; its output goes to the store, not to this process.
fn launch(
    ctx: &CallContext,
    run: &RunLink,
    c: &NewChild,
    agent: Option<&str>,
    (provider, model): (Option<&str>, Option<&str>),
) -> std::io::Result<child_run::Launched> {
    let flags = RunFlags {
        on_ask: Some("deny".into()),
        run_id: Some(c.run_id.to_string()),
        parent_run: Some(c.parent_run_id.to_string()),
        depth: Some(c.parent_depth + 1),
        label: Some(c.label.to_string()),
        max_iterations: Some(ctx.subagents.max_iterations.max(1)),
        agent: agent.map(str::to_string),
        provider: provider.map(str::to_string),
        model: model.map(str::to_string),
        detached: c.detached,
        // Never more than this run may do, whatever the child's own policy allows (a run
        // under `--allow-tools`, a cron job's ceiling, an agent that may only read).
        allow_tools: Some(ctx.allowed_tools.clone()),
        subagent_limits: Some(ctx.subagents),
        ..RunFlags::default()
    };
    let (store, run_id) = (ctx.store.clone(), c.run_id.to_string());
    child_run::start(
        ChildRun {
            store: &ctx.store,
            workspace: &ctx.workspace,
            config: ctx.config_path.as_deref(),
            flags,
            message: c.task,
            // A parent that shows events gets its children's too (not those of detached
            // children: they outlive its stream).
            relay: run.relay.clone().filter(|_| !c.detached),
        },
        move |waited| {
            // A child that ended before it recorded its run failed to start: say so, so nobody
            // waits for it (and its pid is never signalled again).
            if let Ok(store) = store.open() {
                let _ = subagents::ended_unstarted(store.db(), &run_id, &format!("{waited:?}"));
            }
        },
    )
}

/// Waits for a child, stopping it if this call must stop (the run's deadline, a signal).
fn wait_for(ctx: &CallContext, store: &Store, run_id: &str) -> Result<Child> {
    let ids = [run_id.to_string()];
    let mut stopped = false;
    let mut give_up = || {
        stopped = ctx.stop.check().is_some();
        stopped
    };
    let mut now = subagents::wait(store.db(), &ids, &mut give_up)?;
    if stopped {
        subagents::cancel(store.db(), run_id)?;
        now = subagents::wait(store.db(), &ids, &mut || false)?;
    }
    now.into_iter()
        .next()
        .ok_or_else(|| Error::internal("a waited-for child has no record"))
}

/// A child's end as the model reads it.
fn answer(c: &Child) -> ToolResult {
    match c.status.as_str() {
        "completed" => ToolResult::text(format!(
            "Subagent {} (run {}) completed:\n{}",
            c.label,
            c.run_id,
            c.content.as_deref().unwrap_or("")
        )),
        status => ToolResult::error(format!(
            "Subagent {} (run {}) {status}: {}",
            c.label,
            c.run_id,
            c.error.as_deref().unwrap_or("no answer")
        )),
    }
}
