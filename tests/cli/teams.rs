//! `goclaw team` and `goclaw tasks`: every transition and refusal through the CLI, the
//! mailbox, and concurrency between real processes.

use std::collections::HashMap;
use std::process::Stdio;

use serde_json::Value;

use crate::util::*;

const AGENTS: &[&str] = &[
    "lead", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "outsider",
];

/// A home with agents in config and a team `dev` (lead + w1..w8), its store on `backend`
/// (`None`: that backend's server is missing).
fn board_on(backend: Backend) -> Option<TestEnv> {
    let env = TestEnv::on(backend)?;
    let config: String = AGENTS.iter().map(|a| format!("[agents.{a}]\n")).collect();
    std::fs::write(env.home().join("config.toml"), config).unwrap();
    let mut args = vec!["team", "create", "dev", "--lead", "lead"];
    for w in &AGENTS[1..9] {
        args.extend(["--member", w]);
    }
    assert_eq!(code(&env.run(&args)), 0);
    Some(env)
}

fn tasks(env: &TestEnv, agent: &str, args: &[&str]) -> std::process::Output {
    let mut a = vec!["tasks", "--as", agent];
    a.extend_from_slice(args);
    env.run(&a)
}

fn create(env: &TestEnv, subject: &str, extra: &[&str]) -> String {
    let mut a = vec!["create", "--subject", subject];
    a.extend_from_slice(extra);
    let o = tasks(env, "lead", &a);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    json(&o)["task"]["identifier"].as_str().unwrap().to_string()
}

fn status(env: &TestEnv, id: &str) -> String {
    json(&tasks(env, "lead", &["get", id]))["status"]
        .as_str()
        .unwrap()
        .to_string()
}

on_both_backends! {
fn teams_members_settings(backend) {
    let Some(env) = board_on(backend) else { return };
    assert_error(
        &env.run(&["team", "create", "dev", "--lead", "lead"]),
        6,
        "conflict",
    );
    assert_error(
        &env.run(&["team", "create", "x", "--lead", "ghost"]),
        5,
        "not_found",
    );
    // A name is 1 to 255 characters (the original's VARCHAR(255)), with no control character.
    let long = "n".repeat(256);
    let e = assert_error(&env.run(&["team", "create", &long, "--lead", "lead"]), 2, "usage");
    assert_eq!(e["message"], "a team name has at most 255 characters (this one has 256)");
    let e = assert_error(&env.run(&["team", "create", "a\nb", "--lead", "lead"]), 2, "usage");
    assert!(e["message"].as_str().unwrap().contains("control or invisible character"), "{e}");
    assert_error(&env.run(&["team", "create", "  ", "--lead", "lead"]), 2, "usage");
    // Nor one that hides or reorders text: "dev" and "dev" with a zero-width space, or "ved"
    // written backwards, would look like the team "dev".
    for name in ["dev\u{200B}", "\u{200B}", "\u{202E}ved", "d\u{2060}ev", "dev\u{FEFF}"] {
        let e = assert_error(&env.run(&["team", "create", name, "--lead", "lead"]), 2, "usage");
        assert!(e["message"].as_str().unwrap().contains("invisible"), "{e}");
    }
    let t = json(&env.run(&["team", "show", "dev"]));
    assert_eq!(t["members"].as_array().unwrap().len(), 9);
    assert_eq!(t["settings"]["blocker_escalation"]["enabled"], true);
    // `team list` gives each team as `team show` does, its settings in effect included.
    let listed = json(&env.run(&["team", "list"]));
    let dev = listed["items"].as_array().unwrap().iter().find(|i| i["name"] == "dev");
    assert_eq!(dev, Some(&t));
    assert_eq!(
        code(&env.run(&[
            "team", "members", "add", "dev", "outsider", "--role", "reviewer"
        ])),
        0
    );
    assert_eq!(
        code(&env.run(&["team", "members", "rm", "dev", "outsider"])),
        0
    );
    assert_error(
        &env.run(&["team", "members", "rm", "dev", "lead"]),
        6,
        "conflict",
    );
    let s = json(&env.run(&[
        "team",
        "settings",
        "set",
        "dev",
        "member_requests.enabled",
        "true",
    ]));
    assert_eq!(s["member_requests"]["enabled"], true);
    assert_error(
        &env.run(&["team", "settings", "set", "dev", "no_such", "1"]),
        2,
        "usage",
    );
    assert_error(
        &env.run(&["team", "settings", "set", "dev", "workspace_scope", "weird"]),
        2,
        "usage",
    );
    assert_eq!(
        json(&env.run(&["team", "settings", "get", "dev", "member_requests.enabled"])),
        Value::Bool(true)
    );
    assert_eq!(
        list(&env.run(&["team", "list"])).as_array().unwrap().len(),
        1
    );
    assert_eq!(code(&env.run(&["team", "archive", "dev"])), 0);
    assert_error(
        &tasks(
            &env,
            "lead",
            &["--team", "dev", "create", "--subject", "late"],
        ),
        6,
        "conflict",
    );
    // An archived team is no longer anyone's team.
    assert_error(
        &tasks(&env, "lead", &["create", "--subject", "late"]),
        5,
        "not_found",
    );
    let longest = "n".repeat(255);
    assert_eq!(code(&env.run(&["team", "create", &longest, "--lead", "lead"])), 0);
}
}

