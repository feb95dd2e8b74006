//! `goclaw mcp`: the server registry, secrets at rest, grants and access requests.

use std::os::unix::fs::PermissionsExt;

use crate::util::*;

fn home() -> TestEnv {
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.alice]\n[agents.bob]\n\n[mcp.servers.cfgsrv]\ncommand = \"echo\"\nargs = [\"hi\"]\nprefix = \"pg\"\n",
    )
    .unwrap();
    env
}

#[test]
fn servers_are_kept_with_secrets_sealed() {
    let env = home();
    let o = env.run(&[
        "mcp",
        "add",
        "every-thing",
        "--command",
        "npx",
        "--arg",
        "-y",
        "--arg",
        "@modelcontextprotocol/server-everything",
        "--env",
        "API_TOKEN=s3cret-token-value-42",
        "--access",
        "granted",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let s = json(&o);
    assert_eq!(s["transport"], "stdio");
    assert_eq!(s["tool_prefix"], "mcp_every_thing");
    assert_eq!(s["env_keys"], serde_json::json!(["API_TOKEN"]));
    assert!(!stdout(&o).contains("s3cret"));
    let o = env.run(&[
        "mcp",
        "add",
        "remote",
        "--url",
        "https://mcp.example.com/mcp",
        "--header",
        "Authorization=Bearer hdr-secret-99",
    ]);
    assert_eq!(json(&o)["transport"], "streamable-http");
    // Neither the output nor the store file holds a secret in clear.
    let listing = stdout(&env.run(&["mcp", "list"]));
    assert!(!listing.contains("s3cret") && !listing.contains("hdr-secret"));
    let db = std::fs::read(env.db()).unwrap();
    let wal = std::fs::read(env.home().join("goclaw.db-wal")).unwrap_or_default();
    for bytes in [&db, &wal] {
        assert!(
            !bytes.windows(6).any(|w| w == b"s3cret"),
            "a secret is stored in clear"
        );
        assert!(
            !bytes.windows(10).any(|w| w == b"hdr-secret"),
            "a header is stored in clear"
        );
    }
    let key = env.home().join("secret.key");
    assert_eq!(
        std::fs::metadata(&key).unwrap().permissions().mode() & 0o777,
        0o600
    );
    // The library opens them with the key.
    let store = goclaw::store::Store::open(&env.db(), std::time::Duration::from_secs(5)).unwrap();
    let k = goclaw::secrets::SecretKey::load(&env.home()).unwrap();
    let (envs, _) = goclaw::mcp::secrets(store.conn(), &k, "every-thing").unwrap();
    assert_eq!(envs["API_TOKEN"], "s3cret-token-value-42");
    // A wrong key is refused, not silently misread.
    let other = tempfile::tempdir().unwrap();
    let wrong = goclaw::secrets::SecretKey::load(other.path()).unwrap();
    assert!(goclaw::mcp::secrets(store.conn(), &wrong, "every-thing").is_err());
    assert_error(
        &env.cmd(&["mcp", "add", "x", "--command", "y"])
            .env("GOCLAW_SECRET_KEY", "nothex")
            .output()
            .unwrap(),
        2,
        "usage",
    );
}

#[test]
fn registry_commands_and_refusals() {
    let env = home();
    assert_eq!(code(&env.run(&["mcp", "add", "a", "--command", "echo"])), 0);
    assert_error(
        &env.run(&["mcp", "add", "a", "--command", "echo"]),
        6,
        "conflict",
    );
    assert_error(
        &env.run(&["mcp", "add", "cfgsrv", "--command", "echo"]),
        6,
        "conflict",
    );
    assert_error(
        &env.run(&["mcp", "add", "bad name", "--command", "echo"]),
        2,
        "usage",
    );
    assert_error(
        &env.run(&["mcp", "add", "h", "--url", "ftp://x"]),
        2,
        "usage",
    );
    assert_error(&env.run(&["mcp", "add", "h"]), 2, "usage");
    let list = json(&env.run(&["mcp", "list"]));
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "cfgsrv"]);
    assert_eq!(list[1]["source"], "config");
    assert_eq!(list[1]["tool_prefix"], "mcp_pg");
    assert_eq!(json(&env.run(&["mcp", "disable", "a"]))["enabled"], false);
    assert_eq!(json(&env.run(&["mcp", "enable", "a"]))["enabled"], true);
    assert_error(&env.run(&["mcp", "rm", "cfgsrv"]), 6, "conflict");
    assert_error(&env.run(&["mcp", "show", "nope"]), 5, "not_found");
    assert_eq!(code(&env.run(&["mcp", "rm", "a"])), 0);
    assert_error(&env.run(&["mcp", "rm", "a"]), 5, "not_found");
}

