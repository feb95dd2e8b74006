//! Background commands (seed 001 `process`; issue 20 §6): `exec {background: true}` starts the
//! command under a keeper ([`super::keeper`]), a `goclaw` process of its own in a new session,
//! and returns at once with the process's id. The keeper runs the command exactly as a
//! foreground `exec` would (same review, sandbox, environment, process group), writes its
//! output to a bounded log, ends it at its time limit, on `process kill`, or when the process
//! that owns it ends, and records how it ended in a status file beside the log.
//!
//! The store holds one `processes` row per command (the handle, its session, its host); rows
//! are brought up to date from the keeper's status file whenever they are read. Logs live on
//! the host that runs the command, under `<store dir>/processes/ID/`, which the sandbox masks:
//! chunks of [`CHUNK`] bytes, of which the last two are kept, so a log takes at most 2 MiB and
//! an offset into the whole output stays meaningful ([`read_from`]).
//!
//! Ownership: a command started by an agent run or by `mcp serve` ends with that process
//! (unless the call says `detach: true`, or the run detaches its children); one started by
//! `goclaw tools exec` or a cron tick runs until it ends, its time limit, or `process kill`.
//! At most `[tools.exec] max_background` commands run per session.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::db_params;
use crate::error::{Error, ErrorKind, Result};
use crate::store::db::{Begin, Db, Dialect, Row};
use crate::store::now_ms;

mod log;
pub use log::{LogRead, read_from, tail, whole_words};

/// Bytes per log chunk; the last two chunks are kept.
pub const CHUNK: u64 = 1 << 20;
/// The default time limit of a background command.
pub const DEFAULT_TIMEOUT_SECS: u64 = 3600;
/// The most a background command may ask for (a day).
pub const MAX_TIMEOUT_SECS: u64 = 86_400;
/// Rows (and logs) of commands that ended longer ago than this are removed.
const KEEP_ENDED_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// How long a start waits for the keeper to say the command runs.
const START_WAIT: Duration = Duration::from_secs(10);

/// The directory of process logs beside the store.
pub fn logs_root(store_dir: &Path) -> PathBuf {
    store_dir.join("processes")
}

/// Creates the directory of process logs (private) if it is not there yet.
pub fn create_root(store_dir: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    let root = logs_root(store_dir);
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&root)
        .map_err(|e| {
            Error::failed(format!(
                "cannot create the process log directory {}: {e}",
                root.display()
            ))
        })
}

/// One background command, as `process list` shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Process {
    pub id: i64,
    pub command: String,
    pub cwd: String,
    /// `starting`, `running`, `exited`, `killed`, `timed_out`, `failed` or `lost` (its keeper
    /// vanished without saying how the command ended: the machine restarted, or it was killed).
    pub status: String,
    pub pid: Option<i64>,
    pub exit_code: Option<i64>,
    pub signal: Option<i64>,
    pub reason: Option<String>,
    pub session: Option<String>,
    pub agent: Option<String>,
    pub run_id: Option<String>,
    pub host: String,
    /// It outlives the run or `mcp serve` that started it.
    pub detached: bool,
    pub started_at: i64,
    pub deadline_at: i64,
    pub ended_at: Option<i64>,
    #[serde(skip)]
    pub keeper_pid: Option<i64>,
    /// When the keeper started ([`crate::host::process_start`]; `None` in older rows).
    #[serde(skip)]
    pub keeper_start: Option<i64>,
    /// The keeper's PID namespace ([`crate::host::pid_namespace`]; `None` in older rows).
    #[serde(skip)]
    pub keeper_ns: Option<String>,
    #[serde(skip)]
    pub read_offset: i64,
}

impl Process {
    pub fn running(&self) -> bool {
        matches!(self.status.as_str(), "starting" | "running")
    }
}

const COLUMNS: &str = "id, command, cwd, status, pid, exit_code, signal, reason, session, agent, run_id, host, detached, started_at, deadline_at, ended_at, keeper_pid, read_offset, keeper_start, keeper_ns";

