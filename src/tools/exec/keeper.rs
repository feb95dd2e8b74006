//! The keeper of a background command: `goclaw __keep-process`, which the `exec` tool starts in
//! a session of its own (see [`super::background`]). It reads what to run as JSON on stdin,
//! starts the command as a foreground `exec` would (its sandbox plan, its process group),
//! answers with the command's pid on stdout, and then, single-threaded, waits on one `poll`:
//!
//! - output (stdout and stderr share one pipe, so their order is kept) goes to the log's
//!   chunks, the last two kept;
//! - SIGTERM, SIGINT or SIGHUP (`process kill`) ends the command: SIGTERM to its group (again
//!   until its supervisor says it listens, see [`super::report`]), SIGKILL
//!   after the grace;
//! - the owner (the run or `mcp serve` that started it, watched through a pidfd) ending does
//!   the same;
//! - so does the time limit.
//!
//! When the command has ended, the keeper writes how in `status.json` (atomically) and exits.

use std::io::{Read, Write};
use std::os::fd::{AsFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{SigSet, Signal, killpg};
use nix::sys::signalfd::{SfdFlags, SignalFd};
use nix::unistd::Pid;

use super::background::{self, CHUNK, Ending, KeeperSpec, KeeperStart};
use super::report::{self, ReportPipe};
use super::run::KILL_GRACE;
use super::sandbox::Plan;

/// The hidden subcommand.
pub const SUBCOMMAND: &str = "__keep-process";
/// How long output is still read after the command ended (a descendant may hold the pipe).
const DRAIN: Duration = Duration::from_secs(1);

/// Runs the keeper; the process's exit code.
pub fn main() -> u8 {
    let mut input = Vec::new();
    let spec: Option<KeeperSpec> = std::io::stdin()
        .take(8 << 20)
        .read_to_end(&mut input)
        .ok()
        .and_then(|_| serde_json::from_slice(&input).ok());
    let Some(spec) = spec else {
        answer(&KeeperStart::Failed {
            reason: "the keeper was given no command".into(),
        });
        return 2;
    };
    match Keeper::start(&spec) {
        Ok(mut k) => {
            answer(&KeeperStart::Started { pid: k.child.id() });
            let ending = k.watch();
            write_ending(&spec.dir, &ending);
            0
        }
        Err(reason) => {
            answer(&KeeperStart::Failed { reason });
            1
        }
    }
}

/// One line to whoever started the keeper; then stdout goes to /dev/null, so nothing holds
/// their pipe.
fn answer(a: &KeeperStart) {
    let mut out = std::io::stdout().lock();
    let _ = serde_json::to_writer(&mut out, a);
    let _ = out.write_all(b"\n");
    let _ = out.flush();
    if let Ok(null) = std::fs::File::options().write(true).open("/dev/null") {
        let _ = nix::unistd::dup2_stdout(null);
    }
}

/// The status file, written whole or not at all.
fn write_ending(dir: &Path, e: &Ending) {
    let tmp = dir.join("status.json.tmp");
    use std::os::unix::fs::OpenOptionsExt;
    let written = serde_json::to_vec(e).ok().is_some_and(|text| {
        std::fs::File::options()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .custom_flags(nix::libc::O_NOFOLLOW)
            .open(&tmp)
            .and_then(|mut f| f.write_all(&text))
            .is_ok()
    });
    if written {
        let _ = std::fs::rename(&tmp, background::ending_path(dir));
    }
}

/// The log: chunk files `N.log` of [`CHUNK`] bytes; the two newest are kept.
struct Log {
    dir: PathBuf,
    number: u64,
    file: Option<std::fs::File>,
    len: u64,
}

impl Log {
    fn open(dir: &Path) -> Log {
        let mut log = Log {
            dir: dir.to_path_buf(),
            number: 0,
            file: None,
            len: 0,
        };
        log.file = log.create();
        log
    }

    fn create(&self) -> Option<std::fs::File> {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::File::options()
            .create(true)
            .append(true)
            .mode(0o600)
            .custom_flags(nix::libc::O_NOFOLLOW)
            .open(self.dir.join(format!("{}.log", self.number)))
            .ok()
    }

    fn write(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            if self.len == CHUNK {
                self.number += 1;
                self.len = 0;
                self.file = self.create();
                if let Some(old) = self.number.checked_sub(2) {
                    let _ = std::fs::remove_file(self.dir.join(format!("{old}.log")));
                }
            }
            let n = bytes.len().min((CHUNK - self.len) as usize);
            if let Some(f) = self.file.as_mut() {
                let _ = f.write_all(&bytes[..n]);
            }
            self.len += n as u64;
            bytes = &bytes[n..];
        }
    }
}

