//! A stdio MCP server's process: started under goclaw's supervisor, in a process group of its
//! own, with an environment built from an allowlist and goclaw's state masked; ended with its
//! group, so whatever it started goes too.

use std::collections::BTreeMap;
use std::time::Duration;

use super::Server;
use super::client::{MAX_MCP_DEPTH, MCP_CHILD_ENV, goclaw_itself, mcp_depth};
use crate::error::{Error, Result};

/// The stdio of a server goclaw started: its pid (its process group's), its stdout and stdin,
/// and the end of what it wrote on stderr.
pub(super) type Stdio = (
    Option<i32>,
    tokio::process::ChildStdout,
    tokio::process::ChildStdin,
    StderrTail,
);

/// The last [`TAIL_BYTES`] a server wrote on its stderr, read for as long as it runs (a server
/// that writes there never blocks on it): what it said before a failed start (a missing module,
/// a bad argument) goes into the error, where it went nowhere.
#[derive(Clone, Default)]
pub(super) struct StderrTail(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

/// How much of a server's stderr is kept.
const TAIL_BYTES: usize = 2048;

impl StderrTail {
    /// Reads `stderr` to its end on the runtime, keeping the tail.
    fn follow(stderr: tokio::process::ChildStderr) -> StderrTail {
        use tokio::io::AsyncReadExt;
        let tail = StderrTail::default();
        let kept = tail.0.clone();
        tokio::spawn(async move {
            let mut stderr = stderr;
            let mut piece = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut piece).await {
                if n == 0 {
                    break;
                }
                let Ok(mut kept) = kept.lock() else { break };
                kept.extend_from_slice(&piece[..n]);
                let excess = kept.len().saturating_sub(TAIL_BYTES);
                kept.drain(..excess);
            }
        });
        tail
    }

    /// What a server that failed said last on stderr, for its error (a moment given to it to
    /// arrive), without what it was given: ` (it said on stderr: …)`, or nothing.
    pub(super) async fn said(&self, given: &super::failure::Given) -> String {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let line = {
            let Ok(kept) = self.0.lock() else {
                return String::new();
            };
            let text = String::from_utf8_lossy(&kept);
            let line = text.lines().rev().map(str::trim).find(|l| !l.is_empty());
            crate::text::printable::printable(line.unwrap_or(""))
        };
        match given.say(&line) {
            line if line.is_empty() => String::new(),
            line => format!(" (it said on stderr: {line})"),
        }
    }
}

/// What a stdio server inherits of goclaw's environment besides exec's allowlist
/// ([`crate::tools::exec::sandbox::ENV_ALLOWLIST`] and `LC_*`): the way out through a proxy,
/// and the certificates to trust.
const SERVER_ENV_ALLOWLIST: &[&str] = &[
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    "REQUESTS_CA_BUNDLE",
];

