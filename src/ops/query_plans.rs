//! Every hot query uses an index: the store's operations are run on a store with rows in it,
//! every statement they execute is captured (SQLite's trace), and the query plan of each must
//! not scan a table that grows with use (tasks, their events, messages, runs, spans, the audit
//! trail) or sort one in a temporary B-tree. A query added without its index fails here.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use crate::agent::record::{self, NewRun, RunEnd, RunStatus};
use crate::providers::{Message, Role};
use crate::store::Store;
use crate::team::board::{self, Board, NewTask, PageRequest};
use crate::team::{self, mailbox};
use crate::text::scrub::Scrubber;

/// Tables that grow with use: a full scan of one is O(n).
const GROWING: [&str; 13] = [
    "sessions",
    "tasks",
    "task_events",
    "task_comments",
    "messages",
    "message_reads",
    "runs",
    "spans",
    "session_messages",
    "tool_calls",
    "subagents",
    "rate_limit_events",
    "cron_runs",
];

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.db"), crate::store::BUSY_TIMEOUT).unwrap();
    (dir, store)
}

/// Rows enough for the planner to prefer indexes, and the statistics it plans with.
fn fill(store: &mut Store) -> team::Team {
    let t = team::create(
        store.db(),
        "t",
        "lead",
        &["w1".into(), "w2".into()],
        &[],
        None,
    )
    .unwrap();
    {
        let mut b = Board::open(store.db(), t.clone(), "lead").unwrap();
        for i in 0..300 {
            b.create(NewTask {
                subject: format!("task {i}"),
                ..Default::default()
            })
            .unwrap();
        }
    }
    let conn = store.conn().unwrap();
    for i in 0..300 {
        conn.execute(
            "INSERT INTO runs (id, agent, provider, model, status, started_at) VALUES (?1, 'a', 'p', 'm', 'completed', ?2)",
            rusqlite::params![format!("r{i}"), i],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO tool_calls (at, agent, tool, arguments, outcome, is_error, duration_ms, decision)
             VALUES (?1, 'a', ?2, '{}', 'ok', 0, 1, '{}')",
            rusqlite::params![i.to_string(), if i % 50 == 0 { "rare" } else { "read_file" }],
        )
        .unwrap();
    }
    for job in 1..=3 {
        conn.execute(
            "INSERT INTO cron_jobs (id, name, schedule, payload, allowed_tools, created_at, updated_at)
             VALUES (?1, ?2, '{}', '{}', '[]', 0, 0)",
            rusqlite::params![job, format!("job{job}")],
        )
        .unwrap();
        for i in 0..100 {
            conn.execute(
                "INSERT INTO cron_runs (job_id, started_at, status, runner) VALUES (?1, ?2, 'ok', 'tick')",
                rusqlite::params![job, i],
            )
            .unwrap();
        }
    }
    conn.execute_batch("ANALYZE").unwrap();
    t
}

/// The operations whose statements are checked.
fn exercise(store: &mut Store, t: &team::Team) {
    exercise_board(store, t);
    exercise_runs(store, t);
}

/// The board's operations, pages after the first included.
fn exercise_board(store: &mut Store, t: &team::Team) {
    {
        let mut b = Board::open(store.db(), t.clone(), "w1").unwrap();
        let first = PageRequest::first(30);
        let next = b.list("all", &first).unwrap().next_cursor;
        b.list("pending", &first).unwrap();
        b.list(
            "all",
            &PageRequest {
                limit: Some(30),
                cursor: next,
            },
        )
        .unwrap();
        let claimed = b.claim_next().unwrap().unwrap();
        b.get(&claimed.id).unwrap();
        b.get("#7").unwrap();
        b.complete(&claimed.id, "done").unwrap();
        b.claim_for_run(None, "run-x", Some(3)).unwrap();
        b.events(None, &PageRequest::first(50)).unwrap();
        b.events(
            None,
            &PageRequest {
                limit: Some(5),
                cursor: Some("3".into()),
            },
        )
        .unwrap();
        b.search("task", &PageRequest::first(5)).unwrap();
        b.recover().unwrap();
    }
    for which in [
        board::Watch::Task("x"),
        board::Watch::HeldWithoutRun("w1"),
        board::Watch::Spent(3),
        board::Watch::Submitted,
    ] {
        board::snapshot(store.db(), t.id, which).unwrap();
    }
    board::events_after(store.db(), t.id, 10, 100).unwrap();
    let task = Board::open(store.db(), t.clone(), "lead")
        .unwrap()
        .reload("#1")
        .unwrap();
    board::taken_from(store.db(), &task, "run-x").unwrap();
    Board::live_claims(store.db(), t.id).unwrap();
}

