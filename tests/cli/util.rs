//! The test harness: a temporary home per test, and a `goclaw` command that sees only it.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use tempfile::TempDir;

/// A temporary home: `home/` is GOCLAW_HOME, `work/` the current directory.
pub struct TestEnv {
    dir: TempDir,
}

impl TestEnv {
    pub fn new() -> TestEnv {
        let dir = tempfile::Builder::new()
            .prefix("goclaw-test-")
            .tempdir()
            .unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        TestEnv { dir }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    /// Path of the default store.
    pub fn db(&self) -> PathBuf {
        self.home().join("goclaw.db")
    }

    /// Writes a file under the work directory and returns its path.
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let p = self.work().join(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(&p, content).unwrap();
        p
    }

    /// Variables a test never inherits.
    const UNSET: [&'static str; 14] = [
        "GOCLAW_DB",
        "GOCLAW_CONFIG",
        "GOCLAW_WORKSPACE",
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "NO_COLOR",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "GOCLAW_AGENT",
        "GOCLAW_SESSION",
        "GOCLAW_MCP_CHILD",
        "GOCLAW_SECRET_KEY",
    ];

    /// `goclaw ARGS…` with a clean environment pointing at this home.
    pub fn cmd(&self, args: &[&str]) -> Command {
        Command::from_std(self.std_cmd(args))
    }

    /// The same as a `std::process::Command`, for streams and stdin of any kind.
    pub fn std_cmd(&self, args: &[&str]) -> std::process::Command {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("goclaw"));
        for var in Self::UNSET {
            c.env_remove(var);
        }
        c.env("GOCLAW_HOME", self.home())
            .env("HOME", self.root())
            .current_dir(self.work())
            .args(args);
        c
    }

    /// Runs and returns the output.
    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().unwrap()
    }

    /// `goclaw ARGS…` as a running child with stdin, stdout and stderr piped, for streams.
    pub fn spawn(&self, args: &[&str]) -> std::process::Child {
        self.std_cmd(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    }

    pub fn run_stdin(&self, args: &[&str], stdin: impl Into<Vec<u8>>) -> Output {
        self.cmd(args).write_stdin(stdin).output().unwrap()
    }
}

pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// stdout parsed as one JSON document.
pub fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}):\n{}\nstderr:\n{}",
            stdout(o),
            stderr(o)
        )
    })
}

/// A `tools exec` call's exit code and what the model would read: the result's text, or the
/// error document's message.
pub fn tool_text(o: &Output) -> (i32, String) {
    let doc = json(o);
    let text = doc["result"]["for_llm"]
        .as_str()
        .or(doc["error"]["message"].as_str())
        .unwrap_or_default()
        .to_string();
    (code(o), text)
}

/// `goclaw ARGS` under `script`, so it has a terminal; `typed` (a line) is sent after a pause,
/// or nothing. Returns the screen.
pub fn on_terminal(env: &TestEnv, args: &str, typed: Option<&str>) -> String {
    let mut child = terminal(env, args);
    std::thread::sleep(std::time::Duration::from_millis(700));
    if let Some(t) = typed {
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), format!("{t}\n").as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `goclaw ARGS` under `script` whose user never types: stdin stays open until it ends.
pub fn on_unanswered_terminal(env: &TestEnv, args: &str) -> String {
    let mut child = terminal(env, args);
    let _stdin = child.stdin.take();
    let mut out = Vec::new();
    std::io::Read::read_to_end(child.stdout.as_mut().unwrap(), &mut out).unwrap();
    child.wait().unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

fn terminal(env: &TestEnv, args: &str) -> std::process::Child {
    let inner = format!(
        "{} {args}",
        assert_cmd::cargo::cargo_bin("goclaw").display()
    );
    std::process::Command::new("script")
        .args(["-qec", &inner, "/dev/null"])
        .env("GOCLAW_HOME", env.home())
        .current_dir(env.work())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// The `name` of every element of a JSON array on stdout (e.g. `tools list`).
pub fn names(o: &Output) -> Vec<String> {
    json(o)
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// Asserts the failure contract: the exit code, one JSON error document with that code on
/// stdout, and one human line on stderr. Returns the error object.
pub fn assert_error(o: &Output, exit: i32, name: &str) -> serde_json::Value {
    assert_eq!(
        code(o),
        exit,
        "exit code; stdout: {} stderr: {}",
        stdout(o),
        stderr(o)
    );
    let doc = json(o);
    let err = doc["error"].clone();
    assert_eq!(err["code"], name, "{doc}");
    assert_eq!(err["exit_code"], exit, "{doc}");
    assert!(
        err["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{doc}"
    );
    assert!(err.get("hint").is_some(), "hint key present: {doc}");
    let errs = stderr(o);
    assert_eq!(
        errs.lines().filter(|l| l.starts_with("error: ")).count(),
        1,
        "stderr: {errs}"
    );
    err
}

/// Replaces the temporary directory in output, for snapshots.
pub fn redact(env: &TestEnv, text: &str) -> String {
    text.replace(&env.root().display().to_string(), "[TMP]")
}