fn row(r: &Row) -> Result<Process> {
    let opt = |s: String| (!s.is_empty()).then_some(s);
    Ok(Process {
        id: r.get(0)?,
        command: r.get(1)?,
        cwd: r.get(2)?,
        status: r.get(3)?,
        pid: r.get(4)?,
        exit_code: r.get(5)?,
        signal: r.get(6)?,
        reason: r.get(7)?,
        session: opt(r.get(8)?),
        agent: opt(r.get(9)?),
        run_id: r.get(10)?,
        host: r.get(11)?,
        detached: r.get::<i64>(12)? != 0,
        started_at: r.get(13)?,
        deadline_at: r.get(14)?,
        ended_at: r.get(15)?,
        keeper_pid: r.get(16)?,
        read_offset: r.get(17)?,
        keeper_start: r.get(18)?,
        keeper_ns: r.get(19)?,
    })
}

/// How a keeper says the command ended (`status.json` in its directory).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Ending {
    /// `exited`, `killed`, `timed_out` or `failed`.
    pub status: String,
    pub exit_code: Option<i64>,
    pub signal: Option<i64>,
    pub reason: Option<String>,
    pub ended_at: i64,
}

/// The directory of process `id`'s log and status.
pub fn process_dir(root: &Path, id: i64) -> PathBuf {
    root.join(id.to_string())
}

/// The status file of a keeper.
pub fn ending_path(dir: &Path) -> PathBuf {
    dir.join("status.json")
}

/// A command about to start in the background.
pub struct NewProcess<'a> {
    pub command: &'a str,
    pub cwd: &'a str,
    pub session: &'a str,
    pub agent: &'a str,
    pub run_id: Option<&'a str>,
    pub detached: bool,
    pub timeout: Duration,
    pub max_per_session: u32,
}

/// Reserves a row for a command under the per-session limit (counted under the store's write
/// lock, so it holds across processes); its id. A refusal is [`ErrorKind::Limited`].
pub fn reserve(db: Db<'_>, p: &NewProcess<'_>) -> Result<i64> {
    let tx = db.transaction(Begin::Write)?;
    if tx.dialect() == Dialect::Postgres {
        tx.query_row(
            "SELECT pg_advisory_xact_lock(hashtextextended('goclaw processes', 0))",
            &[],
            |_| Ok(()),
        )?;
    }
    let running: i64 = tx.query_row(
        "SELECT COUNT(*) FROM processes WHERE session = ?1 AND status IN ('starting', 'running')",
        db_params![p.session],
        |r| r.get(0),
    )?;
    if running >= i64::from(p.max_per_session) {
        return Err(Error::new(
            ErrorKind::Limited,
            format!(
                "background command refused: {running}/{} already run in this session \
                 ([tools.exec] max_background); wait for one to end or stop one with the \
                 process tool (kill)",
                p.max_per_session
            ),
        ));
    }
    let now = now_ms();
    let timeout = i64::try_from(p.timeout.as_millis()).unwrap_or(i64::MAX);
    let id = tx.query_row(
        "INSERT INTO processes (session, agent, run_id, host, command, cwd, detached, started_at, deadline_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id",
        db_params![
            p.session,
            p.agent,
            p.run_id,
            crate::host::name(),
            p.command,
            p.cwd,
            i64::from(p.detached),
            now,
            now.saturating_add(timeout)
        ],
        |r| r.get(0),
    )?;
    tx.commit()?;
    Ok(id)
}

/// Brings the session's running rows on this host up to date, so commands that ended since
/// anyone last looked no longer count against its limit.
pub fn settle(db: Db<'_>, root: &Path, session: &str) -> Result<()> {
    let running = db.query_map(
        &format!(
            "SELECT {COLUMNS} FROM processes WHERE session = ?1 AND status IN ('starting', 'running')"
        ),
        db_params![session],
        row,
    )?;
    let here = crate::host::name();
    for p in running {
        refresh(db, root, &here, p)?;
    }
    Ok(())
}

/// Records that the keeper started the command.
pub fn started(db: Db<'_>, id: i64, k: &KeeperStarted) -> Result<()> {
    db.execute(
        "UPDATE processes SET status = 'running', keeper_pid = ?2, pid = ?3, keeper_start = ?4,
             keeper_ns = ?5
         WHERE id = ?1 AND status = 'starting'",
        db_params![
            id,
            i64::from(k.keeper),
            i64::from(k.pid),
            k.keeper_start,
            crate::host::pid_namespace()
        ],
    )?;
    Ok(())
}

