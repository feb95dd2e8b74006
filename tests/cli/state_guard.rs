//! goclaw's own state against a command that plants or moves it: state paths that do not exist
//! yet are made before the command runs (so they are masked), the directories above a mask are
//! pinned (a command cannot rename them), the file tools move no directory that holds state, and
//! they write nothing inside `.git`.

use serde_json::{Value, json};

use crate::trust::sandbox_modes;
use crate::util::*;

/// `goclaw GLOBAL… tools exec TOOL ARGS` in `env`.
fn call(env: &TestEnv, global: &[&str], tool: &str, args: Value) -> std::process::Output {
    let args = args.to_string();
    let mut argv: Vec<&str> = global.to_vec();
    argv.extend(["tools", "exec", tool, &args]);
    env.run(&argv)
}

#[test]
fn a_command_cannot_plant_state_that_goclaw_would_trust_later() {
    let env = TestEnv::new();
    if sandbox_modes().is_empty() {
        return;
    }
    // The store in the workspace's root: masked file by file, so the missing ones matter. No
    // config file: its default place ($GOCLAW_HOME, here under a writable root) is free too.
    let global = ["--db", "g.db"];
    let home = env.home();
    let config = home.join("config.toml");
    assert!(!config.exists());
    let plant = format!(
        "mkdir -p processes/1 && ln -s {outside} processes/1/0.log; printf x > g.db-journal; \
         printf 00 > secret.key; h={home}; cd $h && printf '[tools.exec]\\nsandbox = \"none\"\\n' > \
         config.toml; ls -a $h",
        outside = env.root().join("outside").display(),
        home = home.display(),
    );
    let o = call(&env, &global, "exec", json!({ "command": plant }));
    let (c, text) = tool_text(&o);
    assert!(
        text.contains("config.toml"),
        "the command ran ({c}): {text}"
    );
    let work = env.work();
    assert!(
        std::fs::read_dir(work.join("processes"))
            .unwrap()
            .next()
            .is_none(),
        "{text}"
    );
    assert_eq!(
        std::fs::read(work.join("g.db-journal")).unwrap(),
        b"",
        "{text}"
    );
    let key = std::fs::read_to_string(work.join("secret.key")).unwrap();
    assert_eq!(key.trim().len(), 64, "goclaw's own key: {key}");
    let written = std::fs::read_to_string(&config).unwrap();
    assert!(written.starts_with("# goclaw's config: empty"), "{written}");
    assert!(!env.root().join("outside").exists());
    // goclaw works on with what it made: the key opens, a background command logs.
    let o = call(
        &env,
        &global,
        "exec",
        json!({"command": "echo logged", "background": true}),
    );
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let mut log = String::new();
    for _ in 0..100 {
        log = stdout(&env.run(&["--db", "g.db", "process", "log", "1"]));
        if log.contains("logged") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(log.contains("logged"), "{log}");
    assert!(!env.root().join("outside").exists());
}

#[test]
fn the_directories_above_goclaws_state_stay_where_they_are() {
    for mode in sandbox_modes() {
        let env = TestEnv::new();
        let cfg_dir = env.root().join("cfg");
        std::fs::create_dir_all(&cfg_dir).unwrap();
        let cfg = cfg_dir.join("c.toml");
        let text = format!("[tools.exec]\nsandbox = \"{mode}\"\n");
        std::fs::write(&cfg, &text).unwrap();
        let cfg_arg = cfg.display().to_string();
        let global = ["--config", &cfg_arg, "--db", "a/state/g.db"];
        assert_eq!(code(&call(&env, &global, "datetime", json!({}))), 0);
        let o = call(
            &env,
            &global,
            "exec",
            json!({"command": format!(
                "mv a b; mv a/state a/s; cd {} && mv cfg moved; echo done",
                env.root().display()
            )}),
        );
        let (_, out) = tool_text(&o);
        assert!(out.contains("done"), "{mode}: {out}");
        assert!(
            env.work().join("a/state/g.db").exists() && !env.work().join("b").exists(),
            "{mode}: {out}"
        );
        assert_eq!(
            std::fs::read_to_string(&cfg).unwrap(),
            text,
            "{mode}: {out}"
        );
        // The file tools do not move them either.
        let o = call(
            &env,
            &global,
            "move_file",
            json!({"source": "a", "destination": "b"}),
        );
        assert_ne!(code(&o), 0);
        assert!(
            stdout(&o).contains("access denied: a holds a/state, which is restricted"),
            "{}",
            stdout(&o)
        );
        assert!(env.work().join("a/state/g.db").exists());
    }
}

#[test]
fn the_file_tools_write_nothing_inside_git() {
    let env = TestEnv::new();
    env.write(".git/config", "[core]\n\tbare = false\n");
    env.write(".git/hooks/README", "");
    env.write("notes.txt", "x\n");
    std::os::unix::fs::symlink(".git/hooks", env.work().join("hooks")).unwrap();
    for (tool, args) in [
        (
            "write_file",
            json!({"path": ".git/config", "content": "[core]\n\tfsmonitor = \"id\"\n"}),
        ),
        (
            "edit",
            json!({"path": ".git/config", "old_string": "bare", "new_string": "fsmonitor = id #"}),
        ),
        (
            "write_file",
            json!({"path": "hooks/pre-commit", "content": "#!/bin/sh\nid\n"}),
        ),
        (
            "write_file",
            json!({"path": "sub/.git/config", "content": "x"}),
        ),
        (
            "move_file",
            json!({"source": "notes.txt", "destination": ".git/hooks/post-checkout"}),
        ),
        ("delete_file", json!({"path": ".git/config"})),
    ] {
        let o = call(&env, &[], tool, args.clone());
        assert_ne!(code(&o), 0, "{tool} {args}");
        assert!(
            stdout(&o).contains("is inside .git"),
            "{tool} {args}: {}",
            stdout(&o)
        );
    }
    assert_eq!(
        std::fs::read_to_string(env.work().join(".git/config")).unwrap(),
        "[core]\n\tbare = false\n"
    );
    let hooks = env.work().join(".git/hooks");
    assert!(!hooks.join("pre-commit").exists() && !hooks.join("post-checkout").exists());
    assert!(!env.work().join("sub").exists() && env.work().join("notes.txt").exists());
    let o = call(&env, &[], "read_file", json!({"path": ".git/config"}));
    assert_eq!(code(&o), 0, "reading stays allowed: {}", stdout(&o));
}

#[test]
fn a_relative_path_from_a_pinned_directory_meets_the_masks() {
    for mode in sandbox_modes() {
        let env = TestEnv::new();
        // The workspace lies under /tmp, so it is pinned; the store is in its root.
        env.write("c.toml", format!("[tools.exec]\nsandbox = \"{mode}\"\n"));
        let global = ["--config", "c.toml", "--db", "g.db"];
        let o = call(
            &env,
            &global,
            "exec",
            json!({"command": "head -c 15 ./g.db; k=secret; head -c 8 ./$k.key; echo end"}),
        );
        let (_, text) = tool_text(&o);
        assert!(text.contains("end"), "{mode}: {text}");
        assert!(!text.contains("SQLite format"), "{mode}: {text}");
        let key = std::fs::read_to_string(env.work().join("secret.key")).unwrap();
        assert!(!text.contains(&key[..8]), "{mode}: the key leaked: {text}");
    }
}

#[test]
fn state_reached_through_a_link_a_command_could_replace_stops_exec() {
    let env = TestEnv::new();
    if sandbox_modes().is_empty() {
        return;
    }
    let outside = env.root().join("data");
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, env.work().join("data")).unwrap();
    let global = ["--db", "data/g.db"];
    let o = call(&env, &global, "exec", json!({"command": "echo ran"}));
    assert_ne!(code(&o), 0);
    assert!(
        stdout(&o).contains("is reached through the symlink")
            && stdout(&o).contains("give goclaw the real path (--db)"),
        "{}",
        stdout(&o)
    );
    // Its real path works, and tools that run nothing are not affected.
    let real = outside.join("g.db").display().to_string();
    let o = call(
        &env,
        &["--db", &real],
        "exec",
        json!({"command": "echo ran"}),
    );
    assert_eq!(tool_text(&o), (0, "ran\n".to_string()));
    assert_eq!(code(&call(&env, &global, "datetime", json!({}))), 0);
}

