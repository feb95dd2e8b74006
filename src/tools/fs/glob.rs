//! `glob`: the files whose path matches a pattern, newest first (seed 004: at most
//! `max_results`, default 1 000; never into [`SKIP_DIRS`]; a `*.ext` pattern with no match is
//! retried as `**/*.ext`), and the walk that finds them.
//!
//! The walk is glob's own, not `ignore`'s (which `search` uses, for .gitignore): a glob honours
//! no ignore file but needs every match's modification time. Each directory is read through a
//! descriptor, and each match is stat'ed by its name relative to that descriptor: one path
//! component to look up, where a stat by path looks up every component of the full path again
//! (that stat was most of glob's difference with `fd`). Directories are opened beneath the
//! start with `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`, so no symlink is followed, not
//! even one swapped in for a directory during the walk; a directory that cannot be read is left
//! out, as `fd` leaves it out.

use std::ffi::OsStr;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

use nix::dir::{Dir, Type};
use nix::fcntl::{AtFlags, OFlag, OpenHow, ResolveFlag, openat2};
use nix::sys::stat::{FileStat, SFlag, fstatat};
use serde_json::{Map, Value, json};

use super::{GLOB_MAX_RESULTS, SKIP_DIRS, Step, done, num_arg, str_arg, workspace};
use crate::store::Store;
use crate::tools::workspace::Workspace;
use crate::tools::{CallContext, Risk, Tool, ToolResult};

/// `glob`.
pub struct Glob;

impl Tool for Glob {
    fn name(&self) -> &'static str {
        "glob"
    }
    fn description(&self) -> &'static str {
        "Find files by glob pattern (e.g. **/*.rs, src/**/*.ts), newest first. Skips node_modules, vendor, target, .venv and similar. A *.ext pattern with no match is retried as **/*.ext."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "pattern":{"type":"string"},"path":{"type":"string","description":"Directory to search, default ."},
            "max_results":{"type":"integer","minimum":1}},"required":["pattern"]})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        done(glob(ctx, args))
    }
}

/// The body of `glob`.
fn glob(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let pattern = str_arg(args, "pattern").unwrap_or_default();
    if pattern.is_empty() {
        return Err(ToolResult::error("pattern is required"));
    }
    let max = num_arg(args, "max_results")
        .filter(|&n| n > 0)
        .map_or(GLOB_MAX_RESULTS, |n| n as usize);
    let ws = workspace(ctx)?;
    let dir = str_arg(args, "path")
        .filter(|p| !p.is_empty())
        .unwrap_or(".");
    let (fd, start) = ws.open_dir(dir)?;
    let mut found = glob_once(&ws, &fd, &start, pattern)?;
    let mut used = pattern.to_string();
    if found.is_empty() && !pattern.contains('/') && pattern.starts_with("*.") {
        used = format!("**/{pattern}");
        found = glob_once(&ws, &fd, &start, &used)?;
    }
    if found.is_empty() {
        return Err(ToolResult::silent(format!("No files match {pattern}")));
    }
    // Newest first; ties by path, byte by byte (files unpacked together share their time, and
    // comparing paths component by component was a walk's costliest step).
    found.sort_unstable_by(|a, b| {
        b.1.cmp(&a.1)
            .then_with(|| a.0.as_os_str().as_bytes().cmp(b.0.as_os_str().as_bytes()))
    });
    let total = found.len();
    let mut out: String = found
        .iter()
        .take(max)
        .map(|(p, _)| format!("{}\n", p.display()))
        .collect();
    if total > max {
        out.push_str(&format!(
            "[{} more files not shown; narrow the pattern or raise max_results]\n",
            total - max
        ));
    }
    if used != pattern {
        out.push_str(&format!("(no match for {pattern}; showing {used})\n"));
    }
    Ok(ToolResult::silent(out))
}

