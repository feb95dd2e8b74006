//! Unit tests of the task board, through the public API of `Board` only (the board is about to
//! be split into submodules; only that API stays). Where a test must fake the passage of time
//! (stale claims for `recover`), it writes the task columns directly, named as in
//! `store/migrations/003_teams.sql`.
//!
//! Every test gets a fresh store in a temp dir with team `dev`: lead `lead`, members `w1` and
//! `w2`, reviewer `rev`.

use super::*;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};

use crate::error::ErrorKind;

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
    let mut store = Store::open(&path, Duration::from_secs(10)).expect("open store");
    let members = ["w1".to_string(), "w2".to_string()];
    let reviewers = ["rev".to_string()];
    let team = crate::team::create(
        store.conn_mut(),
        "dev",
        "lead",
        &members,
        &reviewers,
        settings,
    )
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
        Board::open(&mut self.store, self.team.clone(), actor).expect("open board")
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
        self.board("lead").events(Some(key), 1000).expect("events")
    }

    /// Runs one statement on the store's own connection (no board may be open).
    fn exec(&self, sql_text: &str, p: impl rusqlite::Params) {
        self.store.conn().execute(sql_text, p).expect("direct sql");
    }

    /// `(locked_at, lock_expires_at)` of a task.
    fn lock(&self, id: &str) -> (Option<i64>, Option<i64>) {
        self.store
            .conn()
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

// ---------------------------------------------------------------------------------------------
// Opening and creating

#[test]
fn open_refuses_a_non_member() {
    let mut fx = fixture();
    let team = fx.team.clone();
    let Err(e) = Board::open(&mut fx.store, team, "stranger") else {
        panic!("a non-member opened the board");
    };
    assert_eq!(e.kind, ErrorKind::Denied);
    assert_eq!(e.message, "`stranger` is not a member of team `dev`");
}

#[test]
fn only_the_lead_creates_tasks_and_a_dedupe_key_returns_the_existing_one() {
    let mut fx = fixture();
    let new = |s: &str| NewTask {
        subject: s.to_string(),
        ..Default::default()
    };
    expect_err(
        fx.board("w1").create(new("x")),
        ErrorKind::Denied,
        "only the team lead can create tasks (members may comment instead)",
    );
    expect_err(
        fx.board("lead").create(new("   ")),
        ErrorKind::Usage,
        "a task needs a subject",
    );
    expect_err(
        fx.board("lead").create(NewTask {
            subject: "x".into(),
            assignee: Some("stranger".into()),
            ..Default::default()
        }),
        ErrorKind::NotFound,
        "`stranger` is not a member of team `dev`",
    );

    let keyed = || NewTask {
        subject: "nightly build".into(),
        dedupe_key: Some("nightly".into()),
        ..Default::default()
    };
    let (first, created) = fx.board("lead").create(keyed()).unwrap();
    assert!(created);
    assert_eq!(first.task_number, 1);
    assert!(
        first.identifier.starts_with("T-001-"),
        "{}",
        first.identifier
    );
    assert_eq!(first.identifier.len(), "T-001-".len() + 4);
    assert_eq!(first.status, "pending");
    let (again, created) = fx.board("lead").create(keyed()).unwrap();
    assert!(!created, "the dedupe key names an existing task");
    assert_eq!(again.id, first.id);
    let other = fx.task("another");
    assert_eq!(other.task_number, 2);
    let (all, next) = fx.board("lead").list("all", 100, None).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(next, None);

    // With member requests on, a member may create request tasks, and only those.
    let mut fx = fixture_with(Some(json!({"member_requests": {"enabled": true}})));
    expect_err(
        fx.board("w1").create(new("x")),
        ErrorKind::Denied,
        "members can only create request tasks (pass --request)",
    );
    let (t, created) = fx
        .board("w1")
        .create(NewTask {
            subject: "please look at the logs".into(),
            request: true,
            ..Default::default()
        })
        .unwrap();
    assert!(created);
    assert_eq!(t.created_by, "w1");
    assert_eq!(t.status, "pending");
}

// ---------------------------------------------------------------------------------------------
// Claiming

#[test]
fn claim_takes_a_pending_task_and_nobody_can_claim_it_again() {
    let mut fx = fixture();
    let t = fx.task("write docs");
    assert_eq!(t.status, "pending");
    assert_eq!(t.owner, None);

    let claimed = fx.board("w1").claim(&t.identifier).unwrap();
    assert_eq!(claimed.status, "in_progress");
    assert_eq!(claimed.owner.as_deref(), Some("w1"));
    let (locked_at, expires) = fx.lock(&t.id);
    let (locked_at, expires) = (locked_at.expect("locked_at"), expires.expect("expires"));
    assert_eq!(
        expires - locked_at,
        30 * 60_000,
        "default lock_minutes is 30"
    );

    let msg = format!(
        "cannot claim task {}: it is in_progress, held by w1; claim needs a pending task nobody holds",
        t.identifier
    );
    let e = expect_err(fx.board("w2").claim(&t.id), ErrorKind::Conflict, &msg);
    assert_eq!(e.message, msg);
    expect_err(
        fx.board("w1").claim(&t.id),
        ErrorKind::Conflict,
        "held by w1",
    );
    expect_err(
        fx.board("lead").claim(&t.id),
        ErrorKind::Conflict,
        "held by w1",
    );
    expect_err(
        fx.board("w1").claim("T-999-dead"),
        ErrorKind::NotFound,
        "no task `T-999-dead` in team `dev`",
    );

    assert_eq!(fx.get(&t.id).task.owner.as_deref(), Some("w1"));
    let claims: Vec<Event> = fx
        .events_of(&t.id)
        .into_iter()
        .filter(|e| e.event == "claimed")
        .collect();
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0].actor, "w1");
}

