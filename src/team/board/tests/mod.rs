//! Unit tests of the task board, through the public API of `Board` only (the board is about to
//! be split into submodules; only that API stays). Where a test must fake the passage of time
//! (stale claims for `recover`), it writes the task columns directly, named as in
//! `store/migrations/sqlite/003_teams.sql`.
//!
//! Every test gets a fresh store in a temp dir with team `dev`: lead `lead`, members `w1` and
//! `w2`, reviewer `rev`.

use super::*;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};

use crate::error::ErrorKind;
use crate::store::Store;

struct Fixture {
    store: Store,
    team: Team,
    path: PathBuf,
    _dir: tempfile::TempDir,
}

fn fixture() -> Fixture {
    fixture_with(None)
}

fn fixture_with(settings: Option<Value>) -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("goclaw.db");
    let store = Store::open(&path, Duration::from_secs(10)).expect("open store");
    let members = ["w1".to_string(), "w2".to_string()];
    let reviewers = ["rev".to_string()];
    let team = crate::team::create(store.db(), "dev", "lead", &members, &reviewers, settings)
        .expect("create team");
    Fixture {
        store,
        team,
        path,
        _dir: dir,
    }
}

impl Fixture {
    /// The board as `actor` (opening it runs recovery, as every command does).
    fn board(&mut self, actor: &str) -> Board<'_> {
        Board::open(self.store.db(), self.team.clone(), actor).expect("open board")
    }

    /// Creates a task as the lead.
    fn add(&mut self, new: NewTask) -> Task {
        let (task, created) = self.board("lead").create(new).expect("create task");
        assert!(created, "a new task was expected");
        task
    }

    fn task(&mut self, subject: &str) -> Task {
        self.add(NewTask {
            subject: subject.to_string(),
            ..Default::default()
        })
    }

    fn blocked_task(&mut self, subject: &str, blockers: &[&Task]) -> Task {
        self.add(NewTask {
            subject: subject.to_string(),
            blocked_by: blockers.iter().map(|b| b.identifier.clone()).collect(),
            ..Default::default()
        })
    }

    fn get(&mut self, key: &str) -> Detail {
        self.board("lead").get(key).expect("get task")
    }

    fn events_of(&mut self, key: &str) -> Vec<Event> {
        self.board("lead")
            .events(Some(key), &PageRequest::first(1000))
            .expect("events")
            .items
    }

    /// Runs one statement on the store's own connection (no board may be open).
    fn exec(&self, sql_text: &str, p: impl rusqlite::Params) {
        self.store
            .conn()
            .unwrap()
            .execute(sql_text, p)
            .expect("direct sql");
    }

    /// `(locked_at, lock_expires_at)` of a task.
    fn lock(&self, id: &str) -> (Option<i64>, Option<i64>) {
        self.store
            .conn()
            .unwrap()
            .query_row(
                "SELECT locked_at, lock_expires_at FROM tasks WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .expect("lock columns")
    }

    /// The team's mailbox: `(sender, recipient, kind, text)`, oldest first.
    fn messages(&self) -> Vec<(String, Option<String>, String, String)> {
        let mut stmt = self
            .store
            .conn()
            .unwrap()
            .prepare(
                "SELECT sender, recipient, kind, text FROM messages WHERE team_id = ?1 ORDER BY id",
            )
            .expect("prepare");
        let rows = stmt
            .query_map([self.team.id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })
            .expect("query messages");
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .expect("read messages")
    }
}

/// Asserts an error of `kind` whose message contains `needle`, and returns it.
#[track_caller]
fn expect_err<T: std::fmt::Debug>(
    r: std::result::Result<T, Error>,
    kind: ErrorKind,
    needle: &str,
) -> Error {
    match r {
        Ok(v) => panic!("expected a {kind:?} error containing {needle:?}, got Ok({v:?})"),
        Err(e) => {
            assert_eq!(e.kind, kind, "wrong kind for: {}", e.message);
            assert!(
                e.message.contains(needle),
                "message {:?} does not contain {:?}",
                e.message,
                needle
            );
            e
        }
    }
}

mod blockers;
mod claims;
mod comments;
mod recovery;
mod review;