/// Records an ending (the keeper's, or a start that failed).
pub fn ended(db: Db<'_>, id: i64, e: &Ending) -> Result<()> {
    db.execute(
        "UPDATE processes SET status = ?2, exit_code = ?3, signal = ?4, reason = ?5, ended_at = ?6
         WHERE id = ?1 AND status IN ('starting', 'running')",
        db_params![id, e.status, e.exit_code, e.signal, e.reason, e.ended_at],
    )?;
    Ok(())
}

/// Whose background commands a caller sees.
#[derive(Debug, Clone, Copy)]
pub enum Seen<'a> {
    /// A caller with a session: that session's.
    Session(&'a str),
    /// A run without a session (every subagent is one): the commands that run started.
    Run(&'a str),
    /// A caller outside any run (`goclaw tools exec`, `mcp serve`): every one.
    All,
}

impl Seen<'_> {
    fn sees(&self, p: &Process) -> bool {
        match self {
            Seen::Session(s) => p.session.as_deref().unwrap_or("") == *s,
            Seen::Run(r) => p.run_id.as_deref() == Some(*r),
            Seen::All => true,
        }
    }
}

/// The processes `seen` covers, newest first, each brought up to date from its keeper when it
/// runs on this host.
pub fn list(db: Db<'_>, root: &Path, seen: Seen<'_>) -> Result<Vec<Process>> {
    let (filter, value) = match seen {
        Seen::Session(s) => ("WHERE session = ?1", Some(s)),
        Seen::Run(r) => ("WHERE run_id = ?1", Some(r)),
        Seen::All => ("WHERE CAST(?1 AS TEXT) IS NULL", None),
    };
    let rows = db.query_map(
        &format!("SELECT {COLUMNS} FROM processes {filter} ORDER BY id DESC"),
        db_params![value],
        row,
    )?;
    let here = crate::host::name();
    rows.into_iter()
        .map(|p| refresh(db, root, &here, p))
        .collect()
}

/// Process `id`, when `seen` covers it.
pub fn get(db: Db<'_>, root: &Path, id: i64, seen: Seen<'_>) -> Result<Process> {
    let p = db.query_opt(
        &format!("SELECT {COLUMNS} FROM processes WHERE id = ?1"),
        db_params![id],
        row,
    )?;
    match p {
        Some(p) if seen.sees(&p) => refresh(db, root, &crate::host::name(), p),
        _ => Err(Error::not_found(match seen {
            Seen::Session(_) => format!("no background process {id} in this session"),
            Seen::Run(_) => format!("no background process {id} started by this run"),
            Seen::All => format!("no background process {id}"),
        })),
    }
}

/// A running row brought up to date: the keeper's status file when it wrote one, `lost` when
/// its keeper is gone without one.
fn refresh(db: Db<'_>, root: &Path, here: &str, mut p: Process) -> Result<Process> {
    if !p.running() || p.host != here {
        return Ok(p);
    }
    let dir = process_dir(root, p.id);
    let ending = match read_ending(&dir) {
        Some(e) => Some(e),
        None if p.status == "running" && !keeper_alive(&p) => Some(Ending {
            status: "lost".into(),
            exit_code: None,
            signal: None,
            reason: Some("its keeper ended without saying how the command ended".into()),
            ended_at: now_ms(),
        }),
        _ => None,
    };
    if let Some(e) = ending {
        ended(db, p.id, &e)?;
        p.status = e.status;
        p.exit_code = e.exit_code;
        p.signal = e.signal;
        p.reason = e.reason;
        p.ended_at = Some(e.ended_at);
    }
    Ok(p)
}

/// The keeper's status file, when it wrote one.
pub fn read_ending(dir: &Path) -> Option<Ending> {
    let text = std::fs::read(ending_path(dir)).ok()?;
    serde_json::from_slice(&text).ok()
}

fn keeper_alive(p: &Process) -> bool {
    p.keeper().is_some_and(|k| k.may_run())
}

