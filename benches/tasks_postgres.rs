//! The board on PostgreSQL beside SQLite (issue 19): 16 processes claiming 10 000 tasks, each
//! claim a whole `goclaw tasks claim --next`, on a SQLite store and on a PostgreSQL one, and the
//! same guarded claim issued through `psql` (`FOR UPDATE SKIP LOCKED`) as the baseline. Needs a
//! server in the PG* variables (`.ci/postgres cargo bench --bench tasks`); without one it says
//! so and measures nothing.

use std::process::Command;
use std::time::Duration;

const WORKERS: usize = 16;
const TASKS: usize = 10_000;

pub fn compare(goclaw: &str) {
    let Ok(host) = std::env::var("PGHOST") else {
        println!("PostgreSQL: no server in PGHOST (run under .ci/postgres); not measured");
        return;
    };
    let (port, user) = (
        std::env::var("PGPORT").unwrap_or_else(|_| "5432".into()),
        std::env::var("PGUSER").unwrap_or_else(|_| "postgres".into()),
    );
    let members: Vec<String> = (1..=WORKERS).map(|w| format!("w{w}")).collect();
    let per_worker = TASKS.div_ceil(WORKERS) + 1;
    println!(
        "\n{WORKERS} processes, {TASKS} tasks\n{:<22} {:>10} {:>9} {:>9} {:>11}",
        "store", "claims/s", "p50 ms", "p99 ms", "duplicates"
    );
    // SQLite.
    let home = super::setup(TASKS, WORKERS);
    let claim = |home: &std::path::Path, w: usize| {
        Command::new(goclaw)
            .args(["tasks", "--as", &format!("w{w}"), "--team", "bench"])
            .args(["claim", "--next"])
            .env("GOCLAW_HOME", home)
            .output()
            .unwrap()
            .status
            .success()
    };
    let (rate, p50, p99, n) = super::run_up_to(WORKERS, per_worker, |w| claim(&home, w));
    let dup = n - super::in_progress(&home.join("goclaw.db"));
    println!(
        "{:<22} {rate:>10.0} {p50:>9.2} {p99:>9.2} {dup:>11}",
        "goclaw, SQLite"
    );
    // PostgreSQL, through goclaw.
    let url = |db: &str| format!("postgres://{user}@{host}:{port}/{db}");
    let fresh = |db: &str| {
        psql(
            "postgres",
            &format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"),
        );
        psql("postgres", &format!("CREATE DATABASE {db}"));
        let target = goclaw::store::db::PgConnect {
            url: goclaw::store::location::PgUrl::parse(&url(db)).unwrap(),
            password_env: None,
            connect_timeout: Duration::from_secs(10),
        };
        let store = goclaw::store::postgres::PgStore::open(&target).unwrap();
        super::fill(store.db(), &members, TASKS);
    };
    fresh("goclaw_bench_tasks");
    let pg_home = std::env::temp_dir().join("goclaw-bench-tasks-pg");
    let _ = std::fs::remove_dir_all(&pg_home);
    std::fs::create_dir_all(&pg_home).unwrap();
    let agents: String = std::iter::once("lead".to_string())
        .chain(members.iter().cloned())
        .map(|a| format!("[agents.{a}]\n"))
        .collect();
    std::fs::write(
        pg_home.join("config.toml"),
        format!("{agents}[store]\nurl = \"{}\"\n", url("goclaw_bench_tasks")),
    )
    .unwrap();
    let (rate, p50, p99, n) = super::run_up_to(WORKERS, per_worker, |w| claim(&pg_home, w));
    let held: usize = psql(
        "goclaw_bench_tasks",
        "SELECT count(*) FROM tasks WHERE status = 'in_progress'",
    )
    .parse()
    .unwrap();
    println!(
        "{:<22} {rate:>10.0} {p50:>9.2} {p99:>9.2} {:>11}",
        "goclaw, PostgreSQL",
        n - held
    );
    // The same claim through psql.
    fresh("goclaw_bench_psql");
    let (rate, p50, p99, n) = super::run_up_to(WORKERS, per_worker, |w| {
        !psql(
            "goclaw_bench_psql",
            &format!(
                "UPDATE tasks SET status = 'in_progress', owner = 'w{w}', updated_at = 1 WHERE id = (\
                 SELECT id FROM tasks WHERE status = 'pending' AND owner IS NULL \
                 ORDER BY priority DESC, created_at LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id"
            ),
        )
        .is_empty()
    });
    let held: usize = psql(
        "goclaw_bench_psql",
        "SELECT count(*) FROM tasks WHERE status = 'in_progress'",
    )
    .parse()
    .unwrap();
    println!(
        "{:<22} {rate:>10.0} {p50:>9.2} {p99:>9.2} {:>11}",
        "psql (SKIP LOCKED)",
        n - held
    );
    for db in ["goclaw_bench_tasks", "goclaw_bench_psql"] {
        psql(
            "postgres",
            &format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"),
        );
    }
}

/// One statement through psql (the server and password from the PG* variables); its output.
fn psql(db: &str, sql: &str) -> String {
    let out = Command::new("psql")
        .args(["-v", "ON_ERROR_STOP=1", "-qAt", "-d", db, "-c", sql])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}
