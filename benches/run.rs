//! Benchmark: goclaw's own time per agent-loop iteration, for sessions of 100, 1 000 and 10 000
//! stored messages. The LLM side is a minimal OpenAI-compatible server inside this process that
//! answers at once and measures its own time per request (request read → response written); a
//! run makes five iterations (four `glob` tool calls, then an answer). goclaw's own time is the
//! run's root span (from the trace) minus the server's time, divided by the iterations; the
//! whole-process wall time per iteration is printed beside it. After each run the messages it
//! added are deleted, so every repetition sees the same history.
//!
//! Run: `cargo bench --bench run [-- --runs N]`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common.rs"]
mod common;

use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const ITERATIONS: usize = 5;

/// Server time so far, in microseconds, and requests served.
#[derive(Default)]
struct ServerClock {
    micros: AtomicU64,
    requests: AtomicUsize,
}

fn serve(listener: TcpListener, clock: Arc<ServerClock>) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let clock = clock.clone();
        std::thread::spawn(move || handle(stream, &clock));
    }
}

fn handle(stream: TcpStream, clock: &ServerClock) {
    stream.set_nodelay(true).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        if common::read_request(&mut reader).is_none() {
            return;
        }
        let start = Instant::now();
        let n = clock.requests.fetch_add(1, Ordering::SeqCst);
        let message = if n % ITERATIONS == ITERATIONS - 1 {
            r#"{"role":"assistant","content":"done"}"#.to_string()
        } else {
            format!(
                r#"{{"role":"assistant","content":null,"tool_calls":[{{"id":"c{n}","type":"function","function":{{"name":"glob","arguments":"{{\"pattern\":\"*.none{n}\"}}"}}}}]}}"#
            )
        };
        let reply = format!(
            r#"{{"choices":[{{"index":0,"message":{message},"finish_reason":"stop"}}],"usage":{{"prompt_tokens":10,"completion_tokens":5}}}}"#
        );
        // One write, no Nagle: a response split in pieces would meet the client's delayed ACK.
        let response = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{reply}",
            reply.len()
        );
        out.write_all(response.as_bytes()).unwrap();
        out.flush().unwrap();
        clock
            .micros
            .fetch_add(start.elapsed().as_micros() as u64, Ordering::SeqCst);
    }
}

fn main() {
    let goclaw = env!("CARGO_BIN_EXE_goclaw");
    let runs = common::runs(10);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let clock = Arc::new(ServerClock::default());
    let c = clock.clone();
    std::thread::spawn(move || serve(listener, c));

    println!(
        "{runs} runs of {ITERATIONS} iterations per size (ms per iteration: median / best / mean)"
    );
    println!(
        "{:>9}  {:>24}  {:>24}",
        "messages", "goclaw's own", "whole process"
    );
    let mut medians = Vec::new();
    for size in [100usize, 1_000, 10_000] {
        let home = setup(goclaw, port, size);
        let mut own = Vec::new();
        let mut wall = Vec::new();
        for _ in 0..runs {
            let served_before = clock.micros.load(Ordering::SeqCst);
            let t = Instant::now();
            let out = Command::new(goclaw)
                .args(["run", "--session", "bench", "go"])
                .env("GOCLAW_HOME", &home)
                .current_dir(&home)
                .output()
                .unwrap();
            let elapsed = t.elapsed();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(doc["iterations"], ITERATIONS as u64, "{doc}");
            let server = Duration::from_micros(clock.micros.load(Ordering::SeqCst) - served_before);
            let trace = Command::new(goclaw)
                .args(["traces", "show", doc["run_id"].as_str().unwrap()])
                .env("GOCLAW_HOME", &home)
                .output()
                .unwrap();
            let trace: serde_json::Value = serde_json::from_slice(&trace.stdout).unwrap();
            let root_ms = trace["spans"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["kind"] == "agent")
                .unwrap()["duration_ms"]
                .as_f64()
                .unwrap();
            let per = |d: f64| d / ITERATIONS as f64;
            own.push(per(root_ms - server.as_secs_f64() * 1000.0));
            wall.push(per((elapsed - server).as_secs_f64() * 1000.0));
            reset(&home, size);
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let best = |v: &[f64]| v.iter().cloned().fold(f64::MAX, f64::min);
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let own_median = median(&mut own);
        medians.push(own_median);
        println!(
            "{size:>9}  {:>7.2} / {:>6.2} / {:>6.2}  {:>7.2} / {:>6.2} / {:>6.2}",
            own_median,
            best(&own),
            mean(&own),
            median(&mut wall),
            best(&wall),
            mean(&wall)
        );
    }
    for (i, (name, goal)) in [("1 000", 2.0), ("10 000", 5.0)].into_iter().enumerate() {
        let value = medians[i + 1];
        common::figure(common::Figure {
            section: "store",
            name: &format!("agent loop's own time per iteration, {name} messages"),
            value,
            unit: "ms",
            baseline: Some(("the same at 100 messages", medians[0])),
            ratio: Some(value / medians[0]),
            goal: &format!("< {goal} ms"),
            met: value < goal,
        });
    }
}

/// A home whose store has the session `bench` with `size` messages (user and assistant turns of
/// about 200 characters), and a provider pointing at the bench server.
fn setup(goclaw: &str, port: u16, size: usize) -> PathBuf {
    let home = std::env::temp_dir().join(format!("goclaw-bench-run-{size}"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("config.toml"),
        format!(
            "[providers.bench]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\nmodel = \"m\"\nstream = false\n\n[agents.default]\nmax_tool_calls = 0\n\n[agents.default.compaction]\nenabled = false\n"
        ),
    )
    .unwrap();
    let ok = Command::new(goclaw)
        .args(["db", "migrate"])
        .env("GOCLAW_HOME", &home)
        .output()
        .unwrap();
    assert!(ok.status.success());
    let mut conn = rusqlite::Connection::open(home.join("goclaw.db")).unwrap();
    let tx = conn.transaction().unwrap();
    tx.execute(
        "INSERT INTO sessions (key, agent, created_at, updated_at) VALUES ('bench', 'default', 0, 0)",
        [],
    )
    .unwrap();
    let filler = "lorem ipsum dolor sit amet ".repeat(8);
    for seq in 1..=size {
        let role = if seq % 2 == 1 { "user" } else { "assistant" };
        let message = serde_json::json!({"role": role, "content": format!("{seq}: {filler}")});
        tx.execute(
            "INSERT INTO session_messages (session, seq, message, run_id) VALUES ('bench', ?1, ?2, 'seed')",
            rusqlite::params![seq as i64, message.to_string()],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    home
}

/// Removes what a run added to the session.
fn reset(home: &std::path::Path, size: usize) {
    let conn = rusqlite::Connection::open(home.join("goclaw.db")).unwrap();
    conn.execute(
        "DELETE FROM session_messages WHERE session = 'bench' AND seq > ?1",
        [size as i64],
    )
    .unwrap();
}
