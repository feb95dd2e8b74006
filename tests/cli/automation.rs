//! Time and cron tools (group `automation`).

use serde_json::Value;

use crate::util::*;

on_both_backends! {
fn datetime_reports_utc_and_a_named_zone(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let o = env.run(&[
        "tools",
        "exec",
        "datetime",
        r#"{"timezone":"Europe/Paris"}"#,
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let doc: Value = serde_json::from_str(json(&o)["result"]["for_llm"].as_str().unwrap()).unwrap();
    assert!(doc["utc"].as_str().unwrap().ends_with('Z'), "{doc}");
    assert!(doc["unix_ms"].as_i64().unwrap() > 1_700_000_000_000);
    assert_eq!(doc["timezone"], "Europe/Paris");
    let local = doc["local"].as_str().unwrap();
    assert!(
        local.ends_with("+01:00") || local.ends_with("+02:00"),
        "{local}"
    );
    let o = env.run(&[
        "tools",
        "exec",
        "datetime",
        r#"{"timezone":"Nowhere/Land"}"#,
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("invalid timezone 'Nowhere/Land'"),
        "{}",
        stdout(&o)
    );
    // In the automation group, so a policy can name it that way.
    let o = env.run(&["policy", "explain", "--tool", "datetime"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}
}

/// `goclaw cron tick`, for the exit code and the report (a failed tick's is in its error
/// document's details, and its `error:` line names each failed job).
fn tick(env: &TestEnv) -> (i32, Value) {
    let o = env.run(&["cron", "tick"]);
    let doc = json(&o);
    if code(&o) == 1 {
        let line = stderr(&o);
        assert!(
            line.starts_with("error: ") && line.contains("failed: job "),
            "{line}"
        );
        return (1, doc["error"]["details"].clone());
    }
    (code(&o), doc)
}

/// Waits until the job `name` is due.
fn wait_due(env: &TestEnv, name: &str) {
    for _ in 0..100 {
        let jobs = list(&env.run(&["cron", "list"]));
        let job = jobs
            .as_array()
            .unwrap()
            .iter()
            .find(|j| j["name"] == name)
            .unwrap()
            .clone();
        if job["next_run_ms"].as_i64().unwrap() <= chrono_ms() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("{name} never became due");
}

fn chrono_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

on_both_backends! {
fn overlapping_ticks_run_a_due_job_once(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let at = (chrono_ms() + 1500).to_string();
    let o = env.run(&[
        "cron",
        "add",
        "slow",
        "--at",
        &at,
        "--tool",
        "exec",
        "--args",
        r#"{"command":"sleep 1; echo ran >> ticks.log"}"#,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // A tool that does not exist is not found (5), before any policy is asked.
    let o = env.run(&["cron", "add", "bad", "--every", "1h", "--tool", "no_such_tool"]);
    assert_error(&o, 5, "not_found");
    wait_due(&env, "slow");
    let ticks: Vec<_> = (0..4).map(|_| env.spawn(&["cron", "tick"])).collect();
    let outs: Vec<_> = ticks
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    for o in &outs {
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let log = std::fs::read_to_string(env.work().join("ticks.log")).unwrap();
    assert_eq!(log, "ran\n", "the job ran once");
    let ran: usize = outs
        .iter()
        .map(|o| {
            serde_json::from_slice::<Value>(&o.stdout).unwrap()["ran"]
                .as_array()
                .unwrap()
                .len()
        })
        .sum();
    assert_eq!(ran, 1);
    let runs = list(&env.run(&["cron", "runs", "slow"]));
    assert_eq!(runs.as_array().unwrap().len(), 1);
    assert_eq!(runs[0]["status"], "ok");
    // A one-shot job is off once it ran.
    let (c, report) = tick(&env);
    assert_eq!((c, report["ran"].as_array().unwrap().len()), (0, 0));
    assert_eq!(list(&env.run(&["cron", "list"]))[0]["enabled"], false);
}
}

on_both_backends! {
fn the_run_action_starts_the_job_in_the_background(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let o = env.run(&[
        "cron",
        "add",
        "later",
        "--every",
        "1h",
        "--tool",
        "exec",
        "--args",
        r#"{"command":"echo now >> run.log"}"#,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (c, text) = tool_text(&env.run(&[
        "tools",
        "exec",
        "cron",
        r#"{"action":"run","jobId":"later"}"#,
    ]));
    assert_eq!(c, 0, "{text}");
    assert!(text.contains("\"started\": true"), "{text}");
    for _ in 0..50 {
        let runs = list(&env.run(&["cron", "runs", "later"]));
        if runs[0]["status"] == "ok" {
            assert_eq!(
                std::fs::read_to_string(env.work().join("run.log")).unwrap(),
                "now\n"
            );
            // Its schedule moved on: not due again for an hour.
            let next = list(&env.run(&["cron", "list"]))[0]["next_run_ms"]
                .as_i64()
                .unwrap();
            assert!(next > chrono_ms() + 30 * 60_000, "{next}");
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("the job did not run");
}
}

on_both_backends! {
fn a_failing_job_is_recorded_as_failed_with_its_reason(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let o = env.run(&[
        "cron",
        "add",
        "broken",
        "--every",
        "1s",
        "--tool",
        "exec",
        "--args",
        r#"{"command":"echo oops >&2; exit 3"}"#,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    wait_due(&env, "broken");
    let (c, report) = tick(&env);
    assert_eq!(c, 1, "a failed job makes the tick exit 1: {report}");
    assert_eq!(report["ran"][0]["status"], "failed");
    let runs = list(&env.run(&["cron", "runs", "broken"]));
    assert_eq!(runs[0]["status"], "failed");
    assert!(
        runs[0]["error"].as_str().unwrap().contains("oops"),
        "{runs}"
    );
    let jobs = list(&env.run(&["cron", "list"]));
    assert_eq!(jobs[0]["last_status"], "failed");
    // An agent-run job whose provider is missing fails too, with the reason.
    let o = env.run(&[
        "cron",
        "add",
        "no-llm",
        "--every",
        "1s",
        "--message",
        "hello",
    ]);
    assert_eq!(code(&o), 0);
    wait_due(&env, "no-llm");
    let (c, _) = tick(&env);
    assert_eq!(c, 1);
    let runs = list(&env.run(&["cron", "runs", "no-llm"]));
    assert_eq!(runs[0]["status"], "failed");
    assert!(
        runs[0]["error"].as_str().unwrap().contains("exit 2"),
        "{runs}"
    );
    // A run that started and failed (its provider is down): the job's run names it.
    std::fs::write(
        env.home().join("config.toml"),
        "[providers.down]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:1/v1\"\n\
         model = \"m\"\n\n[agents.default]\nprovider = \"down\"\n",
    )
    .unwrap();
    wait_due(&env, "no-llm");
    let (c, report) = tick(&env);
    assert_eq!(c, 1, "{report}");
    let runs = list(&env.run(&["cron", "runs", "no-llm"]));
    let run_id = runs[0]["run_id"].as_str().expect("the failed run's id");
    let error = runs[0]["error"].as_str().unwrap();
    assert!(error.contains("run ended failed"), "{runs}");
    // The provider's URL said once, then the causes.
    assert_eq!(error.matches("127.0.0.1:1/v1").count(), 1, "{error}");
    assert!(error.contains("Connection refused"), "{error}");
    let shown = json(&env.run(&["runs", "show", run_id]));
    assert_eq!(shown["run"]["status"], "failed", "{shown}");
}
}

on_both_backends! {
fn a_job_never_does_more_than_its_creator_could(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let rec = env.root().join("r.jsonl");
    let exec_call = serde_json::json!({"response": {"content": "", "finish_reason": "tool_calls",
        "tool_calls": [{"id": "c0", "name": "exec", "arguments": {"command": "touch escaped"}}]}});
    let done = serde_json::json!({"response": {"content": "done", "finish_reason": "stop"}});
    std::fs::write(&rec, format!("{exec_call}\n{done}\n")).unwrap();
    let limited = |deny: &str| {
        std::fs::write(
            env.home().join("config.toml"),
            format!(
                "[agents.limited]\nprovider = \"replay:{}\"\n[agents.limited.tools]\ndeny = [{deny}]\n",
                rec.display()
            ),
        )
        .unwrap();
    };
    limited("\"exec\"");
    // The command line refuses a tool job the agent may not run.
    let o = env.run(&[
        "cron",
        "add",
        "sneaky",
        "--every",
        "1s",
        "--agent",
        "limited",
        "--tool",
        "exec",
        "--args",
        r#"{"command":"touch escaped"}"#,
    ]);
    assert_error(&o, 3, "denied");
    // So does the cron tool, called by the agent.
    let o = env.run(&[
        "tools", "exec", "cron", "--agent", "limited",
        r#"{"action":"add","job":{"name":"sneaky","schedule":{"kind":"every","everyMs":1000},"tool":"exec","args":{"command":"touch escaped"}}}"#,
    ]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("not a tool you may use"),
        "{}",
        stdout(&o)
    );
    // An agent-run job made now keeps the list without exec, even after exec is allowed.
    let o = env.run(&[
        "tools", "exec", "cron", "--agent", "limited",
        r#"{"action":"add","job":{"name":"chat","schedule":{"kind":"every","everyMs":1000},"message":"tidy up"}}"#,
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    limited("");
    wait_due(&env, "chat");
    let (c, report) = tick(&env);
    assert_eq!(c, 0, "{report}");
    assert!(!env.work().join("escaped").exists(), "exec ran");
    let history = stdout(&env.run(&["tools", "history", "--tool", "exec"]));
    assert!(history.contains("\"outcome\":\"denied\""), "{history}");
    assert!(history.contains("removed at step 14 (ceiling"), "{history}");
}
}

on_both_backends! {
fn the_cron_tool_manages_only_the_callers_jobs(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    std::fs::write(env.home().join("config.toml"), "[agents.a]\n[agents.b]\n").unwrap();
    let call = |agent: &str, args: &str| {
        tool_text(&env.run(&["tools", "exec", "cron", args, "--agent", agent]))
    };
    let (c, text) = call(
        "a",
        r#"{"action":"add","job":{"name":"report","schedule":{"kind":"cron","expr":"0 9 * * 1-5","tz":"Europe/Paris"},"message":"weekly report"}}"#,
    );
    assert_eq!(c, 0, "{text}");
    let job: Value = serde_json::from_str(&text).unwrap();
    let id = job["job"]["id"].as_i64().unwrap();
    assert!(job["job"]["next_run_ms"].as_i64().unwrap() > chrono_ms());
    let (_, text) = call("a", r#"{"action":"list"}"#);
    assert!(text.contains("\"count\": 1"), "{text}");
    let (_, text) = call("b", r#"{"action":"list"}"#);
    assert!(text.contains("\"count\": 0"), "{text}");
    let (c, text) = call("b", &format!(r#"{{"action":"remove","jobId":{id}}}"#));
    assert_eq!(
        (c, text.as_str()),
        (5, format!("job {id} not found").as_str())
    );
    let (c, text) = call(
        "a",
        &format!(
            r#"{{"action":"update","jobId":"{id}","patch":{{"schedule":{{"kind":"every","everyMs":60000}}}}}}"#
        ),
    );
    assert_eq!(c, 0, "{text}");
    assert!(text.contains("\"every_ms\": 60000"), "{text}");
    let (_, text) = call("a", r#"{"action":"status"}"#);
    assert!(text.contains("\"jobs\": 1"), "{text}");
    let (_, text) = call("a", &format!(r#"{{"action":"runs","jobId":{id}}}"#));
    assert!(text.contains("\"count\": 0"), "{text}");
    let (c, text) = call(
        "a",
        r#"{"action":"add","job":{"name":"x","schedule":{"kind":"at","atMs":1000},"message":"m"}}"#,
    );
    assert_eq!(c, 1);
    assert!(
        text.starts_with("job.schedule.atMs is in the past (1000)."),
        "{text}"
    );
    let (_, text) = call(
        "a",
        r#"{"action":"add","job":{"name":"x","schedule":{"kind":"hourly"},"message":"m"}}"#,
    );
    assert_eq!(
        text,
        "invalid schedule kind: hourly (must be at, every, or cron)"
    );
    let (c, text) = call("a", r#"{"action":"explode"}"#);
    assert_eq!(c, 2, "the schema names the actions: {text}");
    let (c, _) = call("a", &format!(r#"{{"action":"remove","jobId":{id}}}"#));
    assert_eq!(c, 0);
}
}

on_both_backends! {
fn cron_add_checks_its_input_and_the_daemon_stops_on_sigterm(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let o = env.run(&["cron", "add", "x", "--cron", "61 * * * *", "--message", "m"]);
    assert_error(&o, 2, "usage");
    let o = env.run(&[
        "cron",
        "add",
        "x",
        "--at",
        "2001-01-01T00:00:00Z",
        "--message",
        "m",
    ]);
    let e = assert_error(&o, 2, "usage");
    assert_eq!(e["message"], "--at 2001-01-01T00:00:00Z is in the past");
    for far in ["99999999999999999999", "9223372036854775807"] {
        let o = env.run(&["cron", "add", "x", "--at", far, "--message", "m"]);
        let e = assert_error(&o, 2, "usage");
        assert_eq!(e["message"], format!("--at {far} is past the year 9999"));
    }
    // The flags' own words, not the tool's JSON fields.
    let o = env.run(&["cron", "add", "x", "--every", "500ms", "--tool", "datetime"]);
    let e = assert_error(&o, 2, "usage");
    assert_eq!(e["message"], "--every 500ms: the shortest interval is 1s");
    let o = env.run(&["cron", "add", "x", "--every", "5m"]);
    assert_error(&o, 2, "usage");
    let o = env.run(&[
        "cron",
        "add",
        "x",
        "--cron",
        "*/5 * * * *",
        "--tz",
        "Asia/Ho_Chi_Minh",
        "--tool",
        "datetime",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let next = json(&o)["next_run_ms"].as_i64().unwrap();
    assert_eq!(next % 300_000, 0, "on a five-minute boundary");
    let o = env.run(&["cron", "add", "x", "--every", "5m", "--tool", "datetime"]);
    assert_error(&o, 6, "conflict");

    let o = env.run(&["cron", "add", "beat", "--every", "1s", "--tool", "datetime"]);
    assert_eq!(code(&o), 0);
    let mut daemon = env.spawn(&["cron", "daemon", "--interval", "1s"]);
    let mut ran = false;
    for _ in 0..50 {
        std::thread::sleep(std::time::Duration::from_millis(200));
        let runs = list(&env.run(&["cron", "runs", "beat"]));
        if runs.as_array().is_some_and(|r| !r.is_empty()) {
            ran = true;
            break;
        }
    }
    nix_kill(daemon.id(), "TERM");
    let status = daemon.wait().unwrap();
    assert!(ran, "the daemon ran the job");
    assert_eq!(status.code(), Some(0));
    let runs = list(&env.run(&["cron", "runs", "beat"]));
    assert_eq!(runs[0]["status"], "ok");
}
}

fn nix_kill(pid: u32, sig: &str) {
    std::process::Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status()
        .unwrap();
}

/// Adds `stuck`, an hourly exec job that sleeps 31 s unless the workspace holds `go`.
fn add_stuck_job(env: &TestEnv) {
    let o = env.run(&[
        "cron",
        "add",
        "stuck",
        "--every",
        "1h",
        "--tool",
        "exec",
        "--args",
        r#"{"command":"test -f go || sleep 31; echo done >> stuck.log"}"#,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// `cron tick --force stuck`, started and waited for until its job's command sleeps.
fn tick_stuck(env: &TestEnv) -> std::process::Child {
    let tick = env.spawn(&["cron", "tick", "--force", "stuck"]);
    wait_for_descendant(tick.id(), "sleep 31");
    tick
}

on_both_backends! {
fn a_signal_stops_the_tick_and_its_job_which_is_recorded_with_its_lease_freed(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    add_stuck_job(&env);
    for (sig, exit, name) in [
        ("INT", 130, "interrupted"),
        ("TERM", 143, "terminated"),
        ("HUP", 129, "hangup"),
    ] {
        let tick = tick_stuck(&env);
        let asked = std::time::Instant::now();
        nix_kill(tick.id(), sig);
        let o = tick.wait_with_output().unwrap();
        assert!(asked.elapsed() < std::time::Duration::from_secs(4), "{:?}", asked.elapsed());
        let doc = assert_error(&o, exit, name);
        assert_eq!(
            doc["message"],
            "stopped while job 1 (stuck) ran; it is recorded as failed"
        );
        let ran = &doc["details"]["ran"];
        assert_eq!(ran.as_array().unwrap().len(), 1, "{doc}");
        assert_eq!(ran[0]["status"], "failed");
        let runs = list(&env.run(&["cron", "runs", "stuck"]));
        assert_eq!(runs[0]["status"], "failed", "{runs}");
        let error = runs[0]["error"].as_str().unwrap();
        assert!(error.contains(&format!("SIG{sig}")), "{error}");
        assert!(processes_end_in("sleep 31", &env.work()));
    }
    // For people, the stopped job's line on stdout and the error on stderr.
    let tick = env.spawn(&["cron", "tick", "--force", "stuck", "--human"]);
    wait_for_descendant(tick.id(), "sleep 31");
    nix_kill(tick.id(), "INT");
    let o = tick.wait_with_output().unwrap();
    assert_eq!(code(&o), 130);
    assert!(stdout(&o).starts_with("job 1 stuck: failed"), "{}", stdout(&o));
    assert!(stderr(&o).starts_with("error: stopped while job 1"), "{}", stderr(&o));
    // The lease is free: the job runs at once, not "running in another tick".
    env.write("go", "");
    let o = env.run(&["cron", "tick", "--force", "stuck"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let log = std::fs::read_to_string(env.work().join("stuck.log")).unwrap();
    assert_eq!(log, "done\n", "the stopped runs never got to their end");
}
}

on_both_backends! {
fn the_lease_of_a_killed_tick_is_freed_by_the_next_tick_on_its_host(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    add_stuck_job(&env);
    let mut tick = tick_stuck(&env);
    let pid = tick.id();
    tick.kill().unwrap();
    tick.wait().unwrap();
    assert!(processes_end_in("sleep 31", &env.work()));
    env.write("go", "");
    let o = env.run(&["cron", "tick", "--force", "stuck"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let runs = list(&env.run(&["cron", "runs", "stuck"]));
    assert_eq!(runs[0]["status"], "ok", "{runs}");
    assert_eq!(runs[1]["status"], "failed", "{runs}");
    assert_eq!(
        runs[1]["error"],
        format!("abandoned: the tick running it (pid {pid}) ended before the job did")
    );
}
}

on_both_backends! {
fn a_signal_to_the_tick_cancels_the_run_of_an_agent_job(backend) {
    let Some(llm) = crate::run::llmock() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[providers.mock]\nkind = \"openai\"\nbase_url = \"{}/v1\"\nmodel = \"gpt-4o\"\n\n\
             [agents.default]\nprovider = \"mock\"\n",
            llm.base
        ),
    )
    .unwrap();
    llm.scenario(serde_json::json!([
        {"type": "stream_fault", "kind": "stall", "after_chunks": 1, "stall_seconds": 30}
    ]));
    let o = env.run(&["cron", "add", "chat", "--every", "1h", "--message", "hello, stall"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let tick = env.spawn(&["cron", "tick", "--force", "chat"]);
    // The child run has started when the store holds it.
    let mut started = false;
    for _ in 0..200 {
        if list(&env.run(&["traces", "list"]))
            .as_array()
            .is_some_and(|r| r.iter().any(|r| r["status"] == "running"))
        {
            started = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(started, "the job's run never started");
    // The tick alone is signalled: the run hears of it through the tick, as the same signal
    // (a closed terminal here).
    let asked = std::time::Instant::now();
    nix_kill(tick.id(), "HUP");
    let o = tick.wait_with_output().unwrap();
    assert!(asked.elapsed() < std::time::Duration::from_secs(4), "{:?}", asked.elapsed());
    assert_error(&o, 129, "hangup");
    let runs = list(&env.run(&["cron", "runs", "chat"]));
    assert_eq!(runs[0]["status"], "failed", "{runs}");
    assert!(
        runs[0]["error"].as_str().unwrap().contains("cancelled"),
        "{runs}"
    );
    let traces = list(&env.run(&["traces", "list"]));
    assert_eq!(traces[0]["status"], "cancelled", "{traces}");
    let run = list(&env.run(&["runs", "list"]));
    assert!(
        run[0]["error"].as_str().unwrap().contains("(SIGHUP)"),
        "{run}"
    );
}
}

on_both_backends! {
fn the_daemon_stopped_mid_job_records_the_job_and_ends_normally(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let o = env.run(&[
        "cron", "add", "nap", "--every", "1s", "--tool", "exec", "--args",
        r#"{"command":"sleep 31"}"#,
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    wait_due(&env, "nap");
    let daemon = env.spawn(&["cron", "daemon", "--interval", "1s"]);
    wait_for_descendant(daemon.id(), "sleep 31");
    let asked = std::time::Instant::now();
    nix_kill(daemon.id(), "TERM");
    let o = daemon.wait_with_output().unwrap();
    assert!(asked.elapsed() < std::time::Duration::from_secs(4), "{:?}", asked.elapsed());
    assert_eq!(o.status.code(), Some(0), "a service manager's stop is the normal end");
    let line: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(line["status"], "failed", "{line}");
    let runs = list(&env.run(&["cron", "runs", "nap"]));
    assert_eq!(runs[0]["status"], "failed", "{runs}");
    assert!(runs[0]["error"].as_str().unwrap().contains("SIGTERM"), "{runs}");
    assert!(processes_end_in("sleep 31", &env.work()));
}
}
