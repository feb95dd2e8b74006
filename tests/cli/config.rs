//! Configuration: paths, precedence, errors, show and init.

use crate::util::*;

#[test]
fn defaults_follow_goclaw_home_then_xdg() {
    let env = TestEnv::new();
    let o = json(&env.run(&["config", "path"]));
    assert_eq!(
        o["config"],
        env.home().join("config.toml").display().to_string()
    );
    assert_eq!(o["db"], env.db().display().to_string());
    assert_eq!(o["config_exists"], false);
    let o = json(
        &env.cmd(&["config", "path"])
            .env_remove("GOCLAW_HOME")
            .env("XDG_CONFIG_HOME", env.root().join("xc"))
            .env("XDG_DATA_HOME", env.root().join("xd"))
            .output()
            .unwrap(),
    );
    assert_eq!(
        o["config"],
        env.root()
            .join("xc/goclaw/config.toml")
            .display()
            .to_string()
    );
    assert_eq!(
        o["db"],
        env.root().join("xd/goclaw/goclaw.db").display().to_string()
    );
    let o = json(
        &env.cmd(&["config", "path"])
            .env_remove("GOCLAW_HOME")
            .output()
            .unwrap(),
    );
    assert_eq!(
        o["db"],
        env.root()
            .join(".local/share/goclaw/goclaw.db")
            .display()
            .to_string()
    );
}

#[test]
fn precedence_flag_env_config_default() {
    let env = TestEnv::new();
    env.write("c.toml", "[store]\npath = \"from-config.db\"\n");
    let cfg = env.work().join("c.toml");
    let o = json(&env.run(&["--config", cfg.to_str().unwrap(), "config", "path"]));
    assert_eq!(
        o["db"],
        env.work().join("from-config.db").display().to_string()
    );
    assert_eq!(o["db_source"], "config");
    let o = json(
        &env.cmd(&["--config", "c.toml", "config", "path"])
            .env("GOCLAW_DB", "/tmp/env.db")
            .output()
            .unwrap(),
    );
    assert_eq!(o["db"], "/tmp/env.db");
    assert_eq!(o["db_source"], "env");
    let o = json(
        &env.cmd(&["--config", "c.toml", "--db", "flag.db", "config", "path"])
            .env("GOCLAW_DB", "/tmp/env.db")
            .output()
            .unwrap(),
    );
    assert_eq!(o["db"], env.work().join("flag.db").display().to_string());
    assert_eq!(o["db_source"], "flag");
    let o = json(
        &env.cmd(&["config", "path"])
            .env("GOCLAW_CONFIG", "c.toml")
            .output()
            .unwrap(),
    );
    assert_eq!(o["config_source"], "env");
    assert_eq!(o["db_source"], "config");
    // The guard mode: flag over config.
    env.write("g.toml", "[guard]\nmode = \"block\"\n");
    assert_eq!(
        code(&env.run(&["--config", "g.toml", "guard", "you are now x"])),
        3
    );
    assert_eq!(
        code(&env.run(&[
            "--config",
            "g.toml",
            "guard",
            "--mode",
            "warn",
            "you are now x"
        ])),
        0
    );
}

#[test]
fn config_errors_name_key_and_file() {
    let env = TestEnv::new();
    env.write(
        "bad-key.toml",
        "[store]\npath = \"x.db\"\n\n[guard]\nmood = \"warn\"\n",
    );
    let err = assert_error(
        &env.run(&["--config", "bad-key.toml", "config", "show"]),
        2,
        "usage",
    );
    let msg = err["message"].as_str().unwrap();
    assert!(
        msg.contains("bad-key.toml:5") && msg.contains("mood"),
        "{msg}"
    );
    env.write("bad-section.toml", "[stor]\n");
    let err = assert_error(
        &env.run(&["--config", "bad-section.toml", "db", "check"]),
        2,
        "usage",
    );
    assert!(err["message"].as_str().unwrap().contains("stor"), "{err}");
    env.write("bad-toml.toml", "[store\n");
    assert_error(
        &env.run(&["--config", "bad-toml.toml", "tools", "list"]),
        2,
        "usage",
    );
    // `db path` does without the config: it warns, naming the file and the key.
    let o = env.run(&["--config", "bad-section.toml", "db", "path"]);
    assert_eq!(code(&o), 0);
    assert!(stderr(&o).contains("bad-section.toml:1") && stderr(&o).contains("stor"));
    env.write("bad-type.toml", "[guard]\nmode = \"loud\"\n");
    assert_error(
        &env.run(&["--config", "bad-type.toml", "guard", "x"]),
        2,
        "usage",
    );
    assert_error(
        &env.run(&["--config", "missing.toml", "db", "path"]),
        5,
        "not_found",
    );
    // Commands that need no config still work with a broken one.
    assert_eq!(
        code(&env.run(&["--config", "bad-toml.toml", "completions", "bash"])),
        0
    );
}

