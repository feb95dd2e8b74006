//! Every example of the README runs as written: each `sh` block, in order, in one fresh home
//! whose config is the README's own (its `toml` block that begins "# The config this README's
//! examples assume"), with fakellm as the model server (the Ollama address is swapped for
//! fakellm's). What the examples reach outside goclaw has a stand-in in `fixtures/readme/bin`:
//! the user's `app` and LLM CLI, `cargo` (the project's tests), and `gh` and `npx`, which
//! would need the network. The workspace is a copy of this checkout's README, Cargo.toml and
//! src/main.rs plus the files the examples name.
//!
//! A command passes when it exits 0, or with an exit code its comment announces ("exit 1"); a
//! command whose comment says "until Ctrl-C" gets SIGINT after 3 s and must exit 130 (or 0).
//! The set-up block (building, and `.ci/run`, the test command itself) is the one not run here.

use std::path::Path;

use crate::run::fakellm;
use crate::util::*;

/// The address the README's examples give for a local model server (Ollama).
const OLLAMA: &str = "http://127.0.0.1:11434/v1";
/// The media server of the README's config (LocalAI's address), swapped for mock-ai-api's.
const LOCALAI: &str = "http://127.0.0.1:8080/v1";

/// One command of an example block: its text (continuation lines and a heredoc included) and
/// the comments above it.
#[derive(Debug)]
struct Example {
    text: String,
    comments: String,
}

impl Example {
    /// The exit codes this command may end with: 0, and any its comments announce.
    fn allowed(&self) -> Vec<i32> {
        let words = format!("{} {}", self.comments, self.text);
        let mut codes = vec![0];
        let mut rest = words.as_str();
        while let Some(at) = rest.find("exit ") {
            rest = &rest[at + 5..];
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = n.parse() {
                codes.push(n);
            }
        }
        if self.until_ctrl_c() {
            codes.push(130);
        }
        codes
    }

    fn until_ctrl_c(&self) -> bool {
        self.text.contains("until Ctrl-C")
    }
}

/// The fenced blocks of `lang` in `markdown`, in order.
fn fenced(markdown: &str, lang: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match &mut current {
            None if line.trim_end() == format!("```{lang}") => current = Some(String::new()),
            Some(block) if line.trim_end() == "```" => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
}

/// The commands of one `sh` block.
fn examples(block: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut comments = String::new();
    let mut lines = block.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            comments.clear();
            continue;
        }
        if trimmed.starts_with('#') {
            comments.push_str(trimmed);
            comments.push('\n');
            continue;
        }
        let mut text = line.to_string();
        while text.ends_with('\\') {
            text.push('\n');
            text.push_str(lines.next().unwrap_or(""));
        }
        if let Some(at) = text.find("<<'") {
            let tag: String = text[at + 3..].chars().take_while(|c| *c != '\'').collect();
            for body in lines.by_ref() {
                text.push('\n');
                text.push_str(body);
                if body.trim() == tag {
                    break;
                }
            }
        }
        out.push(Example {
            text,
            comments: std::mem::take(&mut comments),
        });
    }
    out
}

