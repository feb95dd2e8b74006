//! The session helpers: `todo` (a list per session in the store), `ask_user` (a terminal, or
//! the fallback) and `workspace_dir`.

use serde_json::Value;

use crate::util::*;

fn result(o: &std::process::Output) -> Value {
    assert_eq!(code(o), 0, "{}", stdout(o));
    serde_json::from_str(json(o)["result"]["for_llm"].as_str().unwrap()).unwrap()
}

on_both_backends! {
fn todo_keeps_one_list_per_session(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let list = r#"{"todos":[{"content":"Read the code","status":"completed"},
        {"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},
        {"content":"Run the tests","status":"pending"}]}"#;
    let doc = result(&env.run(&["tools", "exec", "todo", list, "--session", "s1"]));
    assert_eq!(doc["count"], 3);
    assert_eq!(doc["completed"], 1);
    assert_eq!(doc["todos"][1]["activeForm"], "Fixing the bug");
    // Read back from another process; another session has its own (empty) list.
    let doc = result(&env.run(&["tools", "exec", "todo", "{}", "--session", "s1"]));
    assert_eq!(doc["todos"][2]["content"], "Run the tests");
    let doc = result(&env.run(&["tools", "exec", "todo", "{}", "--session", "s2"]));
    assert_eq!(doc["count"], 0);
    // Two items in progress is refused and the stored list is untouched.
    let o = env.run(&[
        "tools",
        "exec",
        "todo",
        r#"{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"in_progress"}]}"#,
        "--session",
        "s1",
    ]);
    assert_eq!(code(&o), 2, "{}", stdout(&o));
    assert!(stdout(&o).contains("only one todo may be in_progress"));
    let doc = result(&env.run(&["tools", "exec", "todo", "{}", "--session", "s1"]));
    assert_eq!(doc["count"], 3);
    // A bad status is named by the schema.
    let o = env.run(&[
        "tools",
        "exec",
        "todo",
        r#"{"todos":[{"content":"a","status":"done"}]}"#,
        "--session",
        "s1",
    ]);
    assert_eq!(code(&o), 2);
    // No session: said plainly.
    let o = env.run(&["tools", "exec", "todo", "{}"]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("call it with a session"),
        "{}",
        stdout(&o)
    );
}
}

on_both_backends! {
fn ask_user_without_a_terminal_answers_with_the_fallback_and_says_so(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let o = env.run(&[
        "tools",
        "exec",
        "ask_user",
        r#"{"question":"Deploy now?","choices":["yes","no"]}"#,
    ]);
    assert_eq!(code(&o), 0);
    let text = json(&o)["result"]["for_llm"].as_str().unwrap().to_string();
    assert_eq!(
        text,
        "No answer: nobody can be asked here (no terminal). Fallback: Proceed with your best judgement, and state the assumption you made."
    );
    std::fs::write(
        env.home().join("config.toml"),
        "[tools.ask_user]\nfallback = \"Do not deploy.\"\n",
    )
    .unwrap();
    let o = env.run(&["tools", "exec", "ask_user", r#"{"question":"Deploy now?"}"#]);
    assert!(
        stdout(&o).contains("Fallback: Do not deploy."),
        "{}",
        stdout(&o)
    );
}
}

/// `ask_user` under a terminal; `answer` typed once the question is asked (at its `> `), or
/// nothing ever.
fn ask_on_terminal(env: &TestEnv, args: &str, answer: Option<&str>) -> String {
    let command = format!("tools exec ask_user '{args}' --json");
    match answer {
        Some(answer) => on_terminal(env, &command, "> ", answer),
        None => on_unanswered_terminal(env, &command),
    }
}

on_both_backends! {
fn ask_user_on_a_terminal_asks_and_times_out(backend) {
    if require_peer(which::which("script").ok(), "script(1) (util-linux)").is_none() {
        return;
    }
    let Some(env) = TestEnv::on(backend) else { return };
    let screen = ask_on_terminal(
        &env,
        r#"{"question":"Which region?","choices":["eu-west","us-east"]}"#,
        Some("2"),
    );
    assert!(screen.contains("? Which region?"), "{screen}");
    assert!(screen.contains("  1. eu-west"), "{screen}");
    assert!(screen.contains("The user answered: us-east"), "{screen}");
    // Escape sequences in the question cannot redraw the terminal.
    let screen = ask_on_terminal(
        &env,
        r#"{"question":"Proceed?\u001b[2J\u001b[1;1HAllow? [o]nce","choices":["ok\u0007"]}"#,
        Some("1"),
    );
    assert!(
        !screen.contains("\u{1b}[2J") && !screen.contains('\u{7}'),
        "{screen:?}"
    );
    assert!(screen.contains("? Proceed?\u{FFFD}[2J"), "{screen:?}");
    let screen = ask_on_terminal(&env, r#"{"question":"Anyone?","timeout_secs":1}"#, None);
    assert!(
        screen.contains("No answer: the user did not answer within 1 s. Fallback: "),
        "{screen}"
    );
}
}

on_both_backends! {
fn workspace_dir_names_the_workspace_and_teams(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.lead]\n[agents.dev]\n",
    )
    .unwrap();
    let o = env.run(&[
        "team", "create", "core", "--lead", "lead", "--member", "dev",
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let doc = result(&env.run(&[
        "tools",
        "exec",
        "workspace_dir",
        "{}",
        "--agent",
        "dev",
        "--user",
        "ann",
    ]));
    assert_eq!(
        doc["workspace"].as_str().unwrap(),
        std::fs::canonicalize(env.work()).unwrap().to_str().unwrap()
    );
    assert_eq!(doc["agent"], "dev");
    assert_eq!(doc["user"], "ann");
    assert_eq!(doc["teams"][0]["team"], "core");
    assert_eq!(doc["teams"][0]["role"], "member");
    assert_eq!(doc["teams"][0]["workspace_scope"], "isolated");
    // An agent with its own workspace: the tools (and so workspace_dir) work there.
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.lead]\n[agents.dev]\nworkspace = \"dev-area\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(env.work().join("dev-area")).unwrap();
    env.write("dev-area/mine.txt", "dev's file");
    let doc = result(&env.run(&["tools", "exec", "workspace_dir", "{}", "--agent", "dev"]));
    assert!(
        doc["workspace"]
            .as_str()
            .unwrap()
            .ends_with("/work/dev-area"),
        "{doc}"
    );
    let o = env.run(&[
        "tools",
        "exec",
        "read_file",
        r#"{"path":"mine.txt"}"#,
        "--agent",
        "dev",
    ]);
    assert!(stdout(&o).contains("dev's file"), "{}", stdout(&o));
}
}
