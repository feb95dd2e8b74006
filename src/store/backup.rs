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
    /// A store in use that could not be written into (torn, another page size) was replaced,
    /// its `-wal` and `-shm` removed: a process that had it open must be started again.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replaced_store: bool,
}

/// Copies the store into `dest`. An existing `dest` is refused unless `overwrite`; a store in
/// use there is waited for at most `busy` (`[store] busy_timeout_ms`).
pub fn backup(
    store: &Store,
    dest: &Path,
    (overwrite, busy): (bool, std::time::Duration),
) -> Result<BackupReport> {
    // `-` is standard input or output elsewhere; a backup is a database file, never a stream.
    if dest.as_os_str() == "-" {
        return Err(Error::usage(
            "db backup writes a database file, not standard output: name the file (./- for a file named -)",
        ));
    }
    // The report names the file in JSON text: a name that is not UTF-8 is refused before
    // anything is written (it was written, then the report failed).
    if dest.to_str().is_none() {
        return Err(Error::usage(format!(
            "the backup's name {} is not valid UTF-8: goclaw writes paths in JSON, which cannot hold it",
            dest.display()
        )));
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
    let in_use = dest.exists() && beside(dest, "-wal").exists();
    if in_use {
        match copy_into(store, dest, busy) {
            Ok((pages, integrity)) => return Ok(report(store, dest, (pages, integrity), false)),
            // A store that cannot be written into (torn, not a database, another page size
            // in WAL mode) is replaced below, its WAL with it.
            Err(Copy::Unwritable(_)) => {}
            Err(Copy::Failed(e)) => return Err(e),
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
    let copied = match copy_into(store, &tmp, busy) {
        Ok(copied) => copied,
        Err(Copy::Unwritable(e) | Copy::Failed(e)) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    std::fs::rename(&tmp, dest).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io("move backup into place at", dest, &e)
    })?;
    // The WAL of the database that was there would be replayed over the new file.
    for leftover in [beside(dest, "-wal"), beside(dest, "-shm")] {
        let _ = std::fs::remove_file(leftover);
    }
    Ok(report(store, dest, copied, in_use))
}

fn report(
    store: &Store,
    dest: &Path,
    (pages, integrity): (i64, String),
    replaced: bool,
) -> BackupReport {
    BackupReport {
        source: store.path().to_path_buf(),
        path: dest.to_path_buf(),
        pages,
        bytes: std::fs::metadata(dest).map(|m| m.len()).unwrap_or(0),
        integrity,
        replaced_store: replaced,
    }
}

/// `path` with `suffix` after its name (`goclaw.db-wal`).
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

/// Why a copy failed: the destination cannot take one (it is replaced instead), or anything
/// else.
enum Copy {
    Unwritable(Error),
    Failed(Error),
}

/// Copies the store into the database at `dst_path` (a new, empty temporary file, or a store
/// in use, written into in one transaction its other connections see whole), and checks the
/// copy. Errors name the file they are about; a lock held past the busy timeout is exit 7.
fn copy_into(
    store: &Store,
    dst_path: &Path,
    busy: std::time::Duration,
) -> std::result::Result<(i64, String), Copy> {
    let source = store.conn().map_err(Copy::Failed)?;
    let at_dest = |e: rusqlite::Error| {
        let unwritable = matches!(
            e.sqlite_error_code(),
            Some(
                rusqlite::ErrorCode::NotADatabase
                    | rusqlite::ErrorCode::DatabaseCorrupt
                    | rusqlite::ErrorCode::ReadOnly
            )
        );
        let mut error = sql_error(dst_path, e);
        error.message = format!("writing into {}: {}", dst_path.display(), error.message);
        if unwritable {
            Copy::Unwritable(error)
        } else {
            Copy::Failed(error)
        }
    };
    if !dst_path.exists() {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(dst_path)
            .map_err(|e| Copy::Failed(Error::io("create", dst_path, &e)))?;
    }
    let mut dst = Connection::open_with_flags(dst_path, OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(at_dest)?;
    dst.busy_timeout(busy).map_err(at_dest)?;
    // What the backup cannot write over: a file that is no database or is torn, and a WAL
    // database of another page size (WAL mode cannot change it).
    dst.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
        .map_err(at_dest)?;
    let page_size =
        |c: &Connection| c.pragma_query_value(None, "page_size", |r| r.get::<_, i64>(0));
    let mode: String = dst
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .map_err(at_dest)?;
    if mode == "wal" && page_size(&dst).ok() != page_size(source).ok() {
        return Err(Copy::Unwritable(Error::failed(format!(
            "{} has another page size",
            dst_path.display()
        ))));
    }
    let pages = {
        let backup = Backup::new(source, &mut dst).map_err(at_dest)?;
        // One step copies every page under one read transaction: a consistent snapshot that
        // concurrent writers cannot restart. A lock held by another process is waited for as
        // long as the busy timeout, as any write is.
        let began = std::time::Instant::now();
        loop {
            match backup.step(-1).map_err(at_dest)? {
                StepResult::Done => break,
                StepResult::Busy | StepResult::Locked if began.elapsed() >= busy => {
                    return Err(Copy::Failed(
                        Error::new(
                            crate::error::ErrorKind::Timeout,
                            format!(
                                "{} stayed locked by another process for {}s",
                                dst_path.display(),
                                busy.as_secs_f64()
                            ),
                        )
                        .with_hint("retry once the store is not in use"),
                    ));
                }
                _ => std::thread::sleep(std::time::Duration::from_millis(20)),
            }
        }
        backup.progress().pagecount as i64
    };
    let integrity = integrity_check(&dst, dst_path)
        .map_err(Copy::Failed)?
        .join("; ");
    if integrity != "ok" {
        return Err(Copy::Failed(Error::failed(format!(
            "the copy in {} failed its integrity check: {integrity}",
            dst_path.display()
        ))));
    }
    dst.close().map_err(|(_, e)| at_dest(e))?;
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
