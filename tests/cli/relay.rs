//! The approval relay: `--on-ask wait[:DUR]` parks an approval in the store, and
//! `goclaw approvals pending` / `answer` settle it from another process (once, always, deny);
//! nobody answering in time is a denial, and a request is answered once.

use std::io::Read;
use std::time::{Duration, Instant};

use crate::util::*;

/// Starts `goclaw tools exec exec` of `command` under approval mode `ask`, waiting as `on_ask`.
fn ask(env: &TestEnv, command: &str, on_ask: &str) -> std::process::Child {
    let args = serde_json::json!({ "command": command }).to_string();
    env.spawn(&[
        "--config", "c.toml", "tools", "exec", "exec", &args, "--on-ask", on_ask,
    ])
}

/// The one pending request, once it is there.
fn pending_id(env: &TestEnv) -> i64 {
    // Generous: on a loaded 2-core machine a goclaw process can take seconds to get going.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let o = env.run(&["approvals", "pending"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        if let Some(first) = items(&o).first() {
            return first["id"].as_i64().unwrap();
        }
        assert!(Instant::now() < deadline, "no request was parked");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn finish(child: std::process::Child) -> (i32, String, String) {
    let o = child.wait_with_output().unwrap();
    (code(&o), stdout(&o), stderr(&o))
}

on_both_backends! {
fn approvals_wait_in_the_store_for_an_answer_from_elsewhere(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    env.write("c.toml", "[tools.exec]\napproval = \"ask\"\nsandbox = \"none\"\n");
    // Once: it runs, this time.
    let child = ask(&env, "touch ran-once", "wait:30s");
    let id = pending_id(&env);
    let shown = items(&env.run(&["approvals", "pending"]));
    assert_eq!(shown[0]["command"], "touch ran-once", "{shown:?}");
    assert_eq!(code(&env.run(&["approvals", "answer", &id.to_string(), "once"])), 0);
    let (c, out, err) = finish(child);
    assert_eq!(c, 0, "{out}{err}");
    assert!(err.contains(&format!("goclaw approvals answer {id} once|always|deny")), "{err}");
    assert!(env.work().join("ran-once").exists());
    // Answered once: a second answer is a conflict; an unknown request is not found.
    assert_error(&env.run(&["approvals", "answer", &id.to_string(), "deny"]), 6, "conflict");
    assert_error(&env.run(&["approvals", "answer", "999999", "deny"]), 5, "not_found");
    // Deny: refused (exit 3), nothing ran.
    let child = ask(&env, "touch ran-denied", "wait:30s");
    let id = pending_id(&env);
    assert_eq!(code(&env.run(&["approvals", "answer", &id.to_string(), "deny"])), 0);
    let (c, out, _) = finish(child);
    assert_eq!(c, 3, "{out}");
    assert!(!env.work().join("ran-denied").exists());
    // Always: it runs, and the program joins the allowlist, so the next call asks nobody.
    let child = ask(&env, "touch ran-always", "wait:30s");
    let id = pending_id(&env);
    assert_eq!(code(&env.run(&["approvals", "answer", &id.to_string(), "always"])), 0);
    assert_eq!(finish(child).0, 0);
    let listed = stdout(&env.run(&["approvals", "list"]));
    assert!(listed.contains("touch"), "{listed}");
    let t = Instant::now();
    let (c, out, _) = finish(ask(&env, "touch ran-again", "wait:30s"));
    assert_eq!(c, 0, "{out}");
    assert!(t.elapsed() < Duration::from_secs(5));
    // Nobody answers: denied when the wait is over, and the request has expired.
    let t = Instant::now();
    let mut child = ask(&env, "mkdir never-made", "wait:1s");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(3));
    assert!(t.elapsed() < Duration::from_secs(6), "{:?}", t.elapsed());
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    assert!(out.contains("approval timed out after 1s"), "{out}");
    assert!(!env.work().join("never-made").exists());
    assert!(items(&env.run(&["approvals", "pending"])).is_empty());
    let expired = env.sql("SELECT id FROM approval_requests WHERE status = 'expired'");
    let id = expired[0]["id"].as_i64().unwrap().to_string();
    let e = assert_error(&env.run(&["approvals", "answer", &id, "once"]), 6, "conflict");
    assert!(e["message"].as_str().unwrap().contains("expired"), "{e}");
    // A duration that is none is a usage error.
    let o = env.run(&["tools", "exec", "exec", "{\"command\":\"true\"}", "--on-ask", "wait:soon"]);
    assert_error(&o, 2, "usage");
}
}