impl Process {
    /// Its keeper, as recorded.
    pub fn keeper(&self) -> Option<crate::host::Recorded<'_>> {
        self.keeper_pid.map(|pid| crate::host::Recorded {
            pid,
            start: self.keeper_start,
            ns: self.keeper_ns.as_deref(),
        })
    }
}

/// Moves the read offset of `poll`.
pub fn set_read_offset(db: Db<'_>, id: i64, offset: u64) -> Result<()> {
    db.execute(
        "UPDATE processes SET read_offset = ?2 WHERE id = ?1",
        db_params![id, i64::try_from(offset).unwrap_or(i64::MAX)],
    )?;
    Ok(())
}

/// Asks the keeper of a running process to end it (SIGTERM to the keeper, which ends the
/// command's process group with the usual grace), and waits for the keeper to record it.
pub fn kill(db: Db<'_>, root: &Path, p: &Process) -> Result<Process> {
    if !p.running() {
        return Ok(p.clone());
    }
    if p.host != crate::host::name() {
        return Err(Error::failed(format!(
            "background process {} runs on host {}: stop it there",
            p.id, p.host
        )));
    }
    if p.keeper().is_some_and(|k| !k.seen_here()) {
        return Err(Error::failed(format!(
            "background process {} was started in another PID namespace (by a goclaw outside the command this one runs in, or inside one): stop it from there",
            p.id
        )));
    }
    // The keeper recorded, not whatever process has its pid now.
    if let Some(k) = p.keeper() {
        k.signal(nix::sys::signal::Signal::SIGTERM);
    }
    let until = std::time::Instant::now() + super::run::KILL_GRACE + Duration::from_secs(2);
    let dir = process_dir(root, p.id);
    while std::time::Instant::now() < until && read_ending(&dir).is_none() {
        std::thread::sleep(Duration::from_millis(20));
    }
    get(db, root, p.id, Seen::All)
}

