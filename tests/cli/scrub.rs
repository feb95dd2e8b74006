//! `goclaw scrub`: the filter, values, JSON mode, --check and --report, hostile input.

use std::io::Write;

use crate::util::*;

fn ghp() -> String {
    format!("ghp_{}", "Ab1".repeat(12))
}

#[test]
fn filters_stdin_and_files_byte_for_byte() {
    let env = TestEnv::new();
    let o = env.run_stdin(&["scrub"], format!("clone {} ok\n", ghp()));
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "clone [REDACTED] ok\n");
    let a = env.write("a.log", "token: abcdefghij\n");
    let b = env.write("b.log", "plain\r\nAKIAABCDEFGHIJKLMNOP\n");
    let o = env.run(&["scrub", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(stdout(&o), "[REDACTED]\nplain\r\n[REDACTED]\n");
}

#[test]
fn a_small_file_on_a_terminal_gets_no_progress_bar() {
    let env = TestEnv::new();
    let small = env.write("config.env", format!("GITHUB={}\n", ghp()));
    let screen = on_unanswered_terminal(&env, &format!("scrub {}", small.display()));
    assert!(screen.contains("GITHUB=[REDACTED]"), "{screen}");
    // Nothing else: no bar, no spinner (a bar is for files over 16 MB).
    let rest = screen.replace("GITHUB=[REDACTED]", "");
    assert!(rest.trim().is_empty(), "{screen:?}");
}

#[test]
fn invalid_utf8_nul_and_cr_pass_through() {
    let env = TestEnv::new();
    let input =
        b"\xff\xfe\0 sk-abcdefghijklmnopqrstuvwx \xc3\x28\r\ntoken: abcdef\xffg\r\n".to_vec();
    let o = env.run_stdin(&["scrub"], input);
    assert_eq!(
        o.stdout,
        b"\xff\xfe\0 [REDACTED] \xc3\x28\r\n[REDACTED]\r\n"
    );
}

#[test]
fn a_10mb_single_line() {
    let env = TestEnv::new();
    let mut line = "word ".repeat(2_000_000).into_bytes();
    line.extend_from_slice(b"password=supersecretvalue ");
    line.extend("tail ".repeat(100).bytes());
    let o = env.run_stdin(&["scrub"], line.clone());
    let expected = String::from_utf8(line)
        .unwrap()
        .replace("password=supersecretvalue", "[REDACTED]");
    assert_eq!(o.stdout.len(), expected.len());
    assert!(o.stdout == expected.as_bytes());
    // And a 6 MB token with no white space at all (under the 8 MiB forced cut): one hex secret.
    let hex = "a1".repeat(3_000_000);
    let o = env.run_stdin(&["scrub"], format!("x {hex} y"));
    assert_eq!(stdout(&o), "x [REDACTED] y");
}

#[test]
fn secrets_split_across_read_buffers_and_writes() {
    let env = TestEnv::new();
    // Secrets placed on and around the 1 MiB read size, and a stream written in odd pieces.
    let mut input = Vec::new();
    let mut expected = Vec::new();
    let secrets = [
        ("key-value", "api_key = abcdefgh12345678".to_string()),
        ("multi-line", "password:\n\n   hunter2hunter2".to_string()),
        ("github", ghp()),
        ("hex", "f".repeat(80)),
    ];
    for (k, target) in [(1 << 20) - 5, (2 << 20) - 1, (3 << 20) + 3, (4 << 20) - 20]
        .into_iter()
        .enumerate()
    {
        while input.len() < target {
            input.extend_from_slice(b"filler text 0123 ");
            expected.extend_from_slice(b"filler text 0123 ");
        }
        let (_, s) = &secrets[k % secrets.len()];
        input.extend_from_slice(s.as_bytes());
        input.push(b'\n');
        expected.extend_from_slice(b"[REDACTED]\n");
    }
    let mut child = env.spawn(&["scrub"]);
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        for piece in input.chunks(65_537) {
            stdin.write_all(piece).unwrap();
        }
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout.len(), expected.len());
    assert!(
        out.stdout == expected,
        "output differs from the expected redaction"
    );
}

