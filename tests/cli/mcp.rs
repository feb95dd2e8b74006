//! `goclaw mcp`: the server registry, secrets at rest, grants and access requests.

use std::os::unix::fs::PermissionsExt;

use crate::util::*;

fn home(backend: Backend) -> Option<TestEnv> {
    let env = TestEnv::on(backend)?;
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.alice]\n[agents.bob]\n\n[mcp.servers.cfgsrv]\ncommand = \"echo\"\nargs = [\"hi\"]\nprefix = \"pg\"\n",
    )
    .unwrap();
    Some(env)
}

on_both_backends! {
fn servers_are_kept_with_secrets_sealed(backend) {
    let Some(env) = home(backend) else { return };
    let o = env.run(&[
        "mcp",
        "add",
        "every-thing",
        "--command",
        "npx",
        "--arg",
        "-y",
        "--arg",
        "@modelcontextprotocol/server-everything",
        "--env",
        "API_TOKEN=s3cret-token-value-42",
        "--access",
        "granted",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let s = json(&o);
    assert_eq!(s["transport"], "stdio");
    assert_eq!(s["tool_prefix"], "mcp_every_thing");
    assert_eq!(s["env_keys"], serde_json::json!(["API_TOKEN"]));
    assert!(!stdout(&o).contains("s3cret"));
    let o = env.run(&[
        "mcp",
        "add",
        "remote",
        "--url",
        "https://mcp.example.com/mcp",
        "--header",
        "Authorization=Bearer hdr-secret-99",
    ]);
    assert_eq!(json(&o)["transport"], "streamable-http");
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    // `--header "Authorization=Bearer $TOKEN"` with TOKEN unset: stored, and warned about.
    let o = env.run(&[
        "mcp",
        "add",
        "unset-token",
        "--url",
        "https://mcp.example.com/mcp",
        "--header",
        "Authorization=Bearer ",
        "--header",
        "X-Key=",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let warned = stderr(&o);
    assert!(
        warned.contains("--header Authorization's value ends in white space")
            && warned.contains("--header X-Key has an empty value"),
        "{warned}"
    );
    // A header no server could be sent is refused, and cannot forge a line on stderr.
    let o = env.run(&["mcp", "add", "bad", "--command", "x", "--env", "A\nerror: forged=v"]);
    assert_error(&o, 2, "usage");
    for bad in ["X\nerror: forged=v", "X-Key=a\nerror: forged", "X\u{1b}[2J=v"] {
        let o = env.run(&["mcp", "add", "bad", "--url", "https://x.example/mcp", "--header", bad]);
        assert_error(&o, 2, "usage");
        assert!(!stderr(&o).contains("\nerror: forged"), "{}", stderr(&o));
    }
    // Neither the output nor the store file holds a secret in clear.
    let listing = stdout(&env.run(&["mcp", "list"]));
    assert!(!listing.contains("s3cret") && !listing.contains("hdr-secret"));
    let bytes = env.store_bytes();
    assert!(
        !bytes.windows(6).any(|w| w == b"s3cret"),
        "a secret is stored in clear"
    );
    assert!(
        !bytes.windows(10).any(|w| w == b"hdr-secret"),
        "a header is stored in clear"
    );
    let key = env.home().join("secret.key");
    assert_eq!(
        std::fs::metadata(&key).unwrap().permissions().mode() & 0o777,
        0o600
    );
    // The library opens them with the key.
    let store = env.open_store();
    let k = goclaw::secrets::SecretKey::load(&env.home()).unwrap();
    let (envs, _) = goclaw::mcp::secrets(store.db(), &k, "every-thing").unwrap();
    assert_eq!(envs["API_TOKEN"], "s3cret-token-value-42");
    // A wrong key is refused, not silently misread.
    let other = tempfile::tempdir().unwrap();
    let wrong = goclaw::secrets::SecretKey::load(other.path()).unwrap();
    assert!(goclaw::mcp::secrets(store.db(), &wrong, "every-thing").is_err());
    assert_error(
        &env.cmd(&["mcp", "add", "x", "--command", "y"])
            .env("GOCLAW_SECRET_KEY", "nothex")
            .output()
            .unwrap(),
        2,
        "usage",
    );
}
}

on_both_backends! {
fn registry_commands_and_refusals(backend) {
    let Some(env) = home(backend) else { return };
    assert_eq!(code(&env.run(&["mcp", "add", "a", "--command", "echo"])), 0);
    assert_error(
        &env.run(&["mcp", "add", "a", "--command", "echo"]),
        6,
        "conflict",
    );
    assert_error(
        &env.run(&["mcp", "add", "cfgsrv", "--command", "echo"]),
        6,
        "conflict",
    );
    assert_error(
        &env.run(&["mcp", "add", "bad name", "--command", "echo"]),
        2,
        "usage",
    );
    assert_error(
        &env.run(&["mcp", "add", "h", "--url", "ftp://x"]),
        2,
        "usage",
    );
    assert_error(&env.run(&["mcp", "add", "h"]), 2, "usage");
    let list = list(&env.run(&["mcp", "list"]));
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "cfgsrv"]);
    assert_eq!(list[1]["source"], "config");
    assert_eq!(list[1]["tool_prefix"], "mcp_pg");
    assert_eq!(json(&env.run(&["mcp", "disable", "a"]))["enabled"], false);
    assert_eq!(json(&env.run(&["mcp", "enable", "a"]))["enabled"], true);
    assert_error(&env.run(&["mcp", "rm", "cfgsrv"]), 6, "conflict");
    assert_error(&env.run(&["mcp", "show", "nope"]), 5, "not_found");
    assert_eq!(code(&env.run(&["mcp", "rm", "a"])), 0);
    assert_error(&env.run(&["mcp", "rm", "a"]), 5, "not_found");
}
}

on_both_backends! {
fn grants_and_reviewed_requests(backend) {
    let Some(env) = home(backend) else { return };
    env.run(&[
        "mcp",
        "add",
        "db",
        "--command",
        "echo",
        "--access",
        "granted",
    ]);
    let g = json(&env.run(&[
        "mcp",
        "grant",
        "db",
        "--agent",
        "alice",
        "--allow",
        "query,schema",
        "--deny",
        "drop",
    ]));
    assert_eq!(g["tool_allow"], serde_json::json!(["query", "schema"]));
    assert_eq!(g["tool_deny"], serde_json::json!(["drop"]));
    assert_error(
        &env.run(&["mcp", "grant", "db", "--agent", "ghost"]),
        5,
        "not_found",
    );
    assert_eq!(
        json(&env.run(&["mcp", "grant", "db", "--user", "u-7", "--disabled"]))["enabled"],
        false
    );
    assert_eq!(
        list(&env.run(&["mcp", "grants", "db"]))
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(code(&env.run(&["mcp", "revoke", "db", "--user", "u-7"])), 0);
    assert_error(
        &env.run(&["mcp", "revoke", "db", "--user", "u-7"]),
        5,
        "not_found",
    );
    // A request, approved: the grant appears in the same transaction.
    let r = json(&env.run(&[
        "mcp", "request", "db", "--agent", "bob", "--tools", "query", "--reason", "reports",
    ]));
    assert_eq!(r["status"], "pending");
    let id = r["id"].as_i64().unwrap().to_string();
    assert_eq!(
        list(&env.run(&["mcp", "requests", "--status", "pending"]))
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let done = json(&env.run(&["mcp", "review", &id, "--approve", "--note", "ok"]));
    assert_eq!(done["grant_created"], true);
    assert_error(&env.run(&["mcp", "grants", "nosuch"]), 5, "not_found");
    let grants = list(&env.run(&["mcp", "grants", "db"]));
    assert!(
        grants
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["subject"] == "bob" && g["tool_allow"] == serde_json::json!(["query"]))
    );
    assert_error(&env.run(&["mcp", "review", &id, "--reject"]), 6, "conflict");
    let r2 = json(&env.run(&[
        "mcp", "request", "db", "--user", "carol", "--reason", "please",
    ]));
    let id2 = r2["id"].as_i64().unwrap().to_string();
    assert_eq!(
        json(&env.run(&["mcp", "review", &id2, "--reject"]))["grant_created"],
        false
    );
    assert_error(
        &env.run(&["mcp", "review", "999", "--approve"]),
        5,
        "not_found",
    );
    assert_error(
        &env.run(&["mcp", "request", "db", "--agent", "bob", "--reason", " "]),
        2,
        "usage",
    );
    // Access: granted servers need an enabled agent grant; a disabled user grant removes it.
    let store = env.open_store();
    let cfg = goclaw::mcp::McpConfig::default();
    let server = goclaw::mcp::get(store.db(), &cfg, "db").unwrap();
    let alice = goclaw::mcp::access_for(store.db(), &server, Some("alice"), None).unwrap();
    let alice = alice.unwrap();
    assert!(alice.allows("query") && !alice.allows("drop") && !alice.allows("other"));
    assert_eq!(
        goclaw::mcp::access_for(store.db(), &server, Some("nobody"), None).unwrap(),
        None
    );
    drop(store);
    env.run(&["mcp", "grant", "db", "--user", "u-9", "--disabled"]);
    let store = env.open_store();
    assert_eq!(
        goclaw::mcp::access_for(store.db(), &server, Some("alice"), Some("u-9")).unwrap(),
        None
    );
}
}

/// server-everything from fixtures/mcp-peers (installed by .ci/run with npm ci).
pub(crate) fn everything() -> Option<String> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "fixtures/mcp-peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    let found = (p.exists() && which::which("node").is_ok()).then(|| p.display().to_string());
    require_peer(
        found,
        "node with fixtures/mcp-peers/node_modules (.ci/run installs the MCP peers: npm ci)",
    )
}

/// No process matching `marker` (`pgrep -f`) is left once the ones being stopped have ended.
pub(crate) fn no_server_left(marker: &str) {
    if processes_end(marker) {
        return;
    }
    let out = std::process::Command::new("pgrep")
        .args(["-af", marker])
        .output()
        .unwrap();
    panic!(
        "left running: {}",
        String::from_utf8_lossy(&out.stdout).trim()
    );
}

on_both_backends! {
fn a_real_server_over_stdio(backend) {
    let Some(real_js) = everything() else { return };
    let Some(env) = home(backend) else { return };
    // A path of this test's own, so the leftover check cannot see other tests' servers.
    let link = env.root().join("everything-stdio.js");
    std::os::unix::fs::symlink(&real_js, &link).unwrap();
    let js = link.display().to_string();
    add_everything(&env, &js, &[]);
    let probe = json(&env.run(&["mcp", "probe", "ev"]));
    assert_eq!(probe["tools"], 13, "{probe}");
    assert!(
        probe["protocol_version"]
            .as_str()
            .unwrap()
            .starts_with("20")
    );
    assert_eq!(probe["server_info"]["name"], "mcp-servers/everything");
    let tools = list(&env.run(&["mcp", "tools", "ev"]));
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"mcp_ev__echo") && names.contains(&"mcp_ev__get-sum"),
        "{names:?}"
    );
    let o = env.run(&["mcp", "call", "ev", "echo", r#"{"message":"hello mcp"}"#]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let text = json(&o)["result"]["for_llm"].as_str().unwrap().to_string();
    assert!(text.starts_with("<<<EXTERNAL_UNTRUSTED_CONTENT>>>\nSource: MCP Server ev / Tool echo\n---\nEcho: hello mcp\n"), "{text}");
    // The same through tools exec, with the schema checked by the gate and the call audited.
    let o = env.run(&["tools", "exec", "mcp_ev__get-sum", r#"{"a":2,"b":40}"#]);
    assert!(
        stdout(&o).contains("The sum of 2 and 40 is 42."),
        "{}",
        stdout(&o)
    );
    assert_error(
        &env.run(&["tools", "exec", "mcp_ev__get-sum", r#"{"a":"x"}"#]),
        2,
        "usage",
    );
    assert_error(&env.run(&["mcp", "call", "ev", "nope"]), 5, "not_found");
    let history = stdout(&env.run(&["tools", "history", "--tool", "mcp_ev__echo"]));
    assert!(history.contains("\"outcome\":\"ok\""), "{history}");
    // What the server was started with never comes back through its results.
    env.run(&[
        "mcp",
        "add",
        "ev2",
        "--command",
        "node",
        "--arg",
        &js,
        "--arg",
        "stdio",
        "--env",
        "MY_TOKEN=plain-looking-value-77",
    ]);
    // goclaw's own secrets stay out of a server's environment (helper-36: a hostile server
    // was given every one of them).
    let o = env
        .cmd(&["mcp", "call", "ev2", "get-env"])
        .env("OPENAI_API_KEY", "sk-never-for-a-server")
        .env("FAKE_PROVIDER_KEY", "never-for-a-server-either")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("MY_TOKEN") && !stdout(&o).contains("plain-looking-value-77"),
        "{}",
        stdout(&o)
    );
    for name in ["OPENAI_API_KEY", "FAKE_PROVIDER_KEY", "GOCLAW_HOME", "GOCLAW_DB", "PGPASSWORD"] {
        assert!(!stdout(&o).contains(name), "{name}: {}", stdout(&o));
    }
    assert!(stdout(&o).contains("PATH"), "{}", stdout(&o));
    // Listings and explanations connect on request, with the groups.
    let list = list(&env.run(&["tools", "list", "--mcp"]));
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "mcp_ev__echo"),
        "{list}"
    );
    let explain = json(&env.run(&["policy", "explain", "--mcp"]));
    assert!(
        explain["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "mcp_ev2__get-env")
    );
    // Policy sees the groups: deny group:mcp:ev.
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.alice]\n[agents.bob]\n[tools]\ndeny = [\"group:mcp:ev\"]\n",
    )
    .unwrap();
    assert_error(
        &env.run(&["tools", "exec", "mcp_ev__echo", r#"{"message":"x"}"#]),
        3,
        "denied",
    );
    no_server_left(&js);
}
}

on_both_backends! {
fn grants_decide_who_sees_a_server(backend) {
    let Some(js) = everything() else { return };
    let Some(env) = home(backend) else { return };
    env.run(&[
        "mcp",
        "add",
        "ev",
        "--command",
        "node",
        "--arg",
        &js,
        "--arg",
        "stdio",
        "--access",
        "granted",
    ]);
    let call = |agent: &str, tool: &str| {
        env.run(&[
            "mcp",
            "call",
            "ev",
            tool,
            r#"{"message":"m"}"#,
            "--agent",
            agent,
        ])
    };
    let err = assert_error(&call("alice", "echo"), 3, "denied");
    assert!(
        err["message"].as_str().unwrap().contains("needs a grant"),
        "{err}"
    );
    env.run(&["mcp", "grant", "ev", "--agent", "alice", "--deny", "echo"]);
    assert_error(&call("alice", "echo"), 3, "denied");
    env.run(&["mcp", "grant", "ev", "--agent", "alice", "--allow", "echo"]);
    assert_eq!(code(&call("alice", "echo")), 0);
    assert_error(
        &env.run(&[
            "mcp",
            "call",
            "ev",
            "get-sum",
            r#"{"a":1,"b":2}"#,
            "--agent",
            "alice",
        ]),
        3,
        "denied",
    );
    env.run(&["mcp", "disable", "ev"]);
    assert_error(&call("alice", "echo"), 3, "denied");
}
}

on_both_backends! {
fn failing_servers_are_exit_8_and_leave_nothing_running(backend) {
    let Some(env) = home(backend) else { return };
    // Never answers initialize.
    env.run(&[
        "mcp",
        "add",
        "mute",
        "--command",
        "sleep",
        "--arg",
        "4242",
        "--timeout",
        "2",
    ]);
    let t = std::time::Instant::now();
    let err = assert_error(&env.run(&["mcp", "probe", "mute"]), 8, "upstream");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("no answer to initialize"),
        "{err}"
    );
    assert!(t.elapsed() < std::time::Duration::from_secs(10));
    no_server_left("sleep 4242");
    // Garbage on stdout, then exit.
    env.run(&[
        "mcp",
        "add",
        "noise",
        "--command",
        "sh",
        "--arg",
        "-c",
        "--arg",
        "echo not-json; echo '{broken'; sleep 4343",
        "--timeout",
        "2",
    ]);
    assert_error(&env.run(&["mcp", "probe", "noise"]), 8, "upstream");
    no_server_left("sleep 4343");
    // A command that cannot start.
    env.run(&["mcp", "add", "ghost", "--command", "/no/such/server"]);
    let err = assert_error(&env.run(&["mcp", "probe", "ghost"]), 8, "upstream");
    assert!(
        err["message"].as_str().unwrap().contains("cannot start"),
        "{err}"
    );
    // Crashes in the middle of a call: once the call has reached the server (its requests are
    // copied to a log on the way in), the server is killed and its stdout stays open.
    if let Some(js) = everything() {
        let log = env.root().join("crash-requests.log");
        let script = env.write(
            "crash.sh",
            format!(
                "exec 3<&0\n\
                 tee {log} <&3 | node {js} stdio & pid=$!\n\
                 i=0\n\
                 until grep -q trigger-long-running-operation {log} 2>/dev/null; do\n\
                 i=$((i + 1)); [ $i -gt 400 ] && break; sleep 0.05\n\
                 done\n\
                 kill -9 $pid; sleep 4444\n",
                log = log.display()
            ),
        );
        env.run(&[
            "mcp",
            "add",
            "crashy",
            "--command",
            "sh",
            "--arg",
            &script.display().to_string(),
            "--timeout",
            "5",
        ]);
        let o = env.run(&[
            "mcp",
            "call",
            "crashy",
            "trigger-long-running-operation",
            r#"{"duration":10,"steps":2}"#,
        ]);
        assert!(matches!(code(&o), 7 | 8), "{}", stdout(&o));
        no_server_left("sleep 4444");
    }
}
}

on_both_backends! {
fn an_answer_over_the_message_limit_is_refused_at_once_not_waited_for(backend) {
    let Some(py) = peer_python() else { return };
    let Some(env) = home(backend) else { return };
    add_python_stdio(&env, &py, "big", &["hostile"]);
    let started = std::time::Instant::now();
    let o = env.run(&["mcp", "call", "big", "huge", "{}"]);
    let e = assert_error(&o, 8, "upstream");
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("16 MiB or more"), "{message}");
    // Not the server's time limit (60 s): the stream failed at the 16th MiB.
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
    // The connection is gone, not the server's tools: a small call works on a new one.
    let o = env.run(&["mcp", "call", "big", "echo", r#"{"message":"hi"}"#]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}
}

on_both_backends! {
fn what_a_raw_stdio_server_sends_is_bounded_and_it_starts_as_any_program(backend) {
    let Some(py) = peer_python() else { return };
    let Some(env) = home(backend) else { return };
    const LIMIT: usize = 16 * 1024 * 1024;
    let raw = |name: &str, mode: &str, bytes: usize| {
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/mcp-peers/raw_server.py");
        let bytes = bytes.to_string();
        let o = env.run(&[
            "mcp", "add", name, "--command", &py, "--arg", script.to_str().unwrap(),
            "--arg", mode, "--arg", &bytes, "--timeout", "15",
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    };
    // One byte under the limit is a message like any other.
    raw("under", "call", LIMIT - 1);
    let o = env.run(&["mcp", "call", "under", "t", "{}"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // The limit exactly, or one under with a carriage return before the newline: rmcp would
    // drop the line and the call would wait for its time limit; refused at once instead.
    for (name, mode, bytes) in [("exact", "call", LIMIT), ("crlf", "call-crlf", LIMIT - 1)] {
        raw(name, mode, bytes);
        let started = std::time::Instant::now();
        let o = env.run(&["mcp", "call", name, "t", "{}"]);
        let e = assert_error(&o, 8, "upstream");
        let message = e["message"].as_str().unwrap();
        assert!(message.contains("16 MiB or more"), "{name}: {message}");
        assert!(started.elapsed() < std::time::Duration::from_secs(12), "{name}");
    }
    // A small message that is large once parsed: refused before it is parsed.
    raw("flood", "values", 2_000_000);
    let o = env.run(&["mcp", "call", "flood", "t", "{}"]);
    let e = assert_error(&o, 8, "upstream");
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("200000 JSON elements"), "{message}");
    // One of ordinary size is not.
    raw("fine", "values", 20_000);
    let o = env.run(&["mcp", "call", "fine", "t", "{}"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // A server starts as any program does: no signal ignored but what Python ignores itself
    // (SIGPIPE, SIGXFSZ); glibc's posix_spawn left 32 and 33 ignored.
    raw("signals", "signals", 0);
    let o = env.run(&["mcp", "call", "signals", "t", "{}"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let said = json(&o)["result"]["for_llm"].as_str().unwrap().to_string();
    let mask = u64::from_str_radix(said.split_whitespace().find(|w| w.len() == 16).unwrap(), 16).unwrap();
    assert_eq!(mask & !((1 << 12) | (1 << 24)), 0, "{said}");
    // The handshake too says why, not only that the connection closed.
    raw("init", "init", LIMIT);
    let o = env.run(&["mcp", "probe", "init"]);
    let e = assert_error(&o, 8, "upstream");
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("16 MiB or more"), "{message}");
}
}

/// The Python test peer's script.
pub(crate) fn py_server() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mcp-peers/py_server.py")
}

/// Registers the Python peer, run by `py`, as the stdio server `name` (`extra`: its arguments
/// after `stdio`).
pub(crate) fn add_python_stdio(env: &TestEnv, py: &str, name: &str, extra: &[&str]) {
    let script = py_server();
    let mut a = vec![
        "mcp",
        "add",
        name,
        "--command",
        py,
        "--arg",
        script.to_str().unwrap(),
        "--arg",
        "stdio",
    ];
    for e in extra {
        a.extend(["--arg", e]);
    }
    let o = env.run(&a);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// The Python with the `mcp` package (set by .ci/run), if any.
pub(crate) fn peer_python() -> Option<String> {
    let from_env = std::env::var("GOCLAW_PEER_PYTHON").ok();
    let default = std::env::var("HOME")
        .ok()
        .map(|h| format!("{h}/.cache/goclaw/peers-venv/bin/python"));
    let found = from_env
        .or(default)
        .filter(|p| std::path::Path::new(p).exists());
    require_peer(
        found,
        "the peers' Python with the mcp package (GOCLAW_PEER_PYTHON; .ci/run makes the venv)",
    )
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub(crate) fn wait_for_port(port: u16) {
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("nothing listens on 127.0.0.1:{port}");
}

/// A Python `http.server` on a free loopback port whose handler has `methods` (indented class
/// body lines); running until dropped.
pub(crate) fn tiny_http_server(methods: &str) -> (Child, u16) {
    let port = free_port();
    let script = format!(
        "import http.server, time\nclass H(http.server.BaseHTTPRequestHandler):\n{methods}    def log_message(self, *a): pass\nhttp.server.HTTPServer(('127.0.0.1', {port}), H).serve_forever()\n"
    );
    let child = Child(
        std::process::Command::new("python3")
            .args(["-c", &script])
            .spawn()
            .unwrap(),
    );
    wait_for_port(port);
    (child, port)
}

/// `fixtures/mcp-peers/raw_http_server.py MODE COUNT` on a free loopback port, running until
/// dropped (its complaints of connections goclaw dropped are not shown).
pub(crate) fn raw_http_server(mode: &str, count: usize) -> (Child, u16) {
    let port = free_port();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/mcp-peers/raw_http_server.py");
    let server = std::process::Command::new("python3")
        .arg(script)
        .args([port.to_string(), mode.to_string(), count.to_string()])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let server = Child(server);
    wait_for_port(port);
    (server, port)
}

pub(crate) struct Child(pub std::process::Child);
impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

on_both_backends! {
fn a_python_server_over_streamable_http(backend) {
    python_peer_over(backend, "streamable-http", "/mcp");
}
}

on_both_backends! {
fn a_python_server_over_legacy_sse(backend) {
    python_peer_over(backend, "sse", "/sse");
}
}

/// The Python peer served over `transport`, reached at `path`: probe, call and `tools exec`.
fn python_peer_over(backend: Backend, transport: &str, path: &str) {
    let Some(py) = peer_python() else { return };
    let Some(env) = home(backend) else { return };
    let port = free_port();
    let script = py_server();
    let _server = Child(
        std::process::Command::new(&py)
            .arg(&script)
            .args([transport, &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_for_port(port);
    let url = format!("http://127.0.0.1:{port}{path}");
    let o = env.run(&[
        "mcp",
        "add",
        "py",
        "--url",
        &url,
        "--transport",
        transport,
        "--header",
        "X-Goclaw-Test=hdr-value-7",
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(!stdout(&o).contains("hdr-value-7"));
    let probe = json(&env.run(&["mcp", "probe", "py"]));
    assert_eq!(probe["tools"], 2, "{probe}");
    assert_eq!(probe["server_info"]["name"], "goclaw-test-peer");
    let o = env.run(&["mcp", "call", "py", "add", r#"{"a":2,"b":3}"#]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(
        json(&o)["result"]["for_llm"]
            .as_str()
            .unwrap()
            .contains("\n---\n5\n"),
        "{}",
        stdout(&o)
    );
    let o = env.run(&[
        "tools",
        "exec",
        "mcp_py__echo",
        r#"{"message":"over http"}"#,
    ]);
    assert!(stdout(&o).contains("py-echo: over http"), "{}", stdout(&o));
}

on_both_backends! {
fn an_http_server_that_fails_is_exit_8(backend) {
    let Some(env) = home(backend) else { return };
    let (_server, port) = tiny_http_server(
        "    def do_POST(self):\n        self.send_response(500); self.end_headers(); self.wfile.write(b'boom')\n    do_GET = do_POST\n",
    );
    env.run(&[
        "mcp",
        "add",
        "broken",
        "--url",
        &format!("http://127.0.0.1:{port}/mcp"),
        "--timeout",
        "5",
    ]);
    let err = assert_error(&env.run(&["mcp", "probe", "broken"]), 8, "upstream");
    assert!(err["message"].as_str().unwrap().contains("broken"), "{err}");
    env.run(&[
        "mcp",
        "add",
        "old",
        "--url",
        &format!("http://127.0.0.1:{port}/sse"),
        "--transport",
        "sse",
    ]);
    let err = assert_error(&env.run(&["mcp", "probe", "old"]), 8, "upstream");
    assert!(
        err["message"].as_str().unwrap().contains("HTTP 500"),
        "{err}"
    );
}
}

on_both_backends! {
fn an_sse_server_that_never_names_its_endpoint_times_out(backend) {
    let Some(env) = home(backend) else { return };
    let (_server, port) = tiny_http_server(
        "    def do_GET(self):\n        self.send_response(200); self.send_header('Content-Type', 'text/event-stream'); self.end_headers(); self.wfile.write(b': hello\\n\\n'); self.wfile.flush(); time.sleep(30)\n",
    );
    env.run(&[
        "mcp",
        "add",
        "mute",
        "--url",
        &format!("http://127.0.0.1:{port}/sse"),
        "--transport",
        "sse",
        "--timeout",
        "2",
    ]);
    let start = std::time::Instant::now();
    let err = assert_error(&env.run(&["mcp", "probe", "mute"]), 8, "upstream");
    assert!(
        err["message"].as_str().unwrap().contains("within 2s"),
        "{err}"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}
}

/// server-everything's HTTP modes listen on every interface with no host option, so they run in
/// a private network namespace (`unshare --net`, loopback only) together with goclaw; the fixed
/// ports cannot clash with anything outside it. The store is SQLite: the namespace has no
/// route to the test's PostgreSQL server.
#[test]
fn server_everything_over_streamable_http_and_sse_in_a_private_network() {
    let Some(server) = everything() else { return };
    if require_peer(which::which("unshare").ok(), "unshare (util-linux)").is_none() {
        return;
    }
    let Some(env) = home(Backend::Sqlite) else {
        return;
    };
    let script = r#"
        ip link set lo up 2>/dev/null
        PORT=3001 node "$SERVER" streamableHttp >/dev/null 2>&1 & H=$!
        PORT=3002 node "$SERVER" sse >/dev/null 2>&1 & S=$!
        trap 'kill $H $S 2>/dev/null' EXIT
        for port in 3001 3002; do
            i=0
            until (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; do
                i=$((i + 1)); [ $i -gt 100 ] && exit 9; sleep 0.1
            done
        done
        "$GOCLAW" mcp add http --url http://127.0.0.1:3001/mcp >/dev/null || exit 10
        "$GOCLAW" mcp add old --url http://127.0.0.1:3002/sse --transport sse >/dev/null || exit 11
        for name in http old; do
            "$GOCLAW" mcp probe $name --json
            "$GOCLAW" mcp call $name get-sum '{"a":20,"b":22}' --json
        done
    "#;
    let o = env
        .launcher_cmd("timeout")
        .args(["120", "unshare", "--user", "--map-root-user", "--net"])
        .args(["bash", "-c", script])
        .env("SERVER", &server)
        .env("GOCLAW", goclaw_bin())
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{}", stdout(&o));
    for pair in lines.chunks(2) {
        assert_eq!(pair[0]["tools"], 13, "{}", pair[0]);
        let text = pair[1]["result"]["for_llm"].as_str().unwrap();
        assert!(text.contains("42"), "{}", pair[1]);
    }
    no_server_left("dist/index.js streamableHttp");
    no_server_left("dist/index.js sse");
}

on_both_backends! {
/// server-filesystem over stdio: its tools are bridged, and its own refusal of a path outside
/// its root comes back as the tool's error (exit 1), not wrapped as content.
fn server_filesystem_over_stdio(backend) {
    let Some(everything) = everything() else {
        return;
    };
    let server = everything.replace("server-everything", "server-filesystem");
    let Some(env) = home(backend) else { return };
    let root = env.work().join("shared");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.txt"), "hello from the fs peer\n").unwrap();
    let root = root.display().to_string();
    let o = env.run(&[
        "mcp",
        "add",
        "files",
        "--command",
        "node",
        "--arg",
        &server,
        "--arg",
        &root,
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let probe = json(&env.run(&["mcp", "probe", "files"]));
    assert_eq!(
        probe["server_info"]["name"], "secure-filesystem-server",
        "{probe}"
    );
    let inside = format!(r#"{{"path":"{root}/a.txt"}}"#);
    let o = env.run(&["tools", "exec", "mcp_files__read_text_file", &inside]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let text = json(&o)["result"]["for_llm"].as_str().unwrap().to_string();
    assert!(text.contains("\n---\nhello from the fs peer"), "{text}");
    let o = env.run(&[
        "mcp",
        "call",
        "files",
        "read_text_file",
        r#"{"path":"/etc/passwd"}"#,
    ]);
    let err = assert_error(&o, 1, "failed");
    assert!(
        err["message"].as_str().unwrap().contains("Access denied"),
        "{err}"
    );
    assert!(!stdout(&o).contains("root:x:0"));
    no_server_left(&root);
}
}

/// `mcp resources|read|prompts|prompt` against server-everything.
#[test]
fn a_servers_resources_and_prompts_are_read() {
    let Some(js) = everything() else { return };
    let env = TestEnv::new();
    add_everything(&env, &js, &[]);
    let listed = items(&env.ok(&["mcp", "resources", "ev"]));
    let first = listed
        .iter()
        .find(|r| {
            r["mimeType"]
                .as_str()
                .is_some_and(|m| m.starts_with("text/"))
        })
        .unwrap_or_else(|| panic!("{listed:?}"))
        .clone();
    let uri = first["uri"].as_str().unwrap();
    let read = json(&env.ok(&["mcp", "read", "ev", uri]));
    assert_eq!(read["contents"][0]["uri"], uri, "{read}");
    assert!(read["contents"][0]["text"].as_str().is_some(), "{read}");
    let prompts = items(&env.ok(&["mcp", "prompts", "ev"]));
    let names: Vec<&str> = prompts.iter().filter_map(|p| p["name"].as_str()).collect();
    assert!(names.contains(&"simple-prompt"), "{names:?}");
    let got = json(&env.ok(&["mcp", "prompt", "ev", "simple-prompt"]));
    assert!(
        got["messages"][0]["content"]["text"].as_str().is_some(),
        "{got}"
    );
    // Errors say which: an unknown resource or prompt, an argument that is no K=V, a server
    // that does not exist.
    assert_ne!(
        code(&env.run(&["mcp", "read", "ev", "demo://nothing/here"])),
        0
    );
    assert_ne!(
        code(&env.run(&["mcp", "prompt", "ev", "no-such-prompt"])),
        0
    );
    assert_error(
        &env.run(&["mcp", "prompt", "ev", "simple-prompt", "--arg", "novalue"]),
        2,
        "usage",
    );
    assert_error(&env.run(&["mcp", "resources", "nope"]), 5, "not_found");
}

/// A grant's own env values reach the server when its agent uses it, sealed in the store, and
/// scrubbed from what comes back; another agent gets the server's own.
#[test]
fn a_grant_sets_env_values_of_its_own() {
    let Some(js) = everything() else { return };
    let env = TestEnv::new();
    add_everything(&env, &js, &["--access", "granted"]);
    std::fs::write(env.home().join("config.toml"), "[agents.a]\n[agents.b]\n").unwrap();
    let o = env.run(&[
        "mcp",
        "grant",
        "ev",
        "--agent",
        "a",
        "--env",
        "GRANT_ONLY=grant-secret-4711",
        "--env",
        "QUOTED=ab\"cdSecretQuote99",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        json(&o)["env_keys"],
        serde_json::json!(["GRANT_ONLY", "QUOTED"]),
        "{}",
        stdout(&o)
    );
    assert_eq!(code(&env.run(&["mcp", "grant", "ev", "--agent", "b"])), 0);
    assert!(!String::from_utf8_lossy(&env.store_bytes()).contains("grant-secret-4711"));
    let env_of = |agent: &str| {
        let o = env.run(&["mcp", "call", "ev", "get-env", "{}", "--agent", agent]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        stdout(&o)
    };
    let a = env_of("a");
    assert!(a.contains("GRANT_ONLY"), "{a}");
    assert!(!a.contains("grant-secret-4711"), "{a}");
    // Also as JSON escapes it.
    assert!(!a.contains("SecretQuote99"), "{a}");
    let b = env_of("b");
    assert!(!b.contains("GRANT_ONLY"), "{b}");
}

/// Search mode: with more MCP tools than the threshold, a run lists none of them; the model
/// finds one with mcp_tool_search, and it is offered from the next turn on.
#[test]
fn a_run_finds_mcp_tools_by_search_when_there_are_many() {
    let Some(js) = everything() else { return };
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let env = TestEnv::new();
    add_everything(&env, &js, &[]);
    std::fs::write(
        env.home().join("config.toml"),
        "[tools]\nmcp_search_threshold = 2\n",
    )
    .unwrap();
    let (o, messages) = crate::run::seen_by_model(&env, &llm, &["find a tool to add numbers"]);
    assert_eq!(json(&o)["content"], "The sum is known.", "{}", stdout(&o));
    let system = messages[0]["content"].as_str().unwrap();
    assert!(
        system.contains("MCP tools are available but not listed here"),
        "{system}"
    );
    assert!(system.contains("- mcp_tool_search:"), "{system}");
    assert!(!system.contains("mcp_ev__echo"), "{system}");
    let results: Vec<&str> = messages
        .iter()
        .filter(|m| m["role"] == "tool")
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert!(results[0].contains("mcp_ev__get-sum"), "{results:?}");
    assert!(results[1].contains("42"), "{results:?}");
    // From a script: a plain search of the caller's MCP tools; the policy holds it too.
    let (c, text) =
        tool_text(&env.run(&["tools", "exec", "mcp_tool_search", r#"{"query":"echo"}"#]));
    assert_eq!(c, 0, "{text}");
    assert!(text.contains("\"name\": \"mcp_ev__echo\""), "{text}");
    let (_, none) =
        tool_text(&env.run(&["tools", "exec", "mcp_tool_search", r#"{"query":"zzqx"}"#]));
    assert!(
        none.starts_with("No MCP tools found matching: \"zzqx\""),
        "{none}"
    );
    std::fs::write(
        env.home().join("config.toml"),
        "[tools]\ndeny = [\"mcp_tool_search\"]\n",
    )
    .unwrap();
    assert_eq!(
        code(&env.run(&["tools", "exec", "mcp_tool_search", r#"{"query":"echo"}"#])),
        3
    );
    // Under the threshold every MCP tool is listed, and the search is not offered.
    std::fs::write(env.home().join("config.toml"), "").unwrap();
    let (_, messages) = crate::run::seen_by_model(&env, &llm, &["say nothing, mcp"]);
    let system = messages[0]["content"].as_str().unwrap();
    assert!(system.contains("mcp_ev__echo"), "{system}");
    assert!(!system.contains("mcp_tool_search"), "{system}");
}

/// Registers server-everything as `ev` (stdio), with `extra` flags of `mcp add`.
pub(crate) fn add_everything(env: &TestEnv, js: &str, extra: &[&str]) {
    let mut args = vec![
        "mcp",
        "add",
        "ev",
        "--command",
        "node",
        "--arg",
        js,
        "--arg",
        "stdio",
    ];
    args.extend_from_slice(extra);
    let o = env.run(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// A streamable HTTP server's answer is bounded in JSON elements as a stdio server's line is:
/// rmcp's client parsed a JSON answer of up to 16 MiB whole, and 11 MB of `[],[],…` took
/// `mcp probe` to 786 MB. Refused before it is parsed now, as a JSON body (however it is spread
/// over lines) or as an event of a stream; an answer of ordinary size still passes.
#[test]
fn what_a_streamable_http_server_sends_is_bounded_in_json_elements_too() {
    let Some(env) = home(Backend::Sqlite) else {
        return;
    };
    for (mode, count, refused) in [
        ("json", 2_000_000, true),
        ("json-lines", 250_000, true),
        ("events", 2_000_000, true),
        ("json", 20_000, false),
        ("events", 20_000, false),
    ] {
        let (_server, port) = raw_http_server(mode, count);
        let name = format!("raw{port}");
        let url = format!("http://127.0.0.1:{port}/mcp");
        let o = env.run(&["mcp", "add", &name, "--url", &url, "--timeout", "20"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let o = env.run(&["mcp", "call", &name, "t", "{}"]);
        if refused {
            let e = assert_error(&o, 8, "upstream");
            let message = e["message"].as_str().unwrap();
            assert!(
                message.contains("200000 JSON elements"),
                "{mode}: {message}"
            );
        } else {
            assert_eq!(code(&o), 0, "{mode}: {}", stderr(&o));
        }
    }
}

/// A server that cannot be reached says why, whatever the transport: rmcp's message stopped at
/// "error sending request for url", before "Connection refused". A stdio server whose program
/// is not there is added (it may be installed later), with a warning then, not at every run.
#[test]
fn an_unreachable_server_says_why_and_a_missing_program_is_named_when_added() {
    let Some(env) = home(Backend::Sqlite) else {
        return;
    };
    let port = free_port();
    for (name, transport, path) in [("http", "streamable-http", "mcp"), ("old", "sse", "sse")] {
        let url = format!("http://127.0.0.1:{port}/{path}");
        let o = env.run(&["mcp", "add", name, "--url", &url, "--transport", transport]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let e = assert_error(&env.run(&["mcp", "probe", name]), 8, "upstream");
        let message = e["message"].as_str().unwrap();
        assert!(message.contains("Connection refused"), "{name}: {message}");
    }
    let o = env.run(&["mcp", "add", "gone", "--command", "/nonexistent/mcp-server"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`/nonexistent/mcp-server` is not found"),
        "{}",
        stderr(&o)
    );
    let o = env.run(&["mcp", "add", "here", "--command", "sh"]);
    assert!(!stderr(&o).contains("not found"), "{}", stderr(&o));
}

/// An MCP server's headers never go to another origin: a server that redirects to another
/// host and port gets its redirect back as the answer (reqwest drops only `Authorization` on
/// such a redirect, so `--header X-Api-Key=…` reached the other port). A server that echoes
/// what it was given in a failure has it taken out, the token of `Bearer TOKEN` too, whatever
/// command asked (`mcp tools`, `probe`, `call`).
#[test]
fn an_mcp_servers_headers_stay_with_it_and_out_of_what_it_says() {
    let Some(env) = home(Backend::Sqlite) else {
        return;
    };
    let seen = env.root().join("seen-headers");
    let (_elsewhere, other) = tiny_http_server(&format!(
        "    def do_POST(self):\n        open({:?}, 'a').write(str(self.headers))\n        self.send_response(500); self.send_header('Content-Length', '0'); self.end_headers()\n",
        seen.display().to_string()
    ));
    let (_redirecting, port) = tiny_http_server(&format!(
        "    def do_POST(self):\n        self.send_response(307); self.send_header('Location', 'http://127.0.0.1:{other}/mcp'); self.send_header('Content-Length', '0'); self.end_headers()\n    do_GET = do_POST\n"
    ));
    let url = format!("http://127.0.0.1:{port}/mcp");
    let key = "X-Api-Key=key-7c1d5e9a-secret";
    let o = env.run(&[
        "mcp",
        "add",
        "moved",
        "--url",
        &url,
        "--header",
        key,
        "--timeout",
        "5",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let e = assert_error(&env.run(&["mcp", "probe", "moved"]), 8, "upstream");
    assert!(e["message"].as_str().unwrap().contains("307"), "{e}");
    let got = std::fs::read_to_string(&seen).unwrap_or_default();
    assert!(
        !got.contains("key-7c1d5e9a"),
        "the header went elsewhere: {got}"
    );
    // A server that says back every header it got, in a failed answer.
    let (_echo, port) = tiny_http_server(
        "    def do_POST(self):\n        body = str(self.headers).encode()\n        self.send_response(400); self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)\n    do_GET = do_POST\n",
    );
    let url = format!("http://127.0.0.1:{port}/mcp");
    let token = "Authorization=Bearer tok-93be1f0d77a2";
    let o = env.run(&[
        "mcp", "add", "echo", "--url", &url, "--header", token, "--header", key,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for args in [
        &["mcp", "probe", "echo"][..],
        &["mcp", "tools", "echo"],
        &["mcp", "call", "echo", "t", "{}"],
    ] {
        let o = env.run(args);
        let all = format!("{}{}", stdout(&o), stderr(&o));
        assert_ne!(code(&o), 0, "{args:?}");
        assert!(!all.contains("tok-93be1f0d77a2"), "{args:?}: {all}");
        assert!(!all.contains("key-7c1d5e9a"), "{args:?}: {all}");
    }
}
