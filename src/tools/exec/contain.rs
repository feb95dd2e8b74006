//! The command's own PID namespace, whose init is a process of the supervisor's: everything the
//! command starts is in it, whatever it does (`setsid`, double forks, a fork-and-exit chain
//! that outruns any walk of `/proc`), and the kernel kills all of it at once when that init
//! ends. The command cannot signal the supervisor, which has no pid in the namespace and is
//! in another process group, nor kill the init (an init takes no signal from inside its
//! namespace but those it handles). A root command without a sandbox keeps every capability,
//! and can undo this (ptrace the init): only a sandbox holds a hostile root command.
//!
//! Root needs no more than the namespace; another user needs a user namespace too, mapping only
//! its own uid and gid (setuid programs such as `sudo` gain nothing there). Where neither is
//! allowed (a container without `CAP_SYS_ADMIN`, user namespaces switched off), the supervisor
//! falls back to tracking what the command leaves as a subreaper, which a process that forks
//! and exits fast enough can outrun.

use std::convert::Infallible;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::time::{Duration, Instant};

use nix::mount::{MsFlags, mount};
use nix::sched::{CloneFlags, unshare};
use nix::sys::signal::{self, SaFlags, SigAction, SigHandler, SigSet, Signal};
use nix::unistd::{ForkResult, Pid};

use super::supervise::{Ended, STOP_SIGNALS, Waited, wait_nohang};

/// The namespaces the supervisor entered so far (a user one for a user other than root, a mount
/// one with private mounts).
#[derive(Debug, Default, Clone, Copy)]
pub struct Namespaces {
    user: bool,
    mount: bool,
}

impl Namespaces {
    /// Enters a mount namespace with private mounts (and a user namespace first, for a user
    /// other than root), unless already in one.
    pub fn private_mounts(&mut self) -> Result<(), String> {
        self.enter(CloneFlags::empty())
    }

