//! The `team_tasks` and `team_message` tools: the task board and the mailbox as an agent sees
//! them, over the same domain code as `goclaw tasks` and `goclaw team message`, so a script and
//! an agent run behave identically. Access checks of §11.4: an agent is required, it must be a
//! member, and the team's user and channel allow/deny lists apply (deny beats allow; the
//! `teammate` and `system` channels always pass). Refusals keep their kind, so through
//! `goclaw tools exec` a lost claim is exit 6 and an unknown task exit 5, as with `goclaw tasks`.

use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::error::{Error, Result};
use crate::store::Store;
use crate::team::actions::{self, Action, Reply};
use crate::team::board::{Board, Changes, NewTask, Task};
use crate::team::{self, Team, mailbox};

fn s<'a>(args: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    args.get(key)
        .and_then(Value::as_str)
        .filter(|v| !v.is_empty())
}

fn need<'a>(args: &'a Map<String, Value>, key: &str, action: &str) -> Result<&'a str> {
    s(args, key).ok_or_else(|| Error::usage(format!("{key} is required for {action} action")))
}

/// JSON numbers are read as numbers and truncated toward zero (§22.5).
fn n(args: &Map<String, Value>, key: &str) -> Option<i64> {
    args.get(key)
        .and_then(|v| v.as_i64().or_else(|| v.as_f64().map(|f| f.trunc() as i64)))
}

/// The caller's team and agent, applying the access checks.
fn open(ctx: &CallContext, args: &Map<String, Value>, store: &Store) -> Result<(Team, String)> {
    let agent = ctx.agent.clone().ok_or_else(|| {
        Error::usage("no agent context — team tools need an agent (pass --agent)")
    })?;
    // The team named, else the one the run works for (a dispatched task's), else the agent's.
    let run_team = ctx.run.as_ref().and_then(|r| r.team.as_deref());
    let team = match s(args, "team").or(run_team) {
        Some(t) => team::get(store.db(), t)?,
        None => team::team_of(store.db(), &agent)?,
    };
    check_access(&team, ctx)?;
    Ok((team, agent))
}

/// The team's user and channel allow/deny lists (empty lists are open).
fn check_access(team: &Team, ctx: &CallContext) -> Result<()> {
    let list = |key: &str| -> Vec<String> {
        team.setting(key)
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    if let Some(user) = &ctx.user {
        let (allow, deny) = (list("allow_user_ids"), list("deny_user_ids"));
        if deny.contains(user) || (!allow.is_empty() && !allow.contains(user)) {
            return Err(Error::denied("user not authorized for this team"));
        }
    }
    if let Some(ch) = ctx
        .channel
        .as_deref()
        .filter(|c| *c != "teammate" && *c != "system")
    {
        let (allow, deny) = (list("allow_channels"), list("deny_channels"));
        if deny.iter().any(|d| d == ch) || (!allow.is_empty() && !allow.iter().any(|a| a == ch)) {
            return Err(Error::denied(format!(
                "channel \"{ch}\" not authorized for this team"
            )));
        }
    }
    Ok(())
}

/// `team_tasks`.
pub struct TeamTasks;

impl Tool for TeamTasks {
    fn in_call_order(&self) -> bool {
        true
    }
    fn name(&self) -> &'static str {
        "team_tasks"
    }
    fn description(&self) -> &'static str {
        "The team task board: list, get, search, create, claim, complete, fail, cancel, assign, review, approve, reject, retry, comment (type note|blocker), progress, attach, update, ask_user, clear_ask_user, events."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "action":{"type":"string","enum":["list","get","search","create","claim","complete","fail","cancel","assign","review",
                "approve","reject","retry","comment","progress","attach","update","ask_user","clear_ask_user","events"]},
            "team":{"type":"string"},"task_id":{"type":"string","description":"id, identifier or number (#3); claim without it takes the next task; default: the task this run works on"},
            "subject":{"type":"string"},"description":{"type":"string"},"result":{"type":"string"},"text":{"type":"string"},
            "type":{"type":"string","enum":["note","blocker"]},"status":{"type":"string"},"query":{"type":"string"},
            "priority":{"type":"number","description":"truncated toward zero"},"blocked_by":{"type":"array"},
            "require_approval":{"type":"boolean"},"gate":{"type":"string","description":"create: a command the answer of a run on the task must pass (a quality gate)"},"percent":{"type":"number","description":"0-100, truncated toward zero"},"path":{"type":"string"},"assignee":{"type":"string"},"dedupe_key":{"type":"string"},
            "request":{"type":"boolean"},"limit":{"type":"integer","minimum":1},"cursor":{"type":"string"}},
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
        ToolResult::from_result(self.run(ctx, args, store))
    }
}

