//! `goclaw kg` and `knowledge_graph_search`: entities and relations in the store, per agent and
//! user, found by full text with their relations up to two steps away; export as JSON Lines
//! and DOT; policy; a run that asks the graph.

use serde_json::Value;

use crate::util::*;

fn kg(env: &TestEnv, args: &[&str]) -> std::process::Output {
    let mut all = vec!["kg"];
    all.extend_from_slice(args);
    env.run(&all)
}

fn found(o: &std::process::Output) -> Value {
    assert_eq!(code(o), 0, "{}{}", stdout(o), stderr(o));
    let text = json(o)["result"]["for_llm"].as_str().unwrap().to_string();
    serde_json::from_str(&text).unwrap_or(Value::String(text))
}

fn names(v: &Value, key: &str) -> Vec<String> {
    v[key]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| match key {
                    "entities" => e["name"].as_str().unwrap().to_string(),
                    _ => format!(
                        "{}-{}->{}",
                        e["src"].as_str().unwrap(),
                        e["rel"].as_str().unwrap(),
                        e["dst"].as_str().unwrap()
                    ),
                })
                .collect()
        })
        .unwrap_or_default()
}

on_both_backends! {
fn entities_relations_search_and_export(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.scout]\n[agents.blind.tools]\ndeny = [\"group:knowledge\"]\n",
    )
    .unwrap();
    for args in [
        &["add", "Zoë Hart", "--type", "person", "--prop", "role=maintainer", "--prop", "born=1990"][..],
        &["add", "goclaw", "--type", "project", "--prop", "lang=rust"],
        &["add", "SQLite", "--type", "database"],
        &["add", "Bob", "--type", "person"],
        &["relate", "Zoë Hart", "works_on", "goclaw"],
        &["relate", "goclaw", "stores_in", "SQLite"],
    ] {
        assert_eq!(code(&kg(&env, args)), 0, "{args:?}");
    }
    // Updates merge properties; `KEY=` removes one; numbers stay numbers.
    let o = kg(&env, &["add", "Zoë Hart", "--prop", "born=", "--prop", "team=\"core\""]);
    assert_eq!(json(&o)["props"], serde_json::json!({"role": "maintainer", "team": "core"}));
    assert_eq!(json(&o)["type"], "person");
    // A relation needs both ends.
    assert_error(&kg(&env, &["relate", "Bob", "knows", "Nobody"]), 5, "not_found");
    // Search: by name (accents folded), by type, by property value; depth 0, 1, 2.
    // Nothing to look for is a usage error (it was a failure, exit 1).
    assert_error(&kg(&env, &["search", " "]), 2, "usage");
    let f = found(&kg(&env, &["search", "zoe", "--depth", "0"]));
    assert_eq!(names(&f, "entities"), ["Zoë Hart"]);
    assert!(names(&f, "relations").is_empty());
    let f = found(&kg(&env, &["search", "maintainer"]));
    assert_eq!(names(&f, "entities"), ["Zoë Hart"]);
    assert_eq!(names(&f, "relations"), ["Zoë Hart-works_on->goclaw"]);
    let f = found(&kg(&env, &["search", "Zoe", "--depth", "2"]));
    assert_eq!(
        names(&f, "relations"),
        ["Zoë Hart-works_on->goclaw", "goclaw-stores_in->SQLite"]
    );
    let f = found(&kg(&env, &["search", "person"]));
    let mut people = names(&f, "entities");
    people.sort();
    assert_eq!(people, ["Bob", "Zoë Hart"]);
    assert_eq!(f["entities"][0]["score"], 1.0);
    let none = kg(&env, &["search", "nothing-here"]);
    assert!(stdout(&none).contains("No entities found"), "{}", stdout(&none));
    // A user's graph: theirs and the global one; another user's stays unseen, even where it
    // is related to a global entity.
    assert_eq!(code(&kg(&env, &["add", "Secret Plan", "--user", "u2"])), 0);
    assert_eq!(code(&kg(&env, &["relate", "Secret Plan", "targets", "goclaw", "--user", "u2"])), 0);
    let f = found(&kg(&env, &["search", "goclaw", "--user", "u1"]));
    assert!(!f.to_string().contains("Secret"), "{f}");
    let f = found(&kg(&env, &["search", "goclaw", "--user", "u2"]));
    assert!(names(&f, "relations").contains(&"Secret Plan-targets->goclaw".to_string()));
    // A user relating two global entities changes nobody else's graph.
    assert_eq!(code(&kg(&env, &["relate", "Bob", "rivals", "goclaw", "--user", "u2"])), 0);
    for user in [&["--user", "u1"][..], &[]] {
        let mut args = vec!["search", "bob"];
        args.extend_from_slice(user);
        let f = found(&kg(&env, &args));
        assert!(!f.to_string().contains("rivals"), "{user:?}: {f}");
    }
    let mut shown = stdout(&kg(&env, &["export", "--user", "u1"]));
    shown.push_str(&stdout(&kg(&env, &["show", "goclaw"])));
    assert!(!shown.contains("rivals"), "{shown}");
    let f = found(&kg(&env, &["search", "bob", "--user", "u2"]));
    assert!(names(&f, "relations").contains(&"Bob-rivals->goclaw".to_string()), "{f}");
    // An agent's graph is its own.
    let f = kg(&env, &["search", "goclaw", "--agent", "scout"]);
    assert!(stdout(&f).contains("No entities found"), "{}", stdout(&f));
    // Policy: an agent without group:knowledge is denied.
    let e = assert_error(&kg(&env, &["search", "goclaw", "--agent", "blind"]), 3, "denied");
    let said = e["message"].as_str().unwrap();
    assert!(said.contains("[agents.blind.tools] deny"), "{said}");
    // Show, export, remove.
    let shown = json(&kg(&env, &["show", "goclaw"]));
    assert_eq!(shown["relations"].as_array().unwrap().len(), 2, "{shown}");
    let lines: Vec<Value> = stdout(&kg(&env, &["export"]))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.iter().filter(|l| l["kind"] == "entity").count(), 4);
    assert_eq!(lines.iter().filter(|l| l["kind"] == "relation").count(), 2);
    let dot = stdout(&kg(&env, &["export", "--format", "dot"]));
    assert!(dot.starts_with("digraph knowledge {"), "{dot}");
    assert!(dot.contains("\"Zoë Hart\" -> \"goclaw\" [label=\"works_on\"];"), "{dot}");
    assert_eq!(code(&kg(&env, &["rm", "goclaw"])), 0);
    let shown = json(&kg(&env, &["show", "Zoë Hart"]));
    assert_eq!(shown["relations"], serde_json::json!([]));
    assert_error(&kg(&env, &["rm", "goclaw"]), 5, "not_found");
}
}

