//! Opening the board, creating tasks, claiming and assigning them.

use super::*;

// ---------------------------------------------------------------------------------------------
// Opening and creating

#[test]
fn open_refuses_a_non_member() {
    let fx = fixture();
    let team = fx.team.clone();
    let Err(e) = Board::open(fx.store.db(), team, "stranger") else {
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
    let page = fx
        .board("lead")
        .list("all", &crate::team::board::PageRequest::first(100))
        .unwrap();
    let (all, next) = (page.items, page.next_cursor);
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
    assert_eq!(
        t.status, "in_review",
        "a member's request waits for the lead's approval"
    );
    assert_eq!(fx.board("lead").approve(&t.id).unwrap().status, "pending");
    // A team that dispatches requests takes them as they come.
    let mut fx = fixture_with(Some(
        json!({"member_requests": {"enabled": true, "auto_dispatch": true}}),
    ));
    let (t, _) = fx
        .board("w1")
        .create(NewTask {
            subject: "please look at the logs".into(),
            request: true,
            ..Default::default()
        })
        .unwrap();
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

/// A claim compiles its statements before it takes SQLite's one write lock, which every other
/// process's write waits for: between the compiling of its `BEGIN IMMEDIATE` and of its
/// `COMMIT` nothing else is compiled. SQLite asks the authorizer at every compiling, and only
/// then; the claim runs on a connection of its own, as in a `goclaw tasks claim` process.
#[test]
fn a_claim_compiles_nothing_while_it_holds_the_write_lock() {
    use std::ffi::{CStr, c_char, c_int, c_void};
    use std::sync::Mutex;

    use rusqlite::ffi;

    /// Records what is compiled: `BEGIN`, `COMMIT` or the table a statement reads or writes.
    extern "C" fn authorize(
        seen: *mut c_void,
        _action: c_int,
        arg1: *const c_char,
        _: *const c_char,
        _: *const c_char,
        _: *const c_char,
    ) -> c_int {
        // SAFETY: `seen` is the Mutex below, alive until the authorizer is removed; `arg1` is
        // NULL or a NUL-terminated string SQLite owns for the length of the call.
        let (seen, what) = unsafe {
            let what = if arg1.is_null() {
                String::new()
            } else {
                CStr::from_ptr(arg1).to_string_lossy().into_owned()
            };
            (&*(seen as *const Mutex<Vec<String>>), what)
        };
        seen.lock().unwrap().push(what);
        ffi::SQLITE_OK
    }

    let mut fx = fixture();
    fx.task("first");
    fx.task("second");
    let store = Store::open(&fx.path, Duration::from_secs(10)).expect("open store");
    let seen: Box<Mutex<Vec<String>>> = Box::default();
    let conn = store.conn().unwrap();
    // SAFETY: the handle is the open connection's; the callback matches SQLite's type and the
    // pointer it gets stays valid until the authorizer is removed below.
    unsafe {
        let seen_ptr = (&*seen as *const Mutex<Vec<String>>).cast_mut().cast();
        ffi::sqlite3_set_authorizer(conn.handle(), Some(authorize), seen_ptr);
    }
    let claimed = Board::open(store.db(), fx.team.clone(), "w1")
        .unwrap()
        .claim_next()
        .unwrap()
        .unwrap();
    assert_eq!(claimed.subject, "first");
    // SAFETY: as above; no callback afterwards.
    unsafe {
        ffi::sqlite3_set_authorizer(conn.handle(), None, std::ptr::null_mut());
    }
    let seen = seen.lock().unwrap().clone();
    let begin = seen.iter().position(|w| w == "BEGIN").expect("no BEGIN");
    let commit = seen.iter().rposition(|w| w == "COMMIT").expect("no COMMIT");
    assert!(begin < commit, "{seen:?}");
    assert!(
        seen[begin + 1..commit].is_empty(),
        "compiled under the write lock: {:?}",
        &seen[begin + 1..commit]
    );
}

/// A member removed from the team gives back what it held: its task in progress goes back to
/// pending (it could end it no more, and it waited 30 minutes for its lock), and a task
/// assigned to it may be claimed by the others.
#[test]
fn a_member_who_leaves_gives_back_its_tasks() {
    let mut fx = fixture();
    let held = fx.task("held");
    let assigned = fx.add(NewTask {
        subject: "assigned".into(),
        assignee: Some("w2".into()),
        ..NewTask::default()
    });
    fx.board("w2").claim(&held.id).unwrap();
    let team = fx.team.clone();
    crate::team::remove_member(fx.store.db(), &team, "w2").unwrap();
    let mut b = fx.board("lead");
    let t = b.get(&held.id).unwrap().task;
    assert_eq!((t.status.as_str(), t.owner), ("pending", None));
    assert_eq!(b.get(&assigned.id).unwrap().task.assignee, None);
    let events = fx.events_of(&held.id);
    assert!(events.iter().any(|e| e.event == "released"), "{events:?}");
}