/// Every file beneath `start_fd` (the directory `start`, relative to the root) that `pattern`
/// matches, with its modification time.
fn glob_once(
    ws: &Workspace,
    start_fd: &OwnedFd,
    start: &Path,
    pattern: &str,
) -> Result<Vec<GlobHit>, ToolResult> {
    let matcher = globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|e| ToolResult::error(format!("invalid glob pattern {pattern:?}: {e}")))?
        .compile_matcher();
    let walk = GlobWalk {
        ws,
        start_fd: start_fd.as_fd(),
        start,
        matcher: &matcher,
    };
    Ok(walk.run())
}

/// A glob match: its path relative to the root, and its modification time (seconds and
/// nanoseconds since the epoch).
type GlobHit = (PathBuf, (i64, i64));

/// Directories a glob reads on its own thread before it reads in parallel (starting and
/// ending threads costs about a millisecond, more than a small tree takes).
const SERIAL_DIRS: usize = 64;

/// One glob's walk: where it starts and what it keeps.
struct GlobWalk<'a> {
    ws: &'a Workspace,
    start_fd: BorrowedFd<'a>,
    /// The start, relative to the root.
    start: &'a Path,
    matcher: &'a globset::GlobMatcher,
}

impl GlobWalk<'_> {
    /// Reads the start on this thread; a tree of more than [`SERIAL_DIRS`] directories is
    /// read on by as many threads as there are cores.
    fn run(&self) -> Vec<GlobHit> {
        let mut hits = Vec::new();
        let mut pending = vec![PathBuf::new()];
        let mut read = 0;
        while read < SERIAL_DIRS {
            let Some(dir) = pending.pop() else {
                return hits;
            };
            self.read(&dir, &mut hits, &mut pending);
            read += 1;
        }
        if pending.is_empty() {
            return hits;
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
        let queue = Queue {
            state: Mutex::new(QueueState {
                dirs: pending,
                reading: 0,
            }),
            changed: Condvar::new(),
        };
        let found = Mutex::new(hits);
        std::thread::scope(|s| {
            for _ in 1..threads {
                s.spawn(|| self.work(&queue, &found));
            }
            self.work(&queue, &found);
        });
        found.into_inner().unwrap_or_default()
    }

    /// One thread's share: directories from the queue until none is left; its matches are
    /// handed over once, at the end (a lock per match made the threads wait on each other).
    fn work(&self, queue: &Queue, found: &Mutex<Vec<GlobHit>>) {
        let mut mine = Vec::new();
        let mut more = Vec::new();
        while let Some(dir) = queue.take() {
            self.read(&dir, &mut mine, &mut more);
            queue.done(&mut more);
        }
        if let Ok(mut found) = found.lock() {
            found.append(&mut mine);
        }
    }

    /// Reads the directory `rel` (relative to the start): its matching files go to `hits`,
    /// the subdirectories to walk to `more`.
    fn read(&self, rel: &Path, hits: &mut Vec<GlobHit>, more: &mut Vec<PathBuf>) {
        let target = if rel.as_os_str().is_empty() {
            Path::new(".")
        } else {
            rel
        };
        let how = OpenHow::new()
            .flags(OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC | OFlag::O_NOCTTY)
            .resolve(
                ResolveFlag::RESOLVE_BENEATH
                    | ResolveFlag::RESOLVE_NO_SYMLINKS
                    | ResolveFlag::RESOLVE_NO_MAGICLINKS,
            );
        let Ok(mut dir) = openat2(self.start_fd, target, how).and_then(Dir::from_fd) else {
            return;
        };
        let raw = dir.as_raw_fd();
        // SAFETY: `raw` is the descriptor `dir` owns; it stays open until `dir` is dropped at
        // the end of this function, and `dir_fd` is not used past it.
        let dir_fd = unsafe { BorrowedFd::borrow_raw(raw) };
        let denied = !self.ws.denied().is_empty();
        for entry in dir.iter().flatten() {
            let name = OsStr::from_bytes(entry.file_name().to_bytes());
            if name == "." || name == ".." {
                continue;
            }
            let stat = || fstatat(dir_fd, name, AtFlags::AT_SYMLINK_NOFOLLOW).ok();
            let mut known = None;
            let kind = match entry.file_type() {
                Some(kind) => kind,
                // A file system that does not say an entry's type in the directory.
                None => match stat() {
                    Some(st) => {
                        known = Some(st);
                        match kind_of(&st) {
                            Some(kind) => kind,
                            None => continue,
                        }
                    }
                    None => continue,
                },
            };
            let path = rel.join(name);
            let denied = || denied && self.ws.denied_rule(&self.start.join(&path)).is_some();
            match kind {
                Type::Directory
                    if !SKIP_DIRS.iter().any(|s| OsStr::new(s) == name) && !denied() =>
                {
                    more.push(path);
                }
                Type::File => {
                    if !self.matcher.is_match(&path) || denied() {
                        continue;
                    }
                    let mtime = known
                        .or_else(stat)
                        .map_or((0, 0), |st| (st.st_mtime, st.st_mtime_nsec));
                    hits.push((self.start.join(&path), mtime));
                }
                _ => {}
            }
        }
    }
}

