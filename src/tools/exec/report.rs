//! The report pipe between a spawner (a foreground `exec` call, a background command's keeper)
//! and the supervisor it starts (`goclaw __sandbox-exec --report-fd=N`). The supervisor writes
//! on it:
//!
//! 1. one byte, `r`, once it waits for the stop signals: a stop sent before then may go unheard
//!    (bwrap ignores them while it builds the sandbox), so the spawner sends it again until one
//!    goes after that byte;
//! 2. just before it ends, how the command ended: `exit N` or `signal N` (the same words a PID
//!    namespace's init reports to the supervisor). Under bwrap that is the only way to know:
//!    bwrap exits with 128 + N when the supervisor dies of signal N, which reads like a
//!    command's own `exit 128+N`.
//!
//! The command never holds the pipe (close-on-exec in the supervisor). A reported signal N is
//! taken only for a status of exit 128 + N, so a supervisor killed before it reported (or a
//! report that disagrees) leaves the status as it is.

use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus};

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, FdFlag, OFlag, fcntl};

use super::supervise::Ended;

/// The byte that says the supervisor listens for the stop signals.
const READY: u8 = b'r';
/// The most a report may hold: the ready byte and one line.
const REPORT_MAX: usize = 64;

/// How a command ended, in the words a report uses (empty when unknown).
pub fn say(ended: Option<Ended>) -> String {
    match ended {
        Some(Ok(code)) => format!("exit {code}\n"),
        Some(Err(sig)) => format!("signal {sig}\n"),
        None => String::new(),
    }
}

/// The end a report's line names, if it names one.
pub fn parse(line: &str) -> Option<Ended> {
    let (kind, value) = line.trim().split_once(' ')?;
    let value: i32 = value.parse().ok()?;
    match kind {
        "exit" => Some(Ok(value)),
        "signal" => Some(Err(value)),
        _ => None,
    }
}

/// How a process ended, as its status says: its exit code or its signal.
pub fn seen(status: ExitStatus) -> Ended {
    match (status.code(), status.signal()) {
        (Some(code), _) => Ok(code),
        (None, Some(sig)) => Err(sig),
        // Stopped or continued: not an end; waited for statuses are ends.
        (None, None) => Ok(1),
    }
}

/// The spawner's end of the pipe.
pub struct ReportPipe {
    read: OwnedFd,
    /// The supervisor's end, open here until the command is spawned.
    write: Option<OwnedFd>,
    /// What was read so far.
    said: Vec<u8>,
    /// The supervisor's end is closed everywhere: it ended (or exec'd something else).
    closed: bool,
}

impl ReportPipe {
    pub fn new() -> std::io::Result<ReportPipe> {
        let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)?;
        fcntl(&read, FcntlArg::F_SETFL(OFlag::O_NONBLOCK))?;
        Ok(ReportPipe {
            read,
            write: Some(write),
            said: Vec::new(),
            closed: false,
        })
    }

    /// The descriptor number the supervisor gets (`--report-fd`).
    pub fn fd(&self) -> Option<i32> {
        self.write.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// Makes `cmd` keep the supervisor's end open across its exec.
    pub fn pass_to(&self, cmd: &mut Command) {
        let Some(fd) = self.fd() else { return };
        // SAFETY: fcntl is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(cmd, move || {
                // SAFETY: the write end, open in the spawner across the spawn.
                let w = BorrowedFd::borrow_raw(fd);
                fcntl(w, FcntlArg::F_SETFD(FdFlag::empty()))?;
                Ok(())
            });
        }
    }

    /// After the spawn: the supervisor's end is closed here, so the pipe ends when it ends.
    pub fn spawned(&mut self) {
        self.write = None;
    }

    /// Whether the supervisor said it listens for the stop signals (or ended: the pipe closed),
    /// so a stop sent now is heard.
    pub fn listening(&mut self) -> bool {
        self.read_available();
        self.closed || self.said.first() == Some(&READY)
    }

    /// The status the spawner saw, corrected by the report when both agree: under bwrap a
    /// command killed by signal N shows as exit 128 + N, and the report says it was the signal.
    pub fn ended(&mut self, status: ExitStatus) -> Ended {
        let seen = seen(status);
        self.read_available();
        let reported = std::str::from_utf8(&self.said)
            .ok()
            .and_then(|s| parse(s.strip_prefix(READY as char).unwrap_or(s)));
        match (reported, seen) {
            (Some(Err(sig)), Ok(code)) if code == 128 + sig => Err(sig),
            _ => seen,
        }
    }

    /// Reads what the supervisor wrote since the last read (no more than a report holds).
    fn read_available(&mut self) {
        let mut buf = [0u8; REPORT_MAX];
        while !self.closed && self.said.len() < REPORT_MAX {
            let room = REPORT_MAX - self.said.len();
            match nix::unistd::read(&self.read, &mut buf[..room]) {
                Ok(0) => self.closed = true,
                Ok(n) => self.said.extend_from_slice(&buf[..n]),
                Err(Errno::EINTR) => {}
                // EAGAIN: nothing more for now; any other error: nothing to be had.
                Err(_) => return,
            }
        }
    }
}

