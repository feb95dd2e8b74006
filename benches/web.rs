//! Benchmark: `web_fetch` on a real page (the Rust book's "Data Types", 44 KB, served by
//! `fixtures/web/serve.py` on 127.0.0.1), side by side with baselines in one run:
//! - whole process: `goclaw tools exec web_fetch` (start-up, store, gate, guarded fetch, HTML →
//!   Markdown, wrapper, audit record) against `curl -s` of the same URL (the fetch alone);
//! - in process: goclaw's conversion (`tools::web::html::convert`: parse, remove hidden and
//!   skipped elements, htmd, tidy) against htmd's own `convert` on the same page.
//!
//! Run: `cargo bench --bench web [-- --runs N]`. Prints milliseconds (median and best).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common.rs"]
mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let goclaw = env!("CARGO_BIN_EXE_goclaw");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runs = common::runs(20);
    let page_path = root.join("fixtures/web/rust-book-data-types.html");
    let page = std::fs::read_to_string(&page_path).unwrap();

    // In process: 10 × runs conversions each, alternating.
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..runs * 10 {
        let t = Instant::now();
        let md = goclaw::tools::web::html::convert(&page, false);
        ours.push(t.elapsed());
        assert!(md.contains("| Length"));
        let t = Instant::now();
        let md = htmd::convert(&page).unwrap();
        theirs.push(t.elapsed());
        assert!(md.contains("| Length"));
    }
    report(
        "HTML → Markdown in process",
        "htmd::convert",
        &ours,
        &theirs,
    );

    // Whole process against curl, over loopback.
    let port = common::free_port();
    let mut server = Command::new("python3")
        .arg(root.join("fixtures/web/serve.py"))
        .arg(port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    common::wait_for_port(port);
    let home = std::env::temp_dir().join(format!("goclaw-bench-web-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("config.toml"),
        "[tools.web]\nallow_private_hosts = [\"127.0.0.1\"]\n",
    )
    .unwrap();
    let url = format!("http://127.0.0.1:{port}/page/rust-book-data-types.html");
    let fetch_args = format!(r#"{{"url":"{url}"}}"#);
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let mut c = Command::new(goclaw);
        c.env("GOCLAW_HOME", &home).current_dir(&home).args([
            "tools",
            "exec",
            "web_fetch",
            &fetch_args,
        ]);
        ours.push(time(c, "Data Types"));
        let mut c = Command::new("curl");
        c.args(["-s", &url]);
        theirs.push(time(c, "Data Types"));
    }
    report("one fetch, whole process", "curl -s", &ours, &theirs);
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&home);
}

fn report(label: &str, baseline: &str, ours: &[Duration], theirs: &[Duration]) {
    let (_, om, ob) = common::stats(ours);
    let (_, tm, tb) = common::stats(theirs);
    println!(
        "{label}: goclaw {om:.2} / {ob:.2} ms; {baseline} {tm:.2} / {tb:.2} ms (median / best); ratio of medians {:.2}",
        om / tm
    );
}

fn time(mut cmd: Command, expect: &str) -> Duration {
    let start = Instant::now();
    let out = cmd.stderr(Stdio::null()).output().unwrap();
    let elapsed = start.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains(expect),
        "{cmd:?}: {text}"
    );
    elapsed
}
