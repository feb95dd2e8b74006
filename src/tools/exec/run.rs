//! Running one command: `sh -c` (inside the sandbox plan's wrapper) with stdin closed,
//! `CI=true` and `DEBIAN_FRONTEND=noninteractive`, in a process group of its own. stdout and
//! stderr are read concurrently into buffers capped at a limit (the rest is drained, not kept).
//! On the time limit the whole group gets SIGTERM, then SIGKILL two seconds later; when the
//! command ends, whatever it left running in its group is killed too, so a forked child that
//! outlives its parent cannot hold the call open.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::go_duration;
use super::sandbox::Plan;
use crate::tools::ToolResult;

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

    /// The stream as text (§4.4): binary output is described, not shown; a cut is marked.
    fn text(&self) -> String {
        if self.bytes.contains(&0) {
            return format!("[binary output: {} bytes, not shown]", self.total);
        }
        let mut s = String::from_utf8_lossy(&self.bytes).into_owned();
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
        if self.timed_out {
            let mut r =
                ToolResult::error(format!("command timed out after {}", go_duration(timeout)));
            r.error_kind = Some(crate::error::ErrorKind::Timeout);
            return r;
        }
        let text = self.combined_text();
        match (self.code, self.signal) {
            (Some(0), _) if text.is_empty() => {
                ToolResult::silent("(command completed with no output)")
            }
            (Some(0), _) => ToolResult::silent(text),
            (Some(code), _) if text.is_empty() => ToolResult::error(format!("exit status {code}")),
            (_, Some(sig)) if text.is_empty() => {
                ToolResult::error(format!("signal: {}", signal_name(sig)))
            }
            _ => ToolResult::error(text),
        }
    }
}

fn signal_name(sig: i32) -> String {
    Signal::try_from(sig)
        .map(|s| s.as_str().trim_start_matches("SIG").to_lowercase())
        .unwrap_or_else(|_| sig.to_string())
}

/// Runs `command` in `cwd` under `plan`, for at most `timeout`, keeping `limit` bytes per stream.
pub fn run(
    command: &str,
    cwd: &Path,
    timeout: Duration,
    limit: usize,
    plan: &Plan,
) -> std::io::Result<Outcome> {
    let mut cmd: Command = plan.command(command, cwd);
    cmd.current_dir(cwd)
        .env("CI", "true")
        .env("DEBIAN_FRONTEND", "noninteractive");
    run_command(cmd, timeout, limit)
}

/// Runs a prepared command (program, arguments, directory and environment set by the caller)
/// with stdin closed, in its own process group, for at most `timeout`, keeping `limit` bytes
/// per stream.
pub fn run_command(mut cmd: Command, timeout: Duration, limit: usize) -> std::io::Result<Outcome> {
    let start = Instant::now();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd.spawn()?;
    let pgid = Pid::from_raw(child.id() as i32);
    let readers = [
        child.stdout.take().map(|s| reader(s, limit)),
        child.stderr.take().map(|s| reader(s, limit)),
    ];
    let (status, timed_out) = wait(&mut child, pgid, timeout)?;
    // Whatever the command left in its group goes with it.
    let _ = killpg(pgid, Signal::SIGKILL);
    let [out, err] = readers.map(|r| r.map(collect).unwrap_or_default());
    use std::os::unix::process::ExitStatusExt;
    Ok(Outcome {
        stdout: out,
        stderr: err,
        code: status.and_then(|s| s.code()),
        signal: status.and_then(|s| s.signal()),
        timed_out,
        duration: start.elapsed(),
    })
}

/// Waits for the child; on the time limit, SIGTERM to the group, then SIGKILL after the grace.
fn wait(
    child: &mut Child,
    pgid: Pid,
    timeout: Duration,
) -> std::io::Result<(Option<std::process::ExitStatus>, bool)> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok((Some(status), false));
        }
        if Instant::now() >= deadline {
            let _ = killpg(pgid, Signal::SIGTERM);
            let grace = Instant::now() + KILL_GRACE;
            while Instant::now() < grace {
                if let Some(status) = child.try_wait()? {
                    let _ = killpg(pgid, Signal::SIGKILL);
                    return Ok((Some(status), true));
                }
                thread::sleep(Duration::from_millis(20));
            }
            let _ = killpg(pgid, Signal::SIGKILL);
            let status = child.wait()?;
            return Ok((Some(status), true));
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
