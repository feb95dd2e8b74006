//! Teams that work: `goclaw run --task`, `goclaw team run` (the dispatcher: a lead posts tasks,
//! members run in parallel, blockers escalate, Ctrl-C gives tasks back), `goclaw team work`, and
//! quality gates (`run --gate`, `--evaluator`). Against fakellm (rules in fixtures/llm-peers:
//! "plan the launch", "ship the blocked thing", "take all night", "make the gate pass", "write a
//! slogan"), with real member processes, files and the real store.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::run::{Llm, events, fakellm};
use crate::util::*;

/// Config: one provider (fakellm), a lead per scenario (told apart by their model names, which
/// the rules match), three members and a critic.
fn team_config(env: &TestEnv, llm: &Llm) {
    let mut c = format!(
        "[providers.fake]\nkind = \"openai\"\nbase_url = \"{}/v1\"\nmodel = \"gpt-4o\"\n",
        llm.base
    );
    for (agent, model) in [
        ("lead", "lead-model"),
        ("lead2", "lead2-model"),
        ("w1", "gpt-4o"),
        ("w2", "gpt-4o"),
        ("w3", "gpt-4o"),
        ("critic", "critic-model"),
        ("lead3", "lead3-model"),
        ("rev", "reviewer-model"),
    ] {
        c.push_str(&format!(
            "\n[agents.{agent}]\nprovider = \"fake\"\nmodel = \"{model}\"\n"
        ));
    }
    env.write("c.toml", c);
}

/// A fakellm and a test environment with [`team_config`]; `None` (after failing in CI) when
/// the peer is missing.
fn team_env(backend: Backend) -> Option<(Llm, TestEnv)> {
    let llm = require_peer(fakellm(), "fakellm")?;
    let env = TestEnv::on(backend)?;
    team_config(&env, &llm);
    Some((llm, env))
}

