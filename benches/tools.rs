//! Benchmark: `goclaw tools exec search` and `glob` against `rg` and `fd`, side by side in one
//! run (alternating, 5 pairs each; medians and the median of the pair ratios) on a large tree
//! (default: the cargo registry's crate sources, real Rust code; `-- --tree DIR` for another):
//! - a full search counting matches, against `rg -c`;
//! - the first 100 matches (`max_results`), against `rg | head -n 100`;
//! - every Rust file, against `fd -e rs`.
//!
//! Whole processes, so goclaw's figures include its start, the store and the audit record. The
//! start-up figures are `benches/startup.rs`'s.
//!
//! Run: `cargo bench --bench tools [-- --runs N]`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let goclaw = env!("CARGO_BIN_EXE_goclaw");
    let runs = common::runs(5);
    let args: Vec<String> = std::env::args().collect();
    let tree = args
        .iter()
        .position(|a| a == "--tree")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
        .or_else(registry_src)
        .expect("no tree to search: pass --tree DIR");
    let rg = which::which("rg").expect("rg is the baseline: apt-get install ripgrep");
    let fd = which::which("fd")
        .or_else(|_| which::which("fdfind"))
        .expect("fd is the baseline: apt-get install fd-find");
    let home = std::env::temp_dir().join("goclaw-bench-tools-home");
    std::fs::create_dir_all(&home).unwrap();
    println!(
        "tree: {} ({:.0} MB of files)",
        tree.display(),
        tree_size(&tree) as f64 / 1e6
    );
    let tool = |name: &str, args: &str| {
        let mut c = Command::new(goclaw);
        c.args(["tools", "exec", name, args, "--workspace"])
            .arg(&tree)
            .env("GOCLAW_HOME", &home);
        c
    };

    // The same counts from both, checked once.
    let search = r#"{"pattern":"fn main","output_mode":"count","max_results":1000000}"#;
    let out = tool("search", search).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ours = count_lines(v["result"]["for_llm"].as_str().unwrap());
    let mut rg_count = Command::new(&rg);
    rg_count.args(["-c", "--no-config", "fn main"]).arg(&tree);
    let theirs = count_lines(&String::from_utf8_lossy(&rg_count.output().unwrap().stdout));
    assert_eq!(ours, theirs, "goclaw and rg count different matches");

    let cases: [(&str, Command, Command, f64); 4] = [
        (
            "search 'fn main', every match counted",
            tool("search", search),
            rg_count,
            1.1,
        ),
        (
            "search 'fn ', the first 100 matches",
            tool("search", r#"{"pattern":"fn ","max_results":100}"#),
            shell(&format!(
                "{} --no-config 'fn ' {} | head -n 100",
                rg.display(),
                tree.display()
            )),
            2.0,
        ),
        (
            "glob '**/*.rs', every Rust file",
            tool("glob", r#"{"pattern":"**/*.rs","max_results":10000000}"#),
            {
                let mut c = Command::new(&fd);
                c.args(["--no-ignore", "--hidden", "-t", "f", "-e", "rs", "."])
                    .arg(&tree);
                c
            },
            1.2,
        ),
        (
            "glob '**/*.rs', against fd reading mtimes too",
            tool("glob", r#"{"pattern":"**/*.rs","max_results":10000000}"#),
            {
                // glob orders newest first, so it reads every match's modification time; a
                // time filter that keeps everything makes fd read them too.
                let mut c = Command::new(&fd);
                c.args(["--no-ignore", "--hidden", "-t", "f", "-e", "rs"])
                    .args(["--changed-within", "100000weeks", "."])
                    .arg(&tree);
                c
            },
            1.2,
        ),
    ];
    println!(
        "{:<42} {:>10} {:>10} {:>7}",
        "(median of 5 pairs)", "goclaw ms", "base ms", "ratio"
    );
    for (name, mut ours, mut base, goal) in cases {
        let (g, b, r) = common::alternate(runs, &mut || common::time(&mut ours), &mut || {
            common::time(&mut base)
        });
        println!("{name:<42} {g:>10.1} {b:>10.1} {r:>6.2}x");
        let base_name = if name.contains("mtimes") {
            "fd --changed-within"
        } else if name.starts_with("glob") {
            "fd"
        } else if name.contains("first 100") {
            "rg | head -n 100"
        } else {
            "rg"
        };
        common::figure(common::Figure {
            section: "search",
            name,
            value: g,
            unit: "ms",
            baseline: Some((base_name, b)),
            ratio: Some(r),
            goal: &format!("≤ {goal}x {base_name}"),
            met: r <= goal,
        });
    }
}

fn shell(script: &str) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c").arg(script);
    c
}

fn count_lines(text: &str) -> usize {
    text.lines()
        .filter_map(|l| l.rsplit(':').next()?.parse::<usize>().ok())
        .sum()
}

fn registry_src() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    std::fs::read_dir(home.join("registry/src"))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
}

fn tree_size(dir: &Path) -> u64 {
    ignore::WalkBuilder::new(dir)
        .build()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}
