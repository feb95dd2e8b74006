//! The SQLite backend: one file, created on first use with mode 0600 in a directory made 0700;
//! WAL, a busy timeout (`busy`) and foreign keys on every connection; the embedded migrations
//! applied in one `BEGIN IMMEDIATE` transaction. (The durability promise is in `store`'s own
//! comment.)

use std::fs::{DirBuilder, OpenOptions};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior};

use super::{BUSY_TIMEOUT, MIGRATIONS, Migration, MigrationState, busy, latest_version};
use crate::error::{Error, ErrorKind, Result};

/// An open, migrated store.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Connection,
    path: PathBuf,
    /// Migrations this open applied.
    pub applied: Vec<Migration>,
}

impl Drop for SqliteStore {
    /// A WAL past [`WAL_PAGES`] is copied into the database and truncated on the way out. Only a
    /// truncated WAL stays small across processes: the next process to open the store rebuilds
    /// the WAL's index, and the rebuild forgets what was already copied, so a WAL that was only
    /// checkpointed would be copied again and appended to forever. Without waiting: when another
    /// connection is reading, the checkpoint gives up and a later close does it.
    fn drop(&mut self) {
        self.truncate_big_wal();
    }
}

impl SqliteStore {
    /// The checkpoint of [`Drop`]: a WAL past [`WAL_PAGES`] copied and truncated, if nobody
    /// reads.
    fn truncate_big_wal(&self) {
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        let big = std::fs::metadata(&wal).is_ok_and(|m| m.len() > WAL_PAGES * 4096);
        if big && self.conn.busy_timeout(Duration::ZERO).is_ok() {
            let _ = self
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
    }

    /// For a process about to exit: the WAL checkpoint a drop makes, then the connection left
    /// open for the exit to end. Every transaction is committed by then, and a store closed by
    /// a process's exit is opened as after any close (the next process rebuilds the WAL's
    /// index either way); closing it would free the parsed schema object by object, ~5 % of
    /// the instructions of a `tools exec read_file` or a claim (callgrind).
    pub fn release_at_exit(self) {
        self.truncate_big_wal();
        std::mem::forget(self);
    }
}

impl SqliteStore {
    /// Opens the store at `path`, creating it (0600, directory 0700) and applying pending
    /// migrations as needed.
    pub fn open(path: &Path, busy_timeout: Duration) -> Result<SqliteStore> {
        create_file(path)?;
        let conn = connect(path, OpenFlags::SQLITE_OPEN_READ_WRITE, busy_timeout)?;
        // Whose it is comes first: one read of the header for a store that bears the mark.
        refuse_foreign(&conn, path)?;
        let version = schema_version(&conn).map_err(|e| sql_error(path, e))?;
        if version > latest_version() {
            return Err(newer_error(path, version));
        }
        // A store only read here (see `connect`): read as it is, never migrated.
        if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            if version < latest_version() {
                return Err(Error::denied(format!(
                    "the store {} is read-only here and its schema (version {version}) is behind this goclaw's ({}): it cannot be migrated",
                    path.display(),
                    latest_version()
                ))
                .with_hint("open it once where it can be written, or with the goclaw that made it"));
            }
            return Ok(SqliteStore {
                conn,
                path: path.to_path_buf(),
                applied: Vec::new(),
            });
        }
        // Two processes creating the store at once both switch it to WAL; SQLite refuses the
        // loser without waiting (see `busy::retry_while_busy`), and its retry finds WAL on.
        busy::retry_while_busy(busy_timeout, || {
            conn.pragma_update(None, "journal_mode", "WAL")
        })
        .map_err(|e| sql_error(path, e))?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| sql_error(path, e))?;
        let mut store = SqliteStore {
            conn,
            path: path.to_path_buf(),
            applied: Vec::new(),
        };
        // A store at the latest version (the usual case) is not asked again; `migrate` reads
        // the version anew inside its transaction, where another process may have moved it.
        if version < latest_version() {
            store.applied = store.migrate()?;
        }
        Ok(store)
    }

    /// Opens an existing store read-only, without creating or migrating it.
    pub fn open_read_only(path: &Path) -> Result<Connection> {
        refuse_not_a_file(path)?;
        if !path.exists() {
            return Err(
                Error::not_found(format!("no store at {}", path.display())).with_hint(
                    "any goclaw command that uses the store creates it, e.g. `goclaw db migrate`",
                ),
            );
        }
        let conn = connect(path, OpenFlags::SQLITE_OPEN_READ_ONLY, BUSY_TIMEOUT)?;
        conn.pragma_update(None, "query_only", true)
            .map_err(|e| sql_error(path, e))?;
        Ok(conn)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for code on the database layer that runs on either backend.
    pub fn db(&self) -> super::db::Db<'_> {
        super::db::Db::Sqlite(&self.conn)
    }

    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    pub fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// Applies pending migrations in one `BEGIN IMMEDIATE` transaction; returns those applied.
    /// Another process migrating at the same time is waited for, and its work not repeated.
    pub fn migrate(&mut self) -> Result<Vec<Migration>> {
        let path = self.path.clone();
        let err = |e| sql_error(&path, e);
        if schema_version(&self.conn).map_err(err)? >= latest_version() {
            return Ok(Vec::new());
        }
        // Foreign keys off while migrations run (SQLite's way to change a table: copy it, drop
        // the old one, rename; a dropped table must not take its references with it). They are
        // checked once the migrations committed, and on again whatever happened.
        self.conn
            .pragma_update(None, "foreign_keys", false)
            .map_err(err)?;
        let result = self.apply_migrations();
        let checked = self
            .conn
            .query_row("PRAGMA foreign_key_check", [], |r| r.get::<_, String>(0));
        self.conn
            .pragma_update(None, "foreign_keys", true)
            .map_err(err)?;
        let applied = result?;
        match checked {
            Err(rusqlite::Error::QueryReturnedNoRows) => Ok(applied),
            Ok(table) => Err(Error::internal(format!(
                "migrations left a broken reference in table {table} of {}",
                path.display()
            ))),
            Err(e) => Err(err(e)),
        }
    }

    fn apply_migrations(&mut self) -> Result<Vec<Migration>> {
        let path = self.path.clone();
        let err = |e| sql_error(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        tx.execute_batch(SCHEMA_MIGRATIONS).map_err(err)?;
        let current = schema_version(&tx).map_err(err)?;
        if current > latest_version() {
            return Err(newer_error(&path, current));
        }
        let mut applied = Vec::new();
        for m in MIGRATIONS.iter().filter(|m| m.version > current) {
            tx.execute_batch(m.sql).map_err(|e| {
                Error::internal(format!(
                    "migration {:03}_{} failed on {}: {e}",
                    m.version,
                    m.name,
                    path.display()
                ))
            })?;
            tx.execute(
                "INSERT INTO schema_migrations (version, name, applied_at)
                 VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                (m.version, m.name),
            )
            .map_err(err)?;
            applied.push(*m);
        }
        if current == 0 {
            tx.execute(
                "INSERT OR IGNORE INTO store_meta (key, value) VALUES ('created_by', ?1)",
                [concat!("goclaw ", env!("CARGO_PKG_VERSION"))],
            )
            .map_err(err)?;
        }
        tx.pragma_update(None, "user_version", latest_version())
            .map_err(err)?;
        tx.pragma_update(None, "application_id", APPLICATION_ID)
            .map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(applied)
    }

    /// The schema as SQL, one statement per entry (sqlite_schema order, internal tables left out).
    pub fn schema(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT sql FROM sqlite_schema
                 WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
                 ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, name",
            )
            .map_err(|e| sql_error(&self.path, e))?;
        let rows = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
            .map_err(|e| sql_error(&self.path, e))?;
        Ok(rows)
    }
}

