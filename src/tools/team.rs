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
use crate::team::board::{Board, Changes, NewTask};
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

/// Opens the store and the caller's team, applying the access checks.
fn open(ctx: &CallContext, args: &Map<String, Value>) -> Result<(Store, Team, String)> {
    let agent = ctx.agent.clone().ok_or_else(|| {
        Error::usage("no agent context — team tools need an agent (pass --agent)")
    })?;
    let store = Store::open(&ctx.store_path, crate::store::BUSY_TIMEOUT)?;
    let team = match s(args, "team") {
        Some(t) => team::get(store.conn(), t)?,
        None => team::team_of(store.conn(), &agent)?,
    };
    check_access(&team, ctx)?;
    Ok((store, team, agent))
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

fn done(r: Result<ToolResult>) -> ToolResult {
    r.unwrap_or_else(|e| ToolResult::from_error(&e))
}

/// `team_tasks`.
pub struct TeamTasks;

impl Tool for TeamTasks {
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
            "team":{"type":"string"},"task_id":{"type":"string","description":"id or identifier; claim without it takes the next task"},
            "subject":{"type":"string"},"description":{"type":"string"},"result":{"type":"string"},"text":{"type":"string"},
            "type":{"type":"string","enum":["note","blocker"]},"status":{"type":"string"},"query":{"type":"string"},
            "priority":{"type":"number","description":"truncated toward zero"},"blocked_by":{"type":"array"},
            "require_approval":{"type":"boolean"},"percent":{"type":"number","description":"0-100, truncated toward zero"},"path":{"type":"string"},"assignee":{"type":"string"},"dedupe_key":{"type":"string"},
            "request":{"type":"boolean"},"limit":{"type":"integer","minimum":1},"cursor":{"type":"string"}},
            "required":["action"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        done(self.run(ctx, args))
    }
}

