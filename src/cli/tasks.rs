//! `goclaw tasks`: the team task board from the command line. Flags become a
//! [`team::actions::Action`](crate::team::actions::Action), the same the `team_tasks` tool makes
//! of an agent's JSON; the acting agent is `--as` (or GOCLAW_AGENT), the team `--team` or the
//! agent's only team. Claiming a task another worker holds is exit 6 with the holder's key; an
//! unknown task is exit 5.

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::input::text;
use super::shared::PageArgs;
use super::shared::{acting, resolve_team};
use super::{Context, Status, table};
use crate::error::{Error, Result};
use crate::ops::toolbox::{Bridge, Caller, GateOptions};
use crate::team::actions::{self, Action, Reply};
use crate::team::board::{Board, Changes, Detail, NewTask, Task};
use crate::text::printable::printable;
use crate::tools::gate::CallRequest;

// The task board.
#[derive(Debug, Args)]
pub struct TasksArgs {
    #[command(subcommand)]
    pub command: TasksCommand,
    /// The team (default: the acting agent's only team)
    #[arg(long, global = true, value_parser = super::shared::non_empty())]
    pub team: Option<String>,
    /// The acting agent (reads and `recover` need none: they look as the team's lead)
    #[arg(
        long = "as",
        global = true,
        env = super::shared::env_unless_empty("GOCLAW_AGENT"),
        value_parser = super::shared::non_empty(),
        hide_env_values = true
    )]
    pub agent: Option<String>,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum TasksCommand {
    /// Create a task (lead; members only --request tasks when the team allows)
    Create {
        /// The subject: a one-line title
        #[arg(long)]
        subject: String,
        /// What to do, in detail: text, @FILE, or - for stdin
        #[arg(long, default_value = "")]
        description: String,
        /// Higher is more urgent: listed and claimed first (negative: after the rest)
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        priority: i64,
        /// A task this one waits for (repeatable): id, identifier or number (#3)
        #[arg(long = "blocked-by")]
        blocked_by: Vec<String>,
        /// Only this member may claim it
        #[arg(long)]
        assignee: Option<String>,
        /// Return the existing task with this key instead of creating a duplicate
        #[arg(long)]
        dedupe_key: Option<String>,
        /// Start in review: the lead approves it
        #[arg(long)]
        require_approval: bool,
        /// A member's request (when member_requests is enabled)
        #[arg(long)]
        request: bool,
        /// A command the answer of a run on the task must pass (a quality gate, run in the
        /// member's workspace)
        #[arg(long, value_name = "CMD")]
        gate: Option<String>,
    },
    /// List tasks, highest priority first
    List {
        /// all | active | completed | pending | in_progress | blocked | failed | in_review |
        /// cancelled | stale. `active` is every task not ended well: neither completed nor
        /// cancelled (failed, stale, blocked and in_review count); `completed` is both of those
        #[arg(long, default_value = "all")]
        status: String,
        #[command(flatten)]
        page: PageArgs,
    },
    /// One task with comments, attachments and events
    Get {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
    },
    /// Claim a task (or --next: the most urgent one you may take; exit 5 when none)
    Claim {
        /// The task: 1, T-001 or T-001-3f9a
        #[arg(required_unless_present = "next")]
        id: Option<String>,
        /// The most urgent task you may take instead: pending or stale, unassigned or yours
        #[arg(long)]
        next: bool,
    },
    /// Complete a task you hold
    Complete {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// The result, what was done: text, @FILE, or - for stdin
        #[arg(long)]
        result: String,
    },
    /// Fail a task you hold
    Fail {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// Why it failed
        #[arg(long)]
        reason: String,
    },
    /// Cancel a task (lead)
    Cancel {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// Why it is cancelled
        #[arg(long, default_value = "Cancelled by agent")]
        reason: String,
    },
    /// Assign a pending task to a member, who holds it at once (lead)
    Assign {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// The member who gets it
        #[arg(value_name = "AGENT")]
        to: String,
    },
    /// Submit a task you hold for review
    Review {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// The result submitted with it
        #[arg(long)]
        result: Option<String>,
    },
    /// Approve a task in review (lead)
    Approve {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
    },
    /// Reject a task in review: back to its holder with the reason (lead)
    Reject {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// Why it is rejected (its result becomes `Rejected: REASON`)
        #[arg(long, default_value = "Rejected by user")]
        reason: String,
    },
    /// Put a stale, failed, cancelled, in-review or completed task back to pending (lead)
    Retry {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
    },
    /// Comment; --blocker fails the task and escalates to the lead
    Comment {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// The comment: text, @FILE, or - for stdin
        text: String,
        /// The work cannot go on: fail the task in progress and tell the lead (unless the team's
        /// blocker_escalation is off)
        #[arg(long)]
        blocker: bool,
    },
    /// Report progress on a task you hold (never decreases)
    Progress {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// Percent done, 0 to 100 (a lower value than before leaves it as it was)
        percent: i64,
        /// What is being done now
        #[arg(long)]
        step: Option<String>,
    },
    /// Attach a file path to a task
    Attach {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// The file's path, relative to the workspace (recorded as given)
        path: String,
    },
    /// Change subject, description, priority, assignee or dependencies (lead)
    Update {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// The new subject
        #[arg(long)]
        subject: Option<String>,
        /// The new description: text, @FILE, or - for stdin
        #[arg(long)]
        description: Option<String>,
        /// The new priority: higher is more urgent
        #[arg(long, allow_negative_numbers = true)]
        priority: Option<i64>,
        /// Only this member may claim it
        #[arg(long)]
        assignee: Option<String>,
        /// Replace the dependencies (repeatable); --clear-blocked-by removes them all
        #[arg(long = "blocked-by")]
        blocked_by: Vec<String>,
        /// Remove every dependency
        #[arg(long)]
        clear_blocked_by: bool,
    },
    /// Ask the user a question about a task you hold
    AskUser {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
        /// The question for the user: text, @FILE, or - for stdin
        text: String,
    },
    /// Clear the question (holder or lead)
    ClearAskUser {
        /// The task: 1, T-001 or T-001-3f9a
        id: String,
    },
    /// Full-text search over subject and description
    Search {
        /// Words to find, each as a prefix; a task must have them all
        query: String,
        #[command(flatten)]
        page: PageArgs,
    },
    /// Audit events of one task or the whole board, oldest first
    Events {
        /// The task: 1, T-001 or T-001-3f9a (default: every task of the board)
        id: Option<String>,
        #[command(flatten)]
        page: PageArgs,
    },
    /// Release claims whose run is gone and expired locks, mark stale tasks, release orphaned
    /// blocked tasks (cron-safe)
    Recover,
    /// Run one action given as the team_tasks tool's JSON (`{"action":"claim","task_id":…}`):
    /// JSON, @FILE or -
    Do {
        /// The action: JSON, @FILE, or - for stdin
        input: String,
    },
}

