//! Background commands: `exec {background: true}` starts a command under a keeper and returns
//! at once; the `process` tool (and `goclaw process`) lists, polls, reads and kills them. Each
//! test uses its own `sleep` durations, so the process checks see only its own commands.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::util::*;

const TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

/// `tools exec exec` of `args`; the exit code and the answer (JSON) or the error's message.
fn start(env: &TestEnv, args: Value, extra: &[&str]) -> (i32, Value) {
    let mut argv = vec!["tools", "exec", "exec"];
    let text = args.to_string();
    argv.push(&text);
    argv.extend_from_slice(extra);
    let (c, text) = tool_text(&env.run(&argv));
    (
        c,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// `goclaw process ARGS`: the exit code and the answer (JSON) or the error's message.
fn process(env: &TestEnv, args: &[&str]) -> (i32, Value) {
    let mut argv = vec!["process"];
    argv.extend_from_slice(args);
    let (c, text) = tool_text(&env.run(&argv));
    (
        c,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn config(env: &TestEnv, text: &str) {
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(env.home().join("config.toml"), text).unwrap();
}

/// Polls process `id` until it has ended (at most 10 s); the output of every poll, joined, and
/// the last answer.
fn poll_to_end(env: &TestEnv, id: i64, extra: &[&str]) -> (String, Value) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut output = String::new();
    loop {
        let id = id.to_string();
        let mut args = vec!["poll", id.as_str()];
        args.extend_from_slice(extra);
        let (c, answer) = process(env, &args);
        assert_eq!(c, 0, "{answer}");
        output.push_str(answer["output"].as_str().unwrap_or_default());
        if answer["status"] != "running" && answer["more"] == false {
            return (output, answer);
        }
        assert!(Instant::now() < deadline, "still running: {answer}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The listed process whose command is `command`, once `done` holds for it (at most 10 s).
fn listed(env: &TestEnv, command: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (c, answer) = process(env, &["list"]);
        assert_eq!(c, 0, "{answer}");
        let found = answer["processes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["command"] == command)
            .cloned();
        if let Some(p) = found.filter(|p| done(p)) {
            return p;
        }
        assert!(Instant::now() < deadline, "{answer}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

on_both_backends! {
fn background_commands_are_followed_to_their_end(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let m = backend as u8;
    // Output comes in as it is written, stdout and stderr in order, scrubbed; the exit code
    // is kept.
    let script = format!(
        "echo one; sleep 0.4; echo two >&2; sleep 0.4; echo {TOKEN}; exit 3"
    );
    let (c, started) = start(&env, json!({"command": script, "background": true}), &[]);
    assert_eq!(c, 0, "{started}");
    assert_eq!(started["status"], "running");
    assert!(started["pid"].as_i64().unwrap() > 1);
    let id = started["process"].as_i64().unwrap();
    let (output, end) = poll_to_end(&env, id, &[]);
    assert_eq!(output, "one\ntwo\n[REDACTED]\n");
    assert_eq!(end["status"], "exited", "{end}");
    assert_eq!(end["exit_code"], 3, "{end}");
    let (_, log) = process(&env, &["log", &id.to_string(), "--lines", "2"]);
    assert_eq!(log["log"], "two\n[REDACTED]\n", "{log}");
    let raw = stdout(&env.run(&["process", "log", &id.to_string()]));
    assert!(!raw.contains(TOKEN), "{raw}");
    // On a terminal: the status and the output, a table for the list; not the tool's JSON.
    let screen = on_unanswered_terminal(&env, &format!("process log {id}")).replace("\r\n", "\n");
    assert!(
        screen.starts_with(&format!("process {id}: exited (exit 3) · echo one; sleep 0.4;"))
            && screen.ends_with("\none\ntwo\n[REDACTED]\n"),
        "{screen}"
    );
    let screen = on_unanswered_terminal(&env, "process list").replace("\r\n", "\n");
    assert!(screen.starts_with("ID  STATUS "), "{screen}");
    assert!(
        screen.contains(&format!("\n{id}   exited (exit 3)  ")),
        "{screen}"
    );
    // The logs are goclaw's state: a command does not see them.
    let home = env.home().canonicalize().unwrap();
    let (c, seen) = tool_text(&env.run(&[
        "tools", "exec", "exec",
        &json!({"command": format!("cat {}/processes/{id}/0.log; ls {}/processes", home.display(), home.display())}).to_string(),
    ]));
    assert!(!seen.contains("one"), "{c} {seen}");
    // Kill: the whole group ends, a command that ignores SIGTERM and its children too.
    let stubborn = format!("trap '' TERM; sleep 9{m}2 & sleep 9{m}2; wait");
    let (c, started) = start(&env, json!({"command": stubborn, "background": true}), &[]);
    assert_eq!(c, 0, "{started}");
    let id = started["process"].as_i64().unwrap();
    assert!(process_alive(&format!("sleep 9{m}2")));
    let (c, killed) = process(&env, &["kill", &id.to_string()]);
    assert_eq!(c, 0, "{killed}");
    assert_eq!(killed["status"], "killed", "{killed}");
    assert_eq!(killed["reason"], "stopped by process kill", "{killed}");
    assert!(processes_end(&format!("sleep 9{m}2")));
    // The time limit.
    let (_, started) = start(
        &env,
        json!({"command": format!("sleep 9{m}3"), "background": true, "timeout": 1}),
        &[],
    );
    let id = started["process"].as_i64().unwrap();
    let (_, end) = poll_to_end(&env, id, &[]);
    assert_eq!(end["status"], "timed_out", "{end}");
    assert!(processes_end(&format!("sleep 9{m}3")));
    // The deny patterns hold in the background too, and nothing starts.
    let before = process(&env, &["list"]).1["processes"].as_array().unwrap().len();
    let (c, denied) = start(&env, json!({"command": "rm -rf /", "background": true}), &[]);
    assert_eq!(c, 3, "{denied}");
    assert_eq!(process(&env, &["list"]).1["processes"].as_array().unwrap().len(), before);
}
}

on_both_backends! {
fn a_session_sees_its_own_and_starts_at_most_its_limit(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let m = backend as u8;
    config(&env, "[tools.exec]\nmax_background = 1\n");
    let cmd = format!("sleep 9{m}4");
    let (c, started) = start(&env, json!({"command": cmd, "background": true}), &["--session", "a"]);
    assert_eq!(c, 0, "{started}");
    let id = started["process"].as_i64().unwrap().to_string();
    // Session a is full; session b is not, and does not see a's command.
    let (c, refused) = start(&env, json!({"command": cmd, "background": true}), &["--session", "a"]);
    assert_eq!(c, 4, "{refused}");
    assert!(refused.as_str().unwrap().contains("1/1 already run in this session"), "{refused}");
    let (c, missing) = process(&env, &["poll", &id, "--session", "b"]);
    assert_eq!(c, 5, "{missing}");
    let (_, listed_b) = process(&env, &["list", "--session", "b"]);
    assert_eq!(listed_b["processes"], json!([]));
    let (c, killed) = process(&env, &["kill", &id, "--session", "a"]);
    assert_eq!(c, 0, "{killed}");
    assert!(processes_end(&cmd));
    // Its end frees the place.
    let (c, started) = start(&env, json!({"command": "true", "background": true}), &["--session", "a"]);
    assert_eq!(c, 0, "{started}");
    // A command that ended frees its place even when nobody looked at it since.
    let (c, started) = start(&env, json!({"command": "true", "background": true}), &["--session", "q"]);
    assert_eq!(c, 0, "{started}");
    std::thread::sleep(Duration::from_millis(1500));
    let (c, again) = start(&env, json!({"command": "true", "background": true}), &["--session", "q"]);
    assert_eq!(c, 0, "{again}");
    // The policy covers the tool: group runtime denied, process is denied too.
    config(
        &env,
        "[tools]\ndeny = [\"group:runtime\"]\n[tools.exec]\nmax_background = 1\n",
    );
    let (c, denied) = process(&env, &["list"]);
    assert_eq!(c, 3, "{denied}");
}
}

#[test]
fn a_bounded_log_keeps_the_end_of_the_output() {
    let env = TestEnv::new();
    // 3 MB on one line, then a last line: the log keeps the last 2 MiB at most.
    let (c, started) = start(
        &env,
        json!({"command": "head -c 3000000 /dev/zero | tr '\\0' x; echo; echo end", "background": true}),
        &[],
    );
    assert_eq!(c, 0, "{started}");
    let id = started["process"].as_i64().unwrap();
    let dir = env.home().join("processes").join(id.to_string());
    let deadline = Instant::now() + Duration::from_secs(10);
    while !dir.join("status.json").exists() {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(50));
    }
    let kept: u64 = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(kept <= 2 * 1024 * 1024 + 1024, "{kept}");
    // The first poll says what was dropped, and returns at most 64 KiB.
    let (_, first) = process(&env, &["poll", &id.to_string()]);
    let dropped = first["dropped_bytes"].as_u64().unwrap();
    // Three chunks of 1 MiB were written; the first is gone.
    assert_eq!(dropped, 1024 * 1024);
    assert_eq!(first["output"].as_str().unwrap().len(), 64 * 1024);
    assert_eq!(first["more"], true);
    let (_, log) = process(&env, &["log", &id.to_string(), "--lines", "1"]);
    assert_eq!(log["log"], "end\n");
    assert_eq!(log["total_bytes"], 3_000_005);
}

#[test]
fn a_run_ends_its_background_commands_unless_detached() {
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let env = TestEnv::new();
    let o = crate::run::run(&env, &llm, &["--events", "start the build watcher"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let evs = crate::run::events(&o);
    let listed_in_run = evs
        .iter()
        .find(|e| e["type"] == "tool.result" && e["name"] == "process")
        .unwrap_or_else(|| panic!("{}", stdout(&o)));
    assert!(
        listed_in_run["result"]
            .as_str()
            .unwrap()
            .contains("sleep 97"),
        "{listed_in_run}"
    );
    // The run has ended: so has its command.
    let p = listed(&env, "echo watching; sleep 97", |p| {
        p["status"] != "running"
    });
    assert_eq!(p["status"], "killed", "{p}");
    assert_eq!(
        p["reason"], "the run or server that started it ended",
        "{p}"
    );
    assert_eq!(p["detached"], false);
    assert!(processes_end_in("sleep 97", &env.work()));
    // Detached, it outlives the run, until it is killed.
    let o = crate::run::run(&env, &llm, &["start the detached watcher"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    std::thread::sleep(Duration::from_millis(300));
    let p = listed(&env, "echo detached; sleep 98", |_| true);
    assert_eq!(p["status"], "running", "{p}");
    assert_eq!(p["detached"], true);
    let (c, killed) = process(&env, &["kill", &p["id"].to_string()]);
    assert_eq!(c, 0, "{killed}");
    assert!(processes_end_in("sleep 98", &env.work()));
}

#[test]
fn a_secret_is_never_split_between_two_polls() {
    let env = TestEnv::new();
    // The token straddles the 64 KiB a poll returns.
    let script = format!("head -c 65526 /dev/zero | tr '\\0' x; echo ' {TOKEN} end'");
    let (c, started) = start(&env, json!({"command": script, "background": true}), &[]);
    assert_eq!(c, 0, "{started}");
    let id = started["process"].as_i64().unwrap();
    let (output, _) = poll_to_end(&env, id, &[]);
    assert!(
        output.contains("[REDACTED] end"),
        "{}",
        &output[output.len() - 100..]
    );
    assert!(!output.contains("ghp_"), "a part of the token came out");
}

/// A kill at any moment of a background command's start ends it at once. bwrap ignores stop
/// signals while it builds the sandbox, and the keeper sent its one SIGTERM then: the command
/// ran on until the SIGKILL two seconds later. Now the keeper sends it again until the
/// supervisor says it listens. SIGTERM goes to the keeper 0–7 ms after it started the command.
#[test]
fn a_kill_at_any_moment_of_a_background_commands_start_ends_it_at_once() {
    let env = TestEnv::new();
    let mut modes = crate::trust::sandbox_modes();
    modes.push("none");
    for (m, mode) in modes.iter().enumerate() {
        let cfg = format!("{mode}.toml");
        env.write(&cfg, format!("[tools.exec]\nsandbox = \"{mode}\"\n"));
        for delay in 0..8 {
            // The supervisor's (or bwrap's) command line holds the command: found by it, its
            // parent is the keeper, whether or not `tools exec` has ended by then. (Not named
            // after the mode: `bwrap` in a command is denied.)
            let marker = format!("k{}-{m}-{delay}", std::process::id());
            let command = format!("sleep 30 # {marker}");
            let args = json!({"command": command, "background": true}).to_string();
            let mut exec = env.std_cmd(&["--config", &cfg, "tools", "exec", "exec", &args]);
            let mut exec = exec
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let (_, keeper) = started_by(&marker, "__keep-process");
            std::thread::sleep(Duration::from_millis(delay));
            let sent = Instant::now();
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(keeper as i32),
                nix::sys::signal::Signal::SIGTERM,
            );
            while running(keeper) && sent.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let took = sent.elapsed();
            exec.wait().unwrap();
            assert!(
                took < Duration::from_millis(1500),
                "{mode}, {delay} ms in: the command ended {took:?} after the kill"
            );
        }
    }
}