impl TeamTasks {
    fn run(&self, ctx: &CallContext, args: &Map<String, Value>) -> Result<ToolResult> {
        let action = need(args, "action", "any")?.to_string();
        let (mut store, team, agent) = open(ctx, args)?;
        let mut board = Board::open(&mut store, team, &agent)?;
        let task_id = || need(args, "task_id", &action);
        let json_result = |v: Value| ToolResult::silent(v.to_string());
        Ok(match action.as_str() {
            "list" => {
                let limit = n(args, "limit").map_or(30, |l| l.max(1) as usize);
                let (tasks, next) =
                    board.list(s(args, "status").unwrap_or("all"), limit, s(args, "cursor"))?;
                json_result(json!({"tasks": tasks, "count": tasks.len(), "next_cursor": next}))
            }
            "get" => {
                json_result(serde_json::to_value(board.get(task_id()?)?).unwrap_or(Value::Null))
            }
            "search" => {
                let tasks = board.search(
                    need(args, "query", "search")?,
                    n(args, "limit").map_or(5, |l| l.max(1) as usize),
                )?;
                json_result(json!({"tasks": tasks, "count": tasks.len()}))
            }
            "events" => json_result(
                json!({"events": board.events(s(args, "task_id"), n(args, "limit").map_or(100, |l| l.max(1) as usize))?}),
            ),
            "create" => {
                let blocked_by: Vec<String> = args
                    .get("blocked_by")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                if let Some(a) =
                    s(args, "assignee").filter(|a| !ctx.known_agents.iter().any(|k| k == a))
                {
                    return Err(Error::not_found(format!("assignee \"{a}\" not found")));
                }
                let (t, created) = board.create(NewTask {
                    subject: need(args, "subject", "create")?.to_string(),
                    description: s(args, "description").unwrap_or_default().to_string(),
                    priority: n(args, "priority").unwrap_or(0),
                    blocked_by,
                    assignee: s(args, "assignee").map(String::from),
                    dedupe_key: s(args, "dedupe_key").map(String::from),
                    require_approval: args
                        .get("require_approval")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                    request: args
                        .get("request")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                })?;
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
            "claim" => {
                let t = match s(args, "task_id") {
                    Some(id) => board.claim(id)?,
                    None => board
                        .claim_next()?
                        .ok_or_else(|| Error::not_found("no task to claim"))?,
                };
                ToolResult::text(format!(
                    "Task {} ({}) claimed successfully. It is now in progress.",
                    t.identifier, t.id
                ))
            }
            "complete" => {
                let t = board.complete(task_id()?, need(args, "result", "complete")?)?;
                ToolResult::text(format!(
                    "Task {} completed. Dependent tasks are unblocked.",
                    t.identifier
                ))
            }
            "fail" => {
                let t = board.fail(
                    task_id()?,
                    s(args, "text").or(s(args, "result")).unwrap_or("failed"),
                )?;
                ToolResult::text(format!("Task {} failed.", t.identifier))
            }
            "cancel" => {
                let t =
                    board.cancel(task_id()?, s(args, "text").unwrap_or("Cancelled by agent"))?;
                ToolResult::text(format!(
                    "Task {} cancelled. Dependent tasks are unblocked.",
                    t.identifier
                ))
            }
            "assign" => {
                let t = board.assign(task_id()?, need(args, "assignee", "assign")?)?;
                ToolResult::text(format!(
                    "Task {} assigned to {}.",
                    t.identifier,
                    t.owner.unwrap_or_default()
                ))
            }
            "review" => ToolResult::text(format!(
                "Task {} submitted for review.",
                board.review(task_id()?)?.identifier
            )),
            "approve" => ToolResult::text(format!(
                "Task {} approved (status: completed).",
                board.approve(task_id()?)?.identifier
            )),
            "reject" => {
                let t = board.reject(task_id()?, s(args, "text").unwrap_or("Rejected by user"))?;
                ToolResult::text(match t.owner {
                    Some(o) if t.status == "in_progress" => format!(
                        "Task {} rejected and returned to {o} with feedback.",
                        t.identifier
                    ),
                    _ => format!("Task {} rejected.", t.identifier),
                })
            }
            "retry" => ToolResult::text(format!(
                "Task {} is {} again.",
                board.retry(task_id()?)?.identifier,
                "pending"
            )),
            "comment" => {
                let blocker = s(args, "type") == Some("blocker");
                let (_, note) =
                    board.comment(task_id()?, need(args, "text", "comment")?, blocker)?;
                ToolResult::text(note)
            }
            "progress" => {
                let t =
                    board.progress(task_id()?, n(args, "percent").unwrap_or(0), s(args, "text"))?;
                ToolResult::silent(format!(
                    "Progress updated: {}% {}",
                    t.progress_percent.unwrap_or(0),
                    t.progress_step.unwrap_or_default()
                ))
            }
            "attach" => {
                let t = board.attach(task_id()?, need(args, "path", "attach")?)?;
                ToolResult::text(format!(
                    "File attached to task #{} \"{}\" (id: {}).",
                    t.task_number, t.subject, t.id
                ))
            }
            "update" => {
                let blocked_by = args.get("blocked_by").and_then(Value::as_array).map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                });
                let t = board.update(
                    task_id()?,
                    Changes {
                        subject: s(args, "subject").map(String::from),
                        description: args
                            .get("description")
                            .and_then(Value::as_str)
                            .map(String::from),
                        priority: n(args, "priority"),
                        blocked_by,
                        assignee: s(args, "assignee").map(|a| Some(a.to_string())),
                    },
                )?;
                ToolResult::text(format!("Task {} updated.", t.identifier))
            }
            "ask_user" => ToolResult::text(format!(
                "Question recorded on task {}.",
                board
                    .ask_user(task_id()?, Some(need(args, "text", "ask_user")?))?
                    .identifier
            )),
            "clear_ask_user" => ToolResult::text(format!(
                "Question cleared on task {}.",
                board.ask_user(task_id()?, None)?.identifier
            )),
            other => {
                return Err(Error::usage(format!(
                    "unknown action: {other} (use list, get, search, create, claim, complete, fail, cancel, assign, review, approve, reject, retry, comment, progress, attach, update, ask_user, clear_ask_user, or events)"
                )));
            }
        })
    }
}

/// `team_message`.
pub struct TeamMessage;

impl Tool for TeamMessage {
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
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        done((|| {
            let action = need(args, "action", "any")?.to_string();
            let (store, team, agent) = open(ctx, args)?;
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
                    mailbox::send(store.conn(), &team, &agent, to, text)?;
                    ToolResult::text(format!("Message sent to {to}."))
                }
                "broadcast" => {
                    let text = s(args, "text").ok_or_else(|| {
                        Error::usage("text parameter is required for broadcast action")
                    })?;
                    mailbox::broadcast(store.conn(), &team, &agent, text)?;
                    ToolResult::text("Broadcast sent to all teammates.")
                }
                "read" => {
                    let msgs = mailbox::read(store.conn(), &team, &agent)?;
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
