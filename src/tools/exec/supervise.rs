//! The exec sandbox, child side: `goclaw __sandbox-exec`, which goclaw spawns (inside bubblewrap
//! for `bwrap`) for every command. In this fresh, single-threaded process it:
//!
//! 1. dies with the goclaw that started it (`PR_SET_PDEATHSIG`, with `--parent`) and adopts
//!    every process the command leaves behind (`PR_SET_CHILD_SUBREAPER`), so `setsid` and double
//!    forks cannot escape;
//! 2. masks goclaw's state (`--mask`) in a private mount namespace: an empty read-only tmpfs
//!    over a directory, `/dev/null` over a file; each directory between a writable path and a
//!    mask (`--pin`) bound to itself first, so the command cannot rename it;
//! 3. forks the command, which restricts itself with Landlock (read-only everywhere, the `--rw`
//!    paths writable, no TCP without `--net`, Unix-socket connects only under the first `--rw`
//!    path (the workspace) on kernels with Landlock ABI 9, signals and abstract sockets scoped
//!    to the sandbox (ABI 6), so it cannot signal this supervisor, which stays outside its
//!    domain), then installs a seccomp filter: no `socket()` for the internet families
//!    without `--net` (Landlock does not cover UDP), no Unix sockets where Landlock cannot
//!    confine them, no io_uring (it would bypass both); and takes every capability from it for
//!    good (a command run by root would keep them);
//! 4. waits for it, then kills and reaps every descendant still alive, and exits as it did.
//!
//! Steps 3 and 4 happen in a PID namespace of the command's own where namespaces are allowed
//! ([`super::contain`]): its init, a fork of this supervisor, reaps there and passes the stop
//! signals on, and the kernel kills all the command left when that init exits. Elsewhere the
//! supervisor tracks the command's descendants as a subreaper.
//!
//! A SIGTERM, SIGINT or SIGHUP (goclaw's time limit, goclaw's death) ends the command and every
//! descendant at once. Stdio MCP servers run under it too (`--no-sandbox`, no `--parent`), so a
//! server's own children go with it when goclaw ends the connection. The supervisor waits with `sigwait` (SIGCHLD and those three), so it
//! neither polls nor misses a signal that arrives early. `--no-sandbox` (`sandbox = "none"`) keeps steps 1 and 4 only.

use std::path::PathBuf;
use std::time::Duration;

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, Ruleset, RulesetAttr, RulesetCreatedAttr,
    RulesetStatus, Scope, path_beneath_rules,
};
use nix::errno::Errno;
use nix::sys::signal::{self, SigHandler, SigSet, Signal};
use nix::unistd::{ForkResult, Pid};

use super::contain::Namespaces;
use super::masks::{MaskError, mask};
use super::report::Reporter;

/// What the supervisor is asked to do.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub writable: Vec<PathBuf>,
    /// Directories bound to themselves before the masks: mount points cannot be renamed.
    pub pinned: Vec<PathBuf>,
    pub masked: Vec<PathBuf>,
    pub network: bool,
    /// Supervise only (`sandbox = "none"`, an MCP server): no Landlock or seccomp, and the
    /// masks (exec gives none then) only where the host allows them.
    pub no_sandbox: bool,
    /// Fork first and supervise from the child, whose parent (this process) is what the spawner
    /// may SIGKILL (an MCP transport dropping its child): the child then gets SIGTERM from the
    /// kernel and still cleans up.
    pub guarded: bool,
    /// The goclaw that spawned this supervisor directly (not through bubblewrap, which has
    /// `--die-with-parent`): if it is gone already, run nothing.
    pub parent: Option<i32>,
    /// After a stop signal: how long the command has to end (it got the signal too) before
    /// everything it started is killed. Shorter than the spawner's own grace, so the
    /// supervisor, not a SIGKILL of its group, is what ends them.
    pub grace: Duration,
    /// The spawner's report pipe ([`super::report`]): a byte once the stop signals are waited
    /// for, then how the command ended.
    pub report_fd: Option<i32>,
    pub argv: Vec<String>,
}

