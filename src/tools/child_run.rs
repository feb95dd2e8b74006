//! A `goclaw run` that goclaw starts itself as a child process: a subagent (`spawn`), a quality
//! gate's reviewer, a team member working on a task. One way to start them: the same store,
//! workspace and config as the starter; values as `--flag=VALUE` (a value that starts with `-`
//! stays a value); the message on its stdin (never on its command line, where `ps` shows it to
//! every user of the machine and the kernel refuses one past 128 KiB); its own process group
//! (a Ctrl-C meant for the starter reaches the child through the starter, which cancels it); its
//! `--events` relayed line by line when the starter shows events; and a thread that reaps it and
//! reports how it ended, so a long-lived starter keeps no zombies.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};

use super::gate::SharedRelay;

/// The flags of a child `goclaw run`, typed, so every starter writes them one way: each value
/// as `--flag=VALUE` (one that starts with `-` stays a value), a switch as `--flag`.
/// `cli::run`'s tests parse what [`RunFlags::args`] writes with `goclaw run`'s own definition.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunFlags {
    /// goclaw's global `--quiet` (before `run`): no notes on stderr.
    pub quiet: bool,
    pub agent: Option<String>,
    pub user: Option<String>,
    pub session: Option<String>,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub run_id: Option<String>,
    pub parent_run: Option<String>,
    pub depth: Option<u32>,
    pub label: Option<String>,
    pub team: Option<String>,
    pub task: Option<String>,
    /// As `--on-ask` takes it: `deny`, `fail`, `allow`, `wait:DUR`.
    pub on_ask: Option<String>,
    /// As `--timeout` takes it: `90s`, `10m`.
    pub timeout: Option<String>,
    pub max_iterations: Option<u32>,
    pub allow_tools: Option<Vec<String>>,
    pub subagent_limits: Option<crate::subagents::Limits>,
    /// As `--context` takes it (text, or @FILE with an absolute path).
    pub context: Option<String>,
    pub record: Option<std::path::PathBuf>,
    pub gates: Vec<String>,
    pub gate_agents: Vec<String>,
    pub gate_retries: Option<u32>,
    pub evaluator: Option<String>,
    pub max_rounds: Option<u32>,
    pub skip_gates: bool,
    pub events: bool,
    pub detach: bool,
    pub detached: bool,
    pub detach_children: bool,
    pub sent: bool,
}

impl RunFlags {
    /// The flags after `run`, in a fixed order.
    pub fn args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        let values: [(&str, Option<String>); 17] = [
            ("agent", self.agent.clone()),
            ("user", self.user.clone()),
            ("session", self.session.clone()),
            ("provider", self.provider.clone()),
            ("model", self.model.clone()),
            ("run-id", self.run_id.clone()),
            ("parent-run", self.parent_run.clone()),
            ("depth", self.depth.map(|n| n.to_string())),
            ("label", self.label.clone()),
            ("team", self.team.clone()),
            ("task", self.task.clone()),
            ("on-ask", self.on_ask.clone()),
            ("timeout", self.timeout.clone()),
            ("max-iterations", self.max_iterations.map(|n| n.to_string())),
            (
                "allow-tools",
                self.allow_tools.as_ref().map(|l| l.join(",")),
            ),
            ("context", self.context.clone()),
            (
                "subagent-limits",
                self.subagent_limits.map(|l| l.to_string()),
            ),
        ];
        for (flag, value) in values {
            if let Some(v) = value {
                args.push(format!("--{flag}={v}").into());
            }
        }
        if let Some(path) = &self.record {
            let mut arg = OsString::from("--record=");
            arg.push(path);
            args.push(arg);
        }
        args.extend(self.gates.iter().map(|c| format!("--gate={c}").into()));
        args.extend(
            self.gate_agents
                .iter()
                .map(|g| format!("--gate-agent={g}").into()),
        );
        let more: [(&str, Option<String>); 3] = [
            ("gate-retries", self.gate_retries.map(|n| n.to_string())),
            ("evaluator", self.evaluator.clone()),
            ("max-rounds", self.max_rounds.map(|n| n.to_string())),
        ];
        for (flag, value) in more {
            if let Some(v) = value {
                args.push(format!("--{flag}={v}").into());
            }
        }
        let switches = [
            ("skip-gates", self.skip_gates),
            ("events", self.events),
            ("detach", self.detach),
            ("detached", self.detached),
            ("detach-children", self.detach_children),
            ("sent", self.sent),
        ];
        args.extend(
            switches
                .into_iter()
                .filter(|(_, on)| *on)
                .map(|(flag, _)| format!("--{flag}").into()),
        );
        args
    }
}

