//! The store on a PostgreSQL server: opening it, its migrations (applied in one transaction
//! under an advisory lock, so two machines upgrading at once do not race; a store written by a
//! newer goclaw is refused and never touched), and what `goclaw db` shows of it.

use std::time::Duration;

use super::db::{Begin, Db, PgConnect, Value};
use super::{Migration, MigrationState};
use crate::db_params;
use crate::error::{Error, ErrorKind, Result};

/// PostgreSQL's migrations. The first stands for SQLite's 001–013 at once; each later one has
/// a SQLite twin under the same version.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 13,
        name: "baseline",
        sql: include_str!("migrations/postgres/013_baseline.sql"),
    },
    Migration {
        version: 14,
        name: "run_hosts",
        sql: include_str!("migrations/postgres/014_run_hosts.sql"),
    },
    Migration {
        version: 15,
        name: "notify",
        sql: include_str!("migrations/postgres/015_notify.sql"),
    },
    Migration {
        version: 16,
        name: "accents",
        sql: include_str!("migrations/postgres/016_accents.sql"),
    },
    Migration {
        version: 17,
        name: "cron_deliver",
        sql: include_str!("migrations/postgres/017_cron_deliver.sql"),
    },
    Migration {
        version: 18,
        name: "knowledge",
        sql: include_str!("migrations/postgres/018_knowledge.sql"),
    },
    Migration {
        version: 19,
        name: "approval_requests",
        sql: include_str!("migrations/postgres/019_approval_requests.sql"),
    },
    Migration {
        version: 20,
        name: "processes",
        sql: include_str!("migrations/postgres/020_processes.sql"),
    },
    Migration {
        version: 21,
        name: "compaction_lock",
        sql: include_str!("migrations/postgres/021_compaction_lock.sql"),
    },
    Migration {
        version: 22,
        name: "grant_secrets",
        sql: include_str!("migrations/postgres/022_grant_secrets.sql"),
    },
    Migration {
        version: 23,
        name: "claim_recovery",
        sql: include_str!("migrations/postgres/023_claim_recovery.sql"),
    },
    Migration {
        version: 24,
        name: "cron_running",
        sql: include_str!("migrations/postgres/024_cron_running.sql"),
    },
    Migration {
        version: 25,
        name: "pid_start",
        sql: include_str!("migrations/postgres/025_pid_start.sql"),
    },
    Migration {
        version: 26,
        name: "run_exit_code",
        sql: include_str!("migrations/postgres/026_run_exit_code.sql"),
    },
    Migration {
        version: 27,
        name: "tool_call_owner",
        sql: include_str!("migrations/postgres/027_tool_call_owner.sql"),
    },
];

/// The advisory lock migrations hold: "goclaw" in ASCII.
const MIGRATION_LOCK: i64 = 0x676f_636c_6177;

/// The migration lock held (see [`PgStore::migration_lock`]).
struct MigrationLock<'c>(Db<'c>);

impl Drop for MigrationLock<'_> {
    fn drop(&mut self) {
        let _ = self
            .0
            .execute("SELECT pg_advisory_unlock(?1)", db_params![MIGRATION_LOCK]);
        if let Db::Postgres(c) = self.0 {
            c.borrow_mut().hold_session(false);
        }
    }
}

/// An open PostgreSQL store.
pub struct PgStore {
    client: std::cell::RefCell<super::db::pg::Client>,
    pub target: PgConnect,
    /// Migrations this open applied.
    pub applied: Vec<Migration>,
}

impl PgStore {
    /// Connects, and creates or migrates the schema when it is behind.
    pub fn open(target: &PgConnect) -> Result<PgStore> {
        let mut store = PgStore::connect(target)?;
        store.applied = store.migrate()?;
        Ok(store)
    }

    /// Connects without touching the schema.
    pub fn connect(target: &PgConnect) -> Result<PgStore> {
        let client = target.connect()?;
        Ok(PgStore {
            client: std::cell::RefCell::new(client),
            target: target.clone(),
            applied: Vec::new(),
        })
    }

    /// Replaces the connection with a new one that listens where the old one did (the schema
    /// is not looked at again).
    pub fn reconnect(&self) -> Result<()> {
        self.client.borrow_mut().replace()
    }

