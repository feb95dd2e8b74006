//! SIGHUP, SIGINT and SIGTERM for commands that finish their work before they exit (`tools
//! exec`, the filters, `cron tick` and `cron daemon`): the first signal stops the work (a tool's
//! processes get SIGTERM, then SIGKILL; a filter writes what it read; a cron job is recorded as
//! stopped) and the command exits 129, 130 or 143 (the daemon 0); a second signal exits at
//! once, and so does a command still busy when its grace is over (stuck opening a FIFO with no
//! writer, or writing to a reader that stopped reading). SIGHUP is watched only when the
//! command did not start with it ignored (`nohup`), which it then keeps ignoring.

use crate::tools::{SignalFlag, Stopped};

/// Whether the command watches the signals itself ([`watch`], a run's watcher), and so stops
/// its own work: [`cancel_statements_on_signal`] then only cancels its statements still
/// running shortly after a signal, and leaves the exit to the command.
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
/// as before. Installed once, when such a store is opened; for a command that stops itself it
/// cancels, after a moment, only what is still running (`db::cancel_queries`).
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
                        // The command stops its own work ([`watch`]): a statement waiting in
                        // the server would hold it to its grace, so it is cancelled if still
                        // running shortly.
                        if let Some(why) = Stopped::from_signal(number) {
                            let kind = why.error_kind();
                            std::thread::spawn(move || crate::store::db::cancel_queries(kind));
                        }
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

/// Catches the [`stopping`] signals with handlers that record them in the flag (no thread: a
/// thread was a tenth of a millisecond of every such command's start); `grace` after the first,
/// a timer (SIGALRM) exits the process whatever it is doing, and a second signal exits at once.
/// A handler, not a blocked mask read with sigwait: a mask is inherited by every process the
/// command starts (a cron job's `goclaw run`, a message channel's command), which then could not
/// be stopped by either signal; a handler is reset by exec. (A PostgreSQL store's statements are
/// cancelled by the store's own watcher: [`cancel_statements_on_signal`].)
pub fn watch(grace: std::time::Duration) -> Option<SignalFlag> {
    stops_itself();
    let flag = SignalFlag::default();
    // Made now: a handler may not allocate.
    std::sync::LazyLock::force(&RECEIVED);
    let farewells: Vec<(i32, Vec<u8>)> = Stopped::SIGNALS
        .into_iter()
        .map(|why| {
            let kind = why.error_kind();
            let said = format!(
                "error: stopped by {}; what was under way did not end within {} s and was left unfinished\n",
                kind.meaning(),
                grace.as_secs_f32()
            );
            (i32::from(kind.exit_code()), said.into_bytes())
        })
        .collect();
    let recorded = flag.clone();
    let on_timer = move || {
        let code = recorded
            .get()
            .map_or(1, |why| i32::from(why.error_kind().exit_code()));
        // Said, not silent: what was under way (a job to record, a write to a reader that
        // stopped reading) was left as it was.
        if let Some((_, said)) = farewells.iter().find(|(c, _)| *c == code) {
            // SAFETY: write(2) and _exit(2) are async-signal-safe; `said` is not touched by
            // anything else.
            unsafe { libc::write(libc::STDERR_FILENO, said.as_ptr().cast(), said.len()) };
        }
        // SAFETY: as above.
        unsafe { libc::_exit(code) }
    };
    // SAFETY: the action only reads what it owns, calls async-signal-safe functions, and exits.
    unsafe { signal_hook::low_level::register(libc::SIGALRM, on_timer) }.ok()?;
    for why in stopping() {
        let Some(signal) = why.signal() else { continue };
        let seen = flag.clone();
        let on_signal = move || on_stopping_signal(why, &seen, grace);
        // SAFETY: `on_stopping_signal` touches only atomics and async-signal-safe calls.
        unsafe { signal_hook::low_level::register(signal as i32, on_signal) }.ok()?;
    }
    Some(flag)
}

/// When the first stopping signal came, in nanoseconds of the monotonic clock (0: none yet).
static FIRST_SIGNAL_NS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// What a stopping signal does, in its handler: records it; the first one arms the grace timer,
/// and a second one exits at once. `timeout`, systemd and a terminal signal the process and its
/// group at once, so a second signal within 200 ms is the same event, not a second Ctrl-C.
/// Only atomics and async-signal-safe calls.
fn on_stopping_signal(why: Stopped, flag: &SignalFlag, grace: std::time::Duration) {
    use std::sync::atomic::Ordering::SeqCst;
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime(2) is async-signal-safe and writes only `now`.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    let now = (now.tv_sec as u64) * 1_000_000_000 + now.tv_nsec as u64 + 1;
    let first = match FIRST_SIGNAL_NS.compare_exchange(0, now, SeqCst, SeqCst) {
        Ok(_) => now,
        Err(first) => first,
    };
    let echo = first != now && now.saturating_sub(first) < 200_000_000;
    received_now(why);
    if flag.raise(why) && !echo {
        // SAFETY: _exit(2) is async-signal-safe.
        unsafe { libc::_exit(i32::from(why.error_kind().exit_code())) }
    }
    if !echo {
        let after = libc::itimerval {
            it_interval: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
            it_value: libc::timeval {
                tv_sec: grace.as_secs() as libc::time_t,
                tv_usec: libc::suseconds_t::from(grace.subsec_micros()),
            },
        };
        // SAFETY: setitimer(2) is a system call that touches no memory of ours but `after`.
        unsafe { libc::setitimer(libc::ITIMER_REAL, &after, std::ptr::null_mut()) };
    }
}

/// The exit of a command a signal stopped: 129 for SIGHUP, 130 for SIGINT, 143 for SIGTERM;
/// `None` when none came.
pub fn status(stop: Option<&SignalFlag>) -> Option<super::Status> {
    let why = stop.and_then(SignalFlag::get)?;
    Some(super::Status::Exit(why.error_kind()))
}
