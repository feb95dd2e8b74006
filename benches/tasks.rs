//! Benchmark: claiming tasks from the board with 1, 4 and 8 concurrent processes, each claim a
//! whole `goclaw tasks claim --next` process (config, store, recovery pass, guarded update,
//! audit event), beside the same claim done with the `sqlite3` command line (one process per
//! claim running the guarded UPDATE in `BEGIN IMMEDIATE`) as the baseline. Prints claims per
//! second and p50/p99 latency of one claim.
//!
//! Then the store's own rate, without a process per claim: 8 processes that each open the store
//! once and claim through the library (`Board::claim_next`, the code `tasks claim --next` runs)
//! until the board is empty, as the members of a team run do. That row has no goal of its own:
//! it shows how much of a claim process's time is the store's and how much is starting a process.
//! And the floor: `true` started as the claims are, 8 at a time, the most processes per second
//! this machine starts this way whatever they do.
//!
//! Run: `cargo bench --bench tasks` (needs `sqlite3` for the baseline column).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const TASKS_PER_WORKER: usize = 60;
/// Claims per long-lived process: enough for the run to last well over a second.
const LONG_LIVED_PER_WORKER: usize = 400;
/// Set (to `home|agent|start`) in a long-lived claiming process this bench starts.
const WORKER_ENV: &str = "BENCH_CLAIM_WORKER";

fn main() {
    if let Ok(spec) = std::env::var(WORKER_ENV) {
        long_lived_worker(&spec);
        return;
    }
    let goclaw = env!("CARGO_BIN_EXE_goclaw");
    let sqlite3 =
        which::which("sqlite3").expect("sqlite3 is the baseline: apt-get install sqlite3");
    println!(
        "{:<10} {:>8} {:>12} {:>9} {:>9} {:>11}",
        "tool", "workers", "claims/s", "p50 ms", "p99 ms", "duplicates"
    );
    for workers in [1, 4, 8] {
        let home = setup(workers * TASKS_PER_WORKER, workers);
        let (rate, p50, p99, claims) = run(workers, |w| {
            let out = Command::new(goclaw)
                .args([
                    "tasks",
                    "--as",
                    &format!("w{w}"),
                    "--team",
                    "bench",
                    "claim",
                    "--next",
                ])
                .env("GOCLAW_HOME", &home)
                .output()
                .unwrap();
            out.status.code() == Some(0)
        });
        let duplicates = claims - in_progress(&home.join("goclaw.db"));
        row("goclaw", workers, (rate, p50, p99), duplicates);
        let base = setup(workers * TASKS_PER_WORKER, workers);
        let db = base.join("goclaw.db");
        let (s_rate, s_p50, s_p99, s_claims) =
            run(workers, |w| claim_with_sqlite3(&sqlite3, &db, w));
        row(
            "sqlite3",
            workers,
            (s_rate, s_p50, s_p99),
            s_claims - in_progress(&db),
        );
        if workers == 8 {
            let figure = |name: &str, value, unit, baseline, goal: &str, met| {
                common::figure(common::Figure {
                    section: "store",
                    name,
                    value,
                    unit,
                    baseline: Some(("sqlite3", baseline)),
                    ratio: Some(value / baseline),
                    goal,
                    met,
                })
            };
            figure(
                "claims, 8 processes on the cores here",
                rate,
                "claims/s",
                s_rate,
                "≥ 1000 claims/s",
                rate >= 1000.0,
            );
            figure(
                "claim latency p99, 8 processes",
                p99,
                "ms",
                s_p99,
                "< 20 ms",
                p99 < 20.0,
            );
            // Figures the issue sets no goal for, shown beside those it does.
            let context = |name: &str, value, unit| {
                common::figure(common::Figure {
                    section: "store",
                    name,
                    value,
                    unit,
                    baseline: None,
                    ratio: None,
                    goal: "–",
                    met: true,
                })
            };
            // The floor: `true` started the same way, 8 at a time. No rate of one process per
            // claim can pass it on this machine.
            let true_program = which::which("true").expect("true is the floor: coreutils");
            let (f_rate, f_p50, f_p99, _) = run(workers, |_| {
                Command::new(&true_program)
                    .output()
                    .unwrap()
                    .status
                    .success()
            });
            row("true", workers, (f_rate, f_p50, f_p99), 0);
            context(
                "the floor: `true` started as the claims are, 8 at a time",
                f_rate,
                "processes/s",
            );
            let (l_rate, l_p50, l_p99, l_claims, l_home) = long_lived(workers);
            // One process per worker, not per claim.
            row(
                "goclaw-lib",
                workers,
                (l_rate, l_p50, l_p99),
                l_claims - in_progress(&l_home.join("goclaw.db")),
            );
            context(
                "claims, 8 processes that stay (through the library, as a team run's members)",
                l_rate,
                "claims/s",
            );
            context("claim latency p99, 8 processes that stay", l_p99, "ms");
            common::figure(common::Figure {
                section: "store",
                name: "tasks claimed twice, 8 processes",
                value: duplicates as f64,
                unit: "tasks",
                baseline: None,
                ratio: None,
                goal: "0",
                met: duplicates == 0,
            });
        }
    }
    postgres::compare(goclaw);
}

