//! Running one command: `sh -c` under goclaw's supervisor (and the sandbox plan's layers, see
//! [`super::sandbox`]) with stdin closed, an environment built from an allowlist, `CI=true`
//! and `DEBIAN_FRONTEND=noninteractive`, in a process group of its own. stdout and stderr are
//! read concurrently into buffers capped at a limit (the rest is drained, not kept). On the
//! time limit, the caller's deadline or a signal ([`StopWhen`]) the whole group gets SIGTERM,
//! then SIGKILL two seconds later; the supervisor kills every process the command started,
//! including those that left the group (`setsid`, double forks), when the command ends.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::go_duration;
use super::report::ReportPipe;
use super::sandbox::Plan;
use crate::tools::{StopWhen, Stopped, ToolResult};

/// Grace between SIGTERM and SIGKILL.
pub const KILL_GRACE: Duration = Duration::from_secs(2);

/// What a run produced.
#[derive(Debug)]
pub struct Outcome {
    pub stdout: Captured,
    pub stderr: Captured,
    /// Exit code, or `None` when a signal ended it.
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// Stopped by the caller (its deadline, a signal) before the command ended.
    pub stopped: Option<Stopped>,
    pub duration: Duration,
}

/// One captured stream.
#[derive(Debug, Default)]
pub struct Captured {
    pub bytes: Vec<u8>,
    /// Bytes seen in all, kept or not.
    pub total: usize,
}

impl Captured {
    pub fn truncated(&self) -> bool {
        self.total > self.bytes.len()
    }

    /// The stream as text (§4.4): binary output is described, not shown; a cut is marked, and
    /// made at a word boundary (`text::words`).
    fn text(&self) -> String {
        if self.bytes.contains(&0) {
            return format!("[binary output: {} bytes, not shown]", self.total);
        }
        // What followed the kept bytes is gone: the last word may be a part of a secret.
        let kept = match self.truncated() {
            true => crate::text::words::last_word_end(&self.bytes).unwrap_or(self.bytes.len()),
            false => self.bytes.len(),
        };
        let mut s = String::from_utf8_lossy(&self.bytes[..kept]).into_owned();
        if self.truncated() {
            s.push_str(&format!(
                "\n[output truncated at 1MB: {} bytes in all]",
                self.total
            ));
        }
        s
    }
}

impl Outcome {
    /// stdout, then stderr under a `STDERR:` line when there was any (§4.4).
    pub fn combined_text(&self) -> String {
        let mut text = self.stdout.text();
        if self.stderr.total > 0 {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str("STDERR:\n");
            text.push_str(&self.stderr.text());
        }
        text
    }

    /// The tool result, formatted as GoClaw's exec does.
    pub fn into_result(self, timeout: Duration) -> ToolResult {
        if let Some(why) = self.stopped {
            return ToolResult::stopped(format!("command cancelled: {}", why.describe()), why);
        }
        if self.timed_out {
            let mut r =
                ToolResult::error(format!("command timed out after {}", go_duration(timeout)));
            r.error_kind = Some(crate::error::ErrorKind::Timeout);
            return r;
        }
        let text = self.combined_text();
        let mut r = match (self.code, self.signal) {
            (Some(0), _) if text.is_empty() => {
                ToolResult::silent("(command completed with no output)")
            }
            (Some(0), _) => ToolResult::silent(text),
            (Some(code), _) if text.is_empty() => ToolResult::error(format!("exit status {code}")),
            (_, Some(sig)) if text.is_empty() => {
                ToolResult::error(format!("signal: {}", signal_name(sig)))
            }
            _ => ToolResult::error(text),
        };
        r.exit = match (self.code, self.signal) {
            (Some(code), _) => Some(crate::tools::Exit::ExitCode(code)),
            (None, Some(sig)) => Some(crate::tools::Exit::ExitSignal(sig)),
            (None, None) => None,
        };
        r
    }
}