/// The quality-gate spans of a run's trace: (name, status).
fn gate_spans(env: &TestEnv, run_id: &str) -> Vec<(String, String)> {
    let trace = json(&goclaw(env, &["traces", "show", run_id]));
    trace["spans"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "gate")
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn goclaw(env: &TestEnv, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--config", "c.toml"];
    all.extend_from_slice(args);
    env.run(&all)
}

fn team(env: &TestEnv, name: &str, lead: &str, members: &[&str]) {
    let mut args = vec!["team", "create", name, "--lead", lead];
    for m in members {
        args.extend(["--member", m]);
    }
    let o = goclaw(env, &args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// The lead of the team creates a task for each subject, in order.
fn lead_creates(env: &TestEnv, subjects: &[&str]) {
    for subject in subjects {
        let o = goclaw(
            env,
            &["tasks", "--as", "lead", "create", "--subject", subject],
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
}

/// The runs of the store, oldest first.
fn runs(env: &TestEnv) -> Vec<Value> {
    let o = goclaw(env, &["runs", "list", "--limit", "100"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut all = items(&o);
    all.reverse();
    all
}

/// The team's tasks, as its lead lists them (`t2`'s lead is `lead2`).
fn tasks(env: &TestEnv, team: &str) -> Vec<Value> {
    let lead = match team {
        "t2" => "lead2",
        "t3" => "lead3",
        _ => "lead",
    };
    let o = goclaw(env, &["tasks", "--as", lead, "--team", team, "list"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    items(&o)
}

fn ms(v: &Value, key: &str) -> i64 {
    v[key].as_i64().unwrap_or_else(|| panic!("{key} in {v}"))
}

on_both_backends! {
fn a_team_run_dispatches_members_in_parallel_and_the_lead_answers_with_every_result(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1", "w2", "w3"]);
    let o = goclaw(&env, &["team", "run", "t1", "plan the launch"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let report = json(&o);
    assert_eq!(report["status"], "completed", "{report}");
    assert_eq!(report["answer"], "FINAL: the launch plan is ready.");
    assert_eq!(report["failed"], Value::Array(vec![]));
    let mut results: Vec<&str> = report["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            assert_eq!(t["status"], "completed", "{t}");
            t["result"].as_str().unwrap()
        })
        .collect();
    results.sort();
    assert_eq!(
        results,
        [
            "ALPHA-RESULT",
            "BETA-RESULT",
            "DELTA-RESULT",
            "GAMMA-RESULT"
        ]
    );

    // Every run is linked to the team run; the members' runs overlap in time; the two that
    // wait for "research alpha" start only after its run ended.
    let team_run = report["team_run_id"].as_str().unwrap();
    let mut all = runs(&env);
    // The team run's own row comes first (so `runs show`, `wait` and `cancel` take its id).
    let own = all.remove(0);
    assert_eq!(own["id"], team_run, "{own}");
    assert_eq!(own["label"], "team:t1");
    assert_eq!(own["status"], "completed");
    assert_eq!(own["content"], "FINAL: the launch plan is ready.");
    assert!(
        all.iter().all(|r| r["parent_run_id"] == team_run),
        "{all:?}"
    );
    let member = |subject_result: &str| -> Value {
        all.iter()
            .find(|r| r["content"] == subject_result)
            .cloned()
            .unwrap_or_else(|| panic!("no run answered {subject_result}: {all:?}"))
    };
    let (alpha, beta, gamma, delta) = (
        member("ALPHA-RESULT"),
        member("BETA-RESULT"),
        member("GAMMA-RESULT"),
        member("DELTA-RESULT"),
    );
    assert!(
        ms(&alpha, "started_at") < ms(&delta, "ended_at")
            && ms(&delta, "started_at") < ms(&alpha, "ended_at"),
        "alpha and delta did not overlap: {alpha} {delta}"
    );
    for dependent in [&beta, &gamma] {
        assert!(
            ms(dependent, "started_at") >= ms(&alpha, "ended_at"),
            "a dependent started before its blocker ended: {dependent} {alpha}"
        );
    }
    assert!(
        ms(&beta, "started_at") < ms(&gamma, "ended_at")
            && ms(&gamma, "started_at") < ms(&beta, "ended_at"),
        "beta and gamma did not overlap"
    );

    // The lead's final turn was given every result (its session keeps the turn).
    let session = format!("team-run:{team_run}");
    let history = stdout(&goclaw(&env, &["sessions", "history", &session]));
    let results_turn = history
        .lines()
        .find(|l| l.contains("[Team results]"))
        .unwrap_or_else(|| panic!("no results turn in {history}"));
    for r in [
        "ALPHA-RESULT",
        "BETA-RESULT",
        "GAMMA-RESULT",
        "DELTA-RESULT",
    ] {
        assert!(results_turn.contains(r), "{r} missing from {results_turn}");
    }
    // Members work in their own directories of the team's workspace (isolated, the default).
    let alpha_file = env
        .work()
        .join("teams/t1")
        .join(alpha["agent"].as_str().unwrap())
        .join("alpha.txt");
    assert_eq!(std::fs::read_to_string(&alpha_file).unwrap(), "alpha\n");
}
}

on_both_backends! {
fn a_blocker_cancels_the_members_run_and_escalates_to_the_lead(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t2", "lead2", &["w1"]);
    let o = goclaw(
        &env,
        &["team", "run", "t2", "ship the blocked thing", "--events"],
    );
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("did not complete: T-001-"),
        "{}",
        stderr(&o)
    );
    let evs = events(&o);
    // Every line, the team run's own and its runs', is a document of `goclaw schema event`.
    let schema: Value = serde_json::from_slice(&goclaw(&env, &["schema", "event"]).stdout).unwrap();
    let valid = jsonschema::validator_for(&schema).unwrap();
    for e in &evs {
        assert!(valid.is_valid(e), "not an `event` document: {e}");
        assert_eq!(e["v"], 1, "{e}");
        assert!(e["ts"].as_i64().unwrap() > 0, "{e}");
    }
    let types: Vec<&str> = evs.iter().map(|e| e["type"].as_str().unwrap()).collect();
    for t in [
        "team.started",
        "task.created",
        "task.claimed",
        "task.commented",
        "task.failed",
        "team.completed",
    ] {
        assert!(types.contains(&t), "{t} missing: {types:?}");
    }
    let last = evs.last().unwrap();
    assert_eq!(last["type"], "team.completed");
    assert_eq!(last["status"], "failed");
    assert_eq!(last["answer"], "FINAL: shipping is blocked.");
    // The member's own events carry its task.
    let task_id = evs.iter().find(|e| e["type"] == "task.created").unwrap()["task_id"].clone();
    assert!(
        evs.iter()
            .any(|e| e["type"] == "tool.call" && e["task_id"] == task_id),
        "no member event names the task"
    );

    // The member's run stopped when its blocker failed the task (it never asked the model again).
    let all = runs(&env);
    let member: Vec<&Value> = all.iter().filter(|r| r["agent"] == "w1").collect();
    assert_eq!(member.len(), 1, "{all:?}");
    assert_eq!(member[0]["status"], "cancelled", "{}", member[0]);
    assert!(
        member[0]["error"]
            .as_str()
            .unwrap()
            .contains("it is failed now"),
        "{}",
        member[0]
    );
    // The lead took three turns: the first, the escalation, the final one.
    let lead: Vec<&Value> = all.iter().filter(|r| r["label"] == "lead").collect();
    assert_eq!(lead.len(), 3, "{all:?}");
    assert_eq!(lead[1]["content"], "I will get the credentials.");
    let t = &tasks(&env, "t2")[0];
    assert_eq!(t["status"], "failed");
    let detail = json(&goclaw(&env, &["tasks", "--as", "lead2", "get", "1"]));
    assert_eq!(detail["result"], "FAILED: Blocked: no credentials for prod");
    // The escalation reached the lead's turn as a team message.
    let session = lead[0]["session"].as_str().unwrap();
    let history = stdout(&goclaw(&env, &["sessions", "history", session]));
    assert!(
        history.contains("[Team message from system:escalation]: [Escalation] Task #1"),
        "{history}"
    );
}
}

/// Waits until `n` members' runs are running.
fn members_running(env: &TestEnv, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let running = runs(env)
            .iter()
            .filter(|r| {
                r["status"] == "running"
                    && r["label"]
                        .as_str()
                        .is_some_and(|l| l.starts_with("member:"))
            })
            .count();
        if running >= n {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{n} members never ran: {:?}",
            runs(env)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

on_both_backends! {
fn ctrl_c_stops_every_member_and_gives_their_tasks_back(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1", "w2"]);
    let mut child = env.spawn(&["--config", "c.toml", "team", "run", "t1", "take all night"]);
    members_running(&env, 2);
    // Give the members' commands a moment to start.
    std::thread::sleep(Duration::from_millis(300));
    let pids: Vec<i64> = runs(&env)
        .iter()
        .filter(|r| r["status"] == "running" && r["label"] != "team:t1")
        .filter_map(|r| {
            let id = r["id"].as_str().unwrap();
            env.sql(&format!("SELECT pid FROM runs WHERE id = '{id}'"))
                .first()
                .and_then(|row| row["pid"].as_i64())
        })
        .collect();
    assert_eq!(pids.len(), 2);
    interrupt(child.id());
    let stopped = Instant::now();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(
        stopped.elapsed() < Duration::from_secs(4),
        "{:?}",
        stopped.elapsed()
    );
    for pid in pids {
        assert!(
            nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), None).is_err(),
            "member process {pid} still runs"
        );
    }
    assert!(
        processes_end_in("sleep 60", env.root()),
        "a member's command outlived it"
    );
    for t in tasks(&env, "t1") {
        assert_eq!(t["status"], "pending", "{t}");
        assert!(t["owner"].is_null(), "{t}");
    }
    assert!(runs(&env).iter().all(|r| r["status"] != "running"));
    // A stop is the user's, not the task's failure: it uses none of the task's
    // max_task_dispatches (three stops would have failed both tasks for good).
    let counts = env.sql("SELECT dispatch_count AS n FROM tasks");
    assert_eq!(counts.len(), 2);
    assert!(counts.iter().all(|r| r["n"] == 0), "{counts:?}");
}
}

on_both_backends! {
fn a_team_runs_id_is_a_run_that_runs_show_wait_and_cancel_take(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1", "w2"]);
    let mut child = env.spawn(&["--config", "c.toml", "team", "run", "t1", "take all night"]);
    members_running(&env, 2);
    let own = runs(&env)
        .into_iter()
        .find(|r| r["label"] == "team:t1")
        .expect("the team run's own row");
    let id = own["id"].as_str().unwrap();
    assert_eq!(own["status"], "running");
    let shown = json(&goclaw(&env, &["runs", "show", id]));
    let labels: Vec<&str> = shown["children"]
        .as_array()
        .unwrap_or_else(|| panic!("{shown}"))
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"lead"), "{shown}");
    assert_eq!(labels.iter().filter(|l| l.starts_with("member:")).count(), 2, "{shown}");
    let o = goclaw(&env, &["runs", "wait", id, "--timeout", "1s"]);
    assert_eq!(code(&o), 7, "still running: {}", stdout(&o));
    // Cancelling it stops the team run as SIGTERM does: every member, the tasks given back.
    let o = goclaw(&env, &["runs", "cancel", id]);
    assert_eq!(json(&o)["cancelled"][0], id);
    let stopped = Instant::now();
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert!(stopped.elapsed() < Duration::from_secs(5), "{:?}", stopped.elapsed());
    // `runs wait` exits as the team run did (it said 130 for a run that ended 143).
    let o = goclaw(&env, &["runs", "wait", id]);
    assert_eq!(code(&o), 143, "{}", stdout(&o));
    assert!(runs(&env).iter().all(|r| r["status"] != "running"));
    for t in tasks(&env, "t1") {
        assert_eq!(t["status"], "pending", "{t}");
    }
}
}

on_both_backends! {
fn a_task_the_team_run_gives_up_is_in_its_report(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1"]);
    let o = goclaw(&env, &["tasks", "--as", "lead", "create", "--subject", "poison"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Three runs on it already ended without ending it (the default max_task_dispatches).
    env.change("UPDATE tasks SET dispatch_count = 3");
    let o = goclaw(&env, &["team", "run", "t1", "answer without tasks"]);
    let doc = assert_error(&o, 1, "failed");
    let failed = doc["details"]["failed"].as_array().expect("the failed tasks");
    assert_eq!(failed.len(), 1, "{doc}");
    assert_eq!(failed[0]["subject"], "poison");
    assert_eq!(failed[0]["status"], "failed");
}
}

/// `team run --events | head -1`: once nobody reads the events, the team run stops as on
/// Ctrl-C (its members ended, their tasks back to pending) and ends quietly with 0.
#[test]
fn a_closed_events_pipe_stops_the_team_run() {
    let Some((_llm, env)) = team_env(Backend::Sqlite) else {
        return;
    };
    team(&env, "t1", "lead", &["w1", "w2"]);
    let mut child = env
        .std_cmd(&[
            "--config",
            "c.toml",
            "team",
            "run",
            "t1",
            "--events",
            "take all night",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // `head -1`: read one line, then close the pipe.
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut out, &mut first).unwrap();
    assert!(first.starts_with('{'), "{first}");
    // Closed while the members work quietly (`sleep 60`): no event would come to meet the
    // closed pipe for a minute; the team run notices the reader gone at once.
    members_running(&env, 2);
    drop(out);
    let closed = Instant::now();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert!(
        closed.elapsed() < Duration::from_secs(10),
        "{:?}",
        closed.elapsed()
    );
    assert!(processes_end_in("sleep 60", env.root()));
    for t in tasks(&env, "t1") {
        assert_eq!(t["status"], "pending", "{t}");
    }
    assert!(runs(&env).iter().all(|r| r["status"] != "running"));
}

on_both_backends! {
fn a_killed_dispatcher_leaves_no_task_in_progress_under_a_dead_owner(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1", "w2"]);
    let mut child = env.spawn(&["--config", "c.toml", "team", "run", "t1", "take all night"]);
    members_running(&env, 2);
    child.kill().unwrap();
    child.wait().unwrap();
    // The members watch their dispatcher: they stop and give their tasks back.
    let deadline = Instant::now() + Duration::from_secs(10);
    while tasks(&env, "t1").iter().any(|t| t["status"] != "pending") {
        assert!(Instant::now() < deadline, "{:?}", tasks(&env, "t1"));
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        processes_end_in("sleep 60", env.root()),
        "a member's command outlived it"
    );
    let o = goclaw(&env, &["tasks", "--as", "lead", "--team", "t1", "recover"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}
}

on_both_backends! {
fn run_task_claims_the_task_and_its_answer_completes_it(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1", "w2"]);
    for subject in ["first", "second"] {
        let o = goclaw(
            &env,
            &[
                "tasks",
                "--as",
                "lead",
                "create",
                "--subject",
                subject,
                "--description",
                "say anything",
            ],
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
    let o = goclaw(&env, &["run", "--agent", "w1", "--task", "#1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let answer = json(&o)["content"].as_str().unwrap().to_string();
    let t = json(&goclaw(&env, &["tasks", "--as", "lead", "get", "1"]));
    assert_eq!(t["status"], "completed");
    assert_eq!(t["owner"], "w1");
    assert_eq!(t["result"], answer.as_str());
    // A task someone else holds is refused before anything runs (exit 6); so is a finished one.
    let o = goclaw(&env, &["tasks", "--as", "w2", "claim", "2"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let before = runs(&env).len();
    let o = goclaw(&env, &["run", "--agent", "w1", "--task", "2"]);
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    let o = goclaw(&env, &["run", "--agent", "w1", "--task", "1"]);
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    assert_eq!(runs(&env).len(), before);
    // The holder itself may run on the task it holds.
    let o = goclaw(
        &env,
        &["run", "--agent", "w2", "--task", "2", "extra words"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        json(&goclaw(&env, &["tasks", "--as", "lead", "get", "2"]))["status"],
        "completed"
    );
}
}

on_both_backends! {
fn team_work_runs_one_members_tasks_until_the_board_is_empty(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1", "w2"]);
    lead_creates(&env, &["one", "two", "three"]);
    goclaw(
        &env,
        &[
            "tasks",
            "--as",
            "lead",
            "create",
            "--subject",
            "for w2",
            "--assignee",
            "w2",
        ],
    );
    let o = goclaw(&env, &["team", "work", "t1", "--agent", "w1"]);
    // The task assigned to w2 is left for w2; what w1 ran completed.
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(json(&o)["tasks"].as_array().unwrap().len(), 3);
    let all = tasks(&env, "t1");
    let done: Vec<&Value> = all.iter().filter(|t| t["status"] == "completed").collect();
    assert_eq!(done.len(), 3, "{all:?}");
    assert!(done.iter().all(|t| t["owner"] == "w1"));
    let o = goclaw(&env, &["team", "work", "t1", "--agent", "w2"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(tasks(&env, "t1").iter().all(|t| t["status"] == "completed"));
}
}

on_both_backends! {
fn a_quality_gate_sends_the_agent_back_until_its_command_passes(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    let o = goclaw(
        &env,
        &[
            "run",
            "--agent",
            "w1",
            "--gate",
            "test -f done.txt",
            "--events",
            "make the gate pass",
        ],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let evs = events(&o);
    let checks: Vec<(i64, bool)> = evs
        .iter()
        .filter(|e| e["type"] == "gate.checked")
        .map(|e| {
            (
                e["attempt"].as_i64().unwrap(),
                e["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(checks, [(1, false), (2, false), (3, true)]);
    assert_eq!(evs.last().unwrap()["content"], "Created done.txt.");
    assert!(env.work().join("done.txt").exists());
    // Each check is a span of the trace.
    let run_id = evs[0]["run_id"].as_str().unwrap();
    let gates = gate_spans(&env, run_id);
    assert_eq!(gates.len(), 3, "{gates:?}");
}
}

on_both_backends! {
fn a_gate_that_keeps_failing_fails_the_run(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    let o = goclaw(
        &env,
        &[
            "run",
            "--agent",
            "w1",
            "--gate",
            "exit 3",
            "--gate-retries",
            "1",
            "make the gate pass",
        ],
    );
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let err = json(&o);
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("quality gate `exit 3` failed after 2 attempts"),
        "{err}"
    );
    // A bad flag is a usage error before anything runs.
    let o = goclaw(
        &env,
        &[
            "run",
            "--agent",
            "w1",
            "--evaluator",
            "critic",
            "--max-rounds",
            "9",
            "x",
        ],
    );
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = goclaw(
        &env,
        &["run", "--agent", "w1", "--gate-agent", "nobody", "x"],
    );
    assert_ne!(code(&o), 0);
}
}

on_both_backends! {
fn the_evaluator_loop_stops_at_approved(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    let o = goclaw(
        &env,
        &[
            "run",
            "--agent",
            "w1",
            "--evaluator",
            "critic",
            "--max-rounds",
            "3",
            "write a slogan",
        ],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let out = json(&o);
    assert_eq!(out["content"], "Slogan v2: agents, piped");
    let rounds = gate_spans(&env, out["run_id"].as_str().unwrap());
    assert_eq!(
        rounds,
        [
            ("evaluator: critic round 1".to_string(), "error".to_string()),
            ("evaluator: critic round 2".to_string(), "ok".to_string())
        ]
    );
    // The critic's runs are children of the run, and checked no gates of their own.
    let all = runs(&env);
    let critics: Vec<&Value> = all.iter().filter(|r| r["agent"] == "critic").collect();
    assert_eq!(critics.len(), 2);
    assert!(critics.iter().all(|c| c["parent_run_id"] == out["run_id"]));
}
}

on_both_backends! {
fn a_reviewer_rejects_a_result_and_the_member_revises_it_with_the_feedback(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    let o = goclaw(
        &env,
        &[
            "team",
            "create",
            "t3",
            "--lead",
            "lead3",
            "--member",
            "w1",
            "--reviewer",
            "rev",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = goclaw(
        &env,
        &["team", "settings", "set", "t3", "require_review", "true"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = goclaw(&env, &["team", "run", "t3", "review the docs"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let report = json(&o);
    assert_eq!(report["answer"], "FINAL: the docs are reviewed.");
    assert_eq!(report["tasks"][0]["result"], "DRAFT v2 with examples");
    let events = stdout(&goclaw(
        &env,
        &["tasks", "--as", "lead3", "--team", "t3", "events", "1"],
    ));
    let kinds: Vec<String> = items_in(&events)
        .iter()
        .filter(|l| ["reviewed", "rejected", "approved"].contains(&l["event"].as_str().unwrap()))
        .map(|l| format!("{} by {}", l["event"].as_str().unwrap(), l["actor"].as_str().unwrap()))
        .collect();
    // The verdicts are in the reviewer's name (they were `system`'s).
    assert_eq!(
        kinds,
        ["reviewed by w1", "rejected by rev", "reviewed by w1", "approved by rev"]
    );
    // The member's second run was told why.
    let all = runs(&env);
    let second = all
        .iter()
        .filter(|r| r["agent"] == "w1")
        .nth(1)
        .unwrap_or_else(|| panic!("{all:?}"));
    let message = env.sql(&format!(
        "SELECT message FROM runs WHERE id = '{}'",
        second["id"].as_str().unwrap()
    ))[0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        message.contains("[Review feedback] Your previous result was rejected: add examples"),
        "{message}"
    );
    assert_eq!(all.iter().filter(|r| r["agent"] == "rev").count(), 2);
}
}

on_both_backends! {
fn team_messages_reach_a_run_for_the_team_and_only_the_lead_gets_team_md(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1", "w2"]);
    let o = goclaw(
        &env,
        &[
            "team",
            "message",
            "send",
            "--as",
            "lead",
            "--to",
            "w1",
            "use the blue paint",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let verbose_run = |agent: &str, message: &str| -> String {
        let o = env
            .cmd(&[
                "--config", "c.toml", "run", "--agent", agent, "--team", "t1", message,
            ])
            .env("GOCLAW_TRACE_VERBOSE", "1")
            .output()
            .unwrap();
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let id = json(&o)["run_id"].as_str().unwrap().to_string();
        goclaw(&env, &["traces", "show", &id])
            .stdout
            .iter()
            .map(|&b| b as char)
            .collect()
    };
    let member = verbose_run("w1", "hello there");
    assert!(
        member.contains("[Team message from lead]: use the blue paint"),
        "{member}"
    );
    assert!(!member.contains("You lead team"), "a member got TEAM.md");
    // Delivered once: it is marked read.
    let inbox = items(&goclaw(&env, &["team", "message", "read", "--as", "w1"]));
    assert!(inbox.is_empty(), "{inbox:?}");
    let lead = verbose_run("lead", "hi lead");
    assert!(lead.contains("You lead team `t1`"), "{lead}");
    assert!(lead.contains("- w1 (member)"), "{lead}");
}
}

on_both_backends! {
fn two_dispatchers_on_one_board_never_run_a_task_twice(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1", "w2", "w3"]);
    for i in 0..6 {
        let subject = format!("chore {i}");
        goclaw(
            &env,
            &["tasks", "--as", "lead", "create", "--subject", &subject],
        );
    }
    let a = env.spawn(&["--config", "c.toml", "team", "run", "t1"]);
    let b = env.spawn(&["--config", "c.toml", "team", "run", "t1"]);
    for c in [a, b] {
        let o = c.wait_with_output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let all = tasks(&env, "t1");
    assert_eq!(all.len(), 6);
    assert!(all.iter().all(|t| t["status"] == "completed"), "{all:?}");
    let members = runs(&env)
        .iter()
        .filter(|r| {
            r["label"]
                .as_str()
                .is_some_and(|l| l.starts_with("member:"))
        })
        .count();
    assert_eq!(members, 6, "a task ran twice");
}
}

on_both_backends! {
fn a_task_with_a_gate_completes_only_once_its_command_passes(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1"]);
    let o = goclaw(
        &env,
        &[
            "tasks",
            "--as",
            "lead",
            "create",
            "--subject",
            "make the gate pass",
            "--gate",
            "test -f done.txt",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = goclaw(&env, &["run", "--agent", "w1", "--task", "1"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let t = json(&goclaw(&env, &["tasks", "--as", "lead", "get", "1"]));
    assert_eq!(t["status"], "completed");
    assert_eq!(t["result"], "Created done.txt.");
    assert_eq!(t["gate"], "test -f done.txt");
    // The gate ran where the member works: its own directory of the team's workspace.
    assert!(env.work().join("teams/t1/w1/done.txt").exists());
}
}

/// What the tools refused in a run's `--events` (its children's refusals relayed too).
fn refused_results(o: &std::process::Output) -> Vec<String> {
    events(o)
        .iter()
        .filter(|e| e["type"] == "tool.result" && e["is_error"] == true)
        .map(|e| e["result"].as_str().unwrap().to_string())
        .collect()
}

/// Task 1 holds its run's own answer, and task 2, which the run tried to claim, still waits.
fn task_1_is_its_runs_and_2_waits(env: &TestEnv, result: &str) {
    let t = json(&goclaw(env, &["tasks", "--as", "lead", "get", "1"]));
    assert_eq!(t["result"], result);
    assert_eq!(
        json(&goclaw(env, &["tasks", "--as", "lead", "get", "2"]))["status"],
        "pending"
    );
}

on_both_backends! {
fn a_members_subagent_cannot_complete_its_task_or_claim_another(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1"]);
    lead_creates(&env, &["cheat through a child", "more work"]);
    let o = goclaw(&env, &["run", "--agent", "w1", "--task", "1", "--events"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let refused = refused_results(&o);
    assert_eq!(refused.len(), 2, "{refused:?}");
    for r in &refused {
        assert!(
            r.contains("you are a subagent of the run working on task T-001"),
            "{r}"
        );
    }
    task_1_is_its_runs_and_2_waits(&env, "THE MEMBER'S OWN RESULT");
}
}

on_both_backends! {
fn a_member_cannot_complete_its_task_by_tool_claim_more_or_act_as_the_lead(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1", "w2"]);
    lead_creates(&env, &["cheat at once", "other work", "become the lead"]);
    let o = goclaw(&env, &["run", "--agent", "w1", "--task", "1", "--events"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let refused = refused_results(&o);
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert!(
        refused[0].contains("your final answer completes it"),
        "{refused:?}"
    );
    assert!(
        refused[1].contains("finish it (answer) before taking another"),
        "{refused:?}"
    );
    task_1_is_its_runs_and_2_waits(&env, "THE REAL RESULT");

    let o = goclaw(&env, &["run", "--agent", "w2", "--task", "3", "--events"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let spawn = events(&o)
        .into_iter()
        .find(|e| e["type"] == "tool.result" && e["name"] == "spawn")
        .unwrap();
    assert_eq!(spawn["is_error"], true);
    assert!(
        spawn["result"]
            .as_str()
            .unwrap()
            .contains("is a member of a team"),
        "{spawn}"
    );
    assert!(runs(&env).iter().all(|r| r["agent"] != "lead"));

    // In a team that requires review, and for a task with a gate, a member cannot complete
    // by hand either; the lead can.
    goclaw(
        &env,
        &[
            "tasks",
            "--as",
            "lead",
            "create",
            "--subject",
            "gated",
            "--gate",
            "true",
        ],
    );
    goclaw(&env, &["tasks", "--as", "w1", "claim", "4"]);
    let o = goclaw(
        &env,
        &["tasks", "--as", "w1", "complete", "4", "--result", "x"],
    );
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("has a quality gate"), "{}", stderr(&o));
    goclaw(
        &env,
        &["team", "settings", "set", "t1", "require_review", "true"],
    );
    goclaw(
        &env,
        &["tasks", "--as", "lead", "create", "--subject", "reviewed"],
    );
    goclaw(&env, &["tasks", "--as", "w2", "claim", "5"]);
    let o = goclaw(
        &env,
        &["tasks", "--as", "w2", "complete", "5", "--result", "x"],
    );
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let o = goclaw(
        &env,
        &["tasks", "--as", "w2", "review", "5", "--result", "the work"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let t = json(&goclaw(&env, &["tasks", "--as", "lead", "get", "5"]));
    assert_eq!(
        (t["status"].as_str(), t["result"].as_str()),
        (Some("in_review"), Some("the work"))
    );
}
}

on_both_backends! {
fn a_task_whose_runs_never_start_fails_after_its_dispatches(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    // w3's provider needs a key nobody set: its runs fail before they start.
    let mut c = std::fs::read_to_string(env.work().join("c.toml")).unwrap();
    c = c.replace(
        "[agents.w3]\nprovider = \"fake\"",
        "[agents.w3]\nprovider = \"nokey\"",
    );
    c.push_str("\n[providers.nokey]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:9/v1\"\napi_key_env = \"GOCLAW_TEST_NO_SUCH_KEY\"\nmodel = \"m\"\n");
    env.write("c.toml", c);
    team(&env, "t1", "lead", &["w3"]);
    goclaw(
        &env,
        &["tasks", "--as", "lead", "create", "--subject", "never"],
    );
    let started = Instant::now();
    let o = goclaw(&env, &["team", "run", "t1", "--timeout", "60s"]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let t = json(&goclaw(&env, &["tasks", "--as", "lead", "get", "1"]));
    assert_eq!(t["status"], "failed", "{t}");
    assert!(t["dispatch_count"].as_i64().unwrap() <= 3, "{t}");
}
}

/// A lead whose provider does not answer fails the team run as the lead's run fails: 8.
#[test]
fn a_lead_whose_provider_fails_is_an_upstream_failure() {
    let Some((_llm, env)) = team_env(Backend::Sqlite) else {
        return;
    };
    let mut c = std::fs::read_to_string(env.work().join("c.toml")).unwrap();
    c = c.replace(
        "[agents.lead]\nprovider = \"fake\"",
        "[agents.lead]\nprovider = \"dead\"",
    );
    c.push_str("\n[providers.dead]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n");
    env.write("c.toml", c);
    team(&env, "t1", "lead", &["w1"]);
    let o = goclaw(&env, &["team", "run", "t1", "--timeout", "60s", "plan it"]);
    assert_eq!(code(&o), 8, "{}{}", stdout(&o), stderr(&o));
    // `runs wait` exits as each run did (the team run's and its lead's two turns), not 1 for
    // any failure.
    let all = runs(&env);
    assert_eq!(all.len(), 3, "{all:?}");
    for r in all {
        let id = r["id"].as_str().unwrap();
        assert_eq!(r["exit_code"], 8, "{r}");
        let o = goclaw(&env, &["runs", "wait", id]);
        assert_eq!(code(&o), 8, "{r}: {}", stderr(&o));
    }
}

on_both_backends! {
fn a_team_message_reaches_a_running_member_at_its_next_iteration(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1"]);
    let member = env.spawn(&[
        "--config",
        "c.toml",
        "run",
        "--agent",
        "w1",
        "--team",
        "t1",
        "wait for news",
    ]);
    // While its command runs, the lead writes to it.
    std::thread::sleep(Duration::from_millis(700));
    let o = goclaw(
        &env,
        &[
            "team", "message", "send", "--as", "lead", "--to", "w1", "hurry up",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = member.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["content"], "GOT THE NEWS");
}
}

on_both_backends! {
fn an_agents_quality_gates_apply_and_a_reviewers_own_do_not(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    // w2 must create done.txt; the critic has a gate that can never pass, which its runs as a
    // reviewer skip (the recursion guard).
    let mut c = std::fs::read_to_string(env.work().join("c.toml")).unwrap();
    c.push_str("\n[[agents.w2.quality_gates]]\ncommand = \"test -f done.txt\"\n");
    c.push_str("\n[[agents.critic.quality_gates]]\ncommand = \"false\"\nmax_retries = 0\n");
    env.write("c.toml", c);
    let o = goclaw(&env, &["run", "--agent", "w2", "make the gate pass"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let out = json(&o);
    assert_eq!(out["content"], "Created done.txt.");
    assert_eq!(gate_spans(&env, out["run_id"].as_str().unwrap()).len(), 3);
    let o = goclaw(
        &env,
        &[
            "run",
            "--agent",
            "w1",
            "--gate-agent",
            "critic",
            "write a slogan",
        ],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert_eq!(json(&o)["content"], "Slogan v2: agents, piped");
}
}

/// Machines sharing a PostgreSQL store are woken by it (LISTEN/NOTIFY), not by polling: a
/// `team message wait` on one machine returns as soon as another machine sends, and a watching
/// dispatcher on one machine claims a task another machine created within a second, though
/// both have been idle long enough to be in their longest pause between looks.
#[test]
fn machines_are_woken_at_once_by_a_message_or_a_task_from_another() {
    let Some((_llm, here)) = team_env(Backend::Postgres) else {
        return;
    };
    let Some(pg) = here.pg() else { return };
    team(&here, "t1", "lead", &["w1"]);
    // Another machine: its own home and workspace, the same URL and config.
    let there = TestEnv::new();
    std::fs::copy(here.work().join("c.toml"), there.work().join("c.toml")).unwrap();
    let on_there = |args: &[&str]| {
        let mut all = vec!["--config", "c.toml"];
        all.extend_from_slice(args);
        there
            .cmd(&all)
            .env("GOCLAW_DB", pg.url())
            .env("PGPASSWORD", &pg.server.password)
            .output()
            .unwrap()
    };

    let waiter = here.spawn(&[
        "--config",
        "c.toml",
        "team",
        "message",
        "wait",
        "--as",
        "w1",
        "--timeout",
        "30",
    ]);
    std::thread::sleep(Duration::from_secs(4));
    let o = on_there(&[
        "team",
        "message",
        "send",
        "--as",
        "lead",
        "--to",
        "w1",
        "hello there",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let sent = Instant::now();
    let o = waiter.wait_with_output().unwrap();
    let woken = sent.elapsed();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("hello there"), "{}", stdout(&o));
    assert!(woken < Duration::from_secs(1), "woken after {woken:?}");

    let mut dispatcher = here.spawn(&["--config", "c.toml", "team", "run", "t1", "--watch"]);
    std::thread::sleep(Duration::from_secs(3));
    let o = on_there(&[
        "tasks",
        "--as",
        "lead",
        "create",
        "--subject",
        "write a slogan",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let created = Instant::now();
    while tasks(&here, "t1").iter().all(|t| t["status"] == "pending") {
        assert!(
            created.elapsed() < Duration::from_secs(1),
            "not claimed within a second: {:?}",
            tasks(&here, "t1")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    interrupt(dispatcher.id());
    dispatcher.wait().unwrap();
}

on_both_backends! {
/// A task the lead posted for approval and left waiting is undone work: the team run does not
/// end `completed` (exit 0) over it. A member's request waiting for the lead is not the run's.
fn a_task_left_waiting_for_approval_is_not_completed(backend) {
    let Some((_llm, env)) = team_env(backend) else {
        return;
    };
    team(&env, "t1", "lead", &["w1"]);
    goclaw(
        &env,
        &["team", "settings", "set", "t1", "member_requests.enabled", "true"],
    );
    let o = goclaw(
        &env,
        &["tasks", "--as", "w1", "create", "--subject", "may I", "--request"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = goclaw(&env, &["team", "run", "t1"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let o = goclaw(
        &env,
        &[
            "tasks",
            "--as",
            "lead",
            "create",
            "--subject",
            "approve me",
            "--require-approval",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = goclaw(&env, &["team", "run", "t1"]);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("T-002"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("T-001"), "{}", stderr(&o));
}
}

/// Board changes a model makes in one response run in call order: a chain of tasks, each
/// blocked by the one posted just before it, is posted whole and numbered in call order (in
/// parallel, `blocked_by: ["#1"]` failed at random: "#1" did not exist yet).
#[test]
fn calls_that_build_on_each_other_run_in_call_order() {
    for _ in 0..3 {
        let Some((_llm, env)) = team_env(Backend::Sqlite) else {
            return;
        };
        team(&env, "t1", "lead", &["w1"]);
        let o = goclaw(&env, &["run", "--agent", "lead", "plan in order"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let chain: Vec<(String, Vec<Value>)> = tasks(&env, "t1")
            .iter()
            .map(|t| {
                let id = t["identifier"].as_str().unwrap().to_string();
                let full = json(&goclaw(&env, &["tasks", "--as", "lead", "get", &id]));
                (
                    full["subject"].as_str().unwrap().to_string(),
                    full["blocked_by"].as_array().cloned().unwrap_or_default(),
                )
            })
            .collect();
        let subjects: Vec<&str> = chain.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(
            subjects,
            ["chain one", "chain two", "chain three", "chain four"]
        );
        for (i, (_, blocked_by)) in chain.iter().enumerate().skip(1) {
            assert_eq!(blocked_by.len(), 1, "{chain:?}");
            assert!(
                blocked_by[0]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("T-00{i}")),
                "{chain:?}"
            );
        }
    }
}

/// A member whose process keeps dying uses up the task's dispatches, and the team run fails
/// the task itself (it was left in progress under the last dead run: recovery took the run's
/// end for a dead claim, and with nothing written after it, that was rolled back too).
#[test]
fn a_task_whose_member_keeps_dying_fails_when_its_dispatches_are_used_up() {
    let Some((_llm, env)) = team_env(Backend::Sqlite) else {
        return;
    };
    team(&env, "t1", "lead", &["w1"]);
    lead_creates(&env, &["count the stars"]);
    let child = env.spawn(&["--config", "c.toml", "team", "run", "t1"]);
    let mut killed = std::collections::HashSet::new();
    for _ in 0..3 {
        let deadline = Instant::now() + Duration::from_secs(20);
        let pid = loop {
            let running = env
                .sql("SELECT id, pid FROM runs WHERE status = 'running' AND label = 'member:w1'");
            if let Some(r) = running
                .iter()
                .find(|r| !killed.contains(r["id"].as_str().unwrap()))
            {
                killed.insert(r["id"].as_str().unwrap().to_string());
                break r["pid"].as_i64().unwrap();
            }
            assert!(Instant::now() < deadline, "no member ran");
            std::thread::sleep(Duration::from_millis(50));
        };
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        )
        .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let t = json(&goclaw(&env, &["tasks", "--as", "lead", "get", "1"]));
    assert_eq!(t["status"], "failed", "{t}");
    assert!(stderr(&o).contains("(failed)"), "{}", stderr(&o));
    assert!(processes_end_in("sleep 60", env.root()));
}

/// A gate whose command the agent's policy denies ends the run as denied (exit 3), and it is
/// recorded so: `runs wait` exits as the run did (it said failed, exit 1).
#[test]
fn a_gate_the_policy_denies_is_a_denied_run_for_runs_wait_too() {
    let Some((_llm, env)) = team_env(Backend::Sqlite) else {
        return;
    };
    let mut c = std::fs::read_to_string(env.work().join("c.toml")).unwrap();
    c.push_str("\n[agents.w1.tools]\ndeny = [\"group:runtime\"]\n");
    env.write("c.toml", c);
    let o = goclaw(
        &env,
        &[
            "run",
            "--agent",
            "w1",
            "--gate",
            "true",
            "make the gate pass",
        ],
    );
    assert_eq!(code(&o), 3, "{}{}", stdout(&o), stderr(&o));
    let run_id = json(&o)["error"]["details"]["run_id"]
        .as_str()
        .unwrap()
        .to_string();
    let o = goclaw(&env, &["runs", "wait", &run_id]);
    assert_eq!(code(&o), 3, "{}{}", stdout(&o), stderr(&o));
}

/// A dispatcher kept running (`team work --watch`) outlives its store connection: the server
/// ends every goclaw session and refuses new ones for a while (as a restart or a failover
/// does); the dispatcher connects again, says so in its events, and works the task posted
/// meanwhile. It ended with exit 8 at the first lost statement, its team-run row left running.
#[test]
fn a_watching_dispatcher_connects_again_when_the_server_drops_it() {
    let Some((_llm, env)) = team_env(Backend::Postgres) else {
        return;
    };
    let Some(pg) = env.pg() else { return };
    team(&env, "t1", "lead", &["w1"]);
    let mut dispatcher = env.spawn(&[
        "--config", "c.toml", "team", "work", "t1", "--agent", "w1", "--watch", "--events",
    ]);
    std::thread::sleep(Duration::from_secs(2));
    let database = &pg.name;
    pg.psql(
        "postgres",
        &format!("ALTER DATABASE \"{database}\" ALLOW_CONNECTIONS false"),
    );
    let dropped = pg.psql(
        "postgres",
        &format!(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE datname = '{database}' AND application_name = 'goclaw'"
        ),
    );
    assert_ne!(dropped, "0", "the dispatcher had no session to drop");
    std::thread::sleep(Duration::from_secs(2));
    pg.psql(
        "postgres",
        &format!("ALTER DATABASE \"{database}\" ALLOW_CONNECTIONS true"),
    );
    lead_creates(&env, &["write a slogan"]);
    let posted = Instant::now();
    while tasks(&env, "t1")[0]["status"] != "completed" {
        assert!(
            posted.elapsed() < Duration::from_secs(30),
            "not done: {:?}",
            tasks(&env, "t1")
        );
        assert!(
            dispatcher.try_wait().unwrap().is_none(),
            "the dispatcher ended: {}",
            stderr(&dispatcher.wait_with_output().unwrap())
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    interrupt(dispatcher.id());
    let o = dispatcher.wait_with_output().unwrap();
    assert_eq!(code(&o), 130, "{}", stderr(&o));
    let kinds: Vec<String> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["type"].to_string())
        .collect();
    let at = |kind: &str| kinds.iter().position(|k| k == &format!("\"{kind}\""));
    let (lost, back, done) = (
        at("team.disconnected"),
        at("team.reconnected"),
        at("task.completed"),
    );
    assert!(
        lost.is_some() && lost < back && back < done,
        "{kinds:?}\n{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("connected to the store again"),
        "{}",
        stderr(&o)
    );
    let team_run = runs(&env)
        .into_iter()
        .find(|r| r["label"] == "team:t1")
        .unwrap();
    assert_eq!(team_run["status"], "cancelled", "{team_run}");
}

/// A run that has its task and has not written its run row yet (it takes the task first, then
/// starts its MCP servers and provider) still has it: a second `run --task` on the task is
/// refused (exit 6) for the start-up grace, not given it (both worked on it, one in vain).
#[test]
fn a_task_a_starting_run_holds_is_not_taken_by_another_run() {
    let Some((_llm, env)) = team_env(Backend::Sqlite) else {
        return;
    };
    team(&env, "t1", "lead", &["w1"]);
    lead_creates(&env, &["write a slogan"]);
    assert_eq!(
        code(&goclaw(&env, &["tasks", "--as", "w1", "claim", "1"])),
        0
    );
    // As a run that took it a moment ago leaves it: its id on the task, no row of its own yet.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let starting = |locked_at: i64| {
        rusqlite::Connection::open(env.db())
            .unwrap()
            .execute(
                "UPDATE tasks SET run_id = 'starting-run', locked_at = ?1",
                [locked_at],
            )
            .unwrap();
    };
    starting(now);
    let o = goclaw(&env, &["run", "--agent", "w1", "--task", "1"]);
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    assert!(stderr(&o).contains("starting-run"), "{}", stderr(&o));
    // One that never started past the grace has lost it.
    starting(now - 31_000);
    let o = goclaw(&env, &["run", "--agent", "w1", "--task", "1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(tasks(&env, "t1")[0]["status"], "completed");
}

/// One task per member at a time holds across dispatchers: two `team work` loops for the same
/// member on one board run it on one task after another (each took it for a task of its own,
/// and the member worked on two at once in one directory).
#[test]
fn two_dispatchers_run_a_member_on_one_task_at_a_time() {
    let Some((_llm, env)) = team_env(Backend::Sqlite) else {
        return;
    };
    team(&env, "t1", "lead", &["w1"]);
    lead_creates(
        &env,
        &["research alpha", "build beta", "build gamma", "write delta"],
    );
    let work = ["--config", "c.toml", "team", "work", "t1", "--agent", "w1"];
    let (a, b) = (env.spawn(&work), env.spawn(&work));
    for c in [a, b] {
        let o = c.wait_with_output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert!(tasks(&env, "t1").iter().all(|t| t["status"] == "completed"));
    let mut spans: Vec<(i64, i64)> = runs(&env)
        .iter()
        .filter(|r| {
            r["label"]
                .as_str()
                .is_some_and(|l| l.starts_with("member:"))
        })
        .map(|r| (ms(r, "started_at"), ms(r, "ended_at")))
        .collect();
    spans.sort();
    assert_eq!(spans.len(), 4, "{spans:?}");
    // Each run starts once the one before has ended (its task ends a moment before its row).
    for w in spans.windows(2) {
        assert!(w[1].0 >= w[0].1 - 300, "member runs overlapped: {spans:?}");
    }
}