#[test]
fn a_task_assigned_to_a_member_is_claimable_only_by_that_member() {
    let mut fx = fixture();
    let t = fx.add(NewTask {
        subject: "db migration".into(),
        assignee: Some("w2".into()),
        ..Default::default()
    });
    assert_eq!(t.status, "pending");
    assert_eq!(t.assignee.as_deref(), Some("w2"));
    assert_eq!(t.owner, None);

    let e = expect_err(fx.board("w1").claim(&t.id), ErrorKind::Conflict, "");
    assert_eq!(
        e.message,
        format!("cannot claim task {}: it is assigned to w2", t.identifier)
    );
    assert_eq!(fx.board("w1").claim_next().unwrap(), None);

    let claimed = fx.board("w2").claim(&t.id).unwrap();
    assert_eq!(claimed.owner.as_deref(), Some("w2"));
}

#[test]
fn claim_next_takes_highest_priority_then_oldest_and_none_when_nothing_is_left() {
    let mut fx = fixture();
    let low = fx.add(NewTask {
        subject: "low".into(),
        priority: 0,
        ..Default::default()
    });
    let high1 = fx.add(NewTask {
        subject: "high 1".into(),
        priority: 5,
        ..Default::default()
    });
    let high2 = fx.add(NewTask {
        subject: "high 2".into(),
        priority: 5,
        ..Default::default()
    });
    let mut order = Vec::new();
    for _ in 0..5 {
        match fx.board("w1").claim_next().unwrap() {
            Some(t) => {
                assert_eq!(t.status, "in_progress");
                assert_eq!(t.owner.as_deref(), Some("w1"));
                order.push(t.id);
            }
            None => break,
        }
    }
    assert_eq!(order, vec![high1.id, high2.id, low.id]);
    assert_eq!(fx.board("w2").claim_next().unwrap(), None);
}

#[test]
fn claim_next_skips_blocked_held_and_others_assigned_tasks() {
    let mut fx = fixture();
    let blocker = fx.add(NewTask {
        subject: "blocker".into(),
        priority: 1,
        ..Default::default()
    });
    let blocked = fx.add(NewTask {
        subject: "blocked".into(),
        priority: 9,
        blocked_by: vec![blocker.identifier.clone()],
        ..Default::default()
    });
    assert_eq!(blocked.status, "blocked");
    let theirs = fx.add(NewTask {
        subject: "for w2".into(),
        priority: 9,
        assignee: Some("w2".into()),
        ..Default::default()
    });
    let held = fx.add(NewTask {
        subject: "held".into(),
        priority: 9,
        ..Default::default()
    });
    fx.board("w2").claim(&held.id).unwrap();

    // The only task open to w1 is the low-priority blocker.
    let got = fx
        .board("w1")
        .claim_next()
        .unwrap()
        .expect("a claimable task");
    assert_eq!(got.id, blocker.id);
    assert_eq!(fx.board("w1").claim_next().unwrap(), None);
    let got = fx.board("w2").claim_next().unwrap().expect("w2's own task");
    assert_eq!(got.id, theirs.id);
    assert_eq!(fx.get(&blocked.id).task.status, "blocked");
}

#[test]
fn the_lead_assigns_a_pending_task_to_a_member_who_holds_it_at_once() {
    let mut fx = fixture();
    let t = fx.task("triage");
    expect_err(
        fx.board("w1").assign(&t.id, "w1"),
        ErrorKind::Denied,
        "only the team lead (lead) can assign tasks",
    );
    expect_err(
        fx.board("lead").assign(&t.id, "stranger"),
        ErrorKind::NotFound,
        "`stranger` is not a member of team `dev`",
    );
    let a = fx.board("lead").assign(&t.id, "w2").unwrap();
    assert_eq!(a.status, "in_progress");
    assert_eq!(a.owner.as_deref(), Some("w2"));
    assert_eq!(a.assignee.as_deref(), Some("w2"));
    expect_err(
        fx.board("lead").assign(&t.id, "w1"),
        ErrorKind::Conflict,
        "assign needs a pending task nobody holds",
    );
    assert!(
        fx.events_of(&t.id)
            .iter()
            .any(|e| e.event == "assigned" && e.actor == "lead" && e.data["to"] == "w2")
    );
}

// ---------------------------------------------------------------------------------------------
// Blockers

