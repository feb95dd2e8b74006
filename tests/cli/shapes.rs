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

on_both_backends! {
fn every_key_is_snake_case_and_every_time_unix_milliseconds(backend) {
    let Some(env) = board_home_on(backend) else { return };
    let setup: [&[&str]; 5] = [
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
        env.ok(args);
    }
    let mut problems = Vec::new();
    let records: [&[&str]; 8] = [
        &["version"],
        &["doctor"],
        &["config", "path"],
        &["db", "path"],
        &["db", "check"],
        &["agents", "show", "lead"],
        &["team", "show", "t"],
        &["team", "settings", "get", "t"],
    ];
    for args in records
        .iter()
        .chain(&LISTS)
        .chain(&[&["tasks", "--as", "lead", "--team", "t", "get", "1"][..]])
    {
        let o = env.run(args);
        assert!(code(&o) == 0 || code(&o) == 1, "{args:?}: {}", stderr(&o));
        for v in values(&o) {
            check(&args.join(" "), &v, &mut problems);
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
}

/// Every list command: the lists of what work produces, and the lists of what is configured.
pub(crate) const LISTS: [&[&str]; 26] = [
    &["agents", "list"],
    &["agents", "files", "ls", "lead"],
    &["approvals", "list"],
    &["cron", "list"],
    &["cron", "runs"],
    &["help", "exit-codes"],
    &["mcp", "list"],
    &["mcp", "grants"],
    &["mcp", "requests"],
    &["mcp", "tools"],
    &["runs", "list"],
    &["schema"],
    &["secure-cli", "list"],
    &["secure-cli", "presets"],
    &["sessions", "list"],
    &["skills", "list"],
    &["skills", "search", "pdf"],
    &["tasks", "--as", "lead", "--team", "t", "list"],
    &["tasks", "--as", "lead", "--team", "t", "search", "first"],
    &["tasks", "--as", "lead", "--team", "t", "events"],
    &["team", "list"],
    &["team", "message", "read", "--team", "t", "--as", "w1"],
    &["tools", "list"],
    &["tools", "custom", "list"],
    &["tools", "history"],
    &["traces", "list"],
];

on_both_backends! {
/// Every list is `{"items":[…],"next_cursor":…}`; a list that grows takes `--limit` and
/// `--cursor`, and its pages, followed by their cursors, give every item once.
fn every_list_has_one_shape_and_pages_by_cursor(backend) {
    let Some(env) = board_home_on(backend) else { return };
    for i in 0..5 {
        let subject = format!("task {i}");
        env.ok(&["tasks", "--as", "lead", "create", "--subject", &subject]);
        env.ok(&["tools", "exec", "read_file", r#"{"path":"notes.txt"}"#]);
    }
    for args in LISTS {
        let o = env.run(args);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        let doc = json(&o);
        let keys: Vec<&String> = doc
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["items", "next_cursor"], "{args:?}: {doc}");
        assert!(doc["items"].is_array(), "{args:?}: {doc}");
    }
    // Pages of two, followed to the end: each item once, in the order of one whole page.
    let paged: [&[&str]; 3] = [
        &["tasks", "--as", "lead", "--team", "t", "list"],
        &["tasks", "--as", "lead", "--team", "t", "events"],
        &["tools", "history"],
    ];
    for args in paged {
        let whole = items(&env.run(args));
        assert!(whole.len() >= 5, "{args:?}: {whole:?}");
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut a: Vec<&str> = args.to_vec();
            a.extend(["--limit", "2"]);
            if let Some(c) = &cursor {
                a.extend(["--cursor", c]);
            }
            let doc = json(&env.run(&a));
            let page = doc["items"].as_array().unwrap().clone();
            assert!(page.len() <= 2, "{a:?}: {doc}");
            seen.extend(page);
            match doc["next_cursor"].as_str() {
                Some(c) => cursor = Some(c.to_string()),
                None => break,
            }
        }
        assert_eq!(seen, whole, "{args:?}");
    }
    // A cursor another list made, or none at all, is a usage error; so is a limit out of range.
    assert_error(&env.run(&["tools", "history", "--cursor", "x"]), 2, "usage");
    assert_error(&env.run(&["runs", "list", "--cursor", "12"]), 2, "usage");
    assert_error(&env.run(&["tools", "history", "--limit", "0"]), 2, "usage");
    assert_error(
        &env.run(&["sessions", "list", "--limit", "1001"]),
        2,
        "usage",
    );
}
}
