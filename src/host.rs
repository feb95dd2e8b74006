//! Facts about this host that need a system call but no network: its interface addresses, its
//! time zones, its name, whether a process exists and signalling the very process a row
//! recorded, which signals this process ignores; and reading a document with a bound on its
//! size.

use std::io::Read;
use std::net::IpAddr;

/// All of `reader`, or `None` when it holds more than `max` bytes (of which no more than one
/// past `max` is read: `/dev/zero` ends at once).
pub fn read_at_most(reader: impl Read, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut buf = Vec::new();
    reader.take(max.saturating_add(1)).read_to_end(&mut buf)?;
    Ok((buf.len() as u64 <= max).then_some(buf))
}

/// The bytes of the regular file at `path`, at most `max` of them: a directory, FIFO, device or
/// socket is refused before it is opened (a FIFO with no writer blocks an open for ever,
/// `/dev/zero` never ends), and a larger file is an error (`InvalidData`).
pub fn read_regular_file(path: &std::path::Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind};
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Err(Error::new(ErrorKind::IsADirectory, "is a directory"));
    }
    if !meta.is_file() {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            "not a regular file (a FIFO, a device, a socket)",
        ));
    }
    read_at_most(std::fs::File::open(path)?, max)?.ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidData,
            format!("larger than {} MiB", max >> 20),
        )
    })
}

/// Sends `signal` to this process when the process `pid` ends, however it ends (a signal, an
/// exit, a crash); at once when it is gone already. Watched through a pidfd by a thread of its
/// own: start it once the signal is blocked in every thread and waited for, or the signal may
/// land on the watcher and take its default action.
pub fn signal_me_when_gone(pid: i32, signal: nix::sys::signal::Signal) {
    let Some(target) = rustix::process::Pid::from_raw(pid) else {
        return;
    };
    let me = nix::unistd::getpid();
    let send = move || {
        let _ = nix::sys::signal::kill(me, signal);
    };
    match rustix::process::pidfd_open(target, rustix::process::PidfdFlags::empty()) {
        Ok(fd) => {
            let _ = std::thread::Builder::new()
                .name("watch-pid".into())
                .spawn(move || {
                    use std::os::fd::AsFd;
                    let mut fds = [nix::poll::PollFd::new(
                        fd.as_fd(),
                        nix::poll::PollFlags::POLLIN,
                    )];
                    while let Err(nix::errno::Errno::EINTR) =
                        nix::poll::poll(&mut fds, nix::poll::PollTimeout::NONE)
                    {
                    }
                    send();
                });
        }
        Err(rustix::io::Errno::SRCH) => send(),
        Err(_) => {}
    }
}

/// This host's interface addresses, without loopback, link-local unicast, link-local multicast
/// and unspecified ones (the original's `DetectServerIPs`, local part). Sorted, deduplicated.
pub fn server_addresses() -> Result<Vec<IpAddr>, String> {
    let addrs =
        nix::ifaddrs::getifaddrs().map_err(|e| format!("cannot list interface addresses: {e}"))?;
    let mut out: Vec<IpAddr> = addrs
        .filter_map(|ifa| ifa.address)
        .filter_map(|a| {
            if let Some(v4) = a.as_sockaddr_in() {
                Some(IpAddr::V4(v4.ip()))
            } else {
                a.as_sockaddr_in6().map(|v6| IpAddr::V6(v6.ip()))
            }
        })
        .filter(|ip| is_server_address(*ip))
        .collect();
    out.sort();
    out.dedup();
    Ok(out)
}

/// Not loopback, link-local (unicast or multicast) or unspecified.
pub fn is_server_address(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            !(v4.is_loopback()
                || v4.is_link_local()
                || v4.is_unspecified()
                || is_v4_link_local_multicast(v4.octets()))
        }
        IpAddr::V6(v6) => {
            let seg = v6.segments();
            let link_local_unicast = seg[0] & 0xffc0 == 0xfe80;
            let link_local_multicast = seg[0] & 0xff0f == 0xff02;
            !(v6.is_loopback() || v6.is_unspecified() || link_local_unicast || link_local_multicast)
        }
    }
}

fn is_v4_link_local_multicast(o: [u8; 4]) -> bool {
    o[0] == 224 && o[1] == 0 && o[2] == 0
}

/// The IANA time zone `name` ("Asia/Ho_Chi_Minh"), from the system's tz database, or jiff's
/// bundled copy when the system has none. `Err`: the message for an unknown name.
pub fn time_zone(name: &str) -> Result<jiff::tz::TimeZone, String> {
    jiff::tz::TimeZone::get(name).map_err(|_| {
        format!(
            "invalid timezone '{name}': use IANA names like 'Asia/Ho_Chi_Minh', 'America/New_York'"
        )
    })
}

/// This machine's name (what runs and background processes record), or "" when it has none.
pub fn name() -> String {
    nix::unistd::gethostname()
        .ok()
        .and_then(|h| h.into_string().ok())
        .unwrap_or_default()
}