#[test]
fn values_server_ips_and_values_files() {
    let env = TestEnv::new();
    let vf = env.write("values.txt", "s3cr3t-value-1\r\nshort\n\nanother-value-2\n");
    let o = env.run_stdin(
        &[
            "scrub",
            "--value",
            "hunter2-pass",
            "--values-file",
            vf.to_str().unwrap(),
            "--server-ip",
            "203.0.113.9",
        ],
        "a hunter2-pass b s3cr3t-value-1 c another-value-2 d 203.0.113.9 e short\n",
    );
    assert_eq!(
        stdout(&o),
        "a [REDACTED] b [REDACTED] c [REDACTED] d [SERVER_IP] e short\n"
    );
    // The short value is ignored, and the user is told.
    assert!(
        stderr(&o).contains("shorter than 6 bytes ignored"),
        "{}",
        stderr(&o)
    );
    // Values with white space still stream correctly.
    let o = env.run_stdin(
        &["scrub", "--value", "two words here"],
        "x two words here y\n",
    );
    assert_eq!(stdout(&o), "x [REDACTED] y\n");
    // A value that begins with '-' is a value, not a flag.
    let o = env.run_stdin(&["scrub", "--value", "-ANT-x9f2"], "x -ANT-x9f2 y\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "x [REDACTED] y\n");
}

#[test]
fn values_from_config() {
    let env = TestEnv::new();
    env.write("v.txt", "from-file-value\n");
    env.write("c.toml", "[scrub]\nvalues = [\"config-value-1\"]\nvalues_files = [\"v.txt\"]\nserver_ips = [\"198.51.100.7\"]\n");
    let o = env.run_stdin(
        &["--config", "c.toml", "scrub"],
        "config-value-1 from-file-value 198.51.100.7\n",
    );
    assert_eq!(stdout(&o), "[REDACTED] [REDACTED] [SERVER_IP]\n");
}

#[test]
fn detect_server_ips_redacts_this_hosts_addresses() {
    let env = TestEnv::new();
    let addrs = goclaw::host::server_addresses().unwrap();
    let text = addrs.iter().map(|a| format!("at {a} ")).collect::<String>() + "and 127.0.0.1\n";
    let o = env.run_stdin(&["scrub", "--detect-server-ips"], text);
    let expected = addrs.iter().map(|_| "at [SERVER_IP] ").collect::<String>() + "and 127.0.0.1\n";
    assert_eq!(stdout(&o), expected);
}

#[test]
fn json_values_keeps_json_valid_where_plain_text_scrubbing_breaks_it() {
    let env = TestEnv::new();
    let doc = r#"{"auth":"token: abcdefghij","n":12345678901234567890123,"f":1.50,"nested":[{"k":"sk-abcdefghijklmnopqrstuvwx"}],"token: abcdefghij":true}"#;
    // As plain text the pattern swallows the closing quote and the JSON breaks.
    let plain = env.run_stdin(&["scrub"], doc);
    assert!(
        serde_json::from_slice::<serde_json::Value>(&plain.stdout).is_err(),
        "{}",
        stdout(&plain)
    );
    let o = env.run_stdin(
        &["scrub", "--json-values"],
        format!("{doc}\n{{\"b\":\"plain\"}}\n"),
    );
    assert_eq!(code(&o), 0);
    let lines: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"auth":"[REDACTED]","n":12345678901234567890123,"f":1.50,"nested":[{"k":"[REDACTED]"}],"token: abcdefghij":true}"#,
            r#"{"b":"plain"}"#
        ]
    );
}

