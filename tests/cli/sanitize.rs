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
