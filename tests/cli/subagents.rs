//! Subagents: the `spawn` tool, child runs linked to their parents, and `goclaw runs` (list,
//! show, wait, cancel, `run --detach`). Against fakellm (rules in fixtures/llm-peers) for the
//! conversations, llmock with latency for runs that must still be running when they are stopped.

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::run::{events, fakellm, llmock_with, run};
use crate::util::*;

/// A run's status, read straight from the store (no process, no write).
fn status_of(env: &TestEnv, id: &str) -> Option<String> {
    env.sql(&format!("SELECT status FROM runs WHERE id = '{id}'"))
        .first()
        .and_then(|r| r["status"].as_str().map(str::to_string))
}

/// Config with the agent `slowpoke`, whose provider is `slow` (a slow llmock).
fn slow_agent(slow: &crate::run::Llm) -> String {
    format!(
        "[providers.slow]\nkind = \"openai\"\nbase_url = \"{}/v1\"\nmodel = \"gpt-4o\"\nstream = false\n\n[agents.slowpoke]\nprovider = \"slow\"\n",
        slow.base
    )
}

/// fakellm for the parents, and an environment whose `c.toml` defines `slowpoke` on an llmock
/// that takes `latency_ms` per answer.
fn with_slowpoke(
    backend: Backend,
    latency_ms: &str,
) -> Option<(crate::run::Llm, crate::run::Llm, TestEnv)> {
    let llm = fakellm()?;
    let slow = llmock_with(&["--latency-ms", latency_ms, "--tool-mode", "off"])?;
    let env = TestEnv::on(backend)?;
    env.write("c.toml", slow_agent(&slow));
    Some((llm, slow, env))
}

/// The parent's own `spawn` results (a child's are relayed into the same stream).
fn own_spawn_results(evs: &[Value]) -> Vec<Value> {
    evs.iter()
        .filter(|e| {
            e["type"] == "tool.result" && e["name"] == "spawn" && e["parent_run_id"].is_null()
        })
        .cloned()
        .collect()
}

