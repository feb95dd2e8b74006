//! One cron tick: claims every due job (and a forced one), runs each, records how it ended.
//! A tool job goes through a gate of the job's agent in this process, under the ceiling the job
//! captured when it was made and never asking anyone; an agent-run job runs `goclaw run` as a
//! child process (same config, store and workspace) with that ceiling as `--allow-tools`, so a
//! run that hangs or crashes cannot take the tick with it. A job never ends the tick: whatever
//! happens to it is its run's record. A signal does: the job running is stopped (a tool's
//! processes as `tools exec` stops them, the child run by the same signal, then SIGKILL after
//! [`KILL_GRACE`]), recorded as failed with the signal named, its lease freed, and no further
//! job starts.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use super::Note;
use super::toolbox::{Bridge, Caller, GateOptions, Toolbox};
use crate::config::Settings;
use crate::cron::{self, Claim, Ending, Job, Payload};
use crate::error::{Error, Result};
use crate::store::{Store, now_ms};
use crate::tools::child_run::{self, RunFlags};
use crate::tools::exec::run::KILL_GRACE;
use crate::tools::gate::{CallRequest, Ceiling, OnAsk};
use crate::tools::{SignalFlag, StopWhen};

/// How long a claimed job may take before another tick may take it over.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// How one job run went: a line of the tick's report.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct JobReport {
    pub job: i64,
    pub name: String,
    /// `ok` or `failed`.
    pub status: &'static str,
    pub error: Option<String>,
    pub run_id: Option<String>,
}

impl JobReport {
    pub fn failed(&self) -> bool {
        self.status == "failed"
    }
}

/// Runs every due job once (and `force`, due or not), until `stop` is raised (the job it
/// stopped is the last report, failed); one report per job run, in the order they ran.
pub fn tick(
    settings: &Settings,
    store: &mut Store,
    force: Option<&str>,
    stop: Option<&SignalFlag>,
    notes: &mut Vec<Note>,
) -> Result<Vec<JobReport>> {
    cron::reap(store.db())?;
    let runner = cron::runner_name();
    let lease = RUN_TIMEOUT.as_millis() as i64 + 60_000;
    let mut report = Vec::new();
    let mut done = Vec::new();
    if let Some(key) = force {
        let job = cron::find(store.db(), key, None)?;
        let Some(claim) = cron::claim(store.db(), job.id, &runner, lease, true)? else {
            return Err(Error::conflict(format!(
                "job {} is running in another tick",
                job.id
            )));
        };
        report.push(run_claimed(settings, store, &claim, stop, notes)?);
        done.push(job.id);
    }
    // Each job is claimed just before it runs, so a lease never goes stale while the jobs
    // before it run.
    for id in cron::due(store.db(), now_ms())? {
        if stop.and_then(SignalFlag::get).is_some() {
            break;
        }
        if done.contains(&id) {
            continue;
        }
        if let Some(claim) = cron::claim(store.db(), id, &runner, lease, false)? {
            report.push(run_claimed(settings, store, &claim, stop, notes)?);
        }
    }
    Ok(report)
}

/// Runs a claimed job and records how it ended.
fn run_claimed(
    settings: &Settings,
    store: &mut Store,
    claim: &Claim,
    stop: Option<&SignalFlag>,
    notes: &mut Vec<Note>,
) -> Result<JobReport> {
    let job = &claim.job;
    let ran = match &job.payload {
        Payload::Tool { tool, args } => call_tool(settings, store, job, (tool, args), stop, notes),
        Payload::Run { message } => agent_run(settings, job, message, stop),
    };
    let mut end = ran.unwrap_or_else(|e| Ending {
        ok: false,
        error: Some(e.message),
        output: None,
        run_id: None,
    });
    // A job that failed once a signal came failed because of it: the record says so.
    if let Some(signal) = stop.and_then(SignalFlag::get).filter(|_| !end.ok) {
        // "SIGHUP", "SIGINT" or "SIGTERM": a signal flag holds nothing else.
        let name = signal.error_kind().meaning();
        let why = end.error.take().unwrap_or_default();
        end.error = Some(if why.contains(name) {
            why
        } else {
            format!("stopped by {name}: {why}")
        });
    }
    if let Some(channel) = &job.deliver
        && let Err(e) = deliver(settings, job, channel, &end, notes)
    {
        end.ok = false;
        let ran = end
            .error
            .take()
            .map(|e| format!("{e}; "))
            .unwrap_or_default();
        end.error = Some(format!(
            "{ran}its result was not delivered to channel {channel}: {}",
            e.message
        ));
    }
    cron::finish(store.db(), claim, &end)?;
    Ok(JobReport {
        job: job.id,
        name: job.name.clone(),
        status: if end.ok { "ok" } else { "failed" },
        error: end.error,
        run_id: end.run_id,
    })
}

/// Delivers a job run's result (or why it failed) to `channel`, scrubbed.
fn deliver(
    settings: &Settings,
    job: &Job,
    channel: &str,
    end: &Ending,
    notes: &mut Vec<Note>,
) -> Result<()> {
    let channels = super::toolbox::channels(settings)?;
    let scrubber = super::scrubber::build(settings, &Default::default(), notes)?;
    let text = match (&end.output, &end.error, end.ok) {
        (Some(out), _, true) => out.clone(),
        (_, Some(err), _) => format!("cron job {} failed: {err}", job.name),
        _ => format!("cron job {} ran", job.name),
    };
    let text = scrubber.scrub_str(&text, None);
    let topic = channels
        .channels
        .get(channel)
        .and_then(|c| c.topic.clone())
        .unwrap_or_else(|| job.name.clone());
    let record = crate::tools::message::Record {
        channel,
        topic: Some(&topic),
        text: &text,
        agent: job.agent.as_deref(),
        session: job.session.as_deref(),
        at: now_ms(),
    };
    crate::tools::message::deliver(&channels, &record, &settings.config.tools.web).map(|_| ())
}

