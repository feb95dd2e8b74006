//! `goclaw mcp serve`, driven by the Python SDK's client (`fixtures/mcp-peers/py_client.py
//! session`), and the health watcher that reconnects a lost server in such a long-lived process.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use serde_json::{Value, json};

use crate::mcp::{Child, everything, free_port, no_server_left, peer_python, wait_for_port};
use crate::util::*;

/// A Python MCP client in conversation with `goclaw mcp serve ARGS…`.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Client {
    fn start(env: &TestEnv, py: &str, serve_args: &[&str]) -> Client {
        Client::start_with(env, py, serve_args, false)
    }

    /// With `elicit`, the client declares form elicitation (answers set with `op: elicit`).
    fn start_with(env: &TestEnv, py: &str, serve_args: &[&str], elicit: bool) -> Client {
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/mcp-peers/py_client.py");
        // The client starts goclaw with its own environment, so it gets the one goclaw would.
        let mut launcher = env.launcher_cmd(py);
        if elicit {
            launcher.env("PY_CLIENT_ELICIT", "1");
        }
        let mut child = launcher
            .arg(script)
            .arg("session")
            .arg(goclaw_bin())
            .args(["mcp", "serve"])
            .args(serve_args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Client {
            child: Child(child),
            stdin,
            lines,
        }
    }

    fn ask(&mut self, request: Value) -> Value {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{request}").unwrap();
        stdin.flush().unwrap();
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no answer to {request}"));
        serde_json::from_str(&line).unwrap()
    }

    fn call(&mut self, tool: &str, args: Value) -> Value {
        self.ask(json!({"op": "call", "tool": tool, "args": args}))
    }

    fn tools(&mut self) -> Vec<String> {
        let listed = self.ask(json!({"op": "list"}));
        serde_json::from_value(listed["tools"].clone()).unwrap_or_else(|_| panic!("{listed}"))
    }

    /// Closes stdin and waits for the client (and so the server) to end.
    fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        for _ in 0..100 {
            if let Some(status) = self.child.0.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("the MCP client did not end after stdin closed");
    }
}

on_both_backends! {
fn an_mcp_client_gets_goclaw_tools_under_the_agents_policy(backend) {
    let Some(py) = peer_python() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.reader.tools]\nallow = [\"group:fs\", \"group:mcp\"]\ndeny = [\"write_file\"]\n",
    )
    .unwrap();
    env.write(
        "notes.txt",
        "hello from the workspace\nkey: sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA\n",
    );
    // A real MCP server behind goclaw: its tools are offered too, under the same policy.
    let marker = env.root().join("everything-serve.js");
    let bridged = everything().map(|js| {
        std::os::unix::fs::symlink(js, &marker).unwrap();
        let m = marker.display().to_string();
        crate::mcp::add_everything(&env, &m, &["--env", "EV_TOKEN=tok-3141592653"]);
        m
    });

    let mut client = Client::start(&env, &py, &["--agent", "reader"]);
    let tools = client.tools();
    assert!(tools.contains(&"read_file".to_string()), "{tools:?}");
    for refused in ["write_file", "exec", "team_tasks"] {
        assert!(
            !tools.contains(&refused.to_string()),
            "{refused} offered: {tools:?}"
        );
    }
    if bridged.is_some() {
        assert!(tools.contains(&"mcp_ev__echo".to_string()), "{tools:?}");
    }

    let read = client.call("read_file", json!({"path": "notes.txt"}));
    assert_eq!(read["is_error"], false, "{read}");
    let text = read["text"].as_str().unwrap();
    assert!(text.contains("hello from the workspace"), "{read}");
    assert!(
        !text.contains("AAAAAAAAAAAAAAAAAAAAAAAA"),
        "not scrubbed: {read}"
    );

    let denied = client.call("write_file", json!({"path": "x.txt", "content": "x"}));
    assert_eq!(denied["is_error"], true, "{denied}");
    assert!(
        denied["text"]
            .as_str()
            .unwrap()
            .contains("not allowed for agent reader"),
        "{denied}"
    );
    assert!(!env.work().join("x.txt").exists());
    let denied = client.call("exec", json!({"command": "touch pwned"}));
    assert_eq!(denied["is_error"], true, "{denied}");
    assert!(!env.work().join("pwned").exists());
    let escape = client.call("read_file", json!({"path": "../home/config.toml"}));
    assert_eq!(escape["is_error"], true, "{escape}");
    let invalid = client.call("read_file", json!({"path": 7}));
    assert_eq!(invalid["is_error"], true, "{invalid}");
    let unknown = client.call("no_such_tool", json!({}));
    assert!(
        unknown["text"].as_str().unwrap().contains("unknown tool"),
        "{unknown}"
    );

    if bridged.is_some() {
        let echo = client.call("mcp_ev__echo", json!({"message": "through two hops"}));
        assert_eq!(echo["is_error"], false, "{echo}");
        assert!(
            echo["text"]
                .as_str()
                .unwrap()
                .contains("Echo: through two hops"),
            "{echo}"
        );
        // What the server was given never comes back out.
        let echo = client.call("mcp_ev__echo", json!({"message": "tok-3141592653"}));
        assert!(
            !echo["text"].as_str().unwrap().contains("3141592653"),
            "{echo}"
        );
    }
    assert!(client.finish().success());

    // Every call is in the audit trail, marked as coming through MCP.
    let history = stdout(&env.run(&["tools", "history", "--agent", "reader"]));
    let rows: Vec<Value> = items_in(&history);
    assert!(rows.len() >= 6, "{history}");
    assert!(rows.iter().all(|r| r["channel"] == "mcp"), "{history}");
    assert!(
        rows.iter()
            .any(|r| r["tool"] == "write_file" && r["outcome"] == "denied"),
        "{history}"
    );
    if let Some(m) = bridged {
        no_server_left(&m);
    }
}
}

