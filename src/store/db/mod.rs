//! One connection to either backend, SQLite or PostgreSQL, behind the few calls the domain
//! modules make: `execute`, `query_row`, `query_opt`, `query_map`, `execute_batch` and
//! transactions. The domain's SQL stays readable SQL, written once with `?N` placeholders
//! (`$N` on PostgreSQL, rewritten here outside string literals); where the dialects differ, the
//! caller asks [`Db::dialect`] and writes each spelling. Values cross as [`Value`]: integers
//! (booleans are 0/1 on both), reals, text and blobs, so the same code reads both backends.

pub mod outage;
pub(crate) mod pg;
pub mod tls;

use std::cell::RefCell;

use crate::error::{Error, ErrorKind, Result};

pub use outage::{Outage, on_outage, stop_waiting_when, stopped};
pub use pg::{PgConnect, cancel_queries, cancel_statements, on_connect};

/// Which SQL the connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// A full-text query matching any of `words` (letters, digits and marks only, so nothing of
    /// the query syntax): FTS5's `"a" OR "b"`, or the `'a' | 'b'` of `to_tsquery`.
    pub fn any_of_words(self, words: &[&str]) -> String {
        let (quote, or) = match self {
            Dialect::Sqlite => ('"', " OR "),
            Dialect::Postgres => ('\'', " | "),
        };
        words
            .iter()
            .map(|w| format!("{quote}{w}{quote}"))
            .collect::<Vec<_>>()
            .join(or)
    }
}

/// A handle on a store's connection (the store owns it): copied freely, used by one thread.
#[derive(Clone, Copy)]
pub enum Db<'c> {
    Sqlite(&'c rusqlite::Connection),
    Postgres(&'c RefCell<pg::Client>),
}

/// One value of a row or a parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// What can be bound as a parameter.
pub trait ToValue {
    fn to_value(&self) -> Value;
}

macro_rules! int_to_value {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::Int(i64::from(*self))
            }
        }
    )*};
}
int_to_value!(i64, i32, u32, u16, u8, bool);

impl ToValue for usize {
    fn to_value(&self) -> Value {
        Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::Real(*self)
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> Value {
        Value::Blob(self.to_vec())
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> Value {
        Value::Blob(self.clone())
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

/// Parameters for a statement: `db_params![a, b]`.
#[macro_export]
macro_rules! db_params {
    () => { &[] as &[&dyn $crate::store::db::ToValue] };
    ($($p:expr),+ $(,)?) => { &[$(&$p as &dyn $crate::store::db::ToValue),+] as &[&dyn $crate::store::db::ToValue] };
}

/// What a column can be read as.
pub trait FromValue: Sized {
    fn from_value(v: Value) -> std::result::Result<Self, String>;
}

impl FromValue for Value {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        Ok(v)
    }
}

impl FromValue for i64 {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Int(i) => Ok(i),
            other => Err(format!("expected an integer, got {other:?}")),
        }
    }
}

impl FromValue for bool {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        i64::from_value(v).map(|i| i != 0)
    }
}

impl FromValue for f64 {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Real(f) => Ok(f),
            Value::Int(i) => Ok(i as f64),
            other => Err(format!("expected a number, got {other:?}")),
        }
    }
}

impl FromValue for String {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Text(s) => Ok(s),
            other => Err(format!("expected text, got {other:?}")),
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Blob(b) => Ok(b),
            Value::Text(s) => Ok(s.into_bytes()),
            other => Err(format!("expected a blob, got {other:?}")),
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// One row of a result, read by column index.
pub struct Row {
    values: Vec<Value>,
}

impl Row {
    pub fn get<T: FromValue>(&self, index: usize) -> Result<T> {
        let value = self
            .values
            .get(index)
            .cloned()
            .ok_or_else(|| Error::internal(format!("store: no column {index} in the row")))?;
        T::from_value(value).map_err(|why| Error::internal(format!("store: column {index}: {why}")))
    }

    pub fn into_values(self) -> Vec<Value> {
        self.values
    }
}

/// How a transaction starts: `Write` takes the write lock at once (SQLite's `BEGIN
/// IMMEDIATE`; PostgreSQL's row locks do that work there), `Read` sees one snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Begin {
    Write,
    Read,
}

