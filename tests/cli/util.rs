//! The test harness: a temporary home per test, and a `goclaw` command that sees only it; test
//! peers that may be missing; waiting for what another process does, never for a while.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use tempfile::TempDir;

/// The `goclaw` binary under test.
pub fn goclaw_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("goclaw")
}

/// Prefixes of the variables a goclaw under test never inherits: its own settings, the
/// providers' keys and addresses, and libpq's (the test PostgreSQL server's password).
const UNSET_PREFIXES: [&str; 4] = ["GOCLAW_", "OPENAI_", "ANTHROPIC_", "PG"];

/// Other variables a goclaw under test never inherits.
const UNSET: [&str; 3] = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "NO_COLOR"];

fn never_inherited(name: &OsStr) -> bool {
    let name = name.as_encoded_bytes();
    UNSET_PREFIXES
        .iter()
        .any(|p| name.starts_with(p.as_bytes()))
        || UNSET.iter().any(|v| name == v.as_bytes())
}

/// Removes from `c`'s environment every variable of this process that a goclaw under test must
/// not see: each `GOCLAW_*`, `OPENAI_*` and `ANTHROPIC_*`, whatever it is called, and the few in
/// [`UNSET`]. For goclaw itself, and for any program that starts goclaw (`script`, `timeout`,
/// an MCP client): its children inherit the cleaned environment. Variables set on `c`
/// afterwards are kept.
pub fn clean_env(c: &mut std::process::Command) -> &mut std::process::Command {
    let names: Vec<OsString> = std::env::vars_os()
        .map(|(name, _)| name)
        .filter(|name| never_inherited(name))
        .collect();
    for name in names {
        c.env_remove(name);
    }
    c
}

/// A temporary home: `home/` is GOCLAW_HOME, `work/` the current directory; the store is the
/// SQLite file in `home/`, or a PostgreSQL database of the test's own ([`TestEnv::on`]).
pub struct TestEnv {
    dir: TempDir,
    pg: Option<PgDb>,
}

