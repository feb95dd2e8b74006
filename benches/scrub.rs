//! Benchmark: `goclaw scrub` against `cat` (the ceiling: reading and writing the bytes) and
//! `rg` running the same 14 patterns (a search that writes nothing), side by side in one run,
//! each pinned to one core with `taskset` when it is available.
//!
//! Run: `cargo bench --bench scrub` (add `-- --mb 400` for a bigger corpus). It writes two
//! deterministic corpora under `$CARGO_TARGET_DIR/bench-data/`: realistic service logs with a
//! secret on about one line in a thousand (200 MB by default), and a secret-dense corpus with a
//! secret on every line. It checks that `goclaw scrub`'s output is byte-identical to the plain
//! sequential semantics (each pattern's replace-all over the whole input, in order), then prints
//! MB/s: the best of three runs of each command.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "corpus.rs"]
mod corpus;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let mb = std::env::args()
        .skip_while(|a| a != "--mb")
        .nth(1)
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(200);
    let dir = PathBuf::from(std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into()))
        .join("bench-data");
    std::fs::create_dir_all(&dir).unwrap();
    let goclaw = env!("CARGO_BIN_EXE_goclaw");
    let pin = which::which("taskset").is_ok();
    let rg = which::which("rg").ok();
    println!("goclaw scrub benchmark: {mb} MB log corpus, pinned to one core: {pin}");
    if rg.is_none() {
        println!("(rg not installed: `apt-get install ripgrep` adds the ripgrep column)");
    }

    let corpora = [
        (
            "log",
            dir.join(format!("log-{mb}mb.txt")),
            corpus::log_corpus as fn(u64, usize) -> Vec<u8>,
            mb,
        ),
        (
            "dense",
            dir.join(format!("dense-{}mb.txt", mb / 4)),
            corpus::dense_corpus,
            mb / 4,
        ),
    ];
    println!(
        "{:<8} {:>9} {:>14} {:>12} {:>12} {:>10}",
        "corpus", "MB", "goclaw MB/s", "cat MB/s", "rg MB/s", "identical"
    );
    for (name, path, make, size) in corpora {
        if !path.exists() {
            std::fs::write(&path, make(42, size << 20)).unwrap();
        }
        let bytes = std::fs::metadata(&path).unwrap().len() as f64;
        let identical = check_identical(goclaw, &path);
        let goclaw_rate = rate(bytes, || run(pin, goclaw, &["scrub"], &path));
        let cat_rate = rate(bytes, || run(pin, "cat", &[], &path));
        let rg_rate = rg.as_ref().map(|rg| {
            let mut args: Vec<String> = vec!["--no-config".into(), "-c".into()];
            for p in goclaw::text::scrub::Scrubber::rust_patterns() {
                args.push("-e".into());
                args.push(p);
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            rate(bytes, || run(pin, rg.to_str().unwrap(), &args, &path))
        });
        println!(
            "{:<8} {:>9.0} {:>14.0} {:>12.0} {:>12} {:>10}",
            name,
            bytes / 1e6,
            goclaw_rate,
            cat_rate,
            rg_rate.map_or("-".into(), |r| format!("{r:.0}")),
            identical
        );
    }
}

/// Best of three runs, in MB/s.
fn rate(bytes: f64, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    bytes / 1e6 / best
}

/// Runs `program args < input > /dev/null`, on one core when `pin`.
fn run(pin: bool, program: &str, args: &[&str], input: &Path) {
    let mut cmd = if pin {
        let mut c = Command::new("taskset");
        c.args(["-c", "0", program]);
        c
    } else {
        Command::new(program)
    };
    let status = cmd
        .args(args)
        .env(
            "GOCLAW_HOME",
            std::env::temp_dir().join("goclaw-bench-home"),
        )
        .stdin(std::fs::File::open(input).unwrap())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    // rg exits 1 when nothing matched; anything else is a failure.
    assert!(status.code().is_some_and(|c| c <= 1), "{program}: {status}");
}

/// Is `goclaw scrub`'s output byte-identical to the naive sequential semantics?
fn check_identical(goclaw: &str, input: &Path) -> bool {
    let out = Command::new(goclaw)
        .arg("scrub")
        .env(
            "GOCLAW_HOME",
            std::env::temp_dir().join("goclaw-bench-home"),
        )
        .stdin(std::fs::File::open(input).unwrap())
        .output()
        .unwrap();
    let data = std::fs::read(input).unwrap();
    let expected = goclaw::text::scrub::Scrubber::new(&[], &[])
        .unwrap()
        .scrub_naive(&data);
    out.status.success() && out.stdout == expected
}
