//! What a store's schema lacks of what its migrations make (`db check`, `doctor`): tables,
//! columns, constraints, indexes, triggers and functions that are missing or defined otherwise,
//! found by comparing the store's catalog with the catalog of the same migrations applied to a
//! scratch schema: an in-memory database for SQLite (each object's definition as SQLite keeps
//! it), and for PostgreSQL a schema made inside a transaction that is rolled back, so nothing of
//! it is ever seen or kept (columns with type, NOT NULL and default; constraints, indexes and
//! triggers by their definitions). What the store has beyond it (an index a user added, the
//! pgvector table) is no problem.

use std::collections::BTreeMap;

use super::Migration;
use super::db::{Begin, Db, Dialect};
use crate::db_params;
use crate::error::{Error, ErrorKind, Result};

/// A catalog: "table tasks", "column tasks.owner", "index tasks_owner", "definition of index
/// tasks_owner", … → what it is (a column's type, an index's columns, a definition's text).
type Catalog = BTreeMap<String, String>;

/// Problems of a SQLite store at schema version `version`, against `before` (what goclaw
/// makes ahead of its migrations) and migrations 1..=`version`.
pub fn sqlite(
    db: Db<'_>,
    (before, migrations): (&str, &[Migration]),
    version: i64,
) -> Result<Vec<String>> {
    let scratch = rusqlite::Connection::open_in_memory().map_err(crate::store::sql)?;
    scratch.execute_batch(before).map_err(crate::store::sql)?;
    for m in migrations.iter().filter(|m| m.version <= version) {
        scratch.execute_batch(m.sql).map_err(|e| {
            Error::internal(format!(
                "migration {:03}_{} failed on a scratch database: {e}",
                m.version, m.name
            ))
        })?;
    }
    let expected = sqlite_catalog(Db::Sqlite(&scratch))?;
    Ok(compare(&expected, &sqlite_catalog(db)?))
}

/// Problems of a PostgreSQL store at schema version `version`; `None` when the user may not
/// create the scratch schema (CREATE on the database), and nothing was compared.
pub fn postgres(db: Db<'_>, migrations: &[Migration], version: i64) -> Result<Option<Vec<String>>> {
    let tx = db.transaction(Begin::Write)?;
    let store: String = tx.query_row("SELECT current_schema()", db_params![], |r| r.get(0))?;
    let scratch = format!("goclaw_check_{}", uuid::Uuid::now_v7().simple());
    match tx.execute_batch(&format!(
        "CREATE SCHEMA {scratch}; SET LOCAL search_path = {scratch}"
    )) {
        Err(e) if e.kind == ErrorKind::Denied => return Ok(None),
        other => other?,
    }
    for m in migrations.iter().filter(|m| m.version <= version) {
        tx.execute_batch(m.sql).map_err(|e| {
            Error::internal(format!(
                "migration {:03}_{} failed on a scratch schema: {}",
                m.version, m.name, e.message
            ))
        })?;
    }
    let expected = pg_catalog(*tx, &scratch)?;
    let found = pg_catalog(*tx, &store)?;
    // Dropped: the scratch schema is rolled back with the transaction.
    drop(tx);
    Ok(Some(compare(&expected, &found)))
}

/// What `expected` has that `found` lacks or holds otherwise, one line each. An object already
/// named (missing, or a column of its table) is not named again for its definition.
fn compare(expected: &Catalog, found: &Catalog) -> Vec<String> {
    let problems: Vec<(String, String)> = expected
        .iter()
        .filter_map(|(name, what)| match found.get(name) {
            None => Some((name.clone(), format!("{name} is missing"))),
            Some(f) if f != what => Some((name.clone(), format!("{name} is `{f}`, not `{what}`"))),
            Some(_) => None,
        })
        .collect();
    let named = |object: &str| {
        let table = object
            .strip_prefix("table ")
            .map(|t| format!("column {t}."));
        problems
            .iter()
            .any(|(n, _)| n == object || table.as_ref().is_some_and(|column| n.starts_with(column)))
    };
    // A missing table's columns are missing with it.
    let table_missing = |column: &str| {
        let table = column.split('.').next().unwrap_or_default();
        problems.iter().any(|(n, _)| n == &format!("table {table}"))
    };
    problems
        .iter()
        .filter(|(name, _)| {
            name.strip_prefix("definition of ")
                .is_none_or(|o| !named(o))
        })
        .filter(|(name, _)| {
            name.strip_prefix("column ")
                .is_none_or(|c| !table_missing(c))
        })
        .map(|(_, problem)| problem.clone())
        .collect()
}

