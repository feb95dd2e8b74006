//! The system prompt's sections a command line has (seed 002 §2): runtime details, the user,
//! the sandbox, extra context from `run --context`, the knowledge-graph reminder; and the
//! compaction lease that keeps two processes from compacting one session at once.

use crate::run::{fakellm, seen_by_model};
use crate::util::*;

#[test]
fn the_prompt_says_who_where_and_with_what() {
    let Some(llm) = fakellm() else { return };
    let env = TestEnv::new();
    env.write("ctx.md", "Release day: the freeze starts at noon.\n");
    let (_, messages) = seen_by_model(
        &env,
        &llm,
        &[
            "--session",
            "p1",
            "--user",
            "alice",
            "--context",
            "@ctx.md",
            "say nothing, prompt",
        ],
    );
    let system = messages[0]["content"].as_str().unwrap();
    for part in [
        "## Additional Context\n<extra_context>\nRelease day: the freeze starts at noon.\n</extra_context>",
        "## User Identity\nYou work for user `alice`",
        "## Sandbox\nexec runs your commands in a sandbox",
        "Runtime: agent=default | channel=cli | session=p1 | provider=openai | model=gpt-4o",
        "knowledge_graph_search",
    ] {
        assert!(system.contains(part), "{part:?} missing from:\n{system}");
    }
    let at = |s: &str| system.find(s).unwrap();
    assert!(at("## Workspace") < at("## Sandbox"));
    assert!(at("Current date") < at("## Additional Context"));
    assert!(at("## Additional Context") < at("## Runtime"));
    // Without a sandbox there is nothing to say of one; context as plain text works too.
    std::fs::write(
        env.home().join("config.toml"),
        "[tools.exec]\nsandbox = \"none\"\n",
    )
    .unwrap();
    let (_, messages) = seen_by_model(
        &env,
        &llm,
        &["--context", "plain words", "say nothing, again"],
    );
    let system = messages[0]["content"].as_str().unwrap();
    assert!(!system.contains("## Sandbox"), "{system}");
    assert!(!system.contains("## User Identity"), "{system}");
    assert!(
        system.contains("<extra_context>\nplain words\n</extra_context>"),
        "{system}"
    );
    // Standard input is the message's: --context - is a usage error.
    let o = env.run(&["run", "--context", "-", "hello"]);
    assert_error(&o, 2, "usage");
}

on_both_backends! {
fn a_session_another_process_compacts_is_left_to_it(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.small]\ncontext_window = 30\n",
    )
    .unwrap();
    env.write("notes.txt", "teh\n");
    let args = ["--agent", "small", "--session", "lk", "fix notes, then compact"];
    // The session exists; another process holds its compaction lease.
    let o = crate::run::run(&env, &llm, &["--agent", "small", "--session", "lk", "say nothing, lease"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    env.change(&format!(
        "UPDATE sessions SET compacting_until = {}, compacting_by = 'elsewhere' WHERE key = 'lk'",
        i64::MAX / 2
    ));
    let o = crate::run::run(&env, &llm, &args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("another process is compacting session lk"),
        "{}",
        stderr(&o)
    );
    let session = json(&env.run(&["sessions", "show", "lk"]));
    assert_eq!(session["compaction_count"], 0, "{session}");
    // A lease that has expired is free: the next run compacts, and gives the lease back.
    env.change("UPDATE sessions SET compacting_until = 1 WHERE key = 'lk'");
    let o = crate::run::run(&env, &llm, &args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let session = json(&env.run(&["sessions", "show", "lk"]));
    assert_eq!(session["compaction_count"], 1, "{session}");
    let lease = env.sql("SELECT compacting_by FROM sessions WHERE key = 'lk'");
    assert_eq!(lease[0]["compacting_by"], serde_json::Value::Null, "{lease:?}");
}
}

#[test]
fn old_tool_results_are_pruned_before_a_run_when_pruning_is_on() {
    let Some(llm) = fakellm() else { return };
    let env = TestEnv::new();
    // One agent (a session is its agent's), its pruning changed between runs.
    let prune = |pruning: &str| {
        std::fs::write(
            env.home().join("config.toml"),
            format!(
                "[agents.a]\ncontext_window = 2000\ncompaction = {{ enabled = false }}\n{pruning}\n"
            ),
        )
        .unwrap();
    };
    let tool_result = |said: &str| {
        let args = ["--agent", "a", "--session", "pr", said];
        let (_, messages) = seen_by_model(&env, &llm, &args);
        let result = messages.iter().find(|m| m["role"] == "tool").unwrap();
        result["content"].as_str().unwrap().to_string()
    };
    prune("");
    env.write("big.txt", "lorem ipsum dolor sit amet\n".repeat(400));
    let (o, _) = seen_by_model(
        &env,
        &llm,
        &["--agent", "a", "--session", "pr", "read big.txt"],
    );
    assert_eq!(code(&o), 0);
    // Off (the default): the whole result is sent again.
    let text = tool_result("say nothing, unpruned");
    assert!(text.len() > 10_000, "{}", text.len());
    // On: 14 000 characters in a window of 8 000 are past the soft ratio: the old result is
    // trimmed to its head and tail, which brings the history under the hard ratio.
    prune(
        "context_pruning = { mode = \"cache-ttl\", keep_last_assistants = 1, min_prunable_tool_chars = 1000 }",
    );
    let text = tool_result("say nothing, pruned");
    assert!(text.len() < 4000, "{}", text.len());
    assert!(
        text.contains("[Tool result trimmed: kept first 1500 chars and last 1500 chars of"),
        "{text}"
    );
    // Not trimmed (a larger soft limit), it is past the hard ratio: cleared.
    prune(
        "context_pruning = { mode = \"cache-ttl\", keep_last_assistants = 1, soft_trim_max_chars = 100000, min_prunable_tool_chars = 1000 }",
    );
    assert_eq!(
        tool_result("say nothing, cleared"),
        "[Old tool result content cleared]"
    );
    // The session keeps the whole result.
    prune("");
    assert!(tool_result("say nothing, kept").len() > 10_000);
    // A mode that is none is a config error.
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.pruner.context_pruning]\nmode = \"always\"\n",
    )
    .unwrap();
    assert_error(&env.run(&["run", "--agent", "pruner", "hi"]), 2, "usage");
}
