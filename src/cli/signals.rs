//! SIGHUP, SIGINT and SIGTERM for commands that finish their work before they exit (`tools
//! exec`, the filters, `cron tick` and `cron daemon`): the first signal stops the work (a tool's
//! processes get SIGTERM, then SIGKILL; a filter writes what it read; a cron job is recorded as
//! stopped) and the command exits 129, 130 or 143 (the daemon 0); a second signal exits at
//! once, and so does a command still busy when its grace is over (stuck opening a FIFO with no
//! writer, or writing to a reader that stopped reading). SIGHUP is watched only when the
//! command did not start with it ignored (`nohup`), which it then keeps ignoring.

use crate::tools::{SignalFlag, Stopped};

/// Whether the command watches the signals itself ([`watch`], a run's watcher), and so stops
/// its own statements: [`cancel_statements_on_signal`] then leaves them to it.
static STOPS_ITSELF: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Notes that the command watches the signals itself.
pub(super) fn stops_itself() {
    STOPS_ITSELF.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// A command on a PostgreSQL store that does not watch the signals itself (`db query`, `tasks
/// create`, `team list`) ended by a signal at once, and the statement it ran went on in the
/// server: a `db query` for up to its timeout, a wait for a lock still queued. Here a signal
/// first asks the server to cancel what this process runs (given up after half a second: a
/// server that does not answer cannot hold the command), then ends the process by the signal,
/// as before. Installed once, when such a store is opened.
pub(super) fn cancel_statements_on_signal() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new(stopping_numbers()) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("pg-signals".into())
            .spawn(move || {
                for number in signals.forever() {
                    if STOPS_ITSELF.load(std::sync::atomic::Ordering::SeqCst) {
                        continue;
                    }
                    let (done, cancelled) = std::sync::mpsc::channel();
                    std::thread::spawn(move || {
                        crate::store::db::cancel_statements();
                        let _ = done.send(());
                    });
                    let _ = cancelled.recv_timeout(std::time::Duration::from_millis(500));
                    let _ = signal_hook::low_level::emulate_default_handler(number);
                    // A signal whose default is not to end the process: still the command's end.
                    std::process::exit(128 + number);
                }
            });
    });
}

/// The first stopping signal this process received, whichever watcher saw it.
static RECEIVED: std::sync::LazyLock<SignalFlag> = std::sync::LazyLock::new(SignalFlag::default);

/// Notes that `why` came: whoever watches the signals calls it.
pub(super) fn received_now(why: Stopped) {
    RECEIVED.raise(why);
}

/// The first stopping signal this process received, if one came.
pub fn received() -> Option<Stopped> {
    RECEIVED.get()
}

/// The failure a command ends with: a failure to write standard output after a signal came
/// is the signal's (the terminal that hung up took the output with it) and exits as the signal
/// does; any other failure is its own.
pub fn attribute(err: crate::error::Error) -> crate::error::Error {
    match received() {
        Some(why) if err.is_stdout_failure() => crate::error::Error::new(
            why.error_kind(),
            format!("stopped by {}: {}", why.error_kind().meaning(), err.message),
        ),
        _ => err,
    }
}

/// How long a filter may take to write what it read once a signal came.
pub const FILTER_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// The signals a command stops on: SIGINT and SIGTERM, and SIGHUP unless it started ignored.
pub fn stopping() -> Vec<Stopped> {
    Stopped::SIGNALS
        .into_iter()
        .filter(|s| *s != Stopped::HungUp || !crate::host::ignores(nix::sys::signal::SIGHUP))
        .collect()
}

/// The numbers of the [`stopping`] signals, as signal-hook takes them.
fn stopping_numbers() -> Vec<i32> {
    stopping()
        .into_iter()
        .filter_map(|s| s.signal().map(|sig| sig as i32))
        .collect()
}

/// Catches the [`stopping`] signals with a handler and reads them on a thread of their own,
/// which records them in the flag; `grace` after the first, the process exits whatever it is
/// doing. A handler, not a blocked mask read with sigwait: a mask is inherited by every process
/// the command starts (a cron job's `goclaw run`, a message channel's command), which then
/// could not be stopped by either signal; a handler is reset by exec.
pub fn watch(grace: std::time::Duration) -> Option<SignalFlag> {
    stops_itself();
    let mut signals = signal_hook::iterator::Signals::new(stopping_numbers()).ok()?;
    let flag = SignalFlag::default();
    let seen = flag.clone();
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut first: Option<std::time::Instant> = None;
            for why in signals.forever().filter_map(Stopped::from_signal) {
                // `timeout`, systemd and a terminal signal the process and its group at once:
                // a second signal within 200 ms is the same event, not a second Ctrl-C.
                let echo =
                    first.is_some_and(|t| t.elapsed() < std::time::Duration::from_millis(200));
                first.get_or_insert_with(std::time::Instant::now);
                received_now(why);
                let kind = why.error_kind();
                let code = i32::from(kind.exit_code());
                if seen.raise(why) && !echo {
                    std::process::exit(code);
                }
                if !echo {
                    // A statement waiting in the server would hold the command to its grace.
                    std::thread::spawn(move || crate::store::db::cancel_queries(kind));
                    let _ = std::thread::Builder::new()
                        .name("signal-grace".into())
                        .spawn(move || {
                            std::thread::sleep(grace);
                            // Said, not silent: what was under way (a job to record, a write
                            // to a reader that stopped reading) was left as it was.
                            eprintln!(
                                "error: stopped by {}; what was under way did not end within {} s and was left unfinished",
                                kind.meaning(),
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

/// The exit of a command a signal stopped: 129 for SIGHUP, 130 for SIGINT, 143 for SIGTERM;
/// `None` when none came.
pub fn status(stop: Option<&SignalFlag>) -> Option<super::Status> {
    let why = stop.and_then(SignalFlag::get)?;
    Some(super::Status::Exit(why.error_kind()))
}