impl<'c> Db<'c> {
    pub fn dialect(&self) -> Dialect {
        match self {
            Db::Sqlite(_) => Dialect::Sqlite,
            Db::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Runs one statement; the number of rows it changed.
    pub fn execute(&self, sql: &str, params: &[&dyn ToValue]) -> Result<u64> {
        let values = values(params);
        match self {
            Db::Sqlite(c) => c
                .prepare_cached(sql)
                .and_then(|mut stmt| stmt.execute(rusqlite::params_from_iter(values.iter())))
                .map(|n| n as u64)
                .map_err(super::sql),
            Db::Postgres(c) => {
                let (sql, values) = bind(sql, values);
                c.borrow_mut().execute(&sql, &values)
            }
        }
    }

    /// Every row of a query, each made into a `T` by `f`.
    pub fn query_map<T>(
        &self,
        sql: &str,
        params: &[&dyn ToValue],
        mut f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        let values = values(params);
        match self {
            Db::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql).map_err(super::sql)?;
                let width = stmt.column_count();
                let mut rows = stmt
                    .query(rusqlite::params_from_iter(values.iter()))
                    .map_err(super::sql)?;
                let mut out = Vec::new();
                while let Some(r) = rows.next().map_err(super::sql)? {
                    let row = Row {
                        values: (0..width)
                            .map(|i| r.get_ref(i).map(from_sqlite))
                            .collect::<rusqlite::Result<_>>()
                            .map_err(super::sql)?,
                    };
                    out.push(f(&row)?);
                }
                Ok(out)
            }
            Db::Postgres(c) => {
                let (sql, values) = bind(sql, values);
                let rows = c.borrow_mut().query(&sql, &values)?;
                rows.iter().map(&mut f).collect()
            }
        }
    }

    /// The first row of a query, or `None`.
    pub fn query_opt<T>(
        &self,
        sql: &str,
        params: &[&dyn ToValue],
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<Option<T>> {
        let mut f = Some(f);
        let mut first = None;
        let _ = self.query_map(sql, params, |row| {
            if let Some(f) = f.take() {
                first = Some(f(row)?);
            }
            Ok(())
        })?;
        Ok(first)
    }

    /// The first row of a query; a query that returns none is a bug of the caller's.
    pub fn query_row<T>(
        &self,
        sql: &str,
        params: &[&dyn ToValue],
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(sql, params, f)?
            .ok_or_else(|| Error::internal("store: the query returned no row"))
    }

    /// Several statements without parameters (a migration).
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        match self {
            Db::Sqlite(c) => c.execute_batch(sql).map_err(super::sql),
            Db::Postgres(c) => c.borrow_mut().batch_execute(sql),
        }
    }

    /// Listens to `channel` from now on (PostgreSQL's `LISTEN`; nothing on SQLite, where
    /// waiters look again instead). `channel` is goclaw's own name, never user text.
    pub fn listen(&self, channel: &str) -> Result<()> {
        match self {
            Db::Sqlite(_) => Ok(()),
            Db::Postgres(c) => c.borrow_mut().listen(channel),
        }
    }

    /// Whether a PostgreSQL connection found lost before a statement is made again by itself
    /// (on by default; see [`outage`]): off for a user that makes it again itself.
    pub fn reconnect_when_lost(&self, on: bool) {
        if let Db::Postgres(c) = self {
            c.borrow_mut().reconnect_when_lost(on);
        }
    }

    /// Whether the connection is gone for good (PostgreSQL: the server went away or ended the
    /// session); a SQLite file never is. A long-lived command that sees it connects again
    /// ([`Store::reconnect`](crate::store::Store::reconnect)).
    pub fn connection_lost(&self) -> bool {
        match self {
            Db::Sqlite(_) => false,
            Db::Postgres(c) => c.try_borrow().is_ok_and(|c| c.is_closed()),
        }
    }

    /// Waits until a channel listened to is notified, at most `timeout`; true when it was. On
    /// SQLite, which has no notifications, it sleeps `timeout` and says false: the caller
    /// looks again either way.
    pub fn notified(&self, timeout: std::time::Duration) -> Result<bool> {
        match self {
            Db::Sqlite(_) => {
                std::thread::sleep(timeout);
                Ok(false)
            }
            Db::Postgres(c) => c.borrow_mut().notified(timeout),
        }
    }

    /// Compiles `statements` before a write transaction that runs them, into the connection's
    /// statement cache, so that the transaction does not compile them while it holds SQLite's
    /// one write lock. Compiling is most of a short write's work: a claim held the lock for
    /// 1.15 M instructions, two thirds of them compiling its ten statements, and every other
    /// process's write waited that long (longer when the holder lost its core meanwhile). What
    /// a write runs only sometimes (recovery's updates, when it finds work) is left out. A
    /// cached statement stays compiled only because plans do not depend on bound values (the
    /// planner stability guarantee `sqlite::connect` sets). Nothing on PostgreSQL, whose
    /// writers do not queue behind one lock: `statements` is not even called there.
    pub fn prepare_ahead<S: AsRef<str>, I: IntoIterator<Item = S>>(
        &self,
        statements: impl FnOnce() -> I,
    ) -> Result<()> {
        if let Db::Sqlite(c) = self {
            for sql in statements() {
                c.prepare_cached(sql.as_ref()).map_err(super::sql)?;
            }
        }
        Ok(())
    }

