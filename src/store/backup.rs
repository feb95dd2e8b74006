//! Online backup of the store with SQLite's backup API: a consistent snapshot taken while other
//! processes keep writing (WAL readers never block writers), written to a temporary file beside
//! the destination and renamed into place, so a backup is either whole or absent.
//!
//! A destination that is a store in use (its `-wal` beside it: goclaw keeps the WAL between
//! processes) is written into instead, by the same API in one transaction: that is how a backup
//! is restored (`goclaw --db BACKUP db backup STORE --force`). A file moved over such a store
//! would be read with the old WAL replayed over it: a corrupt store, the restore undone.

use std::fs::OpenOptions;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use super::{Store, integrity_check, sql_error};
use crate::error::{Error, Result};

#[derive(Debug, Clone, Serialize)]
pub struct BackupReport {
    pub source: PathBuf,
    pub path: PathBuf,
    pub pages: i64,
    pub bytes: u64,
    pub integrity: String,
}

/// Copies the store into `dest`. An existing `dest` is refused unless `overwrite`.
pub fn backup(store: &Store, dest: &Path, overwrite: bool) -> Result<BackupReport> {
    // `-` is standard input or output elsewhere; a backup is a database file, never a stream.
    if dest.as_os_str() == "-" {
        return Err(Error::usage(
            "db backup writes a database file, not standard output: name the file (./- for a file named -)",
        ));
    }
    // A copy moved over the store itself would leave its write-ahead log to another file
    // (`--force` onto the live store was reported a success).
    if same_file(dest, store.path()) {
        return Err(Error::usage(format!(
            "{} is the store itself: back it up to another file",
            dest.display()
        )));
    }
    if dest.exists() && !overwrite {
        return Err(
            Error::conflict(format!("{} already exists", dest.display()))
                .with_hint("pass --force to replace it"),
        );
    }
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(Error::not_found(format!(
            "directory {} does not exist",
            dir.display()
        )));
    }
    if dest.exists() && beside(dest, "-wal").exists() {
        return restore_into(store, dest);
    }
    // The WAL of a database that is gone would be replayed over the new file.
    if !dest.exists() {
        for leftover in [beside(dest, "-wal"), beside(dest, "-shm")] {
            let _ = std::fs::remove_file(leftover);
        }
    }
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    crate::tempfiles::remove_stale(&dir);
    let tmp = dir.join(format!(
        ".{name}{}{}",
        crate::tempfiles::BACKUP_MARK,
        std::process::id()
    ));
    let result = copy_into(store, &tmp);
    let report = match result {
        Ok(pages) => pages,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    std::fs::rename(&tmp, dest).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io("move backup into place at", dest, &e)
    })?;
    let bytes = std::fs::metadata(dest).map(|m| m.len()).unwrap_or(0);
    Ok(BackupReport {
        source: store.path().to_path_buf(),
        path: dest.to_path_buf(),
        pages: report.0,
        bytes,
        integrity: report.1,
    })
}

/// `path` with `suffix` after its name (`goclaw.db-wal`).
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// Writes the store into the database at `dest`, in one transaction its other connections see
/// whole (see the module's doc).
fn restore_into(store: &Store, dest: &Path) -> Result<BackupReport> {
    let (pages, integrity) = copy_into(store, dest)?;
    Ok(BackupReport {
        source: store.path().to_path_buf(),
        path: dest.to_path_buf(),
        pages,
        bytes: std::fs::metadata(dest).map(|m| m.len()).unwrap_or(0),
        integrity,
    })
}

/// Copies the store into the database at `dst_path` (a new, empty temporary file, or a store
/// being restored), and checks the copy.
fn copy_into(store: &Store, dst_path: &Path) -> Result<(i64, String)> {
    let tmp = dst_path;
    if !tmp.exists() {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(tmp)
            .map_err(|e| Error::io("create", tmp, &e))?;
    }
    let mut dst = Connection::open_with_flags(tmp, OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(|e| sql_error(tmp, e))?;
    dst.busy_timeout(super::BUSY_TIMEOUT)
        .map_err(|e| sql_error(tmp, e))?;
    let pages = {
        let backup = Backup::new(store.conn()?, &mut dst).map_err(|e| sql_error(tmp, e))?;
        // One step copies every page under one read transaction: a consistent snapshot that
        // concurrent writers cannot restart.
        loop {
            match backup.step(-1).map_err(|e| sql_error(store.path(), e))? {
                StepResult::Done => break,
                StepResult::More | StepResult::Busy | StepResult::Locked => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                _ => {}
            }
        }
        backup.progress().pagecount as i64
    };
    let integrity = integrity_check(&dst, tmp)?.join("; ");
    if integrity != "ok" {
        return Err(Error::failed(format!(
            "backup failed its integrity check: {integrity}"
        )));
    }
    dst.close().map_err(|(_, e)| sql_error(tmp, e))?;
    Ok((pages, integrity))
}

/// Whether `a` and `b` are the same file (by device and inode: any path to it).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}