#[test]
fn check_exit_codes_and_report() {
    let env = TestEnv::new();
    let clean = env.write("clean.txt", "nothing here\n");
    let dirty = env.write(
        "dirty.txt",
        "one\ntwo sk-abcdefghijklmnopqrstuvwx\nthree\npassword=abcdefghij\n",
    );
    let o = env.run(&["scrub", "--check", clean.to_str().unwrap()]);
    assert_eq!(code(&o), 0);
    assert_eq!(json(&o)["clean"], true);
    let o = env.run(&[
        "scrub",
        "--check",
        clean.to_str().unwrap(),
        dirty.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 1);
    let report = json(&o);
    assert!(
        !stdout(&o).contains("sk-abc"),
        "a report never holds the secret"
    );
    assert_eq!(report["redactions"], 2);
    assert_eq!(
        report["files"][1]["patterns"]["openai_key"]["lines"],
        serde_json::json!([2])
    );
    assert_eq!(
        report["files"][1]["patterns"]["secret_assignment"]["lines"],
        serde_json::json!([4])
    );
    let human = env.run(&["--human", "scrub", "--check", dirty.to_str().unwrap()]);
    insta::assert_snapshot!("check_human", redact(&env, &stdout(&human)));
}

/// `--check DIR` walks the tree in path order: hidden and linked files such as `.env` are
/// checked, what git ignores (and .git) is not, a link loop ends nothing; a plain scrub of a
/// directory stays a usage error.
#[test]
fn check_walks_a_directory() {
    let env = TestEnv::new();
    let key = "k=sk-abcdefghijklmnopqrstuvwx\n";
    assert!(
        std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(env.work())
            .status()
            .unwrap()
            .success()
    );
    env.write(".gitignore", "target\n");
    env.write("target/built.txt", key);
    env.write(".git/leak", key);
    env.write("src/b/deep.rs", key);
    env.write("src/a.rs", "fn main() {}\n");
    env.write(".env", key);
    // An .ignore file is not git's: what it names is checked; a linked file is checked too.
    env.write(".ignore", "src/a.rs\n");
    std::os::unix::fs::symlink(".env", env.work().join("linked")).unwrap();
    std::os::unix::fs::symlink("..", env.work().join("src/b/up")).unwrap();
    let o = env.run(&["scrub", "--check", "."]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let files: Vec<String> = json(&o)["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        files,
        [
            "./.env",
            "./.gitignore",
            "./.ignore",
            "./linked",
            "./src/a.rs",
            "./src/b/deep.rs"
        ]
    );
    assert_eq!(json(&o)["redactions"], 3);
    assert_eq!(code(&env.run(&["scrub", "--check", "src/a.rs"])), 0);
    assert_error(&env.run(&["--json", "scrub", "src"]), 2, "usage");
}

#[test]
fn report_goes_to_stderr_and_output_is_unchanged() {
    let env = TestEnv::new();
    let o = env.run_stdin(&["scrub", "--report"], "x\nAKIAABCDEFGHIJKLMNOP\n");
    assert_eq!(stdout(&o), "x\n[REDACTED]\n");
    let report: serde_json::Value = serde_json::from_str(stderr(&o).trim()).unwrap();
    assert_eq!(
        report["files"][0]["patterns"]["aws_access_key"]["lines"],
        serde_json::json!([2])
    );
    assert!(!stderr(&o).contains("AKIA"));
}

#[test]
fn json_flag_gives_one_document() {
    let env = TestEnv::new();
    let o = env.run_stdin(&["--json", "scrub"], "key=sk-abcdefghijklmnopqrstuvwx\n");
    let doc = json(&o);
    assert_eq!(doc["content"], "key=[REDACTED]\n");
    assert_eq!(doc["lossy"], false);
    assert_eq!(doc["report"]["redactions"], 1);
}

#[test]
fn a_missing_file_fails_before_anything_is_written() {
    let env = TestEnv::new();
    let a = env.write("a.txt", "first file\n");
    let o = env.run(&["scrub", a.to_str().unwrap(), "missing.txt"]);
    assert!(assert_filter_error(&o, 5).contains("missing.txt"));
    let o = env.run(&["--human", "scrub", env.work().to_str().unwrap()]);
    assert_eq!(code(&o), 2);
}

#[test]
fn memory_stays_bounded_on_a_large_stream() {
    let line = format!(
        "2026-11-21 INFO request done id={} path=/v1/chat\n",
        "ab12".repeat(4)
    );
    let block = line.repeat((1 << 20) / line.len()) + "token: Zz9Zz9Zz9Zz9\n";
    let (peak, received) = peak_mib_scrubbing(block.into_bytes(), 64 << 20);
    assert!(received > 32 << 20, "received {received}");
    assert!(peak < 48, "peak RSS {peak} MiB for a 64 MiB stream");
}

/// Input that no safe cut splits, a literal every few bytes, is cut at 8 MiB; the probes'
/// hits over such a stretch took 180 MB (helper-41: 232 MB for 100 MB of `key`) before hits
/// close together were joined.
#[test]
fn memory_stays_bounded_where_literals_are_everywhere() {
    for unit in ["key", "key ", "://", "sk-"] {
        let block = unit.repeat((1 << 20) / unit.len());
        let (peak, received) = peak_mib_scrubbing(block.into_bytes(), 20 << 20);
        assert!(received >= 20 << 20, "{unit:?}: received {received}");
        assert!(
            peak < 64,
            "{unit:?}: peak RSS {peak} MiB for a 20 MiB stream"
        );
    }
}

/// The slow path over a stretch with no safe cut: a match every 12 bytes (`VIRTUAL_A = `
/// repeated took 127 MB for 100 MB with the cut at 16 MiB), bytes that are not UTF-8 (16 MiB of
/// `0xff` took 850 MB when each was a piece of its own), and both with a match among them. The
/// bound is on what the stream adds to the binary's own start (a debug build starts 16 MiB
/// larger than a release one, which starts at 6).
#[test]
fn memory_stays_bounded_where_matches_or_invalid_bytes_fill_a_stretch() {
    // The start, with 1 MiB of plain text (a process that ends at once leaves no peak to read).
    let (start, _) = peak_mib_scrubbing(b"a\n".repeat(1 << 15), 1 << 20);
    let mut invalid_with_keys = vec![0xff; 1 << 16];
    invalid_with_keys.extend_from_slice(b"key=abcdefghij");
    for (name, block) in [
        ("VIRTUAL_A = ", b"VIRTUAL_A = ".repeat((1 << 20) / 12)),
        ("0xff", vec![0xff; 1 << 20]),
        ("0xff and key=", invalid_with_keys),
        // Valid and invalid bytes in turn, a match among them (helper-42: 447 MB for 100 MB
        // when each run of either was a piece).
        ("a 0xff and sk-", {
            let mut unit = b"a\xff".repeat(100);
            unit.extend_from_slice(b"sk-BBBBBBBBBBBBBBBBBBBB");
            unit.repeat((1 << 20) / unit.len())
        }),
        // A Latin-1 log: lines that end beyond ASCII were never cut (112 MB for 100 MB).
        ("Latin-1 lines", {
            let mut unit = b"caf\xe9 ol\xe9\n".repeat(1000);
            unit.extend_from_slice(b"monkey\xe9\n");
            unit
        }),
    ] {
        let (peak, received) = peak_mib_scrubbing(block, 20 << 20);
        assert!(received > 0, "{name}: nothing written");
        assert!(
            peak - start < 58,
            "{name}: peak RSS {peak} MiB for a 20 MiB stream, {start} MiB at the start"
        );
    }
}

/// Scrubs `block` repeated to `total` bytes through a pipe: goclaw's peak RSS (MiB), and the
/// bytes it wrote.
fn peak_mib_scrubbing(block: Vec<u8>, total: usize) -> (u64, usize) {
    let env = TestEnv::new();
    let mut child = env.spawn(&["scrub"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let mut sent = 0;
        while sent < total {
            stdin.write_all(&block).unwrap();
            sent += block.len();
        }
    });
    let pid = child.id();
    let mut peak = 0;
    let mut received = 0usize;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = std::io::Read::read(&mut stdout, &mut buf).unwrap();
        if n == 0 {
            break;
        }
        received += n;
        peak = peak.max(peak_kib(pid).unwrap_or(0));
    }
    feeder.join().unwrap();
    assert!(child.wait().unwrap().success());
    assert!(peak > 0, "VmHWM was read");
    (peak / 1024, received)
}

#[test]
fn time_is_linear_on_input_without_white_space() {
    // Minified JSON full of probe hits (`key`, `token`, `_url`) and no white space: 4× the
    // input must cost about 4× the time (the quadratic scrubber took 16×).
    let doc = |n: usize| {
        let mut s = String::from("[");
        for i in 0..n {
            s.push_str(&format!(
                "{{\"id\":{i},\"key\":\"k{i}\",\"token_type\":\"bearer\",\"next_url\":\"http://x/{i}\"}},"
            ));
        }
        s.push(']');
        s
    };
    let env = TestEnv::new();
    let (small, large) = (doc(5_000), doc(20_000));
    let time = |input: &str| {
        let t = std::time::Instant::now();
        let o = env.run_stdin(&["scrub"], input.as_bytes().to_vec());
        assert_eq!(o.stdout, input.as_bytes());
        t.elapsed().as_secs_f64()
    };
    let _ = time(&small);
    let (a, b) = (time(&small), time(&large));
    assert!(b / a < 8.0, "{a:.3} s for 1x, {b:.3} s for 4x");
}

/// Input without white space is as cheap as a log, within the same run (a ratio, so it holds on
/// a slow machine): the quadratic case of the past (a probe hit walked to the next white space,
/// the pending buffer rescanned at every read) took 1500x.
#[test]
fn input_without_white_space_scrubs_in_linear_time() {
    let env = TestEnv::new();
    let record = r#"{"user":"a","password":"hunter2","api_key":"sk-abc","url":"https://x.io/a?token=abc","auth":"Bearer x"},"#;
    let dense = record.repeat(1_000_000 / record.len() + 1);
    let line = "2026-11-24T00:00:00Z INFO request id=42 path=/api/v1/items status=200 took=12ms\n";
    let log = line.repeat(1_000_000 / line.len() + 1);
    let best = |input: &str| {
        (0..5)
            .map(|_| {
                let t = std::time::Instant::now();
                let o = env.run_stdin(&["scrub"], input.as_bytes().to_vec());
                assert_eq!(code(&o), 0, "{}", stderr(&o));
                t.elapsed()
            })
            .min()
            .unwrap()
    };
    let (dense_time, log_time) = (best(&dense), best(&log));
    assert!(
        dense_time < log_time * 50,
        "1 MB without white space took {dense_time:?}, a 1 MB log {log_time:?}"
    );
}

/// Live input (a producer that writes a line, then pauses, as under `tail -f`) comes out
/// scrubbed while the input is still open, not at the next 256 KiB or at the end: plain text,
/// and JSON Lines with `--json-values` (one line in, one line out).
#[test]
fn live_input_comes_out_as_it_arrives() {
    live(
        &["scrub"],
        "first token=abcdef123456\n",
        "first [REDACTED]",
        "second password=hunter22 end\n",
        "second [REDACTED] end",
    );
    // The same through a path that names a pipe.
    live(
        &["scrub", "/dev/stdin"],
        "first token=abcdef123456\n",
        "first [REDACTED]",
        "second password=hunter22 end\n",
        "second [REDACTED] end",
    );
    live(
        &["scrub", "--json-values"],
        "{\"a\":\"token=abcdef123456\"}\n",
        r#"{"a":"[REDACTED]"}"#,
        "{\"b\":\"password=hunter22 end\"}\n",
        r#"{"b":"[REDACTED] end"}"#,
    );
}

/// Writes `first` to `goclaw ARGS` and waits (5 s at most) for `first_out` while stdin stays
/// open; then writes `second`, closes stdin and expects `second_out` as the rest.
fn live(args: &[&str], first: &str, first_out: &str, second: &str, second_out: &str) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let env = TestEnv::new();
    let mut child = env
        .std_cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        while let Some(Ok(line)) = lines.next() {
            let _ = tx.send(line);
        }
    });
    stdin.write_all(first.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let got = rx.recv_timeout(std::time::Duration::from_secs(5));
    assert_eq!(
        got.as_deref(),
        Ok(first_out),
        "{args:?}: the first line, while the input is open"
    );
    stdin.write_all(second.as_bytes()).unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
    let rest: Vec<String> = rx.try_iter().collect();
    assert_eq!(rest, [second_out], "{args:?}");
}