/// Migration state of an open connection.
pub fn migration_state(conn: &Connection, path: &Path) -> Result<MigrationState> {
    // Another program's database holds no migration of goclaw's, whatever it says.
    let foreign = matches!(
        owner(conn).map_err(|e| sql_error(path, e))?,
        Owner::Foreign(_)
    );
    let v = match foreign {
        true => 0,
        false => schema_version(conn).map_err(|e| sql_error(path, e))?,
    };
    Ok(MigrationState {
        schema_version: v,
        binary_version: latest_version(),
        pending: MIGRATIONS
            .iter()
            .filter(|m| m.version > v)
            .copied()
            .collect(),
    })
}

/// What the schema of a store at `version` lacks of what its migrations make (see
/// `store::drift`); empty when nothing.
pub fn schema_problems(conn: &Connection, version: i64) -> Result<Vec<String>> {
    super::drift::sqlite(
        super::db::Db::Sqlite(conn),
        (SCHEMA_MIGRATIONS, MIGRATIONS),
        version,
    )
}

/// `PRAGMA integrity_check` results: `["ok"]` when healthy.
pub fn integrity_check(conn: &Connection, path: &Path) -> Result<Vec<String>> {
    let mut stmt = conn
        .prepare("PRAGMA integrity_check")
        .map_err(|e| sql_error(path, e))?;
    stmt.query_map([], |r| r.get::<_, String>(0))
        .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
        .map_err(|e| sql_error(path, e))
}