/// The signals that stop a command (its caller's SIGTERM or the time limit's, a terminal's
/// SIGINT or SIGHUP): the supervisor waits for them, and bwrap is started ignoring them.
pub const STOP_SIGNALS: [Signal; 3] = [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP];

/// Runs the command under the supervisor; returns only on failure, with the reason. On success
/// the process exits with the command's status (or dies by its signal).
pub fn supervise(o: &Options) -> String {
    // The goclaw that started a guarded supervisor (an MCP server's).
    let spawner = o.guarded.then(nix::unistd::getppid);
    if o.guarded
        && let Err(e) = guard()
    {
        return e;
    }
    // Dies with the goclaw that spawned it directly (bubblewrap has --die-with-parent; an MCP
    // server outlives the thread that started it, so it is ended by its connection instead).
    if let Some(parent) = o.parent {
        let _ = nix::sys::prctl::set_pdeathsig(Signal::SIGTERM);
        if nix::unistd::getppid() != Pid::from_raw(parent) {
            return "goclaw ended before the command started".into();
        }
    }
    if let Err(e) = nix::sys::prctl::set_child_subreaper(true) {
        return format!("cannot supervise the command: {e}");
    }
    let Some((program, args)) = o.argv.split_first() else {
        return "no command to run".into();
    };
    let abi = super::sandbox::landlock_abi();
    let mut ns = Namespaces::default();
    // Supervised only (an MCP server), the masks given are laid where the host allows them (a
    // private mount namespace: root, or user namespaces), and the command runs without them
    // where it does not; any other failure to lay them runs nothing.
    match mask(&mut ns, &o.pinned, &o.masked) {
        Ok(()) => {}
        Err(MaskError::Unavailable(_)) if o.no_sandbox => {}
        Err(e) => {
            return format!(
                "cannot hide goclaw's state from the command: {}",
                e.message()
            );
        }
    }
    // The supervisor waits for these with sigwait: blocked before the fork, so none is lost.
    // Under bwrap it starts with the stop signals ignored (see `sandbox::Plan::command`): an
    // ignored signal is dropped, not waited for, so they are restored first.
    for s in STOP_SIGNALS {
        // SAFETY: the default disposition; no handler runs.
        let _ = unsafe { signal::signal(s, SigHandler::SigDfl) };
    }
    let waited = super::contain::waited_signals();
    if let Err(e) = waited.thread_block() {
        return format!("cannot supervise the command: {e}");
    }
    // An MCP server ends with its goclaw however goclaw ends; now, with the signals blocked.
    if let Some(goclaw) = spawner {
        crate::host::signal_me_when_gone(goclaw.as_raw(), Signal::SIGTERM);
    }
    let report = o.report_fd.and_then(Reporter::take);
    if let Some(r) = &report {
        r.ready();
    }
    match super::contain::start(&mut ns, o.grace, || -> std::convert::Infallible {
        exec_command(o, program, args, abi)
    }) {
        Ok(Some(init)) => supervise_init(&waited, init, o.grace, report.as_ref()),
        Ok(None) => {}
        Err(e) => return e,
    }
    // No PID namespace here: the command is tracked as this subreaper's descendants.
    // SAFETY: this process is single-threaded (a fresh exec of goclaw that started nothing), so
    // the child may run any code.
    let child = match unsafe { nix::unistd::fork() } {
        Err(e) => return format!("cannot start the command: {e}"),
        Ok(ForkResult::Child) => {
            super::contain::unblock_as_default(&waited);
            exec_command(o, program, args, abi)
        }
        Ok(ForkResult::Parent { child }) => child,
    };
    // Until the command ends (SIGCHLD, then reaped) or a stop signal arrives.
    let mut status = reap(child);
    while status.is_none() {
        match waited.wait() {
            Ok(Signal::SIGCHLD) => status = reap(child),
            Ok(stop) => {
                status = settle(child, stop, o.grace);
                break;
            }
            Err(_) => break,
        }
    }
    let reaped = kill_descendants(child);
    end_as(status.or(reaped), report.as_ref())
}