/// Why the keeper is ending the command, and when it sends SIGKILL.
struct Stopping {
    status: &'static str,
    reason: String,
    kill_at: Instant,
    /// A SIGTERM went after the supervisor said it listens (see [`super::report`]); until
    /// then it is sent again.
    heard: bool,
}

/// How often a stop is sent again until the supervisor listens.
const RESEND: Duration = Duration::from_millis(5);

struct Keeper {
    child: Child,
    pgid: Pid,
    output: Option<OwnedFd>,
    signals: SignalFd,
    owner: Option<OwnedFd>,
    deadline: Instant,
    log: Log,
    /// The supervisor's report pipe (a supervised plan's).
    report: Option<ReportPipe>,
}

impl Keeper {
    fn start(spec: &KeeperSpec) -> Result<Keeper, String> {
        let mut mask = SigSet::empty();
        for s in [
            Signal::SIGTERM,
            Signal::SIGINT,
            Signal::SIGHUP,
            Signal::SIGCHLD,
        ] {
            mask.add(s);
        }
        mask.thread_block()
            .map_err(|e| format!("cannot watch signals: {e}"))?;
        let signals = SignalFd::with_flags(&mask, SfdFlags::SFD_NONBLOCK | SfdFlags::SFD_CLOEXEC)
            .map_err(|e| format!("cannot watch signals: {e}"))?;
        let owner = match spec.owner {
            Some(pid) => Some(pidfd(pid).map_err(|_| {
                "the process that started the command has ended: not started".to_string()
            })?),
            None => None,
        };
        let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
            .map_err(|e| format!("cannot make a pipe: {e}"))?;
        nix::fcntl::fcntl(
            &read,
            nix::fcntl::FcntlArg::F_SETFL(nix::fcntl::OFlag::O_NONBLOCK),
        )
        .map_err(|e| format!("cannot make a pipe: {e}"))?;
        let plan = Plan::from(spec.plan.clone());
        let mut report = match plan.supervised() {
            true => Some(ReportPipe::new().map_err(|e| format!("cannot make a pipe: {e}"))?),
            false => None,
        };
        let fd = report.as_ref().and_then(ReportPipe::fd);
        let mut cmd = plan.reporting_command(&spec.command, &spec.cwd, fd);
        if let Some(r) = &report {
            r.pass_to(&mut cmd);
        }
        let err = write
            .try_clone()
            .map_err(|e| format!("cannot make a pipe: {e}"))?;
        cmd.stdin(Stdio::null())
            .stdout(Stdio::from(write))
            .stderr(Stdio::from(err));
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let child = cmd
            .spawn()
            .map_err(|e| format!("cannot start the command: {e}"))?;
        // The command has its ends of the pipes; only the read ends stay here.
        drop(cmd);
        if let Some(r) = &mut report {
            r.spawned();
        }
        let pgid = Pid::from_raw(child.id() as i32);
        Ok(Keeper {
            child,
            pgid,
            output: Some(read),
            signals,
            owner,
            deadline: Instant::now() + Duration::from_millis(spec.timeout_ms),
            log: Log::open(&spec.dir),
            report,
        })
    }