/// Where a pid means something: this machine's name and its pid namespace
/// (`vm#pid:[4026531836]`). Two processes with the same place see the same pids.
pub fn pid_place() -> String {
    format!("{}#{}", name(), pid_namespace())
}

/// This process's PID namespace (`pid:[4026531836]`; empty without `/proc`): a goclaw in a
/// command's namespace (an exec's) sees other pids than the goclaw outside it.
/// Read once: a process does not change its own PID namespace (a supervisor's `unshare`
/// changes its children's).
pub fn pid_namespace() -> &'static str {
    static NS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    NS.get_or_init(|| {
        std::fs::read_link("/proc/self/ns/pid")
            .map(|l| l.to_string_lossy().into_owned())
            .unwrap_or_default()
    })
}

/// A process as a row recorded it, on this host: its pid, when it started
/// ([`process_start`]) and its PID namespace ([`pid_namespace`]); `None`s in older rows.
#[derive(Debug, Clone, Copy)]
pub struct Recorded<'a> {
    pub pid: i64,
    pub start: Option<i64>,
    pub ns: Option<&'a str>,
}

impl Recorded<'_> {
    /// Its pid is a pid of this process's namespace (an older row's is taken to be).
    pub fn seen_here(&self) -> bool {
        self.ns.is_none_or(|ns| ns == pid_namespace())
    }

    /// Whether it may still run: `false` only when it is known to be gone. One of another PID
    /// namespace cannot be looked at from here, and is taken to run (a heartbeat decides).
    pub fn may_run(&self) -> bool {
        !self.seen_here() || is_running(self.pid, self.start)
    }

    /// Sends it `signal` ([`signal_recorded`]); `false` when it is gone or in another PID
    /// namespace (its pid means another process here).
    pub fn signal(&self, signal: nix::sys::signal::Signal) -> bool {
        self.seen_here() && signal_recorded(self.pid, self.start, signal)
    }

    /// Whether it handles `signal` itself (a handler is installed: `SigCgt` of
    /// `/proc/PID/status`), rather than dying by it; `false` when it cannot be told.
    pub fn catches(&self, signal: nix::sys::signal::Signal) -> bool {
        if !(self.seen_here() && is_running(self.pid, self.start)) {
            return false;
        }
        let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", self.pid)) else {
            return false;
        };
        status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1u64 << (signal as i32 - 1)) != 0)
    }
}

/// Whether process `pid` exists on this machine (it may be another's, or a reused pid: a caller
/// that must know checks something more, such as a heartbeat).
pub fn process_exists(pid: i64) -> bool {
    pid > 0
        && i32::try_from(pid).is_ok_and(|p| {
            nix::sys::signal::kill(nix::unistd::Pid::from_raw(p), None)
                .map_or_else(|e| e == nix::errno::Errno::EPERM, |_| true)
        })
}

/// When process `pid` started, in clock ticks since boot (the 22nd field of `/proc/PID/stat`):
/// with its pid, what names one process, as the kernel gives a freed pid to the next one.
/// `None` when there is no such process (or no `/proc`).
pub fn process_start(pid: i64) -> Option<i64> {
    let stat = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
    // The command name (2nd field) is in parentheses and may hold spaces or `)`: the fields
    // after it start at the last `)`.
    let after = stat.iter().rposition(|&b| b == b')')?;
    let fields = std::str::from_utf8(&stat[after + 1..]).ok()?;
    // The 3rd field (state) is the first after the name, so the 22nd is the 20th after it.
    fields.split_ascii_whitespace().nth(19)?.parse().ok()
}

/// When this process started ([`process_start`]). Read once per process (every audited tool
/// call records it): kept with the pid it was read for, so a forked child reads its own.
pub fn own_start() -> Option<i64> {
    static OWN: std::sync::OnceLock<(u32, Option<i64>)> = std::sync::OnceLock::new();
    let pid = std::process::id();
    match OWN.get_or_init(|| (pid, process_start(i64::from(pid)))) {
        (read_for, start) if *read_for == pid => *start,
        _ => process_start(i64::from(pid)),
    }
}

/// Whether the process a row recorded (`pid`, started at `start`) still runs here. A row
/// written before start times were kept (`start` of `None`) is judged by its pid alone, which
/// may be a reused one.
pub fn is_running(pid: i64, start: Option<i64>) -> bool {
    match start {
        Some(start) => process_start(pid) == Some(start),
        None => process_exists(pid),
    }
}

