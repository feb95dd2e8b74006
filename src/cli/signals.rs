//! SIGINT and SIGTERM for commands that finish their work before they exit (`tools exec`, the
//! filters, `cron tick` and `cron daemon`): the first signal stops the work (a tool's processes
//! get SIGTERM, then SIGKILL; a filter writes what it read; a cron job is recorded as stopped)
//! and the command exits 130 or 143 (the daemon 0); a second signal exits at
//! once, and so does a command still busy when its grace is over (stuck opening a FIFO with no
//! writer, or writing to a reader that stopped reading).

use signal_hook::consts::{SIGINT, SIGTERM};

use crate::error::ErrorKind;
use crate::tools::SignalFlag;

/// How long a filter may take to write what it read once a signal came.
pub const FILTER_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Catches SIGINT and SIGTERM with a handler and reads them on a thread of their own, which
/// records them in the flag; `grace` after the first, the process exits whatever it is doing.
/// A handler, not a blocked mask read with sigwait: a mask is inherited by every process the
/// command starts (a cron job's `goclaw run`, a message channel's command), which then could
/// not be stopped by either signal; a handler is reset by exec.
pub fn watch(grace: std::time::Duration) -> Option<SignalFlag> {
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]).ok()?;
    let flag = SignalFlag::default();
    let seen = flag.clone();
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut first: Option<std::time::Instant> = None;
            for sig in signals.forever() {
                let terminated = sig == SIGTERM;
                // `timeout`, systemd and a terminal signal the process and its group at once:
                // a second signal within 200 ms is the same event, not a second Ctrl-C.
                let echo =
                    first.is_some_and(|t| t.elapsed() < std::time::Duration::from_millis(200));
                first.get_or_insert_with(std::time::Instant::now);
                let code = i32::from(
                    if terminated {
                        ErrorKind::Terminated
                    } else {
                        ErrorKind::Interrupted
                    }
                    .exit_code(),
                );
                if seen.raise(terminated) && !echo {
                    std::process::exit(code);
                }
                if !echo {
                    // A statement waiting in the server would hold the command to its grace.
                    std::thread::spawn(move || crate::store::db::cancel_queries(terminated));
                    let _ = std::thread::Builder::new()
                        .name("signal-grace".into())
                        .spawn(move || {
                            std::thread::sleep(grace);
                            // Said, not silent: what was under way (a job to record, a write
                            // to a reader that stopped reading) was left as it was.
                            let name = if terminated { "SIGTERM" } else { "SIGINT" };
                            eprintln!(
                                "error: stopped by {name}; what was under way did not end within {} s and was left unfinished",
                                grace.as_secs_f32()
                            );
                            std::process::exit(code);
                        });
                }
            }
        })
        .ok()?;
    Some(flag)
}

/// The exit of a command a signal stopped: 130 for SIGINT, 143 for SIGTERM; `None` when none
/// came.
pub fn status(stop: Option<&SignalFlag>) -> Option<super::Status> {
    use crate::error::ErrorKind;
    match stop.and_then(SignalFlag::get)? {
        crate::tools::Stopped::Terminated => Some(super::Status::Exit(ErrorKind::Terminated)),
        _ => Some(super::Status::Exit(ErrorKind::Interrupted)),
    }
}
