//! `goclaw runs`: agent runs for scripts: list them (children of a run, by status, agent or
//! session), show one with its children, wait for runs to end (the exit code is the run's), and
//! cancel them: the process running a run ends it cleanly (`run.cancelled`), with its children.

use std::io::Write;

use clap::{Args, Subcommand};
use serde_json::json;

use super::shared::PageArgs;
use super::{Context, Status, table};
use crate::agent::runs::{self, RunFilter, RunRow};
use crate::error::{Error, Result};
use crate::text::printable::{one_line, printable};

// Agent runs: list, show, wait for and cancel them
#[derive(Debug, Args)]
pub struct RunsArgs {
    #[command(subcommand)]
    pub command: RunsCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum RunsCommand {
    /// Runs, newest first
    List {
        /// Only the children of this run
        #[arg(long)]
        parent: Option<String>,
        /// running | completed | failed | cancelled | timed_out | denied | abandoned | limited
        #[arg(long)]
        status: Option<String>,
        /// Only this agent's runs
        #[arg(long, value_parser = super::shared::non_empty())]
        agent: Option<String>,
        /// Only the runs of this session
        #[arg(long, value_parser = super::shared::non_empty())]
        session: Option<String>,
        #[command(flatten)]
        page: PageArgs,
    },
    /// One run and its children (a tree on a terminal)
    Show {
        /// The run's id, or its last (or first) 8 or more characters
        run: String,
    },
    /// Wait until the runs end; the exit code is the one the run's command ended with (0
    /// completed, 1 failed, 8 its provider failed, 7 timed out, 130 cancelled, …)
    #[command(after_help = "Examples:\n  \
        goclaw runs wait $(goclaw run --detach 'summarize the logs' | jq -r .run_id)\n  \
        goclaw runs wait --any \"$a\" \"$b\" --timeout 10m   # a and b: run ids; exit code of the first to end")]
    Wait {
        /// The runs: each an id, or its last (or first) 8 or more characters
        #[arg(required = true)]
        runs: Vec<String>,
        /// Return when one of them ends (default: when all have)
        #[arg(long)]
        any: bool,
        /// Give up after this long (exit 7, as for a run that timed out: the lines printed
        /// tell them apart, a run still `running` or one `timed_out`)
        #[arg(long)]
        timeout: Option<String>,
    },
    /// Cancel runs: the process running each ends it cleanly, children too
    Cancel {
        /// The run's id, or its last (or first) 8 or more characters
        #[arg(required_unless_present_any = ["all", "session"])]
        run: Option<String>,
        /// Every running run
        #[arg(long)]
        all: bool,
        /// The running runs of this session
        #[arg(long, value_parser = super::shared::non_empty())]
        session: Option<String>,
    },
    /// Archive subagents that ended more than an hour ago
    Prune,
}

pub fn run(ctx: &Context, args: RunsArgs) -> Result<Status> {
    let store = ctx.any_store()?;
    let conn = store.db();
    match args.command {
        RunsCommand::List {
            parent,
            status,
            agent,
            session,
            page,
        } => {
            if let Some(s) = status.as_deref()
                && !STATUSES.contains(&s)
            {
                return Err(Error::usage(format!(
                    "unknown status `{s}` (one of: {})",
                    STATUSES.join(", ")
                )));
            }
            let filter = RunFilter {
                parent,
                status,
                agent,
                session,
                page: page.request(),
            };
            let page = runs::list(conn, &filter)?;
            table::page(
                ctx,
                &page,
                &["RUN", "STATUS", "AGENT", "SESSION", "STARTED", "LABEL"],
                |r| {
                    [
                        r.id.clone(),
                        r.status.clone(),
                        r.agent.clone(),
                        r.session.clone().unwrap_or_default(),
                        super::human::time(r.started_at),
                        printable(r.label.as_deref().unwrap_or("")),
                    ]
                },
            )?;
            Ok(Status::Ok)
        }
        RunsCommand::Show { run } => {
            let r = runs::get(conn, &run)?.ok_or_else(|| unknown(&run))?;
            let children = runs::children(conn, &r.id)?;
            let doc = json!({"run": r, "children": children});
            ctx.out.data(&doc, |w| {
                writeln!(w, "{}", line(&r))?;
                tree(w, conn, &children, 1)
            })?;
            Ok(Status::Ok)
        }
        RunsCommand::Wait {
            runs: ids,
            any,
            timeout,
        } => wait(ctx, conn, &ids, any, timeout.as_deref()),
        RunsCommand::Cancel { run, all, session } => cancel(ctx, conn, (run, all, session)),
        RunsCommand::Prune => {
            let archived = crate::subagents::archive(conn)?;
            ctx.out.data(&json!({"archived": archived}), |w| {
                writeln!(w, "archived {archived} subagent(s)")
            })?;
            Ok(Status::Ok)
        }
    }
}

/// The statuses a run can have.
const STATUSES: &[&str] = &[
    "running",
    "completed",
    "failed",
    "cancelled",
    "timed_out",
    "denied",
    "abandoned",
    "limited",
];

