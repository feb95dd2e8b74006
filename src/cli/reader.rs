//! The reader of standard output going away while a command has nothing to write. `goclaw run
//! --events | (sleep 3; head -1)` learnt it only at its next event: a tool that ran a minute
//! ran to its end for nobody, and a team run's members finished their tasks. The write end of a
//! pipe reports POLLERR as soon as its read end is closed, so a thread waits for that and tells
//! the command at once; the command stops as it does on a write that meets the closed pipe.

use std::os::fd::AsFd;

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

/// Calls `gone` once, on a thread of its own, when the reader of stdout (a pipe) goes away.
/// Nothing is watched when stdout is not a pipe (a file, a terminal: no reader to lose).
pub(crate) fn on_reader_gone(gone: impl FnOnce() + Send + 'static) {
    let is_pipe = nix::sys::stat::fstat(std::io::stdout().as_fd()).is_ok_and(|stat| {
        nix::sys::stat::SFlag::from_bits_truncate(stat.st_mode)
            .contains(nix::sys::stat::SFlag::S_IFIFO)
    });
    if !is_pipe {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("stdout-reader".into())
        .spawn(move || {
            let stdout = std::io::stdout();
            loop {
                // No events asked for: POLLERR and POLLHUP are reported whatever is asked.
                let mut fds = [PollFd::new(stdout.as_fd(), PollFlags::empty())];
                match poll(&mut fds, PollTimeout::NONE) {
                    Ok(_) => {
                        let ended = PollFlags::POLLERR | PollFlags::POLLHUP | PollFlags::POLLNVAL;
                        if fds[0].revents().is_some_and(|r| r.intersects(ended)) {
                            gone();
                            return;
                        }
                    }
                    Err(nix::errno::Errno::EINTR) => {}
                    Err(_) => return,
                }
            }
        });
}