/// Ctrl-C (or SIGTERM) ends the input: what was read and held back (a line not yet ended, a
/// key waiting for its value) is scrubbed as the input's end and written, nothing is lost, and
/// goclaw exits 130 (143) within a second.
#[test]
fn a_signal_ends_the_input_and_loses_nothing() {
    use std::io::{Read, Write};
    for (sig, exit) in [
        (nix::sys::signal::Signal::SIGINT, 130),
        (nix::sys::signal::Signal::SIGTERM, 143),
    ] {
        let env = TestEnv::new();
        let mut child = env.spawn(&["scrub"]);
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        // A whole line (flushed live), then a held-back tail with a secret in it.
        stdin.write_all(b"first line\n").unwrap();
        stdin.flush().unwrap();
        let mut first = [0u8; 11];
        stdout.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"first line\n");
        stdin
            .write_all(b"token: sk-abcdefghijklmnopqrstuvwxyz and the rest")
            .unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        let t = std::time::Instant::now();
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), sig).unwrap();
        let mut rest = String::new();
        stdout.read_to_string(&mut rest).unwrap();
        let status = child.wait().unwrap();
        assert!(
            t.elapsed() < std::time::Duration::from_secs(1),
            "{sig}: {:?}",
            t.elapsed()
        );
        assert_eq!(status.code(), Some(exit), "{sig}");
        assert_eq!(rest, "[REDACTED] and the rest", "{sig}");
        drop(stdin);
    }
}