    /// Starts a transaction; it rolls back when dropped before [`Tx::commit`].
    pub fn transaction(&self, begin: Begin) -> Result<Tx<'c>> {
        let sql = match (self.dialect(), begin) {
            (Dialect::Sqlite, Begin::Write) => "BEGIN IMMEDIATE",
            (Dialect::Sqlite, Begin::Read) => "BEGIN DEFERRED",
            (Dialect::Postgres, Begin::Write) => "BEGIN",
            (Dialect::Postgres, Begin::Read) => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
        };
        match self {
            Db::Sqlite(c) => c.execute_batch(sql).map_err(super::sql)?,
            Db::Postgres(c) => c.borrow_mut().begin(sql)?,
        }
        Ok(Tx {
            db: *self,
            open: true,
        })
    }

    /// Ends the transaction under way (`COMMIT` or `ROLLBACK`).
    fn end_transaction(&self, sql: &str) -> Result<()> {
        match self {
            Db::Sqlite(c) => c.execute_batch(sql).map_err(super::sql),
            Db::Postgres(c) => c.borrow_mut().end(sql),
        }
    }
}

/// An open transaction on a [`Db`]; statements go through it as through the connection.
pub struct Tx<'c> {
    db: Db<'c>,
    open: bool,
}

impl Tx<'_> {
    pub fn commit(mut self) -> Result<()> {
        self.open = false;
        self.db.end_transaction("COMMIT")
    }
}

impl<'c> std::ops::Deref for Tx<'c> {
    type Target = Db<'c>;
    fn deref(&self) -> &Db<'c> {
        &self.db
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.open {
            let _ = self.db.end_transaction("ROLLBACK");
        }
    }
}

fn values(params: &[&dyn ToValue]) -> Vec<Value> {
    params.iter().map(|p| p.to_value()).collect()
}

pub(crate) fn from_sqlite(v: rusqlite::types::ValueRef<'_>) -> Value {
    use rusqlite::types::ValueRef as V;
    match v {
        V::Null => Value::Null,
        V::Integer(i) => Value::Int(i),
        V::Real(f) => Value::Real(f),
        V::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        V::Blob(b) => Value::Blob(b.to_vec()),
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Real(f) => ValueRef::Real(*f),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
            Value::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

/// `sql` with SQLite's placeholders (`?N`, and a bare `?` numbered as SQLite numbers it) as
/// PostgreSQL's `$N`, outside string literals, quoted names and comments.
pub fn placeholders(sql: &str) -> String {
    rewrite(sql, &|n| n).0
}

/// `sql` and its values as PostgreSQL takes them: placeholders as `$N`, and numbered densely
/// over the values the statement uses. SQLite lets a statement leave a value unused (one SQL
/// text for several cases, e.g. a release that sets no result); PostgreSQL refuses a
/// parameter it cannot see, so the unused ones are left out and the rest renumbered.
pub(crate) fn bind(sql: &str, values: Vec<Value>) -> (String, Vec<Value>) {
    let (text, used) = rewrite(sql, &|n| n);
    if used.len() == values.len() && used.iter().copied().eq(1..=values.len()) {
        return (text, values);
    }
    let order: Vec<usize> = used.into_iter().collect();
    let position = |n: usize| order.iter().position(|&m| m == n).map_or(n, |p| p + 1);
    let (text, _) = rewrite(sql, &position);
    let values = order
        .iter()
        .map(|&n| {
            values
                .get(n.wrapping_sub(1))
                .cloned()
                .unwrap_or(Value::Null)
        })
        .collect();
    (text, values)
}

/// [`placeholders`] with each number `n` written as `number(n)`; the numbers the SQL uses.
fn rewrite(
    sql: &str,
    number: &dyn Fn(usize) -> usize,
) -> (String, std::collections::BTreeSet<usize>) {
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len() + 8);
    let mut used = std::collections::BTreeSet::new();
    let mut next = 1usize;
    let mut i = 0;
    let mut copy_from = 0;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'\'' | b'"') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += 1;
                }
                i += 1;
            }
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            b'?' => {
                out.push_str(&sql[copy_from..i]);
                let digits = bytes[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                // SQLite numbers a bare `?` one past the largest number so far.
                let n = if digits == 0 {
                    next
                } else {
                    sql[i + 1..i + 1 + digits].parse::<usize>().unwrap_or(0)
                };
                next = next.max(n + 1);
                used.insert(n);
                out.push_str(&format!("${}", number(n)));
                i += 1 + digits;
                copy_from = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&sql[copy_from.min(sql.len())..]);
    (out, used)
}

