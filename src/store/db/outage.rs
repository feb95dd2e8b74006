//! A PostgreSQL connection outlives its server's restarts, failovers and ended sessions: before
//! a statement is sent on a connection that has been idle (a run waiting for its model, a tool
//! running, a daemon between ticks), the connection is asked whether it still lives (one round
//! trip, only after [`PROBE_AFTER`] of silence). When it does not, a new one is made, waiting
//! 0.25 s doubling to 10 s between tries, for up to [`RECONNECT_FOR`]; the channels it listened
//! to are listened to again, and the next wait for a notification says one came (the caller
//! looks afresh at what it missed). Then the statement is sent on the new connection.
//!
//! Only a statement not sent yet is ever sent again, so nothing is written twice: a connection
//! found dead inside a transaction, under a session lock (the migration lock), or while a
//! statement runs fails that statement as before (exit 8). A signal ends the wait at once.
//! The team dispatcher replaces its connection itself (with its own events), so it turns this
//! off for its connection ([`Db::reconnect_when_lost`](super::Db::reconnect_when_lost)).

use std::time::{Duration, Instant};

use super::pg::Client;
use crate::error::{Error, ErrorKind, Result};

/// How long a connection is silent before the next statement first asks whether it lives.
pub const PROBE_AFTER: Duration = Duration::from_secs(1);
/// How long a lost connection is made again before the statement fails.
pub const RECONNECT_FOR: Duration = Duration::from_secs(120);
/// The first wait before connecting again; it doubles up to [`LONGEST_WAIT`].
pub const FIRST_WAIT: Duration = Duration::from_millis(250);
pub const LONGEST_WAIT: Duration = Duration::from_secs(10);

/// A connection lost, or made again: told to whoever assembled the process ([`on_outage`]).
#[derive(Debug, Clone, Copy)]
pub enum Outage<'a> {
    /// The connection to `store` is gone (`error`); a new one is being made.
    Lost { store: &'a str, error: &'a str },
    /// A new connection to `store` was made, `after` the old one was found lost.
    Back { store: &'a str, after: Duration },
}

impl std::fmt::Display for Outage<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outage::Lost { store, error } => write!(
                f,
                "store {store}: the connection was lost ({error}); connecting again"
            ),
            Outage::Back { store, after } => write!(
                f,
                "store {store}: connected again after {:.1}s",
                after.as_secs_f64()
            ),
        }
    }
}

type OutageHook = Box<dyn Fn(&Outage<'_>) + Send + Sync>;

static ON_OUTAGE: std::sync::OnceLock<OutageHook> = std::sync::OnceLock::new();
static STOPPED_BY: std::sync::OnceLock<fn() -> Option<ErrorKind>> = std::sync::OnceLock::new();

/// Calls `hook` when a connection of this process is lost and when it is made again (the
/// command line warns on stderr); set once by whoever assembles the process.
pub fn on_outage(hook: impl Fn(&Outage<'_>) + Send + Sync + 'static) {
    let _ = ON_OUTAGE.set(Box::new(hook));
}

/// `stopped` says whether the process was asked to stop (a signal) and as what: a wait for a
/// lost connection ends as soon as it says so.
pub fn stop_waiting_when(stopped: fn() -> Option<ErrorKind>) {
    let _ = STOPPED_BY.set(stopped);
}

fn tell(outage: Outage<'_>) {
    if let Some(hook) = ON_OUTAGE.get() {
        hook(&outage);
    }
}

/// Whether this process was asked to stop (see [`stop_waiting_when`]), and as what: a wait for
/// a lost connection or for another process's lock ends then.
pub fn stopped() -> Option<ErrorKind> {
    STOPPED_BY.get().and_then(|stopped| stopped())
}

impl Client {
    /// Before a statement: a connection that may be replaced, idle for [`PROBE_AFTER`] or
    /// seen closed, and found dead, is replaced (see the module's doc).
    pub(super) fn ready(&mut self) -> Result<()> {
        if !self.heal || self.held > 0 {
            return Ok(());
        }
        let lost = if self.inner.is_closed() {
            Some("the server closed it".to_string())
        } else if self.used.elapsed() >= PROBE_AFTER {
            let wait = self.connect.connect_timeout;
            self.busy(|c| c.is_valid(wait))
                .err()
                .map(|e| self.error(&e).message)
        } else {
            None
        };
        match lost {
            Some(error) => self.recover(&error),
            None => Ok(()),
        }
    }

    /// After a wait for notifications failed or found the connection closed: replaced when it
    /// may be (then true: the caller looks afresh), else `failure`.
    pub(super) fn recover_wait(&mut self, failure: Error) -> Result<bool> {
        if !self.heal || self.held > 0 {
            return Err(failure);
        }
        self.recover(&failure.message)?;
        Ok(true)
    }

    /// Makes a new connection for one found lost (`error`), trying for [`RECONNECT_FOR`].
    fn recover(&mut self, error: &str) -> Result<()> {
        let store = self.connect.url.to_string();
        tell(Outage::Lost {
            store: &store,
            error,
        });
        let lost = Instant::now();
        let mut wait = FIRST_WAIT;
        loop {
            let failed = match self.replace() {
                Ok(()) => break,
                Err(e) => e,
            };
            if lost.elapsed() >= RECONNECT_FOR {
                return Err(Error::new(
                    failed.kind,
                    format!(
                        "{} (the connection was lost {}s ago, and connecting again failed)",
                        failed.message,
                        lost.elapsed().as_secs()
                    ),
                )
                .with_hint("the command can be run again once the server is back"));
            }
            let until = Instant::now() + wait;
            while Instant::now() < until {
                if let Some(kind) = stopped() {
                    return Err(Error::new(kind, kind.stop_text().unwrap_or(kind.name())));
                }
                std::thread::sleep(Duration::from_millis(50).min(until - Instant::now()));
            }
            wait = (wait * 2).min(LONGEST_WAIT);
        }
        tell(Outage::Back {
            store: &store,
            after: lost.elapsed(),
        });
        Ok(())
    }

    /// Replaces the connection with a new one that listens where it listened; the next wait
    /// for a notification says one came. The old one is let go on a thread of its own: a
    /// server that stopped answering would hold its goodbye.
    pub fn replace(&mut self) -> Result<()> {
        let mut fresh = self.connect.connect()?;
        for channel in &self.listening {
            fresh
                .inner
                .batch_execute(&listen_statement(channel))
                .map_err(|e| fresh.error(&e))?;
        }
        fresh.listening = std::mem::take(&mut self.listening);
        fresh.heal = self.heal;
        fresh.missed = true;
        let old = std::mem::replace(self, fresh);
        std::thread::spawn(move || drop(old));
        Ok(())
    }
}

/// `LISTEN` on `channel`, goclaw's own name (never user text).
pub(super) fn listen_statement(channel: &str) -> String {
    format!("LISTEN \"{channel}\"")
}
