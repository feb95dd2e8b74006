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
use std::process::Command;

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
    common::time(
        Command::new(goclaw)
            .args(["db", "migrate"])
            .env("GOCLAW_HOME", &home),
    );
    println!(
        "{:<34} {:>10} {:>10} {:>8}",
        "(median of alternating runs)", "goclaw ms", "cat ms", "ratio"
    );
    let cases: [(&str, Vec<&str>, f64); 3] = [
        ("goclaw --version", vec!["--version"], 2.0),
        ("goclaw scrub </dev/null", vec!["scrub"], 2.0),
        (
            "goclaw tools exec read_file",
            vec!["tools", "exec", "read_file", r#"{"path":"small.txt"}"#],
            3.0,
        ),
    ];
    for (name, args, goal) in cases {
        let mut ours = || {
            let mut c = Command::new(goclaw);
            c.args(&args)
                .arg_if_tools(&dir)
                .env("GOCLAW_HOME", &home)
                .current_dir(&dir);
            common::time(&mut c)
        };
        let mut cat = || common::time(Command::new("cat").arg(&file));
        let (g, c, r) = common::alternate(runs, &mut ours, &mut cat);
        println!("{name:<34} {g:>10.2} {c:>10.2} {r:>7.2}x");
        common::figure(common::Figure {
            section: "start-up",
            name,
            value: g,
            unit: "ms",
            baseline: Some(("cat", c)),
            ratio: Some(r),
            goal: &format!("≤ {goal} ms"),
            met: g <= goal,
        });
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
