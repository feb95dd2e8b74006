//! Hostile MCP servers (`fixtures/mcp-peers/raw_server.py`, `raw_http_server.py`): what they
//! ask of goclaw is bounded, and what goclaw gave them never comes back through what they say
//! of themselves.

use crate::mcp::{peer_python, raw_http_server};
use crate::util::*;

fn fixture(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/mcp-peers")
        .join(name)
        .display()
        .to_string()
}

/// `mcp add NAME` of the stdio server `raw_server.py MODE COUNT` run by the peers' Python `py`,
/// with `more` flags.
fn add_raw(env: &TestEnv, py: &str, name: &str, (mode, count): (&str, usize), more: &[&str]) {
    let script = fixture("raw_server.py");
    let count = count.to_string();
    let add = ["mcp", "add", name, "--command", py, "--arg", &script];
    env.ok(&[&add[..], &["--arg", mode, "--arg", &count], more].concat());
}

/// `mcp call NAME t {}`, which must succeed: its output, and its peak resident memory in KiB.
fn call_measured(env: &TestEnv, name: &str) -> (std::process::Output, u64) {
    let mut child = env.spawn(&["mcp", "call", name, "t", "{}"]);
    let (pid, mut peak) = (child.id(), 0);
    while child.try_wait().unwrap().is_none() {
        peak = peak.max(peak_kib(pid).unwrap_or(0));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(peak > 0, "VmHWM was read");
    (o, peak)
}

/// A server that asks faster than its answers can be delivered gets at most 256 requests
/// answered at once; the rest are dropped. rmcp kept every one waiting (some 4 KB each: 10 000
/// pings on one answer's stream took goclaw from 43 to 82 MB, and 2 GB in 20 s once they were
/// spread over resumed streams). What answers an answer is not read: a server that opened an
/// event stream of more pings on each answer had every one of those streams kept open. Memory
/// is compared between a small flood and a large one in the same run.
#[test]
fn a_server_that_floods_goclaw_with_requests_gets_a_bounded_number_answered() {
    let Some(env) = TestEnv::on(Backend::Sqlite) else {
        return;
    };
    let small = flooded(&env, 100);
    let large = flooded(&env, 9_990);
    for (answered, nested, _) in [small, large] {
        assert!((1..=256).contains(&answered), "{answered} answered");
        assert_eq!(nested, 0, "answers to answers were read");
    }
    assert!(
        large.2 * 4 < small.2 * 5,
        "peak memory {} KiB for 9 990 pings, {} KiB for 100",
        large.2,
        small.2
    );
}

/// A stdio server that floods goclaw with pings it cancels at once and log notifications has
/// goclaw's memory stay flat: a cancel freed a ping's place though rmcp still answered it (4 KB
/// a ping; 100 000 took 470 MB), and each notification was a task queued faster than tasks ran
/// (200 000 took 450 MB). Compared between a small flood and a large one in the same run.
#[test]
fn a_stdio_servers_flood_of_cancelled_requests_and_notifications_is_bounded() {
    let Some(py) = peer_python() else { return };
    let Some(env) = TestEnv::on(Backend::Sqlite) else {
        return;
    };
    let peak = |times: usize| {
        let name = format!("flood{times}");
        add_raw(&env, &py, &name, ("flood", times), &["--timeout", "60"]);
        let (o, peak) = call_measured(&env, &name);
        assert!(stdout(&o).contains("flooded"), "{}", stdout(&o));
        peak
    };
    let (small, large) = (peak(300), peak(30_000));
    assert!(
        large * 4 < small * 5,
        "peak memory {large} KiB for 30 000 times, {small} KiB for 300"
    );
}

/// A burst of requests a server asks in earnest is answered whole: a stdio server that sends
/// 200 pings at once and reads their answers before it answers the call.
#[test]
fn a_burst_of_requests_is_answered_whole() {
    let Some(py) = peer_python() else { return };
    let Some(env) = TestEnv::on(Backend::Sqlite) else {
        return;
    };
    add_raw(&env, &py, "burst", ("pings", 200), &["--timeout", "20"]);
    let o = env.run(&["mcp", "call", "burst", "t", "{}"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("200 answers"), "{}", stdout(&o));
}

/// `mcp call` of a server that sends `pings` pings on the call's answer stream: how many of
/// them it answered, how many of the pings on the answers' own streams, and its peak resident
/// memory in KiB.
fn flooded(env: &TestEnv, pings: usize) -> (usize, usize, u64) {
    let (_server, port) = raw_http_server("pings", pings);
    let name = format!("pinger{port}");
    let url = format!("http://127.0.0.1:{port}/mcp");
    env.ok(&["mcp", "add", &name, "--url", &url, "--timeout", "30"]);
    let (o, peak) = call_measured(env, &name);
    let said = stdout(&o);
    let count = |what: &str| -> usize {
        let at = said
            .find(what)
            .unwrap_or_else(|| panic!("no {what} in {said}"))
            + what.len();
        let digits = said[at..].split(|c: char| !c.is_ascii_digit()).next();
        digits.unwrap().parse().unwrap()
    };
    (count("answered "), count("nested "), peak)
}

/// A server that says back the key it was given (in its name, its instructions, the
/// descriptions of its tool, resource and prompt) has it taken out of everything goclaw shows of
/// it: to people (`mcp probe`, `mcp tools`, `mcp resources`, `mcp prompts`) and to the model
/// (the tools a run offers: `tools list --mcp`, `tools describe`). What it names after an
/// ordinary word it was given keeps its name: its tool can still be called.
#[test]
fn what_a_server_says_of_itself_never_holds_what_it_was_given() {
    let Some(py) = peer_python() else { return };
    let Some(env) = TestEnv::on(Backend::Sqlite) else {
        return;
    };
    let given = [
        "--env",
        "GIVEN=sk-live-0f3a9c77e1d2",
        "--env",
        "WORD=customers",
    ];
    add_raw(&env, &py, "echo", ("echo", 0), &given);
    for args in [
        &["mcp", "probe", "echo"][..],
        &["mcp", "tools", "echo"],
        &["mcp", "resources", "echo"],
        &["mcp", "prompts", "echo"],
        &["tools", "list", "--mcp", "--json"],
        &["tools", "describe", "mcp_echo__list_customers"],
    ] {
        let o = env.run(args);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        let all = format!("{}{}", stdout(&o), stderr(&o));
        assert!(!all.contains("sk-live-0f3a9c77e1d2"), "{args:?}: {all}");
    }
    let o = env.ok(&["mcp", "tools", "echo", "--json"]);
    let listed = stdout(&o);
    assert!(
        listed.contains("calls the API with key [REDACTED]"),
        "{listed}"
    );
    assert!(
        listed.contains(r#""enum":["customers","other"]"#),
        "{listed}"
    );
    let o = env.ok(&["mcp", "resources", "echo", "--json"]);
    assert!(stdout(&o).contains("db://customers"), "{}", stdout(&o));
    let o = env.ok(&["tools", "describe", "mcp_echo__list_customers", "--json"]);
    assert!(stdout(&o).contains(r#""customers":{"#), "{}", stdout(&o));
}

/// A server's tools are registered and run through the policy in time linear in their number:
/// each was looked for by a walk of the others (10 000 tools took `tools list --mcp` 6.5 s,
/// 28 times as long as 1 000; about 4 times now). Two timings of the same run are compared.
#[test]
fn a_server_with_many_tools_is_listed_in_linear_time() {
    let Some(py) = peer_python() else { return };
    let Some(env) = TestEnv::on(Backend::Sqlite) else {
        return;
    };
    let listing = |tools: usize| {
        let name = format!("many{tools}");
        add_raw(&env, &py, &name, ("tools", tools), &[]);
        let started = std::time::Instant::now();
        let o = env.run(&["tools", "list", "--mcp", "--json"]);
        let took = started.elapsed();
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(stdout(&o).contains(&format!("mcp_{name}__t{}", tools - 1)));
        env.ok(&["mcp", "rm", &name]);
        took
    };
    let few = listing(1_000);
    let many = listing(10_000);
    assert!(
        many < few * 12,
        "10 000 tools took {many:?}, 1 000 took {few:?}"
    );
}

/// helper-36: a run's deadline and Ctrl-C stop an MCP call whose server never answers, within
/// a second, as they stop an `exec` (it waited for the server's own 40 s time limit).
#[test]
fn a_server_that_never_answers_holds_a_run_no_longer_than_its_deadline() {
    let Some(py) = peer_python() else { return };
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let env = TestEnv::new();
    add_raw(&env, &py, "hang", ("hang", 0), &["--timeout", "60"]);
    let started = std::time::Instant::now();
    let o = crate::run::run(&env, &llm, &["--timeout", "2s", "call the hanging tool"]);
    assert_eq!(code(&o), 7, "{}{}", stdout(&o), stderr(&o));
    assert!(started.elapsed().as_secs() < 8, "{:?}", started.elapsed());
    let mut child = env
        .launcher_cmd(goclaw_bin())
        .args(["run", "--model", "gpt-4o", "call the hanging tool"])
        .env("OPENAI_BASE_URL", format!("{}/v1", llm.base))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let signalled = std::time::Instant::now();
    interrupt(child.id());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(
        signalled.elapsed().as_millis() < 2000,
        "{:?}",
        signalled.elapsed()
    );
}

/// A server that never answers `initialize` holds a command no longer than its deadline or its
/// Ctrl-C, and is ended with it: connecting waited for the handshake's own 30 s, a signal then
/// left the command to its grace (3 s) with no error document, and a run's `--timeout` began
/// only once its servers were connected.
#[test]
fn a_server_that_never_answers_initialize_holds_a_command_no_longer_than_its_stop() {
    let Some(py) = peer_python() else { return };
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let env = TestEnv::new();
    let marker = "mute";
    add_raw(&env, &py, marker, ("mute", 0), &["--timeout", "60"]);
    // The server's own process (its supervisor's command line holds the same words).
    let server = || {
        std::fs::read_dir("/proc").unwrap().flatten().any(|e| {
            std::fs::read(e.path().join("cmdline")).is_ok_and(|c| {
                let c = String::from_utf8_lossy(&c);
                c.contains("raw_server.py\0mute") && !c.contains("__sandbox-exec")
            })
        })
    };
    // A run with a deadline: the server is skipped at half of it, and the run works on.
    let started = std::time::Instant::now();
    let o = crate::run::run(&env, &llm, &["--timeout", "3s", "hello"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(started.elapsed().as_secs() < 3, "{:?}", started.elapsed());
    assert!(
        stderr(&o).contains("MCP server `mute` skipped"),
        "{}",
        stderr(&o)
    );
    // Said as what passed: the part of the deadline given to connecting, not the run's own.
    assert!(
        stderr(&o).contains("half of the run's --timeout, the time given to connecting"),
        "{}",
        stderr(&o)
    );
    // `mcp call`, stopped by Ctrl-C while it connects: at once, with its error document.
    let child = env
        .launcher_cmd(goclaw_bin())
        .args(["mcp", "call", marker, "t", "{}"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(server(), "the server was started");
    let signalled = std::time::Instant::now();
    interrupt(child.id());
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 130, "{}", stderr(&o));
    assert!(
        signalled.elapsed().as_millis() < 1500,
        "{:?}",
        signalled.elapsed()
    );
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(message.contains("stopped while"), "{message}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while server() {
        assert!(
            std::time::Instant::now() < deadline,
            "the server outlived goclaw"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// An environment with the agent `kid`, granted the server `mute`, which never answers.
fn kid_with_a_mute_server(py: &str) -> TestEnv {
    let env = TestEnv::new();
    env.write("../home/config.toml", "[agents.kid]\nmodel = \"gpt-4o\"\n");
    let access = ["--timeout", "60", "--access", "granted"];
    add_raw(&env, py, "mute", ("mute", 0), &access);
    env.ok(&["mcp", "grant", "mute", "--agent", "kid"]);
    env
}

/// A child still connecting to a server that never answers is cancelled as soon as it handles
/// the signal, not after it records its run: a parent whose deadline passed ended 5 s late
/// (its cancel waited that long for the child's run, which the connection held up).
#[test]
fn a_child_still_connecting_is_cancelled_at_once() {
    let Some(py) = peer_python() else { return };
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let env = kid_with_a_mute_server(&py);
    let started = std::time::Instant::now();
    let o = crate::run::run(&env, &llm, &["--timeout", "2s", "spawn a muted kid"]);
    assert_eq!(code(&o), 7, "{}{}", stdout(&o), stderr(&o));
    assert!(
        started.elapsed() < std::time::Duration::from_millis(4500),
        "{:?}",
        started.elapsed()
    );
    let kids = env.sql("SELECT status FROM runs WHERE parent_run_id IS NOT NULL");
    assert_eq!(kids.len(), 1, "{kids:?}");
    assert_eq!(kids[0]["status"], "cancelled", "{kids:?}");
}

/// `runs cancel` of a child that has no run yet (still connecting) cancels it: it said "no
/// run", and the child ran on.
#[test]
fn runs_cancel_reaches_a_child_still_connecting() {
    let Some(py) = peer_python() else { return };
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let env = kid_with_a_mute_server(&py);
    let o = crate::run::run(
        &env,
        &llm,
        &["--events", "--detach-children", "leave a muted kid"],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let spawned = crate::run::events(&o)
        .into_iter()
        .find(|e| e["type"] == "tool.result" && e["name"] == "spawn")
        .unwrap();
    let said = spawned["result"].as_str().unwrap().to_string();
    let id = said
        .split("(run ")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let started = std::time::Instant::now();
    let o = env.ok(&["runs", "cancel", id]);
    assert_eq!(json(&o)["cancelled"][0], id, "{}", stdout(&o));
    let status = || {
        env.sql(&format!(
            "SELECT coalesce(r.status, s.status) AS status FROM subagents s LEFT JOIN runs r ON r.id = s.run_id WHERE s.run_id = '{id}'"
        ))[0]["status"]
            .as_str()
            .unwrap()
            .to_string()
    };
    while ["spawning", "started", "running"].contains(&status().as_str()) {
        assert!(started.elapsed().as_secs() < 10, "{}", status());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(started.elapsed().as_secs() < 3, "{:?}", started.elapsed());
    assert!(
        ["cancelled", "rejected"].contains(&status().as_str()),
        "{}",
        status()
    );
}

/// Whether a process whose command line is `words` (NUL-joined) is alive.
fn running(words: &[&str]) -> bool {
    let wanted = words.join("\0");
    std::fs::read_dir("/proc").unwrap().flatten().any(|e| {
        std::fs::read(e.path().join("cmdline"))
            .is_ok_and(|c| String::from_utf8_lossy(&c).trim_end_matches('\0') == wanted)
    })
}

/// helper-37: a command stopped by Ctrl-C ends the stdio servers it started, though they run
/// in process groups of their own that the terminal's signal never reaches (they ran on,
/// orphaned).
#[test]
fn a_stopped_command_ends_its_servers() {
    let env = TestEnv::new();
    // A length of sleep no other test (or person) uses: its process is this test's server.
    let seconds = format!("1007.{}", std::process::id());
    env.ok(&[
        "mcp",
        "add",
        "idle",
        "--command",
        "sleep",
        "--arg",
        &seconds,
    ]);
    let mut child = env.spawn(&["mcp", "probe", "idle"]);
    let server = ["sleep", seconds.as_str()];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !running(&server) {
        assert!(
            std::time::Instant::now() < deadline,
            "the server never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    interrupt(child.id());
    // Ended by the signal (130), or killed by it before its watchers were up.
    let status = child.wait().unwrap();
    assert!(matches!(status.code(), Some(130) | None), "{status:?}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while running(&server) {
        assert!(
            std::time::Instant::now() < deadline,
            "the server outlived goclaw"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A server cannot move goclaw's state from under its masks: the directories above it are
/// pinned for the server's life (renamed, they took the masks with them, and the server,
/// started again, read the key at its new place); and a server whose files lie in goclaw's
/// state is refused, saying why (it failed its handshake).
#[test]
fn a_stdio_server_cannot_move_goclaws_state_out_of_its_masks() {
    let Some(py) = peer_python() else { return };
    let env = TestEnv::new();
    add_raw(&env, &py, "files", ("files", 0), &[]);
    let key = env.home().join("secret.key");
    assert!(key.exists());
    let root = env.root().display().to_string();
    let moved = format!("{root}.moved");
    let call = |args: serde_json::Value| {
        let o = env.run(&["mcp", "call", "files", "t", &args.to_string()]);
        assert_eq!(code(&o), 0, "{}", stdout(&o));
        json(&o)["result"]["for_llm"].as_str().unwrap().to_string()
    };
    let home = env.home().display().to_string();
    for (from, to) in [(&root, &moved), (&home, &format!("{home}.moved"))] {
        let said = call(serde_json::json!({"rename": [from, to], "read": key}));
        assert!(said.contains("rename: Device or resource busy"), "{said}");
        assert!(said.contains("read: No such file or directory"), "{said}");
    }
    assert!(key.exists() && !std::path::Path::new(&moved).exists());
    let script = env.home().join("server.py");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mcp-peers/raw_server.py"),
        &script,
    )
    .unwrap();
    let inside = script.display().to_string();
    env.ok(&["mcp", "add", "inside", "--command", &py, "--arg", &inside]);
    let o = env.run(&["mcp", "call", "inside", "t", "{}"]);
    let err = assert_error(&o, 2, "usage");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("lies in goclaw's own state"),
        "{err}"
    );
}

/// A stdio server never sees goclaw's state: the store, the key that seals every server's
/// secrets and the config file are masked (the host allows a private mount namespace here).
/// It read them as it reads any file of the user's, the key and the store together being
/// every other server's secrets.
#[test]
fn a_stdio_server_cannot_read_goclaws_state() {
    let Some(everything) = crate::mcp::everything() else {
        return;
    };
    let server = everything.replace("server-everything", "server-filesystem");
    let env = TestEnv::new();
    env.write(
        "../home/config.toml",
        "[scrub]\nvalues = [\"config-only-value\"]\n",
    );
    env.write("notes.txt", "plain notes");
    let root = env.root().display().to_string();
    let add = ["mcp", "add", "files", "--command", "node", "--arg", &server];
    env.ok(&[&add[..], &["--arg", &root]].concat());
    let read = |path: &std::path::Path| {
        let args = format!(r#"{{"path":"{}"}}"#, path.display());
        env.run(&["mcp", "call", "files", "read_text_file", &args])
    };
    for file in ["secret.key", "goclaw.db", "config.toml"] {
        let path = env.home().join(file);
        assert!(path.exists(), "{}", path.display());
        let o = read(&path);
        assert_eq!(code(&o), 1, "{file}: {}", stdout(&o));
        assert!(stdout(&o).contains("ENOENT"), "{file}: {}", stdout(&o));
    }
    // The rest of the user's files are the server's, as before.
    let o = read(&env.work().join("notes.txt"));
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(stdout(&o).contains("plain notes"), "{}", stdout(&o));
}

/// A server that fails to start says why on stderr, and the error carries its last line
/// (scrubbed of what it was given): it went nowhere, and the error said only that the
/// connection closed.
#[test]
fn a_server_that_fails_to_start_is_heard() {
    let Some(py) = peer_python() else { return };
    let env = TestEnv::new();
    let code_arg = "--arg=import sys, os; sys.stderr.write('starting\\nModuleNotFoundError: no module named mcp_' + os.environ['TOKEN'] + '\\n'); sys.exit(1)";
    env.ok(&[
        "mcp",
        "add",
        "broken",
        "--command",
        &py,
        "--arg=-c",
        code_arg,
        "--env",
        "TOKEN=sekrit-token-value",
    ]);
    let o = env.run(&["mcp", "call", "broken", "t", "{}"]);
    let err = assert_error(&o, 8, "upstream");
    let message = err["message"].as_str().unwrap();
    assert!(
        message.contains("it said on stderr: ModuleNotFoundError: no module named mcp_"),
        "{message}"
    );
    assert!(!message.contains("sekrit-token-value"), "{message}");
}
