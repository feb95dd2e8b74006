//! One output shape for the whole tool: every key goclaw prints is snake_case, and every time
//! is Unix milliseconds (`*_at`, `at`, `ts`), never a string in one place and a number in
//! another. Checked over the JSON of every record and list command that has data here.

use serde_json::Value;

use crate::util::*;

/// Keys whose values are data (tool arguments, settings maps), not goclaw's own vocabulary.
const DATA: [&str; 4] = ["arguments", "args", "patterns", "env"];

fn check(path: &str, v: &Value, problems: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, item) in map {
                let at = format!("{path}.{k}");
                let snake = k
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
                if !snake {
                    problems.push(format!("{at}: not snake_case"));
                }
                let is_time = k.ends_with("_at") || k == "at" || k == "ts";
                if is_time && !(item.is_i64() || item.is_null()) {
                    problems.push(format!(
                        "{at}: a time that is not Unix milliseconds: {item}"
                    ));
                }
                if !DATA.contains(&k.as_str()) {
                    check(&at, item, problems);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| check(path, i, problems)),
        _ => {}
    }
}

/// Every JSON value a command printed (a document, or JSON Lines).
fn values(o: &std::process::Output) -> Vec<Value> {
    let text = stdout(o);
    match serde_json::from_str::<Value>(&text) {
        Ok(v) => vec![v],
        Err(_) => text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
            .collect(),
    }
}

#[test]
fn every_key_is_snake_case_and_every_time_unix_milliseconds() {
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.lead]\nmodel = \"m\"\n[agents.w1]\n",
    )
    .unwrap();
    env.write("notes.txt", "hello\n");
    let setup: [&[&str]; 6] = [
        &["team", "create", "t", "--lead", "lead", "--member", "w1"],
        &[
            "tasks",
            "--as",
            "lead",
            "--team",
            "t",
            "create",
            "--subject",
            "first",
        ],
        &["approvals", "allow", "/bin/sh"],
        &["tools", "exec", "read_file", r#"{"path":"notes.txt"}"#],
        &["cron", "add", "tick", "--every", "5m", "--tool", "datetime"],
        &[
            "team", "message", "send", "--team", "t", "--as", "lead", "--to", "w1", "hello",
        ],
    ];
    for args in setup {
        let o = env.run(args);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
    }
    let mut problems = Vec::new();
    let commands: [&[&str]; 17] = [
        &["version"],
        &["doctor"],
        &["config", "path"],
        &["db", "path"],
        &["db", "check"],
        &["agents", "list"],
        &["agents", "show", "lead"],
        &["team", "list"],
        &["team", "show", "t"],
        &["team", "settings", "get", "t"],
        &["tasks", "--as", "lead", "--team", "t", "list"],
        &["tasks", "--as", "lead", "--team", "t", "get", "1"],
        &["approvals", "list"],
        &["tools", "history"],
        &["cron", "list"],
        &["runs", "list"],
        &["team", "message", "read", "--team", "t", "--as", "w1"],
    ];
    for args in commands {
        let o = env.run(args);
        assert!(code(&o) == 0 || code(&o) == 1, "{args:?}: {}", stderr(&o));
        for v in values(&o) {
            check(&args.join(" "), &v, &mut problems);
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
