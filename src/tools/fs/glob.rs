//! `glob`: the files whose path matches a pattern, newest first (seed 004: at most
//! `max_results`, default 1 000; never into [`SKIP_DIRS`]; a `*.ext` pattern with no match is
//! retried as `**/*.ext`), and the walk that finds them.
//!
//! The walk is glob's own, not `ignore`'s (which `search` uses, for .gitignore): a glob honours
//! no ignore file but needs every match's modification time. Each directory is listed with
//! `getdents64` into a buffer the thread keeps, and each match is stat'ed by its name relative
//! to its directory's descriptor: one path component to look up, where a stat by path looks up
//! every component of the full path again (that stat was most of glob's difference with `fd`).
//! A subdirectory is opened by its one name beneath its parent while the parent is held open
//! for it (`O_NOFOLLOW`), otherwise by [`Workspace::open_walked_dir`] (beneath the root,
//! `RESOLVE_NO_SYMLINKS`): either way no symlink is followed, not even one swapped in for a
//! directory during the walk. A directory that cannot be read is left out, as `fd` leaves it.

use std::ffi::OsStr;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use nix::fcntl::{AtFlags, OFlag, openat};
use nix::sys::stat::{FileStat, Mode, SFlag, fstatat};
use rustix::fs::{FileType, RawDir};
use serde_json::{Map, Value, json};

use super::{GLOB_MAX_RESULTS, SKIP_DIRS, Step, done, num_arg, shown_path, str_arg, workspace};
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
        return Err(ToolResult::bad_args("pattern is required"));
    }
    let max = num_arg(args, "max_results")
        .filter(|&n| n > 0)
        .map_or(GLOB_MAX_RESULTS, |n| n as usize);
    let ws = workspace(ctx)?;
    let dir = str_arg(args, "path")
        .filter(|p| !p.is_empty())
        .unwrap_or(".");
    // The start as it really is (a symlink to a directory inside is followed once, here).
    let (_, start) = ws.open_dir(dir)?;
    let relative = relative_pattern(pattern, &ws.absolute(&start))?;
    // A directory's name (`sub/`): the files beneath it.
    let (mut used, mut note) = match relative.strip_suffix('/') {
        Some(dir) => {
            let files = format!("{dir}/**");
            let note = format!("({relative} is a directory: showing {files})\n");
            (files, Some(note))
        }
        None => (relative.clone(), None),
    };
    let mut found = glob_once(&ws, &start, &used)?;
    // A directory's name without the slash (`sub`): the files beneath it, as with `sub/`.
    if found.is_empty() && note.is_none() && names_a_directory(&ws, &start, &used) {
        used = format!("{used}/**");
        note = Some(format!("({relative} is a directory: showing {used})\n"));
        found = glob_once(&ws, &start, &used)?;
    }
    if found.is_empty() && !used.contains('/') && used.starts_with("*.") {
        used = format!("**/{used}");
        note = Some(format!("(no match for {pattern}; showing {used})\n"));
        found = glob_once(&ws, &start, &used)?;
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
        .map(|(p, _)| format!("{}\n", shown_path(p)))
        .collect();
    if total > max {
        out.push_str(&format!(
            "[{} more files not shown; narrow the pattern or raise max_results]\n",
            total - max
        ));
    }
    if let Some(note) = note {
        out.push_str(&note);
    }
    Ok(ToolResult::silent(out))
}

/// Whether `pattern` is a plain path (no wildcard) to a directory beneath `start`, reached
/// as every file tool reaches one (contained, not denied).
fn names_a_directory(ws: &Workspace, start: &Path, pattern: &str) -> bool {
    !pattern.contains(['*', '?', '[', '{', '\\'])
        && start
            .join(pattern)
            .to_str()
            .is_some_and(|path| ws.open_dir(path).is_ok())
}

/// `pattern` as the walk matches it: relative to the directory searched, `start` (absolute).
/// An absolute pattern is taken relative to `start` when it lies within it; any other could
/// match nothing and is refused, saying why. Empty and `.` parts are dropped (`./src//*.rs` is
/// `src/*.rs`), as the file system reads them; a trailing `/` (a directory) is kept for the
/// caller, which lists the files beneath it.
fn relative_pattern(pattern: &str, start: &Path) -> Result<String, ToolResult> {
    let start = start.to_string_lossy();
    let start = start.trim_end_matches('/');
    let mut relative = pattern;
    if relative.starts_with('/') {
        relative = relative
            .strip_prefix(start)
            .filter(|rest| rest.is_empty() || rest.starts_with('/'))
            .ok_or_else(|| {
                ToolResult::error(format!(
                    "glob pattern {pattern:?} is absolute: patterns match paths relative to the \
                     directory searched ({start}), e.g. **/*.rs"
                ))
            })?;
    }
    let parts: Vec<&str> = relative
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect();
    if parts.is_empty() {
        return Err(ToolResult::error(format!(
            "glob pattern {pattern:?} names the directory searched, not files in it: use * or **"
        )));
    }
    let mut relative = parts.join("/");
    if pattern.ends_with('/') {
        relative.push('/');
    }
    Ok(relative)
}