    /// The connection, for the domain's SQL.
    pub fn db(&self) -> Db<'_> {
        Db::Postgres(&self.client)
    }

    /// The highest version applied (0 on an empty database).
    pub fn version(&self) -> Result<i64> {
        version(self.db())
    }

    /// Applies what is pending; returns what it applied.
    pub fn migrate(&self) -> Result<Vec<Migration>> {
        let found = self.version()?;
        if found > super::latest_version() {
            return Err(self.newer(found));
        }
        if found == super::latest_version() {
            return Ok(Vec::new());
        }
        let _lock = self.migration_lock()?;
        let tx = self.db().transaction(Begin::Write)?;
        // Another machine may have migrated while this one waited for the lock (the
        // transaction began after the lock was taken, so it sees that machine's tables).
        let current = version(*tx)?;
        let mut applied = Vec::new();
        for m in MIGRATIONS.iter().filter(|m| m.version > current) {
            tx.execute_batch(m.sql).map_err(|e| {
                Error::new(
                    e.kind,
                    format!("store migration {} ({}): {}", m.version, m.name, e.message),
                )
            })?;
            tx.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
                db_params![m.version, m.name, now_text()],
            )?;
            applied.push(*m);
        }
        if !applied.is_empty() {
            super::vectors::take_up(*tx)?;
        }
        tx.commit()?;
        Ok(applied)
    }

    /// Takes pgvector up when the server has it (`goclaw db migrate` asks at every call, so an
    /// extension installed later is used from then on), under the migration lock.
    pub fn take_up_vectors(&self) -> Result<super::vectors::VectorSupport> {
        let _lock = self.migration_lock()?;
        let tx = self.db().transaction(Begin::Write)?;
        let support = super::vectors::take_up(*tx)?;
        tx.commit()?;
        Ok(support)
    }

    /// The session's migration lock, taken before the transaction begins: a transaction that
    /// began before another machine's migration committed could find that machine's new tables
    /// missing from its catalog snapshot. Released when dropped (or with the connection).
    fn migration_lock(&self) -> Result<MigrationLock<'_>> {
        self.db()
            .execute("SELECT pg_advisory_lock(?1)", db_params![MIGRATION_LOCK])?;
        self.client.borrow_mut().hold_session(true);
        Ok(MigrationLock(self.db()))
    }

    /// The refusal of a store a newer goclaw wrote (as SQLite's: exit 2, nothing touched).
    fn newer(&self, found: i64) -> Error {
        Error::usage(format!(
            "the store {} has schema version {found}, newer than this goclaw understands (version {}); it was left untouched",
            self.target.url,
            super::latest_version()
        ))
        .with_hint("upgrade goclaw on this machine")
    }

    /// What is applied and what is pending.
    pub fn migration_state(&self) -> Result<MigrationState> {
        let current = self.version()?;
        Ok(MigrationState {
            schema_version: current,
            binary_version: super::latest_version(),
            pending: MIGRATIONS
                .iter()
                .filter(|m| m.version > current)
                .copied()
                .collect(),
        })
    }

    /// The server's version string.
    pub fn server_version(&self) -> Result<String> {
        self.db()
            .query_row("SHOW server_version", db_params![], |r| r.get::<String>(0))
    }

    /// The statements that made the schema, as the migrations applied wrote them.
    pub fn schema(&self) -> Result<Vec<String>> {
        let current = self.version()?;
        let mut all: Vec<String> = MIGRATIONS
            .iter()
            .filter(|m| m.version <= current)
            .flat_map(|m| statements(m.sql))
            .collect();
        if super::vectors::in_server(self.db())? {
            all.push(super::vectors::TABLE_DDL.to_string());
        }
        Ok(all)
    }

    /// What the schema lacks of what its migrations make (see `store::drift`): tables, columns,
    /// indexes, triggers and functions. A user who may not create a schema, even in a
    /// transaction rolled back, gets the tables compared only, and a note saying so.
    pub fn check(&self) -> Result<(Vec<String>, Option<String>)> {
        let found = self.version()?;
        if found > super::latest_version() {
            return Err(self.newer(found));
        }
        if found == 0 {
            return Ok((
                vec!["no goclaw schema yet (`goclaw db migrate` creates it)".into()],
                None,
            ));
        }
        if let Some(problems) = super::drift::postgres(self.db(), MIGRATIONS, found)? {
            return Ok((problems, None));
        }
        let present: Vec<String> = self.db().query_map(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()",
            db_params![],
            |r| r.get(0),
        )?;
        let problems = tables(MIGRATIONS)
            .into_iter()
            .filter(|t| !present.contains(t))
            .map(|t| format!("table {t} is missing"))
            .collect();
        Ok((
            problems,
            Some(
                "only the tables were compared: this user may not create a schema (CREATE on the database), which comparing columns, indexes and triggers needs".into(),
            ),
        ))
    }

    /// Runs one statement in a read-only transaction that ends at `time`; calls `row` with
    /// each row (column name → value). Returns the column names.
    pub fn query_json(
        &self,
        sql: &str,
        params: &[String],
        time: Duration,
        max_bytes: u64,
        mut row: impl FnMut(serde_json::Map<String, serde_json::Value>) -> Result<()>,
    ) -> Result<Vec<String>> {
        let client = &self.client;
        let tx = self.db().transaction(Begin::Read)?;
        tx.execute_batch(&format!(
            "SET LOCAL statement_timeout = {}",
            // PostgreSQL's most (24.8 days); longer is as good as for ever.
            time.as_millis().clamp(1, i32::MAX as u128)
        ))?;
        if blank(sql) {
            return Err(Error::usage("db query: the SQL holds no statement"));
        }
        let sql = super::db::placeholders(sql);
        let (stmt, columns) = client
            .borrow_mut()
            .prepare(&sql)
            .map_err(|e| one_statement(e, sql.as_str()))?;
        if stmt.params().len() != params.len() {
            return Err(Error::usage(format!(
                "the statement has {} parameter(s) but {} --param value(s) were given",
                stmt.params().len(),
                params.len()
            )));
        }
        let values: Vec<Value> = params.iter().map(|p| Value::Text(p.clone())).collect();
        let mut bytes = 0u64;
        client
            .borrow_mut()
            .query_each(&stmt, &values, |r| {
                let mut obj = serde_json::Map::new();
                for (name, value) in columns.iter().zip(r.into_values()) {
                    let json = to_json(value);
                    bytes += json.to_string().len() as u64;
                    if bytes > max_bytes {
                        return Err(Error::new(
                            ErrorKind::Limited,
                            format!("db query: the result is larger than {max_bytes} bytes"),
                        )
                        .with_hint("select less, or raise --max-bytes"));
                    }
                    obj.insert(name.clone(), json);
                }
                row(obj)
            })
            .map_err(|e| timed_out(e, time))?;
        // Never committed: whatever a function called in it did (a large object made or
        // removed, a setting changed) goes with the transaction, so the store is as it was.
        drop(tx);
        Ok(columns)
    }
}