    /// Enters what [`Namespaces::private_mounts`] does, plus `more`: the namespaces the calling
    /// process's next children are in (a PID one) or it is in.
    fn enter(&mut self, more: CloneFlags) -> Result<(), String> {
        let mut flags = more;
        if !self.mount {
            flags |= CloneFlags::CLONE_NEWNS;
        }
        let new_user = !self.user && !nix::unistd::geteuid().is_root();
        if new_user {
            flags |= CloneFlags::CLONE_NEWUSER;
        }
        if flags.is_empty() {
            return Ok(());
        }
        let (uid, gid) = (nix::unistd::geteuid(), nix::unistd::getegid());
        unshare(flags).map_err(|e| {
            if new_user {
                format!("user namespaces are not available ({e})")
            } else {
                format!("namespaces are not available ({e})")
            }
        })?;
        if new_user {
            let w = |f: &str, s: String| std::fs::write(f, s).map_err(|e| format!("{f}: {e}"));
            w("/proc/self/setgroups", "deny".into())?;
            w("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
            w("/proc/self/gid_map", format!("{gid} {gid} 1"))?;
            self.user = true;
        }
        if !self.mount {
            // Private, so nothing mounted here reaches the host's mounts.
            mount(
                None::<&str>,
                "/",
                None::<&str>,
                MsFlags::MS_REC | MsFlags::MS_PRIVATE,
                None::<&str>,
            )
            .map_err(|e| format!("private mounts: {e}"))?;
            self.mount = true;
        }
        Ok(())
    }
}

/// The namespace's init, started: its pid (outside), and where it reports the command's end.
pub struct Init {
    pub pid: Pid,
    report: OwnedFd,
}

/// Starts the command in a PID namespace of its own under an init of ours; `None` when the
/// namespace cannot be made (the caller then runs the command itself). `command` runs in the
/// forked process and execs the command (it never returns). The stop signals and SIGCHLD are blocked.
pub fn start(
    ns: &mut Namespaces,
    grace: Duration,
    command: impl FnOnce() -> Infallible,
) -> Result<Option<Init>, String> {
    if ns.enter(CloneFlags::CLONE_NEWPID).is_err() {
        return Ok(None);
    }
    // Before the fork: an init gets only the signals it has a handler for, and a stop sent to
    // it before it set one would be dropped.
    for s in waited_signals().iter() {
        // SAFETY: the handler does nothing (the signals are blocked and taken with sigwait).
        let _ = unsafe { signal::sigaction(s, &noting()) };
    }
    let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .map_err(|e| format!("cannot supervise the command: {e}"))?;
    // SAFETY: single-threaded (a fresh exec of goclaw that started nothing).
    match unsafe { nix::unistd::fork() } {
        Err(e) => Err(format!("cannot start the command: {e}")),
        Ok(ForkResult::Child) => {
            drop(read);
            init(write, grace, command)
        }
        Ok(ForkResult::Parent { child }) => Ok(Some(Init {
            pid: child,
            report: read,
        })),
    }
}

impl Init {
    /// Stops the command: the init passes `stop` to every process of the namespace and gives
    /// them `grace`; an init that is not done a second later is killed, and the namespace with
    /// it. Returns once the init has ended.
    pub fn stop(&self, stop: Signal, grace: Duration) {
        let _ = signal::kill(self.pid, stop);
        let until = Instant::now() + grace + Duration::from_secs(1);
        while Instant::now() < until {
            if self.reaped() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = signal::kill(self.pid, Signal::SIGKILL);
        while !self.reaped() {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Whether the init has ended (and was reaped).
    pub fn reaped(&self) -> bool {
        !matches!(
            wait_nohang(Some(self.pid)),
            Waited::StillAlive | Waited::Again
        )
    }

    /// How the command ended, as its init reported it (`None`: it did not, killed first).
    pub fn ended(self) -> Option<Ended> {
        let mut text = String::new();
        std::fs::File::from(self.report)
            .take(64)
            .read_to_string(&mut text)
            .ok()?;
        super::report::parse(&text)
    }
}

extern "C" fn noted(_: nix::libc::c_int) {}

/// The handler that does nothing, for signals taken with sigwait.
fn noting() -> SigAction {
    SigAction::new(
        SigHandler::Handler(noted),
        SaFlags::empty(),
        SigSet::empty(),
    )
}

/// SIGCHLD and the stop signals: what a supervisor and an init wait for.
pub(super) fn waited_signals() -> SigSet {
    let mut waited = SigSet::empty();
    waited.add(Signal::SIGCHLD);
    for s in STOP_SIGNALS {
        waited.add(s);
    }
    waited
}

/// In a forked command before it execs: the `waited` signals back to their default action,
/// then unblocked. A stop that came meanwhile (pending) or comes before the exec ends the
/// process, where the inherited handler, which does nothing, would have swallowed it and let
/// the command run its whole grace.
pub(super) fn unblock_as_default(waited: &SigSet) {
    for s in waited.iter() {
        // SAFETY: the default disposition; no handler runs.
        let _ = unsafe { signal::signal(s, SigHandler::SigDfl) };
    }
    let _ = waited.thread_unblock();
}

/// Pid 1 of the namespace: forks the command and reaps whatever ends in the namespace until the
/// command has ended (or, after a stop signal, until all has ended or `grace` is over); then
/// reports how the command ended and exits, and the kernel kills what is left.
fn init(report: OwnedFd, grace: Duration, command: impl FnOnce() -> Infallible) -> ! {
    // The supervisor gone (killed with its process group), this init and the namespace go too.
    let _ = nix::sys::prctl::set_pdeathsig(Signal::SIGKILL);
    // The namespace's own processes in /proc (`ps`, `pkill` and `kill $(pgrep …)` see the pids
    // they can signal); where it cannot be mounted, the host's stays.
    let _ = mount(
        Some("proc"),
        "/proc",
        Some("proc"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
        None::<&str>,
    );
    // An init gets only the signals it has a handler for: SIGCHLD and the stop signals have
    // one that does nothing (set by `start` before the fork), and stay blocked, taken with
    // sigwait.
    let waited = waited_signals();
    // SAFETY: single-threaded; the child execs the command.
    let command_pid = match unsafe { nix::unistd::fork() } {
        Err(_) => std::process::exit(127),
        Ok(ForkResult::Child) => {
            unblock_as_default(&waited);
            // A process group of its own: a stop reaches it once, from this init (a signal to
            // the caller's group would reach it a second time), and `kill 0` from the command
            // reaches no further than what it started.
            let _ = nix::unistd::setpgid(Pid::from_raw(0), Pid::from_raw(0));
            match command() {}
        }
        Ok(ForkResult::Parent { child }) => child,
    };
    let mut ended = None;
    while ended.is_none() {
        let busy = match reap(command_pid) {
            Reaped::Command(end) => {
                ended = Some(end);
                break;
            }
            Reaped::Busy => true,
            Reaped::Idle | Reaped::NoneLeft => false,
        };
        // A SIGCHLD may stand for many ends, or come while the last ones were being reaped: the
        // wait is short, and none at all while ends keep coming.
        let wait = if busy {
            Duration::ZERO
        } else {
            Duration::from_millis(50)
        };
        match next_signal(&waited, wait) {
            Some(Signal::SIGCHLD) | None => {}
            Some(stop) => {
                ended = settle(command_pid, stop, grace);
                break;
            }
        }
    }
    let _ = std::fs::File::from(report).write_all(super::report::say(ended).as_bytes());
    std::process::exit(0)
}

/// A stop signal came: every process of the namespace gets it, and they have `grace` to end.
fn settle(command: Pid, stop: Signal, grace: Duration) -> Option<Ended> {
    // -1 from an init: every process of its namespace but itself.
    let _ = signal::kill(Pid::from_raw(-1), stop);
    let until = Instant::now() + grace;
    let mut ended = None;
    while Instant::now() < until {
        match reap(command) {
            Reaped::Command(end) => ended = Some(end),
            Reaped::NoneLeft => break,
            Reaped::Busy => {}
            Reaped::Idle => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    ended
}

/// What a round of reaping found.
enum Reaped {
    /// The command ended (other ends may wait).
    Command(Ended),
    /// No process is left in the namespace.
    NoneLeft,
    /// No more ends for now.
    Idle,
    /// Ends still coming: processes that fork and exit in a loop can keep a reaper busy for as
    /// long as they like, so a round stops after a bounded number.
    Busy,
}

/// Reaps the processes of the namespace that have ended, the command first.
fn reap(command: Pid) -> Reaped {
    if let Waited::Ended(_, end) = wait_nohang(Some(command)) {
        return Reaped::Command(end);
    }
    for _ in 0..1024 {
        match wait_nohang(None) {
            Waited::Ended(pid, end) if pid == command => return Reaped::Command(end),
            Waited::Ended(..) | Waited::Again => {}
            Waited::StillAlive => return Reaped::Idle,
            Waited::NoChild => return Reaped::NoneLeft,
        }
    }
    Reaped::Busy
}

/// The next of the blocked signals `set`, waiting at most `wait` for one.
fn next_signal(set: &SigSet, wait: Duration) -> Option<Signal> {
    let timeout = nix::libc::timespec {
        tv_sec: wait.as_secs() as nix::libc::time_t,
        tv_nsec: wait.subsec_nanos() as nix::libc::c_long,
    };
    // SAFETY: the set and the timeout are valid for the call; no siginfo is asked for.
    let n = unsafe { nix::libc::sigtimedwait(set.as_ref(), std::ptr::null_mut(), &timeout) };
    Signal::try_from(n).ok()
}
