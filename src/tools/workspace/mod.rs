//! Path containment for the file tools (reference §9, hardened). Every path resolves inside the
//! workspace, and the kernel does the resolving: files and directories are opened with
//! `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)` relative to a descriptor of the workspace.
//! `..`, absolute paths, symlinks at any depth (including one swapped in after a check) and
//! `/proc/self/root`-style magic links cannot leave it, because there is no separate check to
//! race. What an open reaches is read back from `/proc/self/fd` to apply the denied prefixes
//! (default `.goclaw`), and files with more than one hard link are refused. Writes go to a
//! temporary file in a directory opened the same way, then `renameat`.
//!
//! Error messages say which rule refused: `access denied: path outside workspace`,
//! `access denied: path <prefix> is restricted`, `access denied: hardlinked file not allowed`,
//! `access denied: symlink leads outside the workspace`. Writes inside a `.git` directory are
//! refused (its config and hooks run as code), and so is moving a directory that holds a denied
//! path.

use std::ffi::OsStr;
use std::fs::File;
use std::io::Write;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use nix::errno::Errno;
use nix::fcntl::{OFlag, OpenHow, ResolveFlag, openat, openat2, renameat};
use nix::sys::stat::{Mode, mkdirat};
use nix::unistd::{UnlinkatFlags, unlinkat};

mod code_files;
mod error;

use error::errno_error;
pub use error::{FsError, FsErrorKind, FsResult};

/// Where backups of overwritten, edited and deleted files go, inside the workspace.
pub const BACKUP_DIR: &str = ".goclaw/backups";
/// Backups kept per file.
pub const MAX_BACKUPS: usize = 10;

const RESOLVE: ResolveFlag = ResolveFlag::RESOLVE_BENEATH.union(ResolveFlag::RESOLVE_NO_MAGICLINKS);
static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A workspace: its canonical root, an open descriptor of it, and the denied prefixes.
#[derive(Debug)]
pub struct Workspace {
    root: PathBuf,
    dir: OwnedFd,
    denied: Vec<PathBuf>,
    /// [`code_files::home_code_files`]: written by no file tool (found at the first write: reads do not pay).
    code_files: std::sync::OnceLock<Vec<PathBuf>>,
}

/// An opened path as a file to read: not a directory, and not a file with other hard links
/// (another name could put it outside the workspace or under a denied prefix).
fn readable_file(fd: OwnedFd, shown: &str) -> FsResult<File> {
    let file = File::from(fd);
    let meta = file
        .metadata()
        .map_err(|e| FsError::new(format!("{shown}: {e}")))?;
    if meta.is_dir() {
        return Err(FsError::new(format!("is a directory: {shown}")));
    }
    // A FIFO, socket or device would block a read or never end: only regular files are read.
    if !meta.is_file() {
        return Err(FsError::new(format!("not a regular file: {shown}")));
    }
    if meta.nlink() > 1 {
        return Err(FsError::new("access denied: hardlinked file not allowed"));
    }
    // Opened with O_NONBLOCK, so a FIFO's open does not wait for a writer; on a regular file
    // the flag changes nothing (its reads never block), so it stays: no system call more.
    Ok(file)
}

