//! What the team-run dispatcher sees of the board: when it is worth looking again (a run
//! ended, the board or the mailbox changed, or [`LOOK_ANYWAY`] passed; on PostgreSQL, only
//! after a notification), and the board's events relayed with `--events`.

use std::time::{Duration, Instant};

use super::{Dispatcher, LOOK_ANYWAY, TeamEvent, TeamEventData};
use crate::error::Result;
use crate::store::db::Dialect;
use crate::team::board;

/// What a notification leaves to do (PostgreSQL; on SQLite the dispatcher looks every time).
#[derive(Default)]
pub(super) struct Noticed {
    board: bool,
    events: bool,
}

impl Noticed {
    /// As if a notification had come: look at the board and relay its events.
    pub(super) fn all() -> Noticed {
        Noticed {
            board: true,
            events: true,
        }
    }
}

impl Dispatcher<'_> {
    /// Whether the board may offer something new since the dispatcher last acted on it: a
    /// run ended, the board changed, a message arrived, or [`LOOK_ANYWAY`] passed (locks expire
    /// silently). Claims are writes: an idle dispatcher does not make one every look.
    pub(super) fn board_moved(&mut self) -> Result<bool> {
        self.take_notifications()?;
        let db = self.store.db();
        // On PostgreSQL the board and the mailbox say when they change (NOTIFY, from any
        // machine): without a notification there is nothing to look at until LOOK_ANYWAY.
        if db.dialect() == Dialect::Postgres
            && let Some((_, at)) = self.look
            && at.elapsed() < LOOK_ANYWAY
            && !self.noticed.board
        {
            return Ok(false);
        }
        self.noticed.board = false;
        let now = (
            board::last_event(db, self.team.id)?,
            db.query_row(
                "SELECT coalesce(max(id), 0) FROM messages WHERE team_id = ?1",
                crate::db_params![self.team.id],
                |r| r.get::<i64>(0),
            )?,
        );
        let moved = match self.look {
            Some((seen, at)) => seen != now || at.elapsed() >= LOOK_ANYWAY,
            None => true,
        };
        if moved {
            // Runs of other dispatchers whose process died are marked, so their claims go
            // back and nobody waits for them.
            crate::agent::record::reap_abandoned(self.store.db())?;
        }
        if moved {
            self.look = Some((now, Instant::now()));
        }
        Ok(moved)
    }

    /// PostgreSQL: takes the notifications that came, for both the look at the board and the
    /// events to relay.
    fn take_notifications(&mut self) -> Result<()> {
        let db = self.store.db();
        if db.dialect() == Dialect::Postgres && db.notified(Duration::ZERO)? {
            self.noticed = Noticed::all();
        }
        Ok(())
    }

    /// Relays the board's new events (with `--events`). On PostgreSQL only after a
    /// notification, or at the end (`all`), so an idle team run asks nothing of the server.
    pub(super) fn send_board_events(&mut self, all: bool) -> Result<()> {
        if self.o.relay.is_none() {
            return Ok(());
        }
        self.take_notifications()?;
        if self.store.db().dialect() == Dialect::Postgres && !self.noticed.events && !all {
            return Ok(());
        }
        self.noticed.events = false;
        let events = board::events_after(self.store.db(), self.team.id, self.last_event, 1000)?;
        for e in events {
            self.last_event = e.id;
            self.emit(TeamEvent::board(&self.team_run_id, &e));
        }
        Ok(())
    }

    pub(super) fn emit(&self, mut event: TeamEvent) {
        let Some(relay) = &self.o.relay else { return };
        if let TeamEventData::Board { data, .. } = &mut event.data {
            self.scrubber.scrub_json(data);
        }
        if let TeamEventData::Completed {
            answer: Some(a), ..
        } = &mut event.data
        {
            *a = self.scrubber.scrub_str(a, None);
        }
        if let Ok(line) = serde_json::to_string(&event) {
            relay.line(&line);
        }
    }
}