/// A check cut short by a signal never reports clean: a CI job that was killed does not pass.
#[test]
fn an_interrupted_check_is_not_clean() {
    use std::io::Write;
    let env = TestEnv::new();
    let mut child = env.spawn(&["scrub", "--check"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"nothing secret here\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    drop(stdin);
}

/// A signal ends scrub even while it is stuck opening a FIFO nobody writes to: what cannot
/// finish within a second of the signal exits with the signal's code.
#[test]
fn a_signal_ends_a_scrub_stuck_on_a_fifo() {
    let env = TestEnv::new();
    let fifo = env.work().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let child = env
        .std_cmd(&["scrub", "--check", "fifo"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let t = std::time::Instant::now();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    assert!(
        t.elapsed() < std::time::Duration::from_secs(3),
        "{:?}",
        t.elapsed()
    );
    // Said on stderr, not silent; nothing on stdout, the data stream.
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("stopped by SIGTERM") && said.contains("unfinished"),
        "{said}"
    );
    assert!(out.stdout.is_empty(), "{out:?}");
}

/// An IPv6 server address is redacted however it is written: short or full, either case.
#[test]
fn a_server_address_is_redacted_in_every_notation() {
    let env = TestEnv::new();
    let o = env.run_stdin(
        &["scrub", "--server-ip", "2001:db8::1"],
        "a 2001:DB8::1 b 2001:0db8:0000:0000:0000:0000:0000:0001 c 2001:db8::10\n",
    );
    assert_eq!(stdout(&o), "a [SERVER_IP] b [SERVER_IP] c 2001:db8::10\n");
}
