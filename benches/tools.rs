//! Benchmark: `goclaw tools exec` against the plain tools, side by side in one run.
//! - `search` against `rg` on a large tree (default: the cargo registry's crate sources, real
//!   Rust code; `-- --tree DIR` for another), same pattern, counting matches;
//! - `read_file` of a small file against `cat`;
//! - cold start: `goclaw --version` and a whole `tools exec read_file` call (store open, policy,
//!   audit record included).
//!
//! Run: `cargo bench --bench tools`. Prints wall-clock milliseconds (mean and best of N runs).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let goclaw = env!("CARGO_BIN_EXE_goclaw");
    let args: Vec<String> = std::env::args().collect();
    let tree = args
        .iter()
        .position(|a| a == "--tree")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
        .or_else(registry_src)
        .expect("no tree to search: pass --tree DIR");
    let home = std::env::temp_dir().join("goclaw-bench-tools-home");
    std::fs::create_dir_all(&home).unwrap();
    let bytes = tree_size(&tree);
    println!(
        "tree: {} ({:.0} MB of files)",
        tree.display(),
        bytes as f64 / 1e6
    );

    let pattern = "fn main";
    let search =
        format!(r#"{{"pattern":"{pattern}","output_mode":"count","max_results":1000000}}"#);
    let ours = || {
        let out = Command::new(goclaw)
            .args(["tools", "exec", "search", &search, "--workspace"])
            .arg(&tree)
            .env("GOCLAW_HOME", &home)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        count_lines(v["result"]["for_llm"].as_str().unwrap())
    };
    let rg = which::which("rg").ok();
    let theirs = |rg: &Path| {
        let out = Command::new(rg)
            .args(["-c", "--no-config", pattern])
            .arg(&tree)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.rsplit(':').next()?.parse::<usize>().ok())
            .sum::<usize>()
    };
    let (ours_ms, ours_best, n_ours) = time(5, ours);
    println!(
        "search '{pattern}': goclaw tools exec search  mean {ours_ms:7.1} ms  best {ours_best:7.1} ms  ({n_ours} matches)"
    );
    if let Some(rg) = &rg {
        let (rg_ms, rg_best, n_rg) = time(5, || theirs(rg));
        println!(
            "search '{pattern}': rg -c                    mean {rg_ms:7.1} ms  best {rg_best:7.1} ms  ({n_rg} matches)"
        );
        println!("search ratio (best): {:.2}x rg", ours_best / rg_best);
    } else {
        println!("(rg not installed: apt-get install ripgrep)");
    }

    // The first 100 matches: search with max_results against `rg | head -n 100`.
    let limited = r#"{"pattern":"fn ","max_results":100}"#;
    let (lim_ms, lim_best, _) = time(5, || {
        let out = Command::new(goclaw)
            .args(["tools", "exec", "search", limited, "--workspace"])
            .arg(&tree)
            .env("GOCLAW_HOME", &home)
            .output()
            .unwrap();
        assert!(out.status.success());
        0
    });
    println!(
        "search 'fn ' max_results 100: goclaw        mean {lim_ms:7.1} ms  best {lim_best:7.1} ms"
    );
    if let Some(rg) = &rg {
        let (h_ms, h_best, _) = time(5, || {
            let out = Command::new("sh")
                .arg("-c")
                .arg(format!(
                    "{} --no-config 'fn ' {} | head -n 100",
                    rg.display(),
                    tree.display()
                ))
                .output()
                .unwrap();
            assert!(out.status.success());
            0
        });
        println!(
            "search 'fn ' first 100: rg | head -n 100    mean {h_ms:7.1} ms  best {h_best:7.1} ms"
        );
        println!(
            "limited search ratio (best): {:.2}x rg | head",
            lim_best / h_best
        );
    }

    // glob against fd: every Rust file of the tree.
    let globbed = r#"{"pattern":"**/*.rs","max_results":10000000}"#;
    let (g_ms, g_best, n_g) = time(5, || {
        let out = Command::new(goclaw)
            .args(["tools", "exec", "glob", globbed, "--workspace"])
            .arg(&tree)
            .env("GOCLAW_HOME", &home)
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["result"]["for_llm"].as_str().unwrap().lines().count()
    });
    println!(
        "glob '**/*.rs': goclaw tools exec glob      mean {g_ms:7.1} ms  best {g_best:7.1} ms  ({n_g} files)"
    );
    if let Ok(fd) = which::which("fd").or_else(|_| which::which("fdfind")) {
        let (f_ms, f_best, n_f) = time(5, || {
            let out = Command::new(&fd)
                .args(["--no-ignore", "--hidden", "-t", "f", "-e", "rs", "."])
                .arg(&tree)
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).lines().count()
        });
        println!(
            "glob '**/*.rs': fd -e rs                    mean {f_ms:7.1} ms  best {f_best:7.1} ms  ({n_f} files)"
        );
        println!("glob ratio (best): {:.2}x fd", g_best / f_best);
    } else {
        println!("(fd not installed: apt-get install fd-find)");
    }

    let dir = std::env::temp_dir().join("goclaw-bench-tools-ws");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("small.txt"),
        "line one\nline two\nline three\n".repeat(20),
    )
    .unwrap();
    let quiet = |c: &mut Command| {
        c.stdout(Stdio::null())
            .stderr(Stdio::null())
            .env("GOCLAW_HOME", &home);
        assert!(c.status().unwrap().success());
    };
    let (read_ms, read_best, _) = time(50, || {
        quiet(
            Command::new(goclaw)
                .args([
                    "tools",
                    "exec",
                    "read_file",
                    r#"{"path":"small.txt"}"#,
                    "--workspace",
                ])
                .arg(&dir),
        )
    });
    let (cat_ms, cat_best, _) = time(50, || quiet(Command::new("cat").arg(dir.join("small.txt"))));
    let (ver_ms, ver_best, _) = time(50, || quiet(Command::new(goclaw).arg("--version")));
    println!(
        "read_file small: goclaw tools exec read_file  mean {read_ms:6.2} ms  best {read_best:6.2} ms"
    );
    println!(
        "read_file small: cat                          mean {cat_ms:6.2} ms  best {cat_best:6.2} ms"
    );
    println!(
        "cold start: goclaw --version                  mean {ver_ms:6.2} ms  best {ver_best:6.2} ms"
    );
}

fn time<T>(n: usize, mut f: impl FnMut() -> T) -> (f64, f64, T) {
    let mut total = 0.0;
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..n {
        let t = Instant::now();
        last = Some(f());
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        total += ms;
        best = best.min(ms);
    }
    (total / n as f64, best, last.unwrap())
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
