//! `goclaw team run` and `goclaw team work`: flags become [`TeamRunOptions`]; the dispatcher is
//! `ops::team_run`. Output: with `--events`, JSON Lines (the team run's events and every run's);
//! on a terminal the lead's answer, with the tasks on stderr; otherwise one JSON document. A team
//! run that did not complete is the error document with the report as details.

use std::sync::Arc;

use clap::Args;

use super::input::Input;
use super::run::EventRelay;
use super::{Context, Status};
use crate::agent::Cancel;
use crate::error::{Error, Result};
use crate::ops::team_run::{self, TeamRunOptions, TeamRunReport, Until};

// Run a team on a message: the lead posts tasks, members work on them in parallel, the lead
// answers
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    goclaw team run dev 'write the release notes for v2'\n  \
    goclaw team run dev --events - < request.txt | jq -c 'select(.type|startswith(\"task.\"))'\n  \
    goclaw team run dev --watch --workers 2         # work the board as tasks arrive, until Ctrl-C\n\n\
    Exit codes: 0 the lead answered and every task completed, 1 a task did not complete (they\n\
    are listed), 7 --timeout, 130 interrupted (every run stopped, its task back to pending).")]
pub struct TeamRunArgs {
    /// The team
    pub team: String,
    /// The lead's message: text, @FILE, or - for stdin (without one, the board is worked as it
    /// is and no lead turn is taken)
    pub message: Option<String>,
    /// Members' runs at once (default: the number of members)
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
    /// Stop when nothing on the board can move any more (the default)
    #[arg(long, conflicts_with = "watch")]
    pub until_empty: bool,
    /// Keep dispatching tasks as they are created, until stopped
    #[arg(long)]
    pub watch: bool,
    /// Stop everything after this long (90s, 5m, 1h30m, 2d): exit 7, tasks back to pending
    #[arg(long)]
    pub timeout: Option<String>,
    /// Print the events of the team run and of every run as JSON Lines (and nothing else)
    #[arg(long)]
    pub events: bool,
}

// Work on a team's tasks as one member, on this machine: claim the next task, run it, repeat
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    goclaw team work dev --agent w1\n  \
    goclaw team work dev --agent w1 --watch   # on a second machine, until Ctrl-C\n\n\
    Exit codes: 0 every task it ran completed, 1 one did not, 7 --timeout, 130 interrupted.")]
pub struct TeamWorkArgs {
    /// The team
    pub team: String,
    /// The member that works
    #[arg(long, value_parser = super::shared::non_empty())]
    pub agent: String,
    /// Keep waiting for tasks, until stopped (default: stop when there is nothing to claim)
    #[arg(long)]
    pub watch: bool,
    /// Stop after this long (90s, 5m, 1h30m, 2d): exit 7, the task back to pending
    #[arg(long)]
    pub timeout: Option<String>,
    /// Print the events of every run as JSON Lines (and nothing else)
    #[arg(long)]
    pub events: bool,
}

pub fn run(ctx: &Context, a: TeamRunArgs) -> Result<Status> {
    if a.workers == Some(0) {
        return Err(Error::usage("--workers must be at least 1"));
    }
    let message = match &a.message {
        None => None,
        Some(m) => {
            let text = String::from_utf8(Input::parse(Some(m)).read(ctx)?)
                .map_err(|_| Error::usage("the message is not UTF-8 text"))?;
            if text.trim().is_empty() {
                return Err(Error::usage("the message is empty"));
            }
            Some(text)
        }
    };
    let options = TeamRunOptions {
        team: a.team.clone(),
        message,
        workers: a.workers,
        until: if a.watch { Until::Watch } else { Until::Empty },
        timeout: parse_timeout(&a.timeout)?,
        only: None,
        relay: None,
        notices: None,
    };
    execute(ctx, options, a.events)
}

pub fn work(ctx: &Context, a: TeamWorkArgs) -> Result<Status> {
    super::shared::check_agents(ctx, [&a.agent])?;
    let options = TeamRunOptions {
        team: a.team.clone(),
        message: None,
        workers: Some(1),
        until: if a.watch { Until::Watch } else { Until::Empty },
        timeout: parse_timeout(&a.timeout)?,
        only: Some(a.agent.clone()),
        relay: None,
        notices: None,
    };
    execute(ctx, options, a.events)
}

fn parse_timeout(t: &Option<String>) -> Result<Option<std::time::Duration>> {
    t.as_deref().map(super::shared::parse_duration).transpose()
}

/// Runs the team; with `events`, a closed pipe (`| head -1`) stops it as Ctrl-C would, and
/// ends quietly: nobody reads what it does any more.
fn execute(ctx: &Context, mut options: TeamRunOptions, events: bool) -> Result<Status> {
    let settings = ctx.settings()?;
    let mut store = ctx.any_store()?;
    let mut notes = Vec::new();
    let scrubber = crate::ops::scrubber::build(settings, &Default::default(), &mut notes)?;
    ctx.out.notes(notes);
    let rt = crate::ops::run::runtime()?;
    let cancel = Arc::new(Cancel::default());
    super::shared::watch_signals(&rt, cancel.clone())?;
    let relay = events.then(|| EventRelay::stopping(ctx, cancel.clone()));
    if let Some(relay) = relay.clone() {
        super::reader::on_reader_gone(move || relay.gone());
    }
    options.relay = relay.clone().map(|r| r as crate::tools::gate::SharedRelay);
    let out = ctx.out.clone();
    options.notices = Some(Arc::new(move |note| out.notes(vec![note])));
    let report = team_run::run(settings, &mut store, &scrubber, options, cancel)?;
    if relay.is_some_and(|r| r.reader_gone()) {
        ctx.out.verbose(&format!(
            "team run {} stopped: the reader of the events went away (a closed pipe)",
            report.team_run_id
        ));
        return Ok(Status::Ok);
    }
    show(ctx, &report, events)
}

/// The report: nothing more after `--events`; the answer (and the tasks on stderr) on a
/// terminal; else the JSON document; an error document when the team run did not complete.
fn show(ctx: &Context, report: &TeamRunReport, events: bool) -> Result<Status> {
    if let Some(kind) = report.kind {
        let message = format!(
            "team run {} {}: {}",
            report.team_run_id,
            report.status,
            report.error.as_deref().unwrap_or("")
        );
        if events {
            ctx.out.failure_line(&message);
            return Ok(Status::Exit(kind));
        }
        let details = serde_json::to_value(report).unwrap_or_default();
        return Err(Error::new(kind, message).with_details(details));
    }
    if events {
        return Ok(Status::Ok);
    }
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) && !ctx.json_flag {
        for t in &report.tasks {
            ctx.out
                .note(&format!("{} {:<10} {}", t.identifier, t.status, t.subject));
        }
    }
    ctx.out.data(report, |w| {
        writeln!(w, "{}", report.answer.as_deref().unwrap_or(""))
    })?;
    Ok(Status::Ok)
}