/// Forks; the parent stays as the guard, which the spawner may SIGKILL, and ends as the child
/// does; the child returns, to supervise.
fn guard() -> Result<(), String> {
    let guard = nix::unistd::getpid();
    // SAFETY: single-threaded (a fresh exec of goclaw that started nothing).
    match unsafe { nix::unistd::fork() } {
        Err(e) => Err(format!("cannot supervise the command: {e}")),
        Ok(ForkResult::Parent { child }) => loop {
            match wait_status(Some(child), 0) {
                Waited::Ended(_, ended) => end_as(Some(ended), None),
                Waited::Again | Waited::StillAlive => {}
                Waited::NoChild => std::process::exit(1),
            }
        },
        Ok(ForkResult::Child) => {
            // Out of the guard's process group, so a signal to that group ends the guard and
            // reaches this supervisor only as its parent's death, after which it cleans up
            // undisturbed.
            let _ = nix::unistd::setpgid(Pid::from_raw(0), Pid::from_raw(0));
            let _ = nix::sys::prctl::set_pdeathsig(Signal::SIGTERM);
            if nix::unistd::getppid() != guard {
                std::process::exit(1);
            }
            Ok(())
        }
    }
}

/// The command runs in its own PID namespace under `init`: until it ends or a stop signal
/// comes (passed on to every process of the namespace); then this process ends as it did.
fn supervise_init(
    waited: &SigSet,
    init: super::contain::Init,
    grace: Duration,
    report: Option<&Reporter>,
) -> ! {
    if !init.reaped() {
        loop {
            match waited.wait() {
                Ok(Signal::SIGCHLD) if init.reaped() => break,
                Ok(Signal::SIGCHLD) => {}
                Ok(stop) => {
                    init.stop(stop, grace);
                    break;
                }
                Err(_) => {
                    init.stop(Signal::SIGTERM, grace);
                    break;
                }
            }
        }
    }
    end_as(init.ended(), report)
}

/// Ends as the command did: its exit code, or its signal (SIGTERM when its end is unknown, as
/// when it was killed before it could be reaped); says which on `report` first.
fn end_as(ended: Option<Ended>, report: Option<&Reporter>) -> ! {
    if let Some(r) = report {
        r.ended(Some(ended.unwrap_or(Err(Signal::SIGTERM as i32))));
    }
    match ended {
        Some(Ok(code)) => std::process::exit(code),
        Some(Err(sig)) => die_by(sig),
        None => die_by(Signal::SIGTERM as i32),
    }
}

/// How the command ended: its exit code, or the number of the signal that killed it (a
/// real-time one too).
pub type Ended = Result<i32, i32>;

/// Every signal ignored in this process back to its default, so the command starts as any
/// program does (an ignored signal stays ignored across exec): the supervisor inherits what
/// its caller ignored, and glibc's `posix_spawn` ignores its own two (32 and 33, which glibc's
/// `sigaction` refuses to touch, hence the system call).
fn default_dispositions() {
    use nix::libc;
    /// The kernel's `struct sigaction` (x86_64 and aarch64 alike); all zero is SIG_DFL.
    #[repr(C)]
    #[derive(Default)]
    struct KernelAction {
        handler: usize,
        flags: libc::c_ulong,
        restorer: usize,
        mask: u64,
    }
    let default = KernelAction::default();
    for sig in 1..=64 {
        let mut now = KernelAction::default();
        // SAFETY: rt_sigaction with valid structs of the kernel's layout and its mask size (8
        // bytes); SIG_DFL installs no handler.
        unsafe {
            let read = libc::syscall(
                libc::SYS_rt_sigaction,
                sig,
                std::ptr::null::<KernelAction>(),
                &mut now as *mut KernelAction,
                8usize,
            );
            if read == 0 && now.handler == libc::SIG_IGN {
                libc::syscall(
                    libc::SYS_rt_sigaction,
                    sig,
                    &default as *const KernelAction,
                    std::ptr::null_mut::<KernelAction>(),
                    8usize,
                );
            }
        }
    }
}