/// The files the examples name, in the workspace.
fn workspace(env: &TestEnv, root: &Path) {
    for f in ["README.md", "Cargo.toml", "src/main.rs"] {
        env.write(f, std::fs::read(root.join(f)).unwrap());
    }
    env.write("notes.txt", "Ths file has teh typos.\n");
    env.write(
        "config.env",
        "DATABASE_HOST=db.internal\nAPI_KEY=sk-abcdefghijklmnopqrstuvwx\n",
    );
    env.write("deploy.log", "deployed v2 to staging\n");
    env.write(
        "events.jsonl",
        "{\"type\":\"tool.result\",\"result\":\"token sk-abcdefghijklmnopqrstuvwx\"}\n",
    );
    env.write("incoming.txt", "Please summarise the attached report.\n");
    env.write("request.txt", "write the release notes for v2\n");
    // The deploy CLI of the credentialed CLIs example (`--path ~/bin/deploy`).
    let deploy = env.root().join("bin/deploy");
    std::fs::create_dir_all(deploy.parent().unwrap()).unwrap();
    std::fs::write(&deploy, "#!/bin/sh\necho deployed \"$@\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&deploy, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The script that runs every example in order, each one's exit code written to `rc.N` and its
/// stderr to `err.N` under `out`.
fn script(examples: &[Example], out: &Path) -> String {
    let mut s = String::from("set -o pipefail\n");
    for (i, e) in examples.iter().enumerate() {
        let text = if e.until_ctrl_c() {
            format!("timeout --preserve-status -s INT 3 {}", e.text)
        } else {
            e.text.clone()
        };
        let dir = out.display();
        s.push_str(&format!(
            "{{ {text}\n}} >{dir}/out.{i} 2>{dir}/err.{i} </dev/null\necho $? >{dir}/rc.{i}\n"
        ));
    }
    s
}

/// A fresh home with the README's config (the model server swapped for `llm`'s) and the
/// workspace its examples assume.
fn readme_home(readme: &str, model_server: &str, media_server: &str) -> TestEnv {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = fenced(readme, "toml")
        .into_iter()
        .find(|b| b.starts_with("# The config this README's examples assume"))
        .expect("the README gives the config its examples assume");
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        config
            .replace(OLLAMA, model_server)
            .replace(LOCALAI, media_server),
    )
    .unwrap();
    workspace(&env, root);
    env
}

/// Runs `examples` in order in one shell in `env` (after `prelude`); returns the failures: each
/// command that ended with an exit code its comments do not allow, with its stderr.
fn run_examples(env: &TestEnv, examples: &[Example], prelude: &str) -> Vec<String> {
    // A command that does not parse (a help line wrapped inside its quotes) would swallow the
    // rest of the script: each is checked on its own first.
    let mut failed: Vec<String> = examples
        .iter()
        .filter(|e| {
            !std::process::Command::new("bash")
                .args(["-n", "-c", &e.text])
                .status()
                .is_ok_and(|s| s.success())
        })
        .map(|e| format!("not one shell command (a wrapped line?): {}", e.text))
        .collect();
    if !failed.is_empty() {
        return failed;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = env.root().join("examples-out");
    std::fs::create_dir_all(&out).unwrap();
    let path = format!(
        "{}:{}:{}",
        root.join("fixtures/readme/bin").display(),
        goclaw_bin().parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = env
        .launcher_cmd("timeout")
        .args(["-s", "KILL", "180", "bash", "-c"])
        .arg(format!("{prelude}\n{}", script(examples, &out)))
        .env("PATH", path)
        .env("DB_PASSWORD", "hunter2hunter2")
        .env("API_TOKEN", "api-token-123456")
        .env("TOKEN", "docs-token-123456")
        .env("prompt", "summarise the logs")
        .output()
        .unwrap();
    if code(&o) != 0 {
        let stuck = (0..examples.len())
            .find(|i| !out.join(format!("rc.{i}")).exists())
            .map(|i| examples[i].text.as_str());
        panic!(
            "the examples' script ended with {} at {stuck:?}: {}",
            code(&o),
            stderr(&o)
        );
    }
    for (i, e) in examples.iter().enumerate() {
        let read = |name: &str| std::fs::read_to_string(out.join(format!("{name}.{i}")));
        let rc: i32 = read("rc")
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(-1);
        if !e.allowed().contains(&rc) {
            let err = read("err").unwrap_or_default();
            failed.push(format!(
                "exit {rc}: {}\n    {}",
                e.text,
                err.trim().replace('\n', "\n    ")
            ));
        }
    }
    failed
}

#[test]
fn every_readme_example_runs_as_written() {
    let Some(llm) = fakellm() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let model_server = format!("{}/v1", llm.base);
    let Some(media) = crate::media::media_peer() else {
        return;
    };
    let env = readme_home(&readme, &model_server, &media.openai_v1());
    let all: Vec<Example> = fenced(&readme, "sh")
        .iter()
        .filter(|b| !b.contains(".ci/run"))
        .flat_map(|b| examples(&b.replace(OLLAMA, &model_server)))
        .collect();
    assert!(all.len() > 60, "{} examples found", all.len());
    let failed = run_examples(&env, &all, "");
    assert!(
        failed.is_empty(),
        "{} of {} README examples failed:\n{}",
        failed.len(),
        all.len(),
        failed.join("\n")
    );
}

/// The command paths of every help page, from `goclaw --help` down (`help` itself aside).
fn commands(env: &TestEnv, path: &[String], found: &mut Vec<Vec<String>>) {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    let help = stdout(&env.run(&args));
    found.push(path.to_vec());
    let listed = help
        .split("\nCommands:\n")
        .nth(1)
        .map(|rest| rest.split("\n\n").next().unwrap_or(""))
        .unwrap_or("");
    for line in listed.lines() {
        let Some(name) = line.split_whitespace().next() else {
            continue;
        };
        if name != "help" {
            let mut sub = path.to_vec();
            sub.push(name.to_string());
            commands(env, &sub, found);
        }
    }
}

/// The examples of one help page: the indented lines under "Example…:", up to a blank line.
fn help_examples(help: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut lines = help.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("Example") {
            continue;
        }
        for example in lines.by_ref() {
            if example.trim().is_empty() {
                break;
            }
            out.push(Example {
                text: example.trim().to_string(),
                comments: String::new(),
            });
        }
    }
    out
}

/// The examples of every `--help` page run too, in a fresh home with the README's config and
/// workspace, where its team `dev` exists and `$a` and `$b` name two runs.
#[test]
fn every_help_example_runs_as_written() {
    let Some(llm) = fakellm() else { return };
    let Some(media) = crate::media::media_peer() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let env = readme_home(&readme, &format!("{}/v1", llm.base), &media.openai_v1());
    let mut paths = Vec::new();
    commands(&env, &[], &mut paths);
    assert!(paths.len() > 100, "{} help pages", paths.len());
    let all: Vec<Example> = paths
        .iter()
        .flat_map(|p| {
            let mut args: Vec<&str> = p.iter().map(String::as_str).collect();
            args.push("--help");
            help_examples(&stdout(&env.run(&args)))
        })
        .collect();
    assert!(all.len() > 25, "{} help examples found", all.len());
    env.write(
        "fixtures/runs/quickstart.jsonl",
        std::fs::read(root.join("fixtures/runs/quickstart.jsonl")).unwrap(),
    );
    env.write("message.txt", "Please summarise the attached report.\n");
    env.write(
        "request.json",
        r#"{"model":"llama3.2","messages":[{"role":"user","content":"hi"}]}"#,
    );
    let prelude = "mkdir -p ~/.local/share/bash-completion/completions ~/.zfunc ~/.config/fish/completions\n\
                   goclaw team create dev --lead lead --member w1 --member w2 >/dev/null || exit 1\n\
                   a=$(goclaw run --detach 'one' | jq -r .run_id) || exit 1\n\
                   b=$(goclaw run --detach 'two' | jq -r .run_id) || exit 1";
    let failed = run_examples(&env, &all, prelude);
    assert!(
        failed.is_empty(),
        "{} of {} help examples failed:\n{}",
        failed.len(),
        all.len(),
        failed.join("\n")
    );
}

#[test]
fn examples_are_split_into_commands_with_their_comments() {
    let block = "# Fail (exit 1) when found.\ngoclaw scrub --check a \\\n  b\n\n\
                 goclaw tools add - <<'EOF'\n{\"name\": \"x\"}\nEOF\n\
                 goclaw team run dev --watch   # until Ctrl-C\n";
    let ex = examples(block);
    assert_eq!(ex.len(), 3, "{ex:?}");
    assert_eq!(ex[0].text, "goclaw scrub --check a \\\n  b");
    assert_eq!(ex[0].allowed(), [0, 1]);
    assert!(ex[1].text.ends_with("{\"name\": \"x\"}\nEOF"), "{ex:?}");
    assert_eq!(ex[1].allowed(), [0]);
    assert_eq!(ex[2].allowed(), [0, 130]);
}