/// `runs cancel`: the runs named, each ended by the process running it; a subagent still
/// starting (connecting to its MCP servers) has no run yet, and is cancelled as its parent
/// would cancel it.
fn cancel(
    ctx: &Context,
    conn: crate::store::db::Db<'_>,
    (run, all, session): (Option<String>, bool, Option<String>),
) -> Result<Status> {
    let targets: Vec<RunRow> = match (run, session) {
        (Some(id), _) => match runs::get(conn, &id)? {
            Some(run) => vec![run],
            None if crate::subagents::child(conn, &id)?.is_some_and(|c| c.active()) => {
                crate::subagents::cancel(conn, &id)?;
                let doc = json!({"cancelled": [id]});
                ctx.out.data(&doc, |w| writeln!(w, "cancelled 1 run(s)"))?;
                return Ok(Status::Ok);
            }
            None => return Err(unknown(&id)),
        },
        (None, Some(key)) => runs::running_in_session(conn, &key)?,
        (None, None) if all => runs::running(conn, None)?,
        (None, None) => Vec::new(),
    };
    for r in targets
        .iter()
        .filter(|r| r.status == "running" && !r.runs_here())
    {
        ctx.out.warn(&elsewhere(r));
    }
    let cancelled: Vec<&str> = targets
        .iter()
        .filter(|r| runs::cancel(r))
        .map(|r| r.id.as_str())
        .collect();
    let doc = json!({"cancelled": cancelled});
    ctx.out.data(&doc, |w| {
        writeln!(w, "cancelled {} run(s)", cancelled.len())
    })?;
    Ok(Status::Ok)
}

fn unknown(id: &str) -> Error {
    Error::not_found(format!("no run `{id}`")).with_hint("`goclaw runs list` shows the runs")
}

/// `runs wait`: the runs as JSON Lines (or lines), then the exit code of the run waited for.
fn wait(
    ctx: &Context,
    conn: crate::store::db::Db<'_>,
    ids: &[String],
    any: bool,
    timeout: Option<&str>,
) -> Result<Status> {
    let timeout = timeout.map(super::shared::parse_duration).transpose()?;
    // Each run resolved once, to its whole id, before waiting.
    let ids: Vec<String> = ids
        .iter()
        .map(|id| Ok(runs::get(conn, id)?.ok_or_else(|| unknown(id))?.id))
        .collect::<Result<_>>()?;
    let now = runs::wait(conn, &ids, any, timeout)?;
    let rows: Vec<RunRow> = now.into_iter().flatten().collect();
    for r in &rows {
        ctx.out.record(r, || line(r))?;
    }
    let ended: Vec<&RunRow> = rows.iter().filter(|r| r.status != "running").collect();
    // The records are the data; why the exit code is not 0 goes on stderr, as a line.
    if ended.is_empty() || (!any && ended.len() < rows.len()) {
        let running: Vec<&str> = rows
            .iter()
            .filter(|r| r.status == "running")
            .map(|r| r.id.as_str())
            .collect();
        ctx.out.failure_line(&format!(
            "gave up waiting: {} still running",
            running.join(", ")
        ));
        return Ok(Status::Exit(crate::error::ErrorKind::Timeout));
    }
    // The exit code of the run waited for: with --any the one that ended, else the worst.
    let failed = if any {
        ended.first().filter(|r| r.error_kind().is_some())
    } else {
        ended.iter().find(|r| r.error_kind().is_some())
    };
    let Some(run) = failed else {
        return Ok(Status::Ok);
    };
    ctx.out.failure_line(&format!(
        "run {} {}: {}",
        run.id,
        run.status,
        one_line(run.error.as_deref().unwrap_or("no error was recorded"))
    ));
    Ok(run.error_kind().map_or(Status::Ok, Status::Exit))
}

/// Why a running run cannot be cancelled from here: it runs on another machine, or in another
/// PID namespace of this one.
fn elsewhere(r: &RunRow) -> String {
    if r.host.as_deref().is_none_or(|h| h == crate::host::name()) {
        format!(
            "run {} runs in another PID namespace (outside the command this goclaw runs in, or inside one): cancel it from there",
            r.id
        )
    } else {
        format!(
            "run {} runs on {}: cancel it there (a signal reaches this machine only)",
            r.id,
            r.host.as_deref().unwrap_or("another machine")
        )
    }
}

/// One run as a line for people; what a model chose (label) is made safe for a terminal and
/// kept on the line (a newline in it cannot forge the next run).
fn line(r: &RunRow) -> String {
    format!(
        "{}  {:<10} {:<12} {}{}",
        r.id,
        r.status,
        one_line(&r.agent),
        one_line(r.label.as_deref().unwrap_or("")),
        r.parent_run_id
            .as_deref()
            .map(|p| format!(" (child of {p})"))
            .unwrap_or_default()
    )
}

/// Children as an indented tree, their children under them.
fn tree(
    w: &mut dyn Write,
    conn: crate::store::db::Db<'_>,
    children: &[RunRow],
    depth: usize,
) -> std::io::Result<()> {
    for c in children {
        writeln!(w, "{}└ {}", "  ".repeat(depth), line(c))?;
        let grandchildren = runs::children(conn, &c.id).unwrap_or_default();
        tree(w, conn, &grandchildren, depth + 1)?;
    }
    Ok(())
}
