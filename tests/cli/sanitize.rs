//! `goclaw sanitize`.

use crate::util::*;

#[test]
fn cleans_stdin_to_text() {
    let env = TestEnv::new();
    let input = "\n\n<think>plan</think>Hello <tool_call>x</tool_call>there.\n\nHello x there.\n\nMEDIA:/tmp/a.png\n";
    let o = env.run_stdin(&["sanitize"], input);
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "Hello xthere.\n\nHello x there.\n");
}

#[test]
fn json_reports_silent_replies() {
    let env = TestEnv::new();
    let o = env.run_stdin(&["--json", "sanitize"], "<final>NO_REPLY</final>");
    assert_eq!(
        json(&o),
        serde_json::json!({"content":"NO_REPLY","silent":true})
    );
    let o = env.run(&["--json", "sanitize", "Just an answer."]);
    assert_eq!(
        json(&o),
        serde_json::json!({"content":"Just an answer.","silent":false})
    );
    // Without --json a filter prints text even into a pipe; nothing for an empty result.
    let o = env.run_stdin(&["sanitize"], "<think>only thoughts</think>");
    assert!(o.stdout.is_empty());
}

#[test]
fn composes_with_scrub() {
    let env = TestEnv::new();
    let cleaned = env.run_stdin(
        &["sanitize"],
        "<think>x</think>Your key is sk-abcdefghijklmnopqrstuvwx",
    );
    let o = env.run_stdin(&["scrub"], cleaned.stdout);
    assert_eq!(stdout(&o), "Your key is [REDACTED]\n");
}

/// A live reply (`some-llm-cli | goclaw sanitize`) comes out paragraph by paragraph while the
/// input is still open, each as soon as nothing later can change it, and the whole output is
/// what one read of the whole would print; SIGINT ends the input with what was read cleaned.
#[test]
fn a_live_reply_comes_out_as_it_becomes_final() {
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};
    let env = TestEnv::new();
    let mut child = env.spawn(&["sanitize"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            let _ = tx.send(buf[..n].to_vec());
        }
    });
    let expect = |stdin: &mut std::process::ChildStdin, write: &str, want: &str| {
        let sent = Instant::now();
        stdin.write_all(write.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let mut got = Vec::new();
        while got.len() < want.len() {
            let piece = rx
                .recv_timeout(Duration::from_secs(5))
                .unwrap_or_else(|_| panic!("waited for {want:?}, got {got:?}"));
            got.extend(piece);
        }
        assert_eq!(String::from_utf8(got).unwrap(), want);
        assert!(
            sent.elapsed() < Duration::from_secs(2),
            "{:?}",
            sent.elapsed()
        );
    };
    expect(
        &mut stdin,
        "<think>plan</think>First paragraph.\n\n",
        // With its line's end: `| while read line` has it at once.
        "First paragraph.\n",
    );
    // A thinking block still open waits for its end.
    stdin.write_all(b"<think>more\n\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        rx.try_recv().is_err(),
        "printed inside an open thinking block"
    );
    expect(&mut stdin, "</think>Second.\n\n", "\nSecond.\n");
    drop(stdin);
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
    let rest: Vec<u8> = rx.try_iter().flatten().collect();
    assert_eq!(
        rest, b"",
        "the newline that ends the output came with Second."
    );

    // SIGINT: what was read is cleaned and printed, exit 130.
    let mut child = env.spawn(&["sanitize"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"kept <final>answer</final> <think>cut")
        .unwrap();
    stdin.flush().unwrap();
    wait_until_read(&stdin);
    interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "kept answer <think>cut\n"
    );
    drop(stdin);
}

/// A terminal that closes under a filter (a dropped ssh session) takes its output with it: the
/// filter stops on the SIGHUP and exits 129, not 1 for the write the closed terminal refused.
#[test]
fn a_filter_whose_terminal_closes_exits_as_the_hangup() {
    let env = TestEnv::new();
    for filter in ["sanitize", "scrub"] {
        let mut pty = env.on_pty(&[filter], Some(std::process::Stdio::piped()), false);
        let mut input = pty.child.stdin.take().unwrap();
        std::io::Write::write_all(&mut input, b"hello there\n").unwrap();
        // Reading, with what it holds back still to write: the end may yet change it.
        pty.wait_catching(nix::sys::signal::Signal::SIGHUP);
        std::thread::sleep(std::time::Duration::from_millis(100));
        pty.hang_up();
        let (code, took) = pty.exit();
        assert_eq!(code, Some(129), "{filter}");
        assert!(
            took < std::time::Duration::from_secs(3),
            "{filter}: {took:?}"
        );
        drop(input);
    }
}
