//! `goclaw agents` and the store-backed files: context files (open and predefined routing, the
//! read_file / write_file interceptor, the system prompt) and memory (memory_search, memory_get).

use serde_json::Value;

use crate::util::*;

fn home(backend: Backend) -> Option<TestEnv> {
    let env = TestEnv::on(backend)?;
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.open1]\n\n[agents.shared]\ntype = \"predefined\"\n",
    )
    .unwrap();
    Some(env)
}

fn exec(env: &TestEnv, tool: &str, args: &str, extra: &[&str]) -> std::process::Output {
    let mut a = vec!["tools", "exec", tool, args];
    a.extend_from_slice(extra);
    env.run(&a)
}

on_both_backends! {
fn context_files_are_set_listed_and_read(backend) {
    let Some(env) = home(backend) else { return };
    let o = env.run_stdin(
        &["agents", "files", "set", "open1", "SOUL.md", "-"],
        "Be brief.\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = env.run(&["agents", "files", "get", "open1", "SOUL.md"]);
    assert_eq!(stdout(&o), "Be brief.\n");
    // An open agent: a user's own file wins, the agent-level one is the fallback.
    env.run_stdin(
        &["agents", "files", "set", "open1", "SOUL.md", "--user", "u1"],
        "Be chatty.\n",
    );
    assert_eq!(
        stdout(&env.run(&["agents", "files", "get", "open1", "SOUL.md", "--user", "u1"])),
        "Be chatty.\n"
    );
    assert_eq!(
        stdout(&env.run(&["agents", "files", "get", "open1", "SOUL.md", "--user", "u2"])),
        "Be brief.\n"
    );
    let ls = list(&env.run(&["agents", "files", "ls", "open1"]));
    assert_eq!(ls.as_array().unwrap().len(), 2, "{ls}");
    // The agent-level file's user is null, as `agents files set` prints it.
    let users: Vec<&serde_json::Value> = ls.as_array().unwrap().iter().map(|f| &f["user"]).collect();
    assert_eq!(users, [&serde_json::Value::Null, &serde_json::json!("u1")], "{ls}");
    // A predefined agent: only USER.md is per user.
    env.run_stdin(
        &[
            "agents", "files", "set", "shared", "SOUL.md", "--user", "u1",
        ],
        "shared soul\n",
    );
    assert_eq!(
        stdout(&env.run(&[
            "agents", "files", "get", "shared", "SOUL.md", "--user", "u9"
        ])),
        "shared soul\n"
    );
    env.run_stdin(
        &[
            "agents", "files", "set", "shared", "USER.md", "--user", "u1",
        ],
        "likes tea\n",
    );
    assert_eq!(
        code(&env.run(&[
            "agents", "files", "get", "shared", "USER.md", "--user", "u9"
        ])),
        5
    );
    // Bad names and agents are refused.
    assert_error(
        &env.run_stdin(&["agents", "files", "set", "open1", "EVIL.md"], "x"),
        2,
        "usage",
    );
    assert_error(
        &env.run(&["agents", "files", "ls", "nobody"]),
        5,
        "not_found",
    );
    let show = json(&env.run(&["agents", "show", "shared"]));
    assert_eq!(show["type"], "predefined");
    assert_eq!(show["max_iterations"], 30);
    assert_eq!(show["max_tool_calls"], 25);
    let list = list(&env.run(&["agents", "list"]));
    let keys: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["agent"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["default", "open1", "shared"]);
    // The provider and model are those a run would use: none configured here.
    assert_eq!(list[0]["provider"], Value::Null, "{list}");
    // With a provider that names a model, every agent without its own runs on it.
    let config = std::fs::read_to_string(env.home().join("config.toml")).unwrap();
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "{config}\n[providers.local]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:1/v1\"\n\
             model = \"llama3.2\"\n"
        ),
    )
    .unwrap();
    let listed = crate::util::list(&env.run(&["agents", "list"]));
    for agent in listed.as_array().unwrap() {
        assert_eq!(agent["provider"], "local", "{agent}");
        assert_eq!(agent["model"], "llama3.2", "{agent}");
    }
    let show = json(&env.run(&["agents", "show", "open1"]));
    assert_eq!((&show["provider"], &show["model"]), (&"local".into(), &"llama3.2".into()));
}
}

on_both_backends! {
fn read_and_write_file_on_context_names_go_to_the_store(backend) {
    let Some(env) = home(backend) else { return };
    // A file of that name on disk is not what the agent reads or writes.
    env.write("SOUL.md", "the disk copy\n");
    let o = exec(
        &env,
        "write_file",
        r#"{"path":"SOUL.md","content":"from the tool\n"}"#,
        &["--agent", "open1"],
    );
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(
        std::fs::read_to_string(env.work().join("SOUL.md")).unwrap(),
        "the disk copy\n"
    );
    assert_eq!(
        stdout(&env.run(&["agents", "files", "get", "open1", "SOUL.md"])),
        "from the tool\n"
    );
    let o = exec(
        &env,
        "read_file",
        r#"{"path":"./SOUL.md"}"#,
        &["--agent", "open1"],
    );
    assert!(stdout(&o).contains("from the tool"), "{}", stdout(&o));
    // An empty BOOTSTRAP.md deletes it.
    exec(
        &env,
        "write_file",
        r#"{"path":"BOOTSTRAP.md","content":"do this first"}"#,
        &["--agent", "open1"],
    );
    exec(
        &env,
        "write_file",
        r#"{"path":"BOOTSTRAP.md","content":""}"#,
        &["--agent", "open1"],
    );
    assert_eq!(
        code(&env.run(&["agents", "files", "get", "open1", "BOOTSTRAP.md"])),
        5
    );
    // Paths that only look like memory stay in the workspace, contained as always.
    let o = exec(
        &env,
        "read_file",
        r#"{"path":"memory/../../etc/passwd"}"#,
        &["--agent", "open1"],
    );
    assert_ne!(code(&o), 0);
    assert!(!stdout(&o).contains("root:"), "{}", stdout(&o));
}
}

