//! How a connection waits for a lock another process holds: short, even polls instead of
//! SQLite's own schedule.
//!
//! SQLite's busy handler sleeps 1, 2, 5, 10, 15, 20, 25 … 100 ms between tries. A claim holds
//! the write lock for well under a millisecond, so a process that lost the race slept ten times
//! longer than it had to wait: with 8 processes claiming tasks on 2 cores, those sleeps were
//! most of the p99 (`cargo bench --bench tasks`). Here a waiter tries again after 0.25 ms for
//! its first 40 tries (10 ms), then every 1 ms, and gives up when the connection's busy timeout
//! has passed since its first try (exit 7, "the store stayed locked").

use std::cell::Cell;
use std::os::raw::{c_int, c_void};
use std::time::{Duration, Instant};

use rusqlite::Connection;

thread_local! {
    /// When this thread's current wait for a lock began (SQLite calls the handler with
    /// attempt 0 at the start of every wait, on the thread that runs the statement).
    static WAIT_BEGAN: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Set while this thread does housekeeping that may wait for nobody (see
    /// [`without_waiting`]).
    static NO_WAIT: Cell<bool> = const { Cell::new(false) };
    /// Whether this thread's current wait began after a signal: the writes that record how a
    /// stopped command ended wait as any other, only a wait the signal came during ends.
    static BEGAN_STOPPED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` on this thread with every lock wait given up at once (SQLite: busy at the first
/// try), for housekeeping a read does on the way (marking abandoned runs) that the next command
/// can do as well: a reader must not wait out the busy timeout behind another process's write.
pub fn without_waiting<T>(f: impl FnOnce() -> T) -> T {
    let before = NO_WAIT.with(|n| n.replace(true));
    let out = f();
    NO_WAIT.with(|n| n.set(before));
    out
}

/// Installs the handler on `conn`, waiting at most `timeout` for a lock.
pub(super) fn install(conn: &Connection, timeout: Duration) -> rusqlite::Result<()> {
    // The timeout travels as the handler's argument, in microseconds: a number, not a pointer
    // to anything, so nothing has to outlive the connection.
    let us = usize::try_from(timeout.as_micros()).unwrap_or(usize::MAX);
    // SAFETY: the handle is valid for the life of `conn`; `on_busy` matches the callback type
    // and never unwinds; the argument is never dereferenced.
    let rc = unsafe {
        rusqlite::ffi::sqlite3_busy_handler(conn.handle(), Some(on_busy), us as *mut c_void)
    };
    if rc == rusqlite::ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rc),
            Some("cannot install the busy handler".into()),
        ))
    }
}

/// Whether to try again (1, after a pause) or give up (0), on the `attempt`th busy return of
/// one wait. `timeout_us` is the argument [`install`] gave.
extern "C" fn on_busy(timeout_us: *mut c_void, attempt: c_int) -> c_int {
    if NO_WAIT.with(Cell::get) {
        return 0;
    }
    let stopped = super::db::stopped().is_some();
    let now = Instant::now();
    let began = WAIT_BEGAN.with(|w| match w.get() {
        Some(t) if attempt > 0 => t,
        _ => {
            w.set(Some(now));
            BEGAN_STOPPED.with(|b| b.set(stopped));
            now
        }
    });
    // A signal that came during the wait ends it (helper-37: a run waited out its busy
    // timeout after Ctrl-C).
    if stopped && !BEGAN_STOPPED.with(Cell::get) {
        return 0;
    }
    let limit = Duration::from_micros(timeout_us as usize as u64);
    let waited = now.duration_since(began);
    if waited >= limit {
        return 0;
    }
    std::thread::sleep(pause(attempt).min(limit - waited));
    1
}

/// Runs `step` until it does not fail with SQLITE_BUSY, pausing as the handler does, for at
/// most `timeout`. For the statements SQLite refuses at once instead of calling the handler: a
/// connection that holds a read lock and asks for the write lock (switching a new store into
/// WAL mode reads its header first) is told "busy" straight away, since waiting there could
/// deadlock with another reader doing the same. The retry starts without the read lock.
pub(super) fn retry_while_busy<T>(
    timeout: Duration,
    mut step: impl FnMut() -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    let began = Instant::now();
    let began_stopped = super::db::stopped().is_some();
    let mut attempt = 0;
    loop {
        match step() {
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && began.elapsed() < timeout
                    && (began_stopped || super::db::stopped().is_none()) =>
            {
                std::thread::sleep(pause(attempt));
                attempt = attempt.saturating_add(1);
            }
            other => return other,
        }
    }
}

/// The pause before try `attempt + 1`.
fn pause(attempt: c_int) -> Duration {
    if attempt < 40 {
        Duration::from_micros(250)
    } else {
        Duration::from_millis(1)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A store in `dir` with table `t`, and a connection that holds its write lock.
    fn locked(dir: &tempfile::TempDir) -> (std::path::PathBuf, Connection) {
        let path = dir.path().join("s.db");
        let holder = Connection::open(&path).unwrap();
        holder.pragma_update(None, "journal_mode", "WAL").unwrap();
        holder
            .execute_batch("CREATE TABLE t(x); BEGIN IMMEDIATE; INSERT INTO t VALUES (1);")
            .unwrap();
        (path, holder)
    }

    #[test]
    fn a_writer_waits_for_the_lock_and_gets_it_soon_after_its_release() {
        let dir = tempfile::tempdir().unwrap();
        let (path, holder) = locked(&dir);
        let waiter_path = path.clone();
        let waiter = std::thread::spawn(move || {
            let conn = Connection::open(&waiter_path).unwrap();
            install(&conn, Duration::from_secs(10)).unwrap();
            conn.execute_batch("BEGIN IMMEDIATE; INSERT INTO t VALUES (2); COMMIT;")
                .unwrap();
            Instant::now()
        });
        std::thread::sleep(Duration::from_millis(100));
        holder.execute_batch("COMMIT").unwrap();
        let released = Instant::now();
        let got = waiter.join().unwrap();
        // SQLite's own handler would have been asleep for up to 100 ms by now.
        assert!(got.duration_since(released) < Duration::from_millis(50));
        let n: i64 = holder
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 2);
    }

    #[test]
    fn a_wait_gives_up_when_the_timeout_has_passed() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _holder) = locked(&dir);
        let conn = Connection::open(&path).unwrap();
        install(&conn, Duration::from_millis(150)).unwrap();
        let began = Instant::now();
        let err = conn.execute_batch("BEGIN IMMEDIATE").unwrap_err();
        let waited = began.elapsed();
        assert_eq!(
            err.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy)
        );
        assert!(waited >= Duration::from_millis(150), "{waited:?}");
        assert!(waited < Duration::from_secs(2), "{waited:?}");
    }
}
