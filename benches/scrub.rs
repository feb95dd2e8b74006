//! Benchmark: `goclaw scrub` against `cat` (the ceiling: reading and writing the bytes) and
//! `rg` running the same 14 patterns (a search that writes nothing), side by side in one run,
//! each pinned to one core with `taskset` when it is available.
//!
//! Run: `cargo bench --bench scrub` (add `-- --mb 400` for a bigger corpus). It writes four
//! deterministic corpora under the target directory's `tmp/bench-data/`: realistic service logs with a
//! secret on about one line in a thousand (200 MB by default), a secret-dense corpus with a
//! secret on every line, 1 MB of minified JSON and a 40 MB token (no white space at all). It
//! checks that `goclaw scrub`'s output is byte-identical to the plain sequential semantics (each
//! pattern's replace-all over the whole input, in order), then runs goclaw alternately with rg
//! (5 pairs) and with cat (3 pairs): medians, the median of the pair ratios, and goclaw's peak
//! memory (`wait4`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common.rs"]
mod common;
#[path = "corpus.rs"]
mod corpus;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--peak-of") {
        return peak_of(&args[i + 1..]);
    }
    let mb = std::env::args()
        .skip_while(|a| a != "--mb")
        .nth(1)
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(200);
    // Cargo's scratch directory for benches, in the target directory wherever that is
    // (`CARGO_TARGET_DIR`, `build.target-dir`, or `target/`).
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-data");
    std::fs::create_dir_all(&dir).unwrap();
    let goclaw = env!("CARGO_BIN_EXE_goclaw");
    let pin = which::which("taskset").is_ok();
    let rg = which::which("rg").expect("rg is the baseline: apt-get install ripgrep");
    println!("goclaw scrub benchmark: {mb} MB log corpus, pinned to one core: {pin}");

    let mut rg_args: Vec<String> = vec!["--no-config".into(), "-c".into()];
    for p in goclaw::text::scrub::Scrubber::rust_patterns() {
        rg_args.push("-e".into());
        rg_args.push(p);
    }
    let rg_args: Vec<&str> = rg_args.iter().map(String::as_str).collect();
    let rg = rg.to_str().unwrap();

    let corpora = [
        (
            "log",
            format!("log-{mb}mb.txt"),
            corpus::log_corpus as Make,
            mb << 20,
        ),
        (
            "dense",
            format!("dense-{}mb.txt", mb / 4),
            corpus::dense_corpus,
            (mb / 4) << 20,
        ),
        (
            "minified JSON",
            "json-1mb.txt".into(),
            corpus::minified_json,
            1 << 20,
        ),
        ("token", "token-40mb.txt".into(), corpus::token, 40 << 20),
    ];
    println!(
        "{:<14} {:>6} {:>12} {:>10} {:>10} {:>9} {:>10}",
        "corpus", "MB", "goclaw MB/s", "cat MB/s", "rg MB/s", "peak MiB", "identical"
    );
    for (name, file, make, size) in corpora {
        let path = dir.join(file);
        if !path.exists() {
            std::fs::write(&path, make(42, size)).unwrap();
        }
        let mb = std::fs::metadata(&path).unwrap().len() as f64 / 1e6;
        assert!(check_identical(goclaw, &path), "{name}: output differs");
        let mut ours = || run(pin, goclaw, &["scrub"], &path).0;
        let (g_ms, rg_ms, rg_ratio) =
            common::alternate(5, &mut ours, &mut || run(pin, rg, &rg_args, &path).0);
        let (_, cat_ms, cat_ratio) =
            common::alternate(3, &mut ours, &mut || run(pin, "cat", &[], &path).0);
        let speed = |ms: f64| mb / (ms / 1000.0);
        let peak_mib = peak(goclaw, &path) as f64 / 1024.0;
        println!(
            "{:<14} {:>6.0} {:>12.0} {:>10.0} {:>10.0} {:>9.1} {:>10}",
            name,
            mb,
            speed(g_ms),
            speed(cat_ms),
            speed(rg_ms),
            peak_mib,
            true
        );
        let figure = |name: &str, value, unit, baseline, ratio, goal: &str, met| {
            common::figure(common::Figure {
                section: "scrub",
                name,
                value,
                unit,
                baseline,
                ratio,
                goal,
                met,
            })
        };
        match name {
            "log" => figure(
                &format!("{mb:.0} MB log, a secret in ~1000 lines, one core"),
                speed(g_ms) / 1000.0,
                "GB/s",
                Some(("cat", speed(cat_ms) / 1000.0)),
                Some(1.0 / cat_ratio),
                "≥ 1.5 GB/s",
                speed(g_ms) >= 1500.0,
            ),
            "dense" => figure(
                &format!("{mb:.0} MB, a secret on every line"),
                speed(g_ms),
                "MB/s",
                Some(("rg", speed(rg_ms))),
                Some(1.0 / rg_ratio),
                "≥ 2x rg's speed",
                1.0 / rg_ratio >= 2.0,
            ),
            _ => figure(
                &format!("{name}, {mb:.0} MB without white space"),
                g_ms,
                "ms",
                Some(("rg", rg_ms)),
                Some(rg_ratio),
                "≤ 2x rg's time",
                rg_ratio <= 2.0,
            ),
        }
        figure(
            &format!("peak memory, {name}"),
            peak_mib,
            "MiB",
            None,
            None,
            "< 64 MiB",
            peak_mib < 64.0,
        );
    }
}

type Make = fn(u64, usize) -> Vec<u8>;

/// Runs `program args < input > /dev/null`, on one core when `pin`: its wall time and peak
/// memory (KiB).
fn run(pin: bool, program: &str, args: &[&str], input: &Path) -> (Duration, u64) {
    let mut cmd = if pin {
        let mut c = Command::new("taskset");
        c.args(["-c", "0", program]);
        c
    } else {
        Command::new(program)
    };
    cmd.args(args)
        .env(
            "GOCLAW_HOME",
            std::env::temp_dir().join("goclaw-bench-home"),
        )
        .stdin(std::fs::File::open(input).unwrap())
        .stdout(Stdio::null());
    // rg exits 1 when nothing matched; run_measured accepts 0 and 1.
    common::run_measured(&mut cmd)
}

/// goclaw scrub's peak memory (KiB) on `input`. Measured from a fresh copy of this bench (the
/// `--peak-of` mode): Linux hands a child the peak of the process it was started from, and this
/// one has held whole corpora.
fn peak(goclaw: &str, input: &Path) -> u64 {
    let out = Command::new(std::env::current_exe().unwrap())
        .arg("--peak-of")
        .arg(input)
        .args([goclaw, "scrub"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// `--peak-of INPUT PROGRAM ARGS…`: runs the program on the input and prints its peak memory.
fn peak_of(args: &[String]) {
    let mut cmd = Command::new(&args[1]);
    cmd.args(&args[2..])
        .env(
            "GOCLAW_HOME",
            std::env::temp_dir().join("goclaw-bench-home"),
        )
        .stdin(std::fs::File::open(&args[0]).unwrap())
        .stdout(Stdio::null());
    println!("{}", common::run_measured(&mut cmd).1);
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