/// `goclaw tools exec TOOL ARGS EXTRA…` in `env`, with config `c.toml`.
fn call(env: &TestEnv, tool: &str, args: serde_json::Value, extra: &[&str]) -> (i32, String) {
    let text = args.to_string();
    let mut argv = vec!["--config", "c.toml", "tools", "exec", tool, &text];
    argv.extend_from_slice(extra);
    tool_text(&env.run(&argv))
}

#[test]
fn ask_risk_sends_destructive_calls_through_approval() {
    use serde_json::json;
    let env = TestEnv::new();
    env.write("c.toml", "[tools]\nask_risk = \"destructive\"\n");
    env.write("a.txt", "a");
    env.write("b.txt", "b");
    // delete_file is destructive: asked, and without a terminal denied; --on-ask allow runs it.
    let (c, msg) = call(&env, "delete_file", json!({"path": "a.txt"}), &[]);
    assert_eq!(c, 3, "{msg}");
    assert!(
        msg.contains("a destructive call needs approval ([tools] ask_risk = \"destructive\")"),
        "{msg}"
    );
    assert!(
        !msg.contains("approvals allow"),
        "the allowlist cannot settle it: {msg}"
    );
    assert!(env.work().join("a.txt").exists());
    // move_file is medium, unless it overwrites.
    let (c, msg) = call(
        &env,
        "move_file",
        json!({"source": "a.txt", "destination": "b.txt", "overwrite": true}),
        &[],
    );
    assert_eq!(c, 3, "{msg}");
    let (c, msg) = call(
        &env,
        "move_file",
        json!({"source": "a.txt", "destination": "c.txt"}),
        &[],
    );
    assert_eq!(c, 0, "{msg}");
    // exec: a command that destroys data asks; others run as the approval mode says.
    for destructive in [
        "rm b.txt",
        "find . -name b.txt -delete",
        "git reset --hard",
        "ls | xargs rm",
    ] {
        let (c, msg) = call(&env, "exec", json!({"command": destructive}), &[]);
        assert_eq!(c, 3, "{destructive}: {msg}");
    }
    assert!(env.work().join("b.txt").exists());
    let (c, msg) = call(&env, "exec", json!({"command": "ls"}), &[]);
    assert_eq!(c, 0, "{msg}");
    let (c, _) = call(
        &env,
        "delete_file",
        json!({"path": "c.txt"}),
        &["--on-ask", "allow"],
    );
    assert_eq!(c, 0);
    assert!(!env.work().join("c.txt").exists());
    // Through the relay, answered "always": it runs, and the next call still asks (the risk of
    // a call is not something the allowlist settles).
    let child = ask(&env, "rm b.txt", "wait:30s");
    let id = pending_id(&env);
    let shown = items(&env.run(&["approvals", "pending"]));
    assert_eq!(shown[0]["command"], "rm b.txt", "{shown:?}");
    assert_eq!(
        code(&env.run(&["approvals", "answer", &id.to_string(), "always"])),
        0
    );
    let (c, out, err) = finish(child);
    assert_eq!(c, 0, "{out}{err}");
    assert!(!env.work().join("b.txt").exists());
    env.write("b.txt", "b");
    let (c, msg) = call(&env, "exec", json!({"command": "rm b.txt"}), &[]);
    assert_eq!(c, 3, "{msg}");
    // Asked for its risk and for the allowlist at once (approval ask): "always" still adds
    // nothing to the allowlist.
    env.write(
        "c.toml",
        "[tools]\nask_risk = \"destructive\"\n[tools.exec]\napproval = \"ask\"\n",
    );
    let child = ask(&env, "rmdir emptydir", "wait:30s");
    let id = pending_id(&env);
    assert_eq!(
        code(&env.run(&["approvals", "answer", &id.to_string(), "always"])),
        0
    );
    let (c, out, err) = finish(child);
    assert_eq!(c, 1, "{out}{err}");
    let listed = stdout(&env.run(&["approvals", "list"]));
    assert!(!listed.contains("rmdir"), "{listed}");
    // Unset, risk asks nothing.
    env.write("c.toml", "");
    let (c, msg) = call(&env, "exec", json!({"command": "rm b.txt"}), &[]);
    assert_eq!(c, 0, "{msg}");
}