pub fn run(ctx: &Context, args: TasksArgs) -> Result<Status> {
    let action = match args.command {
        TasksCommand::Do { input } => {
            let agent = acting(ctx, &args.agent)?;
            return run_json(ctx, &agent, args.team.as_deref(), &input);
        }
        command => action_of(ctx, command)?,
    };
    let store = ctx.any_store()?;
    if action == Action::Recover {
        // Runs whose process died are marked first, so the claims they held are released.
        crate::agent::record::reap_abandoned(store.db())?;
    }
    // Reading the board, and recovering it, act as nobody: without --as they look as the lead
    // of the team named (or of the only team).
    let (team, agent) = match (&args.agent, needs_no_agent(&action)) {
        (None, true) => {
            let team = match &args.team {
                Some(t) => crate::team::get(store.db(), t)?,
                None => crate::team::only(store.db())?,
            };
            let lead = team.lead.clone();
            (team, lead)
        }
        _ => {
            let agent = acting(ctx, &args.agent)?;
            (resolve_team(store.db(), &args.team, &agent)?, agent)
        }
    };
    let mut board = Board::open(store.db(), team, &agent)?;
    let team_name = board.team.name.clone();
    let reply = actions::apply(&mut board, action)?;
    drop(board);
    store.release_at_exit();
    match reply {
        Reply::Claimed(None) => Err(Error::not_found(format!(
            "no task for `{agent}` to claim in team `{team_name}`"
        ))),
        reply => show(ctx, reply),
    }
}

/// Actions that change nothing a member owns: reads, and the cron-safe recovery.
fn needs_no_agent(action: &Action) -> bool {
    matches!(
        action,
        Action::List { .. }
            | Action::Get { .. }
            | Action::Search { .. }
            | Action::Events { .. }
            | Action::Recover
    )
}