on_both_backends! {
fn memory_is_written_indexed_searched_and_read(backend) {
    let Some(env) = home(backend) else { return };
    let w = |path: &str, content: &str, user: &[&str]| {
        let args = serde_json::json!({"path": path, "content": content}).to_string();
        let mut extra = vec!["--agent", "open1"];
        extra.extend_from_slice(user);
        let o = exec(&env, "write_file", &args, &extra);
        assert_eq!(code(&o), 0, "{}", stdout(&o));
    };
    w(
        "memory/2026-11-20.md",
        "Deploys go out on Tuesdays.\nThe staging database is called ferret.\n",
        &[],
    );
    w("MEMORY.md", "The user prefers tabs over spaces.\n", &[]);
    w(
        "memory/prefs.md",
        "Personal: the user's cat is named Miso.\n",
        &["--user", "u1"],
    );
    assert!(
        !env.work().join("memory").exists(),
        "memory never touches the disk"
    );

    let search = |q: &str, user: &[&str]| -> Value {
        let args = serde_json::json!({"query": q}).to_string();
        let mut extra = vec!["--agent", "open1"];
        extra.extend_from_slice(user);
        let o = exec(&env, "memory_search", &args, &extra);
        assert_eq!(code(&o), 0, "{}", stdout(&o));
        let text = json(&o)["result"]["for_llm"].as_str().unwrap().to_string();
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    let found = search("which database for staging?", &[]);
    assert_eq!(
        found["results"][0]["path"], "memory/2026-11-20.md",
        "{found}"
    );
    assert!(
        found["results"][0]["snippet"]
            .as_str()
            .unwrap()
            .contains("ferret")
    );
    assert_eq!(found["results"][0]["scope"], "global");
    // Another user's memory is not searched; the user's own is, marked personal.
    assert_eq!(
        search("cat Miso", &[]),
        Value::String("No memory results found for query: cat Miso".into())
    );
    let mine = search("cat Miso", &["--user", "u1"]);
    assert_eq!(mine["results"][0]["scope"], "personal", "{mine}");
    // Accents fold on both backends, as FTS5 folds them.
    let accents = search("misó CÂT", &["--user", "u1"]);
    assert_eq!(accents["results"][0]["path"], "memory/prefs.md", "{accents}");
    // FTS syntax in a query is just words.
    let odd = search("\"ferret OR NEAR(", &[]);
    assert_eq!(odd["results"][0]["path"], "memory/2026-11-20.md", "{odd}");

    let o = exec(
        &env,
        "memory_get",
        r#"{"path":"memory/2026-11-20.md","from":2,"lines":1}"#,
        &["--agent", "open1"],
    );
    let got: Value = serde_json::from_str(json(&o)["result"]["for_llm"].as_str().unwrap()).unwrap();
    assert_eq!(got["text"], "The staging database is called ferret.");
    let o = exec(
        &env,
        "read_file",
        r#"{"path":"MEMORY.md"}"#,
        &["--agent", "open1"],
    );
    assert!(stdout(&o).contains("tabs over spaces"), "{}", stdout(&o));
    // Rewriting a document re-indexes it.
    w(
        "memory/2026-11-20.md",
        "Nothing about databases any more.\n",
        &[],
    );
    let found = search("ferret", &[]);
    assert_eq!(
        found,
        Value::String("No memory results found for query: ferret".into())
    );
}
}

on_both_backends! {
fn memory_search_is_hybrid_with_an_embeddings_endpoint(backend) {
    let Some(llm) = crate::run::llmock() else {
        return;
    };
    let Some(env) = TestEnv::on(backend) else { return };
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[providers.emb]\nkind = \"openai\"\nbase_url = \"{}/v1\"\n\n[memory]\nembeddings = \"emb\"\n",
            llm.base
        ),
    )
    .unwrap();
    let o = exec(
        &env,
        "write_file",
        r#"{"path":"MEMORY.md","content":"The release train leaves on Fridays.\n"}"#,
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(!stdout(&o).contains("unavailable"), "{}", stdout(&o));
    let rows = stdout(&env.run(&[
        "db",
        "query",
        "select count(*) as n from memory_chunks where length(embedding) > 0",
    ]));
    assert!(rows.contains("\"n\":1"), "{rows}");
    // No word of this query is in memory: full text finds nothing, the vectors still rank.
    let o = exec(&env, "memory_search", r#"{"query":"zzqx wvvk"}"#, &[]);
    let text = json(&o)["result"]["for_llm"].as_str().unwrap().to_string();
    assert!(text.contains("MEMORY.md"), "{text}");
    // With the endpoint gone, writes still succeed (full text only) and say so.
    drop(llm);
    let o = exec(
        &env,
        "write_file",
        r#"{"path":"memory/x.md","content":"Fridays again.\n"}"#,
        &[],
    );
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("embeddings unavailable"),
        "{}",
        stdout(&o)
    );
    let o = exec(&env, "memory_search", r#"{"query":"fridays"}"#, &[]);
    assert!(stdout(&o).contains("memory/x.md"), "{}", stdout(&o));
}
}