/// A definition as compared: its text without comments, white space collapsed.
fn normalized(sql: &str) -> String {
    let without_comments: String = sql
        .lines()
        .map(|l| l.split("--").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    without_comments
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn sqlite_catalog(db: Db<'_>) -> Result<Catalog> {
    let mut catalog = Catalog::new();
    // Each object's definition as SQLite keeps it (a column added later is in its table's), so
    // a constraint, an index's order or condition, a trigger's body count too.
    let objects: Vec<(String, String, String, Option<String>)> = db.query_map(
        "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'",
        db_params![],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    for (kind, name, table, sql) in objects {
        if let Some(sql) = &sql {
            catalog.insert(format!("definition of {kind} {name}"), normalized(sql));
        }
        match kind.as_str() {
            "table" => {
                let columns: Vec<(String, String)> = db.query_map(
                    "SELECT name, type FROM pragma_table_info(?1)",
                    db_params![name],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?;
                for (column, ty) in columns {
                    catalog.insert(format!("column {name}.{column}"), ty);
                }
                catalog.insert(format!("table {name}"), String::new());
            }
            "index" => {
                let on: Vec<String> = db.query_map(
                    "SELECT coalesce(name, '<expression>') FROM pragma_index_info(?1) ORDER BY seqno",
                    db_params![name],
                    |r| r.get(0),
                )?;
                catalog.insert(
                    format!("index {name}"),
                    format!("{table}({})", on.join(", ")),
                );
            }
            _ => {
                catalog.insert(format!("{kind} {name}"), table);
            }
        }
    }
    Ok(catalog)
}

fn pg_catalog(db: Db<'_>, schema: &str) -> Result<Catalog> {
    debug_assert_eq!(db.dialect(), Dialect::Postgres);
    let mut catalog = Catalog::new();
    // Definitions name their schema (`ON public.tasks`, `public.goclaw_words(…)`): left out,
    // so the scratch schema's and the store's compare.
    for sql in [
        "SELECT 'table ' || table_name, '' FROM information_schema.tables WHERE table_schema = ?1",
        "SELECT 'column ' || table_name || '.' || column_name,
                data_type || CASE WHEN is_nullable = 'NO' THEN ' not null' ELSE '' END
                || coalesce(' default ' || replace(column_default, ?1 || '.', ''), '')
         FROM information_schema.columns WHERE table_schema = ?1",
        // Keys, uniques, checks and references, by their definitions.
        "SELECT 'constraint ' || cl.relname || '.' || c.conname,
                replace(pg_get_constraintdef(c.oid), ?1 || '.', '')
         FROM pg_constraint c JOIN pg_class cl ON cl.oid = c.conrelid
         JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = ?1",
        "SELECT 'index ' || indexname, replace(indexdef, ?1 || '.', '')
         FROM pg_indexes WHERE schemaname = ?1",
        "SELECT 'trigger ' || t.tgname, replace(pg_get_triggerdef(t.oid), ?1 || '.', '')
         FROM pg_trigger t JOIN pg_class cl ON cl.oid = t.tgrelid
         JOIN pg_namespace n ON n.oid = cl.relnamespace WHERE n.nspname = ?1 AND NOT t.tgisinternal",
        "SELECT 'function ' || p.proname, '' FROM pg_proc p
         JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ?1",
    ] {
        let rows: Vec<(String, String)> =
            db.query_map(sql, db_params![schema], |r| Ok((r.get(0)?, r.get(1)?)))?;
        catalog.extend(rows);
    }
    Ok(catalog)
}
