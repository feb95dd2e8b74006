//! `goclaw scrub` against Go itself: a small oracle (fixtures/scrub-oracle/main.go) runs
//! GoClaw's patterns with Go's `regexp`, and both must give the same bytes on hostile inputs,
//! including invalid UTF-8, Unicode case folding and white space Go does not count as `\s`.
//! Needs `go` (Debian's golang-go; `.ci/run` installs it). Without it the test fails under CI
//! and is skipped, with a note, elsewhere.

use std::io::Write;
use std::process::{Command as StdCommand, Stdio};

use crate::util::*;

const TOKENS: &[&[u8]] = &[
    b" ",
    b" ",
    b"\n",
    b"\r\n",
    b"\t",
    b"\x0b",
    b"\x0c",
    b"\0",
    b"  \n\n ",
    b"token",
    b"TOKEN",
    b":",
    b"=",
    b" = ",
    b"api_key",
    b"api-key",
    b"apikey",
    b"password",
    b"bearer",
    b"Authorization",
    b"secret",
    b"MY_KEY",
    b"CREDENTIAL",
    b"private",
    b"DSN",
    b"DATABASE_URL",
    b"MONGO_URI",
    b"VIRTUAL_ENV",
    b"postgres://",
    b"amqp://",
    b"[REDACTED]",
    b"\"",
    b"'",
    b"abcdefgh",
    b"ABCDEFGHIJ",
    b"0123456789",
    b"deadbeef",
    b"x",
    b"_",
    b"-",
    b"]",
    b"[",
    "\u{e9}".as_bytes(),
    "\u{212a}".as_bytes(),
    "\u{17f}".as_bytes(),
    "\u{a0}".as_bytes(),
    "\u{130}".as_bytes(),
    b"\xff",
    b"\xfe",
    b"\xc3",
    b"\xe2\x84",
    b"\xed\xa0\x80",
    b"\xf0\x9f",
    b"hunter2pass",
    // Spaced: goclaw redacts a server address only where it stands alone, GoClaw inside longer
    // numbers too (`1[SERVER_IP]2`), a deliberate difference (tests in `text/scrub/tests.rs`).
    b" 10.0.0.1 ",
];

fn generate(seed: u64, tokens: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    for _ in 0..tokens {
        let r = next();
        match r % 50 {
            0 => out.extend(format!("sk-{}", "Ab9".repeat(7 + (r as usize / 50) % 3)).bytes()),
            1 => out.extend(format!("ghp_{}", "Z".repeat(36)).bytes()),
            2 => out.extend(format!("AKIA{}", "Q7".repeat(8)).bytes()),
            3 => out.extend(std::iter::repeat_n(b'c', 60 + (r as usize / 50) % 10)),
            _ => out.extend_from_slice(TOKENS[(r as usize / 50) % TOKENS.len()]),
        }
    }
    out
}

fn run_with_stdin(mut cmd: StdCommand, input: &[u8]) -> Vec<u8> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    assert!(out.status.success());
    out.stdout
}

#[test]
fn matches_go_regexp_byte_for_byte() {
    let Some(go) = require_peer(
        which::which("go").ok(),
        "go (.ci/run installs golang-go; apt-get install golang-go)",
    ) else {
        return;
    };
    let env = TestEnv::new();
    let oracle = env.root().join("scrub-oracle");
    let src =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/scrub-oracle/main.go");
    let build = StdCommand::new(go)
        .args(["build", "-o"])
        .arg(&oracle)
        .arg(&src)
        .env("GOCACHE", env.root().join("gocache"))
        .env("GOPATH", env.root().join("gopath"))
        .env("GO111MODULE", "off")
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "go build: {}",
        String::from_utf8_lossy(&build.stderr)
    );
    let values = [
        "--value",
        "hunter2pass",
        "--value",
        "short",
        "--server-ip",
        "10.0.0.1",
    ];
    for seed in 0..150 {
        let input = generate(seed, 300);
        let mut go_cmd = StdCommand::new(&oracle);
        go_cmd.args(values);
        let expected = run_with_stdin(go_cmd, &input);
        let mut args = vec!["scrub"];
        args.extend(values);
        let mut ours = env.std_cmd(&args);
        ours.stderr(Stdio::null());
        let got = run_with_stdin(ours, &input);
        assert!(
            got == expected,
            "seed {seed} differs from Go\ninput:  {:?}\ngo:     {:?}\ngoclaw: {:?}",
            String::from_utf8_lossy(&input),
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(&got)
        );
    }
}