/// `goclaw [--quiet] --json run FLAGS -- -` on the starter's store, workspace and config: the
/// message is read from stdin, which [`spawn_with_message`] writes.
pub fn run_command(
    (store, workspace, config): (&crate::store::StoreTarget, &Path, Option<&Path>),
    flags: &RunFlags,
) -> std::io::Result<std::process::Command> {
    let mut cmd = crate::cron::goclaw_child(store, workspace, config)?;
    if flags.quiet {
        cmd.arg("--quiet");
    }
    cmd.args(["--json", "run"])
        .args(flags.args())
        .args(["--", "-"]);
    Ok(cmd)
}

/// Starts `cmd` (from [`run_command`]) and hands it `message` on its stdin, then closes it.
/// Written before this returns: a child reads its message first thing, before it opens the
/// store or connects to anything, and a starter that exits next (a parent with detached
/// children) must not take the rest of the message with it (a written thread died with it, and
/// the child ran on the first 64 KiB). A child that ends without reading makes the write fail,
/// which is its own failure to report.
pub fn spawn_with_message(
    cmd: &mut std::process::Command,
    message: &str,
) -> std::io::Result<std::process::Child> {
    let mut child = cmd.stdin(Stdio::piped()).spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let _ = stdin.write_all(message.as_bytes());
    }
    Ok(child)
}

/// Reads `pipe` (a child's stdout or stderr) to its end on a thread of its own, so a child that
/// fills one pipe never blocks while the other is read.
pub fn read_in_thread(
    pipe: Option<impl std::io::Read + Send + 'static>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// Waits for `child` (its stdout and stderr piped) and collects what it printed, unless `stop`
/// says first (checked every 20 ms): it then gets SIGTERM and `None` comes back.
pub fn output_until(
    mut child: std::process::Child,
    stop: &super::StopWhen,
) -> std::io::Result<Option<std::process::Output>> {
    let (stdout, stderr) = (
        read_in_thread(child.stdout.take()),
        read_in_thread(child.stderr.take()),
    );
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if stop.check().is_some() {
            if let Ok(pid) = i32::try_from(child.id()) {
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGTERM,
                );
            }
            // Reaped by a thread of its own: nothing here waits for it any more.
            std::thread::spawn(move || child.wait());
            return Ok(None);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Ok(Some(std::process::Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }))
}

/// What to start.
pub struct ChildRun<'a> {
    pub store: &'a crate::store::StoreTarget,
    pub workspace: &'a Path,
    pub config: Option<&'a Path>,
    /// Its flags (`--quiet` and `--events` are set here).
    pub flags: RunFlags,
    /// The message (on its stdin).
    pub message: &'a str,
    /// Where its events go, line by line (it then runs with `--events`).
    pub relay: Option<SharedRelay>,
}

/// A child started: its pid, and when it started ([`crate::host::process_start`]), read before
/// anything could reap it, so a record of it names this process and no later one.
#[derive(Debug, Clone, Copy)]
pub struct Launched {
    pub pid: u32,
    pub start: Option<i64>,
}

/// Starts the child. `on_exit` is called on the reaper thread once the child has ended (after
/// its last event was relayed).
pub fn start(
    c: ChildRun<'_>,
    on_exit: impl FnOnce(std::io::Result<ExitStatus>) + Send + 'static,
) -> std::io::Result<Launched> {
    let flags = RunFlags {
        quiet: true,
        events: c.relay.is_some(),
        ..c.flags
    };
    let mut cmd = run_command((c.store, c.workspace, c.config), &flags)?;
    cmd.stdout(if c.relay.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stderr(Stdio::null())
    .process_group(0);
    let mut child = spawn_with_message(&mut cmd, c.message)?;
    let pid = child.id();
    let start = crate::host::process_start(i64::from(pid));
    let events = child.stdout.take();
    let relay = c.relay.filter(|_| events.is_some());
    if let Some(r) = &relay {
        r.stream(true);
    }
    std::thread::spawn(move || {
        if let (Some(out), Some(relay)) = (events, &relay) {
            use std::io::BufRead;
            for line in std::io::BufReader::new(out)
                .lines()
                .map_while(std::result::Result::ok)
            {
                relay.line(&line);
            }
        }
        let waited = child.wait();
        if let Some(r) = relay {
            r.stream(false);
        }
        on_exit(waited);
    });
    Ok(Launched { pid, start })
}