fn version(db: Db<'_>) -> Result<i64> {
    // One catalog lookup (information_schema's views took milliseconds at every open).
    let exists = db.query_row(
        "SELECT to_regclass('schema_migrations') IS NOT NULL",
        db_params![],
        |r| r.get::<bool>(0),
    )?;
    if !exists {
        return Ok(0);
    }
    db.query_row(
        "SELECT coalesce(max(version), 0) FROM schema_migrations",
        db_params![],
        |r| r.get::<i64>(0),
    )
}

fn one_statement(e: Error, sql: &str) -> Error {
    if e.message.contains("cannot insert multiple commands")
        || sql.trim_end().trim_end_matches(';').contains(';') && e.message.contains("syntax error")
    {
        return Error::usage("db query runs one statement; the SQL holds more than one")
            .with_hint("run each statement with its own `goclaw db query`");
    }
    e
}

fn timed_out(e: Error, time: Duration) -> Error {
    if e.kind == ErrorKind::Timeout && e.message.contains("statement timeout") {
        return Error::new(
            ErrorKind::Timeout,
            format!("db query: stopped after {}s", time.as_secs_f64()),
        )
        .with_hint("--timeout gives it longer");
    }
    e
}

fn to_json(v: Value) -> serde_json::Value {
    match v {
        Value::Null => serde_json::Value::Null,
        Value::Int(i) => i.into(),
        Value::Real(f) => {
            serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, Into::into)
        }
        Value::Text(s) => s.into(),
        Value::Blob(b) => {
            serde_json::json!({ "hex": b.iter().map(|x| format!("{x:02x}")).collect::<String>() })
        }
    }
}

/// Whether `sql` holds nothing but white space, comments and semicolons.
fn blank(sql: &str) -> bool {
    let mut rest = sql;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ';');
        if let Some(after) = rest.strip_prefix("--") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(after) = rest.strip_prefix("/*") {
            match after.split_once("*/") {
                Some((_, r)) => rest = r,
                None => return true,
            }
        } else {
            return rest.is_empty();
        }
    }
}

/// The statements of a migration, comments and blank lines left out.
fn statements(sql: &str) -> Vec<String> {
    let text: String = sql
        .lines()
        .map(|l| l.split("--").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    text.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// The tables the migrations create.
fn tables(migrations: &[Migration]) -> Vec<String> {
    migrations
        .iter()
        .flat_map(|m| statements(m.sql))
        .filter_map(|s| {
            let rest = s.strip_prefix("CREATE TABLE ")?;
            rest.split_whitespace().next().map(str::to_string)
        })
        .collect()
}

fn now_text() -> String {
    jiff::Timestamp::now().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_baseline_stands_for_every_sqlite_table() {
        let pg: std::collections::BTreeSet<String> = tables(MIGRATIONS).into_iter().collect();
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        for m in super::super::MIGRATIONS {
            conn.execute_batch(m.sql).unwrap();
        }
        let mut stmt = conn
            .prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE '%_fts%' \
                 AND name NOT LIKE 'sqlite_%'",
            )
            .unwrap();
        let mut sqlite: std::collections::BTreeSet<String> = stmt
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        // SQLite's store makes this one itself, before its first migration.
        sqlite.insert("schema_migrations".into());
        assert_eq!(pg, sqlite);
        assert_eq!(
            MIGRATIONS.last().map(|m| m.version),
            Some(super::super::latest_version())
        );
    }
}