/// Starts `server`'s command under goclaw's supervisor, in a process group of its own, with
/// exec's inherited environment and [`SERVER_ENV_ALLOWLIST`] (never all of goclaw's: the
/// sealing key, providers' keys and `PGPASSWORD` stay out of a server that may be hostile),
/// then `env`, as its environment; `hidden` (goclaw's state) masked where the host allows a
/// private mount namespace. Refuses goclaw's own `mcp serve` (see [`goclaw_itself`]).
pub(super) fn spawn_stdio(
    server: &Server,
    env: &BTreeMap<String, String>,
    hidden: &[std::path::PathBuf],
) -> Result<Stdio> {
    let command = server.command.clone().unwrap_or_default();
    if let Some(why) = goclaw_itself(&command, &server.args) {
        return Err(Error::usage(format!(
            "MCP server `{}` is goclaw's own `mcp serve` {why}: refused, it would bridge itself",
            server.name
        ))
        .with_hint("give it `--db` with another store, or remove it with `goclaw mcp rm`"));
    }
    let depth = mcp_depth();
    if depth >= MAX_MCP_DEPTH {
        return Err(Error::usage(format!(
            "MCP server `{}` not started: this goclaw is an MCP server {depth} levels deep (a server that starts goclaw's `mcp serve` again?)",
            server.name
        )));
    }
    // Under goclaw's supervisor, so whatever the server starts (even with `setsid`) ends
    // with the connection.
    let goclaw = std::env::current_exe()
        .map_err(|e| Error::internal(format!("cannot find the goclaw binary: {e}")))?;
    // A command that cannot start is said as such (the supervisor would only exit 127).
    let Ok(program) = which::which(&command) else {
        return Err(Error::upstream(format!(
            "MCP server `{}`: cannot start `{command}`: not found",
            server.name
        )));
    };
    // Nor can one that lies in goclaw's state, which the server does not see.
    let inside = std::iter::once(program.as_path())
        .chain(server.args.iter().map(std::path::Path::new))
        .filter(|p| p.is_absolute())
        .map(crate::tools::protected::canonical)
        .find(|p| hidden.iter().any(|h| p.starts_with(h)));
    if let Some(path) = inside {
        return Err(Error::usage(format!(
            "MCP server `{}`: {} lies in goclaw's own state, which is hidden from servers",
            server.name,
            path.display()
        ))
        .with_hint("keep the server's files out of goclaw's data and config directories"));
    }
    // The directories above what is hidden stay where they are while the server runs (each is
    // a mount point in its namespace): renamed away, they took the masks with them, and the
    // server, started again, read the state at its new place.
    let pins = crate::tools::protected::ancestors_to_pin(hidden, &[std::path::PathBuf::from("/")]);
    let mut cmd = tokio::process::Command::new(goclaw);
    cmd.args([
        crate::tools::exec::sandbox::REEXEC_SUBCOMMAND,
        "--no-sandbox",
        "--guarded",
    ])
    .args(
        (pins.iter().map(|p| ("--pin", p)))
            .chain(hidden.iter().map(|p| ("--mask", p)))
            .flat_map(|(flag, p)| [std::ffi::OsStr::new(flag), p.as_os_str()]),
    )
    .arg("--")
    .arg(&command)
    .args(&server.args)
    .env_clear()
    .envs(crate::tools::exec::sandbox::inherited_env(
        SERVER_ENV_ALLOWLIST,
    ))
    .env(MCP_CHILD_ENV, (depth + 1).to_string())
    .envs(env)
    // Ended by `kill_group` (SIGTERM first, so the supervisor cleans up), not by a
    // SIGKILL on drop that would leave the server's own children behind.
    .kill_on_drop(false)
    .process_group(0)
    .stdin(std::process::Stdio::piped())
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped());
    let cannot = |e: &dyn std::fmt::Display| {
        Error::upstream(format!(
            "MCP server `{}`: cannot start `{command}`: {e}",
            server.name
        ))
    };
    // The child is reaped by tokio once it ends; `kill_group` ends it.
    let mut child = cmd.spawn().map_err(|e| cannot(&e))?;
    let pid = child.id().map(|p| p as i32);
    let tail = child
        .stderr
        .take()
        .map(StderrTail::follow)
        .unwrap_or_default();
    match (child.stdout.take(), child.stdin.take()) {
        (Some(stdout), Some(stdin)) => Ok((pid, stdout, stdin, tail)),
        _ => {
            kill_group(pid);
            Err(cannot(&"its standard input or output is missing"))
        }
    }
}

/// Ends a stdio server: SIGTERM to its group lets the supervisor kill every process the
/// server started, in or out of the group; SIGKILL follows for what is left after a moment.
pub(super) fn kill_group(pgid: Option<i32>) {
    use nix::sys::signal::{Signal, killpg};
    let Some(p) = pgid.filter(|p| *p > 0).map(nix::unistd::Pid::from_raw) else {
        return;
    };
    let _ = killpg(p, Signal::SIGTERM);
    // The supervisor leads the group: once it has exited (a zombie until reaped), it has
    // killed everything the server started.
    let leader_done = || {
        std::fs::read_to_string(format!("/proc/{p}/stat"))
            .ok()
            .and_then(|s| s.get(s.rfind(')')? + 2..).map(|r| r.starts_with('Z')))
            .unwrap_or(true)
    };
    for _ in 0..100 {
        if leader_done() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = killpg(p, Signal::SIGKILL);
}

/// The process group of a stdio server being connected: ended when dropped still holding it.
pub(super) struct Started(pub(super) Option<i32>);

impl Drop for Started {
    fn drop(&mut self) {
        kill_group(self.0.take());
    }
}