#[path = "tasks_postgres.rs"]
mod postgres;

/// Tasks in progress on the board (each successful claim made one).
fn in_progress(db: &Path) -> usize {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(
        "SELECT count(*) FROM tasks WHERE status = 'in_progress'",
        [],
        |r| r.get::<_, i64>(0),
    )
    .unwrap() as usize
}

/// A fresh home with a team `bench` (workers w1..wN) and `n` pending tasks.
fn setup(n: usize, workers: usize) -> PathBuf {
    let home = std::env::temp_dir().join(format!("goclaw-bench-tasks-{workers}"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let agents: String = std::iter::once("lead".to_string())
        .chain((1..=workers).map(|w| format!("w{w}")))
        .map(|a| format!("[agents.{a}]\n"))
        .collect();
    std::fs::write(home.join("config.toml"), agents).unwrap();
    let members: Vec<String> = (1..=workers).map(|w| format!("w{w}")).collect();
    let store =
        goclaw::store::Store::open(&home.join("goclaw.db"), Duration::from_secs(30)).unwrap();
    fill(store.db(), &members, n);
    home
}

/// Team `bench` (lead, `members`) and `n` pending tasks in the store `db`.
fn fill(db: goclaw::store::db::Db<'_>, members: &[String], n: usize) {
    let team = goclaw::team::create(db, "bench", "lead", members, &[], None).unwrap();
    let mut board = goclaw::team::board::Board::open(db, team, "lead").unwrap();
    for i in 0..n {
        board
            .create(goclaw::team::board::NewTask {
                subject: format!("job {i}"),
                ..Default::default()
            })
            .unwrap();
    }
}

/// Runs `workers` threads, each spawning claims until one fails; returns claims/s, p50, p99 and
/// the number of successful claims.
fn run(workers: usize, claim: impl Fn(usize) -> bool + Sync) -> (f64, f64, f64, usize) {
    run_up_to(workers, TASKS_PER_WORKER, claim)
}

/// [`run`], each worker making at most `per_worker` claims.
fn run_up_to(
    workers: usize,
    per_worker: usize,
    claim: impl Fn(usize) -> bool + Sync,
) -> (f64, f64, f64, usize) {
    let start = Instant::now();
    let lat: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..=workers)
            .map(|w| {
                let claim = &claim;
                s.spawn(move || {
                    let mut mine = Vec::new();
                    for _ in 0..per_worker {
                        let t = Instant::now();
                        if !claim(w) {
                            break;
                        }
                        mine.push(t.elapsed().as_secs_f64() * 1000.0);
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    summary(lat, start.elapsed().as_secs_f64())
}

/// Claims/s, p50, p99 (ms) and the number of claims, from each claim's latency (ms) and the
/// seconds they took in all.
fn summary(mut lat: Vec<f64>, seconds: f64) -> (f64, f64, f64, usize) {
    lat.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    (lat.len() as f64 / seconds, pct(0.5), pct(0.99), lat.len())
}

/// One row of the table: a tool's claims/s, p50 and p99, and the tasks it claimed twice.
fn row(tool: &str, workers: usize, (rate, p50, p99): (f64, f64, f64), duplicates: usize) {
    println!("{tool:<10} {workers:>8} {rate:>12.0} {p50:>9.2} {p99:>9.2} {duplicates:>11}");
}

/// `workers` processes (this bench again, with [`WORKER_ENV`] set), each claiming through the
/// library until the board is empty; all start claiming at the same instant. Returns claims/s,
/// p50, p99, the claims made, and the home (to count duplicates in).
fn long_lived(workers: usize) -> (f64, f64, f64, usize, PathBuf) {
    let home = setup(workers * LONG_LIVED_PER_WORKER, workers);
    let start = unix_ms() + 500;
    let children: Vec<_> = (1..=workers)
        .map(|w| {
            Command::new(std::env::current_exe().unwrap())
                .env(WORKER_ENV, format!("{}|w{w}|{start}", home.display()))
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut lat = Vec::new();
    let mut busiest: f64 = 0.0;
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "a claiming process failed");
        let text = String::from_utf8(out.stdout).unwrap();
        let mut lines = text.lines();
        // The first line: how long the worker claimed for, in ms; then one latency a line.
        busiest = busiest.max(lines.next().unwrap().parse::<f64>().unwrap());
        lat.extend(lines.map(|l| l.parse::<f64>().unwrap()));
    }
    let (rate, p50, p99, claims) = summary(lat, busiest / 1000.0);
    (rate, p50, p99, claims, home)
}

/// A long-lived claiming process: opens the store and the board once, waits for the agreed
/// instant, claims until none is left, then prints its claiming time and each claim's latency
/// (ms).
fn long_lived_worker(spec: &str) {
    let mut parts = spec.split('|');
    let (home, agent, start) = (
        PathBuf::from(parts.next().unwrap()),
        parts.next().unwrap().to_string(),
        parts.next().unwrap().parse::<u128>().unwrap(),
    );
    let store =
        goclaw::store::Store::open(&home.join("goclaw.db"), Duration::from_secs(30)).unwrap();
    let team = goclaw::team::get(store.db(), "bench").unwrap();
    let mut board = goclaw::team::board::Board::open(store.db(), team, &agent).unwrap();
    while unix_ms() < start {
        std::thread::sleep(Duration::from_millis(1));
    }
    let began = Instant::now();
    let mut lat = Vec::new();
    loop {
        let t = Instant::now();
        if board.claim_next().unwrap().is_none() {
            break;
        }
        lat.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let mut out = format!("{}\n", began.elapsed().as_secs_f64() * 1000.0);
    for l in lat {
        out.push_str(&format!("{l}\n"));
    }
    print!("{out}");
}

fn unix_ms() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
}

/// The same claim with the sqlite3 command line: the guarded update in BEGIN IMMEDIATE.
fn claim_with_sqlite3(sqlite3: &Path, db: &Path, w: usize) -> bool {
    let sql = format!(
        "BEGIN IMMEDIATE;\n\
         UPDATE tasks SET status = 'in_progress', owner = 'w{w}', updated_at = 1 WHERE id = (\
           SELECT id FROM tasks WHERE status = 'pending' AND owner IS NULL ORDER BY priority DESC, created_at LIMIT 1);\n\
         SELECT changes();\nCOMMIT;\n"
    );
    let out = Command::new(sqlite3)
        .args(["-cmd", ".timeout 30000"])
        .arg(db)
        .arg(sql)
        .output()
        .unwrap();
    out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == "1"
}