/// Highest applied migration (0 for a new, empty store). `apply_migrations` sets `user_version`
/// to the latest version in the transaction that records the migrations, so a store at (or
/// past) this binary's latest says so in one pragma; below it, the table is read as well (the
/// larger of the two counts, as before).
fn schema_version(conn: &Connection) -> rusqlite::Result<i64> {
    let user_version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if user_version >= latest_version() {
        return Ok(user_version);
    }
    let has_table: bool = conn
        .query_row(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'",
            [],
            |_| Ok(true),
        )
        .optional()?
        .unwrap_or(false);
    let from_table: i64 = if has_table {
        conn.query_row(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            [],
            |r| r.get(0),
        )?
    } else {
        0
    };
    Ok(from_table.max(user_version))
}

/// What `path` is when it is there and no regular file (the store cannot be one): "a
/// directory", "a FIFO", …; `None` for a file, or nothing there.
pub fn not_a_file(path: &Path) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata(path).ok()?.file_type();
    match () {
        _ if kind.is_file() => None,
        _ if kind.is_dir() => Some("a directory"),
        _ if kind.is_fifo() => Some("a FIFO"),
        _ if kind.is_socket() => Some("a socket"),
        _ if kind.is_char_device() || kind.is_block_device() => Some("a device"),
        _ => Some("not a regular file"),
    }
}

/// A store path that is a directory, a FIFO (whose open would block for ever), a device
/// (`/dev/null`) or a socket is refused before SQLite opens it.
pub(crate) fn refuse_not_a_file(path: &Path) -> Result<()> {
    match not_a_file(path) {
        None => Ok(()),
        Some(what) => Err(Error::usage(format!(
            "the store {} is {what}, not a file",
            path.display()
        ))
        .with_hint("point --db (or [store] path) at a store file, or where one is to be made")),
    }
}

/// The table of applied migrations, made ahead of them.
const SCHEMA_MIGRATIONS: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
                version    INTEGER PRIMARY KEY NOT NULL,
                name       TEXT NOT NULL,
                applied_at TEXT NOT NULL
            ) STRICT;";

/// goclaw's mark in the database header (`PRAGMA application_id`, "gocl"): set by every
/// migration and on the first open of a store made before it, so a file is known for goclaw's
/// by a read of its header.
const APPLICATION_ID: i32 = 0x676f_636c;

/// Whose a database is.
enum Owner {
    /// goclaw's, and it bears the mark.
    Marked,
    /// goclaw's without the mark: empty, or made before the mark (`schema_migrations` as
    /// goclaw makes it, beside `store_meta`).
    Unmarked,
    /// Another program's: its tables.
    Foreign(Vec<String>),
}

fn owner(conn: &Connection) -> rusqlite::Result<Owner> {
    let mark: i32 = conn.pragma_query_value(None, "application_id", |r| r.get(0))?;
    if mark == APPLICATION_ID {
        return Ok(Owner::Marked);
    }
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             ORDER BY name",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    if tables.is_empty() {
        return Ok(Owner::Unmarked);
    }
    // Another tool's `schema_migrations` (golang-migrate's `version, dirty`, Rails' text
    // versions) is not goclaw's.
    let columns: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('schema_migrations') ORDER BY cid")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let ours =
        columns == ["version", "name", "applied_at"] && tables.iter().any(|t| t == "store_meta");
    Ok(if ours {
        Owner::Unmarked
    } else {
        Owner::Foreign(tables)
    })
}

/// Another program's database is refused untouched: goclaw neither migrates it (mixing its
/// tables into that program's) nor switches it to WAL. A store of goclaw's made before the
/// mark gets it now (when it can be written).
fn refuse_foreign(conn: &Connection, path: &Path) -> Result<()> {
    match owner(conn).map_err(|e| sql_error(path, e))? {
        Owner::Marked => Ok(()),
        Owner::Unmarked => {
            let _ = conn.pragma_update(None, "application_id", APPLICATION_ID);
            Ok(())
        }
        Owner::Foreign(tables) => Err(Error::usage(format!(
            "{} is a database of another program (its tables: {}{}); goclaw left it untouched",
            path.display(),
            tables
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            if tables.len() > 3 { ", …" } else { "" }
        ))
        .with_hint("give goclaw a store of its own: --db PATH names a new file")),
    }
}

fn newer_error(path: &Path, version: i64) -> Error {
    Error::usage(format!(
        "store {} has schema version {version}, newer than this goclaw understands (version {}); it was left untouched",
        path.display(),
        latest_version()
    ))
    .with_hint("upgrade goclaw, or point --db at another store")
}