#[test]
fn an_agent_asks_the_graph_in_a_run() {
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let env = TestEnv::new();
    assert_eq!(code(&kg(&env, &["add", "goclaw", "--type", "project"])), 0);
    assert_eq!(code(&kg(&env, &["add", "Ada", "--type", "person"])), 0);
    assert_eq!(code(&kg(&env, &["relate", "Ada", "works_on", "goclaw"])), 0);
    let o = crate::run::run(&env, &llm, &["--events", "who works on goclaw"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let evs = crate::run::events(&o);
    let result = evs
        .iter()
        .find(|e| e["type"] == "tool.result" && e["name"] == "knowledge_graph_search")
        .unwrap_or_else(|| panic!("{}", stdout(&o)));
    assert!(
        result["result"].as_str().unwrap().contains("Ada"),
        "{result}"
    );
}

/// With `knowledge_extraction`, a compaction first asks the model for the entities and
/// relations of what it compacts, and writes them to the agent's graph (a relation whose ends
/// are not there is skipped).
#[test]
fn compaction_fills_the_graph_when_asked_to() {
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.small]\ncontext_window = 30\ncompaction = { knowledge_extraction = true }\n",
    )
    .unwrap();
    env.write("notes.txt", "teh\n");
    let o = crate::run::run(
        &env,
        &llm,
        &[
            "--agent",
            "small",
            "--session",
            "kx",
            "fix notes, then compact",
        ],
    );
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let shown = json(&kg(&env, &["show", "notes.txt", "--agent", "small"]));
    assert_eq!(shown["entities"][0]["type"], "file", "{shown}");
    assert_eq!(shown["relations"][0]["rel"], "edits", "{shown}");
    assert_error(
        &kg(&env, &["show", "nobody", "--agent", "small"]),
        5,
        "not_found",
    );
    let summary = json(&env.run(&["sessions", "show", "kx"]));
    assert_eq!(summary["compaction_count"], 1, "{summary}");
}