/// The command's side of the fork: Landlock, then seccomp, then the command itself.
fn exec_command(o: &Options, program: &str, args: &[String], abi: i64) -> ! {
    default_dispositions();
    // Landlock in the command only, not in the supervisor: with signals scoped to the
    // command's domain, the command cannot kill the supervisor (which would leave what
    // it started behind, unreaped by anyone who kills it).
    if !o.no_sandbox
        && let Err(e) = restrict(&o.writable, o.network, abi)
    {
        eprintln!("goclaw sandbox: {e}");
        std::process::exit(126);
    }
    if !o.no_sandbox
        && let Err(e) = seccomp(!o.network, abi < 9)
    {
        eprintln!("goclaw sandbox: cannot install the seccomp filter: {e}");
        std::process::exit(126);
    }
    if !o.no_sandbox
        && let Err(e) = drop_capabilities()
    {
        eprintln!("goclaw sandbox: cannot drop the command's capabilities: {e}");
        std::process::exit(126);
    }
    let err =
        std::os::unix::process::CommandExt::exec(std::process::Command::new(program).args(args));
    eprintln!("goclaw sandbox: cannot run {program}: {err}");
    std::process::exit(127);
}

/// Takes every capability from the command for good. A command run by root keeps them
/// otherwise, and with `CAP_SYS_ADMIN` `open_tree` clones a mount without the masks on it
/// (Landlock does not see that), besides loading modules or making device nodes. Emptied: the
/// bounding and ambient sets; locked: root's privileges at exec (securebits); then the
/// command's own sets. The first steps need `CAP_SETPCAP` and are skipped without it (a user
/// that is not root has no capabilities to lose); the last one cannot fail for want of
/// privilege, and its failure stops the command.
fn drop_capabilities() -> Result<(), String> {
    use nix::libc;
    let last: libc::c_ulong = std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(63);
    // SECBIT_NOROOT, NO_SETUID_FIXUP and NO_CAP_AMBIENT_RAISE, each with its lock, and
    // KEEP_CAPS_LOCKED.
    const SECUREBITS: libc::c_ulong = 0x1 | 0x2 | 0x4 | 0x8 | 0x20 | 0x40 | 0x80;
    // SAFETY: prctl with integer arguments only; a failure (EPERM without CAP_SETPCAP) changes
    // nothing and is ignored.
    unsafe {
        for cap in 0..=last {
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
            0,
            0,
            0,
        );
        libc::prctl(libc::PR_SET_SECUREBITS, SECUREBITS, 0, 0, 0);
    }
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Sets {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    let header = Header {
        version: 0x2008_0522, // _LINUX_CAPABILITY_VERSION_3: two 32-bit words per set
        pid: 0,
    };
    let none = [Sets {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    }; 2];
    // SAFETY: capset reads a valid header and two set words, as version 3 requires.
    let r = unsafe { libc::syscall(libc::SYS_capset, &header as *const Header, none.as_ptr()) };
    if r != 0 {
        return Err(std::io::Error::last_os_error().to_string());
    }
    Ok(())
}

/// Reaps every child that has ended; returns the command's status if it is among them.
fn reap(command: Pid) -> Option<Ended> {
    let mut status = None;
    loop {
        match wait_nohang(None) {
            Waited::Ended(pid, end) if pid == command => status = Some(end),
            Waited::Ended(..) | Waited::Again => {}
            Waited::StillAlive | Waited::NoChild => return status,
        }
    }
}

/// What a wait that does not block found.
pub enum Waited {
    /// A process ended (reaped): its pid and how.
    Ended(Pid, Ended),
    StillAlive,
    NoChild,
    /// Interrupted, or a change that is not an end: wait again.
    Again,
}

/// Waits without blocking for `pid` (`None`: any child).
pub fn wait_nohang(pid: Option<Pid>) -> Waited {
    wait_status(pid, nix::libc::WNOHANG)
}

/// `waitpid` with `flags`. Not nix's: it cannot name a real-time signal, and fails after the
/// kernel has reaped a process killed by one, whose end would then be lost (the command
/// waited for until its time limit, or a guard's supervisor taken as failed).
fn wait_status(pid: Option<Pid>, flags: nix::libc::c_int) -> Waited {
    use nix::libc;
    let mut status = 0;
    // SAFETY: waitpid writes the status to a valid int.
    let got = unsafe { libc::waitpid(pid.map_or(-1, Pid::as_raw), &mut status, flags) };
    match got {
        0 => Waited::StillAlive,
        n if n < 0 => match Errno::last() {
            Errno::ECHILD => Waited::NoChild,
            _ => Waited::Again,
        },
        n if libc::WIFEXITED(status) => {
            Waited::Ended(Pid::from_raw(n), Ok(libc::WEXITSTATUS(status)))
        }
        n if libc::WIFSIGNALED(status) => {
            Waited::Ended(Pid::from_raw(n), Err(libc::WTERMSIG(status)))
        }
        _ => Waited::Again,
    }
}

/// A stop signal came: the processes below the supervisor that left its group (`setsid`) get
/// it too (those in the group got it with the supervisor), and the command and what it started
/// have `grace` to end. The command's status, if it ended.
fn settle(command: Pid, stop: Signal, grace: Duration) -> Option<Ended> {
    if grace.is_zero() {
        return None;
    }
    let group = nix::unistd::getpgrp();
    let me = std::process::id() as i32;
    let mut below = children_of(me);
    let mut seen = 0;
    while seen < below.len() && below.len() < 4096 {
        let more = children_of(below[seen]);
        below.extend(more);
        seen += 1;
    }
    for k in below {
        let pid = Pid::from_raw(k);
        if nix::unistd::getpgid(Some(pid)).is_ok_and(|g| g != group) {
            let _ = signal::kill(pid, stop);
        }
    }
    // Until the command and everything it left (adopted by this subreaper) have ended.
    let until = std::time::Instant::now() + grace;
    let mut status = None;
    loop {
        status = reap(command).or(status);
        if status.is_some() && children_of(me).is_empty() {
            return status;
        }
        if std::time::Instant::now() >= until {
            return status;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Ends by signal `sig` as the command did (so the parent sees the same status), a real-time
/// one too. Without a core dump: the command dumped its own where it would (a SIGSEGV or
/// SIGABRT dumps core by default), and the supervisor's would overwrite it, or be reported
/// (systemd-coredump, apport) as goclaw crashing.
fn die_by(sig: i32) -> ! {
    use nix::libc;
    // SAFETY: PR_SET_DUMPABLE takes an integer; the default disposition restored and the
    // signal unblocked before raising it; no handler runs.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        libc::signal(sig, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(sig);
    }
    std::process::exit(128 + sig)
}

/// Kills every process this supervisor has as a child (orphans are re-parented to it) until
/// none is left; returns the command's status if it is reaped on the way.
fn kill_descendants(command: Pid) -> Option<Ended> {
    let me = std::process::id() as i32;
    let mut status = None;
    for _ in 0..1000 {
        let kids = children_of(me);
        for k in &kids {
            let _ = signal::kill(Pid::from_raw(*k), Signal::SIGKILL);
        }
        status = reap(command).or(status);
        if kids.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    status
}

/// The children of `pid`, a single-threaded process: `/proc/PID/task/PID/children` where the
/// kernel has it, else a scan of `/proc/*/stat`.
fn children_of(pid: i32) -> Vec<i32> {
    if let Ok(list) = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")) {
        return list
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect();
    }
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()))
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/stat"))
                .ok()
                .and_then(|s| {
                    let rest = s.get(s.rfind(')')? + 2..)?;
                    rest.split(' ').nth(1)?.parse::<i32>().ok()
                })
                == Some(pid)
        })
        .collect()
}