on_both_backends! {
fn serve_without_a_client_handshake_ends_cleanly(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    // Not MCP at all on stdin: a clear failure, not a hang or a panic.
    let o = env.run_stdin(&["mcp", "serve"], "this is not json-rpc\n");
    assert_ne!(code(&o), 0);
    // stdout is the protocol's: the failure is told on stderr only.
    assert!(!stdout(&o).contains("exit_code"), "{}", stdout(&o));
    assert!(stderr(&o).contains("error:"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    // No client at all: stdin closed at once, a normal end.
    let o = env.run_stdin(&["mcp", "serve"], "");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}
}

on_both_backends! {
fn a_lost_server_is_reconnected_with_backoff(backend) {
    let Some(py) = peer_python() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    let port = free_port();
    let script = crate::mcp::py_server();
    let start_peer = || {
        let child = std::process::Command::new(&py)
            .arg(&script)
            .args(["streamable-http", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait_for_port(port);
        Child(child)
    };
    let peer = start_peer();
    let url = format!("http://127.0.0.1:{port}/mcp");
    assert_eq!(code(&env.run(&["mcp", "add", "py", "--url", &url])), 0);

    let mut client = Client::start(&env, &py, &[]);
    let echo = |c: &mut Client, m: &str| c.call("mcp_py__echo", json!({"message": m}));
    let first = echo(&mut client, "before");
    assert_eq!(first["is_error"], false, "{first}");

    drop(peer);
    let lost = echo(&mut client, "while away");
    assert_eq!(lost["is_error"], true, "{lost}");
    let lost = echo(&mut client, "still away");
    assert!(
        lost["text"]
            .as_str()
            .unwrap()
            .contains("MCP server \"py\" is disconnected"),
        "{lost}"
    );

    let _peer = start_peer();
    // Attempts come after 2 s, then 4 s more: the server is back within ~7 s of the loss.
    let mut answer = Value::Null;
    for _ in 0..30 {
        answer = echo(&mut client, "after");
        if answer["is_error"] == false {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    assert_eq!(answer["is_error"], false, "never reconnected: {answer}");
    assert!(
        answer["text"].as_str().unwrap().contains("py-echo: after"),
        "{answer}"
    );
    assert!(client.finish().success());
}
}

/// The agent's skills are `mcp serve`'s prompts, when its policy lets it use skills.
#[test]
fn skills_are_served_as_prompts() {
    let Some(py) = peer_python() else { return };
    let env = TestEnv::new();
    env.write(
        "skills/release/SKILL.md",
        "---\nname: release\ndescription: Cut a release of the project\n---\nBump the version, tag, push.\n",
    );
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.plain.tools]\ndeny = [\"use_skill\"]\n",
    )
    .unwrap();
    let mut client = Client::start(&env, &py, &[]);
    let listed = client.ask(json!({"op": "prompts"}));
    assert_eq!(
        listed["prompts"],
        json!([{"name": "release", "description": "Cut a release of the project"}]),
        "{listed}"
    );
    let got = client.ask(json!({"op": "prompt", "name": "release"}));
    let text = got["messages"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{got}"));
    assert!(text.contains("Bump the version, tag, push."), "{got}");
    assert_eq!(got["messages"][0]["role"], "user");
    let missing = client.ask(json!({"op": "prompt", "name": "nope"}));
    assert!(
        missing["failed"]
            .as_str()
            .unwrap()
            .contains("no prompt `nope`"),
        "{missing}"
    );
    // What a prompt returns is scrubbed, and the skill is checked again when asked for: a
    // SKILL.md swapped for a link to a file outside is not read.
    env.write(
        "skills/release/SKILL.md",
        "---\nname: release\ndescription: Cut a release of the project\n---\ntoken ghp_abcdefghijklmnopqrstuvwxyz0123456789\n",
    );
    let got = client.ask(json!({"op": "prompt", "name": "release"}));
    let text = got["messages"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{got}"));
    assert!(
        text.contains("[REDACTED]") && !text.contains("ghp_abcdef"),
        "{got}"
    );
    let outside = env.root().join("outside.md");
    std::fs::write(
        &outside,
        "---\nname: release\ndescription: x\n---\nTOP SECRET OUTSIDE\n",
    )
    .unwrap();
    std::fs::remove_file(env.work().join("skills/release/SKILL.md")).unwrap();
    std::os::unix::fs::symlink(&outside, env.work().join("skills/release/SKILL.md")).unwrap();
    let got = client.ask(json!({"op": "prompt", "name": "release"}));
    assert!(!got.to_string().contains("TOP SECRET OUTSIDE"), "{got}");
    assert!(got["failed"].is_string(), "{got}");
    assert!(client.finish().success());
    // An agent that may not use skills has none to offer.
    let mut client = Client::start(&env, &py, &["--agent", "plain"]);
    let listed = client.ask(json!({"op": "prompts"}));
    assert_eq!(listed["prompts"], json!([]), "{listed}");
    assert!(client.finish().success());
}

/// A client that can ask its user (form elicitation) answers goclaw's approvals: once runs the
/// command, deny and a declined question refuse it; a client that cannot is `--on-ask`'s.
#[test]
fn an_mcp_client_answers_approvals_by_elicitation() {
    let Some(py) = peer_python() else { return };
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        "[tools.exec]\napproval = \"ask\"\nsandbox = \"none\"\n",
    )
    .unwrap();
    let mut client = Client::start_with(&env, &py, &[], true);
    client.ask(json!({"op": "elicit", "answer": "once"}));
    let ran = client.call("exec", json!({"command": "touch approved-once"}));
    assert_eq!(ran["is_error"], false, "{ran}");
    assert!(env.work().join("approved-once").exists());
    let asked = client.ask(json!({"op": "elicit", "answer": "deny"}));
    assert!(
        asked["asked"][0]
            .as_str()
            .unwrap()
            .contains("touch approved-once"),
        "{asked}"
    );
    let denied = client.call("exec", json!({"command": "touch denied"}));
    assert_eq!(denied["is_error"], true, "{denied}");
    assert!(
        denied["text"].as_str().unwrap().contains("denied by user"),
        "{denied}"
    );
    client.ask(json!({"op": "elicit", "answer": "decline"}));
    let declined = client.call("exec", json!({"command": "touch declined"}));
    assert_eq!(declined["is_error"], true, "{declined}");
    assert!(!env.work().join("denied").exists() && !env.work().join("declined").exists());
    assert!(client.finish().success());
    // Without elicitation: --on-ask decides (deny by default).
    let mut client = Client::start(&env, &py, &[]);
    let refused = client.call("exec", json!({"command": "touch unasked"}));
    assert!(
        refused["text"]
            .as_str()
            .unwrap()
            .contains("no terminal to ask"),
        "{refused}"
    );
    assert!(client.finish().success());
}

/// A client that goes away (closes stdin) while a call runs: the call stops as on a hang-up,
/// its command with it, and the server ends at once. It ran the command to its end for nobody
/// (a `sleep 30` kept the server 28 s past the client).
#[test]
fn a_client_that_goes_away_stops_the_calls_it_left_running() {
    let env = TestEnv::new();
    let mut child = env.spawn(&["mcp", "serve"]);
    let mut stdin = child.stdin.take().unwrap();
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "exec", "arguments": {"command": "sleep 31"}}}),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    stdin.flush().unwrap();
    let started = std::time::Instant::now();
    while !processes_running("sleep 31", env.root()) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the call never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    let gone = std::time::Instant::now();
    let status = child.wait().unwrap();
    assert!(
        gone.elapsed() < Duration::from_secs(3),
        "{:?}",
        gone.elapsed()
    );
    assert_eq!(status.code(), Some(0));
    assert!(
        processes_end_in("sleep 31", env.root()),
        "the call's command outlived the client"
    );
}

/// An unknown agent is refused (exit 5) before any MCP server of the config is started: it
/// started them first, and said a broken one was skipped.
#[test]
fn an_unknown_agent_is_refused_before_any_server_starts() {
    let env = TestEnv::new();
    env.write(
        "c.toml",
        "[mcp.servers.broken]\ncommand = \"/nonexistent/server\"\n",
    );
    let o = env.run(&["--config", "c.toml", "mcp", "serve", "--agent", "nosuch"]);
    // stdout is the client's JSON-RPC stream: the error is on stderr only.
    assert_eq!(code(&o), 5);
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let said = stderr(&o);
    assert!(said.contains("unknown agent `nosuch`"), "{said}");
    assert!(!said.contains("broken"), "{said}");
}

/// A request that is JSON but not a valid message is answered with its own id and what was
/// wrong (rmcp answered with no id at all, so the client waited for an answer that never came);
/// a line that is not JSON, a notification and a batch never stop the server.
#[test]
fn a_malformed_request_is_answered_with_its_id() {
    let env = TestEnv::new();
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2}"#,
        r#"{"id":3,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":"four","method":"tools/call","params":5}"#,
        "not json at all",
        "[1,2]",
        r#"{"jsonrpc":"2.0","id":5,"method":"no/such"}"#,
        r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#,
    ];
    let o = env.run_stdin(&["mcp", "serve"], lines.join("\n") + "\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let answers: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let by_id = |id: Value| {
        answers
            .iter()
            .find(|a| a["id"] == id)
            .unwrap_or_else(|| panic!("no answer for {id}: {answers:?}"))
    };
    for (id, code, says) in [
        (json!(2), -32600, "`method` must be a string"),
        (json!(3), -32600, "`jsonrpc` must be \"2.0\""),
        (json!("four"), -32600, "`params` of `tools/call`"),
        (Value::Null, -32600, "no batches"),
        (json!(5), -32601, "Method not found: no/such"),
    ] {
        let error = &by_id(id.clone())["error"];
        assert_eq!(error["code"], code, "{id}: {error}");
        assert!(
            error["message"].as_str().unwrap().contains(says),
            "{id}: {error}"
        );
    }
    assert_eq!(by_id(json!(6))["result"], json!({}));
    // The line that is not JSON got nothing: one answer per other request.
    assert_eq!(answers.len(), 7, "{answers:?}");
}
