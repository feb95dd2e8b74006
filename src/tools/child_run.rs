//! A `goclaw run` that goclaw starts itself as a child process: a subagent (`spawn`), a quality
//! gate's reviewer, a team member working on a task. One way to start them: the same store,
//! workspace and config as the starter; values as `--flag=VALUE` (a value that starts with `-`
//! stays a value); the message as text (`--literal`, never @FILE or stdin); its own process group
//! (a Ctrl-C meant for the starter reaches the child through the starter, which cancels it); its
//! `--events` relayed line by line when the starter shows events; and a thread that reaps it and
//! reports how it ended, so a long-lived starter keeps no zombies.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};

use super::gate::SharedRelay;

/// What to start.
pub struct ChildRun<'a> {
    pub store: &'a crate::store::StoreTarget,
    pub workspace: &'a Path,
    pub config: Option<&'a Path>,
    /// Flags of `goclaw run`, each `--flag=VALUE` or `--flag` (values the caller chose).
    pub flags: Vec<String>,
    /// The message, passed as text.
    pub message: &'a str,
    /// Where its events go, line by line (it then runs with `--events`).
    pub relay: Option<SharedRelay>,
}

/// Starts the child; returns its pid. `on_exit` is called on the reaper thread once the child
/// has ended (after its last event was relayed).
pub fn start(
    c: ChildRun<'_>,
    on_exit: impl FnOnce(std::io::Result<ExitStatus>) + Send + 'static,
) -> std::io::Result<u32> {
    let mut cmd = crate::cron::goclaw_child(c.store, c.workspace, c.config)?;
    cmd.args(["--quiet", "--json", "run"]).args(&c.flags);
    if c.relay.is_some() {
        cmd.arg("--events");
    }
    cmd.arg("--literal").arg("--").arg(c.message);
    cmd.stdout(if c.relay.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stderr(Stdio::null())
    .process_group(0);
    let mut child = cmd.spawn()?;
    let pid = child.id();
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
    Ok(pid)
}
