//! Benchmark: what every process pays before it does anything, side by side with `cat`
//! (alternating runs; the figure is the median of the pair ratios, so machine noise cancels):
//! `goclaw --version`, `goclaw scrub </dev/null` (goals: ≤ 2 ms) and a cold `goclaw tools exec
//! read_file` of a small file (goal: ≤ 3 ms), each against `cat` of the same small file.
//!
//! Run: `cargo bench --bench startup [-- --runs N]`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common.rs"]
mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn time(cmd: &mut Command) -> Duration {
    let t = Instant::now();
    let status = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let took = t.elapsed();
    assert!(status.success(), "{cmd:?}");
    took
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs `ours` and `cat` alternately `runs` times: the medians (ms) and the median ratio.
fn side_by_side(runs: usize, ours: &mut dyn FnMut() -> Command, file: &Path) -> (f64, f64, f64) {
    let (mut a, mut b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let x = time(&mut ours()).as_secs_f64() * 1000.0;
        let y = time(Command::new("cat").arg(file)).as_secs_f64() * 1000.0;
        a.push(x);
        b.push(y);
        ratios.push(x / y);
    }
    (median(a), median(b), median(ratios))
}

fn main() {
    let runs = common::runs(200);
    let goclaw = env!("CARGO_BIN_EXE_goclaw");
    let dir = std::env::temp_dir().join("goclaw-bench-startup");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("small.txt");
    std::fs::write(&file, "line one\nline two\nline three\n").unwrap();
    let home = dir.join("home");
    // The store exists, as it does after a first use.
    time(
        Command::new(goclaw)
            .args(["db", "migrate"])
            .env("GOCLAW_HOME", &home),
    );
    println!(
        "{:<34} {:>10} {:>10} {:>8}",
        "(median of alternating runs)", "goclaw ms", "cat ms", "ratio"
    );
    let cases: [(&str, Vec<&str>); 3] = [
        ("goclaw --version", vec!["--version"]),
        ("goclaw scrub </dev/null", vec!["scrub"]),
        (
            "goclaw tools exec read_file",
            vec!["tools", "exec", "read_file", r#"{"path":"small.txt"}"#],
        ),
    ];
    for (name, args) in cases {
        let mut ours = || {
            let mut c = Command::new(goclaw);
            c.args(&args)
                .arg_if_tools(&dir)
                .env("GOCLAW_HOME", &home)
                .current_dir(&dir);
            c
        };
        let (g, c, r) = side_by_side(runs, &mut ours, &file);
        println!("{name:<34} {g:>10.2} {c:>10.2} {r:>7.2}x");
    }
}

/// `--workspace DIR` for a tool call (the others ignore the workspace).
trait ArgIfTools {
    fn arg_if_tools(&mut self, dir: &Path) -> &mut Self;
}

impl ArgIfTools for Command {
    fn arg_if_tools(&mut self, dir: &Path) -> &mut Self {
        if self.get_args().next().is_some_and(|a| a == "tools") {
            self.arg("--workspace").arg(dir);
        }
        self
    }
}
