//! The store every goclaw command shares, the only state shared between goclaw processes:
//! SQLite by default (`sqlite`: one file, WAL, created on first use), or a PostgreSQL server
//! that several machines share (`postgres`). [`Store`] is an open one of either; the domain's
//! SQL runs on both through the database layer (`db`). Versioned migrations are embedded in the
//! binary, one list per backend; a store written by a newer goclaw is refused and never touched.
//! Durability on SQLite: WAL with `synchronous=NORMAL` and no checkpoint at close. A goclaw
//! process that crashes or is killed loses nothing it committed; a power loss or kernel crash
//! can take back the commits since the last checkpoint (about 256 KiB of WAL), and never leaves
//! a corrupt store. Copy the store with `goclaw db backup`: `goclaw.db` alone may lack the
//! commits still in `goclaw.db-wal`.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// `[store]` in config.toml.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct StoreConfig {
    /// Path of the store; relative paths are relative to the config file.
    pub path: Option<PathBuf>,
    /// A PostgreSQL store instead: `postgres://USER@HOST[:PORT]/DATABASE`.
    pub url: Option<String>,
    /// A variable that holds the PostgreSQL password (else PGPASSWORD, then ~/.pgpass).
    pub password_env: Option<String>,
    /// How long to wait for another process's write to finish before failing with exit 7
    /// (default 10000).
    pub busy_timeout_ms: Option<u64>,
}

impl StoreConfig {
    pub fn busy_timeout(&self) -> Duration {
        self.busy_timeout_ms
            .map_or(BUSY_TIMEOUT, Duration::from_millis)
    }
}

/// One embedded migration.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Migration {
    pub version: i64,
    pub name: &'static str,
    #[serde(skip)]
    pub sql: &'static str,
}

/// When a wait for `store`, locked by another process, was ended by a signal: the error the
/// command ends with, as the signal says.
pub(crate) fn stopped_waiting(store: &str) -> Option<Error> {
    db::stopped().map(|kind| {
        Error::new(
            kind,
            format!("stopped while waiting for {store}, which another process kept locked"),
        )
    })
}

/// A store error met by domain code: a store that stayed busy or locked is a timeout (exit 7),
/// anything else a failure naming the store. (Commands that know the file use [`sql_error`].)
pub fn sql(e: rusqlite::Error) -> Error {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
            stopped_waiting("the store").unwrap_or_else(|| {
                Error::new(
                    crate::error::ErrorKind::Timeout,
                    format!("the store stayed locked: {e}"),
                )
            })
        }
        Some(rusqlite::ErrorCode::ReadOnly) => {
            Error::failed(format!("store: {e}")).with_hint(READ_ONLY_HINT)
        }
        Some(rusqlite::ErrorCode::DatabaseCorrupt) => {
            Error::failed(format!("store: {e}")).with_hint(CORRUPT_HINT)
        }
        _ => Error::failed(format!("store: {e}")),
    }
}

/// What to do about a store this process cannot write.
pub(crate) const READ_ONLY_HINT: &str =
    "the store is read-only for this process: check its file mode and mount";
/// What to do about a corrupt store.
pub(crate) const CORRUPT_HINT: &str = "`goclaw db check` says what is wrong; restore a backup with `goclaw --db BACKUP db backup STORE --force`";