/// Every file beneath the directory `start` (relative to the root) that `pattern` matches, with
/// its modification time.
fn glob_once(ws: &Workspace, start: &Path, pattern: &str) -> Result<Vec<GlobHit>, ToolResult> {
    let invalid =
        |e: globset::Error| ToolResult::bad_args(&format!("invalid glob pattern {pattern:?}: {e}"));
    let glob = globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(invalid)?;
    // A set, not the glob's own matcher: a set matches `**/*.rs` by the extension alone,
    // where the matcher runs a regex over every path.
    let matcher = globset::GlobSetBuilder::new()
        .add(glob)
        .build()
        .map_err(invalid)?;
    let walk = GlobWalk {
        ws,
        start,
        matcher: &matcher,
        open_parents: AtomicUsize::new(0),
    };
    Ok(walk.run())
}

/// A glob match: its path relative to the root, and its modification time (seconds and
/// nanoseconds since the epoch).
type GlobHit = (PathBuf, (i64, i64));

/// Directories a glob reads on its own thread before it reads in parallel (starting and
/// ending threads costs more than a small tree takes).
const SERIAL_DIRS: usize = 16;

/// Directories a walk keeps open for their waiting subdirectories. Past this many, a
/// subdirectory waits by its path and is opened beneath the root when its turn comes. Few:
/// a process's descriptor table starts with room for 64, and growing it while other threads
/// share it waits for an RCU grace period (10–15 ms here, in the middle of a walk).
const OPEN_PARENTS: usize = 32;

/// The bytes of directory entries read at once (one `getdents64`).
const LISTING_BYTES: usize = 32 * 1024;

/// A directory to read: its path relative to the start, and its parent's descriptor while
/// that is kept open for it (it is then opened by its one name, beneath the parent).
struct Pending<'w> {
    rel: PathBuf,
    parent: Option<Arc<OpenParent<'w>>>,
}

/// A directory kept open for its waiting subdirectories, counted in the walk's `open_parents`.
struct OpenParent<'w> {
    fd: OwnedFd,
    count: &'w AtomicUsize,
}

impl Drop for OpenParent<'_> {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One glob's walk: where it starts, what it keeps, and how many directories it holds open.
struct GlobWalk<'a> {
    ws: &'a Workspace,
    /// The start, relative to the root.
    start: &'a Path,
    matcher: &'a globset::GlobSet,
    open_parents: AtomicUsize,
}

