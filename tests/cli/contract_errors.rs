//! Errors a person or a script meets and what they must say: a misspelt command or flag gets
//! the closest one, SQL that is not one statement is a usage error, an unknown setting is not
//! found, an allow entry must name a program that exists, a broken config file does not stop
//! the commands that can do without it, and `version` tells what the binary is.

use crate::util::*;

#[test]
fn a_misspelt_subcommand_or_flag_gets_the_closest_one() {
    let env = TestEnv::new();
    // When several are alike, the most alike (`taks` is closer to `tasks` than to `traces`).
    for (typed, meant) in [
        ("tols", "tools"),
        ("taks", "tasks"),
        ("tsks", "tasks"),
        ("sesions", "sessions"),
        ("cronn", "cron"),
    ] {
        let e = assert_error(&env.run(&[typed, "list"]), 2, "usage");
        assert!(
            e["hint"]
                .as_str()
                .unwrap()
                .contains(&format!("did you mean `{meant}`")),
            "{typed}: {e}"
        );
    }
    let e = assert_error(
        &env.run_stdin(&["--json", "scrub", "--chek"], "x"),
        2,
        "usage",
    );
    assert!(
        e["hint"]
            .as_str()
            .unwrap()
            .contains("did you mean `--check`"),
        "{e}"
    );
    // Nothing close: the general hint.
    let e = assert_error(&env.run(&["zzzzzz"]), 2, "usage");
    assert!(!e["hint"].as_str().unwrap().contains("did you mean"), "{e}");
}