#[test]
fn init_writes_a_starter_and_never_overwrites() {
    let env = TestEnv::new();
    let o = env.run(&["config", "init"]);
    assert_eq!(code(&o), 0);
    let path = env.home().join("config.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("[store]") && text.contains("[guard]") && text.contains("[scrub]"));
    std::fs::write(&path, "# mine\n").unwrap();
    assert_error(&env.run(&["config", "init"]), 6, "conflict");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "# mine\n");
}

#[test]
fn show_scrubs_secrets() {
    let env = TestEnv::new();
    env.write("c.toml", "[scrub]\nvalues = [\"hunter2-secret\"]\nserver_ips = [\"10.0.0.5\"]\n[guard]\nmode = \"log\"\n");
    let o = env.run(&["--config", "c.toml", "config", "show"]);
    let doc = json(&o);
    assert_eq!(doc["scrub"]["values"], serde_json::json!(["[REDACTED]"]));
    assert_eq!(doc["guard"]["mode"], "log");
    assert!(!stdout(&o).contains("hunter2"));
    let human = env.run(&["--human", "--config", "c.toml", "config", "show"]);
    assert!(stdout(&human).contains("mode = \"log\""));
    assert!(!stdout(&human).contains("hunter2"));
}

#[test]
fn get_prints_one_setting_by_its_dotted_key() {
    let env = TestEnv::new();
    env.write(
        "c.toml",
        "[scrub]\nvalues = [\"hunter2-secret\"]\n[guard]\nmode = \"log\"\n\n\
         [agents.\"w.1\"]\nmodel = \"llama3.2\"\n",
    );
    let get = |human: bool, key: &str| {
        let mut args = vec!["--config", "c.toml", "config", "get", key];
        if human {
            args.insert(0, "--human");
        }
        env.run(&args)
    };
    // JSON off a terminal; the value alone for people.
    assert_eq!(json(&get(false, "guard.mode")), "log");
    assert_eq!(stdout(&get(true, "guard.mode")), "log\n");
    // A key part that holds a dot (an agent named w.1).
    assert_eq!(json(&get(false, "agents.w.1.model")), "llama3.2");
    assert_eq!(json(&get(false, "agents.w.1"))["model"], "llama3.2");
    assert!(stdout(&get(true, "guard")).contains("mode = \"log\""));
    // Secrets stay scrubbed; an unknown key is not found.
    let o = get(false, "scrub.values");
    assert_eq!(json(&o), serde_json::json!(["[REDACTED]"]));
    assert!(!stdout(&o).contains("hunter2"));
    assert_error(&get(false, "guard.nope"), 5, "not_found");
    assert_error(&get(false, "guard.mode.deeper"), 5, "not_found");
    for nothing in ["guard.", ".guard", "guard..mode"] {
        assert_error(&get(false, nothing), 5, "not_found");
    }
    assert_error(&get(false, ""), 2, "usage");
}