/// The mailbox, runs, sessions and the audit trail.
fn exercise_runs(store: &mut Store, t: &team::Team) {
    let scrubber = Scrubber::new(&[], &[]).unwrap();
    mailbox::send(store.db(), t, "lead", "w1", "hi").unwrap();
    mailbox::read(store.db(), t, "w1").unwrap();
    mailbox::unread_from(store.db(), t, "lead", "system:escalation").unwrap();
    let run = NewRun {
        id: "run-1",
        session: Some("s1"),
        agent: "a",
        user: None,
        provider: "p",
        model: "m",
        message: "hello",
        parent: None,
    };
    record::start_run(store.db(), &scrubber, &run).unwrap();
    let msgs = vec![Message::new(Role::User, "hello")];
    record::checkpoint(store.db(), &scrubber, "run-1", ("s1", "a", None), &msgs).unwrap();
    record::finish_run(
        store.db(),
        &scrubber,
        "run-1",
        Some(("s1", "a", None)),
        &msgs,
        &RunEnd {
            status: RunStatus::Completed,
            content: "ok",
            silent: false,
            iterations: 1,
            tool_calls: 0,
            input_tokens: 0,
            output_tokens: 0,
            cost: 0.0,
            error: None,
            kind: None,
        },
        ("p", "m"),
    )
    .unwrap();
    record::history(store.db(), "s1").unwrap();
    let deeper = |cursor: &str| PageRequest {
        limit: Some(10),
        cursor: Some(cursor.into()),
    };
    record::history_page(store.db(), "s1", &deeper("0")).unwrap();
    record::sessions(store.db(), None, &deeper("99:s1")).unwrap();
    record::sessions(store.db(), Some("a"), &deeper("99:s1")).unwrap();
    record::runs(store.db(), None, &deeper("100:r100")).unwrap();
    crate::cron::runs(store.db(), Some(1), &deeper("50")).unwrap();
    crate::cron::runs(store.db(), None, &deeper("50")).unwrap();
    crate::cron::reap(store.db()).unwrap();
    record::reap_abandoned(store.db()).unwrap();
    crate::agent::runs::get(store.db(), "run-1").unwrap();
    crate::agent::runs::list(
        store.db(),
        &crate::agent::runs::RunFilter {
            page: PageRequest {
                limit: Some(20),
                cursor: Some("100:r100".into()),
            },
            ..Default::default()
        },
    )
    .unwrap();
    for tool in [Some("rare"), None] {
        crate::tools::gate::audit::history(
            store,
            &crate::tools::gate::audit::HistoryFilter {
                tool: tool.map(String::from),
                session: None,
                agent: None,
                page: PageRequest {
                    limit: Some(20),
                    cursor: Some("250".into()),
                },
            },
        )
        .unwrap();
    }
}

/// Sorts of sets that do not grow with the table: they are allowed, each with why.
const BOUNDED_SORTS: [(&str, &str); 4] = [
    // The blockers of one task.
    (
        "SELECT t.identifier FROM task_deps d JOIN tasks t",
        "one task's blockers",
    ),
    // The files attached to one task.
    (
        "SELECT path FROM task_attachments",
        "one task's attachments",
    ),
    // Ranking the matches of a full-text search (bm25 has no index order).
    (
        "SELECT t.id, t.identifier",
        "full-text ranking of the matches",
    ),
    // One agent's unread messages, found through the recipient index.
    (
        "SELECT m.id, m.sender, m.recipient",
        "one agent's unread messages",
    ),
];

/// A statement that reads only `LIMIT` rows in index (or rowid) order: no `WHERE`, a `LIMIT`.
fn reads_only_its_limit(sql: &str) -> bool {
    let upper = sql.to_ascii_uppercase();
    !upper.contains(" WHERE ") && upper.contains(" LIMIT ")
}