/// The action an agent's JSON asks for. Empty strings count as absent; numbers are truncated
/// toward zero; `text` is the reason of `fail`, `cancel` and `reject`, the step of `progress`
/// and the question of `ask_user`.
fn action_of(ctx: &CallContext, name: &str, args: &Map<String, Value>) -> Result<Action> {
    // The task named, else the one the run works on.
    let run_task = ctx.run.as_ref().and_then(|r| r.task_id.as_deref());
    let task = || {
        s(args, "task_id")
            .or(run_task)
            .map(String::from)
            .ok_or_else(|| Error::usage(format!("task_id is required for {name} action")))
    };
    let text_or = |default: &str| s(args, "text").unwrap_or(default).to_string();
    let page = |default: usize| crate::team::board::PageRequest {
        limit: Some(n(args, "limit").map_or(default, |l| l.max(1) as usize)),
        cursor: s(args, "cursor").map(String::from),
    };
    Ok(match name {
        "list" => Action::List {
            status: s(args, "status").unwrap_or("all").to_string(),
            page: page(30),
        },
        "get" => Action::Get { task: task()? },
        "search" => Action::Search {
            query: need(args, "query", "search")?.to_string(),
            page: page(5),
        },
        "events" => Action::Events {
            task: s(args, "task_id").map(String::from),
            page: page(100),
        },
        "create" => create_action(ctx, args)?,
        "claim" => Action::Claim {
            task: s(args, "task_id").map(String::from),
        },
        "complete" => Action::Complete {
            task: task()?,
            result: need(args, "result", "complete")?.to_string(),
        },
        "fail" => Action::Fail {
            task: task()?,
            reason: s(args, "text")
                .or(s(args, "result"))
                .unwrap_or("failed")
                .to_string(),
        },
        "cancel" => Action::Cancel {
            task: task()?,
            reason: text_or("Cancelled by agent"),
        },
        "assign" => Action::Assign {
            task: task()?,
            to: need(args, "assignee", "assign")?.to_string(),
        },
        "review" => Action::Review {
            task: task()?,
            result: s(args, "result").map(String::from),
        },
        "approve" => Action::Approve { task: task()? },
        "reject" => Action::Reject {
            task: task()?,
            reason: text_or("Rejected by user"),
        },
        "retry" => Action::Retry { task: task()? },
        "comment" => Action::Comment {
            task: task()?,
            text: need(args, "text", "comment")?.to_string(),
            blocker: s(args, "type") == Some("blocker"),
        },
        "progress" => Action::Progress {
            task: task()?,
            percent: n(args, "percent").unwrap_or(0),
            step: s(args, "text").map(String::from),
        },
        "attach" => Action::Attach {
            task: task()?,
            path: need(args, "path", "attach")?.to_string(),
        },
        "update" => Action::Update {
            task: task()?,
            changes: changes_of(args),
        },
        "ask_user" => Action::AskUser {
            task: task()?,
            question: Some(need(args, "text", "ask_user")?.to_string()),
        },
        "clear_ask_user" => Action::AskUser {
            task: task()?,
            question: None,
        },
        other => {
            return Err(Error::usage(format!(
                "unknown action: {other} (use list, get, search, create, claim, complete, fail, cancel, assign, review, approve, reject, retry, comment, progress, attach, update, ask_user, clear_ask_user, or events)"
            )));
        }
    })
}

/// `blocked_by`: the strings of the array, if there is one.
fn blocked_by(args: &Map<String, Value>) -> Option<Vec<String>> {
    args.get("blocked_by").and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(|v| v.as_str().map(String::from))
            .collect()
    })
}