on_both_backends! {
fn the_task_lifecycle_and_its_refusals(backend) {
    let Some(env) = board_on(backend) else { return };
    let a = create(&env, "build", &["--priority", "5"]);
    // Claim: any member; a second claim loses with the holder named.
    assert_eq!(code(&tasks(&env, "w1", &["claim", &a])), 0);
    let err = assert_error(&tasks(&env, "w2", &["claim", &a]), 6, "conflict");
    assert!(
        err["message"].as_str().unwrap().contains("held by w1"),
        "{err}"
    );
    // Only the holder completes, fails, reviews, reports progress (#1133).
    assert_error(
        &tasks(&env, "w2", &["complete", &a, "--result", "x"]),
        6,
        "conflict",
    );
    assert_error(
        &tasks(&env, "lead", &["complete", &a, "--result", "x"]),
        6,
        "conflict",
    );
    assert_error(&tasks(&env, "w2", &["progress", &a, "10"]), 6, "conflict");
    assert_eq!(
        json(&tasks(
            &env,
            "w1",
            &["progress", &a, "40", "--step", "half"]
        ))["progress_percent"],
        40
    );
    assert_eq!(
        json(&tasks(&env, "w1", &["progress", &a, "20"]))["progress_percent"],
        40,
        "never decreases"
    );
    // A report that changes nothing extends the lock but is no event.
    let events = items(&tasks(&env, "lead", &["events", &a]));
    let reports = events.iter().filter(|e| e["event"] == "progress").count();
    assert_eq!(reports, 1, "{events:?}");
    assert_error(&tasks(&env, "w1", &["progress", &a, "101"]), 2, "usage");
    // Review → reject (back to the holder) → review → approve.
    assert_eq!(
        json(&tasks(&env, "w1", &["review", &a]))["status"],
        "in_review"
    );
    assert_error(&tasks(&env, "w1", &["approve", &a]), 3, "denied");
    assert_eq!(
        json(&tasks(
            &env,
            "lead",
            &["reject", &a, "--reason", "add tests"]
        ))["status"],
        "in_progress"
    );
    assert_eq!(
        json(&tasks(&env, "w1", &["review", &a]))["status"],
        "in_review"
    );
    assert_eq!(
        json(&tasks(&env, "lead", &["approve", &a]))["status"],
        "completed"
    );
    assert_error(
        &tasks(&env, "w1", &["complete", &a, "--result", "again"]),
        6,
        "conflict",
    );
    // Retry from completed works (the original's retry could not).
    assert_eq!(
        json(&tasks(&env, "lead", &["retry", &a]))["status"],
        "pending"
    );
    assert_error(&tasks(&env, "lead", &["retry", &a]), 6, "conflict");
    // Assign, fail, cancel.
    let b = create(&env, "deploy", &[]);
    assert_error(&tasks(&env, "w1", &["assign", &b, "w2"]), 3, "denied");
    assert_eq!(
        json(&tasks(&env, "lead", &["assign", &b, "w2"]))["owner"],
        "w2"
    );
    // A failure says why, as a completion says what (an empty reason was taken).
    assert_error(&tasks(&env, "w2", &["fail", &b, "--reason", " "]), 2, "usage");
    assert_eq!(
        json(&tasks(&env, "w2", &["fail", &b, "--reason", "no access"]))["status"],
        "failed"
    );
    let c = create(&env, "cleanup", &[]);
    assert_error(&tasks(&env, "w3", &["cancel", &c]), 3, "denied");
    assert_eq!(
        json(&tasks(&env, "lead", &["cancel", &c]))["status"],
        "cancelled"
    );
    assert_error(&tasks(&env, "lead", &["cancel", &c]), 6, "conflict");
    // Assigned tasks: only the assignee claims.
    let d = create(&env, "review docs", &["--assignee", "w3"]);
    assert_error(&tasks(&env, "w4", &["claim", &d]), 6, "conflict");
    assert_eq!(code(&tasks(&env, "w3", &["claim", &d])), 0);
    // Unknown tasks, non-members, agents not in config.
    assert_error(&tasks(&env, "w1", &["claim", "T-999-0000"]), 5, "not_found");
    assert_error(
        &tasks(&env, "outsider", &["--team", "dev", "list"]),
        3,
        "denied",
    );
    assert_error(
        &tasks(&env, "ghost", &["--team", "dev", "list"]),
        5,
        "not_found",
    );
    // Reading needs no acting agent; changing the board does.
    assert_eq!(code(&env.run(&["tasks", "list", "--team", "dev"])), 0);
    assert_eq!(code(&env.run(&["tasks", "list"])), 0, "the only team");
    assert_error(
        &env.run(&["tasks", "create", "--team", "dev", "--subject", "x"]),
        2,
        "usage",
    );
    // Members create only requests, and only when allowed.
    assert_error(
        &tasks(&env, "w1", &["create", "--subject", "x"]),
        3,
        "denied",
    );
    env.run(&[
        "team",
        "settings",
        "set",
        "dev",
        "member_requests.enabled",
        "true",
    ]);
    assert_error(
        &tasks(&env, "w1", &["create", "--subject", "x"]),
        3,
        "denied",
    );
    assert_eq!(
        code(&tasks(
            &env,
            "w1",
            &["create", "--subject", "x", "--request"]
        )),
        0
    );
    // require_approval starts in review.
    let e = create(&env, "gated", &["--require-approval"]);
    assert_eq!(status(&env, &e), "in_review");
    assert_error(&tasks(&env, "w5", &["claim", &e]), 6, "conflict");
    // Approving work nobody has done releases it for work; it does not complete it (§11.6).
    assert_eq!(
        json(&tasks(&env, "lead", &["approve", &e]))["status"],
        "pending"
    );
    assert_eq!(code(&tasks(&env, "w5", &["claim", &e])), 0);
    assert_eq!(
        json(&tasks(&env, "w5", &["complete", &e, "--result", "ok"]))["status"],
        "completed"
    );
    // Attach, ask_user, update, comments, events.
    assert_eq!(code(&tasks(&env, "w3", &["attach", &d, "docs/a.md"])), 0);
    assert_error(
        &tasks(&env, "w3", &["attach", &d, "docs/a.md"]),
        6,
        "conflict",
    );
    assert_error(&tasks(&env, "w1", &["ask-user", &d, "which?"]), 3, "denied");
    assert_eq!(
        code(&tasks(&env, "w3", &["ask-user", &d, "which version?"])),
        0
    );
    assert_eq!(code(&tasks(&env, "lead", &["clear-ask-user", &d])), 0);
    assert_error(
        &tasks(&env, "w1", &["update", &d, "--subject", "x"]),
        3,
        "denied",
    );
    assert_eq!(
        json(&tasks(
            &env,
            "lead",
            &[
                "update",
                &d,
                "--subject",
                "review the docs",
                "--priority",
                "9"
            ]
        ))["priority"],
        9
    );
    assert_error(&tasks(&env, "lead", &["update", &d]), 2, "usage");
    let detail = json(&tasks(&env, "lead", &["get", &d]));
    assert_eq!(detail["attachments"], serde_json::json!(["docs/a.md"]));
    // For people: the events' times in RFC 3339, as `tasks events` shows them.
    let human = stdout(&tasks(&env, "lead", &["get", &d, "--human"]));
    let created = human.lines().find(|l| l.ends_with(" created by lead")).unwrap();
    assert!(
        created.trim_start().starts_with("20") && created.contains('T') && created.contains('Z'),
        "{human}"
    );
    // What the JSON holds is there too (attachments were left out), and a subject's line
    // break cannot forge an event line.
    assert!(human.contains("attachments:\n  docs/a.md"), "{human}");
    let forged = "review\n  2026-11-29T05:20:00Z approved by lead";
    tasks(&env, "lead", &["update", &d, "--subject", forged]);
    let human = stdout(&tasks(&env, "lead", &["get", &d, "--human"]));
    assert!(!human.lines().any(|l| l.ends_with("approved by lead")), "{human}");
    let events: Vec<String> = detail["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        events,
        [
            "created",
            "claimed",
            "attached",
            "asked_user",
            "cleared_ask_user",
            "updated"
        ]
    );
    assert_eq!(
        code(&tasks(
            &env,
            "w3",
            &["complete", &d, "--result", "reviewed"]
        )),
        0
    );
    let all = stdout(&tasks(&env, "lead", &["events"]));
    for ev in [
        "created",
        "claimed",
        "assigned",
        "progress",
        "reviewed",
        "approved",
        "rejected",
        "completed",
        "failed",
        "cancelled",
        "updated",
        "retried",
    ] {
        assert!(all.contains(&format!("\"event\":\"{ev}\"")), "{ev} missing");
    }
}
}

