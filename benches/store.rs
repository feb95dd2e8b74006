//! Benchmark: the store at size. Each operation a user runs (a whole `goclaw` process) on a
//! small store and on a large one (100 000 tasks, 100 000 audit rows, 1 000 000 stored messages
//! of other sessions), side by side, and the ratio large / small (goal ≤ 1.5): `tasks get`,
//! `tasks list`, `tasks claim --next`, `tasks complete`, `tools history --tool`, `runs list`, and
//! a run's checkpoint of its messages (in process, the loop's own cost).
//!
//! Run: `cargo bench --bench store [-- --runs N]`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use goclaw::providers::{Message, Role};

/// A store with `tasks` tasks on team `t`, `calls` audit rows and `messages` messages of other
/// sessions.
fn setup(name: &str, tasks: usize, calls: usize, messages: usize) -> PathBuf {
    let home = std::env::temp_dir().join(format!("goclaw-bench-store-{name}"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.toml"), "[agents.lead]\n[agents.w1]\n").unwrap();
    common::goclaw(
        &home,
        &["team", "create", "t", "--lead", "lead", "--member", "w1"],
    );
    let mut conn = rusqlite::Connection::open(home.join("goclaw.db")).unwrap();
    let tx = conn.transaction().unwrap();
    for i in 0..tasks {
        tx.execute(
            "INSERT INTO tasks (id, team_id, task_number, identifier, subject, status, created_by, created_at, updated_at)
             VALUES (?1, 1, ?2, ?3, ?4, ?5, 'lead', ?6, ?6)",
            rusqlite::params![
                format!("id-{i}"),
                (i + 1) as i64,
                format!("T-{:03}-{i:04x}", i + 1),
                format!("task {i}"),
                if i % 10 == 0 { "pending" } else { "completed" },
                1_700_000_000_000i64 + i as i64
            ],
        )
        .unwrap();
    }
    for i in 0..calls {
        tx.execute(
            "INSERT INTO tool_calls (at, agent, tool, arguments, outcome, is_error, duration_ms, decision)
             VALUES ('2026-11-24T00:00:00.000Z', 'a', ?1, '{}', 'ok', 0, 1, '{}')",
            [if i % 1000 == 0 { "rare" } else { "read_file" }],
        )
        .unwrap();
    }
    let per_session = 1000;
    for s in 0..messages / per_session {
        tx.execute(
            "INSERT INTO sessions (key, agent, created_at, updated_at) VALUES (?1, 'a', 0, 0)",
            [format!("other-{s}")],
        )
        .unwrap();
        for q in 0..per_session {
            tx.execute(
                "INSERT INTO session_messages (session, seq, message, run_id) VALUES (?1, ?2, '{\"role\":\"user\",\"content\":\"x\"}', ?3)",
                rusqlite::params![format!("other-{s}"), q as i64, format!("r-{s}")],
            )
            .unwrap();
        }
    }
    tx.commit().unwrap();
    conn.execute_batch("ANALYZE").unwrap();
    home
}

/// The best of `runs` timings of `op`.
fn best(runs: usize, mut op: impl FnMut() -> Duration) -> f64 {
    let all: Vec<Duration> = (0..runs).map(|_| op()).collect();
    common::stats(&all).2
}

/// The operations on one store, best times in ms.
fn measure(home: &Path, runs: usize) -> Vec<(&'static str, f64)> {
    let mut out = Vec::new();
    out.push((
        "tasks get",
        best(runs, || {
            common::goclaw(home, &["tasks", "--as", "lead", "get", "1"])
        }),
    ));
    out.push((
        "tasks list",
        best(runs, || {
            common::goclaw(home, &["tasks", "--as", "lead", "list", "--limit", "30"])
        }),
    ));
    out.push((
        "claim + complete",
        best(runs, || {
            let a = common::goclaw(home, &["tasks", "--as", "w1", "claim", "--next"]);
            let o = Command::new(env!("CARGO_BIN_EXE_goclaw"))
                .args([
                    "tasks",
                    "--as",
                    "w1",
                    "list",
                    "--status",
                    "in_progress",
                    "--limit",
                    "1",
                ])
                .env("GOCLAW_HOME", home)
                .output()
                .unwrap();
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let id = v["items"][0]["id"].as_str().unwrap().to_string();
            a + common::goclaw(
                home,
                &["tasks", "--as", "w1", "complete", &id, "--result", "ok"],
            )
        }),
    ));
    out.push((
        "tools history --tool",
        best(runs, || {
            common::goclaw(
                home,
                &["tools", "history", "--tool", "rare", "--limit", "20"],
            )
        }),
    ));
    out.push((
        "runs list",
        best(runs, || {
            common::goclaw(home, &["runs", "list", "--limit", "20"])
        }),
    ));
    let store =
        goclaw::store::Store::open(&home.join("goclaw.db"), goclaw::store::BUSY_TIMEOUT).unwrap();
    let scrubber = goclaw::text::scrub::Scrubber::new(&[], &[]).unwrap();
    let msgs: Vec<Message> = (0..10)
        .map(|i| Message::new(Role::User, format!("m{i}")))
        .collect();
    out.push((
        "checkpoint (in process)",
        best(runs * 5, || {
            let t = Instant::now();
            goclaw::agent::record::checkpoint(
                store.db(),
                &scrubber,
                "bench-run",
                ("bench", "a", None),
                &msgs,
            )
            .unwrap();
            t.elapsed()
        }),
    ));
    out
}

fn main() {
    let runs = common::runs(10);
    let small = setup("small", 1_000, 1_000, 0);
    let large = setup("large", 100_000, 100_000, 1_000_000);
    let a = measure(&small, runs);
    let b = measure(&large, runs);
    println!(
        "{:<26} {:>12} {:>12} {:>7}",
        "operation (best)", "small ms", "large ms", "ratio"
    );
    for ((name, s), (_, l)) in a.iter().zip(&b) {
        println!("{name:<26} {s:>12.2} {l:>12.2} {:>7.2}", l / s);
        common::figure(common::Figure {
            section: "store",
            name: &format!("{name}, 100 000 tasks / audit rows, 1 000 000 messages"),
            value: *l,
            unit: "ms",
            baseline: Some(("the same on a small store", *s)),
            ratio: Some(l / s),
            goal: "≤ 1.5x the small store",
            met: l / s <= 1.5,
        });
    }
}
