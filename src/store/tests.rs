//! The store's own tests: errors, and migrations over a store that holds data.

use super::*;
use crate::error::ErrorKind;

#[test]
fn a_read_only_store_is_a_failure_not_a_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.db");
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("create table t (x)")
        .unwrap();
    let ro =
        rusqlite::Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let e = ro.execute("insert into t values (1)", []).unwrap_err();
    let mapped = sql_error(&path, e);
    assert_eq!(mapped.kind, ErrorKind::Failed, "{}", mapped.message);
    assert!(mapped.hint.unwrap_or_default().contains("read-only"));
}

#[test]
fn a_migration_that_copies_a_table_keeps_what_refers_to_it() {
    // A store as version 11 left it, with a run and its span.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "foreign_keys", true).unwrap();
        conn.execute_batch(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT;",
        )
        .unwrap();
        for m in MIGRATIONS.iter().filter(|m| m.version <= 11) {
            conn.execute_batch(m.sql).unwrap();
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?1, ?2, '2026-01-01T00:00:00Z')",
                (m.version, m.name),
            )
            .unwrap();
        }
        conn.pragma_update(None, "user_version", 11).unwrap();
        conn.execute_batch(
            "INSERT INTO runs (id, agent, status, started_at) VALUES ('r1', 'a', 'completed', 1);
             INSERT INTO spans (run_id, kind, name, started_at, status) VALUES ('r1', 'agent', 'a', 1, 'ok');",
        )
        .unwrap();
    }
    let store = Store::open(&path, BUSY_TIMEOUT).unwrap();
    assert_eq!(
        store.applied().last().map(|m| m.version),
        Some(latest_version())
    );
    let spans: i64 = store
        .conn()
        .unwrap()
        .query_row("SELECT count(*) FROM spans WHERE run_id = 'r1'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(spans, 1, "the copy of runs took its spans with it");
    let fk: i64 = store
        .conn()
        .unwrap()
        .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
        .unwrap();
    assert_eq!(fk, 1, "foreign keys are on again");
    // The new status is accepted, and deleting a run still deletes its spans.
    store
        .conn()
        .unwrap()
        .execute("UPDATE runs SET status = 'limited' WHERE id = 'r1'", [])
        .unwrap();
    store
        .conn()
        .unwrap()
        .execute("DELETE FROM runs WHERE id = 'r1'", [])
        .unwrap();
    let spans: i64 = store
        .conn()
        .unwrap()
        .query_row("SELECT count(*) FROM spans", [], |r| r.get(0))
        .unwrap();
    assert_eq!(spans, 0);
}