/// Which store a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A test run once on each backend: `on_both_backends!(fn name(backend) { … })` makes the
/// tests `name::sqlite` and `name::postgres`, the body getting `backend: Backend` (for
/// [`TestEnv::on`]).
macro_rules! on_both_backends {
    ($(#[doc = $doc:literal])* fn $name:ident($backend:ident) $body:block) => {
        $(#[doc = $doc])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            fn on_backend($backend: $crate::util::Backend) $body
            #[test]
            fn sqlite() {
                on_backend($crate::util::Backend::Sqlite)
            }
            #[test]
            fn postgres() {
                on_backend($crate::util::Backend::Postgres)
            }
        }
    };
}
pub(crate) use on_both_backends;

impl TestEnv {
    pub fn new() -> TestEnv {
        let dir = tempfile::Builder::new()
            .prefix("goclaw-test-")
            .tempdir()
            .unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        TestEnv { dir, pg: None }
    }

    /// A home whose store is on `backend`: for PostgreSQL a database of its own on the test
    /// server, dropped with the home; `None` when that server is missing (outside CI).
    pub fn on(backend: Backend) -> Option<TestEnv> {
        let mut env = TestEnv::new();
        if backend == Backend::Postgres {
            env.pg = Some(PgDb::new()?);
        }
        Some(env)
    }

    /// The PostgreSQL database, when the store is on one.
    pub fn pg(&self) -> Option<&PgDb> {
        self.pg.as_ref()
    }

    /// The store through the library, whichever backend (for a test that asks it directly).
    pub fn open_store(&self) -> goclaw::store::Store {
        let timeout = std::time::Duration::from_secs(10);
        match &self.pg {
            None => goclaw::store::StoreTarget::Sqlite {
                path: self.db(),
                busy_timeout: timeout,
            },
            Some(pg) => goclaw::store::StoreTarget::Postgres(goclaw::store::db::PgConnect {
                url: goclaw::store::location::PgUrl::parse(
                    &pg.url_with_password(&pg.server.password),
                )
                .unwrap(),
                password_env: None,
                connect_timeout: timeout,
            }),
        }
        .open()
        .unwrap()
    }

    /// One statement that changes the store behind goclaw's back (a test ageing a row, as time
    /// would), whichever backend.
    pub fn change(&self, statement: &str) {
        match &self.pg {
            Some(pg) => {
                pg.psql(&pg.name, statement);
            }
            None => {
                rusqlite::Connection::open(self.db())
                    .unwrap()
                    .execute(statement, [])
                    .unwrap();
            }
        }
    }

    /// Everything the store holds, as bytes, whichever backend: the SQLite file and its WAL, or
    /// a data-only `pg_dump` of the database (for tests that a secret is never in plain text).
    pub fn store_bytes(&self) -> Vec<u8> {
        match &self.pg {
            Some(pg) => {
                let o = std::process::Command::new("pg_dump")
                    .args(["--data-only", "--no-owner", "-d", &pg.name])
                    .output()
                    .unwrap();
                assert!(o.status.success(), "pg_dump: {}", stderr(&o));
                assert!(!o.stdout.is_empty(), "pg_dump printed nothing");
                o.stdout
            }
            None => {
                let mut bytes = std::fs::read(self.db()).unwrap();
                let mut wal = self.db().into_os_string();
                wal.push("-wal");
                if let Ok(more) = std::fs::read(wal) {
                    bytes.extend(more);
                }
                bytes
            }
        }
    }

    /// One SQL query on the store, whichever backend (through `goclaw db query`): its rows.
    pub fn sql(&self, query: &str) -> Vec<serde_json::Value> {
        let o = self.run(&["db", "query", "--json", query]);
        assert_eq!(code(&o), 0, "{query}: {}", stderr(&o));
        stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
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

    /// `goclaw ARGS…` with a clean environment pointing at this home.
    pub fn cmd(&self, args: &[&str]) -> Command {
        Command::from_std(self.std_cmd(args))
    }

    /// The same as a `std::process::Command`, for streams and stdin of any kind.
    pub fn std_cmd(&self, args: &[&str]) -> std::process::Command {
        let mut c = self.launcher_cmd(goclaw_bin());
        c.args(args);
        c
    }

    /// `program` with the environment every goclaw under test gets ([`clean_env`], then
    /// GOCLAW_HOME and HOME in this test's directory) and the work directory as its current
    /// one: goclaw itself, or a program that starts it (`script`, `timeout`, an MCP client).
    pub fn launcher_cmd(&self, program: impl AsRef<OsStr>) -> std::process::Command {
        let mut c = std::process::Command::new(program);
        clean_env(&mut c)
            .env("GOCLAW_HOME", self.home())
            .env("HOME", self.root())
            .current_dir(self.work());
        if let Some(pg) = &self.pg {
            c.env("GOCLAW_DB", pg.url())
                .env("PGPASSWORD", &pg.server.password);
        }
        c
    }

    /// Runs and returns the output.
    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().unwrap()
    }

    /// Runs what must succeed (exit 0), for setting a test up; returns the output.
    pub fn ok(&self, args: &[&str]) -> Output {
        let o = self.run(args);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        o
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

/// `goclaw ARGS` under `script`, so it has a terminal: once `prompt` is on the screen, `typed`
/// (a line) is typed and stdin closes. Returns the screen.
pub fn on_terminal(env: &TestEnv, args: &str, prompt: &str, typed: &str) -> String {
    let mut child = terminal(env, args);
    let mut out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        loop {
            match std::io::Read::read(&mut out, &mut buf) {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let mut screen: Vec<u8> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !String::from_utf8_lossy(&screen).contains(prompt) {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(chunk) => screen.extend(chunk),
            Err(e) => {
                let _ = child.kill();
                panic!(
                    "no {prompt:?} on the terminal ({e}); the screen:\n{}",
                    String::from_utf8_lossy(&screen)
                );
            }
        }
    }
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{typed}\n").as_bytes()).unwrap();
    drop(stdin);
    screen.extend(rx.iter().flatten());
    reader.join().unwrap();
    child.wait().unwrap();
    String::from_utf8_lossy(&screen).into_owned()
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
    let inner = format!("{} {args}", goclaw_bin().display());
    env.launcher_cmd("script")
        .args(["-qec", &inner, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// A test peer (a program, a Python package, a kernel feature the test drives) that a machine
/// may lack: `found`, where the caller looked for it. When it is `None` the peer is missing:
/// under CI (`CI` set) that fails the test, naming the peer; elsewhere this says on stderr that
/// what needs the peer is skipped, and the caller skips it (`let Some(x) = require_peer(..)
/// else { return };`).
#[track_caller]
pub fn require_peer<T>(found: Option<T>, peer: &str) -> Option<T> {
    if found.is_none() {
        if std::env::var_os("CI").is_some() {
            panic!(
                "{}: the test peer {peer} is missing (CI runs every test)",
                test_name()
            );
        }
        skip_note(&format!("{peer} is missing"));
    }
    found
}

/// Says on stderr, past the test harness's capture, that the running test skips something,
/// and why. For a missing peer, use [`require_peer`].
pub fn skip_note(why: &str) {
    let _ = writeln!(
        std::io::stderr().lock(),
        "{}: skipped (in whole or in part): {why}",
        test_name()
    );
}

/// The running test's name (the test harness names each test's thread after it).
fn test_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string()
}

/// Whether a process whose command line matches `pattern` (`pgrep -f`) runs.
pub fn process_alive(pattern: &str) -> bool {
    std::process::Command::new("pgrep")
        .args(["-f", pattern])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Waits until no process whose command line matches `pattern` (`pgrep -f`) runs, for at most
/// 5 s (time for killed processes to end); whether none runs. For processes already started,
/// which do not end on their own within that time.
pub fn processes_end(pattern: &str) -> bool {
    gone_within_5s(|| process_alive(pattern))
}

/// Whether `alive` turns false within 5 s (time for killed processes to end).
fn gone_within_5s(alive: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive() {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// [`processes_end`] for the processes working in `dir` (their current directory inside it):
/// another test's processes of the same command line do not count.
pub fn processes_end_in(pattern: &str, dir: &Path) -> bool {
    gone_within_5s(|| processes_running(pattern, dir))
}

/// Whether a process whose command line matches `pattern` runs in `dir` (or below).
pub fn processes_running(pattern: &str, dir: &Path) -> bool {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    std::process::Command::new("pgrep")
        .args(["-f", pattern])
        .output()
        .map(|o| {
            stdout(&o).lines().any(|pid| {
                std::fs::read_link(format!("/proc/{}/cwd", pid.trim()))
                    .is_ok_and(|cwd| cwd.starts_with(&dir))
            })
        })
        .unwrap_or(false)
}

/// The parent of process `pid`, from /proc/PID/stat.
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `PID (COMM) STATE PPID …`, and COMM may hold spaces and parentheses.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

fn descends_from(mut pid: u32, ancestor: u32) -> bool {
    for _ in 0..64 {
        match parent_of(pid) {
            Some(p) if p == ancestor => return true,
            Some(p) if p > 1 => pid = p,
            _ => return false,
        }
    }
    false
}

/// The pids of the processes running now.
fn pids() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
                .collect()
        })
        .unwrap_or_default()
}

/// The first process whose command line holds `word` and whose parent's holds `parent_word`
/// (at most 10 s), with that parent: for catching a process the moment it has started one,
/// whoever its own parent is by then.
pub fn started_by(word: &str, parent_word: &str) -> (u32, u32) {
    let cmdline = |pid: u32| {
        String::from_utf8_lossy(&std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default())
            .into_owned()
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        for pid in pids() {
            if !cmdline(pid).contains(word) {
                continue;
            }
            if let Some(parent) = parent_of(pid).filter(|&p| cmdline(p).contains(parent_word)) {
                return (pid, parent);
            }
        }
        assert!(
            Instant::now() < deadline,
            "no `{word}` started by `{parent_word}`"
        );
        std::thread::yield_now();
    }
}

/// The high-water mark of process `pid`'s resident memory in KiB, read while it runs.
pub fn peak_kib(pid: u32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Whether process `pid` runs (a zombie has ended).
pub fn running(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rfind(')')
        .and_then(|i| stat[i + 1..].split_whitespace().next())
        .is_some_and(|state| state != "Z")
}

/// Waits (at most 20 s) until a process whose command line is exactly `cmdline` (arguments
/// joined by spaces) runs below `ancestor`, a process this test started: the sign that it has
/// got as far as starting that command. Returns its pid.
pub fn wait_for_descendant(ancestor: u32, cmdline: &str) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        for pid in pids() {
            let Ok(raw) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
                continue;
            };
            let line = raw
                .split(|&b| b == 0)
                .filter(|a| !a.is_empty())
                .map(String::from_utf8_lossy)
                .collect::<Vec<_>>()
                .join(" ");
            if line == cmdline && descends_from(pid, ancestor) {
                return pid;
            }
        }
        assert!(
            Instant::now() < deadline,
            "`{cmdline}` never ran below process {ancestor}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits (at most 20 s) until the child has read everything written so far to its `stdin`
/// pipe: the sign that it has started and is reading its input.
pub fn wait_until_read(stdin: &std::process::ChildStdin) {
    use std::os::fd::AsRawFd;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let mut unread: nix::libc::c_int = 0;
        // SAFETY: FIONREAD stores one int, the bytes waiting in the pipe, through the pointer,
        // which points at a live c_int; the descriptor is open while `stdin` is borrowed.
        let rc = unsafe {
            nix::libc::ioctl(
                stdin.as_raw_fd(),
                nix::libc::FIONREAD,
                &mut unread as *mut nix::libc::c_int,
            )
        };
        assert_eq!(rc, 0, "FIONREAD: {}", std::io::Error::last_os_error());
        if unread == 0 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the child never read its input ({unread} bytes left)"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The items of the list on stdout: every list is `{"items":[…],"next_cursor":…}`.
pub fn items(o: &Output) -> Vec<serde_json::Value> {
    let doc = json(o);
    assert!(
        doc.get("next_cursor").is_some(),
        "a list without next_cursor: {doc}"
    );
    doc["items"]
        .as_array()
        .unwrap_or_else(|| panic!("a list without items: {doc}"))
        .clone()
}

/// The items of a list printed as `text`.
pub fn items_in(text: &str) -> Vec<serde_json::Value> {
    let doc: serde_json::Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not a JSON list ({e}): {text}"));
    doc["items"]
        .as_array()
        .unwrap_or_else(|| panic!("a list without items: {doc}"))
        .clone()
}

/// The items of the list on stdout as one JSON array (`list(&o)[0]["name"]`).
pub fn list(o: &Output) -> serde_json::Value {
    serde_json::Value::Array(items(o))
}

/// The `name` of every item of the list on stdout (e.g. `tools list`).
pub fn names(o: &Output) -> Vec<String> {
    items(o)
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// Asserts the failure contract: the exit code, one JSON error document with that code on
/// stdout, and one human line on stderr. Returns the error object.
pub fn assert_error(o: &Output, exit: i32, name: &str) -> serde_json::Value {
    error_line(o, exit);
    let doc = json(o);
    let err = doc["error"].clone();
    assert_eq!(err["code"], name, "{doc}");
    assert_eq!(err["exit_code"], exit, "{doc}");
    assert!(
        err["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{doc}"
    );
    assert!(err.get("hint").is_some(), "hint key present: {doc}");
    err
}

/// The exit code is `exit` and stderr holds exactly one `error:` line, which is returned.
fn error_line(o: &Output, exit: i32) -> String {
    assert_eq!(
        code(o),
        exit,
        "exit code; stdout: {} stderr: {}",
        stdout(o),
        stderr(o)
    );
    let errs = stderr(o);
    let lines: Vec<&str> = errs.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(lines.len(), 1, "stderr: {errs}");
    lines[0].to_string()
}

/// A home whose config has `config` (agents `lead` and `w1` at least) and team `team` led by
/// `lead` with member `w1`, its store on `backend` (`None`: that backend's server is missing).
pub fn team_home_on(backend: Backend, config: &str, team: &str) -> Option<TestEnv> {
    let env = TestEnv::on(backend)?;
    std::fs::write(env.home().join("config.toml"), config).unwrap();
    let o = env.run(&["team", "create", team, "--lead", "lead", "--member", "w1"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    Some(env)
}

/// A home with agents `lead` (model `m`) and `w1`, team `t` of the two, and `notes.txt` in
/// the work directory: what the contract tests run every command against.
pub fn board_home() -> TestEnv {
    board_home_on(Backend::Sqlite).unwrap()
}

/// [`board_home`] with its store on `backend` (`None`: that backend's server is missing).
pub fn board_home_on(backend: Backend) -> Option<TestEnv> {
    let env = team_home_on(backend, "[agents.lead]\nmodel = \"m\"\n[agents.w1]\n", "t")?;
    env.write("notes.txt", "hello\n");
    Some(env)
}

/// A text filter's failure (`scrub`, `sanitize` without `--json`): the exit code, nothing on
/// stdout (the data stream, often a file), one `error:` line on stderr; returns that line.
pub fn assert_filter_error(o: &Output, exit: i32) -> String {
    let line = error_line(o, exit);
    assert!(o.stdout.is_empty(), "stdout: {}", stdout(o));
    line
}

/// Replaces the temporary directory in output, for snapshots.
pub fn redact(env: &TestEnv, text: &str) -> String {
    text.replace(&env.root().display().to_string(), "[TMP]")
}

/// The PostgreSQL server of the test run: the throwaway cluster `.ci/postgres` starts for `.ci/run`
/// (Debian's server), found through the PG* variables it sets.
pub struct PgServer {
    pub host: String,
    pub port: String,
    pub user: String,
    pub password: String,
}

pub fn pg_server() -> Option<PgServer> {
    let var = |n: &str| std::env::var(n).ok().filter(|v| !v.is_empty());
    let found = (|| {
        Some(PgServer {
            host: var("PGHOST")?,
            port: var("PGPORT").unwrap_or_else(|| "5432".into()),
            user: var("PGUSER")?,
            password: var("PGPASSWORD")?,
        })
    })()
    .filter(|_| which::which("psql").is_ok());
    require_peer(
        found,
        "a PostgreSQL server (PGHOST, PGUSER, PGPASSWORD and psql; .ci/run starts one with .ci/postgres)",
    )
}

/// A database of its own for one test on the test server, dropped at the end.
pub struct PgDb {
    pub server: PgServer,
    pub name: String,
}

impl PgDb {
    pub fn new() -> Option<PgDb> {
        let server = pg_server()?;
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let name = format!(
            "goclaw_test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        );
        let db = PgDb { server, name };
        db.psql("postgres", &format!("CREATE DATABASE {}", db.name));
        Some(db)
    }

    /// The URL without a password (tests give it as PGPASSWORD, a .pgpass or in the URL).
    pub fn url(&self) -> String {
        format!(
            "postgres://{}@{}:{}/{}",
            self.server.user, self.server.host, self.server.port, self.name
        )
    }

    pub fn url_with_password(&self, password: &str) -> String {
        format!(
            "postgres://{}:{password}@{}:{}/{}",
            self.server.user, self.server.host, self.server.port, self.name
        )
    }

    /// One SQL statement through psql; its output, trimmed.
    pub fn psql(&self, database: &str, sql: &str) -> String {
        let o = std::process::Command::new("psql")
            .args(["-v", "ON_ERROR_STOP=1", "-qAt", "-d", database, "-c", sql])
            .output()
            .unwrap();
        assert!(o.status.success(), "psql {sql}: {}", stderr(&o));
        stdout(&o).trim().to_string()
    }
}

impl Drop for PgDb {
    fn drop(&mut self) {
        let _ = std::process::Command::new("psql")
            .args(["-qAt", "-d", "postgres", "-c"])
            .arg(format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ))
            .output();
    }
}

/// A PostgreSQL cluster of one test's own (initdb in a temporary directory, a free port on
/// 127.0.0.1, SCRAM with a random password), for what must not happen to the shared one: a
/// restart. Stopped and removed when dropped. `None` (after failing in CI) without the server's
/// binaries.
pub struct PgCluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    pub port: u16,
    pub password: String,
    /// The CA that signed the server's TLS certificate (for localhost and 127.0.0.1), when it
    /// has one.
    pub cert: Option<PathBuf>,
}

impl PgCluster {
    pub fn start() -> Option<PgCluster> {
        Self::start_with(false)
    }

    /// A cluster of the server pgserver (PyPI) carries, which has the pgvector extension:
    /// its binaries copied into the cluster's directory (the `postgres` user reads them there).
    pub fn start_pgvector() -> Option<PgCluster> {
        let py = crate::mcp::peer_python()?;
        let o = std::process::Command::new(&py)
            .args([
                "-c",
                "import os, pgserver; print(os.path.dirname(os.path.dirname(pgserver.__file__)))",
            ])
            .output()
            .unwrap();
        // site-packages, where its binaries find their libraries (`pgserver.libs`) by a
        // relative RPATH: both are copied, side by side.
        let found = Some(PathBuf::from(stdout(&o).trim()))
            .filter(|p| o.status.success() && p.join("pgserver/pginstall/bin/initdb").exists());
        let site = require_peer(
            found,
            "pgserver (PyPI), a PostgreSQL server with pgvector, in the peers' venv (.ci/run installs it)",
        )?;
        let dir = cluster_dir();
        let server = dir.path().join("server");
        std::fs::create_dir(&server).unwrap();
        let o = std::process::Command::new("cp")
            .arg("-a")
            .args([site.join("pgserver"), site.join("pgserver.libs")])
            .arg(&server)
            .output()
            .unwrap();
        assert!(o.status.success(), "cp: {}", stderr(&o));
        let bin = server.join("pgserver/pginstall/bin");
        Some(Self::start_in(dir, bin, false))
    }

    /// A cluster that takes TLS too (`tls`): a self-signed certificate made by `openssl`.
    pub fn start_with(tls: bool) -> Option<PgCluster> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()
            .and_then(|d| {
                let mut v: Vec<PathBuf> = d.flatten().map(|e| e.path().join("bin")).collect();
                v.sort();
                v.pop()
            })
            .filter(|b| b.join("initdb").exists());
        let Some(bin) = bin else {
            assert!(
                std::env::var_os("CI").is_none(),
                "the PostgreSQL server's binaries (initdb) are missing: apt-get install postgresql"
            );
            return None;
        };
        Some(Self::start_in(cluster_dir(), bin, tls))
    }

    /// initdb in `dir` with the server binaries in `bin`, and the server started.
    fn start_in(dir: tempfile::TempDir, bin: PathBuf, tls: bool) -> PgCluster {
        let password = format!("pw{}{}", std::process::id(), crate::mcp::free_port());
        std::fs::write(dir.path().join("pw"), &password).unwrap();
        let mut cluster = PgCluster {
            dir,
            bin,
            port: crate::mcp::free_port(),
            password,
            cert: None,
        };
        if tls {
            // A CA of the test's own, and the server's certificate it signs, for localhost only
            // (reached by 127.0.0.1, it is a certificate for another name).
            let dir = cluster.dir.path().to_path_buf();
            let openssl = |args: &[&str]| {
                let o = std::process::Command::new("openssl")
                    .args(args)
                    .current_dir(&dir)
                    .output()
                    .unwrap();
                assert!(o.status.success(), "openssl {args:?}: {}", stderr(&o));
            };
            openssl(&[
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/CN=goclaw test CA",
                "-keyout",
                "ca.key",
                "-out",
                "ca.crt",
            ]);
            openssl(&[
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                "/CN=localhost",
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
            ]);
            std::fs::write(
                dir.join("san.ext"),
                "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n",
            )
            .unwrap();
            openssl(&[
                "x509",
                "-req",
                "-in",
                "server.csr",
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "1",
                "-extfile",
                "san.ext",
                "-out",
                "server.crt",
            ]);
            std::fs::set_permissions(
                dir.join("server.key"),
                std::os::unix::fs::PermissionsExt::from_mode(0o600),
            )
            .unwrap();
            cluster.cert = Some(dir.join("ca.crt"));
        }
        if nix::unistd::geteuid().is_root() {
            let o = std::process::Command::new("chown")
                .args(["-R", "postgres:"])
                .arg(cluster.dir.path())
                .output()
                .unwrap();
            assert!(o.status.success(), "chown: {}", stderr(&o));
        }
        let pw = format!("--pwfile={}", cluster.dir.path().join("pw").display());
        let data = cluster.data();
        let o = cluster
            .server_cmd("initdb")
            .args([
                "-D",
                &data,
                "-U",
                "postgres",
                &pw,
                "--auth=scram-sha-256",
                "-E",
                "UTF8",
            ])
            .args(["--locale=C.UTF-8"])
            .output()
            .unwrap();
        assert!(o.status.success(), "initdb: {}", stderr(&o));
        cluster.pg_ctl("start");
        cluster
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    /// A server binary, run as the `postgres` user when the tests run as root.
    fn server_cmd(&self, program: &str) -> std::process::Command {
        let path = self.bin.join(program);
        if nix::unistd::geteuid().is_root() {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            std::process::Command::new(path)
        }
    }

    /// `pg_ctl start|stop|restart`, waiting for it.
    pub fn pg_ctl(&self, action: &str) {
        let mut opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        if self.cert.is_some() {
            let dir = self.dir.path();
            opts.push_str(&format!(
                " -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
                dir.join("server.crt").display(),
                dir.join("server.key").display()
            ));
        }
        let log = self.dir.path().join("server.log").display().to_string();
        let o = self
            .server_cmd("pg_ctl")
            .args([
                "-D",
                &self.data(),
                "-l",
                &log,
                "-w",
                "-m",
                "fast",
                "-o",
                &opts,
                action,
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "pg_ctl {action}: {}", stderr(&o));
    }

    /// The URL of database `db` (the password goes in PGPASSWORD).
    pub fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }

    /// One statement through psql on database `db`; its output, trimmed.
    pub fn psql(&self, db: &str, sql: &str) -> String {
        let o = std::process::Command::new("psql")
            .args([
                "-v",
                "ON_ERROR_STOP=1",
                "-qAt",
                "-h",
                "127.0.0.1",
                "-U",
                "postgres",
            ])
            .args(["-p", &self.port.to_string(), "-d", db, "-c", sql])
            .env("PGPASSWORD", &self.password)
            .output()
            .unwrap();
        assert!(o.status.success(), "psql {sql}: {}", stderr(&o));
        stdout(&o).trim().to_string()
    }
}

fn cluster_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("goclaw-pgc-")
        .tempdir()
        .unwrap()
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let _ = self
            .server_cmd("pg_ctl")
            .args(["-D", &self.data(), "-m", "immediate", "stop"])
            .output();
    }
}

/// goclaw on a terminal of its own, as a login session runs a command: a new session whose
/// controlling terminal is a pseudo-terminal, with stdout and stderr on it. Closing the terminal
/// ([`OnPty::hang_up`], a dropped ssh session) makes the kernel send goclaw SIGHUP.
pub struct OnPty {
    pub child: std::process::Child,
    master: Option<std::os::fd::OwnedFd>,
    pub screen: String,
}

impl TestEnv {
    /// `goclaw ARGS` on a terminal ([`OnPty`]); stdin is the terminal too unless `stdin` is
    /// given. With `ignore_hup`, it starts with SIGHUP ignored, as under `nohup`.
    pub fn on_pty(
        &self,
        args: &[&str],
        stdin: Option<std::process::Stdio>,
        ignore_hup: bool,
    ) -> OnPty {
        use std::os::unix::process::CommandExt;
        let pty = nix::pty::openpty(None, None).unwrap();
        // Not inherited: a terminal stays open while any process holds its master.
        for fd in [&pty.master, &pty.slave] {
            nix::fcntl::fcntl(
                fd,
                nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC),
            )
            .unwrap();
        }
        let slave = || std::process::Stdio::from(pty.slave.try_clone().unwrap());
        let mut cmd = self.std_cmd(args);
        cmd.stdin(stdin.unwrap_or_else(slave))
            .stdout(slave())
            .stderr(slave());
        // SAFETY: setsid, ioctl and sigaction are async-signal-safe; nothing else runs.
        unsafe {
            cmd.pre_exec(move || {
                nix::unistd::setsid()?;
                if nix::libc::ioctl(1, nix::libc::TIOCSCTTY, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if ignore_hup {
                    nix::sys::signal::signal(
                        nix::sys::signal::Signal::SIGHUP,
                        nix::sys::signal::SigHandler::SigIgn,
                    )?;
                }
                Ok(())
            });
        }
        let child = cmd.spawn().unwrap();
        drop(pty.slave);
        OnPty {
            child,
            master: Some(pty.master),
            screen: String::new(),
        }
    }
}

impl OnPty {
    /// Reads the terminal until `text` is on it (20 s at most).
    pub fn wait_for(&mut self, text: &str) {
        use std::os::fd::AsFd;
        let deadline = Instant::now() + Duration::from_secs(20);
        let master = self.master.as_ref().expect("the terminal is open");
        while !self.screen.contains(text) {
            assert!(
                Instant::now() < deadline,
                "no {text:?} on the terminal; the screen:\n{}",
                self.screen
            );
            let mut fds = [nix::poll::PollFd::new(
                master.as_fd(),
                nix::poll::PollFlags::POLLIN,
            )];
            if nix::poll::poll(&mut fds, nix::poll::PollTimeout::from(100u16)).unwrap_or(0) > 0 {
                let mut buf = [0u8; 4096];
                match nix::unistd::read(master, &mut buf) {
                    Ok(n) if n > 0 => self.screen.push_str(&String::from_utf8_lossy(&buf[..n])),
                    _ => panic!("the terminal ended; the screen:\n{}", self.screen),
                }
            }
        }
    }

    /// Waits until goclaw has a handler for `signal` (20 s at most): it watches it now.
    pub fn wait_catching(&self, signal: nix::sys::signal::Signal) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let bit = 1u64 << (signal as i32 - 1);
        loop {
            let status =
                std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
            let caught = status
                .lines()
                .find_map(|l| l.strip_prefix("SigCgt:"))
                .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
                .unwrap_or(0);
            if caught & bit != 0 {
                return;
            }
            assert!(Instant::now() < deadline, "goclaw never caught {signal}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Closes the terminal.
    pub fn hang_up(&mut self) {
        self.master = None;
    }

    /// goclaw's exit code (`None`: a signal ended it), and how long it took to come (10 s at
    /// most, then goclaw is killed).
    pub fn exit(mut self) -> (Option<i32>, Duration) {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status.code(), t.elapsed());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        panic!("goclaw did not end; the screen:\n{}", self.screen);
    }
}

/// Sends SIGINT to the process `pid` (a goclaw under test), as a Ctrl-C would.
pub fn interrupt(pid: u32) {
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
}