/// Landlock: read everywhere, write under `writable`, Unix sockets under the first of them only
/// (ABI 9), TCP only with `network`, signals and abstract sockets scoped (ABI 6).
fn restrict(writable: &[PathBuf], network: bool, abi: i64) -> Result<(), String> {
    let fs_abi = if abi >= 9 { ABI::V9 } else { ABI::V5 };
    let all = AccessFs::from_all(fs_abi);
    let no_unix = all & !BitFlags::from(AccessFs::ResolveUnix);
    let result = (|| -> Result<RulesetStatus, landlock::RulesetError> {
        let mut ruleset = Ruleset::default().handle_access(all)?;
        if !network {
            ruleset = ruleset.handle_access(AccessNet::from_all(ABI::V5))?;
        }
        if abi >= 6 {
            ruleset = ruleset.scope(Scope::from_all(ABI::V6))?;
        }
        let mut created = ruleset
            .create()?
            .add_rules(path_beneath_rules(["/"], AccessFs::from_read(fs_abi)))?;
        if let Some((workspace, rest)) = writable.split_first() {
            created = created
                .add_rules(path_beneath_rules([workspace], all))?
                .add_rules(path_beneath_rules(rest, no_unix))?;
        }
        Ok(created.restrict_self()?.ruleset)
    })();
    match result {
        Ok(RulesetStatus::NotEnforced) => {
            Err("Landlock is not enforced by this kernel; refusing to run unsandboxed".into())
        }
        Ok(_) => Ok(()),
        Err(e) => Err(format!("cannot apply the Landlock sandbox: {e}")),
    }
}

