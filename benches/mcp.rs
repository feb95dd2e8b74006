//! Benchmark: one MCP tool call, `goclaw mcp call` against the Python SDK's client
//! (`fixtures/mcp-peers/py_client.py`), side by side in one run. Each run is a whole fresh
//! client process: connect, initialize, call `echo`, print.
//! - stdio: both clients start server-everything (node) themselves;
//! - streamable HTTP: both clients talk to one long-running Python peer on 127.0.0.1, so the
//!   figures are the client's own cost.
//!
//! Needs the peers `.ci/run` installs (npm ci, the venv under ~/.cache/goclaw).
//! Run: `cargo bench --bench mcp [-- --runs N]`. Prints wall-clock milliseconds (mean and best).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let goclaw = env!("CARGO_BIN_EXE_goclaw");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = common::runs(10);
    let python = std::env::var_os("HOME")
        .map(|h| PathBuf::from(h).join(".cache/goclaw/peers-venv/bin/python"))
        .filter(|p| p.exists())
        .expect("the peer venv is missing: run .ci/run once");
    let everything = root.join(
        "fixtures/mcp-peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        everything.exists(),
        "server-everything is missing: npm ci in fixtures/mcp-peers"
    );
    let client = root.join("fixtures/mcp-peers/py_client.py");
    let home = std::env::temp_dir().join("goclaw-bench-mcp-home");
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let goclaw_cmd = |args: &[&str]| {
        let mut c = Command::new(goclaw);
        c.env("GOCLAW_HOME", &home).args(args);
        c
    };
    let everything = everything.display().to_string();
    run_ok(goclaw_cmd(&[
        "mcp",
        "add",
        "ev",
        "--command",
        "node",
        "--arg",
        &everything,
    ]));

    let port = common::free_port();
    let mut server = Command::new(&python)
        .arg(root.join("fixtures/mcp-peers/py_server.py"))
        .args(["streamable-http", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    common::wait_for_port(port);
    let url = format!("http://127.0.0.1:{port}/mcp");
    run_ok(goclaw_cmd(&["mcp", "add", "py", "--url", &url]));

    let message = r#"{"message":"bench"}"#;
    println!("one call per fresh client process, {runs} runs each (ms: mean / best)");
    compare(
        "stdio, server-everything",
        runs,
        || goclaw_cmd(&["mcp", "call", "ev", "echo", message]),
        || {
            let mut c = Command::new(&python);
            c.arg(&client)
                .args(["stdio", "echo", message, "node", &everything]);
            c
        },
    );
    compare(
        "streamable HTTP, Python peer",
        runs,
        || goclaw_cmd(&["mcp", "call", "py", "echo", message]),
        || {
            let mut c = Command::new(&python);
            c.arg(&client).args(["http", &url, "echo", message]);
            c
        },
    );
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&home);
}

/// Runs both commands `runs` times, alternating, and prints the figures and their ratio.
fn compare(label: &str, runs: usize, ours: impl Fn() -> Command, theirs: impl Fn() -> Command) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        a.push(time(ours()));
        b.push(time(theirs()));
    }
    let (am, _, ab) = common::stats(&a);
    let (bm, _, bb) = common::stats(&b);
    println!(
        "{label}: goclaw {am:.0} / {ab:.0}; python client {bm:.0} / {bb:.0}; ratio of means {:.2}",
        am / bm
    );
}

/// Times one call and checks that the echo came back.
fn time(cmd: Command) -> Duration {
    let start = Instant::now();
    let out = run_ok(cmd);
    let elapsed = start.elapsed();
    assert!(
        out.contains("echo: bench") || out.contains("Echo: bench"),
        "{out}"
    );
    elapsed
}

fn run_ok(mut cmd: Command) -> String {
    let out = cmd.stderr(Stdio::null()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{cmd:?} failed: {stdout}");
    stdout
}
