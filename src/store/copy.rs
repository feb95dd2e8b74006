//! `goclaw db copy`: moves a SQLite store into an empty PostgreSQL one. Every goclaw table is
//! copied row for row (ids kept, so references hold), in one transaction, parents before the
//! tables that refer to them; the identity sequences are moved past the copied ids; and the
//! row count of every table is compared before the transaction commits, so the copy is whole
//! or nothing. The source is only read (it must be at this goclaw's schema version), and a
//! target that holds rows already is refused (nothing is merged).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rusqlite::Connection;
use serde::Serialize;

use super::db::{Begin, Db, Value};
use super::postgres::PgStore;
use super::{SqliteStore, latest_version, migration_state, sql_error};
use crate::db_params;
use crate::error::{Error, ErrorKind, Result};

/// Values bound by one INSERT at most (PostgreSQL takes 65 535).
const MAX_VALUES: usize = 30_000;
/// Rows of one INSERT at most.
const MAX_ROWS: usize = 500;

/// Tables the copy leaves alone: the target's own migration record and metadata, and the
/// pgvector copy of the embeddings (made from the copied chunks, see [`super::vectors`]).
const NOT_COPIED: [&str; 3] = ["schema_migrations", "store_meta", "memory_vectors"];

/// One table copied.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Copied {
    pub table: String,
    pub rows: i64,
}

/// Copies the SQLite store at `from` into `to` (migrated to this goclaw's schema, empty).
pub fn sqlite_to_postgres(from: &Path, to: &PgStore) -> Result<Vec<Copied>> {
    let source = SqliteStore::open_read_only(from)?;
    let state = migration_state(&source, from)?;
    if state.schema_version != latest_version() {
        return Err(Error::usage(format!(
            "the store {} is at schema version {}, and this goclaw copies version {}",
            from.display(),
            state.schema_version,
            latest_version()
        ))
        .with_hint(format!(
            "bring it to this version first: goclaw db migrate --db {}",
            from.display()
        )));
    }
    to.migrate()?;
    let db = to.db();
    let tables = tables_in_order(db)?;
    let tx = db.transaction(Begin::Write)?;
    // Nobody writes to the target while it is filled (another goclaw waits for the lock).
    for t in &tables {
        tx.execute_batch(&format!("LOCK TABLE {t} IN EXCLUSIVE MODE"))?;
    }
    for t in &tables {
        if tx
            .query_opt(&format!("SELECT 1 FROM {t} LIMIT 1"), &[], |_| Ok(()))?
            .is_some()
        {
            return Err(Error::new(
                ErrorKind::Conflict,
                format!(
                    "the target store {} holds rows already (table {t}); db copy fills an empty store only",
                    to.target.url
                ),
            )
            .with_hint("copy into a new database (createdb), or drop this one's goclaw tables"));
        }
    }
    let mut copied = Vec::new();
    for t in &tables {
        let columns = columns_of(*tx, t)?;
        let rows = copy_table(&source, from, *tx, t, &columns)?;
        reset_identity(*tx, t, &columns)?;
        let there: i64 = tx.query_row(&format!("SELECT count(*) FROM {t}"), &[], |r| r.get(0))?;
        if there != rows {
            return Err(Error::internal(format!(
                "db copy: table {t} has {there} rows in the target and {rows} in the source; nothing was copied"
            )));
        }
        copied.push(Copied {
            table: t.clone(),
            rows,
        });
    }
    if super::vectors::in_server(*tx)? {
        let filled = super::vectors::fill(*tx)?;
        copied.push(Copied {
            table: "memory_vectors".into(),
            rows: i64::try_from(filled).unwrap_or(i64::MAX),
        });
    }
    tx.commit()?;
    Ok(copied)
}

