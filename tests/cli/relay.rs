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
    let deadline = Instant::now() + Duration::from_secs(10);
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
    assert!(out.contains("timed out"), "{out}");
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