/// The supervisor's end of the pipe.
pub struct Reporter(OwnedFd);

impl Reporter {
    /// Takes descriptor `fd` (handed to this process for this one use), close-on-exec so the
    /// command never holds it; `None` when no such descriptor is open.
    pub fn take(fd: i32) -> Option<Reporter> {
        // SAFETY: only asked about; it is not closed through this borrow.
        let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
        fcntl(borrowed, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC)).ok()?;
        // SAFETY: the descriptor is open, and nothing else in this process owns it.
        Some(Reporter(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    /// Says that a stop signal is heard from now on.
    pub fn ready(&self) {
        let _ = nix::unistd::write(&self.0, &[READY]);
    }

    /// Says how the command ended (just before the supervisor ends the same way).
    pub fn ended(&self, ended: Option<Ended>) {
        let _ = nix::unistd::write(&self.0, say(ended).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exited(code: i32) -> ExitStatus {
        ExitStatus::from_raw(code << 8)
    }

    fn pipe_saying(words: &[u8]) -> ReportPipe {
        let mut pipe = ReportPipe::new().unwrap();
        let w = pipe.write.take().unwrap();
        nix::unistd::write(&w, words).unwrap();
        pipe
    }

    #[test]
    fn a_signal_reported_turns_bwraps_128_plus_n_into_the_signal() {
        assert_eq!(pipe_saying(b"rsignal 11\n").ended(exited(139)), Err(11));
        assert_eq!(
            pipe_saying(b"signal 9\n").ended(ExitStatus::from_raw(9)),
            Err(9)
        );
        assert_eq!(pipe_saying(b"rexit 139\n").ended(exited(139)), Ok(139));
        assert_eq!(pipe_saying(b"rsignal 11\n").ended(exited(11)), Ok(11));
    }

    #[test]
    fn a_report_that_disagrees_with_the_status_or_none_leaves_the_status() {
        // No report (killed before it could say), a garbled one, one that disagrees.
        assert_eq!(pipe_saying(b"r").ended(exited(143)), Ok(143));
        assert_eq!(pipe_saying(b"").ended(exited(143)), Ok(143));
        assert_eq!(pipe_saying(b"rsignal x\n").ended(exited(143)), Ok(143));
        assert_eq!(pipe_saying(b"rsignal 11\n").ended(exited(1)), Ok(1));
        assert_eq!(pipe_saying(b"rexit 3\n").ended(exited(4)), Ok(4));
        assert_eq!(
            pipe_saying(b"rexit 0\n").ended(ExitStatus::from_raw(9)),
            Err(9)
        );
    }

    #[test]
    fn listening_is_the_ready_byte_or_the_pipe_closed() {
        let mut pipe = ReportPipe::new().unwrap();
        let w = pipe.write.take().unwrap();
        assert!(!pipe.listening());
        nix::unistd::write(&w, b"r").unwrap();
        assert!(pipe.listening());
        assert!(pipe.listening(), "stays so once said");
        let mut pipe = ReportPipe::new().unwrap();
        drop(pipe.write.take());
        assert!(pipe.listening());
    }

    #[test]
    fn the_words_read_back_as_they_were_said() {
        for e in [Some(Ok(0)), Some(Ok(255)), Some(Err(9)), Some(Err(34))] {
            assert_eq!(parse(&say(e)), e);
        }
        assert_eq!(say(None), "");
        assert_eq!(parse("signal"), None);
        assert_eq!(parse("crash 3"), None);
    }
}