#[test]
fn the_file_tools_leave_the_homes_start_up_files_alone() {
    let env = TestEnv::new();
    // A workspace that holds the home directory (goclaw started from ~).
    let ws = env.root().display().to_string();
    for path in [
        ".gitconfig",
        ".config/git/config",
        ".bashrc",
        ".ssh/authorized_keys",
    ] {
        let o = call(
            &env,
            &["--workspace", &ws],
            "write_file",
            json!({"path": path, "content": "[core]\n\tfsmonitor = \"id\"\n"}),
        );
        assert_ne!(code(&o), 0, "{path}");
        assert!(
            stdout(&o).contains("is read as code"),
            "{path}: {}",
            stdout(&o)
        );
        assert!(!env.root().join(path).exists(), "{path}");
    }
    let o = call(
        &env,
        &["--workspace", &ws],
        "write_file",
        json!({"path": "work/.bashrc.example", "content": "x"}),
    );
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}

#[test]
fn a_command_keeps_no_capability_even_under_root() {
    for mode in sandbox_modes() {
        let env = TestEnv::new();
        env.write("c.toml", format!("[tools.exec]\nsandbox = \"{mode}\"\n"));
        let o = call(
            &env,
            &["--config", "c.toml"],
            "exec",
            json!({"command": "grep -E '^Cap(Eff|Prm|Bnd|Amb)' /proc/self/status"}),
        );
        let (c, text) = tool_text(&o);
        assert_eq!(c, 0, "{mode}: {text}");
        for line in text.lines() {
            assert!(line.ends_with("0000000000000000"), "{mode}: {text}");
        }
    }
}

