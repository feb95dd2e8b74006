//! Schedules, and the leases that keep a job to one tick.

use super::*;

#[test]
fn schedules_parse_with_the_reference_messages() {
    let now = 1_700_000_000_000;
    assert_eq!(
        Schedule::parse(&json!({"kind":"at","atMs": now - 1}), now).unwrap_err(),
        format!(
            "job.schedule.atMs is in the past ({}). Use a future Unix timestamp in milliseconds. Current time is {now} ms",
            now - 1
        )
    );
    assert_eq!(
        Schedule::parse(&json!({"kind":"weekly"}), now).unwrap_err(),
        "invalid schedule kind: weekly (must be at, every, or cron)"
    );
    assert!(Schedule::parse(&json!({"kind":"cron","expr":"61 * * * *"}), now).is_err());
    assert!(
        Schedule::parse(
            &json!({"kind":"cron","expr":"0 9 * * *","tz":"Mars/Base"}),
            now
        )
        .unwrap_err()
        .starts_with("invalid timezone 'Mars/Base'")
    );
}

#[test]
fn next_times() {
    // 2023-11-14T22:13:20Z.
    let now = 1_700_000_000_000;
    let daily = Schedule::Cron {
        expr: "0 9 * * *".into(),
        tz: Some("Asia/Ho_Chi_Minh".into()),
    };
    // 09:00 in UTC+7 is 02:00Z; the next one after 22:13Z is the 15th at 02:00Z.
    assert_eq!(daily.next_after(now).unwrap(), Some(1_700_013_600_000));
    let every = Schedule::Every { every_ms: 60_000 };
    assert_eq!(every.next_after(now).unwrap(), Some(now + 60_000));
    // Three and a half intervals late: the next is the fourth, keeping the rhythm.
    assert_eq!(
        every.following(now, now + 210_000).unwrap(),
        Some(now + 240_000)
    );
    let at = Schedule::At { at_ms: now + 5 };
    assert_eq!(at.next_after(now).unwrap(), Some(now + 5));
    assert_eq!(at.next_after(now + 5).unwrap(), None);
}

fn store_with_a_job() -> (tempfile::TempDir, crate::store::Store, i64) {
    let dir = tempfile::tempdir().unwrap();
    let store =
        crate::store::Store::open(&dir.path().join("s.db"), crate::store::BUSY_TIMEOUT).unwrap();
    let job = add(store.db(), &named("j")).unwrap();
    (dir, store, job.id)
}

/// A job every hour that calls `datetime`.
fn named(name: &str) -> NewJob {
    NewJob {
        name: name.into(),
        agent: None,
        user: None,
        session: None,
        schedule: Schedule::Every {
            every_ms: 3_600_000,
        },
        payload: Payload::Tool {
            tool: "datetime".into(),
            args: json!({}),
        },
        allowed_tools: vec!["datetime".into()],
        created_by: "test".into(),
        delete_after_run: false,
        deliver: None,
    }
}

/// A job's name is not empty and not a number: `cron rm 1` removed job 1, not the job named 1.
#[test]
fn a_jobs_name_is_neither_empty_nor_a_number() {
    let (_dir, store, _) = store_with_a_job();
    for name in ["", "  ", "1", " 42 ", "-3"] {
        let e = add(store.db(), &named(name)).unwrap_err();
        assert_eq!(e.kind, crate::error::ErrorKind::Usage, "{name:?}: {e}");
    }
    assert!(add(store.db(), &named("nightly-2")).is_ok());
}

fn lease_owner(store: &crate::store::Store, id: i64) -> Option<String> {
    store
        .db()
        .query_row(
            "SELECT lease_owner FROM cron_jobs WHERE id = ?1",
            db_params![id],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn a_tick_frees_only_a_lease_it_still_holds() {
    let (_dir, store, id) = store_with_a_job();
    let first = claim(store.db(), id, "tick:a#x:11:u1", 60_000, true)
        .unwrap()
        .unwrap();
    // Its lease expired under a long run, and another tick took the job.
    store
        .db()
        .execute("UPDATE cron_jobs SET lease_until_ms = 1", &[])
        .unwrap();
    let second = claim(store.db(), id, "tick:a#x:12:u2", 60_000, true)
        .unwrap()
        .unwrap();
    let ok = Ending {
        ok: true,
        error: None,
        output: None,
        run_id: None,
    };
    finish(store.db(), &first, &ok).unwrap();
    assert_eq!(lease_owner(&store, id).as_deref(), Some("tick:a#x:12:u2"));
    finish(store.db(), &second, &ok).unwrap();
    assert_eq!(lease_owner(&store, id), None);
}

#[test]
fn a_lease_is_freed_early_only_for_a_dead_tick_that_saw_the_same_pids() {
    let here = crate::host::pid_place();
    assert_eq!(
        runner_process(&format!("tick:{here}:77:u")),
        Some((here.as_str(), 77, None))
    );
    assert_eq!(
        runner_process(&format!("tick:{here}:77.1234:u")),
        Some((here.as_str(), 77, Some(1234)))
    );
    let named = runner_name();
    let own = crate::host::own_start();
    let pid = i64::from(std::process::id());
    assert_eq!(runner_process(&named), Some((here.as_str(), pid, own)));
    // Older ticks named no place; pids 0 and 1 and odd shapes are nobody's.
    for odd in [
        "tick:77:u",
        "tick:vm:77:u",
        "tick:h#n:1:u",
        "tick:h#n:-5:u",
        "tick:h#n:+9:u",
        "tick:h#n::u",
        "tick:h#n:77.:u",
        "tick:h#n:77.x:u",
        "tick:h#n:.5:u",
    ] {
        assert_eq!(runner_process(odd), None, "{odd}");
    }
    let (_dir, store, id) = store_with_a_job();
    // A pid of this place that no process has (the kernel's pid_max is below 2^22).
    let dead = format!("tick:{here}:{}:u", 1 << 22);
    claim(store.db(), id, &dead, 60_000, true).unwrap().unwrap();
    reap(store.db()).unwrap();
    assert_eq!(lease_owner(&store, id), None);
    // A pid given to another process since (this one, started at another time) is not the
    // tick's: its lease is freed too.
    let reused = format!("tick:{here}:{pid}.{}:u", own.unwrap() + 1);
    claim(store.db(), id, &reused, 60_000, true)
        .unwrap()
        .unwrap();
    reap(store.db()).unwrap();
    assert_eq!(lease_owner(&store, id), None);
    // Another place's tick, or this place's live one, keeps its lease.
    let mine = format!("tick:{here}:{}:u", std::process::id());
    for owner in [
        format!("tick:other#pid:[1]:{}:u", 1 << 22),
        mine,
        named.clone(),
    ] {
        claim(store.db(), id, &owner, 60_000, true)
            .unwrap()
            .unwrap();
        reap(store.db()).unwrap();
        assert_eq!(lease_owner(&store, id), Some(owner.clone()));
        store
            .db()
            .execute(
                "UPDATE cron_jobs SET lease_owner = NULL, lease_until_ms = NULL",
                &[],
            )
            .unwrap();
    }
}