/// A PostgreSQL error as goclaw's: a lost connection or a server that cannot be reached is
/// an upstream failure (exit 8); a serialization failure or deadlock, a timeout (exit 7); a
/// lock wait cut short, the same.
pub(crate) fn pg_error(e: &postgres::Error, scrub: &dyn Fn(&str) -> String) -> Error {
    use postgres::error::SqlState;
    // The error and its causes ("error connecting to server: Connection refused").
    let said = scrub(&crate::error::with_causes(e));
    let detail = e
        .as_db_error()
        .map(|d| scrub(d.message()))
        .unwrap_or_else(|| said.clone());
    match e.code() {
        Some(c)
            if *c == SqlState::T_R_SERIALIZATION_FAILURE
                || *c == SqlState::T_R_DEADLOCK_DETECTED
                || *c == SqlState::LOCK_NOT_AVAILABLE
                || *c == SqlState::QUERY_CANCELED =>
        {
            match (*c == SqlState::QUERY_CANCELED, pg::cancelled_by()) {
                (true, Some(kind)) => Error::new(kind, kind.stop_text().unwrap_or(kind.name())),
                _ => Error::new(ErrorKind::Timeout, format!("store: {detail}")),
            }
        }
        Some(c)
            if *c == SqlState::INVALID_PASSWORD
                || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
        {
            Error::new(ErrorKind::Upstream, format!("store: {detail}")).with_hint(
                "check the user and password (PGPASSWORD, ~/.pgpass or [store] password_env)",
            )
        }
        Some(c) if *c == SqlState::INVALID_CATALOG_NAME => {
            Error::not_found(format!("store: {detail}"))
        }
        Some(c) if *c == SqlState::READ_ONLY_SQL_TRANSACTION => {
            Error::denied(format!("store: {detail}"))
        }
        // The server going away (shut down, restarting, out of connections) or the connection
        // breaking: an upstream failure, as a server that cannot be reached is.
        Some(c)
            if c.code().starts_with("08")
                || c.code().starts_with("57P")
                || c.code().starts_with("53") =>
        {
            Error::new(
                ErrorKind::Upstream,
                format!("store: the PostgreSQL server: {detail}"),
            )
            .with_hint("the command can be run again once the server is back")
        }
        // SQL the server cannot take (a syntax error, an unknown name, a value of the wrong
        // type): as SQLite's input errors, the statement is the caller's mistake.
        Some(c) if *c == SqlState::INSUFFICIENT_PRIVILEGE => {
            Error::denied(format!("store: {detail}"))
        }
        Some(c) if c.code().starts_with("42") || c.code().starts_with("22") => {
            Error::usage(format!("store: {detail}"))
        }
        Some(_) => Error::failed(format!("store: {detail}")),
        None if said.contains("password missing") => Error::new(
            ErrorKind::Upstream,
            "store: the PostgreSQL server asks for a password and none was given",
        )
        .with_hint(match crate::store::location::ignored_password_file() {
            Some(file) => format!(
                "{} was not read: others may read it (chmod 600 it, as libpq asks)",
                file.display()
            ),
            None => "give it in PGPASSWORD, ~/.pgpass or the variable [store] password_env names"
                .to_string(),
        }),
        None if said.contains("invalid configuration") => Error::usage(format!("store: {said}")),
        None if said.contains("TLS handshake") || said.contains("server does not support TLS") => {
            Error::new(
                ErrorKind::Upstream,
                format!("store: the PostgreSQL server: {said}"),
            )
            .with_hint(
                "check the server's certificate against sslrootcert, or the sslmode asked for",
            )
        }
        None if said.contains("error serializing parameter") => {
            Error::usage(format!("store: {said}"))
        }
        None if e.is_closed() || reached_no_server(e) => Error::new(
            ErrorKind::Upstream,
            format!("store: the PostgreSQL server: {said}"),
        ),
        None => Error::failed(format!("store: {said}")),
    }
}

/// Whether the error is on the way to the server (an I/O error, a timeout while connecting),
/// not something the server said.
fn reached_no_server(e: &postgres::Error) -> bool {
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        if c.is::<std::io::Error>() {
            return true;
        }
        cause = c.source();
    }
    let said = e.to_string();
    said.contains("timeout") || said.contains("connecting")
}

#[cfg(test)]
mod tests;
