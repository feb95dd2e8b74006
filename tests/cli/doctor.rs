//! `goclaw doctor` against real peers: a provider that answers (fakellm) and one that does
//! not, a real MCP server and one that cannot start, a broken config file, the host's sandbox.

use serde_json::Value;

use crate::mcp::{everything, no_server_left};
use crate::run::fakellm;
use crate::util::*;

fn row<'a>(report: &'a Value, area: &str, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["area"] == area && c["name"].as_str().unwrap().contains(name))
        .unwrap_or_else(|| panic!("no {area} check for {name}: {report}"))
}

on_both_backends! {
fn doctor_finds_what_works_and_what_is_broken(backend) {
    let Some(llm) = fakellm() else { return };
    let Some(real_js) = everything() else { return };
    let Some(env) = TestEnv::on(backend) else { return };
    // A path of this test's own, so the leftover check cannot see other tests' servers.
    let link = env.root().join("everything-doctor.js");
    std::os::unix::fs::symlink(&real_js, &link).unwrap();
    let js = link.display().to_string();
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[providers.up]\nkind = \"openai\"\nbase_url = \"{}/v1\"\n\n\
             [providers.unkeyed]\nkind = \"openai\"\nbase_url = \"{0}/v1\"\n\
             api_key_env = \"GOCLAW_TEST_KEY_NOBODY_SET\"\n\n\
             [providers.down]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:1/v1\"\n\n\
             [mcp.servers.ev]\ncommand = \"node\"\nargs = [\"{js}\", \"stdio\"]\n\n\
             [mcp.servers.gone]\ncommand = \"/nonexistent/server\"\n",
            llm.base
        ),
    )
    .unwrap();
    // The store exists (doctor never creates one).
    assert_eq!(code(&env.run(&["db", "migrate"])), 0);
    let o = env.run(&["doctor"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let report = json(&o);
    assert_eq!(report["ok"], false);
    assert_eq!(row(&report, "config", "config.toml")["status"], "ok");
    let store = if env.pg().is_some() { "postgres://" } else { "goclaw.db" };
    assert_eq!(row(&report, "store", store)["status"], "ok", "{report}");
    assert_eq!(row(&report, "provider", "up")["status"], "ok", "{report}");
    // A key variable named but not set: reachable, and warned about.
    let unkeyed = row(&report, "provider", "unkeyed");
    assert_eq!(unkeyed["status"], "warn", "{unkeyed}");
    assert!(
        unkeyed["detail"]
            .as_str()
            .unwrap()
            .contains("no key: api_key_env names GOCLAW_TEST_KEY_NOBODY_SET, which is unset or empty"),
        "{unkeyed}"
    );
    let down = row(&report, "provider", "down");
    assert_eq!(down["status"], "fail");
    assert!(
        down["detail"].as_str().unwrap().contains("127.0.0.1:1"),
        "{down}"
    );
    let ev = row(&report, "mcp", "ev");
    assert_eq!(ev["status"], "ok", "{ev}");
    assert!(ev["detail"].as_str().unwrap().contains("13 tools"), "{ev}");
    assert_eq!(row(&report, "mcp", "gone")["status"], "fail");
    for layer in ["landlock", "bwrap", "docker", "sandbox = auto"] {
        row(&report, "sandbox", layer);
    }
    // The server doctor started is gone with it.
    no_server_left(&js);
    // On a terminal's terms: a table with a header, the verdict at the end.
    let o = env.run(&["--human", "doctor"]);
    let text = stdout(&o);
    assert!(text.starts_with("AREA"), "{text}");
    assert!(
        text.contains("FAIL") && text.trim_end().ends_with("check(s) failed"),
        "{text}"
    );
}
}