/// The action the flags ask for (`do` is handled apart).
fn action_of(ctx: &Context, command: TasksCommand) -> Result<Action> {
    use TasksCommand as C;
    Ok(match command {
        c @ C::Create { .. } => create_action(ctx, c)?,
        C::List { status, page } => Action::List {
            status,
            page: page.request(),
        },
        C::Get { id } => Action::Get { task: id },
        C::Claim { id, next } => Action::Claim {
            task: if next {
                None
            } else {
                Some(id.unwrap_or_default())
            },
        },
        C::Complete { id, result } => Action::Complete {
            task: id,
            result: text(ctx, &result)?,
        },
        C::Fail { id, reason } => Action::Fail { task: id, reason },
        C::Cancel { id, reason } => Action::Cancel { task: id, reason },
        C::Assign { id, to } => {
            super::shared::check_agents(ctx, [&to])?;
            Action::Assign { task: id, to }
        }
        C::Review { id, result } => Action::Review { task: id, result },
        C::Approve { id } => Action::Approve { task: id },
        C::Reject { id, reason } => Action::Reject { task: id, reason },
        C::Retry { id } => Action::Retry { task: id },
        C::Comment {
            id,
            text: comment,
            blocker,
        } => Action::Comment {
            task: id,
            text: text(ctx, &comment)?,
            blocker,
        },
        C::Progress { id, percent, step } => Action::Progress {
            task: id,
            percent,
            step,
        },
        C::Attach { id, path } => Action::Attach { task: id, path },
        c @ C::Update { .. } => update_action(ctx, c)?,
        C::AskUser { id, text: question } => Action::AskUser {
            task: id,
            question: Some(text(ctx, &question)?),
        },
        C::ClearAskUser { id } => Action::AskUser {
            task: id,
            question: None,
        },
        C::Search { query, page } => Action::Search {
            query,
            page: page.request(),
        },
        C::Events { id, page } => Action::Events {
            task: id,
            page: page.request(),
        },
        C::Recover => Action::Recover,
        C::Do { .. } => return Err(Error::internal("`tasks do` is not a board action")),
    })
}

/// `create`: the assignee must be an agent of the config.
fn create_action(ctx: &Context, command: TasksCommand) -> Result<Action> {
    use TasksCommand as C;
    Ok(match command {
        C::Create {
            subject,
            description,
            priority,
            blocked_by,
            assignee,
            dedupe_key,
            require_approval,
            request,
            gate,
        } => {
            if let Some(a) = &assignee {
                super::shared::check_agents(ctx, [a])?;
            }
            Action::Create(NewTask {
                subject,
                description: text(ctx, &description)?,
                priority,
                blocked_by,
                assignee,
                dedupe_key,
                require_approval,
                request,
                gate,
            })
        }
        _ => return Err(Error::internal("not a create")),
    })
}

/// `update`: `--clear-blocked-by` empties the dependencies; the assignee must be an agent.
fn update_action(ctx: &Context, command: TasksCommand) -> Result<Action> {
    use TasksCommand as C;
    Ok(match command {
        C::Update {
            id,
            subject,
            description,
            priority,
            assignee,
            blocked_by,
            clear_blocked_by,
        } => {
            if let Some(a) = &assignee {
                super::shared::check_agents(ctx, [a])?;
            }
            let blocked_by = if clear_blocked_by {
                Some(Vec::new())
            } else if blocked_by.is_empty() {
                None
            } else {
                Some(blocked_by)
            };
            Action::Update {
                task: id,
                changes: Changes {
                    subject,
                    description: description.map(|d| text(ctx, &d)).transpose()?,
                    priority,
                    blocked_by,
                    assignee: assignee.map(Some),
                },
            }
        }
        _ => return Err(Error::internal("not an update")),
    })
}

/// Shows a reply: JSON, or lines for people.
fn show(ctx: &Context, reply: Reply) -> Result<Status> {
    match reply {
        Reply::Task(t) | Reply::Claimed(Some(t)) => show_task(ctx, &t)?,
        Reply::Claimed(None) => return Err(Error::not_found("no task to claim")),
        Reply::Created { task: t, created } => {
            let doc = json!({"task": t, "created": created});
            ctx.out.data(&doc, |w| {
                let verb = if created { "created" } else { "exists" };
                writeln!(w, "{verb} {} [{}] {}", t.identifier, t.status, t.subject)
            })?;
        }
        Reply::Tasks(page) => table::page(
            ctx,
            &page,
            &["TASK", "STATUS", "PRIORITY", "OWNER", "SUBJECT"],
            |t| {
                [
                    t.identifier.clone(),
                    t.status.to_string(),
                    t.priority.to_string(),
                    t.owner.clone().unwrap_or_else(|| "-".into()),
                    t.subject.clone(),
                ]
            },
        )?,
        Reply::Detail(d) => show_detail(ctx, &d)?,
        Reply::Commented { task, note } => {
            ctx.out.data(&json!({"task": task, "note": note}), |w| {
                writeln!(w, "{note}")
            })?;
        }
        Reply::Events(page) => table::page(
            ctx,
            &page,
            &["ID", "AT", "TASK", "EVENT", "BY", "DATA"],
            |e| {
                [
                    e.id.to_string(),
                    super::human::time(e.at),
                    e.identifier.clone(),
                    e.event.clone(),
                    e.actor.clone(),
                    e.data.to_string(),
                ]
            },
        )?,
        Reply::Recovered(r) => {
            ctx.out.data(&r, |w| {
                writeln!(
                    w,
                    "recovered {}, stale {}, unblocked {}",
                    r.recovered.len(),
                    r.stale.len(),
                    r.unblocked.len()
                )
            })?;
        }
    }
    Ok(Status::Ok)
}

