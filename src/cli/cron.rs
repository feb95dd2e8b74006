//! `goclaw cron`: jobs in the store and the ticks that run them.
//!
//! `cron tick` runs every due job once and exits: put `* * * * * goclaw cron tick` in the
//! system crontab. `cron daemon` ticks in a loop for machines without cron. Overlapping ticks
//! are safe: a job is claimed by one guarded UPDATE that moves its schedule on and takes a
//! lease. A job made here captures the tool list its `--agent` has now as its ceiling. An agent
//! run job runs `goclaw run` as a child process (same config, store and workspace) with
//! `--allow-tools` set to that ceiling; a tool job goes through the gate in this process with
//! the same ceiling. `tick` exits 0 when every job it ran succeeded, 1 when one failed (so
//! crontab's mail tells you); the failure is in `cron runs`.

use std::time::Duration;

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::human::time;
use super::shared::{CallerArgs, PageArgs};
use super::{Context, Status, table};
use crate::cron::{self, MIN_EVERY_MS, NewJob, Payload, Schedule};
use crate::error::{Error, Result};
use crate::ops::tick::JobReport;
use crate::ops::toolbox::{Bridge, GateOptions};
use crate::store::now_ms;
use crate::store::page::Page;
use crate::tools::SignalFlag;

// Scheduled agent runs and tool calls
#[derive(Debug, Args)]
pub struct CronArgs {
    #[command(subcommand)]
    pub command: CronCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum CronCommand {
    /// Add a job: an agent run (--message) or a tool call (--tool) on a schedule
    #[command(after_help = "Examples:\n  \
        goclaw cron add digest --cron '0 8 * * 1-5' --tz Europe/Paris --agent writer --message 'Digest'\n  \
        goclaw cron add ping --every 5m --tool web_fetch --args '{\"url\":\"https://example.com\"}'\n  \
        goclaw cron add once --at 2026-12-01T09:00:00Z --message 'Renew the certificate' --agent ops")]
    Add(Box<AddArgs>),
    /// List jobs
    List {
        /// Only this agent's jobs
        #[arg(long, value_parser = super::shared::non_empty())]
        agent: Option<String>,
    },
    /// Remove a job (by id or name)
    Rm(JobRef),
    /// Turn a job on (due again at its next time)
    Enable(JobRef),
    /// Turn a job off
    Disable(JobRef),
    /// Runs, newest first (of one job, or all)
    Runs {
        /// The job's id or name (default: every job)
        job: Option<String>,
        /// Whose job, when names repeat across agents
        #[arg(long, value_parser = super::shared::non_empty())]
        agent: Option<String>,
        #[command(flatten)]
        page: PageArgs,
    },
    /// Run every due job once, then exit (call it from crontab every minute); SIGINT, SIGTERM
    /// or SIGHUP stop the job running (recorded as failed) and exit 130, 143 or 129
    Tick {
        /// Also run this job now, due or not
        #[arg(long)]
        force: Option<String>,
    },
    /// Tick in a loop until SIGINT, SIGTERM or SIGHUP (unless started under `nohup`), which end
    /// it with exit 0 (a service manager's stop is the daemon's normal end, not a failure); a job
    /// running then is stopped and recorded as failed
    Daemon {
        /// Time between ticks
        #[arg(long, default_value = "60s")]
        interval: String,
    },
}

#[derive(Debug, Args)]
pub struct JobRef {
    /// The job's id or name
    pub job: String,
    /// Whose job, when names repeat across agents
    #[arg(long, value_parser = super::shared::non_empty())]
    pub agent: Option<String>,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// A name, unique per agent
    pub name: String,
    /// Once, at this time (RFC 3339, or Unix milliseconds)
    #[arg(long, group = "when")]
    pub at: Option<String>,
    /// Repeatedly, this often (90s, 5m, 1h30m, 2d)
    #[arg(long, group = "when")]
    pub every: Option<String>,
    /// A 5-field cron expression
    #[arg(long, group = "when")]
    pub cron: Option<String>,
    /// The cron expression's IANA time zone [default: UTC]
    #[arg(long, requires = "cron")]
    pub tz: Option<String>,
    /// Run the agent with this message
    #[arg(long, group = "what")]
    pub message: Option<String>,
    /// Call this tool instead
    #[arg(long, group = "what")]
    pub tool: Option<String>,
    /// The tool's arguments (JSON)
    #[arg(long, requires = "tool")]
    pub args: Option<String>,
    #[command(flatten)]
    pub caller: CallerArgs,
    /// Delete an `--at` job after it ran successfully
    #[arg(long)]
    pub delete_after_run: bool,
    /// Deliver each run's result (or failure) to this channel ([channels.NAME] of config)
    #[arg(long)]
    pub deliver: Option<String>,
}

pub fn run(ctx: &Context, args: CronArgs) -> Result<Status> {
    match args.command {
        CronCommand::Add(a) => add(ctx, *a),
        CronCommand::List { agent } => {
            let store = ctx.any_store()?;
            let jobs = cron::list(store.db(), agent.as_deref())?;
            // An agent config does not know is a mistyped name (exit 5, as everywhere), unless
            // jobs of it are left from when it was there.
            if let Some(key) = agent.as_deref()
                && jobs.is_empty()
                && key != "default"
                && !ctx.settings()?.config.agents.contains_key(key)
            {
                return Err(crate::tools::config::unknown_agent(key));
            }
            table::page(
                ctx,
                &Page::whole(jobs),
                &["ID", "JOB", "AGENT", "ENABLED", "NEXT", "LAST"],
                |j| {
                    [
                        j.id.to_string(),
                        j.name.clone(),
                        j.agent.clone().unwrap_or_else(|| "-".into()),
                        if j.enabled { "yes" } else { "no" }.into(),
                        j.next_run_ms.map(time).unwrap_or_else(|| "-".into()),
                        j.last_status.clone().unwrap_or_else(|| "-".into()),
                    ]
                },
            )?;
            Ok(Status::Ok)
        }
        CronCommand::Rm(r) => {
            let store = ctx.any_store()?;
            let job = cron::find(store.db(), &r.job, r.agent.as_deref())?;
            cron::remove(store.db(), job.id)?;
            ctx.out
                .data(&json!({"removed": job.id, "name": job.name}), |w| {
                    writeln!(w, "removed job {} ({})", job.id, job.name)
                })?;
            Ok(Status::Ok)
        }
        CronCommand::Enable(r) | CronCommand::Disable(r) if r.job.is_empty() => {
            Err(Error::usage("a job id or name is required"))
        }
        CronCommand::Enable(r) => toggle(ctx, r, true),
        CronCommand::Disable(r) => toggle(ctx, r, false),
        CronCommand::Runs { job, agent, page } => {
            let store = ctx.any_store()?;
            cron::reap(store.db())?;
            let id = match job {
                Some(j) => Some(cron::find(store.db(), &j, agent.as_deref())?.id),
                None => None,
            };
            let runs = cron::runs(store.db(), id, &page.request())?;
            table::page(
                ctx,
                &runs,
                &["ID", "JOB", "STARTED", "STATUS", "ERROR"],
                |r| {
                    [
                        r.id.to_string(),
                        r.job_id.to_string(),
                        time(r.started_at),
                        r.status.clone(),
                        r.error.clone().unwrap_or_default(),
                    ]
                },
            )?;
            Ok(Status::Ok)
        }
        CronCommand::Tick { force } => tick_once(ctx, force.as_deref()),
        CronCommand::Daemon { interval } => daemon(ctx, &interval),
    }
}

/// `cron tick`: the report, or the error document of a tick that failed a job or was stopped.
fn tick_once(ctx: &Context, force: Option<&str>) -> Result<Status> {
    let signal = super::signals::watch(TICK_GRACE);
    let report = tick(ctx, force, signal.as_ref())?;
    let stopped = signal.as_ref().and_then(SignalFlag::get);
    // People get a line per job run, also when the tick failed or was stopped; JSON gets the
    // report in the error document's details then.
    let failed: Vec<&JobReport> = report.iter().filter(|r| r.failed()).collect();
    if (failed.is_empty() && stopped.is_none()) || !ctx.out.is_json() {
        ctx.out.data(&json!({"ran": report}), |w| {
            for r in &report {
                writeln!(w, "{}", report_line(r))?;
            }
            Ok(())
        })?;
    }
    if let Some(stopped) = stopped {
        let stopped_job = report.last().filter(|r| r.failed());
        let message = match stopped_job {
            Some(r) => format!(
                "stopped while job {} ({}) ran; it is recorded as failed",
                r.job, r.name
            ),
            None => "stopped before the next job started".to_string(),
        };
        return Err(Error::new(stopped.error_kind(), message).with_details(json!({"ran": report})));
    }
    if failed.is_empty() {
        return Ok(Status::Ok);
    }
    // A failure is the command's error: one error document (the report in its
    // details) and an `error:` line on stderr, which is what crontab mails.
    let lines: Vec<String> = failed.iter().map(|r| report_line(r)).collect();
    Err(Error::failed(format!(
        "{} of {} jobs failed: {}",
        failed.len(),
        report.len(),
        lines.join("; ")
    ))
    .with_details(json!({"ran": report})))
}

/// A job run's report as a line of text.
fn report_line(r: &JobReport) -> String {
    format!(
        "job {} {}: {}{}",
        r.job,
        r.name,
        r.status,
        r.error
            .as_deref()
            .map(|e| format!(" ({e})"))
            .unwrap_or_default()
    )
}

fn toggle(ctx: &Context, r: JobRef, on: bool) -> Result<Status> {
    let store = ctx.any_store()?;
    let job = cron::find(store.db(), &r.job, r.agent.as_deref())?;
    cron::set_enabled(store.db(), &job, on)?;
    let job = cron::get(store.db(), job.id)?;
    ctx.out.data(&job, |w| {
        writeln!(
            w,
            "job {} {}",
            job.id,
            if on { "enabled" } else { "disabled" }
        )
    })?;
    Ok(Status::Ok)
}

/// The schedule `--at`, `--every` or `--cron` (with `--tz`) gives, checked at `now`; the errors
/// name the flags.
fn schedule(a: &AddArgs, now: i64) -> Result<Schedule> {
    Ok(if let Some(at) = &a.at {
        // The latest time there is a calendar for: the end of the year 9999.
        const LAST_MS: i64 = 253_402_300_799_999;
        let out_of_range = || Error::usage(format!("--at {at} is past the year 9999"));
        let ms = if !at.is_empty() && at.bytes().all(|b| b.is_ascii_digit()) {
            at.parse::<i64>().map_err(|_| out_of_range())?
        } else {
            chrono::DateTime::parse_from_rfc3339(at)
                .map_err(|e| Error::usage(format!("--at {at}: {e} (use RFC 3339 or Unix ms)")))?
                .timestamp_millis()
        };
        if ms <= now {
            return Err(Error::usage(format!("--at {at} is in the past")));
        }
        if ms > LAST_MS {
            return Err(out_of_range());
        }
        Schedule::At { at_ms: ms }
    } else if let Some(every) = &a.every {
        let d = super::shared::parse_duration(every)?;
        let every_ms = i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        if every_ms < MIN_EVERY_MS {
            return Err(Error::usage(format!(
                "--every {every}: the shortest interval is {}s",
                MIN_EVERY_MS / 1000
            )));
        }
        Schedule::Every { every_ms }
    } else if let Some(expr) = &a.cron {
        let s = Schedule::Cron {
            expr: expr.trim().to_string(),
            tz: a.tz.clone().filter(|t| !t.is_empty()),
        };
        s.next_after(now).map_err(Error::usage)?;
        s
    } else {
        return Err(Error::usage("say when: --at, --every or --cron"));
    })
}

fn add(ctx: &Context, a: AddArgs) -> Result<Status> {
    let now = now_ms();
    let schedule = schedule(&a, now)?;
    let payload = match (&a.message, &a.tool) {
        (Some(m), None) if !m.trim().is_empty() => Payload::Run { message: m.clone() },
        (None, Some(t)) => {
            let args: Value = match &a.args {
                None => json!({}),
                Some(s) => super::input::Input::parse(Some(s)).read_json(ctx)?,
            };
            if !args.is_object() {
                return Err(Error::usage("--args must be a JSON object"));
            }
            Payload::Tool {
                tool: t.clone(),
                args,
            }
        }
        _ => return Err(Error::usage("say what: --message TEXT or --tool NAME")),
    };
    // The ceiling: what the job's agent may use now.
    let store = ctx.any_store()?;
    let toolbox = super::shared::toolbox(
        ctx,
        &store,
        a.caller.caller(),
        Bridge::None,
        Default::default(),
    )?;
    if let Some(channel) = &a.deliver
        && !crate::ops::toolbox::channels(ctx.settings()?)?
            .channels
            .contains_key(channel)
    {
        return Err(
            Error::not_found(format!("--deliver {channel}: no such channel in config"))
                .with_hint(format!("add [channels.{channel}] to config.toml")),
        );
    }
    let g = toolbox.gate(GateOptions::default());
    let allowed = g.allowed_tools(a.caller.agent.as_deref())?;
    if let Payload::Tool { tool, .. } = &payload
        && g.registry().get(tool).is_none()
    {
        return Err(
            Error::not_found(format!("--tool {tool}: no such tool")).with_hint("goclaw tools list")
        );
    }
    if let Payload::Tool { tool, .. } = &payload
        && !allowed.iter().any(|t| t == tool)
    {
        return Err(Error::denied(format!(
            "tool {tool} is not allowed for {}, so a job cannot use it",
            a.caller.agent.as_deref().unwrap_or("the default policy")
        )));
    }
    let job = cron::add(
        store.db(),
        &NewJob {
            name: a.name,
            agent: a.caller.agent,
            user: a.caller.user,
            session: a.caller.session,
            schedule,
            payload,
            allowed_tools: allowed,
            created_by: format!(
                "cli:{}",
                std::env::var("USER").unwrap_or_else(|_| "unknown".into())
            ),
            delete_after_run: a.delete_after_run,
            deliver: a.deliver,
        },
    )?;
    ctx.out.data(&job, |w| {
        writeln!(
            w,
            "added job {} ({}), next run {}",
            job.id,
            job.name,
            job.next_run_ms.map(time).unwrap_or_else(|| "-".into())
        )
    })?;
    Ok(Status::Ok)
}

/// How long a stopped tick has to stop its job and record it before it exits anyway: the
/// job's processes get SIGTERM, then SIGKILL after `KILL_GRACE`.
const TICK_GRACE: Duration = Duration::from_secs(crate::tools::exec::run::KILL_GRACE.as_secs() + 2);

/// Runs a tick, showing its notes.
fn tick(ctx: &Context, force: Option<&str>, stop: Option<&SignalFlag>) -> Result<Vec<JobReport>> {
    let mut store = ctx.any_store()?;
    let mut notes = Vec::new();
    let report = crate::ops::tick::tick(ctx.settings()?, &mut store, force, stop, &mut notes);
    ctx.out.notes(notes);
    report
}

/// Ticks every `interval` until SIGINT, SIGTERM or SIGHUP, which stop the job running (recorded
/// as failed) or the wait between ticks. SIGHUP is no "reload" here (the jobs are read from the
/// store at every tick; a changed config needs a restart): it stops the daemon as it stops any
/// command, so a daemon left in a terminal ends with it.
fn daemon(ctx: &Context, interval: &str) -> Result<Status> {
    let every = super::shared::parse_duration(interval)?;
    if every < Duration::from_secs(1) {
        return Err(Error::usage("--interval must be at least 1s"));
    }
    // A store the ticks cannot open is refused once, not warned about at every tick.
    ctx.any_store()?;
    let signal = super::signals::watch(TICK_GRACE);
    let stopped = || signal.as_ref().and_then(SignalFlag::get).is_some();
    loop {
        match tick(ctx, None, signal.as_ref()) {
            Ok(report) => {
                for r in &report {
                    // One JSON line per job run as it happens (a line of text on a terminal);
                    // a reader that went away ends the daemon.
                    if ctx.out.record(r, || report_line(r)).is_err() {
                        return Ok(Status::Ok);
                    }
                }
            }
            Err(e) => ctx.out.warn(&format!("tick failed: {}", e.message)),
        }
        let next = std::time::Instant::now() + every;
        while !stopped() && std::time::Instant::now() < next {
            std::thread::sleep(Duration::from_millis(50));
        }
        if stopped() {
            return Ok(Status::Ok);
        }
    }
}