#[test]
fn show_and_get_hide_header_env_and_url_secrets() {
    let env = TestEnv::new();
    env.write(
        "c.toml",
        "[mcp.servers.s]\ncommand = \"srv\"\nenv = { DB_PASS = \"hunter2hunter2\" }\n\n\
         [mcp.servers.h]\nurl = \"https://mcp.example.com/mcp\"\n\
         headers = { Authorization = \"Bearer SECRETHEADER123abc\", Cookie = \"session=c00kie\" }\n\n\
         [providers.local]\nkind = \"openai\"\nbase_url = \"http://user:basicPW987@127.0.0.1:11434/v1\"\n\
         api_key_env = \"LOCAL_KEY\"\n\n\
         [agents.w1]\nmodel = \"a\"\n\n[agents.w1.tools]\nprofile = \"coding\"\n\n\
         [agents.\"w1.tools\"]\nmodel = \"b\"\n",
    );
    let shown = stdout(&env.run(&["--config", "c.toml", "config", "show"]));
    for secret in ["hunter2", "SECRETHEADER", "c00kie", "basicPW987"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
    let get = |key: &str| json(&env.run(&["--config", "c.toml", "config", "get", key]));
    assert_eq!(get("mcp.servers.h.headers.Authorization"), "[REDACTED]");
    assert_eq!(get("mcp.servers.s.env.DB_PASS"), "[REDACTED]");
    assert_eq!(
        get("providers.local.base_url"),
        "http://[REDACTED]@127.0.0.1:11434/v1"
    );
    // A variable's name is no secret.
    assert_eq!(get("providers.local.api_key_env"), "LOCAL_KEY");
    // The longest key part first, then shorter ones: agents `w1` and `w1.tools`.
    assert_eq!(get("agents.w1.tools.model"), "b");
    assert_eq!(get("agents.w1.model"), "a");
    // `w1.tools` has no profile: `w1`'s tools do.
    assert_eq!(get("agents.w1.tools.profile"), "coding");
}

#[test]
fn show_hides_the_secrets_webhook_urls_carry() {
    let env = TestEnv::new();
    env.write(
        "c.toml",
        "[channels.slack]\nkind = \"webhook\"\n\
         url = \"https://hooks.slack.com/services/T00000000/B00000000/SlackSecretPath5\"\n\n\
         [channels.hook]\nkind = \"webhook\"\nurl = \"https://example.com/hooks/PathSecret8?token=QTok9\"\n\n\
         [channels.bot]\nkind = \"webhook\"\n\
         url = \"https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxf/sendMessage\"\n\n\
         [providers.a]\nkind = \"openai\"\nbase_url = \"https://TokenAsUser1abcdef@api.example.com/v1#k=Frag12\"\n\n\
         [providers.local]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:11434/v1\"\n\n\
         [channels.odd1]\nkind = \"webhook\"\nurl = \"http:/h.example/bot1:OddSecret1/x\"\n\n\
         [channels.odd2]\nkind = \"webhook\"\nurl = 'http:\\\\h.example\\bot1:OddSecret2'\n\n\
         [channels.odd3]\nkind = \"webhook\"\nurl = \"https://h.example:443x/bot1:OddSecret3\"\n",
    );
    let shown = stdout(&env.run(&["--config", "c.toml", "config", "show"]));
    for secret in [
        "SlackSecretPath5",
        "PathSecret8",
        "QTok9",
        "AAHdqTcvCH1vGWJxf",
        "TokenAsUser1",
        "Frag12",
        "OddSecret1",
        "OddSecret2",
        "OddSecret3",
    ] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
    let get = |key: &str| json(&env.run(&["--config", "c.toml", "config", "get", key]));
    assert_eq!(
        get("channels.slack.url"),
        "https://hooks.slack.com/services/[REDACTED]"
    );
    assert_eq!(
        get("channels.hook.url"),
        "https://example.com/hooks/[REDACTED]?[REDACTED]"
    );
    assert_eq!(
        get("channels.bot.url"),
        "https://api.telegram.org/[REDACTED]"
    );
    // What holds no secret is shown as it is.
    assert_eq!(get("providers.local.base_url"), "http://127.0.0.1:11434/v1");
}

/// A URL put in `[store] path` is refused: it named a SQLite file (`postgres:/…` beside the
/// config), a private store where the shared one was meant.
#[test]
fn a_url_in_the_store_path_is_refused() {
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        "[store]\npath = \"postgres://u@127.0.0.1:1/db\"\n",
    )
    .unwrap();
    let err = assert_error(&env.run(&["team", "list"]), 2, "usage");
    assert!(
        err["message"].as_str().unwrap().contains("[store] url"),
        "{err}"
    );
    assert!(!env.home().join("postgres:").exists());
}