impl<'a> GlobWalk<'a> {
    /// Reads the start on this thread; a tree of more than [`SERIAL_DIRS`] directories is
    /// read on by as many threads as there are cores.
    fn run(&'a self) -> Vec<GlobHit> {
        let mut hits = Vec::new();
        let mut listing = vec![MaybeUninit::uninit(); LISTING_BYTES];
        let mut pending = vec![Pending {
            rel: PathBuf::new(),
            parent: None,
        }];
        let mut read = 0;
        while read < SERIAL_DIRS {
            let Some(dir) = pending.pop() else {
                return hits;
            };
            self.read(dir, &mut listing, &mut hits, &mut pending);
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
    fn work(&'a self, queue: &Queue<'a>, found: &Mutex<Vec<GlobHit>>) {
        let mut listing = vec![MaybeUninit::uninit(); LISTING_BYTES];
        let mut mine = Vec::new();
        let mut more = Vec::new();
        while let Some(dir) = queue.take() {
            self.read(dir, &mut listing, &mut mine, &mut more);
            queue.done(&mut more);
        }
        if let Ok(mut found) = found.lock() {
            found.append(&mut mine);
        }
    }

    /// Opens a directory to read: by its one name beneath its parent when that is open (not
    /// when the name is a symlink now), else by its path, refusing every symlink.
    fn open(&self, dir: &Pending) -> Option<OwnedFd> {
        if let (Some(parent), Some(name)) = (&dir.parent, dir.rel.file_name())
            && let Ok(fd) = openat(parent.fd.as_fd(), name, SUBDIR, Mode::empty())
        {
            return Some(fd);
        }
        self.ws.open_walked_dir(&self.start.join(&dir.rel)).ok()
    }

    /// `fd`, kept open for the subdirectories of its directory while fewer than
    /// [`OPEN_PARENTS`] are.
    fn hold_open(&'a self, fd: OwnedFd) -> Option<Arc<OpenParent<'a>>> {
        if self.open_parents.fetch_add(1, Ordering::Relaxed) >= OPEN_PARENTS {
            self.open_parents.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        Some(Arc::new(OpenParent {
            fd,
            count: &self.open_parents,
        }))
    }

    /// Reads the directory `dir` (`listing` is the buffer for its entries): its matching
    /// files go to `hits`, its subdirectories to `more`, with its descriptor while fewer
    /// than [`OPEN_PARENTS`] directories are held open.
    fn read(
        &'a self,
        dir: Pending<'a>,
        listing: &mut [MaybeUninit<u8>],
        hits: &mut Vec<GlobHit>,
        more: &mut Vec<Pending<'a>>,
    ) {
        let opened = self.open(&dir);
        drop(dir.parent);
        let Some(fd) = opened else {
            return;
        };
        let denied = !self.ws.denied().is_empty();
        // Each entry's path, relative to the start, built in one buffer.
        let mut path = dir.rel.into_os_string().into_vec();
        if !path.is_empty() {
            path.push(b'/');
        }
        let base = path.len();
        let first_subdir = more.len();
        let mut entries = RawDir::new(&fd, listing);
        while let Some(Ok(entry)) = entries.next() {
            let name = entry.file_name();
            if matches!(name.to_bytes(), b"." | b"..") {
                continue;
            }
            path.truncate(base);
            path.extend_from_slice(name.to_bytes());
            let rel = Path::new(OsStr::from_bytes(&path));
            let stat = || fstatat(fd.as_fd(), name, AtFlags::AT_SYMLINK_NOFOLLOW).ok();
            let mut known = None;
            let kind = match entry.file_type() {
                FileType::Directory => Kind::Directory,
                FileType::RegularFile => Kind::File,
                // A file system that does not say an entry's type in the directory.
                FileType::Unknown => match stat().and_then(|st| Some((kind_of(&st)?, st))) {
                    Some((kind, st)) => {
                        known = Some(st);
                        kind
                    }
                    None => continue,
                },
                _ => continue,
            };
            let denied = || denied && self.ws.denied_rule(&self.start.join(rel)).is_some();
            match kind {
                Kind::Directory => {
                    if !SKIP_DIRS.iter().any(|s| s.as_bytes() == name.to_bytes()) && !denied() {
                        more.push(Pending {
                            rel: rel.to_path_buf(),
                            parent: None,
                        });
                    }
                }
                Kind::File => {
                    if !self.matcher.is_match(rel) || denied() {
                        continue;
                    }
                    let mtime = known
                        .or_else(stat)
                        .map_or((0, 0), |st| (st.st_mtime, st.st_mtime_nsec));
                    hits.push((self.start.join(rel), mtime));
                }
            }
        }
        let subdirs = &mut more[first_subdir..];
        if !subdirs.is_empty()
            && let Some(parent) = self.hold_open(fd)
        {
            for sub in subdirs {
                sub.parent = Some(parent.clone());
            }
        }
    }
}

/// How a subdirectory is opened beneath its parent: a directory, by its one name, and not
/// when that name is a symlink (one swapped in since the listing).
const SUBDIR: OFlag = OFlag::O_RDONLY
    .union(OFlag::O_DIRECTORY)
    .union(OFlag::O_NOFOLLOW)
    .union(OFlag::O_CLOEXEC)
    .union(OFlag::O_NOCTTY);

/// What a walk does with an entry.
enum Kind {
    Directory,
    File,
}

/// Whether `st` describes a directory or a plain file (all a walk looks at).
fn kind_of(st: &FileStat) -> Option<Kind> {
    match SFlag::from_bits_truncate(st.st_mode) & SFlag::S_IFMT {
        SFlag::S_IFDIR => Some(Kind::Directory),
        SFlag::S_IFREG => Some(Kind::File),
        _ => None,
    }
}

/// The directories still to read, shared by a parallel walk's threads.
struct Queue<'w> {
    state: Mutex<QueueState<'w>>,
    changed: Condvar,
}

struct QueueState<'w> {
    dirs: Vec<Pending<'w>>,
    /// Directories being read now: while any is, more may come.
    reading: usize,
}

impl<'w> Queue<'w> {
    /// The next directory to read, waiting for one while others are being read; `None` once
    /// none is left and none is being read.
    fn take(&self) -> Option<Pending<'w>> {
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
    fn done(&self, more: &mut Vec<Pending<'w>>) {
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
        let (_, start) = ws.open_dir(start).unwrap();
        glob_once(&ws, &start, pattern).unwrap()
    }

    fn paths(hits: &[GlobHit]) -> BTreeSet<PathBuf> {
        hits.iter().map(|(p, _)| p.clone()).collect()
    }

    #[test]
    fn patterns_are_taken_relative_to_the_directory_searched() {
        let start = Path::new("/w/src");
        let relative = |p| relative_pattern(p, start).map_err(|e| e.for_llm);
        assert_eq!(relative("*.rs").unwrap(), "*.rs");
        assert_eq!(relative("./*.rs").unwrap(), "*.rs");
        assert_eq!(relative(".//./a/*.rs").unwrap(), "a/*.rs");
        assert_eq!(relative("a/./b//*.rs").unwrap(), "a/b/*.rs");
        assert_eq!(relative("/w/src/**/*.rs").unwrap(), "**/*.rs");
        assert_eq!(relative("/w/src//a/*.rs").unwrap(), "a/*.rs");
        assert_eq!(relative("sub/").unwrap(), "sub/");
        assert_eq!(relative("./sub//").unwrap(), "sub/");
        // `..` is left to the matcher, which no path beneath the start holds.
        assert_eq!(relative("../*").unwrap(), "../*");
        // Not the start's own path with more letters, nor outside it.
        for outside in ["/w/srcx/*.rs", "/**/*.rs", "/etc/*", "/", "//"] {
            let message = relative(outside).unwrap_err();
            assert!(message.contains("is absolute"), "{outside}: {message}");
            assert!(message.contains("(/w/src)"), "{outside}: {message}");
        }
        for nothing in [".", "./", "././", "./.", "/w/src", "/w/src/", "/w/src//."] {
            let message = relative(nothing).unwrap_err();
            assert!(
                message.contains("names the directory"),
                "{nothing}: {message}"
            );
        }
        assert_eq!(
            relative_pattern("/a/*.rs", Path::new("/")).unwrap(),
            "a/*.rs"
        );
        assert_eq!(relative_pattern("/w/x", Path::new("/w/")).unwrap(), "x");
    }

    /// A tree too big for one thread (past SERIAL_DIRS directories, and more parents than stay
    /// open), with skipped and denied
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
        // Deeper than OPEN_PARENTS: the deepest directories wait by their path.
        let deep: PathBuf = (0..OPEN_PARENTS + 10).map(|i| format!("n{i}")).collect();
        for i in 0..3 {
            std::fs::create_dir_all(root.join(&deep).join(format!("x{i}"))).unwrap();
            std::fs::write(root.join(&deep).join(format!("x{i}/d.rs")), "").unwrap();
        }
        for i in 0..300 {
            let d = root.join(format!("wide/w{i}"));
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("w.rs"), "").unwrap();
        }
        std::fs::create_dir_all(root.join("secret")).unwrap();
        std::fs::write(root.join("secret/key.rs"), "").unwrap();
        std::os::unix::fs::symlink(root.join("d0"), root.join("linked-dir")).unwrap();
        std::os::unix::fs::symlink(root.join("d0/e0/a.rs"), root.join("linked.rs")).unwrap();
        let hits = found(root, &["secret"], ".", "**/*.rs");
        let mut expected = BTreeSet::new();
        every_file(root, Path::new(""), &["secret"], &mut expected);
        expected.retain(|p| p.extension().is_some_and(|e| e == "rs"));
        assert_eq!(expected.len(), 400 + 300 + 3);
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
        let set = globset::GlobSet::new([globset::Glob::new("**/*.rs").unwrap()]).unwrap();
        let walk = GlobWalk {
            ws: &ws,
            start: &start,
            matcher: &set,
            open_parents: AtomicUsize::new(0),
        };
        // As if `out` had been listed as a directory and queued by its path before the swap.
        let (mut hits, mut more) = (Vec::new(), Vec::new());
        let mut listing = vec![MaybeUninit::uninit(); LISTING_BYTES];
        let queued = |rel: &str| Pending {
            rel: PathBuf::from(rel),
            parent: None,
        };
        walk.read(queued("out"), &mut listing, &mut hits, &mut more);
        // Nor one that stays inside (it would list `inside` twice).
        walk.read(queued("again"), &mut listing, &mut hits, &mut more);
        // Nor when it is opened by its name beneath its open parent.
        for name in [c"out", c"again"] {
            let e = openat(fd.as_fd(), name, SUBDIR, Mode::empty()).unwrap_err();
            // A symlink is not a directory to O_DIRECTORY | O_NOFOLLOW.
            assert_eq!(e, nix::errno::Errno::ENOTDIR);
        }
        assert!(hits.is_empty() && more.is_empty());
        assert_eq!(
            paths(&walk.run()),
            BTreeSet::from([PathBuf::from("inside/own.rs")])
        );
        // Every directory held open for its subdirectories was closed.
        assert_eq!(walk.open_parents.load(Ordering::Relaxed), 0);
    }
}