/// The WAL size (in 4 KiB pages) past which a closing store copies it into the database and
/// truncates it. A tool call writes ~7 pages, so about one process in ten pays for that
/// checkpoint (~1.2 ms of fsyncs), and every opening reads at most about this much WAL back
/// (`tools exec read_file`, 200 runs each: 64 pages 3.5 ms CPU; 1 000 pages 5.8 ms).
const WAL_PAGES: u64 = 64;

/// Compiled statements a connection keeps (see `connect`).
const STATEMENT_CACHE: usize = 64;

fn connect(path: &Path, mode: OpenFlags, busy_timeout: Duration) -> Result<Connection> {
    without_memory_statistics();
    let flags = mode | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
    let conn = match only_readable(path) {
        Some(uri) => Connection::open_with_flags(
            uri,
            OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_URI,
        ),
        None => Connection::open_with_flags(path, flags),
    }
    .map_err(|e| sql_error(path, e))?;
    busy::install(&conn, busy_timeout).map_err(|e| sql_error(path, e))?;
    conn.pragma_update(None, "foreign_keys", true)
        .map_err(|e| sql_error(path, e))?;
    persist_wal(&conn);
    // Plans do not depend on bound values (the query planner stability guarantee). Without it
    // the planner marks a statement whose plan might change with a parameter's value (here:
    // `team_id = ?1` in a query that sorts or joins, guessed a small integer) to be compiled
    // again when that parameter is bound 0 or 1, or its bindings are cleared, which rusqlite
    // does every time a statement goes back into its cache: a claim compiled three statements
    // twice (~5 % of its instructions), a long-lived process at every reuse, and a statement
    // compiled ahead of a write (`Db::prepare_ahead`) would be compiled again inside it. The
    // plan test explains statements with their parameters unbound (`ops::query_plans`), the
    // plan this mode runs. `db query --param` runs under it too: an ad-hoc `LIKE ?1` gets no
    // index range from the value.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)
        .map_err(|e| sql_error(path, e))?;
    // Room for every statement of the longest write compiled ahead (`Db::prepare_ahead`) with
    // those of the reads around it; rusqlite keeps 16.
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    // No checkpoint at every close: a process that wrote leaves its pages in the WAL, and the
    // store that closes with more than WAL_PAGES in it checkpoints and truncates it (see
    // `Drop for SqliteStore`). A close-time checkpoint cost every writing process 4 fsyncs and 2
    // truncations, and the next one re-created the WAL. The next process to open reads the WAL
    // back to rebuild its index. A long-lived process (a team run, `mcp serve`, the cron daemon)
    // keeps SQLite's own checkpoints at 1 000 pages.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
        .map_err(|e| sql_error(path, e))?;
    conn.pragma_update(None, "journal_size_limit", (WAL_PAGES * 4096) as i64)
        .map_err(|e| sql_error(path, e))?;
    // Reading the schema fails here, not later, when the file is not a database.
    conn.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
        .map_err(|e| sql_error(path, e))?;
    Ok(conn)
}

/// A store in a directory this process cannot write, with no `-shm` file beside it and no
/// changes in a `-wal` (a backup on a read-only mount, another user's store it may read):
/// SQLite cannot make the shared-memory file a WAL store is read through, and refused every
/// read ("attempt to write a readonly database"). Such a store cannot change while it is read
/// (nobody can write its log there), so it is opened as immutable, read-only: the URI to open
/// it by. `None` for any other store. One with changes in its `-wal` still needs its `-shm`,
/// and fails as before.
fn only_readable(path: &Path) -> Option<String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let beside = |suffix: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        std::path::PathBuf::from(p)
    };
    // One system call for the usual store, in a directory it may write.
    if nix::unistd::access(dir, nix::unistd::AccessFlags::W_OK).is_ok() {
        return None;
    }
    let unchanged = std::fs::metadata(beside("-wal")).map_or(true, |m| m.len() == 0);
    if beside("-shm").exists() || !unchanged || !path.is_file() {
        return None;
    }
    // A URI's path: `%`, `?` and `#` escaped (`%` first), the rest as it is.
    let absolute = std::path::absolute(path).ok()?;
    let escaped = absolute
        .to_str()?
        .replace('%', "%25")
        .replace('?', "%3F")
        .replace('#', "%23");
    Some(format!("file:{escaped}?immutable=1"))
}