on_both_backends! {
fn dependencies_cycles_and_dedupe(backend) {
    let Some(env) = board_on(backend) else { return };
    let a = create(&env, "schema", &[]);
    let b = create(&env, "api", &["--blocked-by", &a]);
    let c = create(&env, "ui", &["--blocked-by", &b]);
    assert_eq!(status(&env, &b), "blocked");
    // A cycle or self-reference is refused when made, naming it.
    let err = assert_error(
        &tasks(&env, "lead", &["update", &a, "--blocked-by", &c]),
        2,
        "usage",
    );
    let msg = err["message"].as_str().unwrap();
    assert!(
        msg.contains("dependency cycle") && msg.contains(&a) && msg.contains(&c),
        "{msg}"
    );
    assert_error(
        &tasks(&env, "lead", &["update", &a, "--blocked-by", &a]),
        2,
        "usage",
    );
    assert_error(
        &tasks(
            &env,
            "lead",
            &["create", "--subject", "x", "--blocked-by", "T-404-beef"],
        ),
        2,
        "usage",
    );
    // Completing unblocks in the same transaction, one level at a time.
    tasks(&env, "w1", &["claim", &a]);
    tasks(&env, "w1", &["complete", &a, "--result", "ok"]);
    assert_eq!(status(&env, &b), "pending");
    assert_eq!(status(&env, &c), "blocked");
    // Finished tasks cannot block new work.
    let err = assert_error(
        &tasks(
            &env,
            "lead",
            &["create", "--subject", "late", "--blocked-by", &a],
        ),
        2,
        "usage",
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("already completed")
    );
    // Dedupe: a cron retry never creates work twice.
    let o1 = json(&tasks(
        &env,
        "lead",
        &[
            "create",
            "--subject",
            "nightly",
            "--dedupe-key",
            "2026-11-21",
        ],
    ));
    let o2 = json(&tasks(
        &env,
        "lead",
        &[
            "create",
            "--subject",
            "nightly again",
            "--dedupe-key",
            "2026-11-21",
        ],
    ));
    assert_eq!(o1["created"], true);
    assert_eq!(o2["created"], false);
    assert_eq!(o1["task"]["id"], o2["task"]["id"]);
}
}