/// The seccomp filter of the command: `socket()` refused for the internet and packet families
/// when `no_network`, for Unix sockets when `no_unix`; io_uring refused always; a foreign
/// architecture's system calls refused (they would bypass the checks by number).
fn seccomp(no_network: bool, no_unix: bool) -> Result<(), String> {
    use nix::libc::{
        AF_INET, AF_INET6, AF_PACKET, AF_UNIX, BPF_ABS, BPF_JEQ, BPF_JMP, BPF_K, BPF_LD, BPF_RET,
        BPF_W, EACCES, ENOSYS, EPERM, SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO, sock_filter,
        sock_fprog,
    };
    #[cfg(target_arch = "x86_64")]
    const ARCH: u32 = 0xC000_003E;
    #[cfg(target_arch = "aarch64")]
    const ARCH: u32 = 0xC000_00B7;
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    return Err("no seccomp filter for this architecture".into());
    let stmt = |code: u32, k: u32| sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    };
    let jeq_next = |k: u32| sock_filter {
        code: (BPF_JMP | BPF_JEQ | BPF_K) as u16,
        jt: 0,
        jf: 1,
        k,
    };
    let ret = |k: u32| stmt(BPF_RET | BPF_K, k);
    let errno = |e: i32| ret(SECCOMP_RET_ERRNO | (e as u32 & 0xffff));
    let mut prog = vec![
        stmt(BPF_LD | BPF_W | BPF_ABS, 4),
        sock_filter {
            code: (BPF_JMP | BPF_JEQ | BPF_K) as u16,
            jt: 1,
            jf: 0,
            k: ARCH,
        },
        errno(EPERM),
        stmt(BPF_LD | BPF_W | BPF_ABS, 0),
        jeq_next(nix::libc::SYS_io_uring_setup as u32),
        errno(ENOSYS),
        sock_filter {
            code: (BPF_JMP | BPF_JEQ | BPF_K) as u16,
            jt: 1,
            jf: 0,
            k: nix::libc::SYS_socket as u32,
        },
        ret(SECCOMP_RET_ALLOW),
        // args[0] (the domain), low 32 bits (little-endian).
        stmt(BPF_LD | BPF_W | BPF_ABS, 16),
    ];
    let mut blocked = Vec::new();
    if no_unix {
        blocked.push(AF_UNIX);
    }
    if no_network {
        blocked.extend([AF_INET, AF_INET6, AF_PACKET]);
    }
    for d in blocked {
        prog.push(jeq_next(d as u32));
        prog.push(errno(EACCES));
    }
    prog.push(ret(SECCOMP_RET_ALLOW));
    let fprog = sock_fprog {
        len: prog.len() as u16,
        filter: prog.as_mut_ptr(),
    };
    nix::sys::prctl::set_no_new_privs().map_err(|e| format!("no_new_privs: {e}"))?;
    // SAFETY: `fprog` points at `prog`, which outlives the call; the kernel copies the filter.
    let rc = unsafe {
        nix::libc::prctl(
            nix::libc::PR_SET_SECCOMP,
            nix::libc::SECCOMP_MODE_FILTER,
            &fprog as *const sock_fprog,
        )
    };
    if rc != 0 {
        return Err(std::io::Error::last_os_error().to_string());
    }
    Ok(())
}