#[test]
fn a_blocked_task_waits_for_all_its_blockers_to_complete() {
    let mut fx = fixture();
    let a1 = fx.task("schema");
    let a2 = fx.task("fixtures");
    let b = fx.blocked_task("api", &[&a1, &a2]);
    assert_eq!(b.status, "blocked");
    assert_eq!(
        b.blocked_by,
        vec![a1.identifier.clone(), a2.identifier.clone()]
    );
    let msg = format!(
        "cannot claim task {}: it is blocked; claim needs a pending task nobody holds",
        b.identifier
    );
    expect_err(fx.board("w1").claim(&b.id), ErrorKind::Conflict, &msg);

    fx.board("w1").claim(&a1.id).unwrap();
    fx.board("w1").complete(&a1.id, "schema done").unwrap();
    let now = fx.get(&b.id).task;
    assert_eq!(now.status, "blocked", "one blocker is still open");
    assert_eq!(now.blocked_by, vec![a2.identifier.clone()]);
    expect_err(
        fx.board("w2").claim(&b.id),
        ErrorKind::Conflict,
        "it is blocked",
    );

    fx.board("w2").claim(&a2.id).unwrap();
    let done = fx.board("w2").complete(&a2.id, "fixtures done").unwrap();
    assert_eq!(done.status, "completed");
    let now = fx.get(&b.id).task;
    assert_eq!(now.status, "pending");
    assert!(now.blocked_by.is_empty());
    let unblocked: Vec<Event> = fx
        .events_of(&b.id)
        .into_iter()
        .filter(|e| e.event == "unblocked")
        .collect();
    assert_eq!(unblocked.len(), 1);
    assert_eq!(unblocked[0].actor, "w2");
    assert_eq!(unblocked[0].data["by"], a2.id.as_str());

    let claimed = fx.board("w1").claim(&b.id).unwrap();
    assert_eq!(claimed.owner.as_deref(), Some("w1"));
}

#[test]
fn failing_or_cancelling_a_blocker_releases_its_dependents() {
    let mut fx = fixture();
    let probe = fx.task("probe");
    let after_fail = fx.blocked_task("use probe", &[&probe]);
    let legacy = fx.task("legacy");
    let after_cancel = fx.blocked_task("use legacy", &[&legacy]);

    fx.board("w1").claim(&probe.id).unwrap();
    let failed = fx.board("w1").fail(&probe.id, "no network").unwrap();
    assert_eq!(failed.status, "failed");
    assert_eq!(
        fx.get(&probe.id).result.as_deref(),
        Some("FAILED: no network")
    );
    let d = fx.get(&after_fail.id).task;
    assert_eq!(
        d.status, "pending",
        "a failed blocker releases its dependents"
    );
    assert!(d.blocked_by.is_empty());

    expect_err(
        fx.board("w1").cancel(&legacy.id, "not needed"),
        ErrorKind::Denied,
        "only the team lead (lead) can cancel tasks",
    );
    let c = fx.board("lead").cancel(&legacy.id, "not needed").unwrap();
    assert_eq!(c.status, "cancelled");
    assert_eq!(c.owner, None);
    assert_eq!(fx.get(&legacy.id).result.as_deref(), Some("not needed"));
    let d = fx.get(&after_cancel.id).task;
    assert_eq!(
        d.status, "pending",
        "a cancelled blocker releases its dependents"
    );
    assert!(d.blocked_by.is_empty());
    let e = expect_err(
        fx.board("lead").cancel(&legacy.id, "again"),
        ErrorKind::Conflict,
        "",
    );
    assert_eq!(
        e.message,
        format!(
            "cannot cancel task {}: it is cancelled; cancel needs an unfinished task",
            legacy.identifier
        )
    );

    // The edge is gone for good: retrying the failed blocker does not block the dependent again.
    assert_eq!(fx.board("lead").retry(&probe.id).unwrap().status, "pending");
    let d = fx.get(&after_fail.id).task;
    assert_eq!(d.status, "pending");
    assert!(d.blocked_by.is_empty());
}

#[test]
fn blocked_by_must_name_unfinished_tasks_of_the_same_team() {
    let mut fx = fixture();
    let done = fx.task("done already");
    fx.board("w1").claim(&done.id).unwrap();
    fx.board("w1").complete(&done.id, "ok").unwrap();
    let new = |refs: Vec<String>| NewTask {
        subject: "dependent".into(),
        blocked_by: refs,
        ..Default::default()
    };

    expect_err(
        fx.board("lead").create(new(vec!["T-999-dead".into()])),
        ErrorKind::Usage,
        "blocked_by: no task `T-999-dead` in team `dev`",
    );
    let msg = format!(
        "blocked_by task {} (done already) is already completed. Do not block on finished tasks",
        done.identifier
    );
    expect_err(
        fx.board("lead").create(new(vec![done.identifier.clone()])),
        ErrorKind::Usage,
        &msg,
    );

    let ops = crate::team::create(fx.store.conn_mut(), "ops", "lead", &[], &[], None).unwrap();
    let (foreign, _) = Board::open(&mut fx.store, ops, "lead")
        .unwrap()
        .create(NewTask {
            subject: "ops task".into(),
            ..Default::default()
        })
        .unwrap();
    expect_err(
        fx.board("lead").create(new(vec![foreign.id.clone()])),
        ErrorKind::Usage,
        &format!("blocked_by: no task `{}` in team `dev`", foreign.id),
    );
    let (all, _) = fx.board("lead").list("all", 100, None).unwrap();
    assert_eq!(all.len(), 1, "refused creates leave nothing behind");

    // One blocker named twice (by id and by identifier) is one edge.
    let open = fx.task("open");
    let t = fx.add(new(vec![open.id.clone(), open.identifier.clone()]));
    assert_eq!(t.status, "blocked");
    assert_eq!(t.blocked_by, vec![open.identifier.clone()]);
}