fn signal_name(sig: i32) -> String {
    Signal::try_from(sig)
        .map(|s| s.as_str().trim_start_matches("SIG").to_lowercase())
        .unwrap_or_else(|_| sig.to_string())
}

/// Runs `command` in `cwd` under `plan` with `env` added to its environment, for at most
/// `timeout`, keeping `limit` bytes per stream.
pub fn run(
    command: &str,
    cwd: &Path,
    env: &BTreeMap<String, String>,
    timeout: Duration,
    limit: usize,
    plan: &Plan,
    stop: &StopWhen,
) -> std::io::Result<Outcome> {
    if !plan.supervised() {
        let mut cmd = plan.command(command, cwd);
        cmd.envs(env);
        return run_command(cmd, timeout, limit, stop);
    }
    // The supervisor says on this pipe when a stop can no longer go unheard (see `wait`), and
    // how the command ended.
    let mut report = ReportPipe::new()?;
    let mut cmd: Command = plan.reporting_command(command, cwd, report.fd());
    cmd.envs(env);
    report.pass_to(&mut cmd);
    let spawned = start(cmd, stop);
    report.spawned();
    finish(spawned?, timeout, limit, stop, Some(&mut report))
}

/// Runs a prepared command (program, arguments, directory and environment set by the caller)
/// with stdin closed, in its own process group, for at most `timeout` (and no longer than
/// `stop` allows), keeping `limit` bytes per stream.
pub fn run_command(
    cmd: Command,
    timeout: Duration,
    limit: usize,
    stop: &StopWhen,
) -> std::io::Result<Outcome> {
    let spawned = start(cmd, stop)?;
    finish(spawned, timeout, limit, stop, None)
}

/// A command started by [`start`], or not started because the call was stopped already.
enum Started {
    Running(Child, Instant),
    Stopped(Stopped),
}

/// Starts `cmd` with stdin closed and its output piped, in its own process group; unless the
/// call is stopped already (a signal while it was set up): then nothing starts. A command
/// started now might not hear the stop: bwrap ignores signals while it builds the sandbox.
fn start(mut cmd: Command, stop: &StopWhen) -> std::io::Result<Started> {
    if let Some(why) = stop.check() {
        return Ok(Started::Stopped(why));
    }
    let start = Instant::now();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    Ok(Started::Running(cmd.spawn()?, start))
}

/// Waits for a [`start`]ed command (see [`run_command`]); `report`: the pipe its supervisor
/// reports on.
fn finish(
    started: Started,
    timeout: Duration,
    limit: usize,
    stop: &StopWhen,
    mut report: Option<&mut ReportPipe>,
) -> std::io::Result<Outcome> {
    let (mut child, start) = match started {
        Started::Running(child, start) => (child, start),
        Started::Stopped(why) => {
            return Ok(Outcome {
                stdout: Captured::default(),
                stderr: Captured::default(),
                code: None,
                signal: None,
                timed_out: false,
                stopped: Some(why),
                duration: Duration::ZERO,
            });
        }
    };
    let pgid = Pid::from_raw(child.id() as i32);
    let readers = [
        child.stdout.take().map(|s| reader(s, limit)),
        child.stderr.take().map(|s| reader(s, limit)),
    ];
    let (status, ended) = wait(&mut child, pgid, timeout, stop, report.as_deref_mut())?;
    // Whatever the command left in its group goes with it.
    let _ = killpg(pgid, Signal::SIGKILL);
    let [out, err] = readers.map(|r| r.map(collect).unwrap_or_default());
    let status = status.map(|s| match report {
        Some(r) => r.ended(s),
        None => super::report::seen(s),
    });
    Ok(Outcome {
        stdout: out,
        stderr: err,
        code: status.and_then(|s| s.ok()),
        signal: status.and_then(|s| s.err()),
        timed_out: matches!(ended, Ended::TimedOut),
        stopped: match ended {
            Ended::Stopped(why) => Some(why),
            _ => None,
        },
        duration: start.elapsed(),
    })
}