/// The runs of the store, oldest first.
fn runs(env: &TestEnv) -> Vec<Value> {
    let o = env.run(&["runs", "list", "--limit", "100"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut all = items(&o);
    all.reverse();
    all
}

on_both_backends! {
fn three_async_children_run_at_once_and_report_back(backend) {
    let Some((llm, _slow, env)) = with_slowpoke(backend, "1000") else {
        return;
    };
    let o = run(
        &env,
        &llm,
        &[
            "--config",
            "c.toml",
            "--provider",
            "openai",
            "--events",
            "--session",
            "fan",
            "fan out three",
        ],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let evs = events(&o);
    let done = evs.last().unwrap();
    assert_eq!(done["type"], "run.completed", "{done}");
    assert_eq!(
        done["content"],
        "Combined: the three subagents reported back."
    );
    let parent = done["run_id"].as_str().unwrap().to_string();
    // Three children, linked to the parent, each completed with its own answer.
    let all = runs(&env);
    let children: Vec<&Value> = all
        .iter()
        .filter(|r| r["parent_run_id"] == parent.as_str())
        .collect();
    assert_eq!(children.len(), 3, "{all:?}");
    let mut labels: Vec<&str> = children
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    labels.sort();
    assert_eq!(labels, ["alpha", "beta", "gamma"]);
    for c in &children {
        assert_eq!(c["status"], "completed", "{c}");
        assert_eq!(c["depth"], 1);
    }
    // They ran at the same time: each started before the others ended.
    let start = |c: &Value| c["started_at"].as_i64().unwrap();
    let end = |c: &Value| c["ended_at"].as_i64().unwrap();
    let latest_start = children.iter().map(|c| start(c)).max().unwrap();
    let earliest_end = children.iter().map(|c| end(c)).min().unwrap();
    assert!(
        latest_start < earliest_end,
        "the children did not overlap: {children:?}"
    );
    // Their answers came back into the parent's conversation before its final answer.
    let history = stdout(&env.run(&["sessions", "history", "fan"]));
    for c in &children {
        let said = format!(
            "{} (run {}, completed): ",
            c["label"].as_str().unwrap(),
            c["id"].as_str().unwrap()
        );
        assert!(history.contains(&said), "{said} not announced: {history}");
    }
    assert!(history.contains("[Subagent results]"), "{history}");
    // The parent's --events carry the children's, each with its run id and the parent's; every
    // run has exactly one terminal event, and the parent's comes last.
    let terminal = ["run.completed", "run.failed", "run.cancelled"];
    for c in &children {
        let id = c["id"].as_str().unwrap();
        let theirs: Vec<&Value> = evs.iter().filter(|e| e["run_id"] == id).collect();
        assert!(!theirs.is_empty(), "no events of child {id}");
        assert!(theirs.iter().all(|e| e["parent_run_id"] == parent.as_str()));
        let ends = theirs
            .iter()
            .filter(|e| terminal.contains(&e["type"].as_str().unwrap()))
            .count();
        assert_eq!(ends, 1, "child {id}: {theirs:?}");
    }
    let own_ends = evs
        .iter()
        .filter(|e| {
            e["run_id"] == parent.as_str() && terminal.contains(&e["type"].as_str().unwrap())
        })
        .count();
    assert_eq!(own_ends, 1);
    assert!(
        evs.iter()
            .filter(|e| e["run_id"] == parent.as_str())
            .all(|e| e["parent_run_id"].is_null())
    );
    // `runs show` shows the parent with its children.
    let shown = json(&env.run(&["runs", "show", &parent]));
    assert_eq!(shown["children"].as_array().unwrap().len(), 3, "{shown}");
}
}

on_both_backends! {
fn a_sync_child_answers_through_the_tool(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    let o = run(&env, &llm, &["--events", "ask one child"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let evs = events(&o);
    let result = own_spawn_results(&evs)[0].clone();
    assert_eq!(result["is_error"], false, "{result}");
    assert!(
        result["result"].as_str().unwrap().contains("DELTA-DONE"),
        "{result}"
    );
    assert_eq!(evs.last().unwrap()["content"], "The child answered.");
}
}

on_both_backends! {
fn a_child_gets_the_subagent_and_leaf_deny_lists(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    let o = run(&env, &llm, &["--events", "child tries exec"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    // The child's exec and spawn were refused by the policy's subagent steps, in its audit.
    let listed = env.run(&["tools", "history", "--limit", "20"]);
    let rows: Vec<Value> = items(&listed);
    let refused = |tool: &str, step: i64| {
        rows.iter().any(|r| {
            r["tool"] == tool && r["outcome"] == "denied" && r["decision"]["policy"]["step"] == step
        })
    };
    assert!(refused("exec", 12), "{rows:?}");
    assert!(refused("spawn", 13), "{rows:?}");
    let evs = events(&o);
    // The parent's own spawn result (the child's refused spawn is relayed too).
    let result = own_spawn_results(&evs)[0].clone();
    assert!(
        result["result"].as_str().unwrap().contains("EPSILON-DONE"),
        "{result}"
    );
    assert_eq!(evs.last().unwrap()["content"], "Done trying.");
}
}

on_both_backends! {
/// helper-36: a child never does more than its parent may (`--allow-tools`, a cron job's
/// ceiling), and sees only the background commands its own run started, not another
/// session's.
fn a_child_is_held_to_its_parents_tools_and_its_own_commands(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    env.write("../home/config.toml", "[tools.exec]\nsandbox = \"none\"\n");
    let started = env.run(&[
        "tools",
        "exec",
        "exec",
        r#"{"command":"sleep 30 # alice-private","background":true}"#,
        "--session",
        "alice",
    ]);
    assert_eq!(code(&started), 0, "{}", stdout(&started));
    let o = run(
        &env,
        &llm,
        &["--events", "--allow-tools", "spawn,process", "child writes"],
    );
    let _ = env.run(&["process", "kill", "1", "--session", "alice"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(!env.work().join("zeta.txt").exists(), "the child wrote");
    let rows: Vec<Value> = items(&env.run(&["tools", "history", "--limit", "20"]));
    assert!(
        rows.iter()
            .any(|r| r["tool"] == "write_file" && r["outcome"] == "denied"),
        "{rows:?}"
    );
    let listed = events(&o)
        .into_iter()
        .find(|e| e["type"] == "tool.result" && e["name"] == "process")
        .expect("the child's process list");
    let text = listed["result"].as_str().unwrap_or_default();
    assert!(text.contains("\"processes\":[]"), "{listed}");
}
}

on_both_backends! {
/// A subagent whose parent process is gone (SIGKILL) cancels itself: no child runs on, no row
/// stays `running`.
fn a_child_ends_when_its_parent_process_is_killed(backend) {
    let Some(llm) = llmock_with(&["--latency-ms", "30000"]) else {
        return;
    };
    let Some(env) = TestEnv::on(backend) else { return };
    // Each backend's run has its own id: the two run at once, and processes are found by it.
    let child = match backend {
        Backend::Sqlite => "0000-child-sqlite",
        Backend::Postgres => "0000-child-postgres",
    };
    let script = format!(
        "OPENAI_BASE_URL={}/v1 '{}' run --model gpt-4o --run-id {child} --parent-run 0000-parent --label orphan -- 'wait for the slow model' & echo started; wait",
        llm.base,
        goclaw_bin().display()
    );
    let mut parent = env
        .launcher_cmd("sh")
        .args(["-c", &script])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // The child is running once its run row exists.
    let t = Instant::now();
    while status_of(&env, child).as_deref() != Some("running") {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "the child never started: {:?}",
            status_of(&env, child)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(parent.id() as i32),
        nix::sys::signal::Signal::SIGKILL,
    );
    let _ = parent.wait();
    let t = Instant::now();
    loop {
        let status = status_of(&env, child).unwrap_or_default();
        if status != "running" {
            assert_eq!(status, "cancelled");
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "the child outlived its parent"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        processes_end(child),
        "the child process is still there"
    );
}
}

on_both_backends! {
/// `run --detach` prints the run id at once; `runs cancel` ends it cleanly (`cancelled`) and
/// `runs wait` returns its exit code.
fn a_detached_run_is_waited_for_and_cancelled(backend) {
    let Some(llm) = llmock_with(&["--latency-ms", "30000"]) else {
        return;
    };
    let Some(env) = TestEnv::on(backend) else { return };
    let o = env
        .cmd(&["run", "--detach", "--model", "gpt-4o", "a slow question"])
        .env("OPENAI_BASE_URL", format!("{}/v1", llm.base))
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let id = json(&o)["run_id"].as_str().unwrap().to_string();
    // Still running: a short wait gives up (exit 7), and says so on stderr.
    let o = env.run(&["runs", "wait", &id, "--timeout", "200ms"]);
    assert_eq!(code(&o), 7, "{}", stdout(&o));
    let said = stderr(&o);
    assert!(said.contains(&format!("gave up waiting: {id} still running")), "{said}");
    let o = env.run(&["runs", "cancel", &id]);
    assert_eq!(json(&o)["cancelled"][0], id.as_str(), "{}", stdout(&o));
    // The run's own exit code: `runs cancel` stopped it with SIGTERM.
    let o = env.run(&["runs", "wait", &id, "--timeout", "20s"]);
    assert_eq!(code(&o), 143, "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).starts_with(&format!("error: run {id} cancelled")), "{}", stderr(&o));
    let row: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(row["status"], "cancelled", "{row}");
    assert_error(&env.run(&["runs", "show", "no-such-run"]), 5, "not_found");
}
}

on_both_backends! {
/// The sessions tools: an agent lists and reads its own sessions (not another agent's), sends a
/// message into one (a background run on it), and `minimal` now means `session_status`.
fn the_sessions_tools_read_send_and_report(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    env.write(
        "c.toml",
        "[agents.memo]\n[agents.other]\n[agents.tiny.tools]\nprofile = \"minimal\"\n",
    );
    let o = run(
        &env,
        &llm,
        &[
            "--config",
            "c.toml",
            "--agent",
            "memo",
            "--session",
            "z1",
            "remember zebra",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let exec = |agent: &str, tool: &str, args: Value| {
        env.cmd(&[
            "--config",
            "c.toml",
            "tools",
            "exec",
            tool,
            &args.to_string(),
            "--agent",
            agent,
        ])
        .env("OPENAI_BASE_URL", format!("{}/v1", llm.base))
        .output()
        .unwrap()
    };
    let listed = json(&exec("memo", "sessions_list", serde_json::json!({})));
    let listed: Value =
        serde_json::from_str(listed["result"]["for_llm"].as_str().unwrap()).unwrap();
    assert_eq!(listed["sessions"][0]["key"], "z1", "{listed}");
    let theirs = json(&exec("other", "sessions_list", serde_json::json!({})));
    assert!(
        theirs["result"]["for_llm"]
            .as_str()
            .unwrap()
            .contains("\"count\":0"),
        "{theirs}"
    );
    let history = exec(
        "memo",
        "sessions_history",
        serde_json::json!({"session_key": "z1"}),
    );
    assert!(stdout(&history).contains("Noted."), "{}", stdout(&history));
    let refused = exec(
        "other",
        "sessions_history",
        serde_json::json!({"session_key": "z1"}),
    );
    assert_error(&refused, 5, "not_found");
    // A message sent into the session is a run on it; its answer continues the conversation.
    let sent = exec(
        "memo",
        "sessions_send",
        serde_json::json!({"session_key": "z1", "message": "remember zebra"}),
    );
    assert_eq!(code(&sent), 0, "{}", stdout(&sent));
    let text = json(&sent)["result"]["for_llm"]
        .as_str()
        .unwrap()
        .to_string();
    let run_id = text
        .split("run ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let waited = env.run(&[
        "--config",
        "c.toml",
        "runs",
        "wait",
        run_id,
        "--timeout",
        "30s",
    ]);
    assert_eq!(code(&waited), 0, "{}", stdout(&waited));
    let history = stdout(&env.run(&["sessions", "history", "z1"]));
    assert!(
        history.contains("You asked me to remember zebra."),
        "{history}"
    );
    // session_status outside a run says so; `minimal` is exactly it.
    let status = json(&exec("memo", "session_status", serde_json::json!({})));
    assert!(
        status["result"]["for_llm"]
            .as_str()
            .unwrap()
            .contains("\"agent\":\"memo\"")
    );
    let tiny = env.run(&["--config", "c.toml", "tools", "list", "--agent", "tiny"]);
    assert_eq!(names(&tiny), ["session_status"]);
}
}

on_both_backends! {
/// A limit refuses a spawn in a real run, saying which and the count; the other child runs.
fn a_spawn_over_the_limit_is_refused_with_the_count(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    env.write(
        "c.toml",
        "[agents.lim]\n[agents.lim.subagents]\nmax_children_per_agent = 1\n",
    );
    let o = run(
        &env,
        &llm,
        &[
            "--config",
            "c.toml",
            "--agent",
            "lim",
            "--events",
            "spawn two at once",
        ],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let evs = events(&o);
    let results = own_spawn_results(&evs);
    assert_eq!(results.len(), 2, "{results:?}");
    let refused: Vec<&Value> = results.iter().filter(|r| r["is_error"] == true).collect();
    assert_eq!(refused.len(), 1, "{results:?}");
    assert!(
        refused[0]["result"]
            .as_str()
            .unwrap()
            .contains("at capacity (1/1 children of this run running)"),
        "{}",
        refused[0]
    );
    // The accepted child ran and reported back.
    let parent = evs.last().unwrap()["run_id"].as_str().unwrap().to_string();
    let shown = json(&env.run(&["runs", "show", &parent]));
    assert_eq!(shown["children"].as_array().unwrap().len(), 1, "{shown}");
    assert_eq!(shown["children"][0]["status"], "completed");
}
}

on_both_backends! {
/// `--detach-children`: the parent ends without waiting, its child runs on to its end. The child
/// is a configured agent, so it runs on its own provider (a slow one here), not the parent's.
fn detached_children_outlive_their_parent(backend) {
    let Some((llm, _slow, env)) = with_slowpoke(backend, "1500") else {
        return;
    };
    let o = run(
        &env,
        &llm,
        &[
            "--config",
            "c.toml",
            "--provider",
            "openai",
            "--detach-children",
            "leave a slow child",
        ],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let doc = json(&o);
    assert_eq!(doc["content"], "Left it running.", "{doc}");
    let parent = doc["run_id"].as_str().unwrap();
    let child = runs(&env)
        .into_iter()
        .find(|r| r["parent_run_id"] == parent)
        .unwrap();
    assert_eq!(child["agent"], "slowpoke");
    let id = child["id"].as_str().unwrap().to_string();
    let waited = env.run(&[
        "--config",
        "c.toml",
        "runs",
        "wait",
        &id,
        "--timeout",
        "30s",
    ]);
    assert_eq!(code(&waited), 0, "{}", stdout(&waited));
    let all = runs(&env);
    let ended = |id: &str| {
        all.iter().find(|r| r["id"] == id).unwrap()["ended_at"]
            .as_i64()
            .unwrap()
    };
    assert!(
        ended(parent) < ended(&id),
        "the parent waited for its child"
    );
}
}

on_both_backends! {
/// `cancel last` stops the running child (its run ends `cancelled`); `steer` cancels it and
/// starts it again on the new task, with the same label.
fn cancel_last_and_steer(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(slow) = llmock_with(&["--latency-ms", "3000", "--tool-mode", "off"]) else {
        return;
    };
    for (message, verb) in [
        ("cancel the slow child", "Cancelled: slow."),
        ("steer the slow child", "Steered slow"),
    ] {
        let Some(env) = TestEnv::on(backend) else { return };
        env.write("c.toml", slow_agent(&slow));
        let o = run(
            &env,
            &llm,
            &[
                "--config",
                "c.toml",
                "--provider",
                "openai",
                "--events",
                message,
            ],
        );
        assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
        let evs = events(&o);
        let acted = evs
            .iter()
            .filter(|e| e["type"] == "tool.result" && e["parent_run_id"].is_null())
            .nth(1)
            .unwrap();
        assert!(
            acted["result"].as_str().unwrap().starts_with(verb),
            "{acted}"
        );
        let parent = evs.last().unwrap()["run_id"].as_str().unwrap().to_string();
        let children: Vec<Value> = runs(&env)
            .into_iter()
            .filter(|r| r["parent_run_id"] == parent.as_str())
            .collect();
        assert!(!children.is_empty(), "no child: {}", stdout(&o));
        assert_eq!(children[0]["status"], "cancelled", "{children:?}");
        if message.starts_with("steer") {
            assert_eq!(children.len(), 2, "{children:?}");
            assert_eq!(children[1]["label"], "slow");
            assert_eq!(children[1]["status"], "completed", "{children:?}");
        } else {
            assert_eq!(children.len(), 1, "{children:?}");
        }
    }
}
}

on_both_backends! {
/// Commands a run starts learn who runs them.
fn exec_sees_the_runs_identity(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    env.write("c.toml", "[agents.ops]\n");
    let o = run(
        &env,
        &llm,
        &[
            "--config",
            "c.toml",
            "--agent",
            "ops",
            "--session",
            "id1",
            "--events",
            "who runs me",
        ],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let evs = events(&o);
    let run_id = evs[0]["run_id"].as_str().unwrap();
    let result = evs
        .iter()
        .find(|e| e["type"] == "tool.result" && e["name"] == "exec")
        .unwrap();
    assert!(
        result["result"]
            .as_str()
            .unwrap()
            .contains(&format!("run={run_id} agent=ops session=id1")),
        "{result}"
    );
}
}

on_both_backends! {
/// `max_concurrent` counts the running subagents of every run, across processes: a second
/// parent process gets what is left.
fn the_concurrency_limit_holds_across_parent_processes(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(slow) = llmock_with(&["--latency-ms", "4000", "--tool-mode", "off"]) else {
        return;
    };
    let Some(env) = TestEnv::on(backend) else { return };
    env.write(
        "c.toml",
        slow_agent(&slow) + "\n[agents.boss]\n[agents.boss.subagents]\nmax_concurrent = 3\n",
    );
    let parent = |session: &str, message: &str| {
        env.cmd(&[
            "--config",
            "c.toml",
            "run",
            "--model",
            "gpt-4o",
            "--provider",
            "openai",
            "--agent",
            "boss",
            "--session",
            session,
            "--events",
            "--detach-children",
            message,
        ])
        .env("OPENAI_BASE_URL", format!("{}/v1", llm.base))
        .output()
        .unwrap()
    };
    let first = parent("p1", "two slow children");
    assert_eq!(code(&first), 0, "{}", stderr(&first));
    // Its two children still wait for the slow model; the second parent may start one more.
    let second = parent("p2", "two slow children, once more");
    assert_eq!(code(&second), 0, "{}", stderr(&second));
    let refused: Vec<Value> = events(&second)
        .into_iter()
        .filter(|e| e["type"] == "tool.result" && e["is_error"] == true)
        .collect();
    assert_eq!(
        refused.len(),
        1,
        "{refused:?}\n{:?}\n{}",
        runs(&env),
        stdout(&first)
    );
    assert!(
        refused[0]["result"]
            .as_str()
            .unwrap()
            .contains("at capacity (3/3 subagents running across all runs)"),
        "{}",
        refused[0]
    );
    let o = env.run(&["runs", "cancel", "--all"]);
    assert_eq!(code(&o), 0);
}
}

on_both_backends! {
/// A child's task and label are scrubbed before they leave the run, as any argument bound for
/// a model: the child's model, the subagents' table and the child's command line (where `ps`
/// shows it; the task now goes on the child's stdin) never hold a configured secret. They were
/// stored and sent as the model wrote them.
fn a_childs_task_is_scrubbed_before_it_leaves(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    env.write(
        "../home/config.toml",
        "[scrub]\nvalues = [\"hunter2-subtask-value\"]\n",
    );
    let o = run(&env, &llm, &["--events", "spawn carrying a secret"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let result = own_spawn_results(&events(&o))[0].clone();
    assert!(
        result["result"].as_str().unwrap().contains("SCRUBBED-OK"),
        "{result}"
    );
    let children = stdout(&env.ok(&["runs", "list"]));
    assert!(children.contains("keeper [REDACTED]"), "{children}");
    assert!(!children.contains("hunter2"), "{children}");
    let stored = env.store_bytes();
    assert!(
        !stored
            .windows(b"hunter2-subtask-value".len())
            .any(|w| w == b"hunter2-subtask-value"),
        "the store holds the secret"
    );
}
}

on_both_backends! {
/// What a model chose as a child's task is text: `@FILE` is not read, `-` is not stdin; and
/// `runs` never takes an empty or too short id for "any run".
fn a_task_is_text_and_run_ids_are_not_patterns(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    env.write("notes.txt", "SECRET-NOTES");
    let o = run(&env, &llm, &["--events", "spawn a file reader"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let result = own_spawn_results(&events(&o))[0].clone();
    assert!(
        result["result"].as_str().unwrap().contains("LITERAL-OK"),
        "{result}"
    );
    for id in ["", "0", "%", "_"] {
        assert_error(&env.run(&["runs", "cancel", id]), 5, "not_found");
        assert_error(&env.run(&["runs", "show", id]), 5, "not_found");
    }
    assert_error(&env.run(&["runs", "list", "--status", "bogus"]), 2, "usage");
}
}