/// The statements `work` executes on `store`, each with its query plan (statements with no
/// plan, like `BEGIN`, left out), in the order first run. A plan is taken with the parameters
/// unbound: the store plans with the query planner stability guarantee, so that is the plan
/// every execution runs, whatever the values.
fn plans(store: &mut Store, work: impl FnOnce(&mut Store)) -> Vec<(String, Vec<String>)> {
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let into = seen.clone();
    store
        .conn_mut()
        .unwrap()
        .trace_v2(
            rusqlite::trace::TraceEventCodes::SQLITE_TRACE_STMT,
            Some(move |e: rusqlite::trace::TraceEvent<'_>| {
                if let rusqlite::trace::TraceEvent::Stmt(stmt, _) = e {
                    into.lock().unwrap().push(stmt.sql().into_owned());
                }
            }),
        )
        .unwrap();
    work(store);
    store
        .conn_mut()
        .unwrap()
        .trace_v2(
            rusqlite::trace::TraceEventCodes::SQLITE_TRACE_STMT,
            None::<fn(rusqlite::trace::TraceEvent<'_>)>,
        )
        .unwrap();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for sql in seen.lock().unwrap().iter() {
        let lead = sql.trim_start().to_ascii_uppercase();
        let planned = ["SELECT", "UPDATE", "DELETE", "WITH", "INSERT"]
            .iter()
            .any(|k| lead.starts_with(k));
        if !planned || !done.insert(sql.clone()) {
            continue;
        }
        let Ok(mut stmt) = store
            .conn()
            .unwrap()
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
        else {
            continue;
        };
        let unbound = vec![rusqlite::types::Null; stmt.parameter_count()];
        let plan: Vec<String> = stmt
            .query_map(rusqlite::params_from_iter(unbound), |r| {
                r.get::<_, String>(3)
            })
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        out.push((sql.clone(), plan));
    }
    out
}

#[test]
fn every_hot_query_uses_an_index() {
    let (_dir, mut store) = store();
    let t = fill(&mut store);
    let statements = plans(&mut store, |s| exercise(s, &t));
    let mut bad = Vec::new();
    for (sql, plan) in statements {
        let flat = sql.split_whitespace().collect::<Vec<_>>().join(" ");
        let bounded_sort = BOUNDED_SORTS.iter().any(|(p, _)| flat.starts_with(p));
        for line in &plan {
            let scans = !reads_only_its_limit(&flat)
                && GROWING.iter().any(|t| {
                    line == &format!("SCAN {t}")
                        || (line.starts_with(&format!("SCAN {t} ")) && !line.contains("USING"))
                });
            let sorts = line.contains("USE TEMP B-TREE") && !bounded_sort;
            if scans || sorts {
                bad.push(format!(
                    "{line}\n    in: {}",
                    sql.split_whitespace().collect::<Vec<_>>().join(" ")
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "queries without an index:\n{}",
        bad.join("\n")
    );
}

/// Every write to a board first looks for claims to release: whose lock expired (claims made by
/// hand) and whose run is gone. Each look reads only the claims it is about, not every task in
/// progress, so a claim costs the same with 10 or 10 000 tasks being worked on.
#[test]
fn recovery_reads_only_the_claims_it_may_release() {
    let (_dir, mut store) = store();
    let t = fill(&mut store);
    {
        let mut b = Board::open(store.db(), t.clone(), "w1").unwrap();
        for _ in 0..40 {
            b.claim_next().unwrap().unwrap();
        }
    }
    let statements = plans(&mut store, |s| {
        Board::open(s.db(), t.clone(), "lead")
            .unwrap()
            .recover()
            .unwrap();
    });
    let plan_of = |needle: &str| {
        statements
            .iter()
            .find(|(sql, _)| sql.contains(needle))
            .map(|(_, plan)| plan.join("; "))
            .unwrap_or_else(|| panic!("no statement with {needle:?} ran"))
    };
    let expired = plan_of("lock_expires_at <");
    assert!(
        expired.contains("USING INDEX tasks_lock_expiry"),
        "{expired}"
    );
    let dead = plan_of("LEFT JOIN runs");
    assert!(dead.contains("USING INDEX tasks_run_claims"), "{dead}");
}