/// Turns off SQLite's memory statistics before its first connection: with them on, every
/// allocation takes a global mutex, and opening the store parses its whole schema (about a
/// thousand allocations; the open took 0.60 ms with them, 0.52 ms without). goclaw reads none
/// of the statistics and sets no soft heap limit. Once per process, and only before SQLite is
/// initialised: a later call is refused by SQLite and changes nothing.
fn without_memory_statistics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: SQLITE_CONFIG_MEMSTATUS takes one int; sqlite3_config is called before any
        // connection of this process exists (the Once runs ahead of the first open), which is
        // when SQLite allows it, and it returns SQLITE_MISUSE, changing nothing, otherwise.
        unsafe {
            rusqlite::ffi::sqlite3_config(
                rusqlite::ffi::SQLITE_CONFIG_MEMSTATUS,
                0 as std::os::raw::c_int,
            );
        }
    });
}

/// Keeps the WAL file between processes (`SQLITE_FCNTL_PERSIST_WAL`). Each goclaw process is
/// usually the last to close the store, and would otherwise delete the WAL on exit and create it
/// on the next start, each with a directory fsync. Best effort: a failure only costs those
/// fsyncs.
fn persist_wal(conn: &Connection) {
    let mut on: std::os::raw::c_int = 1;
    // SAFETY: the handle is valid for the life of `conn`; "main" is a NUL-terminated static
    // string; SQLITE_FCNTL_PERSIST_WAL reads and writes one int through the pointer, which
    // points to a live local.
    unsafe {
        rusqlite::ffi::sqlite3_file_control(
            conn.handle(),
            c"main".as_ptr(),
            rusqlite::ffi::SQLITE_FCNTL_PERSIST_WAL,
            (&raw mut on).cast(),
        );
    }
}

/// Creates the store file (0600) and its directory (0700) when they do not exist yet.
fn create_file(path: &Path) -> Result<()> {
    // One look at the path (every open passes here): a file is used, nothing there is made,
    // anything else is refused.
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => return Ok(()),
        Ok(_) => return refuse_not_a_file(path),
        Err(_) => {}
    }
    if let Some(dir) = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !d.exists())
    {
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| Error::io("create store directory", dir, &e))?;
    }
    match OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(f) => {
            // The umask may only have narrowed the mode; make it exactly 0600.
            f.set_permissions(std::fs::Permissions::from_mode(0o600))
                .map_err(|e| Error::io("set permissions on", path, &e))?;
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(Error::io("create store", path, &e)),
    }
}

/// Classifies a SQLite error.
pub fn sql_error(path: &Path, e: rusqlite::Error) -> Error {
    use rusqlite::ErrorCode as C;
    let kind = match e.sqlite_error_code() {
        Some(C::DatabaseBusy | C::DatabaseLocked) => {
            if let Some(stopped) = super::stopped_waiting(&format!("store {}", path.display())) {
                return stopped;
            }
            return Error::new(
                ErrorKind::Timeout,
                format!(
                    "store {}: another process kept it locked: {e}",
                    path.display()
                ),
            )
            .with_hint("retry, or raise [store] busy_timeout_ms");
        }
        // A file that is no database is the wrong path (exit 2); a database torn apart is a
        // failure, with the way back.
        Some(C::NotADatabase) => {
            return Error::usage(format!("store {}: {e}", path.display()))
                .with_hint("point --db (or [store] path) at a goclaw store");
        }
        Some(C::DatabaseCorrupt) => {
            return Error::failed(format!("store {}: {e}", path.display()))
                .with_hint(super::CORRUPT_HINT);
        }
        // A store the process cannot write (file mode, read-only mount) is a failure of the
        // command, not a refusal by goclaw's policy.
        Some(C::ReadOnly | C::PermissionDenied) => {
            return Error::failed(format!("store {}: {e}", path.display()))
                .with_hint(super::READ_ONLY_HINT);
        }
        // A store that is there and cannot be opened: its mode, its directory's, or its WAL's
        // (`-wal`, `-shm`), not a missing store.
        Some(C::CannotOpen) if path.exists() => {
            return Error::failed(format!("store {}: {e}", path.display())).with_hint(
                "it is there but cannot be opened: check the permissions of it, its directory and its -wal and -shm files",
            );
        }
        Some(C::AuthorizationForStatementDenied) => ErrorKind::Denied,
        Some(C::CannotOpen) => ErrorKind::NotFound,
        Some(C::ConstraintViolation) => ErrorKind::Conflict,
        Some(C::DiskFull | C::SystemIoFailure) => ErrorKind::Failed,
        _ => match e {
            rusqlite::Error::SqlInputError { .. } | rusqlite::Error::InvalidParameterCount(..) => {
                ErrorKind::Usage
            }
            _ => ErrorKind::Failed,
        },
    };
    Error::new(kind, format!("store {}: {e}", path.display()))
}