impl Workspace {
    /// Opens the workspace directory. `denied` names are relative to it.
    pub fn open(root: &Path, denied: &[String]) -> FsResult<Workspace> {
        let root = root
            .canonicalize()
            .map_err(|e| FsError::new(format!("workspace {}: {e}", root.display())))?;
        let dir = nix::fcntl::open(
            &root,
            OFlag::O_PATH | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| errno_error(&root.display().to_string(), e))?;
        let denied = denied
            .iter()
            .map(|d| lexical(Path::new(d)).unwrap_or_default())
            .filter(|d| !d.as_os_str().is_empty())
            .collect();
        Ok(Workspace {
            root,
            dir,
            denied,
            code_files: std::sync::OnceLock::new(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The denied prefixes, relative to the root.
    pub fn denied(&self) -> &[PathBuf] {
        &self.denied
    }

    /// The workspace-relative form of `path`, checked lexically: absolute paths must lie under
    /// the root, and `..` may not climb above it. `""` is the workspace itself.
    pub fn relative(&self, path: &str) -> FsResult<PathBuf> {
        if path.as_bytes().contains(&0) {
            return Err(FsError::new("invalid path: it contains a NUL byte"));
        }
        let p = Path::new(path);
        let rel = if p.is_absolute() {
            let clean = lexical_abs(p);
            clean
                .strip_prefix(&self.root)
                .map(Path::to_path_buf)
                .map_err(|_| FsError::new("access denied: path outside workspace"))?
        } else {
            p.to_path_buf()
        };
        lexical(&rel).ok_or_else(|| FsError::new("access denied: path outside workspace"))
    }

    /// The denied prefix `rel` falls under, if any.
    pub fn denied_rule(&self, rel: &Path) -> Option<&Path> {
        self.denied
            .iter()
            .find(|d| rel.starts_with(d))
            .map(PathBuf::as_path)
    }

    fn check_denied(&self, rel: &Path) -> FsResult<()> {
        match self.denied_rule(rel) {
            Some(d) => Err(FsError::new(format!(
                "access denied: path {} is restricted",
                d.display()
            ))),
            None => Ok(()),
        }
    }

    fn open_beneath(&self, rel: &Path, flags: OFlag, mode: Mode, shown: &str) -> FsResult<OwnedFd> {
        let target: &Path = if rel.as_os_str().is_empty() {
            Path::new(".")
        } else {
            rel
        };
        // openat2 refuses flags O_PATH does not take.
        let extra = if flags.contains(OFlag::O_PATH) {
            OFlag::O_CLOEXEC
        } else {
            OFlag::O_CLOEXEC | OFlag::O_NOCTTY
        };
        let how = OpenHow::new()
            .flags(flags | extra)
            .mode(mode)
            .resolve(RESOLVE);
        match openat2(self.dir.as_fd(), target, how) {
            // An absolute symlink whose target lies inside the workspace (`ln -s "$PWD/a" b`):
            // the kernel refuses it beneath the root, so its target is rewritten relative to the
            // root and opened beneath again (the open itself stays the only resolution).
            Err(Errno::EXDEV) => match self.inside_absolute_links(target) {
                Some(relative) => openat2(self.dir.as_fd(), relative.as_path(), how)
                    .map_err(|e| errno_error(shown, e)),
                None => Err(errno_error(shown, Errno::EXDEV)),
            },
            other => other.map_err(|e| errno_error(shown, e)),
        }
    }

    /// `rel` with every absolute symlink on its way that points inside the root rewritten
    /// relative to the root; `None` when there is none, or one points outside.
    fn inside_absolute_links(&self, rel: &Path) -> Option<PathBuf> {
        let mut path = rel.to_path_buf();
        let mut rewrote = false;
        'rewrite: for _ in 0..40 {
            let mut walked = PathBuf::new();
            let parts: Vec<_> = path.components().collect();
            for (i, c) in parts.iter().enumerate() {
                walked.push(c);
                let Ok(target) = nix::fcntl::readlinkat(self.dir.as_fd(), walked.as_path()) else {
                    continue;
                };
                let target = PathBuf::from(target);
                if !target.is_absolute() {
                    continue;
                }
                let inside = lexical_abs(&target)
                    .strip_prefix(&self.root)
                    .ok()?
                    .to_path_buf();
                let mut next = inside;
                next.extend(&parts[i + 1..]);
                path = lexical(&next)?;
                rewrote = true;
                continue 'rewrite;
            }
            return rewrote.then_some(path);
        }
        None
    }

    /// Where an open descriptor really is, relative to the root (after every symlink).
    fn real_relative(&self, fd: &OwnedFd) -> FsResult<PathBuf> {
        let link = std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd()))
            .map_err(|e| FsError::new(format!("cannot resolve an open file: {e}")))?;
        link.strip_prefix(&self.root)
            .map(Path::to_path_buf)
            .map_err(|_| FsError::new("access denied: path outside workspace"))
    }

    /// Opens an existing file for reading. Returns it with its real workspace-relative path.
    pub fn open_file(&self, path: &str) -> FsResult<(File, PathBuf)> {
        let rel = self.relative(path)?;
        self.check_denied(&rel)?;
        let fd = self.open_beneath(
            &rel,
            OFlag::O_RDONLY | OFlag::O_NONBLOCK,
            Mode::empty(),
            path,
        )?;
        let real = self.real_relative(&fd)?;
        self.check_denied(&real)?;
        Ok((readable_file(fd, path)?, real))
    }

    /// Opens a file a walk of the tree found at `rel` (relative to the root, no `..`) for
    /// reading. The open refuses symlinks on the whole path (`RESOLVE_NO_SYMLINKS`, beneath the
    /// root), so it reaches exactly `rel` and the denied prefixes apply to `rel` itself: no
    /// read-back through `/proc/self/fd`, one system call less per file of a search. A path that
    /// goes through a symlink (or became one since the walk) takes [`Workspace::open_file`]'s
    /// way, which follows links that stay inside.
    pub fn open_walked_file(&self, rel: &Path) -> FsResult<File> {
        self.check_denied(rel)?;
        let how = OpenHow::new()
            .flags(OFlag::O_RDONLY | OFlag::O_CLOEXEC | OFlag::O_NOCTTY | OFlag::O_NONBLOCK)
            .resolve(RESOLVE | ResolveFlag::RESOLVE_NO_SYMLINKS);
        match openat2(self.dir.as_fd(), rel, how) {
            Ok(fd) => readable_file(fd, &rel.to_string_lossy()),
            Err(Errno::ELOOP | Errno::EXDEV) => Ok(self.open_file(&rel.to_string_lossy())?.0),
            Err(e) => Err(errno_error(&rel.to_string_lossy(), e)),
        }
    }

    /// Opens a directory a walk of the tree found at `rel` (relative to the root, no `..`; empty
    /// for the root) for listing, as [`Workspace::open_walked_file`] opens a file: beneath the
    /// root, refusing symlinks on the whole path, so it reaches exactly `rel`, and never in a
    /// denied prefix.
    pub fn open_walked_dir(&self, rel: &Path) -> FsResult<OwnedFd> {
        self.check_denied(rel)?;
        let target = if rel.as_os_str().is_empty() {
            Path::new(".")
        } else {
            rel
        };
        let how = OpenHow::new()
            .flags(OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC | OFlag::O_NOCTTY)
            .resolve(RESOLVE | ResolveFlag::RESOLVE_NO_SYMLINKS);
        openat2(self.dir.as_fd(), target, how).map_err(|e| errno_error(&rel.to_string_lossy(), e))
    }

    /// Opens an existing directory. Returns its descriptor and real relative path.
    pub fn open_dir(&self, path: &str) -> FsResult<(OwnedFd, PathBuf)> {
        let rel = self.relative(path)?;
        self.check_denied(&rel)?;
        let fd = self.open_beneath(
            &rel,
            OFlag::O_RDONLY | OFlag::O_DIRECTORY,
            Mode::empty(),
            path,
        )?;
        let real = self.real_relative(&fd)?;
        self.check_denied(&real)?;
        Ok((fd, real))
    }

    /// The absolute path of a workspace-relative path (for walking a tree by name).
    pub fn absolute(&self, rel: &Path) -> PathBuf {
        self.root.join(rel)
    }

    /// Resolves `path` for writing: where it really lands (following symlinks that stay inside),
    /// the descriptor of its directory (created with parents when `create_parents`), and its name.
    pub fn target(&self, path: &str, create_parents: bool) -> FsResult<Target> {
        let mut rel = self.relative(path)?;
        self.check_denied(&rel)?;
        self.check_not_code(&rel)?;
        // An existing path (or symlink to one) is written where it really is.
        if let Ok(fd) = self.open_beneath(&rel, OFlag::O_PATH, Mode::empty(), path) {
            rel = self.real_relative(&fd)?;
            self.check_denied(&rel)?;
            self.check_not_code(&rel)?;
        }
        let name = rel
            .file_name()
            .map(OsStr::to_os_string)
            .ok_or_else(|| FsError::new(format!("not a file path: {path}")))?;
        let parent = rel.parent().map(Path::to_path_buf).unwrap_or_default();
        let dir = if create_parents {
            self.create_dirs(&parent)?
        } else {
            self.open_beneath(
                &parent,
                OFlag::O_PATH | OFlag::O_DIRECTORY,
                Mode::empty(),
                path,
            )?
        };
        let parent_real = self.real_relative(&dir)?;
        let rel = parent_real.join(&name);
        self.check_denied(&rel)?;
        self.check_not_code(&rel)?;
        Ok(Target {
            dir,
            name: PathBuf::from(name),
            rel,
        })
    }

    /// Creates `rel` and its parents inside the workspace (mode 0755); returns its descriptor.
    fn create_dirs(&self, rel: &Path) -> FsResult<OwnedFd> {
        let mut cur = PathBuf::new();
        let mut fd =
            self.open_beneath(&cur, OFlag::O_PATH | OFlag::O_DIRECTORY, Mode::empty(), ".")?;
        for comp in rel.components() {
            cur.push(comp);
            let shown = cur.display().to_string();
            match self.open_beneath(
                &cur,
                OFlag::O_PATH | OFlag::O_DIRECTORY,
                Mode::empty(),
                &shown,
            ) {
                Ok(next) => fd = next,
                Err(e) if e.kind == FsErrorKind::NotFound => {
                    match mkdirat(
                        fd.as_fd(),
                        comp.as_os_str(),
                        Mode::from_bits_truncate(0o755),
                    ) {
                        Ok(()) | Err(Errno::EEXIST) => {}
                        Err(e) => return Err(errno_error(&shown, e)),
                    }
                    fd = self.open_beneath(
                        &cur,
                        OFlag::O_PATH | OFlag::O_DIRECTORY,
                        Mode::empty(),
                        &shown,
                    )?;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(fd)
    }

    /// Writes `content` to `target` atomically: a temporary file beside it, then rename. The
    /// previous content, if any, is backed up first. Keeps the old file's permissions.
    pub fn write_atomic(&self, target: &Target, content: &[u8]) -> FsResult<()> {
        let existing = self.stat_in(target)?;
        if let Some(meta) = &existing {
            if meta.nlink > 1 {
                return Err(FsError::new("access denied: hardlinked file not allowed"));
            }
            self.backup(target)?;
        }
        // A symlink's own mode (0777) is not the file's: a replaced link gets the default.
        let mode = existing
            .filter(|m| !m.is_symlink)
            .map_or(0o644, |m| m.mode & 0o7777);
        clean_stale_once(&target.dir);
        let tmp = format!(
            ".{}{}{}-{}",
            target.name.display(),
            crate::tempfiles::WRITE_MARK,
            std::process::id(),
            TMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let fd = openat(
            target.dir.as_fd(),
            tmp.as_str(),
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
            Mode::from_bits_truncate(mode),
        )
        .map_err(|e| errno_error(&target.rel.display().to_string(), e))?;
        let mut file = File::from(fd);
        let written = file.write_all(content).and_then(|_| file.sync_all());
        let renamed = written
            .map_err(|e| FsError::new(format!("write failed: {e}")))
            .and_then(|_| {
                renameat(
                    target.dir.as_fd(),
                    tmp.as_str(),
                    target.dir.as_fd(),
                    target.name.as_path(),
                )
                .map_err(|e| errno_error(&target.rel.display().to_string(), e))
            });
        if renamed.is_err() {
            let _ = unlinkat(target.dir.as_fd(), tmp.as_str(), UnlinkatFlags::NoRemoveDir);
        }
        renamed
    }

    /// Appends `content` to `target` (created if missing).
    pub fn append(&self, target: &Target, content: &[u8]) -> FsResult<()> {
        if self.stat_in(target)?.is_some_and(|m| m.nlink > 1) {
            return Err(FsError::new("access denied: hardlinked file not allowed"));
        }
        let fd = openat(
            target.dir.as_fd(),
            target.name.as_path(),
            OFlag::O_WRONLY
                | OFlag::O_CREAT
                | OFlag::O_APPEND
                | OFlag::O_NOFOLLOW
                | OFlag::O_CLOEXEC,
            Mode::from_bits_truncate(0o644),
        )
        .map_err(|e| errno_error(&target.rel.display().to_string(), e))?;
        File::from(fd)
            .write_all(content)
            .map_err(|e| FsError::new(format!("write failed: {e}")))
    }

    /// Reads the current content of `target` (it must be a regular file with one link).
    pub fn read_target(&self, target: &Target) -> FsResult<Vec<u8>> {
        let fd = openat(
            target.dir.as_fd(),
            target.name.as_path(),
            OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| errno_error(&target.rel.display().to_string(), e))?;
        let mut file = File::from(fd);
        let meta = file.metadata().map_err(|e| FsError::new(e.to_string()))?;
        if !meta.is_file() {
            return Err(FsError::new(format!(
                "not a regular file: {}",
                target.rel.display()
            )));
        }
        if meta.nlink() > 1 {
            return Err(FsError::new("access denied: hardlinked file not allowed"));
        }
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut file, &mut buf).map_err(|e| FsError::new(e.to_string()))?;
        Ok(buf)
    }

    /// Removes the file at `target`, after a backup.
    pub fn remove(&self, target: &Target) -> FsResult<()> {
        match self.stat_in(target)? {
            None => {
                return Err(FsError::of(
                    FsErrorKind::NotFound,
                    format!("no such file: {}", target.rel.display()),
                ));
            }
            Some(m) if m.is_dir => {
                return Err(FsError::new(format!(
                    "is a directory: {}",
                    target.rel.display()
                )));
            }
            Some(_) => {}
        }
        self.backup(target)?;
        unlinkat(
            target.dir.as_fd(),
            target.name.as_path(),
            UnlinkatFlags::NoRemoveDir,
        )
        .map_err(|e| errno_error(&target.rel.display().to_string(), e))
    }

    /// Renames `from` to `to` (both inside the workspace). A directory that holds a denied path
    /// stays where it is: moved, it would take goclaw's state with it and leave its old name
    /// free for another store or config to appear under.
    pub fn rename(&self, from: &Target, to: &Target) -> FsResult<()> {
        for rel in [&from.rel, &to.rel] {
            if let Some(d) = self
                .denied
                .iter()
                .find(|d| d.starts_with(rel) && d.as_path() != rel.as_path())
            {
                return Err(FsError::new(format!(
                    "access denied: {} holds {}, which is restricted",
                    rel.display(),
                    d.display()
                )));
            }
        }
        renameat(
            from.dir.as_fd(),
            from.name.as_path(),
            to.dir.as_fd(),
            to.name.as_path(),
        )
        .map_err(|e| errno_error(&from.rel.display().to_string(), e))
    }

    /// Facts about the entry at `target` (not following a final symlink), if it exists.
    pub fn stat_in(&self, target: &Target) -> FsResult<Option<EntryStat>> {
        match nix::sys::stat::fstatat(
            target.dir.as_fd(),
            target.name.as_path(),
            nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW,
        ) {
            Ok(st) => Ok(Some(EntryStat {
                nlink: st.st_nlink,
                mode: st.st_mode & 0o7777,
                is_dir: st.st_mode & libc_s_ifmt() == 0o040000,
                is_symlink: st.st_mode & libc_s_ifmt() == 0o120000,
            })),
            Err(Errno::ENOENT) => Ok(None),
            Err(e) => Err(errno_error(&target.rel.display().to_string(), e)),
        }
    }

    /// Copies the current content of `target` to `.goclaw/backups/<path>.<time>`, keeping the
    /// newest [`MAX_BACKUPS`].
    pub fn backup(&self, target: &Target) -> FsResult<()> {
        let Ok(content) = self.read_target(target) else {
            return Ok(()); // not a regular file: nothing to back up
        };
        let dir_rel = Path::new(BACKUP_DIR).join(target.rel.parent().unwrap_or(Path::new("")));
        let dir = self.create_dirs(&dir_rel)?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let name = format!("{}.{stamp:020}", target.name.display());
        let fd = openat(
            dir.as_fd(),
            name.as_str(),
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
            Mode::from_bits_truncate(0o600),
        )
        .map_err(|e| errno_error(BACKUP_DIR, e))?;
        File::from(fd)
            .write_all(&content)
            .map_err(|e| FsError::new(format!("backup failed: {e}")))?;
        // Keep the newest MAX_BACKUPS of this file.
        let prefix = format!("{}.", target.name.display());
        let listing = std::fs::read_dir(format!("/proc/self/fd/{}", dir.as_raw_fd()));
        if let Ok(entries) = listing {
            let mut olds: Vec<String> = entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| {
                    n.strip_prefix(&prefix).is_some_and(|rest| {
                        rest.len() == 20 && rest.bytes().all(|b| b.is_ascii_digit())
                    })
                })
                .collect();
            olds.sort();
            let excess = olds.len().saturating_sub(MAX_BACKUPS);
            for old in olds.iter().take(excess) {
                let _ = unlinkat(dir.as_fd(), old.as_str(), UnlinkatFlags::NoRemoveDir);
            }
        }
        Ok(())
    }
}

/// Where a write lands: the directory's descriptor, the entry name, and the real relative path.
#[derive(Debug)]
pub struct Target {
    pub dir: OwnedFd,
    pub name: PathBuf,
    pub rel: PathBuf,
}

#[derive(Debug, Clone, Copy)]
pub struct EntryStat {
    pub nlink: u64,
    pub mode: u32,
    pub is_dir: bool,
    pub is_symlink: bool,
}

fn libc_s_ifmt() -> u32 {
    0o170000
}

/// Cleans a relative path: drops `.`, applies `..`; `None` if it climbs above its start.
fn lexical(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// Removes the temporary files that writers killed mid-write left in `dir`, the first time this
/// process writes there (a directory is listed once, not on every write).
fn clean_stale_once(dir: &OwnedFd) {
    static CLEANED: std::sync::Mutex<Vec<(u64, u64)>> = std::sync::Mutex::new(Vec::new());
    let Ok(st) = nix::sys::stat::fstat(dir.as_fd()) else {
        return;
    };
    let key = (st.st_dev, st.st_ino);
    match CLEANED.lock() {
        Ok(mut seen) if !seen.contains(&key) => seen.push(key),
        _ => return,
    }
    crate::tempfiles::remove_stale(Path::new(&format!("/proc/self/fd/{}", dir.as_raw_fd())));
}

/// Cleans an absolute path lexically (`..` at the root stays at the root).
fn lexical_abs(p: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in p.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

/// Lists a directory opened through the workspace (entries sorted by name).
pub fn list_dir(fd: &OwnedFd) -> FsResult<Vec<(std::ffi::OsString, std::fs::Metadata)>> {
    let dir = std::fs::read_dir(format!("/proc/self/fd/{}", fd.as_raw_fd()))
        .map_err(|e| FsError::new(e.to_string()))?;
    let mut out: Vec<(std::ffi::OsString, std::fs::Metadata)> = dir
        .flatten()
        .filter_map(|e| {
            let name = e.file_name();
            let meta = e.metadata().ok()?;
            Some((name, meta))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_paths() {
        assert_eq!(lexical(Path::new("a/./b/../c")), Some(PathBuf::from("a/c")));
        assert_eq!(lexical(Path::new("../x")), None);
        assert_eq!(lexical(Path::new("a/../../x")), None);
        assert_eq!(lexical_abs(Path::new("/a/../../b")), PathBuf::from("/b"));
    }
}