/// Whether `st` describes a directory or a plain file (all a walk looks at).
fn kind_of(st: &FileStat) -> Option<Type> {
    match SFlag::from_bits_truncate(st.st_mode) & SFlag::S_IFMT {
        SFlag::S_IFDIR => Some(Type::Directory),
        SFlag::S_IFREG => Some(Type::File),
        _ => None,
    }
}

/// The directories still to read, shared by a parallel walk's threads.
struct Queue {
    state: Mutex<QueueState>,
    changed: Condvar,
}

struct QueueState {
    dirs: Vec<PathBuf>,
    /// Directories being read now: while any is, more may come.
    reading: usize,
}

impl Queue {
    /// The next directory to read, waiting for one while others are being read; `None` once
    /// none is left and none is being read.
    fn take(&self) -> Option<PathBuf> {
        let mut state = self.state.lock().ok()?;
        loop {
            if let Some(dir) = state.dirs.pop() {
                state.reading += 1;
                return Some(dir);
            }
            if state.reading == 0 {
                return None;
            }
            state = self.changed.wait(state).ok()?;
        }
    }

    /// A directory has been read: its subdirectories `more` join the queue.
    fn done(&self, more: &mut Vec<PathBuf>) {
        if let Ok(mut state) = self.state.lock() {
            state.dirs.append(more);
            state.reading = state.reading.saturating_sub(1);
        }
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::collections::BTreeSet;
    use std::time::{Duration, SystemTime};

    use super::*;

    /// Files (relative paths) under `root`, by a plain recursive walk by path: every file but
    /// those in [`SKIP_DIRS`] below the top and under `denied`, never through a symlink.
    fn every_file(root: &Path, rel: &Path, denied: &[&str], out: &mut BTreeSet<PathBuf>) {
        for entry in std::fs::read_dir(root.join(rel)).unwrap() {
            let entry = entry.unwrap();
            let path = rel.join(entry.file_name());
            let kind = entry.file_type().unwrap();
            if denied.iter().any(|d| path.starts_with(d)) {
                continue;
            }
            if kind.is_dir() && !SKIP_DIRS.iter().any(|s| OsStr::new(s) == entry.file_name()) {
                every_file(root, &path, denied, out);
            } else if kind.is_file() {
                out.insert(path);
            }
        }
    }

    /// What `glob_once` finds for `pattern` from `start` in a workspace at `root`.
    fn found(root: &Path, denied: &[&str], start: &str, pattern: &str) -> Vec<GlobHit> {
        let denied: Vec<String> = denied.iter().map(|d| d.to_string()).collect();
        let ws = Workspace::open(root, &denied).unwrap();
        let (fd, start) = ws.open_dir(start).unwrap();
        glob_once(&ws, &fd, &start, pattern).unwrap()
    }

    fn paths(hits: &[GlobHit]) -> BTreeSet<PathBuf> {
        hits.iter().map(|(p, _)| p.clone()).collect()
    }

    /// A tree too big for one thread (past SERIAL_DIRS directories), with skipped and denied
    /// directories, hidden files and symlinks among them: the parallel walk finds exactly what
    /// a plain walk finds, each file once.
    #[test]
    fn a_parallel_walk_finds_what_a_plain_walk_finds() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for i in 0..40 {
            for j in 0..5 {
                let d = root.join(format!("d{i}/e{j}"));
                std::fs::create_dir_all(&d).unwrap();
                std::fs::write(d.join("a.rs"), "").unwrap();
                std::fs::write(d.join(".hidden.rs"), "").unwrap();
                std::fs::write(d.join("b.txt"), "").unwrap();
            }
            std::fs::create_dir_all(root.join(format!("d{i}/target"))).unwrap();
            std::fs::write(root.join(format!("d{i}/target/skipped.rs")), "").unwrap();
        }
        std::fs::create_dir_all(root.join("secret")).unwrap();
        std::fs::write(root.join("secret/key.rs"), "").unwrap();
        std::os::unix::fs::symlink(root.join("d0"), root.join("linked-dir")).unwrap();
        std::os::unix::fs::symlink(root.join("d0/e0/a.rs"), root.join("linked.rs")).unwrap();
        let hits = found(root, &["secret"], ".", "**/*.rs");
        let mut expected = BTreeSet::new();
        every_file(root, Path::new(""), &["secret"], &mut expected);
        expected.retain(|p| p.extension().is_some_and(|e| e == "rs"));
        assert_eq!(expected.len(), 400);
        assert_eq!(hits.len(), expected.len(), "a file found twice");
        assert_eq!(paths(&hits), expected);
    }