/// How the wait ended.
enum Ended {
    Exited,
    TimedOut,
    Stopped(Stopped),
}

/// Waits for the child; on the time limit or a stop, SIGTERM to the group, then SIGKILL after
/// the grace.
fn wait(
    child: &mut Child,
    pgid: Pid,
    timeout: Duration,
    stop: &StopWhen,
    mut report: Option<&mut ReportPipe>,
) -> std::io::Result<(Option<std::process::ExitStatus>, Ended)> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok((Some(status), Ended::Exited));
        }
        let ended = match stop.check() {
            Some(why) => Some(Ended::Stopped(why)),
            None if Instant::now() >= deadline => Some(Ended::TimedOut),
            None => None,
        };
        if let Some(ended) = ended {
            let grace = Instant::now() + KILL_GRACE;
            // Until one SIGTERM is sent after the supervisor said it listens: one sent before
            // may have gone unheard, and it takes a stop once (later ones wait, blocked).
            let mut listening = false;
            while !listening {
                listening = report.as_deref_mut().is_none_or(ReportPipe::listening);
                let _ = killpg(pgid, Signal::SIGTERM);
                if child.try_wait()?.is_some() || Instant::now() >= grace {
                    break;
                }
                if !listening {
                    thread::sleep(Duration::from_millis(5));
                }
            }
            while Instant::now() < grace {
                if let Some(status) = child.try_wait()? {
                    let _ = killpg(pgid, Signal::SIGKILL);
                    return Ok((Some(status), ended));
                }
                thread::sleep(Duration::from_millis(10));
            }
            let _ = killpg(pgid, Signal::SIGKILL);
            let status = child.wait()?;
            return Ok((Some(status), ended));
        }
        thread::sleep(
            Duration::from_millis(5)
                .min(deadline.saturating_duration_since(Instant::now()))
                .max(Duration::from_millis(1)),
        );
    }
}

type Shared = std::sync::Arc<std::sync::Mutex<Captured>>;

/// Reads a stream to its end on a thread, keeping the first `limit` bytes in a shared buffer.
fn reader(mut stream: impl Read + Send + 'static, limit: usize) -> (Shared, mpsc::Receiver<()>) {
    let shared: Shared = Default::default();
    let (tx, rx) = mpsc::channel();
    let buffer = shared.clone();
    thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if let Ok(mut cap) = buffer.lock() {
                        cap.total += n;
                        let room = limit.saturating_sub(cap.bytes.len());
                        cap.bytes.extend_from_slice(&buf[..n.min(room)]);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        let _ = tx.send(());
    });
    (shared, rx)
}

/// The capture, waiting at most a moment for a stream that a grandchild which escaped the
/// process group still holds open; what was read by then is kept.
fn collect((shared, done): (Shared, mpsc::Receiver<()>)) -> Captured {
    let _ = done.recv_timeout(Duration::from_secs(2));
    shared
        .lock()
        .map(|mut c| std::mem::take(&mut *c))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call stopped before its command started starts nothing: its work is not begun.
    #[test]
    fn a_call_stopped_before_it_starts_runs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("ran");
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!("touch {}", marker.display()));
        let signal = crate::tools::SignalFlag::default();
        signal.raise(Stopped::HungUp);
        let stop = StopWhen {
            deadline: None,
            signal: Some(signal),
            deadline_is: None,
        };
        let outcome = run_command(cmd, Duration::from_secs(5), 1024, &stop).unwrap();
        assert_eq!(outcome.stopped, Some(Stopped::HungUp));
        assert!(!marker.exists());
        let result = outcome.into_result(Duration::from_secs(5));
        assert_eq!(result.for_llm, "command cancelled: hung up (SIGHUP)");
        assert_eq!(result.error_kind, Some(crate::error::ErrorKind::HungUp));
    }
}
