//! `credentialed_exec` and `goclaw secure-cli`: operator injection in every form, binary
//! spoofing by PATH and by workspace file, deny patterns, the child's environment, and the
//! credential kept out of output and out of the store's plain text.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::util::*;

/// Matches no static scrub pattern: only the registered value can hide it.
const TOKEN: &str = "zq8-plain-looking-credential-7781";

/// A fake `gh` in `dir`: says how it was called and leaves a mark in $HOME.
fn fake_gh(dir: &Path, says: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("gh");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\necho \"{says}: $*\"\necho \"it is $GH_TOKEN\"\ntouch \"$HOME/gh-ran\"\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// PATH with `first` in front of the system's.
fn path_with(first: &Path) -> String {
    format!("{}:/usr/local/bin:/usr/bin:/bin", first.display())
}

/// A home with the fake gh registered through the preset (token from the environment).
fn registered(backend: Backend) -> Option<(TestEnv, String)> {
    let env = TestEnv::on(backend)?;
    let bin = env.root().join("bin");
    fake_gh(&bin, "real gh");
    let path = path_with(&bin);
    let o = env
        .cmd(&["secure-cli", "add", "gh", "--preset", "gh"])
        .env("PATH", &path)
        .env("GH_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{} {}", stdout(&o), stderr(&o));
    Some((env, path))
}

fn call(env: &TestEnv, path: &str, command: &str) -> (i32, String) {
    let args = serde_json::json!({ "command": command }).to_string();
    let o = env
        .cmd(&["tools", "exec", "credentialed_exec", &args])
        .env("PATH", path)
        .env("PARENT_SECRET", "must-not-leak")
        .output()
        .unwrap();
    tool_text(&o)
}

fn ran(env: &TestEnv) -> bool {
    let mark = env.root().join("gh-ran");
    let was = mark.exists();
    let _ = std::fs::remove_file(mark);
    was
}

on_both_backends! {
fn a_registered_cli_runs_with_its_token_and_the_token_never_shows(backend) {
    let Some((env, path)) = registered(backend) else { return };
    let (c, text) = call(&env, &path, "gh pr list --json 'title,url'");
    assert_eq!(c, 0, "{text}");
    assert!(text.contains("real gh: pr list --json title,url"), "{text}");
    assert!(text.contains("it is [REDACTED]"), "{text}");
    assert!(!text.contains(TOKEN));
    assert!(ran(&env));
    // Listing shows variable names, never values; the store holds only sealed bytes.
    let list = stdout(&env.run(&["secure-cli", "list"]));
    assert!(list.contains("\"env_keys\":[\"GH_TOKEN\"]"), "{list}");
    // For every agent: null, as other commands say "no agent".
    assert!(list.contains("\"agent\":null"), "{list}");
    assert!(!list.contains(TOKEN));
    let db = env.store_bytes();
    assert!(
        !db.windows(TOKEN.len()).any(|w| w == TOKEN.as_bytes()),
        "the token is in the store in plain text"
    );
    let history = stdout(&env.run(&["tools", "history"]));
    assert!(!history.contains(TOKEN));
}
}

on_both_backends! {
fn shell_operators_are_refused_quoted_or_not_and_nothing_runs(backend) {
    let Some((env, path)) = registered(backend) else { return };
    for command in [
        "gh pr list; cat /etc/passwd",
        "gh pr list && id",
        "gh pr list || id",
        "gh pr list | sh",
        "gh pr list & id",
        "gh pr list > out.txt",
        "gh pr list < /etc/passwd",
        "gh pr list >> out.txt",
        "gh $(id)",
        "gh `id`",
        "gh ${HOME}",
        "gh api x --jq '.[0] | .name'",
        "gh 'pr;list'",
        "gh \"pr && list\"",
        "gh pr list\nid",
        "gh pr list\r\nid",
    ] {
        let (c, text) = call(&env, &path, command);
        assert_eq!(c, 1, "{command:?}: {text}");
        assert!(
            text.starts_with("[CREDENTIALED EXEC] Shell operators not supported.\nDetected: "),
            "{command:?}: {text}"
        );
        assert!(!ran(&env), "{command:?} ran");
    }
    assert!(!env.work().join("out.txt").exists());
    let (_, text) = call(&env, &path, "gh a && b | c; d");
    assert!(text.contains("Detected: &, |, ;\n"), "{text}");
}
}

on_both_backends! {
fn a_spoofed_binary_never_passes(backend) {
    let Some((env, path)) = registered(backend) else { return };
    // Another gh earlier on PATH.
    let evil = env.root().join("evil");
    fake_gh(&evil, "evil gh");
    let (c, text) = call(&env, &format!("{}:{path}", evil.display()), "gh pr list");
    assert_eq!(c, 1, "{text}");
    assert!(
        text.contains("[CREDENTIALED EXEC] Binary resolution failed.\nBinary: gh\nError: binary path mismatch: resolved"),
        "{text}"
    );
    assert!(!ran(&env));
    // A gh in the workspace: by path it is not the registered name; through a `.` on PATH
    // it resolves elsewhere than registered.
    fake_gh(&env.work(), "workspace gh");
    let (c, text) = call(&env, &path, "./gh pr list");
    assert_eq!(c, 1);
    assert!(text.contains("\"./gh\" is not a registered CLI"), "{text}");
    let (c, text) = call(&env, &format!(".:{path}"), "gh pr list");
    assert_eq!(c, 1);
    assert!(text.contains("binary path mismatch"), "{text}");
    let (_, text) = call(&env, &path, "/usr/bin/gh pr list");
    assert!(text.contains("is not a registered CLI"), "{text}");
    assert!(!ran(&env));
    // The registered file replaced by a symlink to another program.
    let real = env.root().join("bin/gh");
    std::fs::remove_file(&real).unwrap();
    std::os::unix::fs::symlink(evil.join("gh"), &real).unwrap();
    let (c, text) = call(&env, &path, "gh pr list");
    assert_eq!(c, 1);
    assert!(text.contains("binary path mismatch"), "{text}");
    assert!(!ran(&env));
}
}

on_both_backends! {
fn deny_patterns_refuse_before_anything_runs(backend) {
    let Some((env, path)) = registered(backend) else { return };
    for (command, pattern) in [
        ("gh auth token", "auth\\s+"),
        ("gh repo delete me/x --yes", "repo\\s+delete"),
        ("gh secret list", "secret\\s+"),
        ("gh pr list -v", "-v"),
        ("gh pr list --verbose", "--verbose"),
    ] {
        let (c, text) = call(&env, &path, command);
        assert_eq!(c, 1, "{command}");
        assert!(
            text.contains(&format!("Matched deny pattern: {pattern}\n")),
            "{command}: {text}"
        );
        assert!(!ran(&env));
    }
    let (c, text) = call(&env, &path, "gh --version");
    assert_eq!(c, 0, "--version is not -v: {text}");
}
}

on_both_backends! {
fn the_child_sees_only_the_minimal_environment(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let o = env.run(&[
        "secure-cli",
        "add",
        "env",
        "--env",
        "ACME_ACCESS=zq8-plain-looking-credential-7781",
        "--env",
        "REGION=eu",
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let (c, text) = call(&env, "/usr/local/bin:/usr/bin:/bin", "env");
    assert_eq!(c, 0, "{text}");
    let mut keys: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once('=').map(|(k, _)| k))
        .collect();
    keys.sort();
    assert_eq!(
        keys,
        ["ACME_ACCESS", "HOME", "LANG", "PATH", "REGION", "USER"],
        "{text}"
    );
    assert!(text.contains("ACME_ACCESS=[REDACTED]"), "{text}");
    assert!(
        text.contains("REGION=eu"),
        "short values are not secrets: {text}"
    );
    assert!(!text.contains("must-not-leak") && !text.contains("GOCLAW_HOME"));
}
}

on_both_backends! {
fn registration_mistakes_are_usage_errors(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    let o = env
        .cmd(&["secure-cli", "add", "env", "--preset", "gh"])
        .env_remove("GH_TOKEN")
        .output()
        .unwrap();
    let err = assert_error(&o, 2, "usage");
    assert!(
        err["message"].as_str().unwrap().contains("needs GH_TOKEN"),
        "{err}"
    );
    // A preset variable that names a file must name one.
    let o = env
        .cmd(&["secure-cli", "add", "env", "--preset", "kubectl"])
        .env("KUBECONFIG", "/nonexistent/kubeconfig")
        .output()
        .unwrap();
    let err = assert_error(&o, 2, "usage");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("KUBECONFIG must name a file"),
        "{err}"
    );
    let o = env.run(&["secure-cli", "add", "./gh"]);
    assert_error(&o, 2, "usage");
    let o = env.run(&["secure-cli", "add", "env", "--env", "MISSING_VAR_X"]);
    assert_error(&o, 2, "usage");
    let o = env.run(&["secure-cli", "add", "env", "--deny-args", "("]);
    assert_error(&o, 2, "usage");
    let o = env.run(&["secure-cli", "add", "no-such-binary-here"]);
    assert_error(&o, 5, "not_found");
    // A --path to nothing is not found too, as approvals says of one.
    let o = env.run(&["secure-cli", "add", "gh", "--path", "/nonexistent/gh"]);
    assert_error(&o, 5, "not_found");
    let o = env.run(&["secure-cli", "rm", "nothing"]);
    assert_error(&o, 5, "not_found");
    // Disabled: not usable; removed: gone.
    assert_eq!(code(&env.run(&["secure-cli", "add", "env"])), 0);
    assert_eq!(code(&env.run(&["secure-cli", "disable", "env"])), 0);
    let (c, text) = call(&env, "/usr/bin:/bin", "env");
    assert_eq!(c, 1);
    assert!(text.contains("is not a registered CLI"), "{text}");
    assert_eq!(code(&env.run(&["secure-cli", "rm", "env"])), 0);
    let presets = list(&env.run(&["secure-cli", "presets"]));
    let names: Vec<&str> = presets
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["aws", "gcloud", "gh", "kubectl", "terraform"]);
}
}

on_both_backends! {
fn an_agent_run_is_told_about_its_credentialed_clis(backend) {
    let Some((env, _)) = registered(backend) else { return };
    let provider = crate::run::recording(&env, "r.jsonl", &[crate::run::answer("ok")]);
    let (_, inputs) = crate::run::verbose_run(&env, &["--provider", &provider, "hi"]);
    let system = inputs[0][0]["content"].as_str().unwrap();
    assert!(system.contains("## Credentialed CLI Tools"), "{system}");
    assert!(
        system.contains(
            "**gh** — GitHub CLI\n  Blocked: auth, ssh-key, gpg-key, repo delete, secret\n"
        ),
        "{system}"
    );
    assert!(!system.contains(TOKEN));
}
}