#[test]
fn db_query_runs_exactly_one_statement() {
    let env = TestEnv::new();
    for sql in ["SELECT 1; SELECT 2", "", "   ", "/* only a comment */"] {
        let e = assert_error(&env.run(&["db", "query", sql]), 2, "usage");
        assert!(
            e["message"].as_str().unwrap().contains("statement"),
            "{sql:?}: {e}"
        );
    }
    // SQL that cannot be prepared is the caller's mistake: an unknown table too (it was exit 1,
    // while a syntax error or an unknown column was 2, and PostgreSQL says 2 for all three).
    for sql in [
        "SELECT * FROM nothing_here",
        "SELEC 1",
        "SELECT no_column FROM runs",
    ] {
        assert_error(&env.run(&["db", "query", sql]), 2, "usage");
    }
    // A file that is not there is exit 5 (the table's "unknown … file"), not 1.
    let e = assert_error(
        &env.run(&["tools", "exec", "read_file", r#"{"path":"nope"}"#]),
        5,
        "not_found",
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("failed to read file"),
        "{e}"
    );
    // An unknown provider is exit 5, as an unknown agent is.
    let e = assert_error(
        &env.run(&["run", "--provider", "nosuch", "hi"]),
        5,
        "not_found",
    );
    assert!(e["message"].as_str().unwrap().contains("nosuch"), "{e}");
    // A trailing semicolon is still one statement.
    let o = env.run(&["db", "query", "SELECT 41 + 1 AS n;"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o)["n"], 42);
}

on_both_backends! {
fn an_unknown_team_setting_is_not_found(backend) {
    let Some(env) = team_home_on(backend, "[agents.lead]\n[agents.w1]\n", "t") else {
        return;
    };
    let e = assert_error(
        &env.run(&["team", "settings", "get", "t", "nosuch.key"]),
        5,
        "not_found",
    );
    assert!(e["message"].as_str().unwrap().contains("nosuch.key"), "{e}");
    assert_error(
        &env.run(&["team", "settings", "get", "t", "blocker_escalation.nope"]),
        5,
        "not_found",
    );
    let o = env.run(&["team", "settings", "get", "t", "blocker_escalation.enabled"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o), serde_json::json!(true));
    let o = env.run(&["team", "settings", "get", "t", "lock_minutes"]);
    assert_eq!(json(&o), serde_json::json!(30));
}
}

#[test]
fn an_allow_entry_names_a_program_that_exists() {
    let env = TestEnv::new();
    let e = assert_error(
        &env.run(&["approvals", "allow", "/nonexistent/prog"]),
        5,
        "not_found",
    );
    assert!(
        e["message"].as_str().unwrap().contains("/nonexistent/prog"),
        "{e}"
    );
    // A directory is not a program either.
    assert_error(&env.run(&["approvals", "allow", "/tmp"]), 5, "not_found");
    // Nothing was stored.
    let o = env.run(&["approvals", "list"]);
    assert!(items(&o).is_empty(), "{}", stdout(&o));
    // A deny entry may come before the program does, by its path or by its name (it was
    // refused: no program `terraform` on PATH); an allow entry may not.
    let o = env.run(&["approvals", "deny", "/nonexistent/prog"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = env.run(&["approvals", "deny", "terraform-nowhere", "destroy"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json(&o)["program"], "terraform-nowhere", "{}", stdout(&o));
    assert_error(
        &env.run(&["approvals", "allow", "terraform-nowhere"]),
        5,
        "not_found",
    );
    // A file that cannot be executed is not one, until it can.
    let prog = env.write("bin/tool", "#!/bin/sh\n");
    assert_error(
        &env.run(&["approvals", "allow", prog.to_str().unwrap()]),
        2,
        "usage",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o755)).unwrap();
    let o = env.run(&["approvals", "allow", prog.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

#[test]
fn every_word_after_the_program_is_the_commands_own() {
    let env = TestEnv::new();
    // goclaw's own flags included: none may be taken as goclaw's and widen the entry.
    for (words, args) in [
        (&["grep", "-v", "secret"][..], &["-v", "secret"][..]),
        (&["grep", "--json"], &["--json"]),
        (&["ls", "-q", "/tmp"], &["-q", "/tmp"]),
        (&["grep", "--help"], &["--help"]),
        (&["grep", "-V"], &["-V"]),
        (
            &["grep", "--db", "/tmp/elsewhere.db"],
            &["--db", "/tmp/elsewhere.db"],
        ),
        (&["grep", "-r", "--note", "x"], &["-r", "--note", "x"]),
    ] {
        let mut line = vec!["approvals", "allow"];
        line.extend(words);
        let o = env.run(&line);
        assert_eq!(code(&o), 0, "{words:?}: {}", stderr(&o));
        assert_eq!(json(&o)["args"], serde_json::json!(args), "{words:?}");
        assert!(o.stderr.is_empty(), "{words:?}: {}", stderr(&o));
    }
    // Options before the program are goclaw's; a missing program is named.
    let o = env.run(&["approvals", "allow", "--note", "read-only", "git", "status"]);
    assert_eq!(json(&o)["note"], "read-only");
    let e = assert_error(&env.run(&["approvals", "allow"]), 2, "usage");
    assert!(
        e["message"].as_str().unwrap().contains("<PROGRAM [ARGS]>"),
        "{e}"
    );
}

#[test]
fn a_broken_config_stops_only_the_commands_that_need_it() {
    let env = TestEnv::new();
    std::fs::write(env.home().join("config.toml"), "broken = [\n").unwrap();
    for args in [&["config", "path"][..], &["db", "path"]] {
        let o = env.run(args);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("config.toml"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(stderr(&o).contains("going on without it"), "{}", stderr(&o));
    }
    let o = env.run_stdin(&["scrub"], "note sk-abcdefghijklmnopqrstuvwxyz\n");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "note [REDACTED]\n");
    assert!(
        stderr(&o).contains("[scrub] values are not redacted"),
        "{}",
        stderr(&o)
    );
    for args in [
        &["completions", "bash"][..],
        &["help", "exit-codes"],
        &["--help"],
    ] {
        assert_eq!(code(&env.run(args)), 0, "{args:?}");
    }
    // A command that needs the config still says what is wrong with it.
    let e = assert_error(&env.run(&["tools", "list"]), 2, "usage");
    assert!(
        e["message"].as_str().unwrap().contains("config.toml"),
        "{e}"
    );
}

#[test]
fn version_tells_what_the_binary_is() {
    let env = TestEnv::new();
    let v = json(&env.run(&["version"]));
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    assert!(v["commit"].as_str().is_some_and(|c| !c.is_empty()), "{v}");
    assert!(v["schema_version"].as_i64().unwrap() >= 11, "{v}");
    assert!(
        v["sqlite_version"].as_str().unwrap().starts_with("3."),
        "{v}"
    );
    assert!(
        v["features"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "store-sqlite"),
        "{v}"
    );
    let o = env.run(&["--human", "version"]);
    assert!(stdout(&o).starts_with(&format!("goclaw {} (", env!("CARGO_PKG_VERSION"))));
    // --version: one line of text, unless --json asks for the document.
    let o = env.run(&["--version"]);
    assert_eq!(
        stdout(&o),
        format!("goclaw {}\n", env!("CARGO_PKG_VERSION"))
    );
    let o = env.run(&["--version", "--json"]);
    assert_eq!(json(&o)["schema_version"], v["schema_version"]);
}

#[test]
fn a_text_filter_reports_errors_on_stderr_only() {
    let env = TestEnv::new();
    // Its stdout is the data (`goclaw scrub app.log > clean.log`): no JSON error lands there.
    for (args, exit) in [
        (&["scrub", "missing.log"][..], 5),
        (&["--db", "x.db", "scrub", "--no-such-flag"], 2),
        (&["sanitize", "--no-such-flag"], 2),
        (&["sanitize", "@missing.txt"], 5),
    ] {
        let line = assert_filter_error(&env.run_stdin(args, "text\n"), exit);
        assert!(!line.is_empty(), "{args:?}");
    }
    // Asked for JSON, a filter prints the error document like every command.
    assert_error(
        &env.run(&["--json", "scrub", "missing.log"]),
        5,
        "not_found",
    );
    assert_error(
        &env.run(&["scrub", "--json", "missing.log"]),
        5,
        "not_found",
    );
    // Every other command keeps its JSON error document off a terminal.
    assert_error(
        &env.run(&["tools", "describe", "no_such_tool"]),
        5,
        "not_found",
    );
}

#[test]
fn durations_are_read_as_people_write_them() {
    let env = TestEnv::new();
    let e = assert_error(
        &env.run(&["runs", "wait", "nosuchrun", "--timeout", "soon"]),
        2,
        "usage",
    );
    assert!(e["message"].as_str().unwrap().contains("soon"), "{e}");
    // 1h30m and 2d are durations: what fails next is the unknown run, not the flag.
    for d in ["1h30m", "2d", "90s"] {
        assert_error(
            &env.run(&["runs", "wait", "nosuchrun", "--timeout", d]),
            5,
            "not_found",
        );
    }
}

on_both_backends! {
fn record_commands_print_text_for_people(backend) {
    let Some(env) = team_home_on(backend, "[agents.lead]\nmodel = \"m\"\n[agents.w1]\n", "t") else {
        return;
    };
    for (args, line) in [
        (&["--human", "agents", "show", "lead"][..], "model "),
        (&["--human", "team", "settings", "get", "t"], "lock_minutes"),
        (
            &["--human", "team", "settings", "get", "t", "lock_minutes"],
            "30",
        ),
        (&["--human", "doctor"], "AREA"),
        (&["--human", "version"], "store schema version"),
    ] {
        let o = env.run(args);
        let text = stdout(&o);
        assert!(
            !text.trim_start().starts_with('{'),
            "{args:?} printed JSON: {text}"
        );
        assert!(text.contains(line), "{args:?}: {text}");
        assert!(
            text.lines().all(|l| l == l.trim_end()),
            "{args:?}: trailing blanks"
        );
    }
    // The same commands print JSON off a terminal.
    assert_eq!(json(&env.run(&["agents", "show", "lead"]))["model"], "m");
    // A file is printed as it is, and as a document with --json.
    let o = env.run_stdin(
        &["agents", "files", "set", "lead", "AGENTS.md", "-"],
        "be kind\n",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&env.run(&["agents", "files", "get", "lead", "AGENTS.md"])),
        "be kind\n"
    );
    let doc = json(&env.run(&["--json", "agents", "files", "get", "lead", "AGENTS.md"]));
    assert_eq!(doc["content"], "be kind\n");
    assert_eq!(doc["name"], "AGENTS.md");
}
}

/// What a careless script passes is refused with a usage error naming it, before anything is
/// read without bound or stored: durations, schemas, oversized files, addresses, programs,
/// team settings, ambiguous task references.
#[test]
fn careless_input_is_refused_by_name() {
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.lead]\n[agents.w1]\n",
    )
    .unwrap();
    assert_eq!(
        code(&env.run(&["db", "query", "select 1", "--timeout", "1h30m"])),
        0
    );
    for bad in ["0", "soon"] {
        assert_error(
            &env.run(&["db", "query", "select 1", "--timeout", bad]),
            2,
            "usage",
        );
    }
    let def = r#"{"name":"t1","description":"d","command":"echo {{.x}}",
        "parameters":{"type":"object","properties":{"x":{"type":"string","pattern":"("}}}}"#;
    let err = assert_error(&env.run(&["tools", "add", def]), 2, "usage");
    assert!(
        err["message"].as_str().unwrap().contains("JSON Schema"),
        "{err}"
    );
    let err = assert_error(
        &env.run(&["run", "--output-schema", "/dev/zero", "hi"]),
        2,
        "usage",
    );
    assert!(err["message"].as_str().unwrap().contains("16 MiB"), "{err}");
    let o = env.run(&["scrub", "--values-file", "/dev/zero", "/dev/null"]);
    assert!(assert_filter_error(&o, 2).contains("64 MiB"));
    for bad in ["notanip", "::", "0.0.0.0"] {
        let o = env.run(&["scrub", "--server-ip", bad, "/dev/null"]);
        assert!(assert_filter_error(&o, 2).contains(bad));
    }
    env.write("notes.txt", "hello\n");
    assert_error(&env.run(&["approvals", "allow", "./notes.txt"]), 2, "usage");
    assert_eq!(
        code(&env.run(&["team", "create", "t", "--lead", "lead", "--member", "w1"])),
        0
    );
    for (key, value) in [
        ("lock_minutes", "99999999"),
        ("max_task_dispatches", "0"),
        ("member_requests.bogus", "true"),
        ("member_requests.enabled", "5"),
    ] {
        assert_error(
            &env.run(&["team", "settings", "set", "t", key, value]),
            2,
            "usage",
        );
    }
    // A list of ids holds text only: a number in it would be dropped, and the list left open.
    assert_error(
        &env.run(&[
            "team",
            "settings",
            "set",
            "t",
            "allow_user_ids",
            r#"["a",1]"#,
        ]),
        2,
        "usage",
    );
    for cursor in ["9223372036854775807", "-5"] {
        assert_error(
            &env.run(&["tasks", "search", "s", "--cursor", cursor]),
            2,
            "usage",
        );
    }
    assert_error(
        &env.run(&["tasks", "list", "--cursor", "1.x.2.3"]),
        2,
        "usage",
    );
    for i in 0..8 {
        let subject = format!("s{i}");
        let o = env.run(&["tasks", "--as", "lead", "create", "--subject", &subject]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
    // Ids are UUID v7: tasks made in the same minute share their first characters.
    let id = items(&env.run(&["tasks", "list"]))[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let o = env.run(&[
        "tasks",
        "--as",
        "lead",
        "create",
        "--subject",
        "x",
        "--blocked-by",
        &id[..4],
    ]);
    let err = assert_error(&o, 2, "usage");
    let message = err["message"].as_str().unwrap();
    assert!(message.contains("ambiguous"), "{message}");
    assert!(message.ends_with("and more"), "{message}");
}

/// A denied or timed-out command says what to do about it in the error's hint: the deny group
/// that matched and the setting that turns it off; the call's `timeout` and the default's.
#[test]
fn a_denied_or_timed_out_command_hints_at_the_setting() {
    let env = TestEnv::new();
    let exec = |args: &str| env.run(&["tools", "exec", "exec", args]);
    let e = assert_error(&exec(r#"{"command":"rm -rf /"}"#), 3, "denied");
    let hint = e["hint"].as_str().unwrap_or_default();
    assert!(
        hint.contains("deny_groups = { destructive_ops = false }"),
        "{e}"
    );
    let e = assert_error(&exec(r#"{"command":"sleep 5","timeout":1}"#), 7, "timeout");
    let hint = e["hint"].as_str().unwrap_or_default();
    assert!(
        hint.contains("\"timeout\"") && hint.contains("timeout_secs"),
        "{e}"
    );
}

/// A store path someone named that holds no store yet is made, and a note on stderr says so:
/// a mistyped `--db` made a new empty store silently, and `tasks list` answered from it.
#[test]
fn a_new_store_at_a_named_path_is_said() {
    let env = TestEnv::new();
    let db = env.root().join("typo-dir").join("goclaw.db");
    let o = env.run(&["--db", db.to_str().unwrap(), "team", "list"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("created a new, empty store at"),
        "{}",
        stderr(&o)
    );
    let o = env.run(&["--db", db.to_str().unwrap(), "team", "list"]);
    assert!(!stderr(&o).contains("created"), "once only: {}", stderr(&o));
    let o = env.run(&["--db", db.to_str().unwrap(), "-q", "team", "list"]);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

/// A filter naming an agent config does not know is exit 5, as `tools list --agent` is: it
/// answered an empty list (exit 0). The agent `default` and agents with jobs left are listed.
#[test]
fn a_cron_list_of_an_unknown_agent_is_exit_5() {
    let env = TestEnv::new();
    let e = assert_error(
        &env.run(&["cron", "list", "--agent", "nosuch"]),
        5,
        "not_found",
    );
    assert!(e["message"].as_str().unwrap().contains("nosuch"), "{e}");
    assert_eq!(code(&env.run(&["cron", "list", "--agent", "default"])), 0);
}

/// How an exec'd command ended is in its result for scripts (`exit_code`, or `exit_signal`):
/// the model's text stays GoClaw's, which names no exit code when the command wrote output.
/// On a terminal a failed command's output is printed as it is on stdout, and the error line
/// says how it ended (it was one folded line of the whole output on stderr).
#[test]
fn an_exec_results_exit_is_there_for_scripts_and_people() {
    let env = TestEnv::new();
    let exec = |command: &str| {
        let args = serde_json::json!({ "command": command }).to_string();
        env.run(&["tools", "exec", "exec", &args])
    };
    let e = assert_error(&exec("echo out; echo err >&2; exit 3"), 1, "failed");
    assert_eq!(e["details"]["result"]["exit_code"], 3, "{e}");
    assert_eq!(e["message"], "out\n\nSTDERR:\nerr\n");
    assert_eq!(json(&exec("true"))["result"]["exit_code"], 0);
    let screen = on_unanswered_terminal(
        &env,
        r#"tools exec exec '{"command":"printf \"line one\\nline two\\n\"; exit 2"}'"#,
    )
    .replace("\r\n", "\n");
    assert!(
        screen.contains(
            "line one\nline two\nerror: exec failed (exit status 2); its output is above"
        ),
        "{screen}"
    );
}

/// An empty `GOCLAW_*` variable counts as unset, as XDG's do (a script's `GOCLAW_SESSION=$S`
/// with S unset is no session, not a session named ``); an empty flag is a usage error naming it.
#[test]
fn an_empty_variable_is_unset_and_an_empty_name_is_refused() {
    let env = TestEnv::new();
    std::fs::write(env.home().join("config.toml"), "[agents.lead]\n").unwrap();
    let unset = env.ok(&["db", "path"]);
    for var in ["GOCLAW_DB", "GOCLAW_CONFIG", "GOCLAW_WORKSPACE"] {
        let o = env.cmd(&["db", "path"]).env(var, "").output().unwrap();
        assert_eq!(code(&o), 0, "{var}=: {}", stderr(&o));
        assert_eq!(json(&o)["path"], json(&unset)["path"], "{var}=");
    }
    let o = env
        .cmd(&["tools", "list"])
        .env("GOCLAW_AGENT", "")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "GOCLAW_AGENT=: {}", stderr(&o));
    let o = env
        .cmd(&["tools", "exec", "datetime", "{}"])
        .env("GOCLAW_SESSION", "")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "GOCLAW_SESSION=: {}", stderr(&o));
    for args in [
        &["run", "--session", "", "hi"][..],
        &["run", "--agent", "", "hi"],
        &["run", "--user", "", "hi"],
        &["tasks", "--as", "", "list"],
        &["tools", "list", "--agent", ""],
        &["runs", "list", "--agent", ""],
        &["runs", "list", "--session", " "],
        &["tools", "history", "--session", ""],
        &[
            "agents",
            "files",
            "set",
            "lead",
            "AGENTS.md",
            "x",
            "--user",
            "",
        ],
        &["team", "create", "t", "--lead", "lead", "--member", " "],
        &["cron", "list", "--agent", ""],
    ] {
        let err = assert_error(&env.run(args), 2, "usage");
        let flag = args.iter().rev().find(|a| a.starts_with("--")).unwrap();
        assert!(
            err["message"].as_str().unwrap().contains(flag),
            "{args:?}: {err}"
        );
    }
}

/// A tool called with a required argument missing, or one it cannot read, is the caller's
/// mistake: exit 2, the model's text unchanged.
#[test]
fn a_tool_called_with_wrong_arguments_is_a_usage_error() {
    let env = TestEnv::new();
    for (tool, args, text) in [
        ("read_file", "{}", "empty arguments (required: path)"),
        (
            "message",
            r#"{"channel":"stdout","text":""}"#,
            "channel and text are required",
        ),
        ("search", r#"{"pattern":"("}"#, "invalid regex"),
        ("glob", r#"{"pattern":"a[" }"#, "invalid glob pattern"),
    ] {
        let err = assert_error(&env.run(&["tools", "exec", tool, args]), 2, "usage");
        assert!(
            err["message"].as_str().unwrap().contains(text),
            "{tool}: {err}"
        );
        assert!(
            err["details"]["result"]["for_llm"]
                .as_str()
                .unwrap()
                .contains(text),
            "{tool}: {err}"
        );
    }
}

/// What a sweep of every subcommand against the contract found (helper-25), each now a clear
/// error with the exit code the table gives, and a line on stderr for every exit 1.
#[test]
fn a_contract_sweep_finds_every_mistake_named_with_its_exit_code() {
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    // A root whose name is not UTF-8: refused, one well-formed error document (it panicked in
    // workspace_dir, and `db path` printed half a document with the error inside it).
    let odd = env.root().join(std::ffi::OsStr::from_bytes(b"odd\xff"));
    std::fs::create_dir(&odd).unwrap();
    let o = env
        .cmd(&["tools", "exec", "workspace_dir", "{}", "--workspace"])
        .arg(&odd)
        .output()
        .unwrap();
    let e = assert_error(&o, 2, "usage");
    assert!(
        e["message"].as_str().unwrap().contains("not valid UTF-8"),
        "{e}"
    );
    let o = env
        .cmd(&["db", "path", "--db"])
        .arg(odd.join("s.db"))
        .output()
        .unwrap();
    assert_error(&o, 2, "usage");
    assert!(!odd.join("s.db").exists());
    // Started in such a directory, a filter that needs no workspace still works (it refused
    // every line with exit 2); `config path`, which shows the workspace, refuses it.
    let o = env
        .cmd(&["scrub"])
        .current_dir(&odd)
        .write_stdin("password=hunter2hunter2\n")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "[REDACTED]\n");
    let o = env
        .cmd(&["config", "path"])
        .current_dir(&odd)
        .output()
        .unwrap();
    assert_error(&o, 2, "usage");
    // Names nobody defined are exit 5 everywhere.
    assert_error(&env.run(&["providers", "probe", "nosuch"]), 5, "not_found");
    assert_error(
        &env.run(&["skills", "list", "--agent", "nosuch"]),
        5,
        "not_found",
    );
    // An option mistyped where the program goes is no program.
    assert_error(&env.run(&["approvals", "deny", "--bogus-flag"]), 2, "usage");
    assert!(items(&env.run(&["approvals", "list"])).is_empty());
    // Blank team and member names, as every other name.
    assert_error(&env.run(&["tasks", "list", "--team", " "]), 2, "usage");
    assert_error(
        &env.run(&["team", "message", "send", "--as", "a", "--to", "", "hi"]),
        2,
        "usage",
    );
    // Exit 1 always says why on stderr.
    let o = env.run_stdin(&["-q", "scrub", "--check"], "password=abcdefgh1234\n");
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).starts_with("error: 1 credential(s) found"),
        "{}",
        stderr(&o)
    );
    env.write("../home/config.toml", "[providers.dead]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:9/v1\"\napi_key = \"k\"\n");
    let o = env.run(&["doctor"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
    // A filter that goes on without a broken config says so.
    env.write("broken.toml", "x = [");
    let o = env.run(&["--config", "broken.toml", "sanitize", "hi"]);
    assert_eq!(code(&o), 0);
    assert!(
        stderr(&o).contains("max_bytes is the default"),
        "{}",
        stderr(&o)
    );
    // A command that needs its settings fails with why, and warns of nothing first.
    env.write("ok.toml", "");
    let o = env.run(&[
        "--config",
        "ok.toml",
        "tools",
        "exec",
        "read_file",
        r#"{"path":"x"}"#,
        "--workspace",
        "/nonexistent",
    ]);
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("error: workspace /nonexistent is not a directory"),
        "{}",
        stderr(&o)
    );
    // A config that is a device or a FIFO is refused at once (helper-37: /dev/zero filled
    // memory, a FIFO without a writer blocked for ever).
    let fifo = env.work().join("config.fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    for config in ["/dev/zero", fifo.to_str().unwrap()] {
        let o = env.run(&["--config", config, "tasks", "--team", "t", "list"]);
        assert_eq!(code(&o), 2, "{config}: {}", stderr(&o));
        assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    }
}