    /// Modification times come from the files themselves; paths are relative to the root
    /// when the walk starts below it; a start inside a skipped directory is walked.
    #[test]
    fn times_paths_and_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("build/sub")).unwrap();
        let old = root.join("build/sub/old.rs");
        std::fs::write(&old, "").unwrap();
        std::fs::write(root.join("build/new.rs"), "").unwrap();
        let then = SystemTime::UNIX_EPOCH + Duration::new(1_000_000_000, 5);
        std::fs::File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(then)
            .unwrap();
        let hits = found(root, &[], "build", "**/*.rs");
        let old_hit = hits.iter().find(|(p, _)| p.ends_with("old.rs")).unwrap();
        assert_eq!(
            old_hit,
            &(PathBuf::from("build/sub/old.rs"), (1_000_000_000, 5))
        );
        let new_hit = hits.iter().find(|(p, _)| p.ends_with("new.rs")).unwrap();
        assert!(new_hit.1 > old_hit.1);
        assert_eq!(hits.len(), 2);
        // From the root, build/ is skipped.
        assert!(found(root, &[], ".", "**/*.rs").is_empty());
    }

    /// A directory swapped for a symlink to outside the workspace is not followed, whoever
    /// made the swap: the open refuses every symlink beneath the start.
    #[test]
    fn a_symlink_beneath_the_start_is_never_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("stolen.rs"), "").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::os::unix::fs::symlink(outside.path(), root.join("out")).unwrap();
        std::fs::create_dir(root.join("inside")).unwrap();
        std::fs::write(root.join("inside/own.rs"), "").unwrap();
        std::os::unix::fs::symlink("inside", root.join("again")).unwrap();
        let ws = Workspace::open(root, &[]).unwrap();
        let (fd, start) = ws.open_dir(".").unwrap();
        let walk = GlobWalk {
            ws: &ws,
            start_fd: fd.as_fd(),
            start: &start,
            matcher: &globset::Glob::new("**/*.rs").unwrap().compile_matcher(),
        };
        // As if `out` had been listed as a directory and queued before the swap.
        let (mut hits, mut more) = (Vec::new(), Vec::new());
        walk.read(Path::new("out"), &mut hits, &mut more);
        // Nor one that stays inside (it would list `inside` twice).
        walk.read(Path::new("again"), &mut hits, &mut more);
        assert!(hits.is_empty() && more.is_empty());
        assert_eq!(
            paths(&walk.run()),
            BTreeSet::from([PathBuf::from("inside/own.rs")])
        );
    }
}
