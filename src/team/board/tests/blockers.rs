//! Dependencies: blocked tasks, released dependents, refused cycles.

use super::*;

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
fn a_failed_blocker_keeps_its_dependents_waiting_and_a_cancelled_one_releases_them() {
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
        d.status, "blocked",
        "a failed blocker keeps its dependents waiting for its work"
    );
    assert_eq!(d.blocked_by, vec![probe.identifier.clone()]);

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

    // Retried and completed, the blocker releases its dependent.
    assert_eq!(fx.board("lead").retry(&probe.id).unwrap().status, "pending");
    assert_eq!(fx.get(&after_fail.id).task.status, "blocked");
    fx.board("w1").claim(&probe.id).unwrap();
    fx.board("w1").complete(&probe.id, "it works").unwrap();
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

    let ops = crate::team::create(fx.store.db(), "ops", "lead", &[], &[], None).unwrap();
    let (foreign, _) = Board::open(fx.store.db(), ops, "lead")
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
    let all = fx
        .board("lead")
        .list("all", &crate::team::board::PageRequest::first(100))
        .unwrap()
        .items;
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
