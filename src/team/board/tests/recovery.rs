//! Recovery of expired claims, stale tasks and orphans.

use super::*;

// ---------------------------------------------------------------------------------------------
// Recovery

/// Some change to the board (a note on a new task) that is not about the tasks tested.
fn fx_note(b: &mut Board<'_>) {
    b.comment("#2", "looking", false).unwrap();
}

/// A task claimed by hand long ago and then given to a run of its holder is that run's from
/// then on: the run's process has its whole start grace to write its row. The claim's old lock
/// time counted, and the next change released the task 3 ms after the run was given it (a team
/// run then started a second run on it).
#[test]
fn a_run_given_a_task_claimed_long_ago_has_its_whole_start_grace() {
    let mut fx = fixture();
    let t = fx.task("claimed by hand");
    fx.task("another");
    fx.board("w1").claim(&t.id).unwrap();
    fx.exec(
        "UPDATE tasks SET locked_at = ?1 WHERE id = ?2",
        rusqlite::params![crate::store::now_ms() - 60_000, t.id],
    );
    let run_id = "0190c1d2-0000-7000-8000-000000000001";
    let taken = fx.board("w1").take_for_run(&t.id, run_id).unwrap();
    assert_eq!(taken.run_id.as_deref(), Some(run_id));
    // No run row yet (its process is starting): the next change leaves the claim alone.
    let mut b = fx.board("w2");
    fx_note(&mut b);
    let now = b.get(&t.id).unwrap().task;
    assert_eq!(now.status, "in_progress");
    assert_eq!(now.run_id.as_deref(), Some(run_id));
    assert!(b.recover().unwrap().recovered.is_empty());
}

#[test]
fn the_next_change_returns_an_expired_claim_to_pending() {
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
        let mut b = fx.board("w2");
        // A read changes nothing; the next change (any write) recovers first, in its own
        // transaction.
        assert_eq!(b.get(&t.id).unwrap().task.status, "in_progress");
        fx_note(&mut b);
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
    fx.board("w2").review(&old_review.id, None).unwrap();

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

#[test]
fn a_task_waiting_for_approval_never_goes_stale_and_cannot_be_claimed() {
    let mut fx = fixture();
    let (t, _) = fx
        .board("lead")
        .create(NewTask {
            subject: "risky".into(),
            require_approval: true,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(t.status, "in_review");
    fx.exec(
        "UPDATE tasks SET updated_at = 1 WHERE id = ?1",
        rusqlite::params![t.id],
    );
    let r = fx.board("lead").recover().unwrap();
    assert!(r.stale.is_empty(), "{r:?}");
    assert!(fx.board("w1").claim(&t.id).is_err());
    assert_eq!(fx.get(&t.id).task.status, "in_review");
}

/// A task that waited blocked past the stale time is not stale the moment the lead unblocks it
/// (`tasks update --clear-blocked-by` left `updated_at` as it was, and the next recovery marked
/// it stale).
#[test]
fn a_task_unblocked_by_an_update_is_changed_now() {
    let mut fx = fixture();
    let blocker = fx.task("blocker");
    let waited = fx.blocked_task("waited", &[&blocker]);
    let side = rusqlite::Connection::open(&fx.path).expect("second connection");
    let long_ago = crate::store::now_ms() - 3 * 3_600_000;
    side.execute(
        "UPDATE tasks SET created_at = ?1, updated_at = ?1 WHERE id = ?2",
        rusqlite::params![long_ago, waited.id],
    )
    .unwrap();
    let mut b = fx.board("lead");
    let clear = Changes {
        blocked_by: Some(Vec::new()),
        ..Changes::default()
    };
    let unblocked = b.update(&waited.id, clear).unwrap();
    assert_eq!(unblocked.status, "pending");
    assert!(b.recover().unwrap().stale.is_empty());
}

/// An empty dedupe key is refused: every task created with one would be the first.
#[test]
fn an_empty_dedupe_key_is_refused() {
    let mut fx = fixture();
    let e = fx
        .board("lead")
        .create(NewTask {
            subject: "a".into(),
            dedupe_key: Some(" ".into()),
            ..NewTask::default()
        })
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Usage, "{e}");
}