/// What a run working on a task may not do with the board: its final answer ends its task
/// (through the task's gate and the team's review), so it neither completes nor submits a task
/// itself, and it works on one task at a time, so it claims no other. Its subagents (at any
/// depth) may not either: a subagent spawned to do that was the way round it.
fn on_task_run(ctx: &CallContext, action: &Action, store: &Store) -> Result<()> {
    let Some(run) = ctx.run.as_ref() else {
        return Ok(());
    };
    if !matches!(
        action,
        Action::Complete { .. } | Action::Review { .. } | Action::Claim { .. }
    ) {
        return Ok(());
    }
    let (task, whose, answer) = match &run.task_id {
        Some(task) => (task.clone(), "you are working on task", "your final answer"),
        None if run.parent_run_id.is_some() => {
            match crate::team::board::task_of_ancestor(store.db(), &run.run_id)? {
                Some(task) => (
                    task,
                    "you are a subagent of the run working on task",
                    "its run's final answer",
                ),
                None => return Ok(()),
            }
        }
        None => return Ok(()),
    };
    Err(Error::denied(match action {
        Action::Claim { .. } => {
            format!("{whose} {task}: finish it (answer) before taking another.")
        }
        _ => format!(
            "{whose} {task}: {answer} completes it (its quality gate and the team's review apply). Answer when the work is done."
        ),
    }))
}

/// `create`: the assignee must be an agent of the config; a quality gate is a command, so only
/// a caller that may run commands (`exec`) may set one.
fn create_action(ctx: &CallContext, args: &Map<String, Value>) -> Result<Action> {
    if s(args, "gate").is_some() && !ctx.allowed_tools.iter().any(|t| t == "exec") {
        return Err(Error::denied(
            "a task's gate is a command: only an agent that may use exec can set one",
        ));
    }
    if let Some(a) = s(args, "assignee").filter(|a| !ctx.known_agents.iter().any(|k| k == a)) {
        return Err(Error::not_found(format!("assignee \"{a}\" not found")));
    }
    let flag = |key: &str| args.get(key).and_then(Value::as_bool).unwrap_or(false);
    Ok(Action::Create(NewTask {
        subject: need(args, "subject", "create")?.to_string(),
        description: s(args, "description").unwrap_or_default().to_string(),
        priority: n(args, "priority").unwrap_or(0),
        blocked_by: blocked_by(args).unwrap_or_default(),
        assignee: s(args, "assignee").map(String::from),
        dedupe_key: s(args, "dedupe_key").map(String::from),
        require_approval: flag("require_approval"),
        request: flag("request"),
        gate: s(args, "gate").map(String::from),
    }))
}

/// `update`: what it changes (an empty description clears it).
fn changes_of(args: &Map<String, Value>) -> Changes {
    Changes {
        subject: s(args, "subject").map(String::from),
        description: args
            .get("description")
            .and_then(Value::as_str)
            .map(String::from),
        priority: n(args, "priority"),
        blocked_by: blocked_by(args),
        assignee: s(args, "assignee").map(|a| Some(a.to_string())),
    }
}

/// A reply as the text a model reads (queries as JSON, kept out of the transcript's display).
fn render(name: &str, reply: Reply) -> Result<ToolResult> {
    let json_result = |v: Value| ToolResult::silent(v.to_string());
    Ok(match reply {
        Reply::Tasks(p) => json_result(
            json!({"tasks": p.items, "count": p.items.len(), "next_cursor": p.next_cursor}),
        ),
        Reply::Detail(d) => json_result(serde_json::to_value(&d).unwrap_or(Value::Null)),
        Reply::Events(p) => json_result(json!({ "events": p.items, "next_cursor": p.next_cursor })),
        Reply::Recovered(r) => json_result(serde_json::to_value(&r).unwrap_or(Value::Null)),
        Reply::Created { task: t, created } => {
            let verb = if created {
                "Task created"
            } else {
                "Task already exists"
            };
            ToolResult::text(format!(
                "{verb}: {} (id={}, identifier={}, task_number={}, status={}, assignee={})",
                t.subject,
                t.id,
                t.identifier,
                t.task_number,
                t.status,
                t.assignee.as_deref().unwrap_or("any member")
            ))
        }
        Reply::Claimed(None) => return Err(Error::not_found("no task to claim")),
        Reply::Claimed(Some(t)) => ToolResult::text(format!(
            "Task {} ({}) claimed successfully. It is now in progress.",
            t.identifier, t.id
        )),
        Reply::Commented { note, .. } => ToolResult::text(note),
        Reply::Task(t) => task_text(name, t),
    })
}