/// A tool job: through the gate, under the job's ceiling, never asking anyone.
fn call_tool(
    settings: &Settings,
    store: &mut Store,
    job: &Job,
    (tool, args): (&str, &Value),
    stop: Option<&SignalFlag>,
    notes: &mut Vec<Note>,
) -> Result<Ending> {
    let caller = Caller {
        agent: job.agent.as_deref(),
        user: job.user.as_deref(),
    };
    let stop = StopWhen {
        deadline: None,
        signal: stop.cloned(),
        deadline_is: None,
    };
    let mut toolbox = Toolbox::open(settings, store, caller, Bridge::ToolOf(tool), stop.clone())?;
    notes.extend(toolbox.take_notes());
    let gate = toolbox.gate(GateOptions {
        ceiling: Some(Ceiling {
            tools: job.allowed_tools.clone(),
            why: format!("cron job {} (its creator's tools)", job.id),
            subagents: None,
        }),
        asker: None,
        workspace: None,
    });
    let req = CallRequest {
        tool: tool.to_string(),
        args: args.clone(),
        agent: job.agent.clone(),
        user: job.user.clone(),
        session_key: job.session.clone(),
        channel: Some("cron".into()),
        on_ask: OnAsk::Deny,
        stop,
        ..CallRequest::default()
    };
    let outcome = gate.call(store, &req, None)?;
    let output = outcome.result.as_ref().map(|r| r.for_llm.clone());
    Ok(Ending {
        ok: outcome.error_kind().is_none(),
        error: outcome
            .error_kind()
            .map(|kind| format!("{}: {}", kind.name(), outcome.reply())),
        output,
        run_id: None,
    })
}

/// An agent run job: `goclaw run` as a child, with the job's ceiling as `--allow-tools`.
fn agent_run(
    settings: &Settings,
    job: &Job,
    message: &str,
    stop: Option<&SignalFlag>,
) -> Result<Ending> {
    let config = settings
        .config_exists
        .then_some(settings.config_path.as_path());
    let flags = RunFlags {
        on_ask: Some("deny".into()),
        timeout: Some(format!("{}s", RUN_TIMEOUT.as_secs())),
        allow_tools: Some(job.allowed_tools.clone()),
        agent: job.agent.clone(),
        user: job.user.clone(),
        session: job.session.clone(),
        ..RunFlags::default()
    };
    let mut cmd = child_run::run_command(
        (&settings.store_target(), &settings.workspace, config),
        &flags,
    )
    .map_err(|e| Error::internal(format!("cannot find the goclaw binary: {e}")))?;
    let out = run_child(&mut cmd, message, stop)?;
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    // A run that failed prints the error document, with the run's outcome as its details.
    let outcome = match doc["error"]["details"] {
        Value::Object(_) => &doc["error"]["details"],
        _ => &doc,
    };
    let run_id = outcome["run_id"].as_str().map(str::to_string);
    if out.status.success() {
        return Ok(Ending {
            ok: true,
            error: None,
            output: doc["content"]
                .as_str()
                .map(str::to_string)
                .or_else(|| Some(doc.to_string())),
            run_id,
        });
    }
    let why = doc["error"]["message"]
        .as_str()
        .or(doc["error"].as_str())
        .map(|e| match outcome["status"].as_str() {
            Some(s) => format!("run ended {s}: {e}"),
            None => e.to_string(),
        })
        .or_else(|| outcome["status"].as_str().map(|s| format!("run ended {s}")))
        .unwrap_or_else(|| {
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("goclaw run failed")
                .to_string()
        });
    Ok(Ending {
        ok: false,
        error: Some(format!("exit {}: {why}", out.status.code().unwrap_or(-1))),
        output: None,
        run_id,
    })
}

/// Runs the child `goclaw run` to its end and collects what it printed. It has a process group
/// of its own and dies with the tick (SIGTERM): a signal reaches it only through the tick, once,
/// as the same signal, and SIGKILL follows after [`KILL_GRACE`].
fn run_child(
    cmd: &mut std::process::Command,
    message: &str,
    stop: Option<&SignalFlag>,
) -> Result<std::process::Output> {
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    cmd.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGTERM)
                .map_err(std::io::Error::from)
        });
    }
    let mut child = child_run::spawn_with_message(cmd, message)
        .map_err(|e| Error::internal(format!("cannot start goclaw run: {e}")))?;
    let stdout = child_run::read_in_thread(child.stdout.take());
    let stderr = child_run::read_in_thread(child.stderr.take());
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    let mut signalled: Option<Instant> = None;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Err(Error::internal(format!("cannot wait for goclaw run: {e}"))),
        }
        match (signalled, stop.and_then(SignalFlag::get)) {
            (None, Some(why)) => {
                // The same signal: the run records what stopped it (a deadline is no signal).
                let sig = why.signal().unwrap_or(nix::sys::signal::Signal::SIGTERM);
                let _ = nix::sys::signal::kill(pid, sig);
                signalled = Some(Instant::now());
            }
            (Some(at), _) if at.elapsed() > KILL_GRACE => {
                let _ = nix::sys::signal::killpg(pid, nix::sys::signal::Signal::SIGKILL);
            }
            _ => {}
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ok(std::process::Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}