/// Sends `signal` to the process a row recorded (`pid`, started at `start`), and to nothing
/// else: the process is held by a pidfd while its start time is compared, so a pid the kernel
/// gave to another process since is never signalled. `false` when the process is gone (or is
/// not this user's). Without a start time (an older row) the pid alone is signalled.
pub fn signal_recorded(pid: i64, start: Option<i64>, signal: nix::sys::signal::Signal) -> bool {
    let Some(raw) = i32::try_from(pid).ok().filter(|p| *p > 0) else {
        return false;
    };
    let Some(start) = start else {
        return nix::sys::signal::kill(nix::unistd::Pid::from_raw(raw), signal).is_ok();
    };
    let (Some(target), Some(sig)) = (
        rustix::process::Pid::from_raw(raw),
        rustix::process::Signal::from_named_raw(signal as i32),
    ) else {
        return false;
    };
    match rustix::process::pidfd_open(target, rustix::process::PidfdFlags::empty()) {
        // Held: the pid cannot pass to another process until the fd is closed.
        Ok(fd) => {
            process_start(pid) == Some(start)
                && rustix::process::pidfd_send_signal(&fd, sig).is_ok()
        }
        // A kernel without pidfds (before 5.3): compared, then signalled.
        Err(rustix::io::Errno::NOSYS) => {
            process_start(pid) == Some(start)
                && nix::sys::signal::kill(nix::unistd::Pid::from_raw(raw), signal).is_ok()
        }
        Err(_) => false,
    }
}

/// Whether this process ignores `signal`: `nohup` and a shell's `trap '' HUP` start a command
/// with SIGHUP ignored, and a handler installed for it would undo that. Ask before installing
/// one. `false` when the system cannot say. (One `sigaction` call; reading `SigIgn` from
/// `/proc/self/status` took nine, and the kernel writing the whole file, at every start of a
/// command that watches the signals.)
pub fn ignores(signal: nix::sys::signal::Signal) -> bool {
    let mut current = std::mem::MaybeUninit::<libc::sigaction>::zeroed();
    // SAFETY: with no new action, `sigaction` only writes the current one into `current`,
    // which is large enough for it and zeroed, so valid whatever the call leaves.
    let (read, current) = unsafe {
        let read = libc::sigaction(
            signal as libc::c_int,
            std::ptr::null(),
            current.as_mut_ptr(),
        );
        (read, current.assume_init())
    };
    read == 0 && current.sa_sigaction == libc::SIG_IGN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_is_known_by_its_pid_and_start_not_its_pid_alone() {
        let own = i64::from(std::process::id());
        let start = own_start().unwrap();
        assert!(start > 0);
        assert!(is_running(own, Some(start)));
        // The same pid with another start time is another process: not running, not signalled
        // (SIGTERM to this test process would end it).
        assert!(!is_running(own, Some(start + 1)));
        assert!(!signal_recorded(
            own,
            Some(start + 1),
            nix::sys::signal::Signal::SIGTERM
        ));
        // A process of its own: signalled when it is the one recorded.
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = i64::from(child.id());
        let child_start = process_start(pid).unwrap();
        assert!(signal_recorded(
            pid,
            Some(child_start),
            nix::sys::signal::Signal::SIGTERM
        ));
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(15));
        // Gone (reaped): nothing to signal, whatever the pid is now.
        assert!(!signal_recorded(
            pid,
            Some(child_start),
            nix::sys::signal::Signal::SIGTERM
        ));
        assert_eq!(process_start(0), None);
    }

    #[test]
    fn a_command_name_with_spaces_and_parentheses_does_not_shift_the_fields() {
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join("a) b (c");
        std::fs::copy("/bin/sleep", &odd).unwrap();
        let mut child = std::process::Command::new(&odd).arg("30").spawn().unwrap();
        let pid = i64::from(child.id());
        let start = process_start(pid).unwrap();
        // Started after this test process, and not some other field (a pid, a flag).
        assert!(start >= own_start().unwrap(), "{start}");
        let _ = child.kill();
        let _ = child.wait();
    }

    #[test]
    fn filters_what_the_original_filters() {
        let ok = |s: &str| is_server_address(s.parse().unwrap());
        assert!(ok("10.1.2.3"));
        assert!(ok("2001:db8::1"));
        assert!(!ok("127.0.0.1"));
        assert!(!ok("169.254.1.1"));
        assert!(!ok("224.0.0.251"));
        assert!(!ok("0.0.0.0"));
        assert!(!ok("::1"));
        assert!(!ok("fe80::1"));
        assert!(!ok("ff02::1"));
        assert!(!ok("::"));
    }

    #[test]
    fn lists_without_loopback() {
        let addrs = server_addresses().unwrap();
        assert!(addrs.iter().all(|a| !a.is_loopback()));
    }

    #[test]
    fn an_ignored_signal_is_seen_as_ignored() {
        use nix::sys::signal::{SigHandler, Signal, signal};
        // SIGUSR2: no test of this process uses it.
        // SAFETY: a disposition change, restored below; no handler runs.
        let before = unsafe { signal(Signal::SIGUSR2, SigHandler::SigIgn) }.unwrap();
        assert!(ignores(Signal::SIGUSR2));
        unsafe { signal(Signal::SIGUSR2, before) }.unwrap();
        assert!(!ignores(Signal::SIGUSR2));
    }
}