/// Removes the rows and logs of commands that ended a week ago or more (logs on this host).
pub fn prune(db: Db<'_>, root: &Path) -> Result<()> {
    let before = now_ms() - KEEP_ENDED_MS;
    let old: Vec<(i64, String)> = db.query_map(
        "SELECT id, host FROM processes WHERE ended_at IS NOT NULL AND ended_at < ?1",
        db_params![before],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let here = crate::host::name();
    for (id, host) in old {
        if host == here {
            let _ = std::fs::remove_dir_all(process_dir(root, id));
        }
        db.execute("DELETE FROM processes WHERE id = ?1", db_params![id])?;
    }
    Ok(())
}

/// What the keeper is asked to do (JSON on its stdin).
#[derive(Debug, Serialize, Deserialize)]
pub struct KeeperSpec {
    pub id: i64,
    pub dir: PathBuf,
    pub plan: super::sandbox::PortablePlan,
    pub command: String,
    pub cwd: PathBuf,
    pub timeout_ms: u64,
    /// The process whose end ends the command (none: detached).
    pub owner: Option<i32>,
}

/// What the keeper answers on its stdout once: the command's pid, or why it did not start.
#[derive(Debug, Serialize, Deserialize)]
pub enum KeeperStart {
    Started { pid: u32 },
    Failed { reason: String },
}

/// A keeper that started its command.
pub struct KeeperStarted {
    pub keeper: u32,
    /// When the keeper started ([`crate::host::process_start`]).
    pub keeper_start: Option<i64>,
    /// The command's pid.
    pub pid: u32,
}

/// Starts `spec` under a keeper in a new session.
pub fn spawn_keeper(spec: &KeeperSpec) -> Result<KeeperStarted> {
    use std::io::{BufRead, Write};
    use std::os::unix::fs::DirBuilderExt;
    use std::os::unix::process::CommandExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&spec.dir)
        .map_err(|e| {
            Error::failed(format!(
                "cannot create the process log directory {}: {e}",
                spec.dir.display()
            ))
        })?;
    // The keeper writes only into real directories: a symlink planted in their place (the
    // sandbox masks them, this is the second line) would send the log elsewhere.
    for dir in [spec.dir.as_path(), spec.dir.parent().unwrap_or(&spec.dir)] {
        if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
            return Err(Error::denied(format!(
                "the process log directory {} is not a plain directory",
                dir.display()
            )));
        }
    }
    let exe = std::env::current_exe()
        .map_err(|e| Error::failed(format!("cannot find goclaw's own binary: {e}")))?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg(super::keeper::SUBCOMMAND)
        .env_clear()
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .current_dir("/");
    // SAFETY: setsid is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            nix::unistd::setsid()
                .map(|_| ())
                .map_err(std::io::Error::from)
        });
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| Error::failed(format!("cannot start the keeper: {e}")))?;
    let keeper = child.id();
    // Read before anything can reap it: the record names this keeper and no later process.
    let keeper_start = crate::host::process_start(i64::from(keeper));
    let spec_json = serde_json::to_vec(spec).map_err(|e| Error::internal(e.to_string()))?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(&spec_json);
    }
    let Some(stdout) = child.stdout.take() else {
        return Err(Error::internal("the keeper has no output"));
    };
    // The answer comes on a thread, so a keeper that never answers cannot hold the call.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(START_WAIT).unwrap_or_default();
    // The keeper lives on in its own session; it is reaped by whoever adopts it.
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    match serde_json::from_str::<KeeperStart>(line.trim()) {
        Ok(KeeperStart::Started { pid }) => Ok(KeeperStarted {
            keeper,
            keeper_start,
            pid,
        }),
        Ok(KeeperStart::Failed { reason }) => Err(Error::failed(reason)),
        Err(_) => Err(Error::failed("the keeper did not start the command")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

    fn poll(dir: &Path, offset: u64, live: bool) -> LogRead {
        let read = read_from(dir, offset, 64 * 1024);
        let started_inside = read.dropped > 0;
        whole_words(read, started_inside, live)
    }

    /// The keeper copies output in reads of 64 KiB: one can end inside a word the command
    /// wrote whole. A poll between two such copies must not show the first part of it.
    #[test]
    fn a_poll_of_a_running_command_never_shows_a_part_of_a_word() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("0.log");
        let x = "x".repeat(65_526);
        std::fs::write(&log, format!("{x} {}", &TOKEN[..9])).unwrap();
        let first = poll(dir.path(), 0, true);
        assert_eq!(first.bytes, format!("{x} ").as_bytes());
        assert_eq!(first.next, 65_527);
        // Not running: what is there is all there will be.
        assert_eq!(poll(dir.path(), 0, false).bytes.len(), 65_536);
        std::fs::write(&log, format!("{x} {TOKEN} end\n")).unwrap();
        let second = poll(dir.path(), first.next, true);
        assert_eq!(second.bytes, format!("{TOKEN} end\n").as_bytes());
        assert_eq!(second.next, second.total);
    }

    #[test]
    fn a_word_with_no_boundary_yet_waits_while_the_command_runs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("0.log"), &TOKEN[..20]).unwrap();
        let live = poll(dir.path(), 0, true);
        assert!(live.bytes.is_empty());
        assert_eq!(live.next, 0, "the word is read again later");
        assert_eq!(poll(dir.path(), 0, false).bytes, &TOKEN.as_bytes()[..20]);
        // The log view holds it back as well.
        assert_eq!(tail(dir.path(), 10, true).bytes, b"");
        assert_eq!(tail(dir.path(), 10, false).bytes, &TOKEN.as_bytes()[..20]);
    }

    /// `api_key = ` printed, the value a moment later: the two polls never show the value
    /// without its name.
    #[test]
    fn a_secrets_name_waits_for_its_value() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("0.log");
        std::fs::write(&log, "starting\napi_key = ").unwrap();
        let first = poll(dir.path(), 0, true);
        assert_eq!(first.bytes, b"starting\n");
        std::fs::write(&log, format!("starting\napi_key = {TOKEN}\n")).unwrap();
        let second = poll(dir.path(), first.next, true);
        assert_eq!(second.bytes, format!("api_key = {TOKEN}\n").as_bytes());
    }

    #[test]
    fn output_without_boundaries_is_still_shown_past_four_kib() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("0.log"), "y".repeat(10_000)).unwrap();
        assert_eq!(poll(dir.path(), 0, true).bytes.len(), 10_000);
    }
}
