//! Comments (blocker comments fail and escalate) and progress.

use super::*;

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
        "blocked",
        "the dependents wait: the lead may retry the task"
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

/// A blocker comment on a task in progress fails it, whoever of the team makes it (the issue of
/// team runs: whoever sees the work cannot go on says so, and the run working on it stops).
#[test]
fn a_blocker_comment_from_any_member_fails_the_task() {
    let mut fx = fixture();
    let t = fx.task("deploy");
    fx.board("w1").claim(&t.id).unwrap();
    let (task, _) = fx.board("w2").comment(&t.id, "prod is down", true).unwrap();
    assert_eq!(task.status, "failed");
    let msgs = fx.messages();
    assert_eq!(msgs.len(), 1);
    assert!(
        msgs[0].3.contains("was blocked by w2: prod is down"),
        "{}",
        msgs[0].3
    );
    // A note changes nothing.
    let n = fx.task("note me");
    fx.board("w1").claim(&n.id).unwrap();
    fx.board("w2").comment(&n.id, "looks stuck", false).unwrap();
    assert_eq!(
        fx.board("w1").get(&n.id).unwrap().task.status,
        "in_progress"
    );
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
