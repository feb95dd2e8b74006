//! The store: created on first use, migrations, refusal of newer stores, backup, query.

use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::util::*;

#[test]
fn created_on_first_use_with_private_modes() {
    let env = TestEnv::new();
    let db = env.root().join("fresh/dir/store.db");
    assert!(!db.exists());
    let o = env.run(&["--db", db.to_str().unwrap(), "db", "migrate"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o)["applied"][0]["name"], "init");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&db), 0o600);
    assert_eq!(mode(db.parent().unwrap()), 0o700);
    // Second run: nothing to apply.
    let o = env.run(&["--db", db.to_str().unwrap(), "db", "migrate"]);
    assert_eq!(json(&o)["applied"], serde_json::json!([]));
    // WAL and foreign keys.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let jm: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(jm, "wal");
}

/// Processes that all find no store create it together: each one ends with the store, none is
/// told it was locked (SQLite refuses the second switch into WAL mode without waiting).
#[test]
fn processes_that_create_the_store_at_once_all_succeed() {
    for round in 0..16 {
        let env = TestEnv::new();
        // Started a little apart, by a different step each round: the race is lost by a process
        // that read the new store's header just before another switched it to WAL.
        let children: Vec<_> = (0..2)
            .map(|_| {
                std::thread::sleep(std::time::Duration::from_micros(250 * (round % 8)));
                env.std_cmd(&["db", "query", "SELECT 1 AS one"])
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let o = child.wait_with_output().unwrap();
            assert_eq!(code(&o), 0, "round {round}: {}", stderr(&o));
            assert_eq!(stdout(&o), "{\"one\":1}\n");
        }
    }
}

#[test]
fn db_path_does_not_create_the_store() {
    let env = TestEnv::new();
    let o = json(&env.run(&["db", "path"]));
    assert_eq!(o["exists"], false);
    assert!(!env.db().exists());
    assert_error(&env.run(&["db", "check"]), 5, "not_found");
}

#[test]
fn a_store_from_a_newer_goclaw_is_refused_and_untouched() {
    let env = TestEnv::new();
    assert_eq!(code(&env.run(&["db", "migrate"])), 0);
    {
        let conn = rusqlite::Connection::open(env.db()).unwrap();
        conn.execute_batch("INSERT INTO schema_migrations VALUES (99, 'future', 'later'); PRAGMA user_version = 99;").unwrap();
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    let before = std::fs::read(env.db()).unwrap();
    for args in [
        &["db", "migrate"][..],
        &["db", "schema"],
        &["db", "query", "select 1"],
        &["db", "check"],
    ] {
        let o = env.run(args);
        let err = assert_error(&o, 2, "usage");
        assert!(
            err["message"]
                .as_str()
                .unwrap()
                .contains("newer than this goclaw"),
            "{err}"
        );
    }
    assert!(
        std::fs::read(env.db()).unwrap() == before,
        "the store was modified"
    );
    assert!(!env.home().join("goclaw.db-wal").exists());
}

#[test]
fn not_a_database_is_a_usage_error() {
    let env = TestEnv::new();
    let bogus = env.write("bogus.db", "this is not sqlite, just text that is long enough to be a header.....................................");
    assert_error(
        &env.run(&["--db", bogus.to_str().unwrap(), "db", "migrate"]),
        2,
        "usage",
    );
}

#[test]
fn schema_and_check() {
    let env = TestEnv::new();
    let o = json(&env.run(&["db", "schema"]));
    let stmts: Vec<String> = serde_json::from_value(o["statements"].clone()).unwrap();
    assert!(
        stmts
            .iter()
            .any(|s| s.contains("CREATE TABLE schema_migrations"))
    );
    assert!(stmts.iter().any(|s| s.contains("CREATE TABLE store_meta")));
    let o = env.run(&["db", "check"]);
    assert_eq!(code(&o), 0);
    let doc = json(&o);
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["integrity"], serde_json::json!(["ok"]));
    assert_eq!(doc["pending"], serde_json::json!([]));
    // An empty file, or another program's database, holds no store of goclaw's: exit 5.
    env.write("empty.db", "");
    let e = assert_error(
        &env.run(&["--db", "empty.db", "db", "check"]),
        5,
        "not_found",
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("holds no goclaw store"),
        "{e}"
    );
    // A file that is no database, or a torn one, is an unhealthy store: a report, exit 1.
    env.write("garbage.db", "garbage\n".repeat(100));
    let o = env.run(&["--db", "garbage.db", "db", "check"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let doc = json(&o);
    assert_eq!(doc["ok"], false, "{doc}");
    assert!(
        doc["integrity"][0]
            .as_str()
            .unwrap()
            .contains("not a database"),
        "{doc}"
    );
    // The same document as a healthy store's, without what could not be read.
    assert!(
        doc.get("pending").is_none() && doc.get("migrations").is_none(),
        "{doc}"
    );
}

#[test]
fn query_is_read_only_json_lines() {
    let env = TestEnv::new();
    let o = env.run(&[
        "db",
        "query",
        "select key, length(value) > 0 as has_value from store_meta order by key",
    ]);
    assert_eq!(
        stdout(&o),
        "{\"key\":\"created_at\",\"has_value\":1}\n{\"key\":\"created_by\",\"has_value\":1}\n"
    );
    let o = env.run(&[
        "db",
        "query",
        "select ? as a, x'00ff' as b, null as c, 1.5 as d",
        "--param",
        "v",
    ]);
    assert_eq!(
        stdout(&o),
        "{\"a\":\"v\",\"b\":{\"hex\":\"00ff\"},\"c\":null,\"d\":1.5}\n"
    );
    let sql = env.write("q.sql", "select count(*) as n from store_meta");
    assert_eq!(
        stdout(&env.run(&["db", "query", &format!("@{}", sql.display())])),
        "{\"n\":2}\n"
    );
    assert_eq!(
        stdout(&env.run_stdin(&["db", "query", "-"], "select 7 as n")),
        "{\"n\":7}\n"
    );
    assert_error(
        &env.run(&["db", "query", "delete from store_meta"]),
        3,
        "denied",
    );
    assert_error(&env.run(&["db", "query", "selec nonsense"]), 2, "usage");
    assert_error(&env.run(&["db", "query", "select ?"]), 2, "usage");
    // A write smuggled into a read-only statement still cannot change anything.
    let o = env.run(&[
        "db",
        "query",
        "select * from store_meta; delete from store_meta",
    ]);
    assert_ne!(code(&o), 0);
    assert_eq!(
        stdout(&env.run(&["db", "query", "select count(*) as n from store_meta"])),
        "{\"n\":2}\n"
    );
    insta::assert_snapshot!(
        "query_human",
        stdout(&env.run(&[
            "--human",
            "db",
            "query",
            "select key from store_meta order by key"
        ]))
    );
}

#[test]
fn backup_while_another_process_writes() {
    let env = TestEnv::new();
    assert_eq!(code(&env.run(&["db", "migrate"])), 0);
    let db = env.db();
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch("CREATE TABLE ticks (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
            .unwrap();
    }
    let stop = Arc::new(AtomicBool::new(false));
    let (first_written, writing) = std::sync::mpsc::channel();
    let writer = {
        let (db, stop) = (db.clone(), stop.clone());
        std::thread::spawn(move || {
            let conn = rusqlite::Connection::open(&db).unwrap();
            conn.busy_timeout(std::time::Duration::from_secs(10))
                .unwrap();
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                conn.execute(
                    "INSERT INTO ticks (payload) VALUES (?1)",
                    [format!("tick {n} {}", "x".repeat(200))],
                )
                .unwrap();
                if n == 0 {
                    let _ = first_written.send(());
                }
                n += 1;
            }
            n
        })
    };
    // The backups start once the writer has committed a row and goes on writing.
    writing
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the writer never wrote");
    for i in 0..5 {
        let target = env.root().join(format!("backup-{i}.db"));
        let o = env.run(&["db", "backup", target.to_str().unwrap()]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert_eq!(json(&o)["integrity"], "ok");
        let conn = rusqlite::Connection::open(&target).unwrap();
        let (count, max): (i64, i64) = conn
            .query_row(
                "SELECT count(*), coalesce(max(id), 0) FROM ticks",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        // A consistent snapshot: every committed row up to the newest, no gaps.
        assert_eq!(count, max, "backup {i}");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    stop.store(true, Ordering::Relaxed);
    let written = writer.join().unwrap();
    assert!(written > 0);
    // Refuses to overwrite without --force, and leaves no temporary files behind.
    let target = env.root().join("backup-0.db");
    assert_error(
        &env.run(&["db", "backup", target.to_str().unwrap()]),
        6,
        "conflict",
    );
    assert_eq!(
        code(&env.run(&["db", "backup", "--force", target.to_str().unwrap()])),
        0
    );
    let leftovers: Vec<_> = std::fs::read_dir(env.root())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("goclaw-backup"))
        .collect();
    assert!(leftovers.is_empty());
    // Never onto the store itself, --force or not, by whatever path.
    let itself = env.home().join(".").join("goclaw.db");
    let o = env.run(&["db", "backup", "--force", itself.to_str().unwrap()]);
    assert_error(&o, 2, "usage");
    assert_error(
        &env.run(&["db", "backup", "/no/such/dir/b.db"]),
        5,
        "not_found",
    );
}

#[test]
fn the_wal_stays_bounded_and_every_commit_is_seen() {
    // No checkpoint at every close: commits wait in the WAL, and the command that closes with
    // more than 64 pages in it copies them into the database and truncates the WAL. The WAL
    // file is kept (mode 0600). Whatever a command committed is seen by the next one, by another
    // SQLite client, and by a backup.
    let env = TestEnv::new();
    assert_eq!(code(&env.run(&["db", "migrate"])), 0);
    let wal = env.home().join("goclaw.db-wal");
    let calls = 60;
    let mut sizes = Vec::new();
    for _ in 0..calls {
        assert_eq!(code(&env.run(&["tools", "exec", "datetime"])), 0);
        let meta = std::fs::metadata(&wal).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        sizes.push(meta.len());
    }
    // 64 pages, plus what one command wrote past them (with the frame headers).
    let largest = sizes.iter().max().copied().unwrap_or(0);
    assert!(largest <= 96 * 4120, "WAL sizes {sizes:?}");
    assert!(largest > 0, "the commits wait in the WAL: {sizes:?}");
    assert!(
        sizes.windows(2).any(|w| w[1] < w[0]),
        "the WAL is truncated when it passes 64 pages: {sizes:?}"
    );
    let count = |db: &std::path::Path| -> i64 {
        rusqlite::Connection::open(db)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM tool_calls WHERE tool = 'datetime'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(count(&env.db()), calls);
    let copy = env.root().join("copy.db");
    assert_eq!(code(&env.run(&["db", "backup", copy.to_str().unwrap()])), 0);
    assert_eq!(count(&copy), calls);
}

on_both_backends! {
/// Runs, sessions and traces read the same from either backend, and a run left `running` is
/// marked abandoned by whoever looks next only when its process is gone: by its pid on its own
/// machine, by a heartbeat ten minutes old on another (a pid there means nothing here).
fn runs_sessions_and_traces_read_alike_on_both_backends(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    env.ok(&["db", "migrate"]);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let host = host.trim();
    let stale = now - 11 * 60 * 1000;
    env.change(&format!(
        "INSERT INTO sessions (key, agent, user_id, model, provider, input_tokens, output_tokens, created_at, updated_at)
         VALUES ('s1', 'lead', 'ann', 'm', 'p', 12, 34, {now}, {now})"
    ));
    for (seq, text, committed) in [
        (1, r#"{"role":"user","content":"hi"}"#, 1),
        (2, r#"{"role":"assistant","content":"hello"}"#, 1),
        (3, r#"{"role":"user","content":"half a run"}"#, 0),
    ] {
        env.change(&format!(
            "INSERT INTO session_messages (session, seq, message, run_id, committed)
             VALUES ('s1', {seq}, '{text}', 'r-gone', {committed})"
        ));
    }
    let runs = [
        // (id, host, pid, heartbeat): done; its process gone here; another machine's, alive;
        // another machine's, silent for eleven minutes.
        ("r-done", host.to_string(), 1, now),
        ("r-gone", host.to_string(), 999_999_999, now),
        ("r-away", "elsewhere".to_string(), 1, now),
        ("r-lost", "elsewhere".to_string(), 1, stale),
    ];
    for (i, (id, host, pid, beat)) in runs.iter().enumerate() {
        let status = if *id == "r-done" { "completed" } else { "running" };
        env.change(&format!(
            "INSERT INTO runs (id, session, agent, status, pid, heartbeat_at, started_at, message, host)
             VALUES ('{id}', 's1', 'lead', '{status}', {pid}, {beat}, {}, 'm{i}', '{host}')",
            now + i as i64
        ));
    }
    env.change(&format!(
        "INSERT INTO spans (run_id, kind, name, started_at, duration_ms, status, input_tokens)
         VALUES ('r-done', 'llm', 'chat', {now}, 5, 'ok', 7)"
    ));
    let list = json(&env.ok(&["runs", "list"]));
    let status: Vec<(String, String)> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap().into(), r["status"].as_str().unwrap().into()))
        .collect();
    let pairs: Vec<(&str, &str)> = status.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(
        pairs,
        [
            ("r-lost", "abandoned"),
            ("r-away", "running"),
            ("r-gone", "abandoned"),
            ("r-done", "completed"),
        ]
    );
    // The abandoned run's uncommitted message is gone; the session shows the rest.
    let s = json(&env.ok(&["sessions", "show", "s1"]));
    assert_eq!((s["messages"].as_i64(), s["input_tokens"].as_i64()), (Some(2), Some(12)));
    let h = json(&env.ok(&["sessions", "history", "s1"]));
    assert_eq!(h["items"].as_array().unwrap().len(), 2, "{h}");
    assert_eq!(h["items"][1]["content"], "hello");
    let t = json(&env.ok(&["traces", "show", "r-done"]));
    assert_eq!(t["spans"][0]["input_tokens"], 7, "{t}");
    assert_eq!(t["spans"][0]["kind"], "llm");
    let lst = json(&env.ok(&["traces", "list", "--session", "s1"]));
    assert_eq!(lst["items"].as_array().unwrap().len(), 4);
    // Cancelling another machine's run says where it runs and signals nothing.
    let o = env.ok(&["runs", "cancel", "r-away"]);
    assert_eq!(json(&o)["cancelled"], serde_json::json!([]));
    assert!(stderr(&o).contains("elsewhere"), "{}", stderr(&o));
    env.ok(&["sessions", "rm", "s1"]);
    assert_error(&env.run(&["sessions", "show", "s1"]), 5, "not_found");
}
}

/// What a careless script or another program does to the store file, each refused before it
/// changes anything, or named (helper-26): a schema changed by hand, another program's
/// database, a FIFO or a directory where the store should be, a backup restored over a store in
/// use, a backup to `-`.
#[test]
fn a_spoiled_or_foreign_store_file_is_named_and_left_untouched() {
    let env = TestEnv::new();
    assert_eq!(code(&env.run(&["db", "migrate"])), 0);
    // A schema changed by hand: each missing or changed piece named, exit 1, a line on stderr.
    let conn = rusqlite::Connection::open(env.db()).unwrap();
    conn.execute_batch(
        "DROP INDEX tasks_owner; DROP TRIGGER kg_entities_ai; ALTER TABLE kg_relations DROP COLUMN props;
         DROP INDEX tool_calls_started; CREATE INDEX tool_calls_started ON tool_calls(id);
         DROP TABLE schema_migrations;",
    )
    .unwrap();
    drop(conn);
    let o = env.run(&["db", "check"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let doc = json(&o);
    assert_eq!(doc["integrity"], serde_json::json!(["ok"]), "{doc}");
    assert_eq!(
        doc["schema"],
        serde_json::json!([
            "column kg_relations.props is missing",
            "definition of index tool_calls_started is `CREATE INDEX tool_calls_started ON tool_calls(id)`, not `CREATE INDEX tool_calls_started ON tool_calls (id) WHERE outcome = 'started'`",
            "index tasks_owner is missing",
            "table schema_migrations is missing",
            "trigger kg_entities_ai is missing",
        ]),
        "{doc}"
    );
    assert!(stderr(&o).starts_with("error: the store is unhealthy: column kg_relations.props"));

    // Another program's database is neither migrated nor switched to WAL.
    // Whatever its user_version says (goclaw's own latest, too), and with another tool's
    // `schema_migrations` (golang-migrate's).
    for (n, setup) in [
        "PRAGMA user_version = 7;",
        "PRAGMA user_version = 999;",
        "PRAGMA user_version = 27;",
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, dirty BOOLEAN); INSERT INTO schema_migrations VALUES (3, 0);",
    ]
    .iter()
    .enumerate()
    {
        let other = env.root().join(format!("other{n}.db"));
        let conn = rusqlite::Connection::open(&other).unwrap();
        conn.execute_batch(&format!(
            "CREATE TABLE customers (name TEXT); INSERT INTO customers VALUES ('x'); {setup}"
        ))
        .unwrap();
        drop(conn);
        let before = std::fs::read(&other).unwrap();
        for args in [["kg", "export"], ["tasks", "list"]] {
            let mut all = vec!["--db", other.to_str().unwrap()];
            all.extend(args);
            let e = assert_error(&env.run(&all), 2, "usage");
            let message = e["message"].as_str().unwrap();
            assert!(message.contains("another program (its tables: customers"), "{setup}: {e}");
        }
        let o = env.run(&["--db", other.to_str().unwrap(), "db", "check"]);
        let e = assert_error(&o, 5, "not_found");
        assert!(e["message"].as_str().unwrap().contains("holds no goclaw store"), "{setup}: {e}");
        assert!(e["hint"].as_str().unwrap().contains("another program's database is left alone"), "{setup}: {e}");
        assert_eq!(std::fs::read(&other).unwrap(), before, "{setup}");
    }

    // A FIFO or a directory where the store is: refused at once (a FIFO's open blocked `db
    // check` and `doctor` for ever).
    let fifo = env.root().join("fifo.db");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    for (path, what) in [
        (&fifo, "a FIFO"),
        (&env.root().to_path_buf(), "a directory"),
    ] {
        for cmd in [
            &["db", "check"][..],
            &["db", "path"],
            &["runs", "list"],
            &["doctor"],
        ] {
            let mut all = vec!["--db", path.to_str().unwrap()];
            all.extend(cmd);
            let o = env
                .cmd(&all)
                .timeout(std::time::Duration::from_secs(20))
                .output()
                .unwrap();
            if cmd == ["doctor"] {
                assert_eq!(code(&o), 1, "{}", stdout(&o));
                assert!(
                    stdout(&o).contains(&format!("is {what}, not a file")),
                    "{}",
                    stdout(&o)
                );
            } else {
                let e = assert_error(&o, 2, "usage");
                assert!(
                    e["message"]
                        .as_str()
                        .unwrap()
                        .contains(&format!("is {what}, not a file")),
                    "{e}"
                );
            }
        }
    }

    // A backup restored over the store in use is written into it, not moved over it: its WAL,
    // which goclaw keeps between processes, was replayed over the backup (a corrupt store,
    // and the restore undone).
    let fresh = TestEnv::new();
    assert_eq!(code(&fresh.run(&["kg", "add", "first", "--type", "t"])), 0);
    assert_eq!(code(&fresh.run(&["db", "backup", "bk.db"])), 0);
    for n in 0..30 {
        let o = fresh.run(&["kg", "add", &format!("later{n}"), "--type", "t"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
    let store = fresh.db();
    let o = fresh.run(&[
        "--db",
        "bk.db",
        "db",
        "backup",
        store.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = fresh.run(&["db", "check"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(
        fresh.sql("SELECT count(*) AS n FROM kg_entities")[0]["n"],
        1
    );
    // `-` is no file to back up to.
    assert_error(&fresh.run(&["db", "backup", "-"]), 2, "usage");
    assert!(!fresh.work().join("-").exists());
    // A read-only statement on a mistyped store path makes no store there.
    assert_error(
        &fresh.run(&["--db", "typo.db", "db", "query", "select 1"]),
        5,
        "not_found",
    );
    assert!(!fresh.work().join("typo.db").exists());
}

/// Restoring a backup (`db backup STORE --force` from the backup) onto a store that is torn
/// replaces it, its WAL with it, and says so; onto a store another process keeps locked, it
/// waits the busy timeout (`[store] busy_timeout_ms`) and ends with exit 7 (it waited as long
/// as the lock was held); errors
/// name the file they are about (helper-27).
#[test]
fn a_backup_is_restored_over_a_torn_store_and_waits_no_longer_than_the_busy_timeout() {
    let env = TestEnv::new();
    assert_eq!(code(&env.run(&["kg", "add", "first", "--type", "t"])), 0);
    assert_eq!(code(&env.run(&["db", "backup", "bk.db"])), 0);
    let store = env.db();
    let path = store.to_str().unwrap();
    // Torn: half of it, its WAL beside it.
    let bytes = std::fs::read(&store).unwrap();
    std::fs::write(&store, &bytes[..bytes.len() / 2]).unwrap();
    let o = env.run(&["--db", "bk.db", "db", "backup", path, "--force"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o)["replaced_store"], true, "{}", stdout(&o));
    assert!(
        stderr(&o).contains("could not be written into"),
        "{}",
        stderr(&o)
    );
    assert_eq!(code(&env.run(&["db", "check"])), 0);
    assert_eq!(env.sql("SELECT count(*) AS n FROM kg_entities")[0]["n"], 1);
    // Locked by another process for longer than the busy timeout: exit 7, naming the store.
    let holder = rusqlite::Connection::open(&store).unwrap();
    holder
        .execute_batch("BEGIN IMMEDIATE; INSERT INTO store_meta VALUES ('held', 'x');")
        .unwrap();
    env.write("c.toml", "[store]\nbusy_timeout_ms = 500\n");
    let t = std::time::Instant::now();
    let o = env.run(&[
        "--config", "c.toml", "--db", "bk.db", "db", "backup", path, "--force",
    ]);
    let e = assert_error(&o, 7, "timeout");
    assert!(e["message"].as_str().unwrap().contains(path), "{e}");
    // As long as [store] busy_timeout_ms says, not as long as the lock is held.
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        t.elapsed()
    );
    holder.execute_batch("ROLLBACK").unwrap();
}

/// A store on a read-only mount (a backup, a snapshot), with no `-shm` beside it and nothing in
/// its log: read as it is (SQLite could not make its shared-memory file there, and every read
/// failed with "attempt to write a readonly database"); a write says the store is read-only.
#[test]
fn a_store_on_a_read_only_mount_is_read() {
    let env = TestEnv::new();
    assert_eq!(code(&env.run(&["approvals", "allow", "git", "status"])), 0);
    let dir = env.home();
    let db = env.db();
    // A copy of it as a backup leaves it: checkpointed, its log and shared memory gone.
    let backup = env.root().join("backup.db");
    assert_eq!(
        code(&env.run(&["db", "backup", backup.to_str().unwrap()])),
        0
    );
    std::fs::rename(&backup, &db).unwrap();
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let read_only = |args: &str| {
        let script = format!(
            "mount --bind {d} {d} && mount -o remount,ro,bind {d} && exec {bin} {args}",
            d = dir.display(),
            bin = goclaw_bin().display()
        );
        let mut c = std::process::Command::new("unshare");
        clean_env(&mut c)
            .args(["-rm", "sh", "-c", &script])
            .env("GOCLAW_HOME", &dir)
            .current_dir(env.work())
            .output()
            .unwrap()
    };
    let o = read_only("approvals list");
    if stderr(&o).contains("unshare") || stderr(&o).contains("mount:") {
        skip_note("user and mount namespaces are not available here");
        return;
    }
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(items(&o).len(), 1, "{}", stdout(&o));
    let o = read_only("db check");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o)["ok"], true);
    let o = read_only("approvals allow ls");
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("read-only"), "{}", stderr(&o));
}
