//! Review and approval, the holder's transitions, and retry.

use super::*;

// ---------------------------------------------------------------------------------------------
// Review

#[test]
fn review_then_approve_completes_the_task_and_releases_dependents() {
    let mut fx = fixture();
    let t = fx.task("feature");
    let dep = fx.blocked_task("release notes", &[&t]);
    fx.board("w1").claim(&t.id).unwrap();
    let r = fx.board("w1").review(&t.id, None).unwrap();
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
    fx.board("w1").review(&t.id, None).unwrap();
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

    fx.board("w1").review(&t.id, None).unwrap();
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
        expect_err(
            fx.board(who).review(&t.id, None),
            ErrorKind::Conflict,
            &held,
        );
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

#[test]
fn a_team_runs_verdict_is_in_its_reviewers_name_and_an_agent_called_system_has_no_lead_rights() {
    let mut fx = fixture();
    let t = fx.task("feature");
    fx.board("w1").claim(&t.id).unwrap();
    fx.board("w1").review(&t.id, Some("draft")).unwrap();
    // The reviewer may not approve by hand; goclaw applies its run's verdict in its name.
    expect_err(
        fx.board("rev").approve(&t.id),
        ErrorKind::Denied,
        "only the team lead",
    );
    let db = fx.store.db();
    Board::for_run_of(db, fx.team.clone(), "rev")
        .reject(&t.id, "add examples")
        .unwrap();
    assert!(
        fx.events_of(&t.id)
            .iter()
            .any(|e| e.event == "rejected" && e.actor == "rev")
    );

    // A store from before `system` was refused as a member: the name gives no rights.
    fx.store
        .db()
        .execute(
            "INSERT INTO team_members (team_id, agent, role, added_at) VALUES (?1, 'system', 'member', '0')",
            crate::db_params![fx.team.id],
        )
        .unwrap();
    let team = crate::team::get(fx.store.db(), "dev").unwrap();
    let held = fx.task("held");
    fx.board("w2").claim(&held.id).unwrap();
    fx.board("w2").review(&held.id, Some("done")).unwrap();
    expect_err(
        Board::open(fx.store.db(), team.clone(), "system")
            .unwrap()
            .approve(&held.id),
        ErrorKind::Denied,
        "only the team lead",
    );
    // And a new one is refused.
    expect_err(
        crate::team::add_member(fx.store.db(), &team, "system", "member"),
        ErrorKind::Usage,
        "cannot be in a team",
    );
}