#[test]
fn dependency_cycles_and_self_blocks_are_refused_and_change_nothing() {
    let mut fx = fixture();
    let a = fx.task("a");
    let b = fx.blocked_task("b", &[&a]);
    let c = fx.blocked_task("c", &[&b]);
    let block_on = |t: &Task| Changes {
        blocked_by: Some(vec![t.identifier.clone()]),
        ..Default::default()
    };

    let e = expect_err(
        fx.board("lead").update(&a.id, block_on(&a)),
        ErrorKind::Usage,
        "",
    );
    assert_eq!(
        e.message,
        format!("task {} cannot block itself", a.identifier)
    );

    let e = expect_err(
        fx.board("lead").update(&a.id, block_on(&b)),
        ErrorKind::Usage,
        "dependency cycle: ",
    );
    assert_eq!(
        e.message,
        format!(
            "dependency cycle: {} → {} → {}",
            a.identifier, b.identifier, a.identifier
        )
    );

    let e = expect_err(
        fx.board("lead").update(&a.id, block_on(&c)),
        ErrorKind::Usage,
        "dependency cycle: ",
    );
    assert_eq!(
        e.message,
        format!(
            "dependency cycle: {} → {} → {} → {}",
            a.identifier, c.identifier, b.identifier, a.identifier
        )
    );

    let a_now = fx.get(&a.id).task;
    assert_eq!(a_now.status, "pending");
    assert!(a_now.blocked_by.is_empty());
    assert!(
        !fx.events_of(&a.id).iter().any(|e| e.event == "updated"),
        "a refused update writes no event"
    );
    fx.board("w1").claim(&a.id).unwrap();
}