#[test]
fn grants_and_reviewed_requests() {
    let env = home();
    env.run(&[
        "mcp",
        "add",
        "db",
        "--command",
        "echo",
        "--access",
        "granted",
    ]);
    let g = json(&env.run(&[
        "mcp",
        "grant",
        "db",
        "--agent",
        "alice",
        "--allow",
        "query,schema",
        "--deny",
        "drop",
    ]));
    assert_eq!(g["tool_allow"], serde_json::json!(["query", "schema"]));
    assert_eq!(g["tool_deny"], serde_json::json!(["drop"]));
    assert_error(
        &env.run(&["mcp", "grant", "db", "--agent", "ghost"]),
        5,
        "not_found",
    );
    assert_eq!(
        json(&env.run(&["mcp", "grant", "db", "--user", "u-7", "--disabled"]))["enabled"],
        false
    );
    assert_eq!(
        json(&env.run(&["mcp", "grants", "db"]))
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(code(&env.run(&["mcp", "revoke", "db", "--user", "u-7"])), 0);
    assert_error(
        &env.run(&["mcp", "revoke", "db", "--user", "u-7"]),
        5,
        "not_found",
    );
    // A request, approved: the grant appears in the same transaction.
    let r = json(&env.run(&[
        "mcp", "request", "db", "--agent", "bob", "--tools", "query", "--reason", "reports",
    ]));
    assert_eq!(r["status"], "pending");
    let id = r["id"].as_i64().unwrap().to_string();
    assert_eq!(
        json(&env.run(&["mcp", "requests", "--status", "pending"]))
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let done = json(&env.run(&["mcp", "review", &id, "--approve", "--note", "ok"]));
    assert_eq!(done["grant_created"], true);
    let grants = json(&env.run(&["mcp", "grants", "db"]));
    assert!(
        grants
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["subject"] == "bob" && g["tool_allow"] == serde_json::json!(["query"]))
    );
    assert_error(&env.run(&["mcp", "review", &id, "--reject"]), 6, "conflict");
    let r2 = json(&env.run(&[
        "mcp", "request", "db", "--user", "carol", "--reason", "please",
    ]));
    let id2 = r2["id"].as_i64().unwrap().to_string();
    assert_eq!(
        json(&env.run(&["mcp", "review", &id2, "--reject"]))["grant_created"],
        false
    );
    assert_error(
        &env.run(&["mcp", "review", "999", "--approve"]),
        5,
        "not_found",
    );
    assert_error(
        &env.run(&["mcp", "request", "db", "--agent", "bob", "--reason", " "]),
        2,
        "usage",
    );
    // Access: granted servers need an enabled agent grant; a disabled user grant removes it.
    let store = goclaw::store::Store::open(&env.db(), std::time::Duration::from_secs(5)).unwrap();
    let cfg = goclaw::mcp::McpConfig::default();
    let server = goclaw::mcp::get(store.conn(), &cfg, "db").unwrap();
    let alice = goclaw::mcp::access_for(store.conn(), &server, Some("alice"), None).unwrap();
    let alice = alice.unwrap();
    assert!(alice.allows("query") && !alice.allows("drop") && !alice.allows("other"));
    assert_eq!(
        goclaw::mcp::access_for(store.conn(), &server, Some("nobody"), None).unwrap(),
        None
    );
    drop(store);
    env.run(&["mcp", "grant", "db", "--user", "u-9", "--disabled"]);
    let store = goclaw::store::Store::open(&env.db(), std::time::Duration::from_secs(5)).unwrap();
    assert_eq!(
        goclaw::mcp::access_for(store.conn(), &server, Some("alice"), Some("u-9")).unwrap(),
        None
    );
}