on_both_backends! {
fn blockers_escalate_to_the_lead(backend) {
    let Some(env) = board_on(backend) else { return };
    let a = create(&env, "migrate db", &[]);
    let dep = create(&env, "after", &["--blocked-by", &a]);
    tasks(&env, "w1", &["claim", &a]);
    let o = json(&tasks(
        &env,
        "w1",
        &["comment", &a, "no credentials for prod", "--blocker"],
    ));
    assert!(
        o["note"]
            .as_str()
            .unwrap()
            .contains("auto-failed due to blocker"),
        "{o}"
    );
    assert_eq!(status(&env, &a), "failed");
    assert_eq!(
        status(&env, &dep),
        "blocked",
        "a failed blocker keeps its dependents waiting (the lead may retry it)"
    );
    let inbox = list(&env.run(&["team", "message", "read", "--as", "lead"]));
    assert_eq!(inbox.as_array().unwrap().len(), 1);
    assert!(
        inbox[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("[Escalation]")
    );
    assert_eq!(inbox[0]["sender"], "system:escalation");
    // Escalation off: no message.
    env.run(&[
        "team",
        "settings",
        "set",
        "dev",
        "blocker_escalation.enabled",
        "false",
    ]);
    let b = create(&env, "second", &[]);
    tasks(&env, "w2", &["claim", &b]);
    tasks(&env, "w2", &["comment", &b, "stuck", "--blocker"]);
    assert_eq!(
        items(&env.run(&["team", "message", "read", "--as", "lead"])).len(),
        0
    );
    // A note on a finished task is just saved.
    let o = json(&tasks(&env, "w2", &["comment", &b, "ok now", "--blocker"]));
    assert!(o["note"].as_str().unwrap().contains("no escalation needed"));
    assert_error(
        &tasks(&env, "w2", &["comment", &b, &"x".repeat(10_001)]),
        2,
        "usage",
    );
}
}

on_both_backends! {
fn stale_recovery_and_paging_and_search(backend) {
    let Some(env) = board_on(backend) else { return };
    let a = create(&env, "long job", &[]);
    let b = create(&env, "forgotten", &[]);
    tasks(&env, "w1", &["claim", &a]);
    // Expire w1's lock and age b by hand, as time would.
    env.change(&format!(
        "UPDATE tasks SET lock_expires_at = 1 WHERE identifier = '{a}'"
    ));
    env.change(&format!(
        "UPDATE tasks SET updated_at = 1 WHERE identifier = '{b}'"
    ));
    // A read changes nothing; `recover` (or any change to the board) does the work.
    assert_eq!(
        json(&tasks(&env, "lead", &["get", &a]))["status"],
        "in_progress"
    );
    let r = json(&tasks(&env, "lead", &["recover"]));
    assert_eq!(r["recovered"].as_array().unwrap().len(), 1, "{r}");
    assert_eq!(r["stale"].as_array().unwrap().len(), 1, "{r}");
    let detail = json(&tasks(&env, "lead", &["get", &a]));
    assert_eq!(detail["status"], "pending");
    assert_eq!(detail["owner"], Value::Null);
    assert_eq!(status(&env, &b), "stale");
    // A stale task can still be claimed.
    assert_eq!(code(&tasks(&env, "w2", &["claim", &b])), 0);
    // Paging.
    for i in 0..25 {
        create(
            &env,
            &format!("item {i:02} about parsers"),
            &["--priority", &(i % 3).to_string()],
        );
    }
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = vec!["list", "--limit", "7"];
        if let Some(c) = &cursor {
            args.extend(["--cursor", c]);
        }
        let page = json(&tasks(&env, "lead", &args));
        seen.extend(
            page["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["identifier"].as_str().unwrap().to_string()),
        );
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(seen.len(), 27);
    let unique: std::collections::HashSet<_> = seen.iter().collect();
    assert_eq!(unique.len(), 27);
    assert_error(
        &tasks(&env, "lead", &["list", "--cursor", "garbage"]),
        2,
        "usage",
    );
    assert_error(
        &tasks(&env, "lead", &["list", "--status", "weird"]),
        2,
        "usage",
    );
    let active = json(&tasks(
        &env,
        "lead",
        &["list", "--status", "active", "--limit", "100"],
    ));
    assert_eq!(active["items"].as_array().unwrap().len(), 27);
    // Search: ranked FTS over subject and description.
    let found = json(&tasks(&env, "w3", &["search", "pars", "--limit", "50"]));
    assert_eq!(found["items"].as_array().unwrap().len(), 25);
    assert_eq!(
        json(&tasks(&env, "w3", &["search", "forgot"]))["items"][0]["identifier"],
        b.as_str()
    );
}
}

on_both_backends! {
fn the_mailbox(backend) {
    let Some(env) = board_on(backend) else { return };
    let msg = |agent: &str, args: &[&str]| {
        let mut a = vec!["team", "message", "--as", agent];
        a.extend_from_slice(args);
        env.run(&a)
    };
    assert_error(&msg("w1", &["broadcast", "hi"]), 3, "denied");
    assert_eq!(code(&msg("lead", &["broadcast", "standup in 5"])), 0);
    // A broadcast is read by each member on its own.
    for w in ["w1", "w2", "w3"] {
        let r = items(&msg(w, &["read"]));
        assert_eq!(r.len(), 1, "{w}");
        assert_eq!(r[0]["text"], "standup in 5");
        assert_eq!(items(&msg(w, &["read"])).len(), 0, "{w} read it already");
    }
    assert_eq!(
        items(&msg("lead", &["read"])).len(),
        0,
        "the sender does not get its own broadcast"
    );
    assert_eq!(code(&msg("w1", &["send", "--to", "w2", "need review"])), 0);
    assert_error(
        &msg("w1", &["send", "--to", "outsider", "x"]),
        5,
        "not_found",
    );
    assert_eq!(items(&msg("w2", &["read"]))[0]["sender"], "w1");
    // wait: times out with exit 7, or returns when a message arrives from another process.
    assert_eq!(items(&msg("w4", &["read"])).len(), 1, "the broadcast");
    let t = std::time::Instant::now();
    assert_error(&msg("w4", &["wait", "--timeout", "300ms"]), 7, "timeout");
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
    let mut waiter = env.spawn(&[
        "-v",
        "team",
        "message",
        "--as",
        "w4",
        "wait",
        "--timeout",
        "20s",
    ]);
    // It says (with -v) when it has found its mailbox empty: the message below comes while it
    // waits.
    let mut err = std::io::BufReader::new(waiter.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("waiting for a message for w4") {
        let n = std::io::BufRead::read_line(&mut err, &mut said).unwrap();
        assert!(n > 0, "the waiter ended without waiting: {said}");
    }
    assert_eq!(code(&msg("w5", &["send", "--to", "w4", "ping"])), 0);
    let out = waiter.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got["items"][0]["text"], "ping");
}
}

/// Spawns `goclaw tasks …` as `agent` without waiting.
fn spawn_tasks(env: &TestEnv, agent: &str, args: &[&str]) -> std::process::Command {
    let mut a = vec!["tasks", "--as", agent, "--team", "dev"];
    a.extend_from_slice(args);
    let mut c = env.std_cmd(&a);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

on_both_backends! {
fn eight_workers_claim_a_thousand_tasks_exactly_once(backend) {
    let Some(env) = board_on(backend) else { return };
    {
        // Create the backlog through the library, in one process.
        let opened = env.open_store();
        let team = goclaw::team::get(opened.db(), "dev").unwrap();
        let mut board = goclaw::team::board::Board::open(opened.db(), team, "lead").unwrap();
        for i in 0..1000 {
            board
                .create(goclaw::team::board::NewTask {
                    subject: format!("job {i}"),
                    ..Default::default()
                })
                .unwrap();
        }
    }
    let outcomes: Vec<(Vec<String>, Vec<String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (1..=8)
            .map(|n| {
                let agent = format!("w{n}");
                let env = &env;
                s.spawn(move || {
                    let run = |args: &[&str]| {
                        let mut a = vec!["tasks", "--as", agent.as_str(), "--team", "dev"];
                        a.extend_from_slice(args);
                        env.run(&a)
                    };
                    let mut done = Vec::new();
                    let mut other_errors = Vec::new();
                    loop {
                        let o = run(&["claim", "--next"]);
                        match o.status.code() {
                            Some(0) => {
                                let id = serde_json::from_slice::<Value>(&o.stdout).unwrap()
                                    ["identifier"]
                                    .as_str()
                                    .unwrap()
                                    .to_string();
                                let c = run(&["complete", &id, "--result", "done"]);
                                if c.status.code() != Some(0) {
                                    other_errors
                                        .push(String::from_utf8_lossy(&c.stdout).into_owned());
                                }
                                done.push(id);
                            }
                            Some(5) => break,    // nothing left
                            Some(6) => continue, // lost a race
                            _ => other_errors.push(String::from_utf8_lossy(&o.stdout).into_owned()),
                        }
                    }
                    (done, other_errors)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let mut all = Vec::new();
    for (done, errors) in outcomes {
        assert!(errors.is_empty(), "unexpected errors: {errors:?}");
        all.extend(done);
    }
    assert_eq!(all.len(), 1000);
    let unique: std::collections::HashSet<_> = all.iter().collect();
    assert_eq!(unique.len(), 1000, "a task was claimed twice");
    // The audit trail agrees: one claim and one completion per task.
    let counts: HashMap<String, i64> = env
        .sql("SELECT event AS e, count(*) AS n FROM task_events GROUP BY event")
        .iter()
        .map(|r| (r["e"].as_str().unwrap().to_string(), r["n"].as_i64().unwrap()))
        .collect();
    assert_eq!(counts.get("claimed"), Some(&1000));
    assert_eq!(counts.get("completed"), Some(&1000));
    let per_task = env.sql("SELECT count(*) AS n FROM (SELECT task_id FROM task_events WHERE event = 'claimed' GROUP BY task_id HAVING count(*) > 1) twice");
    assert_eq!(per_task[0]["n"], 0);
}
}

on_both_backends! {
fn two_processes_complete_the_same_task(backend) {
    let Some(env) = board_on(backend) else { return };
    let a = create(&env, "race", &[]);
    tasks(&env, "w1", &["claim", &a]);
    let kids: Vec<_> = ["w1", "w1"]
        .iter()
        .map(|w| {
            spawn_tasks(&env, w, &["complete", &a, "--result", "mine"])
                .spawn()
                .unwrap()
        })
        .collect();
    let mut codes: Vec<i32> = kids
        .into_iter()
        .map(|k| k.wait_with_output().unwrap().status.code().unwrap())
        .collect();
    codes.sort();
    assert_eq!(codes, [0, 6]);
    let events = stdout(&tasks(&env, "lead", &["events", &a]));
    assert_eq!(events.matches("\"event\":\"completed\"").count(), 1);
}
}

on_both_backends! {
fn a_blocker_failing_while_dependents_are_created(backend) {
    let Some(env) = board_on(backend) else { return };
    let x = create(&env, "foundation", &[]);
    tasks(&env, "w1", &["claim", &x]);
    let (first_created, first_done) = std::sync::mpsc::channel();
    let results = std::thread::scope(|s| {
        let creator = s.spawn(|| {
            let mut results = Vec::new();
            for i in 0..15 {
                let o = env
                    .cmd(&[
                        "tasks",
                        "--as",
                        "lead",
                        "--team",
                        "dev",
                        "create",
                        "--subject",
                        &format!("dep {i}"),
                        "--blocked-by",
                        &x,
                    ])
                    .output()
                    .unwrap();
                results.push(o.status.code().unwrap());
                if i == 0 {
                    let _ = first_created.send(());
                }
            }
            results
        });
        // The blocker fails once a first dependent exists, while the others are being created.
        first_done
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the first dependent was never created");
        assert_eq!(
            code(&tasks(
                &env,
                "w1",
                &["comment", &x, "cannot proceed", "--blocker"]
            )),
            0
        );
        creator.join().unwrap()
    });
    // Each create either happened before the failure (and waits for the failed task, which the
    // lead may retry) or was refused because its blocker had already failed: every created
    // dependent is blocked by it, and no edge is lost or dangling.
    assert!(results.iter().all(|&c| c == 0 || c == 2), "{results:?}");
    let created = results.iter().filter(|&&c| c == 0).count();
    let blocked = json(&tasks(
        &env,
        "lead",
        &["list", "--status", "blocked", "--limit", "100"],
    ));
    assert_eq!(
        blocked["items"].as_array().unwrap().len(),
        created,
        "{blocked}"
    );
    let counted = env.sql(&format!(
        "SELECT count(*) AS edges, count(*) FILTER (WHERE blocker_id = (SELECT id FROM tasks WHERE id = '{x}' OR identifier = '{x}')) AS to_x FROM task_deps"
    ));
    assert_eq!(
        (counted[0]["edges"].as_i64(), counted[0]["to_x"].as_i64()),
        (Some(created as i64), Some(created as i64))
    );
}
}

on_both_backends! {
fn the_team_tools_behave_as_the_cli(backend) {
    let Some(env) = board_on(backend) else { return };
    let tool = |agent: &str, name: &str, args: Value| {
        env.run(&["tools", "exec", name, &args.to_string(), "--agent", agent])
    };
    let o = tool(
        "lead",
        "team_tasks",
        serde_json::json!({"action": "create", "subject": "via tool", "priority": 3.9}),
    );
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let text = json(&o)["result"]["for_llm"].as_str().unwrap().to_string();
    assert!(text.starts_with("Task created: via tool"), "{text}");
    let id = text
        .split("identifier=")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(
        json(&tasks(&env, "lead", &["get", &id]))["priority"],
        3,
        "numbers truncate toward zero"
    );
    assert_eq!(
        code(&tool(
            "w1",
            "team_tasks",
            serde_json::json!({"action": "claim", "task_id": id})
        )),
        0
    );
    // A lost claim is exit 6 here too, an unknown task 5, a bad action 2, a lead-only action 3.
    assert_error(
        &tool(
            "w2",
            "team_tasks",
            serde_json::json!({"action": "claim", "task_id": id}),
        ),
        6,
        "conflict",
    );
    assert_error(
        &tool(
            "w2",
            "team_tasks",
            serde_json::json!({"action": "get", "task_id": "T-404-0000"}),
        ),
        5,
        "not_found",
    );
    assert_error(
        &tool("w2", "team_tasks", serde_json::json!({"action": "dance"})),
        2,
        "usage",
    );
    assert_error(
        &tool(
            "w2",
            "team_tasks",
            serde_json::json!({"action": "cancel", "task_id": id}),
        ),
        3,
        "denied",
    );
    assert_error(
        &env.run(&["tools", "exec", "team_tasks", r#"{"action":"list"}"#]),
        2,
        "usage",
    );
    let list = json(&tool(
        "w2",
        "team_tasks",
        serde_json::json!({"action": "list"}),
    ));
    let board: Value = serde_json::from_str(list["result"]["for_llm"].as_str().unwrap()).unwrap();
    assert_eq!(board["tasks"][0]["owner"], "w1");
    assert_eq!(
        code(&tool(
            "w1",
            "team_tasks",
            serde_json::json!({"action": "complete", "task_id": id, "result": "ok"})
        )),
        0
    );
    // The mailbox tool.
    assert_eq!(
        code(&tool(
            "lead",
            "team_message",
            serde_json::json!({"action": "broadcast", "text": "hi team"})
        )),
        0
    );
    let read = json(&tool(
        "w3",
        "team_message",
        serde_json::json!({"action": "read"}),
    ));
    assert!(
        read["result"]["for_llm"]
            .as_str()
            .unwrap()
            .contains("hi team")
    );
    assert_error(
        &tool(
            "w3",
            "team_message",
            serde_json::json!({"action": "broadcast", "text": "x"}),
        ),
        3,
        "denied",
    );
    // Channel and user access lists: deny beats allow; teammate/system always pass.
    env.run(&[
        "team",
        "settings",
        "set",
        "dev",
        "deny_channels",
        r#"["telegram"]"#,
    ]);
    let denied = env.run(&[
        "tools",
        "exec",
        "team_tasks",
        r#"{"action":"list"}"#,
        "--agent",
        "w1",
        "--channel",
        "telegram",
    ]);
    assert_error(&denied, 3, "denied");
    let ok = env.run(&[
        "tools",
        "exec",
        "team_tasks",
        r#"{"action":"list"}"#,
        "--agent",
        "w1",
        "--channel",
        "teammate",
    ]);
    assert_eq!(code(&ok), 0);
    env.run(&[
        "team",
        "settings",
        "set",
        "dev",
        "allow_user_ids",
        r#"["alice"]"#,
    ]);
    assert_error(
        &env.run(&[
            "tools",
            "exec",
            "team_tasks",
            r#"{"action":"list"}"#,
            "--agent",
            "w1",
            "--user",
            "bob",
        ]),
        3,
        "denied",
    );
    assert_eq!(
        code(&env.run(&[
            "tools",
            "exec",
            "team_tasks",
            r#"{"action":"list"}"#,
            "--agent",
            "w1",
            "--user",
            "alice"
        ])),
        0
    );
}
}

on_both_backends! {
fn tasks_do_takes_the_tool_json(backend) {
    let Some(env) = board_on(backend) else { return };
    let o = tasks(
        &env,
        "lead",
        &[
            "do",
            r#"{"action":"create","subject":"from json","priority":2}"#,
        ],
    );
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(
        json(&o)["message"]
            .as_str()
            .unwrap()
            .starts_with("Task created: from json")
    );
    let list = json(&tasks(&env, "w1", &["do", r#"{"action":"list"}"#]));
    let id = list["tasks"][0]["identifier"].as_str().unwrap().to_string();
    let claim = env.write(
        "claim.json",
        format!(r#"{{"action":"claim","task_id":"{id}"}}"#),
    );
    assert_eq!(
        code(&tasks(
            &env,
            "w1",
            &["do", &format!("@{}", claim.display())]
        )),
        0
    );
    assert_error(
        &tasks(&env, "w2", &["do", &format!("@{}", claim.display())]),
        6,
        "conflict",
    );
    assert_error(
        &env.cmd(&["tasks", "--as", "w2", "do", "-"])
            .write_stdin(r#"{"action":"nope"}"#)
            .output()
            .unwrap(),
        2,
        "usage",
    );
    assert_error(&tasks(&env, "w2", &["do", "[1]"]), 2, "usage");
}
}

on_both_backends! {
/// `tasks do` is a call of the `team_tasks` tool through the gate: the acting agent's policy
/// applies and the call is in the audit trail.
fn tasks_do_goes_through_the_gate(backend) {
    let Some(env) = board_on(backend) else { return };
    let config: String = AGENTS
        .iter()
        .map(|a| match *a {
            "w2" => "[agents.w2.tools]\ndeny = [\"team_tasks\"]\n".to_string(),
            a => format!("[agents.{a}]\n"),
        })
        .collect();
    std::fs::write(env.home().join("config.toml"), config).unwrap();
    assert_eq!(code(&tasks(&env, "w1", &["do", r#"{"action":"list"}"#])), 0);
    let refused = tasks(&env, "w2", &["do", r#"{"action":"list"}"#]);
    let err = assert_error(&refused, 3, "denied");
    assert!(
        err["message"].as_str().unwrap().contains("team_tasks"),
        "{err}"
    );
    let listed = env.run(&["tools", "history", "--tool", "team_tasks"]);
    let history: Vec<Value> = items(&listed);
    let outcomes: Vec<(&str, &str)> = history
        .iter()
        .map(|r| (r["agent"].as_str().unwrap(), r["outcome"].as_str().unwrap()))
        .collect();
    assert!(outcomes.contains(&("w1", "ok")), "{outcomes:?}");
    assert!(outcomes.contains(&("w2", "denied")), "{outcomes:?}");
}
}

on_both_backends! {
fn a_task_is_found_by_what_a_person_types(backend) {
    let Some(env) = team_home_on(backend, "[agents.lead]\n[agents.w1]\n", "t") else {
        return;
    };
    let tasks = |args: &[&str]| {
        let mut all = vec!["tasks", "--as", "lead", "--team", "t"];
        all.extend_from_slice(args);
        env.run(&all)
    };
    let mut made = Vec::new();
    for subject in ["first", "second", "third"] {
        made.push(json(&tasks(&["create", "--subject", subject]))["task"].clone());
    }
    let first = &made[0];
    let ident = first["identifier"].as_str().unwrap();
    let id = first["id"].as_str().unwrap();
    for key in [
        "1".to_string(),
        "#1".into(),
        "T-1".into(),
        "T-001".into(),
        "t-001".into(),
        ident.into(),
        ident.to_lowercase(),
        ident.to_uppercase(),
        id.into(),
        id[..13].into(),
        id[..13].to_uppercase(),
    ] {
        let o = tasks(&["get", &key]);
        assert_eq!(code(&o), 0, "{key}: {}", stderr(&o));
        assert_eq!(json(&o)["subject"], "first", "{key}");
    }
    // A wrong suffix, a number beyond the board: not found.
    assert_error(&tasks(&["get", "T-001-zzzz"]), 5, "not_found");
    assert_error(&tasks(&["get", "T-9"]), 5, "not_found");
    // The start of the ids every task shares (made in the same second): ambiguous, candidates named.
    let e = assert_error(&tasks(&["get", &id[..4]]), 2, "usage");
    let message = e["message"].as_str().unwrap();
    assert!(
        message.contains("ambiguous") && message.contains(ident),
        "{message}"
    );
}
}

on_both_backends! {
/// Search splits words alike on both backends (at anything not a letter or a digit), and eight
/// reads of one mailbox at once deliver each message once between them.
fn search_words_and_concurrent_reads_agree_on_both_backends(backend) {
    let Some(env) = team_home_on(backend, "[agents.lead]\n[agents.w1]\n", "t") else { return };
    let o = env.run(&[
        "tasks", "--as", "lead", "create", "--subject",
        "mail foo@bar.com about http://x.y/zeta and /path/to",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for word in ["bar", "zeta", "path", "foo@bar.com", "mail"] {
        let o = env.run(&["tasks", "--as", "lead", "search", word]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert_eq!(json(&o)["items"].as_array().unwrap().len(), 1, "{word}");
    }
    // Accents fold as FTS5 folds them: a letter with one diacritic is its base letter, either
    // way round; a letter of its own (æ, ø) is not folded.
    let o = env.run(&[
        "tasks", "--as", "lead", "create", "--subject",
        "Café crème at Ærø, naïve ĆEVAPI in İstanbul, a Re\u{301}sume\u{301}",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for (word, found) in [
        ("cafe", 1), ("CAFÉ", 1), ("creme", 1), ("naive", 1), ("cevapi", 1), ("çàfé", 1),
        ("aero", 0), ("ærø", 1), ("istanbul", 1), ("İstanbul", 1), ("resume", 1),
        ("re\u{301}sume\u{301}", 1), ("résumé", 1),
    ] {
        let o = env.run(&["tasks", "--as", "lead", "search", word]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert_eq!(json(&o)["items"].as_array().unwrap().len(), found, "{word}");
    }
    // A word of 20 000 parts is 20 000 words: refused alike (exit 2), never a server error.
    let long = vec!["a"; 20_000].join("-");
    assert_error(&env.run(&["tasks", "--as", "lead", "search", &long]), 2, "usage");
    for i in 0..10 {
        let o = env.run(&[
            "team", "message", "send", "--as", "lead", "--to", "w1", &format!("m{i}"),
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
    let readers: Vec<_> = (0..8)
        .map(|_| env.spawn(&["team", "message", "read", "--as", "w1"]))
        .collect();
    let delivered: usize = readers
        .into_iter()
        .map(|r| {
            let o = r.wait_with_output().unwrap();
            assert_eq!(code(&o), 0, "{}", stderr(&o));
            json(&o)["items"].as_array().map_or(0, Vec::len)
        })
        .sum();
    assert_eq!(delivered, 10);
}
}

/// Text arguments of the board and the mailbox take `@FILE` and `-` (stdin), as every text
/// argument does.
#[test]
fn board_and_mailbox_text_comes_from_files_and_stdin() {
    let env = board_home();
    env.write("long.md", "a description\nover two lines\n");
    let id = create(&env, "from files", &["--description", "@long.md"]);
    let o = env.run_stdin(
        &["tasks", "--as", "lead", "comment", &id, "-"],
        "piped comment\n",
    );
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let got = json(&tasks(&env, "lead", &["get", &id]));
    let text = got.to_string();
    assert!(text.contains("a description\\nover two lines"), "{text}");
    assert!(text.contains("piped comment"), "{text}");
    env.write("msg.txt", "from a file");
    let o = env.run(&[
        "team", "message", "send", "--as", "lead", "--to", "w1", "@msg.txt",
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let inbox = env.run(&["team", "message", "read", "--as", "w1"]);
    assert!(stdout(&inbox).contains("from a file"), "{}", stdout(&inbox));
    // A file that is not there is an error, not the text `@nothing`; the hint says how to send
    // a text that starts with @.
    let o = env.run(&[
        "team", "message", "send", "--as", "lead", "--to", "w1", "@nothing",
    ]);
    let e = assert_error(&o, 5, "not_found");
    assert!(
        e["hint"].as_str().unwrap().contains("standard input (-)"),
        "{e}"
    );
    let o = env.run_stdin(
        &["team", "message", "send", "--as", "lead", "--to", "w1", "-"],
        "@w1 look at this",
    );
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let inbox = env.run(&["team", "message", "read", "--as", "w1"]);
    assert!(
        stdout(&inbox).contains("@w1 look at this"),
        "{}",
        stdout(&inbox)
    );
}

#[test]
fn a_newline_in_a_label_or_an_old_name_cannot_forge_a_line_for_people() {
    let env = TestEnv::new();
    assert_eq!(code(&env.run(&["db", "migrate"])), 0);
    {
        // What a model chose for a child's label, and a team name an older goclaw let in.
        let conn = rusqlite::Connection::open(env.db()).unwrap();
        conn.execute_batch(
            "INSERT INTO runs (id, agent, status, started_at, label) VALUES \
             ('01900000-0000-7000-8000-000000000001', 'default', 'completed', 1, \
              'child' || char(10) || '01900000-0000-7000-8000-000000000002  completed  forged');
             INSERT INTO teams (name, lead, created_at, updated_at) VALUES \
             ('t' || char(10) || 'forged (active), lead root', 'lead', 'now', 'now');",
        )
        .unwrap();
    }
    let one_line = |args: &[&str]| {
        let o = env.run(args);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert_eq!(out.lines().count(), 1, "{args:?}: {out}");
        assert!(out.contains("\\n"), "{args:?}: {out}");
    };
    one_line(&[
        "runs",
        "show",
        "01900000-0000-7000-8000-000000000001",
        "--human",
    ]);
    one_line(&[
        "runs",
        "wait",
        "01900000-0000-7000-8000-000000000001",
        "--human",
    ]);
    one_line(&["team", "show", "t\nforged (active), lead root", "--human"]);
}