fn show_task(ctx: &Context, t: &Task) -> Result<()> {
    ctx.out.data(t, |w| {
        writeln!(
            w,
            "{} [{}] {}{}",
            t.identifier,
            t.status,
            t.subject,
            t.owner
                .as_ref()
                .map(|o| format!(" (held by {o})"))
                .unwrap_or_default()
        )
    })
}

/// One task for people: what agents wrote is made printable (nothing moves the cursor), one
/// line where a line is expected (a subject's line break could forge an event line), and a
/// text of several lines indented under its heading.
fn show_detail(ctx: &Context, d: &Detail) -> Result<()> {
    use crate::text::printable::one_line;
    let block = |text: &str| printable(text).replace('\n', "\n    ");
    ctx.out.data(d, |w| {
        let held = d.task.owner.as_deref().map(one_line);
        let held = held.map(|o| format!(" (held by {o})")).unwrap_or_default();
        let (id, status) = (&d.task.identifier, &d.task.status);
        writeln!(w, "{id} [{status}] {}{held}", one_line(&d.task.subject))?;
        if !d.description.is_empty() {
            writeln!(w, "description:\n    {}", block(&d.description))?;
        }
        if let Some(q) = &d.ask_user {
            writeln!(w, "question for the user: {}", one_line(q))?;
        }
        if let Some(r) = &d.result {
            writeln!(w, "result:\n    {}", block(r))?;
        }
        if !d.attachments.is_empty() {
            writeln!(w, "attachments:")?;
            for path in &d.attachments {
                writeln!(w, "  {}", one_line(path))?;
            }
        }
        if !d.comments.is_empty() {
            writeln!(w, "comments:")?;
        }
        for c in &d.comments {
            let text = |key: &str| one_line(c[key].as_str().unwrap_or_default());
            let at = super::human::time(c["created_at"].as_i64().unwrap_or_default());
            let kind = match c["type"].as_str() {
                Some("blocker") => " (blocker)",
                _ => "",
            };
            writeln!(w, "  {at} {}{kind}: {}", text("author"), text("text"))?;
        }
        writeln!(w, "events:")?;
        for e in &d.events {
            let (at, actor) = (super::human::time(e.at), one_line(&e.actor));
            writeln!(w, "  {at} {} by {actor}", e.event)?;
        }
        Ok(())
    })
}

/// `tasks do`: one call of the `team_tasks` tool, through the gate like any other call (the
/// acting agent's policy and rate limit apply, and it leaves an audit row), so the command and
/// the tool never drift apart.
fn run_json(ctx: &Context, agent: &str, team: Option<&str>, input: &str) -> Result<Status> {
    let doc = super::input::Input::parse(Some(input)).read_json(ctx)?;
    let mut args = doc
        .as_object()
        .cloned()
        .ok_or_else(|| Error::usage("the input must be a JSON object with an \"action\""))?;
    if let Some(t) = team {
        args.entry("team").or_insert_with(|| t.into());
    }
    let mut store = ctx.any_store()?;
    let caller = Caller {
        agent: Some(agent),
        user: None,
    };
    let toolbox = super::shared::toolbox(ctx, &store, caller, Bridge::None, Default::default())?;
    let gate = toolbox.gate(GateOptions::default());
    let req = CallRequest {
        tool: "team_tasks".into(),
        args: Value::Object(args),
        agent: Some(agent.to_string()),
        // No channel, as every other `goclaw tasks` command: a team's channel lists are for
        // the channels agents are reached on.
        ..CallRequest::default()
    };
    let outcome = gate.call(&mut store, &req, None)?;
    let text = outcome.reply();
    if let Some(kind) = outcome.error_kind() {
        return Err(Error::new(kind, text));
    }
    let data: Value = serde_json::from_str(&text).unwrap_or_else(|_| json!({"message": text}));
    ctx.out.data(&data, |w| writeln!(w, "{text}"))?;
    Ok(Status::Ok)
}
