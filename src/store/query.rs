//! `goclaw db query` on a SQLite store: one read-only statement, its rows as JSON objects, with
//! a time limit and a limit on the bytes returned.

use std::path::Path;

use rusqlite::Connection;

use super::sql_error;
use crate::error::{Error, ErrorKind, Result};

/// Runs one read-only statement on `conn`; calls `row` with each row as a JSON object (column
/// name → value; BLOBs as `{"hex": "…"}`). Returns the column names.
/// What one `db query` may cost: its time, and the bytes of values it returns (no single value
/// may be larger either, so `zeroblob(1e9)` is refused by SQLite itself).
#[derive(Debug, Clone, Copy)]
pub struct QueryLimits {
    pub time: std::time::Duration,
    pub max_bytes: u64,
}

pub fn query_json(
    conn: &Connection,
    path: &Path,
    sql: &str,
    params: &[String],
    limits: QueryLimits,
    mut row: impl FnMut(serde_json::Map<String, serde_json::Value>) -> Result<()>,
) -> Result<Vec<String>> {
    let value_limit = i32::try_from(limits.max_bytes).unwrap_or(i32::MAX).max(1);
    conn.set_limit(rusqlite::limits::Limit::SQLITE_LIMIT_LENGTH, value_limit)
        .map_err(|e| sql_error(path, e))?;
    // A watchdog interrupts the statement at the time limit (a recursive CTE runs forever).
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let handle = conn.get_interrupt_handle();
    let time = limits.time;
    let watchdog = std::thread::spawn(move || {
        if finished.recv_timeout(time) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
            handle.interrupt();
            return true;
        }
        false
    });
    let result = query_rows(conn, path, sql, params, limits.max_bytes, &mut row);
    let _ = done.send(());
    let interrupted = watchdog.join().unwrap_or(false);
    match result {
        Err(_) if interrupted => Err(Error::new(
            ErrorKind::Timeout,
            format!("db query: stopped after {}s", time.as_secs_f64()),
        )
        .with_hint("--timeout gives it longer")),
        other => other,
    }
}

fn query_rows(
    conn: &Connection,
    path: &Path,
    sql: &str,
    params: &[String],
    max_bytes: u64,
    row: &mut impl FnMut(serde_json::Map<String, serde_json::Value>) -> Result<()>,
) -> Result<Vec<String>> {
    use rusqlite::types::ValueRef;
    let too_big = || {
        Error::new(
            ErrorKind::Limited,
            format!("db query: the result is larger than {max_bytes} bytes"),
        )
        .with_hint("select less, or raise --max-bytes")
    };
    let mut stmt = conn.prepare(sql).map_err(|e| match e.sqlite_error_code() {
        _ if matches!(e, rusqlite::Error::MultipleStatement) => {
            Error::usage("db query runs one statement; the SQL holds more than one")
                .with_hint("run each statement with its own `goclaw db query`")
        }
        Some(rusqlite::ErrorCode::TooBig) => too_big(),
        // SQL that SQLite cannot prepare is the caller's mistake, as it is on PostgreSQL: a
        // syntax error or an unknown column comes with its place in the SQL (an input error
        // already), an unknown table without.
        Some(rusqlite::ErrorCode::Unknown) => {
            let mut e = sql_error(path, e);
            e.kind = ErrorKind::Usage;
            e
        }
        _ => sql_error(path, e),
    })?;
    if !stmt.readonly() {
        return Err(Error::denied("db query runs read-only statements only")
            .with_hint("the store is changed only through goclaw commands"));
    }
    let expected = stmt.parameter_count();
    if expected != params.len() {
        return Err(Error::usage(format!(
            "the statement has {expected} parameter(s) but {} --param value(s) were given",
            params.len()
        )));
    }
    let columns: Vec<String> = stmt.column_names().map(|c| c.to_string()).collect();
    let map = |e: rusqlite::Error| match e.sqlite_error_code() {
        // SQLite prepares nothing from text without a statement (blank, or only comments), and
        // running that nothing is a misuse.
        Some(rusqlite::ErrorCode::ApiMisuse) => Error::usage("the SQL holds no statement")
            .with_hint("e.g. goclaw db query 'SELECT count(*) FROM runs'"),
        Some(rusqlite::ErrorCode::TooBig) => too_big(),
        _ => sql_error(path, e),
    };
    let mut rows = stmt
        .query(rusqlite::params_from_iter(params.iter()))
        .map_err(map)?;
    let mut bytes = 0u64;
    while let Some(r) = rows.next().map_err(map)? {
        let mut obj = serde_json::Map::with_capacity(columns.len());
        for (i, name) in columns.iter().enumerate() {
            let value = r.get_ref(i).map_err(map)?;
            bytes += match value {
                ValueRef::Text(t) | ValueRef::Blob(t) => t.len() as u64,
                _ => 8,
            };
            if bytes > max_bytes {
                return Err(too_big());
            }
            let v = match value {
                ValueRef::Null => serde_json::Value::Null,
                ValueRef::Integer(n) => n.into(),
                ValueRef::Real(f) => {
                    serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, Into::into)
                }
                ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned().into(),
                ValueRef::Blob(b) => serde_json::json!({ "hex": hex(b) }),
            };
            obj.insert(name.clone(), v);
        }
        row(obj)?;
    }
    Ok(columns)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