#[test]
fn update_blocked_by_blocks_a_pending_task_and_clearing_it_releases_it() {
    let mut fx = fixture();
    let a = fx.task("a");
    let b = fx.task("b");
    let t = fx
        .board("lead")
        .update(
            &b.id,
            Changes {
                blocked_by: Some(vec![a.identifier.clone()]),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(t.status, "blocked");
    assert_eq!(t.blocked_by, vec![a.identifier.clone()]);
    expect_err(
        fx.board("w1").claim(&b.id),
        ErrorKind::Conflict,
        "it is blocked",
    );

    let t = fx
        .board("lead")
        .update(
            &b.id,
            Changes {
                blocked_by: Some(vec![]),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(t.status, "pending");
    assert!(t.blocked_by.is_empty());

    expect_err(
        fx.board("w1").update(
            &b.id,
            Changes {
                priority: Some(3),
                ..Default::default()
            },
        ),
        ErrorKind::Denied,
        "only the team lead (lead) can update tasks",
    );
    expect_err(
        fx.board("lead").update(&b.id, Changes::default()),
        ErrorKind::Usage,
        "no updates provided",
    );
}

// ---------------------------------------------------------------------------------------------
// Review

#[test]
fn review_then_approve_completes_the_task_and_releases_dependents() {
    let mut fx = fixture();
    let t = fx.task("feature");
    let dep = fx.blocked_task("release notes", &[&t]);
    fx.board("w1").claim(&t.id).unwrap();
    let r = fx.board("w1").review(&t.id).unwrap();
    assert_eq!(r.status, "in_review");
    assert_eq!(r.owner.as_deref(), Some("w1"));
    assert_eq!(
        fx.get(&dep.id).task.status,
        "blocked",
        "in review is not terminal"
    );
    expect_err(
        fx.board("w1").complete(&t.id, "done"),
        ErrorKind::Conflict,
        "complete needs in_progress, held by the caller",
    );

    let a = fx.board("lead").approve(&t.id).unwrap();
    assert_eq!(a.status, "completed");
    assert_eq!(fx.get(&dep.id).task.status, "pending");
    assert!(
        fx.events_of(&t.id)
            .iter()
            .any(|e| e.event == "approved" && e.actor == "lead")
    );
}

#[test]
fn reject_sends_a_reviewed_task_back_to_its_holder_with_the_reason() {
    let mut fx = fixture();
    let t = fx.task("feature");
    fx.board("w1").claim(&t.id).unwrap();
    fx.board("w1").review(&t.id).unwrap();
    let r = fx.board("lead").reject(&t.id, "add tests").unwrap();
    assert_eq!(r.status, "in_progress");
    assert_eq!(r.owner.as_deref(), Some("w1"));
    assert_eq!(fx.get(&t.id).result.as_deref(), Some("Rejected: add tests"));

    expect_err(
        fx.board("w2").complete(&t.id, "x"),
        ErrorKind::Conflict,
        &format!(
            "cannot complete task {}: it is held by w1, not w2",
            t.identifier
        ),
    );
    let done = fx.board("w1").complete(&t.id, "with tests").unwrap();
    assert_eq!(done.status, "completed");
    assert_eq!(fx.get(&t.id).result.as_deref(), Some("with tests"));
}

#[test]
fn only_the_lead_approves_or_rejects_and_only_tasks_in_review() {
    let mut fx = fixture();
    let t = fx.task("feature");
    fx.board("w1").claim(&t.id).unwrap();
    let e = expect_err(fx.board("lead").approve(&t.id), ErrorKind::Conflict, "");
    assert_eq!(
        e.message,
        format!(
            "cannot approve task {}: it is in_progress, held by w1; approve needs in_review",
            t.identifier
        )
    );
    expect_err(
        fx.board("lead").reject(&t.id, "no"),
        ErrorKind::Conflict,
        "reject needs in_review",
    );

    fx.board("w1").review(&t.id).unwrap();
    // Neither the holder, another member nor a reviewer may decide.
    for who in ["w1", "w2", "rev"] {
        expect_err(
            fx.board(who).approve(&t.id),
            ErrorKind::Denied,
            "only the team lead (lead) can approve tasks",
        );
        expect_err(
            fx.board(who).reject(&t.id, "no"),
            ErrorKind::Denied,
            "only the team lead (lead) can reject tasks",
        );
    }
    assert_eq!(fx.get(&t.id).task.status, "in_review");

    fx.board("lead").approve(&t.id).unwrap();
    expect_err(
        fx.board("lead").approve(&t.id),
        ErrorKind::Conflict,
        "it is completed",
    );
}

#[test]
fn a_require_approval_task_waits_in_review_approve_releases_it_and_reject_cancels_it() {
    let mut fx = fixture();
    let gated = fx.add(NewTask {
        subject: "deploy".into(),
        require_approval: true,
        ..Default::default()
    });
    assert_eq!(gated.status, "in_review");
    assert_eq!(gated.owner, None);
    expect_err(
        fx.board("w1").claim(&gated.id),
        ErrorKind::Conflict,
        "it is in_review",
    );
    assert_eq!(fx.board("w1").claim_next().unwrap(), None);

    // Nobody has worked on it: approval releases it for work instead of completing it.
    let approved = fx.board("lead").approve(&gated.id).unwrap();
    assert_eq!(approved.status, "pending");
    assert_eq!(approved.owner, None);
    fx.board("w1").claim(&gated.id).unwrap();

    // With an open blocker, approval leaves it blocked.
    let prep = fx.task("prep");
    let gated_blocked = fx.add(NewTask {
        subject: "deploy 2".into(),
        require_approval: true,
        blocked_by: vec![prep.identifier.clone()],
        ..Default::default()
    });
    assert_eq!(gated_blocked.status, "in_review");
    assert_eq!(
        fx.board("lead").approve(&gated_blocked.id).unwrap().status,
        "blocked"
    );

    // Rejecting an unworked task cancels it, which releases its dependents.
    let risky = fx.add(NewTask {
        subject: "risky".into(),
        require_approval: true,
        ..Default::default()
    });
    let dependent = fx.blocked_task("after risky", &[&risky]);
    let r = fx.board("lead").reject(&risky.id, "too risky").unwrap();
    assert_eq!(r.status, "cancelled");
    assert_eq!(
        fx.get(&risky.id).result.as_deref(),
        Some("Rejected: too risky")
    );
    assert_eq!(fx.get(&dependent.id).task.status, "pending");
}

// ---------------------------------------------------------------------------------------------
// Holder transitions and retry

#[test]
fn only_the_holder_completes_fails_or_submits_a_task() {
    let mut fx = fixture();
    let t = fx.task("job");
    let e = expect_err(
        fx.board("w1").complete(&t.id, "done"),
        ErrorKind::Conflict,
        "",
    );
    assert_eq!(
        e.message,
        format!(
            "cannot complete task {}: it is pending; complete needs in_progress, held by the caller",
            t.identifier
        )
    );

    fx.board("w1").claim(&t.id).unwrap();
    for who in ["w2", "lead"] {
        let held = format!("it is held by w1, not {who}");
        expect_err(
            fx.board(who).complete(&t.id, "done"),
            ErrorKind::Conflict,
            &held,
        );
        expect_err(
            fx.board(who).fail(&t.id, "nope"),
            ErrorKind::Conflict,
            &held,
        );
        expect_err(fx.board(who).review(&t.id), ErrorKind::Conflict, &held);
    }
    expect_err(
        fx.board("w1").complete(&t.id, "  "),
        ErrorKind::Usage,
        "complete needs a result",
    );
    assert_eq!(fx.get(&t.id).task.status, "in_progress");

    let done = fx.board("w1").complete(&t.id, "shipped").unwrap();
    assert_eq!(done.status, "completed");
    assert_eq!(fx.get(&t.id).result.as_deref(), Some("shipped"));
    assert_eq!(fx.lock(&t.id), (None, None), "completion drops the lock");
    expect_err(
        fx.board("w1").fail(&t.id, "late"),
        ErrorKind::Conflict,
        "fail needs in_progress, held by the caller",
    );
}

#[test]
fn the_lead_retries_a_failed_task_back_to_pending_but_not_an_unfinished_one() {
    let mut fx = fixture();
    let t = fx.task("flaky job");
    let e = expect_err(fx.board("lead").retry(&t.id), ErrorKind::Conflict, "");
    assert_eq!(
        e.message,
        format!(
            "cannot retry task {}: it is pending; retry needs a stale, failed, cancelled, in-review or completed task",
            t.identifier
        )
    );
    fx.board("w1").claim(&t.id).unwrap();
    expect_err(
        fx.board("lead").retry(&t.id),
        ErrorKind::Conflict,
        "it is in_progress, held by w1; retry needs",
    );
    fx.board("w1").progress(&t.id, 40, Some("halfway")).unwrap();
    fx.board("w1").fail(&t.id, "timeout").unwrap();

    expect_err(
        fx.board("w1").retry(&t.id),
        ErrorKind::Denied,
        "only the team lead (lead) can retry tasks",
    );
    let r = fx.board("lead").retry(&t.id).unwrap();
    assert_eq!(r.status, "pending");
    assert_eq!(r.owner, None);
    assert_eq!(r.progress_percent, None);
    assert_eq!(r.progress_step, None);
    assert_eq!(fx.get(&t.id).result, None);
    assert_eq!(fx.lock(&t.id), (None, None));
    assert!(
        fx.events_of(&t.id)
            .iter()
            .any(|e| e.event == "retried" && e.actor == "lead")
    );
    let again = fx.board("w2").claim(&t.id).unwrap();
    assert_eq!(again.owner.as_deref(), Some("w2"));

    // A retried task whose own blockers are still open goes back to blocked.
    let prereq = fx.task("prereq");
    let waiting = fx.blocked_task("needs prereq", &[&prereq]);
    fx.board("lead").cancel(&waiting.id, "later").unwrap();
    let back = fx.board("lead").retry(&waiting.id).unwrap();
    assert_eq!(back.status, "blocked");
    assert_eq!(back.blocked_by, vec![prereq.identifier.clone()]);
}

// ---------------------------------------------------------------------------------------------
// Comments and progress

#[test]
fn a_blocker_comment_on_a_task_in_progress_fails_it_and_escalates_to_the_lead() {
    let mut fx = fixture();
    let t = fx.task("deploy");
    let dep = fx.blocked_task("announce", &[&t]);
    fx.board("w1").claim(&t.id).unwrap();

    let (task, note) = fx
        .board("w1")
        .comment(&t.id, "no credentials for prod", true)
        .unwrap();
    assert_eq!(task.status, "failed");
    assert_eq!(
        note,
        "Task #1 \"deploy\" auto-failed due to blocker. Leader has been notified and can retry with updated instructions."
    );
    let d = fx.get(&t.id);
    assert_eq!(
        d.result.as_deref(),
        Some("FAILED: Blocked: no credentials for prod")
    );
    assert_eq!(d.comments.len(), 1);
    assert_eq!(d.comments[0]["type"], "blocker");
    assert_eq!(d.comments[0]["author"], "w1");
    assert!(
        d.events
            .iter()
            .any(|e| e.event == "failed" && e.data["reason"] == "Blocked: no credentials for prod")
    );
    assert_eq!(
        fx.get(&dep.id).task.status,
        "pending",
        "the auto-fail releases dependents"
    );

    let msgs = fx.messages();
    assert_eq!(msgs.len(), 1);
    assert_eq!(msgs[0].0, "system:escalation");
    assert_eq!(msgs[0].1.as_deref(), Some("lead"));
    assert_eq!(msgs[0].2, "escalation");
    assert_eq!(
        msgs[0].3,
        format!(
            "[Escalation] Task #1 \"deploy\" ({}) was blocked by w1: no credentials for prod",
            t.identifier
        )
    );
    assert_eq!(fx.board("lead").retry(&t.id).unwrap().status, "pending");
}

#[test]
fn a_blocker_comment_off_progress_is_only_saved_and_escalation_can_be_turned_off() {
    let mut fx = fixture();
    let t = fx.task("later");
    let (task, note) = fx
        .board("w1")
        .comment(&t.id, "waiting on vendor", true)
        .unwrap();
    assert_eq!(task.status, "pending");
    assert_eq!(
        note,
        "Blocker comment saved on task #1 \"later\", but task is already pending — no escalation needed."
    );
    let (_, note) = fx.board("w2").comment(&t.id, "fyi", false).unwrap();
    assert_eq!(note, "Comment added to task #1 \"later\".");
    assert!(fx.messages().is_empty());
    let d = fx.get(&t.id);
    assert_eq!(d.task.status, "pending");
    let kinds: Vec<&str> = d
        .comments
        .iter()
        .map(|c| c["type"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(kinds, vec!["blocker", "note"]);

    // blocker_escalation off: the task still fails, but the lead gets no message.
    let mut fx = fixture_with(Some(json!({"blocker_escalation": {"enabled": false}})));
    let t = fx.task("deploy");
    fx.board("w1").claim(&t.id).unwrap();
    let (task, note) = fx.board("w1").comment(&t.id, "stuck", true).unwrap();
    assert_eq!(task.status, "failed");
    assert_eq!(note, "Task #1 \"deploy\" auto-failed due to blocker.");
    assert!(fx.messages().is_empty());
}

/// Pins what the code does today: `comment` has no holder check, so another member's blocker
/// comment fails a task somebody else holds. (The module docs say comments that block are the
/// holder's; see the report that came with this file.)
#[test]
fn a_blocker_comment_from_a_non_holder_currently_fails_the_holders_task() {
    let mut fx = fixture();
    let t = fx.task("deploy");
    fx.board("w1").claim(&t.id).unwrap();
    let (task, _) = fx
        .board("w2")
        .comment(&t.id, "I think this is stuck", true)
        .unwrap();
    assert_eq!(task.status, "failed");
    assert_eq!(task.owner.as_deref(), Some("w1"));
    let msgs = fx.messages();
    assert_eq!(msgs.len(), 1);
    assert!(msgs[0].3.contains("was blocked by w2"), "{}", msgs[0].3);
}

#[test]
fn a_comment_needs_text_of_at_most_ten_thousand_bytes() {
    let mut fx = fixture();
    let t = fx.task("x");
    expect_err(
        fx.board("w1").comment(&t.id, "  \n", false),
        ErrorKind::Usage,
        "a comment needs text",
    );
    let too_long = "a".repeat(MAX_COMMENT_BYTES + 1);
    expect_err(
        fx.board("w1").comment(&t.id, &too_long, false),
        ErrorKind::Usage,
        "comment text too long (max 10000 chars)",
    );
    // Bytes, not characters: 5001 two-byte characters are too long.
    let wide = "é".repeat(5_001);
    expect_err(
        fx.board("w1").comment(&t.id, &wide, false),
        ErrorKind::Usage,
        "comment text too long",
    );
    let exactly = "a".repeat(MAX_COMMENT_BYTES);
    fx.board("w1").comment(&t.id, &exactly, false).unwrap();
    let d = fx.get(&t.id);
    assert_eq!(d.comments.len(), 1);
    assert_eq!(
        d.comments[0]["text"].as_str().map(str::len),
        Some(MAX_COMMENT_BYTES)
    );
}

#[test]
fn progress_is_0_to_100_for_the_holder_only_never_decreases_and_renews_the_lock() {
    let mut fx = fixture();
    let t = fx.task("long job");
    for bad in [-1, 101] {
        expect_err(
            fx.board("w1").progress(&t.id, bad, None),
            ErrorKind::Usage,
            "percent must be 0-100",
        );
    }
    expect_err(
        fx.board("w1").progress(&t.id, 10, None),
        ErrorKind::Conflict,
        &format!(
            "cannot report progress on task {}: it is pending; report progress on needs in_progress, held by the caller",
            t.identifier
        ),
    );
    fx.board("w1").claim(&t.id).unwrap();
    expect_err(
        fx.board("w2").progress(&t.id, 10, None),
        ErrorKind::Conflict,
        "it is in_progress, held by w1; report progress on needs in_progress, held by the caller",
    );

    let p = fx.board("w1").progress(&t.id, 0, Some("start")).unwrap();
    assert_eq!(p.progress_percent, Some(0));
    let p = fx.board("w1").progress(&t.id, 60, Some("tests")).unwrap();
    assert_eq!(p.progress_percent, Some(60));
    assert_eq!(p.progress_step.as_deref(), Some("tests"));
    let p = fx.board("w1").progress(&t.id, 30, None).unwrap();
    assert_eq!(p.progress_percent, Some(60), "progress never goes down");
    assert_eq!(
        p.progress_step.as_deref(),
        Some("tests"),
        "no step keeps the last one"
    );
    let p = fx.board("w1").progress(&t.id, 100, Some("done")).unwrap();
    assert_eq!(p.progress_percent, Some(100));

    // Reporting progress pushes the lock out again by lock_minutes.
    let soon = crate::store::now_ms() + 60_000;
    fx.exec(
        "UPDATE tasks SET lock_expires_at = ?1 WHERE id = ?2",
        rusqlite::params![soon, t.id],
    );
    fx.board("w1").progress(&t.id, 100, None).unwrap();
    let (_, expires) = fx.lock(&t.id);
    assert!(
        expires.expect("lock_expires_at") > soon + 20 * 60_000,
        "the lock was renewed"
    );
}

// ---------------------------------------------------------------------------------------------
// Recovery

#[test]
fn opening_the_board_returns_an_expired_claim_to_pending() {
    let mut fx = fixture();
    let t = fx.task("flaky worker");
    let fresh = fx.task("fresh");
    fx.board("w1").claim(&t.id).unwrap();
    fx.board("w1").claim(&fresh.id).unwrap();
    fx.exec(
        "UPDATE tasks SET lock_expires_at = ?1 WHERE id = ?2",
        rusqlite::params![crate::store::now_ms() - 1_000, t.id],
    );

    {
        let mut b = fx.board("w2"); // Board::open runs recover()
        let d = b.get(&t.id).unwrap();
        assert_eq!(d.task.status, "pending");
        assert_eq!(d.task.owner, None);
        let ev = d
            .events
            .iter()
            .find(|e| e.event == "recovered")
            .expect("a recovered event");
        assert_eq!(ev.actor, "system");
        assert_eq!(ev.data["reason"], "lock expired");
        let other = b.get(&fresh.id).unwrap().task;
        assert_eq!(other.status, "in_progress", "a live lock is left alone");
        assert_eq!(other.owner.as_deref(), Some("w1"));

        let again = b.recover().unwrap();
        assert!(again.recovered.is_empty());
        assert!(again.stale.is_empty());
        assert!(again.unblocked.is_empty());

        let claimed = b.claim(&t.id).unwrap();
        assert_eq!(claimed.owner.as_deref(), Some("w2"));
    }
    expect_err(
        fx.board("w1").complete(&t.id, "late result"),
        ErrorKind::Conflict,
        "it is held by w2, not w1",
    );
}

#[test]
fn recover_frees_expired_claims_marks_old_pending_and_review_stale_and_releases_orphans() {
    let mut fx = fixture();
    let expired = fx.task("expired claim");
    let live = fx.task("live claim");
    let old_pending = fx.task("forgotten");
    let old_review = fx.task("unreviewed");
    let blocker = fx.task("blocker");
    let orphan = fx.blocked_task("orphan", &[&blocker]);
    fx.board("w1").claim(&expired.id).unwrap();
    fx.board("w1").claim(&live.id).unwrap();
    fx.board("w2").claim(&old_review.id).unwrap();
    fx.board("w2").review(&old_review.id).unwrap();

    // A second connection to the same store file ages rows while the board is open, so that the
    // result of this board's own recover() (not the one Board::open ran) can be checked.
    let side = rusqlite::Connection::open(&fx.path).expect("second connection");
    side.busy_timeout(Duration::from_secs(10))
        .expect("busy timeout");
    let mut b = fx.board("lead");
    let now = crate::store::now_ms();
    let hour: i64 = 3_600_000;
    side.execute(
        "UPDATE tasks SET lock_expires_at = ?1 WHERE id = ?2",
        rusqlite::params![now - 1_000, expired.id],
    )
    .unwrap();
    side.execute(
        "UPDATE tasks SET updated_at = ?1 WHERE id = ?2",
        rusqlite::params![now - 3 * hour, old_pending.id],
    )
    .unwrap();
    side.execute(
        "UPDATE tasks SET updated_at = ?1 WHERE id = ?2",
        rusqlite::params![now - 5 * hour, old_review.id],
    )
    .unwrap();
    side.execute("DELETE FROM task_deps WHERE task_id = ?1", [&orphan.id])
        .unwrap();

    let out = b.recover().unwrap();
    assert_eq!(out.recovered, vec![expired.id.clone()]);
    assert_eq!(
        out.stale,
        vec![old_pending.id.clone(), old_review.id.clone()]
    );
    assert_eq!(out.unblocked, vec![orphan.id.clone()]);

    let e = b.get(&expired.id).unwrap().task;
    assert_eq!((e.status.as_str(), e.owner), ("pending", None));
    let l = b.get(&live.id).unwrap().task;
    assert_eq!(l.status, "in_progress");
    assert_eq!(l.owner.as_deref(), Some("w1"));
    let p = b.get(&old_pending.id).unwrap();
    assert_eq!(p.task.status, "stale");
    assert!(
        p.events
            .iter()
            .any(|e| e.event == "stale" && e.actor == "system" && e.data["was"] == "pending")
    );
    let r = b.get(&old_review.id).unwrap().task;
    assert_eq!(r.status, "stale");
    assert_eq!(
        r.owner.as_deref(),
        Some("w2"),
        "a stale review keeps its holder"
    );
    assert_eq!(b.get(&orphan.id).unwrap().task.status, "pending");
    assert_eq!(b.get(&blocker.id).unwrap().task.status, "pending");

    let again = b.recover().unwrap();
    assert!(again.recovered.is_empty() && again.stale.is_empty() && again.unblocked.is_empty());
    drop(b);
    drop(side);

    // Stale is a warning, not a lock: a stale pending task can still be claimed.
    let claimed = fx.board("w1").claim(&old_pending.id).unwrap();
    assert_eq!(claimed.status, "in_progress");
    // A stale review still has a holder: it cannot be claimed or approved, only retried.
    expect_err(
        fx.board("w1").claim(&old_review.id),
        ErrorKind::Conflict,
        "it is stale, held by w2",
    );
    expect_err(
        fx.board("lead").approve(&old_review.id),
        ErrorKind::Conflict,
        "approve needs in_review",
    );
    let retried = fx.board("lead").retry(&old_review.id).unwrap();
    assert_eq!(retried.status, "pending");
    assert_eq!(retried.owner, None);
}