/// What a transition or an edit tells the model.
fn task_text(name: &str, t: Task) -> ToolResult {
    let id = &t.identifier;
    ToolResult::text(match name {
        "complete" => format!("Task {id} completed. Dependent tasks are unblocked."),
        "fail" => format!("Task {id} failed."),
        "cancel" => format!("Task {id} cancelled. Dependent tasks are unblocked."),
        "assign" => format!(
            "Task {id} assigned to {}.",
            t.owner.as_deref().unwrap_or_default()
        ),
        "review" => format!("Task {id} submitted for review."),
        "approve" => format!("Task {id} approved (status: completed)."),
        "reject" => match &t.owner {
            Some(o) if t.status == "in_progress" => {
                format!("Task {id} rejected and returned to {o} with feedback.")
            }
            _ => format!("Task {id} rejected."),
        },
        "retry" => format!("Task {id} is pending again."),
        "progress" => {
            return ToolResult::silent(format!(
                "Progress updated: {}% {}",
                t.progress_percent.unwrap_or(0),
                t.progress_step.unwrap_or_default()
            ));
        }
        "attach" => format!(
            "File attached to task #{} \"{}\" (id: {}).",
            t.task_number, t.subject, t.id
        ),
        "update" => format!("Task {id} updated."),
        "ask_user" => format!("Question recorded on task {id}."),
        "clear_ask_user" => format!("Question cleared on task {id}."),
        _ => format!("Task {id}: {}.", t.status),
    })
}

impl TeamTasks {
    fn run(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> Result<ToolResult> {
        let name = need(args, "action", "any")?.to_string();
        let action = action_of(ctx, &name, args)?;
        on_task_run(ctx, &action, store)?;
        let (team, agent) = open(ctx, args, store)?;
        let mut board = Board::open(store.db(), team, &agent)?;
        render(&name, actions::apply(&mut board, action)?)
    }
}

/// `team_message`.
pub struct TeamMessage;

impl Tool for TeamMessage {
    fn in_call_order(&self) -> bool {
        true
    }
    fn name(&self) -> &'static str {
        "team_message"
    }
    fn description(&self) -> &'static str {
        "The team mailbox: send a message to a teammate, broadcast to all (lead), or read unread messages."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "action":{"type":"string","enum":["send","broadcast","read"]},"team":{"type":"string"},
            "to":{"type":"string"},"text":{"type":"string"}},"required":["action"]})
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
            let action = need(args, "action", "any")?.to_string();
            let (team, agent) = open(ctx, args, store)?;
            if !team.is_member(&agent) {
                return Err(Error::denied(format!(
                    "`{agent}` is not a member of team `{}`",
                    team.name
                )));
            }
            Ok(match action.as_str() {
                "send" => {
                    let to = s(args, "to")
                        .ok_or_else(|| Error::usage("to parameter is required for send action"))?;
                    let text = s(args, "text").ok_or_else(|| {
                        Error::usage("text parameter is required for send action")
                    })?;
                    mailbox::send(store.db(), &team, &agent, to, text)?;
                    ToolResult::text(format!("Message sent to {to}."))
                }
                "broadcast" => {
                    let text = s(args, "text").ok_or_else(|| {
                        Error::usage("text parameter is required for broadcast action")
                    })?;
                    mailbox::broadcast(store.db(), &team, &agent, text)?;
                    ToolResult::text("Broadcast sent to all teammates.")
                }
                "read" => {
                    let msgs = mailbox::read(store.db(), &team, &agent)?;
                    let mut doc = json!({"messages": msgs, "count": msgs.len()});
                    if msgs.len() >= mailbox::READ_LIMIT {
                        doc["note"] = json!(
                            "Showing the oldest 50 unread messages. Read again after processing these to get more."
                        );
                        doc["has_more"] = json!(true);
                    }
                    ToolResult::silent(doc.to_string())
                }
                other => {
                    return Err(Error::usage(format!(
                        "unknown action: {other} (use send, broadcast, or read)"
                    )));
                }
            })
        })())
    }
}
