//! Benchmark: subagents. (1) The overhead of a child: from starting the child's `goclaw run`
//! (exactly the command the `spawn` tool runs) to its first LLM request, side by side with
//! `goclaw --version` (process start alone). (2) 8 children at once against the same 8 one
//! after the other, on the same work (each a run of one LLM request that takes 300 ms at the
//! server, as a model would): the wall-time ratio.
//!
//! The LLM side is a minimal OpenAI-compatible server inside this process that notes when each
//! child's first request arrives (children are told apart by their task).
//!
//! Run: `cargo bench --bench subagents [-- --runs N]`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common.rs"]
mod common;

use std::collections::HashMap;
use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const LATENCY: Duration = Duration::from_millis(300);
const CHILDREN: usize = 8;

/// When each task's first request arrived.
type Arrivals = Arc<Mutex<HashMap<String, Instant>>>;

fn serve(listener: TcpListener, arrivals: Arrivals, latency: Arc<Mutex<Duration>>) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let (arrivals, latency) = (arrivals.clone(), latency.clone());
        std::thread::spawn(move || handle(stream, &arrivals, &latency));
    }
}

fn handle(stream: TcpStream, arrivals: &Arrivals, latency: &Mutex<Duration>) {
    stream.set_nodelay(true).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        let Some(body) = common::read_request(&mut reader) else {
            return;
        };
        let now = Instant::now();
        let text = String::from_utf8_lossy(&body);
        if let Some(at) = text.find("bench task ") {
            let task: String = text[at..].chars().take_while(|c| *c != '"').collect();
            arrivals.lock().unwrap().entry(task).or_insert(now);
        }
        // Copied out first: the lock must not be held while the request waits.
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

/// The child's command, as the spawn tool builds it.
fn child(goclaw: &str, home: &Path, task: &str) -> Child {
    Command::new(goclaw)
        .args(["--quiet", "--json", "run", "--on-ask", "deny"])
        .args(["--run-id", &uuid(), "--parent-run", "bench-parent"])
        .args(["--depth", "1", "--label", "bench", "--provider", "bench"])
        .args(["--model", "m", "--max-iterations", "20", "--", task])
        .env("GOCLAW_HOME", home)
        .current_dir(home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn uuid() -> String {
    uuid::Uuid::now_v7().to_string()
}

fn main() {
    let goclaw = env!("CARGO_BIN_EXE_goclaw");
    let runs = common::runs(10);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let arrivals: Arrivals = Arc::default();
    let latency = Arc::new(Mutex::new(Duration::ZERO));
    let (a, l) = (arrivals.clone(), latency.clone());
    std::thread::spawn(move || serve(listener, a, l));
    let home = setup(goclaw, port);

    // (1) Start to first LLM request, against process start alone.
    let mut to_request = Vec::new();
    let mut version = Vec::new();
    for i in 0..runs {
        let task = format!("bench task overhead {i}");
        let t = Instant::now();
        let mut c = child(goclaw, &home, &task);
        c.wait().unwrap();
        let arrived = arrivals.lock().unwrap()[&task];
        to_request.push(arrived - t);
        let t = Instant::now();
        Command::new(goclaw).arg("--version").output().unwrap();
        version.push(t.elapsed());
    }
    let (mean, _, best) = common::stats(&to_request);
    let (vmean, _, vbest) = common::stats(&version);
    println!("child start → first LLM request: mean {mean:.1} ms, best {best:.1} ms");
    println!("goclaw --version (process start): mean {vmean:.1} ms, best {vbest:.1} ms");
    println!("ratio (best): {:.2}x", best / vbest);

    // (2) 8 children at once against one after the other, each one 300 ms LLM request.
    *latency.lock().unwrap() = LATENCY;
    let mut together = Vec::new();
    let mut apart = Vec::new();
    for r in 0..runs.min(5) {
        let t = Instant::now();
        let mut all: Vec<Child> = (0..CHILDREN)
            .map(|i| child(goclaw, &home, &format!("bench task together {r} {i}")))
            .collect();
        for c in &mut all {
            assert!(c.wait().unwrap().success());
        }
        together.push(t.elapsed());
        let t = Instant::now();
        for i in 0..CHILDREN {
            let mut c = child(goclaw, &home, &format!("bench task apart {r} {i}"));
            assert!(c.wait().unwrap().success());
        }
        apart.push(t.elapsed());
    }
    let (tmean, _, tbest) = common::stats(&together);
    let (amean, _, abest) = common::stats(&apart);
    println!("{CHILDREN} children at once: mean {tmean:.0} ms, best {tbest:.0} ms");
    println!("{CHILDREN} children one by one: mean {amean:.0} ms, best {abest:.0} ms");
    println!(
        "wall ratio (best, at once / one by one): {:.2}",
        tbest / abest
    );
}

/// A home whose config points provider `bench` at the bench server.
fn setup(goclaw: &str, port: u16) -> PathBuf {
    let home = std::env::temp_dir().join("goclaw-bench-subagents");
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("config.toml"),
        format!(
            "[providers.bench]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\nmodel = \"m\"\nstream = false\n"
        ),
    )
    .unwrap();
    let ok = Command::new(goclaw)
        .args(["db", "migrate"])
        .env("GOCLAW_HOME", &home)
        .output()
        .unwrap();
    assert!(ok.status.success());
    home
}
