//! Benchmark: team runs. (1) `goclaw team run` on a board of 4 independent tasks (4 members, so
//! 4 member runs at once) against the same 4 tasks run one after another with `goclaw run
//! --task`, each task one LLM request the server holds 1 s (as a model would): the wall-time
//! ratio (goal ≤ 0.35). (2) The dispatcher's overhead per task: `team run --workers 1` on 8
//! tasks whose LLM answers at once, per task, against one `goclaw run --task` alone.
//!
//! The LLM side is a minimal OpenAI-compatible server inside this process.
//!
//! Run: `cargo bench --bench team_run [-- --runs N]`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common.rs"]
mod common;

use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const LATENCY: Duration = Duration::from_millis(1000);
const MEMBERS: usize = 4;

fn serve(listener: TcpListener, latency: Arc<Mutex<Duration>>) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let latency = latency.clone();
        std::thread::spawn(move || handle(stream, &latency));
    }
}

fn handle(stream: TcpStream, latency: &Mutex<Duration>) {
    stream.set_nodelay(true).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        if common::read_request(&mut reader).is_none() {
            return;
        }
        let wait = *latency.lock().unwrap();
        std::thread::sleep(wait);
        let reply = r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5}}"#;
        let response = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{reply}",
            reply.len()
        );
        out.write_all(response.as_bytes()).unwrap();
        out.flush().unwrap();
    }
}

/// Posts `n` independent tasks on team `t`.
fn post(home: &Path, n: usize, tag: &str) {
    for i in 0..n {
        common::goclaw(
            home,
            &[
                "tasks",
                "--as",
                "lead",
                "--team",
                "t",
                "create",
                "--subject",
                &format!("{tag} {i}"),
            ],
        );
    }
}

/// The tasks still pending, by number.
fn pending(home: &Path) -> Vec<String> {
    let o = Command::new(env!("CARGO_BIN_EXE_goclaw"))
        .args([
            "tasks", "--as", "lead", "--team", "t", "list", "--status", "pending", "--limit", "100",
        ])
        .env("GOCLAW_HOME", home)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["task_number"].to_string())
        .collect()
}

/// Each pending task with its own `goclaw run --task`, one after another.
fn one_by_one(home: &Path) -> Duration {
    let t = Instant::now();
    for (i, n) in pending(home).iter().enumerate() {
        let agent = format!("w{}", i % MEMBERS + 1);
        common::goclaw(home, &["run", "--agent", &agent, "--task", n]);
    }
    t.elapsed()
}

fn main() {
    let runs = common::runs(3);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let latency = Arc::new(Mutex::new(LATENCY));
    let l = latency.clone();
    std::thread::spawn(move || serve(listener, l));
    let home = setup(port);

    // (1) 4 tasks at once (team run) against one after another (run --task).
    let mut together = Vec::new();
    let mut apart = Vec::new();
    for r in 0..runs {
        post(&home, MEMBERS, &format!("together {r}"));
        let t = Instant::now();
        common::goclaw(&home, &["team", "run", "t"]);
        together.push(t.elapsed());
        post(&home, MEMBERS, &format!("apart {r}"));
        apart.push(one_by_one(&home));
    }
    let (tmean, _, tbest) = common::stats(&together);
    let (amean, _, abest) = common::stats(&apart);
    println!("team run, {MEMBERS} tasks of 1 s at once: mean {tmean:.0} ms, best {tbest:.0} ms");
    println!(
        "the same {MEMBERS} tasks one by one (run --task): mean {amean:.0} ms, best {abest:.0} ms"
    );
    println!(
        "wall ratio (best, team run / one by one): {:.2}",
        tbest / abest
    );

    // (2) The dispatcher's overhead per task, the LLM answering at once.
    *latency.lock().unwrap() = Duration::ZERO;
    let mut per_task = Vec::new();
    let mut single = Vec::new();
    const TASKS: usize = 8;
    for r in 0..runs {
        post(&home, TASKS, &format!("overhead {r}"));
        let t = Instant::now();
        common::goclaw(&home, &["team", "run", "t", "--workers", "1"]);
        per_task.push(t.elapsed() / TASKS as u32);
        post(&home, 1, &format!("single {r}"));
        single.push(one_by_one(&home));
    }
    let (pmean, _, pbest) = common::stats(&per_task);
    let (smean, _, sbest) = common::stats(&single);
    println!("team run --workers 1, per task: mean {pmean:.1} ms, best {pbest:.1} ms");
    println!("one run --task alone: mean {smean:.1} ms, best {sbest:.1} ms");
    println!(
        "dispatcher overhead per task (best): {:.1} ms",
        pbest - sbest
    );
}

/// A home with provider `bench` (the server above), a lead and four members, and team `t`.
fn setup(port: u16) -> PathBuf {
    let home = std::env::temp_dir().join("goclaw-bench-team-run");
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let mut config = format!(
        "[providers.bench]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\nmodel = \"m\"\nstream = false\n"
    );
    for a in ["lead", "w1", "w2", "w3", "w4"] {
        config.push_str(&format!("\n[agents.{a}]\nprovider = \"bench\"\n"));
    }
    std::fs::write(home.join("config.toml"), config).unwrap();
    common::goclaw(&home, &["db", "migrate"]);
    common::goclaw(
        &home,
        &[
            "team", "create", "t", "--lead", "lead", "--member", "w1", "--member", "w2",
            "--member", "w3", "--member", "w4",
        ],
    );
    home
}
