//! The dispatcher outlives its store connection: when a PostgreSQL server restarts, fails over
//! or ends the session (`pg_terminate_backend`), the dispatcher connects again, listens again,
//! writes the ends of runs that ended meanwhile, and goes on where it was. The runs under way
//! are left running: each has a connection of its own. With `--watch` (a dispatcher kept by a
//! service manager) it tries for as long as it runs; without, it gives up after
//! [`RECONNECT_FOR`] and fails as before (exit 8). Any other error still ends the team run.

use std::time::{Duration, Instant};

use super::{Dispatcher, LOOK_EVERY, TeamEvent, TeamEventData, Until};
use crate::error::{Error, ErrorKind, Result};
use crate::ops::Note;
use crate::store::db::Dialect;
// The waits between tries are every connection's own (see `store::db::outage`).
use crate::store::db::outage::{FIRST_WAIT, LONGEST_WAIT};

/// How long a team run without `--watch` tries to connect again before it fails.
const RECONNECT_FOR: Duration = Duration::from_secs(120);

impl Dispatcher<'_> {
    /// After `e`: when the store's connection is gone, connects again (see the module's doc)
    /// and returns to the loop, which then looks at the board afresh; else `e`. A stop
    /// (Ctrl-C, `--timeout`) while waiting returns too, and the loop stops.
    pub(super) fn reconnect_after(&mut self, e: Error) -> Result<()> {
        if !self.lost(&e) {
            return Err(e);
        }
        self.emit(TeamEvent::new(
            "team.disconnected",
            &self.team_run_id,
            None,
            TeamEventData::Disconnected {
                error: e.message.clone(),
            },
        ));
        self.notice(Note::Warn(format!(
            "team run {}: {}; connecting again (the runs under way go on)",
            self.team_run_id, e.message
        )));
        let lost = Instant::now();
        let mut wait = FIRST_WAIT;
        loop {
            let until = Instant::now() + wait;
            while Instant::now() < until {
                if self.interrupted().is_some() {
                    return Ok(());
                }
                // Runs that end meanwhile are written once the store answers.
                let ended = self.procs.ended(LOOK_EVERY.min(wait));
                self.unsettled.extend(ended);
            }
            match self.connect_again() {
                Ok(()) => break,
                Err(again) if self.o.until != Until::Watch && lost.elapsed() >= RECONNECT_FOR => {
                    return Err(Error::new(
                        again.kind,
                        format!(
                            "{} (the connection was lost {}s ago, and connecting again failed)",
                            again.message,
                            lost.elapsed().as_secs()
                        ),
                    )
                    .with_hint("the team run can be started again once the server is back"));
                }
                Err(_) => wait = (wait * 2).min(LONGEST_WAIT),
            }
        }
        let after_ms = u64::try_from(lost.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.emit(TeamEvent::new(
            "team.reconnected",
            &self.team_run_id,
            None,
            TeamEventData::Reconnected { after_ms },
        ));
        self.notice(Note::Warn(format!(
            "team run {}: connected to the store again after {:.1}s",
            self.team_run_id,
            after_ms as f64 / 1000.0
        )));
        Ok(())
    }

    /// Before the stop's last writes: a connection found lost is made once more (an attempt
    /// bounded by the connect timeout); nothing when it is not lost or cannot be made.
    pub(super) fn connect_once_more(&mut self) {
        if self.store.db().connection_lost() {
            let _ = self.connect_again();
        }
    }

    /// Whether `e` came from a PostgreSQL connection that is gone: an upstream error, and the
    /// connection closed, or not answering a `SELECT 1` (a session the server ended can fail a
    /// statement before its client marks it closed).
    fn lost(&self, e: &Error) -> bool {
        let db = self.store.db();
        e.kind == ErrorKind::Upstream
            && db.dialect() == Dialect::Postgres
            && (db.connection_lost() || db.execute_batch("SELECT 1").is_err())
    }

    /// A new connection, listening as the old one did; every notification it missed is taken
    /// as come (the board is looked at afresh, its events relayed).
    fn connect_again(&mut self) -> Result<()> {
        // The new connection listens where the old one did.
        self.store.reconnect()?;
        self.look = None;
        self.noticed = super::watch::Noticed::all();
        Ok(())
    }

    fn notice(&self, note: Note) {
        if let Some(notices) = &self.o.notices {
            notices(note);
        }
    }
}