/// The store's clock: milliseconds since the Unix epoch (UTC).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The store's clock as text, the form the audit trail and the allowlist keep
/// (`2026-11-24T15:04:05.123Z`, UTC, milliseconds), taken here so both backends write the same.
pub fn now_text() -> String {
    jiff::Timestamp::from_millisecond(now_ms())
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// Every migration, in order. Append only: a released migration never changes.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "init",
        sql: include_str!("migrations/sqlite/001_init.sql"),
    },
    Migration {
        version: 2,
        name: "tools",
        sql: include_str!("migrations/sqlite/002_tools.sql"),
    },
    Migration {
        version: 3,
        name: "teams",
        sql: include_str!("migrations/sqlite/003_teams.sql"),
    },
    Migration {
        version: 4,
        name: "mcp",
        sql: include_str!("migrations/sqlite/004_mcp.sql"),
    },
    Migration {
        version: 5,
        name: "agent",
        sql: include_str!("migrations/sqlite/005_agent.sql"),
    },
    Migration {
        version: 6,
        name: "context",
        sql: include_str!("migrations/sqlite/006_context.sql"),
    },
    Migration {
        version: 7,
        name: "everyday",
        sql: include_str!("migrations/sqlite/007_everyday.sql"),
    },
    Migration {
        version: 8,
        name: "trust",
        sql: include_str!("migrations/sqlite/008_trust.sql"),
    },
    Migration {
        version: 9,
        name: "subagents",
        sql: include_str!("migrations/sqlite/009_subagents.sql"),
    },
    Migration {
        version: 10,
        name: "team_runs",
        sql: include_str!("migrations/sqlite/010_team_runs.sql"),
    },
    Migration {
        version: 11,
        name: "indexes",
        sql: include_str!("migrations/sqlite/011_indexes.sql"),
    },
    Migration {
        version: 12,
        name: "run_limits",
        sql: include_str!("migrations/sqlite/012_run_limits.sql"),
    },
    Migration {
        version: 13,
        name: "pages",
        sql: include_str!("migrations/sqlite/013_pages.sql"),
    },
    Migration {
        version: 14,
        name: "run_hosts",
        sql: include_str!("migrations/sqlite/014_run_hosts.sql"),
    },
    Migration {
        version: 15,
        name: "notify",
        sql: include_str!("migrations/sqlite/015_notify.sql"),
    },
    Migration {
        version: 16,
        name: "accents",
        sql: include_str!("migrations/sqlite/016_accents.sql"),
    },
    Migration {
        version: 17,
        name: "cron_deliver",
        sql: include_str!("migrations/sqlite/017_cron_deliver.sql"),
    },
    Migration {
        version: 18,
        name: "knowledge",
        sql: include_str!("migrations/sqlite/018_knowledge.sql"),
    },
    Migration {
        version: 19,
        name: "approval_requests",
        sql: include_str!("migrations/sqlite/019_approval_requests.sql"),
    },
    Migration {
        version: 20,
        name: "processes",
        sql: include_str!("migrations/sqlite/020_processes.sql"),
    },
    Migration {
        version: 21,
        name: "compaction_lock",
        sql: include_str!("migrations/sqlite/021_compaction_lock.sql"),
    },
    Migration {
        version: 22,
        name: "grant_secrets",
        sql: include_str!("migrations/sqlite/022_grant_secrets.sql"),
    },
    Migration {
        version: 23,
        name: "claim_recovery",
        sql: include_str!("migrations/sqlite/023_claim_recovery.sql"),
    },
    Migration {
        version: 24,
        name: "cron_running",
        sql: include_str!("migrations/sqlite/024_cron_running.sql"),
    },
    Migration {
        version: 25,
        name: "pid_start",
        sql: include_str!("migrations/sqlite/025_pid_start.sql"),
    },
    Migration {
        version: 26,
        name: "run_exit_code",
        sql: include_str!("migrations/sqlite/026_run_exit_code.sql"),
    },
    Migration {
        version: 27,
        name: "tool_call_owner",
        sql: include_str!("migrations/sqlite/027_tool_call_owner.sql"),
    },
];

/// A `WHERE` clause of equalities for the values given, and those values in order (`?1`, `?2`,
/// …): a filter left out is not in the SQL, so the index on a column given is used (a
/// `(?1 IS NULL OR col = ?1)` filter cannot use one).
pub fn where_equal<'a>(pairs: &[(&'static str, Option<&'a str>)]) -> (String, Vec<&'a str>) {
    let mut clause = String::new();
    let mut values = Vec::new();
    for (column, value) in pairs {
        if let Some(v) = value {
            values.push(*v);
            clause.push_str(if values.len() == 1 { "WHERE " } else { " AND " });
            clause.push_str(&format!("{column} = ?{}", values.len()));
        }
    }
    (clause, values)
}

/// Adds `condition` to a clause of [`where_equal`] (its values are not parameters: only
/// numbers goclaw parsed belong in it).
pub fn and_where(clause: &mut String, condition: &str) {
    clause.push_str(if clause.is_empty() { "WHERE " } else { " AND " });
    clause.push_str(condition);
}

/// Unix milliseconds of a time the store keeps as text ([`now_text`], the
/// audit trail's and the allowlist's): every time goclaw prints is Unix milliseconds. A text
/// that does not parse (never written by goclaw) is 0.
pub fn text_time_ms(text: &str) -> i64 {
    text.parse::<jiff::Timestamp>()
        .map_or(0, |t| t.as_millisecond())
}

/// The version of the SQLite compiled in.
pub fn sqlite_version() -> &'static str {
    rusqlite::version()
}

/// The schema version this binary writes.
pub fn latest_version() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

/// Looks (`look`) until it finds what it waits for, pausing between looks from 20 ms, doubling
/// up to `max`: how a process waits for another through the store.
pub fn poll<T>(max: Duration, mut look: impl FnMut() -> Result<Option<T>>) -> Result<T> {
    let mut pause = Duration::from_millis(20);
    loop {
        if let Some(found) = look()? {
            return Ok(found);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(max);
    }
}

/// How long a connection waits for another writer before giving up, by default.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The migration state of a store.
#[derive(Debug, Clone, Serialize)]
pub struct MigrationState {
    pub schema_version: i64,
    pub binary_version: i64,
    pub pending: Vec<Migration>,
}

pub mod backup;
mod busy;
pub mod copy;
pub mod db;
mod drift;
mod handle;
pub mod location;
pub mod page;
pub mod postgres;
mod query;
mod sqlite;
pub(crate) use sqlite::refuse_not_a_file;
pub mod vectors;

pub use busy::without_waiting;
pub use handle::{Store, StoreTarget};
pub use sqlite::{
    SqliteStore, integrity_check, migration_state, not_a_file, schema_problems, sql_error,
};

pub use query::{QueryLimits, query_json};

#[cfg(test)]
mod tests;