    /// Waits for the command to end, ending it when asked; how it ended.
    fn watch(&mut self) -> Ending {
        let mut ending: Option<Stopping> = None;
        let mut exited: Option<std::process::ExitStatus> = None;
        let mut drain_until: Option<Instant> = None;
        loop {
            if exited.is_none() {
                exited = self.child.try_wait().ok().flatten();
                if exited.is_some() {
                    let _ = killpg(self.pgid, Signal::SIGKILL);
                    drain_until = Some(Instant::now() + DRAIN);
                }
            }
            if exited.is_some()
                && (self.output.is_none() || drain_until.is_some_and(|d| Instant::now() >= d))
            {
                break;
            }
            let now = Instant::now();
            if ending.is_none() && exited.is_none() && now >= self.deadline {
                ending = Some(self.end("timed_out", "its time limit passed".into()));
            }
            if let Some(e) = &mut ending
                && exited.is_none()
            {
                if now >= e.kill_at {
                    let _ = killpg(self.pgid, Signal::SIGKILL);
                } else if !e.heard {
                    e.heard = self.listening();
                    let _ = killpg(self.pgid, Signal::SIGTERM);
                }
            }
            let resend = ending
                .as_ref()
                .filter(|e| !e.heard && exited.is_none())
                .map(|_| now + RESEND);
            let wake = [
                Some(self.deadline).filter(|_| ending.is_none()),
                ending.as_ref().map(|e| e.kill_at),
                drain_until,
                resend,
            ]
            .into_iter()
            .flatten()
            .min();
            if let Some(why) = self.wait_once(wake) {
                ending.get_or_insert_with(|| self.end("killed", why));
            }
        }
        let status = exited.map(|s| match &mut self.report {
            Some(r) => r.ended(s),
            None => report::seen(s),
        });
        Ending {
            status: ending.as_ref().map_or("exited", |e| e.status).into(),
            exit_code: status.and_then(|s| s.ok()).map(i64::from),
            signal: status.and_then(|s| s.err()).map(i64::from),
            reason: ending.map(|e| e.reason),
            ended_at: crate::store::now_ms(),
        }
    }

    /// SIGTERM to the command's group (again until the supervisor listens); SIGKILL after the
    /// grace.
    fn end(&mut self, status: &'static str, reason: String) -> Stopping {
        let heard = self.listening();
        let _ = killpg(self.pgid, Signal::SIGTERM);
        Stopping {
            status,
            reason,
            kill_at: Instant::now() + KILL_GRACE,
            heard,
        }
    }

    /// Whether a stop sent now is heard: the supervisor said it listens (or the command has
    /// none).
    fn listening(&mut self) -> bool {
        self.report.as_mut().is_none_or(ReportPipe::listening)
    }

    /// One poll: output copied to the log; a reason to end the command when a signal or the
    /// owner's end asks for it.
    fn wait_once(&mut self, wake: Option<Instant>) -> Option<String> {
        let timeout = wake.map_or(PollTimeout::NONE, |w| {
            let ms = w.saturating_duration_since(Instant::now()).as_millis() + 1;
            PollTimeout::try_from(ms.min(60_000) as i32).unwrap_or(PollTimeout::NONE)
        });
        let (output_ready, signal_ready, owner_ready) = {
            let mut fds = vec![PollFd::new(self.signals.as_fd(), PollFlags::POLLIN)];
            if let Some(o) = &self.output {
                fds.push(PollFd::new(o.as_fd(), PollFlags::POLLIN));
            }
            if let Some(o) = &self.owner {
                fds.push(PollFd::new(o.as_fd(), PollFlags::POLLIN));
            }
            if poll(&mut fds, timeout).unwrap_or(0) <= 0 {
                return None;
            }
            let ready = |i: usize| {
                fds.get(i)
                    .and_then(PollFd::revents)
                    .is_some_and(|r| !r.is_empty())
            };
            let mut i = 1;
            let out = self.output.is_some() && ready(i);
            i += usize::from(self.output.is_some());
            (out, ready(0), self.owner.is_some() && ready(i))
        };
        if output_ready {
            self.copy_output();
        }
        let mut why = None;
        if signal_ready {
            while let Ok(Some(info)) = self.signals.read_signal() {
                if info.ssi_signo != Signal::SIGCHLD as u32 {
                    why = Some("stopped by process kill".to_string());
                }
            }
        }
        if owner_ready {
            self.owner = None;
            why = why.or(Some("the run or server that started it ended".into()));
        }
        why
    }

    /// Reads what the pipe holds into the log; the pipe is dropped at its end.
    fn copy_output(&mut self) {
        let Some(fd) = &self.output else { return };
        let mut buf = [0u8; 64 * 1024];
        loop {
            match nix::unistd::read(fd, &mut buf) {
                Ok(0) => {
                    self.output = None;
                    return;
                }
                Ok(n) => self.log.write(&buf[..n]),
                Err(nix::errno::Errno::EINTR) => {}
                Err(nix::errno::Errno::EAGAIN) => return,
                Err(_) => {
                    self.output = None;
                    return;
                }
            }
        }
    }
}

/// A pidfd for `pid` (readable when it ends).
fn pidfd(pid: i32) -> std::io::Result<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { nix::libc::syscall(nix::libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the descriptor was just created and is owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as i32) })
}