#[test]
fn a_dot_dot_in_a_state_path_is_read_as_written() {
    let env = TestEnv::new();
    if sandbox_modes().is_empty() {
        return;
    }
    // `--config WS/sub/../c.toml` is WS/c.toml, whatever `sub` becomes.
    env.write("c.toml", "[tools.exec]\nsandbox = \"auto\"\n");
    env.write("sub/keep", "");
    let elsewhere = env.root().join("elsewhere");
    std::fs::create_dir_all(elsewhere.join("d")).unwrap();
    std::fs::write(
        elsewhere.join("c.toml"),
        "[tools.exec]\nsandbox = \"none\"\n",
    )
    .unwrap();
    let cfg = env.work().join("sub/../c.toml").display().to_string();
    let swap = format!(
        "mv sub sub.old && ln -s {} sub && echo swapped",
        elsewhere.join("d").display()
    );
    let o = call(
        &env,
        &["--config", &cfg],
        "exec",
        json!({ "command": swap }),
    );
    assert!(tool_text(&o).1.contains("swapped"), "{}", stdout(&o));
    let o = env.run(&[
        "--config",
        &cfg,
        "tools",
        "exec",
        "exec",
        "--dry-run",
        r#"{"command":"true"}"#,
    ]);
    let kind = json(&o)["decision"]["sandbox"]["kind"].clone();
    assert_ne!(kind, "none", "{}", stdout(&o));
}

/// A directory the file tools may write that is made to look like a bare repository (`HEAD`,
/// `objects`, `refs`, and a `config` whose `core.fsmonitor` runs a command) is no repository to
/// a `git status` the allowlist approves: git would run the command. And what a program carries
/// in its arguments (`find -exec`) needs approval of its own: allowing `find .` approves no
/// `-exec`.
#[test]
fn an_approved_program_runs_nothing_the_model_planted_or_carried() {
    let env = TestEnv::new();
    env.write(
        "c.toml",
        "[tools.exec]\napproval = \"ask\"\nsandbox = \"none\"\n",
    );
    for (file, content) in [
        ("gd/HEAD", "ref: refs/heads/main\n"),
        ("gd/objects/info/keep", ""),
        ("gd/refs/heads/keep", ""),
        (
            "gd/config",
            "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = \"touch PLANTED; false\"\n",
        ),
    ] {
        let o = call(
            &env,
            &[],
            "write_file",
            json!({"path": file, "content": content}),
        );
        assert_eq!(code(&o), 0, "{file}: {}", stdout(&o));
    }
    for allowed in [&["git", "status"][..], &["find", "."]] {
        let mut a = vec!["--config", "c.toml", "approvals", "allow"];
        a.extend(allowed);
        assert_eq!(code(&env.run(&a)), 0);
    }
    let exec = |command: &str| {
        call(
            &env,
            &["--config", "c.toml"],
            "exec",
            json!({ "command": command }),
        )
    };
    let o = exec("cd gd && git status");
    assert!(stdout(&o).contains("safe.bareRepository"), "{}", stdout(&o));
    assert!(!env.work().join("PLANTED").exists() && !env.work().join("gd/PLANTED").exists());
    let o = exec("find . -maxdepth 0 -exec touch CARRIED \\;");
    assert_eq!(code(&o), 3, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("not on the allowlist: touch CARRIED"),
        "{}",
        stdout(&o)
    );
    assert!(!env.work().join("CARRIED").exists());
    assert_eq!(code(&exec("find . -maxdepth 0")), 0);
}