/// goclaw's tables of the target, each after the tables it refers to.
fn tables_in_order(db: Db<'_>) -> Result<Vec<String>> {
    let all: Vec<String> = db.query_map(
        "SELECT table_name FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
        &[],
        |r| r.get(0),
    )?;
    let refs: Vec<(String, String)> = db.query_map(
        "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text FROM pg_constraint c
         WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace",
        &[],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut parents: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (child, parent) in &refs {
        if child != parent {
            parents.entry(child).or_default().insert(parent);
        }
    }
    let mut ordered: Vec<String> = Vec::new();
    let mut left: Vec<&String> = all
        .iter()
        .filter(|t| !NOT_COPIED.contains(&t.as_str()))
        .collect();
    while !left.is_empty() {
        let before = left.len();
        left.retain(|t| {
            let ready = parents
                .get(t.as_str())
                .is_none_or(|ps| ps.iter().all(|p| ordered.iter().any(|o| o == p)));
            if ready {
                ordered.push((*t).clone());
            }
            !ready
        });
        if left.len() == before {
            return Err(Error::internal(format!(
                "db copy: the tables {left:?} refer to each other in a cycle"
            )));
        }
    }
    Ok(ordered)
}

/// A table's columns in the target, in order, without generated ones (the search columns).
fn columns_of(db: Db<'_>, table: &str) -> Result<Vec<String>> {
    db.query_map(
        "SELECT column_name FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = ?1 AND is_generated = 'NEVER'
         ORDER BY ordinal_position",
        db_params![table],
        |r| r.get(0),
    )
}

/// Copies every row of `table`, a batch of rows per INSERT; how many.
fn copy_table(
    source: &Connection,
    from: &Path,
    db: Db<'_>,
    table: &str,
    columns: &[String],
) -> Result<i64> {
    let quoted: Vec<String> = columns.iter().map(|c| format!("\"{c}\"")).collect();
    let list = quoted.join(", ");
    let mut stmt = source
        .prepare(&format!("SELECT {list} FROM \"{table}\""))
        .map_err(|e| sql_error(from, e))?;
    let mut rows = stmt.query([]).map_err(|e| sql_error(from, e))?;
    let per_insert = (MAX_VALUES / columns.len().max(1)).clamp(1, MAX_ROWS);
    let mut batch: Vec<Value> = Vec::new();
    let mut in_batch = 0;
    let mut total = 0i64;
    let flush = |batch: &mut Vec<Value>, n: usize| -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let width = columns.len();
        let tuples: Vec<String> = (0..n)
            .map(|r| {
                let ps: Vec<String> = (1..=width).map(|c| format!("?{}", r * width + c)).collect();
                format!("({})", ps.join(", "))
            })
            .collect();
        let values: Vec<&dyn super::db::ToValue> =
            batch.iter().map(|v| v as &dyn super::db::ToValue).collect();
        db.execute(
            &format!("INSERT INTO {table} ({list}) VALUES {}", tuples.join(", ")),
            &values,
        )
        .map_err(|e| Error::new(e.kind, format!("db copy, table {table}: {}", e.message)))?;
        batch.clear();
        Ok(())
    };
    while let Some(row) = rows.next().map_err(|e| sql_error(from, e))? {
        let first = batch.len();
        for i in 0..columns.len() {
            let v = row.get_ref(i).map_err(|e| sql_error(from, e))?;
            let value = super::db::from_sqlite(v);
            // Said by row and column: the server's own refusal named a parameter's number.
            if matches!(&value, Value::Text(t) if t.contains('\0')) {
                let key = match batch.get(first) {
                    Some(Value::Text(k)) => k.clone(),
                    Some(Value::Int(k)) => k.to_string(),
                    _ => "?".to_string(),
                };
                return Err(Error::usage(format!(
                    "db copy, table {table}: the row whose {} is {key} holds a NUL character (\\u0000) in {}, which a PostgreSQL store cannot keep; nothing was copied",
                    columns[0], columns[i]
                ))
                .with_hint("change that value in the SQLite store, then copy again"));
            }
            batch.push(value);
        }
        in_batch += 1;
        total += 1;
        if in_batch == per_insert {
            flush(&mut batch, in_batch)?;
            in_batch = 0;
        }
    }
    flush(&mut batch, in_batch)?;
    Ok(total)
}

/// Moves the table's identity sequence past the ids copied, so the next row made gets a new
/// one.
fn reset_identity(db: Db<'_>, table: &str, columns: &[String]) -> Result<()> {
    let identity: Option<String> = db.query_opt(
        "SELECT column_name FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = ?1 AND is_identity = 'YES'",
        db_params![table],
        |r| r.get(0),
    )?;
    let Some(column) = identity.filter(|c| columns.contains(c)) else {
        return Ok(());
    };
    db.query_row(
        &format!(
            "SELECT setval(pg_get_serial_sequence(?1, ?2), coalesce(max({column}), 0) + 1, false) FROM {table}"
        ),
        db_params![table, column],
        |_| Ok(()),
    )
}