#[test]
fn doctor_reports_a_broken_config_and_a_missing_store_without_creating_it() {
    let env = TestEnv::new();
    std::fs::write(env.home().join("config.toml"), "[store\n").unwrap();
    let o = env.run(&["doctor"]);
    assert_eq!(code(&o), 1);
    let report = json(&o);
    let config = row(&report, "config", "config.toml");
    assert_eq!(config["status"], "fail");
    assert!(
        config["detail"].as_str().unwrap().contains("config.toml:1"),
        "{config}"
    );
    assert_eq!(row(&report, "store", "goclaw.db")["status"], "warn");
    assert!(!env.db().exists(), "doctor created the store");
    // A config it cannot read at all (a directory here) is a failed check too, not an abort.
    let o = env.run(&["--config", "/", "doctor"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(row(&json(&o), "config", "/")["status"], "fail");
    // With a sound config and no provider anywhere, only warnings: exit 0.
    std::fs::write(env.home().join("config.toml"), "").unwrap();
    let o = env.run(&["doctor"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(row(&json(&o), "provider", "none")["status"], "warn");
    // A store copied in with a mode others may read is named, with the fix.
    assert_eq!(code(&env.run(&["db", "migrate"])), 0);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(env.db(), std::fs::Permissions::from_mode(0o644)).unwrap();
    let report = json(&env.run(&["doctor"]));
    let mode = row(&report, "store", "(permissions)");
    assert_eq!(mode["status"], "warn", "{report}");
    assert!(
        mode["detail"].as_str().unwrap().contains("chmod 600"),
        "{mode}"
    );
    // A schema changed by hand is a failed check.
    let conn = rusqlite::Connection::open(env.db()).unwrap();
    conn.execute_batch("DROP INDEX tasks_owner").unwrap();
    drop(conn);
    let o = env.run(&["doctor"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let report = json(&o);
    let store = row(&report, "store", "goclaw.db");
    assert!(
        store["detail"]
            .as_str()
            .unwrap()
            .contains("index tasks_owner is missing"),
        "{store}"
    );
}

/// Without a store, or with one whose migrations are pending, doctor still starts the MCP
/// servers config.toml defines (the store's cannot be read), all at once, and leaves the home
/// as it found it: no store, no secret key.
#[test]
fn doctor_checks_config_servers_without_a_current_store_and_creates_nothing() {
    let Some(everything) = everything() else {
        return;
    };
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[mcp.servers.ev]\ncommand = \"node\"\nargs = [\"{everything}\"]\n\
             [mcp.servers.gone]\ncommand = \"/nonexistent/server\"\n"
        ),
    )
    .unwrap();
    let o = env.run(&["doctor"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let report = json(&o);
    assert_eq!(row(&report, "mcp", "ev")["status"], "ok", "{report}");
    assert_eq!(row(&report, "mcp", "gone")["status"], "fail", "{report}");
    let mut home: Vec<String> = std::fs::read_dir(env.home())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    home.sort();
    assert_eq!(home, ["config.toml"], "doctor made files");
    // A store one migration behind: the store warns, config's servers are still checked.
    assert_eq!(code(&env.run(&["db", "migrate"])), 0);
    let conn = rusqlite::Connection::open(env.db()).unwrap();
    let v: i64 = conn
        .query_row("SELECT max(version) FROM schema_migrations", [], |r| {
            r.get(0)
        })
        .unwrap();
    conn.execute_batch(&format!(
        "DELETE FROM schema_migrations WHERE version = {v}; PRAGMA user_version = {};",
        v - 1
    ))
    .unwrap();
    drop(conn);
    let report = json(&env.run(&["doctor"]));
    assert_eq!(
        row(&report, "store", "goclaw.db")["status"],
        "warn",
        "{report}"
    );
    assert_eq!(row(&report, "mcp", "ev")["status"], "ok", "{report}");
    assert!(!env.home().join("secret.key").exists());
}

/// A server that starts and never answers fails its check within doctor's 10 s, and is gone
/// when doctor ends.
#[test]
fn doctor_gives_a_silent_server_ten_seconds() {
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        "[mcp.servers.mute]\ncommand = \"sleep\"\nargs = [\"61.25\"]\n",
    )
    .unwrap();
    let t = std::time::Instant::now();
    let o = env.run(&["doctor"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(
        t.elapsed() < std::time::Duration::from_secs(15),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(row(&json(&o), "mcp", "mute")["status"], "fail");
    assert!(processes_end("sleep 61.25"), "the server outlived doctor");
}
