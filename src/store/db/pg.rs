//! The PostgreSQL side of [`Db`](super::Db): the `postgres` crate's synchronous client, which
//! runs its own small tokio runtime, so it is never called from inside one of goclaw's runtimes
//! (every store call is made outside them). Values cross as [`Value`]: an integer binds to any
//! integer, real, boolean or text column; a text to text, JSON or a number column; NUMERIC,
//! dates and times come back as numbers and text, so `db query` shows any column.

use std::error::Error as StdError;

use bytes::{BufMut, BytesMut};
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};

use super::{Row, Value};
use crate::error::{Error, Result};
use crate::store::location::{self, PgUrl};

type BoxError = Box<dyn StdError + Sync + Send>;

/// How to reach the server: the URL and where its password comes from.
#[derive(Debug, Clone)]
pub struct PgConnect {
    pub url: PgUrl,
    /// `[store] password_env`: a variable holding the password.
    pub password_env: Option<String>,
    /// How long to wait for the server to answer a connection, and for a lock another session
    /// holds (`lock_timeout`: past it the command ends with exit 7, as SQLite's busy timeout
    /// ends it). Both are `[store] busy_timeout_ms`.
    pub connect_timeout: std::time::Duration,
}

/// A connection, what to scrub from its errors, and what it takes to make it again when it
/// is lost (see [`outage`](super::outage)).
pub struct Client {
    pub(super) inner: postgres::Client,
    url: PgUrl,
    password: Option<String>,
    /// How it was made, to make it again.
    pub(super) connect: PgConnect,
    /// When its last statement ended.
    pub(super) used: std::time::Instant,
    /// Its open transactions and session locks: it is never replaced under them.
    pub(super) held: u32,
    /// The channels it listens to.
    pub(super) listening: Vec<String>,
    /// Notifications may have been missed (it was replaced): the next wait says one came.
    pub(super) missed: bool,
    /// Whether it is replaced by itself when found lost before a statement.
    pub(super) heal: bool,
    /// Its place in [`OPEN`], for [`cancel_queries`].
    slot: u64,
    /// The number of its running statement, 0 when idle.
    busy: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

/// How to cancel what a connection is running: its token, and the TLS it was made with.
struct Canceller {
    slot: u64,
    busy: std::sync::Arc<std::sync::atomic::AtomicU64>,
    token: postgres::CancelToken,
    tls: Option<std::sync::Arc<rustls::ClientConfig>>,
}

/// The connections open in this process.
static OPEN: std::sync::Mutex<Vec<Canceller>> = std::sync::Mutex::new(Vec::new());
static NEXT_SLOT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// The exit code of the signal that cancelled the queries (129, 130, 143), 0 before any.
static CANCELLED_BY: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// Asks the server to cancel what this process's connections were running when a signal came
/// and still run a moment later (a wait for a lock another session holds): a signal must end the
/// command within a second, and a thread blocked in a statement would not see it. Statements
/// that end in that moment, and those the command makes to end cleanly (recording how a run
/// ended), are left alone. A cancelled statement fails as the signal's `kind` (hangup,
/// interrupted, terminated), not as timed out. Blocking: call it on a thread of its own.
pub fn cancel_queries(kind: crate::error::ErrorKind) {
    let before: Vec<(u64, u64)> = picked(|_, statement| statement != 0)
        .iter()
        .map(|p| (p.slot, p.statement))
        .collect();
    if before.is_empty() {
        return;
    }
    std::thread::sleep(CANCEL_AFTER);
    let stuck = picked(|c, statement| before.contains(&(c.slot, statement)));
    if stuck.is_empty() {
        return;
    }
    CANCELLED_BY.store(
        i32::from(kind.exit_code()),
        std::sync::atomic::Ordering::SeqCst,
    );
    stuck.iter().for_each(Picked::cancel);
}

/// Asks the server to cancel every statement this process's connections run, now (the
/// process is about to end by a signal).
pub fn cancel_statements() {
    picked(|_, statement| statement != 0)
        .iter()
        .for_each(Picked::cancel);
}

/// Asks the server to cancel what the connection in `slot` is running.
fn cancel_slot(slot: u64) {
    picked(|c, _| c.slot == slot)
        .iter()
        .for_each(Picked::cancel);
}

/// An open connection [`picked`] for cancelling, and the statement it ran then.
struct Picked {
    slot: u64,
    statement: u64,
    token: postgres::CancelToken,
    tls: Option<std::sync::Arc<rustls::ClientConfig>>,
}

impl Picked {
    fn cancel(&self) {
        cancel(&self.token, self.tls.clone());
    }
}

/// The open connections `pick` takes, given each one's running statement (0: idle); none if
/// the list cannot be read.
fn picked(pick: impl Fn(&Canceller, u64) -> bool) -> Vec<Picked> {
    let Ok(open) = OPEN.lock() else {
        return Vec::new();
    };
    open.iter()
        .filter_map(|c| {
            let statement = c.busy.load(std::sync::atomic::Ordering::SeqCst);
            pick(c, statement).then(|| Picked {
                slot: c.slot,
                statement,
                token: c.token.clone(),
                tls: c.tls.clone(),
            })
        })
        .collect()
}

fn cancel(token: &postgres::CancelToken, tls: Option<std::sync::Arc<rustls::ClientConfig>>) {
    let _ = match tls {
        None => token.cancel_query(postgres::NoTls),
        Some(tls) => token.cancel_query(tokio_postgres_rustls::MakeRustlsConnect::new(
            (*tls).clone(),
        )),
    };
}

/// How long a statement running when a signal came may go on before it is cancelled.
const CANCEL_AFTER: std::time::Duration = std::time::Duration::from_millis(300);
/// Numbers the statements, so a statement still running is told from the next one.
static NEXT_STATEMENT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The signal [`cancel_queries`] was called for, if it was.
pub(crate) fn cancelled_by() -> Option<crate::error::ErrorKind> {
    let code = CANCELLED_BY.load(std::sync::atomic::Ordering::SeqCst);
    crate::error::ErrorKind::from_exit_code(code.into())
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(mut open) = OPEN.lock() {
            open.retain(|c| c.slot != self.slot);
        }
    }
}

/// What to do when this process connects (the command line's signal handling for statements
/// run in the server), set once by whoever assembles the process.
static ON_CONNECT: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Calls `hook` at every connection this process makes, before it is made.
pub fn on_connect(hook: fn()) {
    let _ = ON_CONNECT.set(hook);
}

impl PgConnect {
    /// The settings of every session, in the startup packet (no round trip of its own), after
    /// the URL's own `options`, which win:
    /// - `lock_timeout`, the busy timeout. PostgreSQL takes 0 for "for ever", where SQLite's
    ///   busy timeout of 0 does not wait: 1 ms is the least it takes.
    /// - `idle_in_transaction_session_timeout`: a client stopped inside a transaction (a
    ///   suspended laptop, a dropped link, `kill -STOP`) held its locks for ever, and every other
    ///   machine's write to that board timed out. goclaw never waits inside a transaction, so
    ///   30 s idle (or three busy timeouts, if longer) ends such a session and frees its locks.
    fn session_options(&self, given: Option<&str>) -> String {
        let ms = |d: std::time::Duration| d.as_millis().clamp(1, i32::MAX as u128);
        let idle = (self.connect_timeout * 3).max(std::time::Duration::from_secs(30));
        let mut options = given.unwrap_or_default().to_string();
        for (name, value) in [
            ("lock_timeout", ms(self.connect_timeout)),
            ("idle_in_transaction_session_timeout", ms(idle)),
        ] {
            if !options.contains(name) {
                options = format!("{options} -c {name}={value}")
                    .trim_start()
                    .to_string();
            }
        }
        options
    }

    pub fn connect(&self) -> Result<Client> {
        if let Some(hook) = ON_CONNECT.get() {
            hook();
        }
        let password = location::password(&self.url, self.password_env.as_deref());
        let scrub = |m: &str| self.url.scrub(m, password.as_deref());
        let mode = self.url.tls_mode();
        let root = self.url.param("sslrootcert").map(std::path::PathBuf::from);
        let tls = super::tls::client_config(mode, root.as_deref())?;
        let mut config: postgres::Config = self.url.client_text().parse().map_err(|e| {
            Error::usage(format!(
                "the store URL {}: {}",
                self.url,
                scrub(&format!("{e}"))
            ))
        })?;
        if let Some(p) = &password {
            config.password(p);
        }
        if config.get_user().is_none() {
            let user = std::env::var("PGUSER")
                .or_else(|_| std::env::var("USER"))
                .unwrap_or_else(|_| "postgres".into());
            config.user(&user);
        }
        config.connect_timeout(self.connect_timeout);
        // A server that is gone without a word (a partition, a host frozen or powered off) is
        // found within some 30 s, as a closed connection (exit 8), not waited on for ever:
        // keepalives while a statement runs (a live server's kernel answers them however long
        // it runs), and a bound on data the server never acknowledges.
        config
            .keepalives(true)
            .keepalives_idle(std::time::Duration::from_secs(10))
            .keepalives_interval(std::time::Duration::from_secs(5))
            .keepalives_retries(4)
            .tcp_user_timeout(std::time::Duration::from_secs(30));
        config.application_name("goclaw");
        config.options(&self.session_options(config.get_options()));
        // The client bounds the TCP connect only: a server that accepts and never answers the
        // login would hold the command for ever. The login runs on a thread of its own, and is
        // given up (the thread ends with the process) after the connect timeout and 5 s more.
        let (sent, login) = std::sync::mpsc::channel();
        if tls.is_some() {
            config.ssl_mode(postgres::config::SslMode::Require);
        }
        let tls = tls.map(std::sync::Arc::new);
        let tls_kept = tls.clone();
        std::thread::spawn(move || {
            let _ = sent.send(match tls {
                None => config.connect(postgres::NoTls),
                Some(tls) => config.connect(tokio_postgres_rustls::MakeRustlsConnect::new(
                    (*tls).clone(),
                )),
            });
        });
        let limit = self.connect_timeout + std::time::Duration::from_secs(5);
        let inner = match login.recv_timeout(limit) {
            Ok(result) => result.map_err(|e| {
                let mut error = super::pg_error(&e, &scrub);
                error.message = format!("{} ({})", error.message, self.url);
                error
            })?,
            Err(_) => {
                return Err(Error::new(
                    crate::error::ErrorKind::Timeout,
                    format!(
                        "store: the PostgreSQL server {} did not answer the login within {}s",
                        self.url,
                        limit.as_secs()
                    ),
                ));
            }
        };
        let slot = NEXT_SLOT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let busy = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        if let Ok(mut open) = OPEN.lock() {
            open.push(Canceller {
                slot,
                busy: busy.clone(),
                token: inner.cancel_token(),
                tls: tls_kept,
            });
        }
        Ok(Client {
            inner,
            url: self.url.clone(),
            password,
            connect: self.clone(),
            used: std::time::Instant::now(),
            held: 0,
            listening: Vec::new(),
            missed: false,
            heal: true,
            slot,
            busy,
        })
    }
}

impl Client {
    /// Runs `f` on the connection, marked busy meanwhile (see [`cancel_queries`]).
    pub(super) fn busy<T>(&mut self, f: impl FnOnce(&mut postgres::Client) -> T) -> T {
        let statement = NEXT_STATEMENT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.busy
            .store(statement, std::sync::atomic::Ordering::SeqCst);
        let out = f(&mut self.inner);
        self.busy.store(0, std::sync::atomic::Ordering::SeqCst);
        self.used = std::time::Instant::now();
        out
    }

    /// The connection is gone (the server shut down or restarted, the session was terminated,
    /// the network failed): nothing more can be sent on it.
    pub fn is_closed(&self) -> bool {
        self.inner.is_closed()
    }

    pub(super) fn error(&self, e: &postgres::Error) -> Error {
        super::pg_error(e, &|m| self.url.scrub(m, self.password.as_deref()))
    }

    pub fn execute(&mut self, sql: &str, values: &[Value]) -> Result<u64> {
        self.ready()?;
        let params: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v as _).collect();
        self.busy(|c| c.execute(sql, &params))
            .map_err(|e| self.error(&e))
    }

    pub fn query<S: postgres::ToStatement + ?Sized>(
        &mut self,
        sql: &S,
        values: &[Value],
    ) -> Result<Vec<Row>> {
        let mut rows = Vec::new();
        self.query_each(sql, values, |row| {
            rows.push(row);
            Ok(())
        })?;
        Ok(rows)
    }

    /// Runs `sql` and calls `each` with every row as it arrives: nothing is kept, so a large
    /// result streams in bounded memory (the client reads the socket only as rows are taken).
    /// When `each` stops it (an error: a limit reached, a closed pipe), the statement is
    /// cancelled, not read to its end.
    pub fn query_each<S: postgres::ToStatement + ?Sized>(
        &mut self,
        sql: &S,
        values: &[Value],
        mut each: impl FnMut(Row) -> Result<()>,
    ) -> Result<()> {
        self.ready()?;
        let params = values.iter().map(|v| v as &(dyn ToSql + Sync));
        let url = self.url.clone();
        let password = self.password.clone();
        let error =
            |e: &postgres::Error| super::pg_error(e, &|m| url.scrub(m, password.as_deref()));
        let slot = self.slot;
        self.busy(|c| {
            let mut rows = c.query_raw(sql, params).map_err(|e| error(&e))?;
            loop {
                let row = match rows.next() {
                    Ok(Some(row)) => row,
                    Ok(None) => return Ok(()),
                    Err(e) => return Err(error(&e)),
                };
                let values = (0..row.len())
                    .map(|i| row.try_get::<_, Value>(i).map_err(|e| error(&e)))
                    .collect::<Result<Vec<_>>>();
                if let Err(stop) = values.and_then(|values| each(Row { values })) {
                    cancel_slot(slot);
                    return Err(stop);
                }
            }
        })
    }

    /// Waits up to `timeout` for a notification on a channel this connection listens to
    /// (`LISTEN`); true when one came. The ones already there are taken too: each wakes the
    /// waiter once.
    /// A connection found lost meanwhile is replaced when it may be (see
    /// [`outage`](super::outage)), and the wait says true: the caller looks afresh.
    pub fn notified(&mut self, timeout: std::time::Duration) -> Result<bool> {
        if std::mem::take(&mut self.missed) {
            return Ok(true);
        }
        match self.wait_for_notification(timeout) {
            Ok(false) if self.inner.is_closed() => self.recover_wait(Error::new(
                crate::error::ErrorKind::Upstream,
                "store: the PostgreSQL server closed the connection",
            )),
            Err(e) => self.recover_wait(e),
            came => came,
        }
    }

    fn wait_for_notification(&mut self, timeout: std::time::Duration) -> Result<bool> {
        let already = drain(&mut self.inner).map_err(|e| self.error(&e))?;
        if already > 0 {
            return Ok(true);
        }
        // At least a millisecond: the client's runtime reads the socket only while it waits,
        // so a wait of zero never sees a notification that has not been read yet.
        let wait = timeout.max(std::time::Duration::from_millis(1));
        let first = self.inner.notifications().timeout_iter(wait).next();
        match first {
            Ok(None) => Ok(false),
            Err(e) => Err(self.error(&e)),
            Ok(Some(_)) => {
                drain(&mut self.inner).map_err(|e| self.error(&e))?;
                Ok(true)
            }
        }
    }

    pub fn batch_execute(&mut self, sql: &str) -> Result<()> {
        self.ready()?;
        self.busy(|c| c.batch_execute(sql))
            .map_err(|e| self.error(&e))
    }

    /// Listens to `channel` from now on, and again on a connection that replaces this one.
    pub fn listen(&mut self, channel: &str) -> Result<()> {
        self.batch_execute(&super::outage::listen_statement(channel))?;
        if !self.listening.iter().any(|c| c == channel) {
            self.listening.push(channel.to_string());
        }
        Ok(())
    }

    /// Starts a transaction (`sql`: its `BEGIN`); the connection is not replaced until it ends.
    pub fn begin(&mut self, sql: &str) -> Result<()> {
        self.batch_execute(sql)?;
        self.held += 1;
        Ok(())
    }

    /// Ends a transaction (`sql`: `COMMIT` or `ROLLBACK`).
    pub fn end(&mut self, sql: &str) -> Result<()> {
        let ended = self.batch_execute(sql);
        self.held = self.held.saturating_sub(1);
        ended
    }

    /// Holds (`true`) or lets go of a session lock: the connection is not replaced while one is
    /// held, for a new session would not hold it.
    pub fn hold_session(&mut self, held: bool) {
        if held {
            self.held += 1;
        } else {
            self.held = self.held.saturating_sub(1);
        }
    }

    /// Whether a connection found lost before a statement is replaced by itself (on, unless
    /// its user replaces it itself).
    pub fn reconnect_when_lost(&mut self, on: bool) {
        self.heal = on;
    }

    /// A statement prepared once, and the names of the columns it returns (for `db query`,
    /// which runs it with [`Client::query`]).
    pub fn prepare(&mut self, sql: &str) -> Result<(postgres::Statement, Vec<String>)> {
        self.ready()?;
        let stmt = self.inner.prepare(sql).map_err(|e| self.error(&e))?;
        let names = stmt
            .columns()
            .iter()
            .map(|c| c.name().to_string())
            .collect();
        Ok((stmt, names))
    }
}

impl ToSql for Value {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> std::result::Result<IsNull, BoxError> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::FLOAT4 => (*i as f32).to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::UNKNOWN => {
                    i.to_string().to_sql(&Type::TEXT, out)
                }
                _ => Err(format!("an integer cannot be stored in a {ty} column").into()),
            },
            Value::Real(f) => match *ty {
                Type::FLOAT8 => f.to_sql(ty, out),
                Type::FLOAT4 => (*f as f32).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::UNKNOWN => {
                    f.to_string().to_sql(&Type::TEXT, out)
                }
                _ => Err(format!("a real number cannot be stored in a {ty} column").into()),
            },
            // PostgreSQL's text holds no NUL character (SQLite's does): refused here, with a
            // message that says so, rather than by the server as an encoding error.
            Value::Text(s) if s.contains('\0') && *ty != Type::BYTEA => Err(
                "the text holds a NUL character (\\u0000), which a PostgreSQL store cannot keep"
                    .into(),
            ),
            Value::Text(s) => match *ty {
                Type::JSONB => {
                    out.put_u8(1);
                    out.put_slice(s.as_bytes());
                    Ok(IsNull::No)
                }
                Type::INT8 => s.trim().parse::<i64>()?.to_sql(ty, out),
                Type::INT4 => s.trim().parse::<i32>()?.to_sql(ty, out),
                Type::INT2 => s.trim().parse::<i16>()?.to_sql(ty, out),
                Type::OID => s.trim().parse::<u32>()?.to_sql(ty, out),
                Type::FLOAT8 => s.trim().parse::<f64>()?.to_sql(ty, out),
                Type::FLOAT4 => s.trim().parse::<f32>()?.to_sql(ty, out),
                Type::BOOL => match s.trim().to_ascii_lowercase().as_str() {
                    "t" | "true" | "1" | "yes" | "on" => true.to_sql(ty, out),
                    "f" | "false" | "0" | "no" | "off" => false.to_sql(ty, out),
                    other => Err(format!("`{other}` is not a boolean").into()),
                },
                Type::BYTEA => s.as_bytes().to_sql(ty, out),
                _ if is_text(ty) => {
                    out.put_slice(s.as_bytes());
                    Ok(IsNull::No)
                }
                _ => Err(format!(
                    "text cannot be sent as {ty}: cast the parameter in the SQL (?::text::{ty})"
                )
                .into()),
            },
            Value::Blob(b) => match *ty {
                Type::BYTEA => b.as_slice().to_sql(ty, out),
                _ => Err(format!("bytes cannot be stored in a {ty} column").into()),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Value {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> std::result::Result<Value, BoxError> {
        Ok(match *ty {
            Type::INT8 => Value::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Value::Int(i64::from(i32::from_sql(ty, raw)?)),
            Type::INT2 => Value::Int(i64::from(i16::from_sql(ty, raw)?)),
            Type::OID => Value::Int(i64::from(u32::from_sql(ty, raw)?)),
            Type::BOOL => Value::Int(i64::from(bool::from_sql(ty, raw)?)),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Value::Real(f64::from(f32::from_sql(ty, raw)?)),
            Type::BYTEA => Value::Blob(raw.to_vec()),
            Type::JSONB => Value::Text(String::from_utf8(raw.get(1..).unwrap_or(&[]).to_vec())?),
            Type::NUMERIC => numeric(raw)?,
            Type::VOID => Value::Null,
            Type::TIMESTAMPTZ | Type::TIMESTAMP => {
                // Microseconds since 2000-01-01 00:00:00 UTC; the extremes are the infinities.
                let micros = i64::from_sql(&Type::INT8, raw)?;
                Value::Text(match micros {
                    i64::MAX => "infinity".into(),
                    i64::MIN => "-infinity".into(),
                    m => m
                        .checked_add(946_684_800_000_000)
                        .and_then(|m| jiff::Timestamp::from_microsecond(m).ok())
                        .map_or_else(|| format!("{m} µs after 2000-01-01"), |t| t.to_string()),
                })
            }
            Type::DATE => {
                let days = i32::from_sql(&Type::INT4, raw)?;
                Value::Text(match days {
                    i32::MAX => "infinity".into(),
                    i32::MIN => "-infinity".into(),
                    d => jiff::Span::new()
                        .try_days(i64::from(d))
                        .ok()
                        .and_then(|span| jiff::civil::date(2000, 1, 1).checked_add(span).ok())
                        .map_or_else(
                            || format!("{d} days after 2000-01-01"),
                            |day| day.to_string(),
                        ),
                })
            }
            _ => match std::str::from_utf8(raw) {
                // Text and the types whose binary form is their text (VARCHAR, NAME, JSON, …).
                Ok(text) if is_text(ty) => Value::Text(text.to_string()),
                _ => return Err(format!("a {ty} column cannot be read: cast it to text").into()),
            },
        })
    }

    fn from_sql_null(_: &Type) -> std::result::Result<Value, BoxError> {
        Ok(Value::Null)
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// Takes the notifications already received, without waiting; how many.
fn drain(client: &mut postgres::Client) -> std::result::Result<usize, postgres::Error> {
    client.notifications().iter().count()
}

fn is_text(ty: &Type) -> bool {
    matches!(
        *ty,
        Type::TEXT
            | Type::VARCHAR
            | Type::BPCHAR
            | Type::NAME
            | Type::JSON
            | Type::UNKNOWN
            | Type::XML
            | Type::CHAR
    )
}

/// NUMERIC's binary form (base-10 000 digits) as an integer when it is one and fits, else a
/// real number.
fn numeric(raw: &[u8]) -> std::result::Result<Value, BoxError> {
    let word = |i: usize| -> std::result::Result<i16, BoxError> {
        let b = raw.get(i * 2..i * 2 + 2).ok_or("a short NUMERIC")?;
        Ok(i16::from_be_bytes([b[0], b[1]]))
    };
    let (ndigits, weight, sign, dscale) = (word(0)?, word(1)?, word(2)? as u16, word(3)?);
    if sign == 0xC000 {
        return Ok(Value::Text("NaN".into()));
    }
    let mut value = 0f64;
    let mut whole: Option<i128> = Some(0);
    for k in 0..ndigits.max(0) as usize {
        let digit = f64::from(word(4 + k)?);
        let power = i32::from(weight) - k as i32;
        value += digit * 10_000f64.powi(power);
        if power < 0 && digit != 0.0 {
            whole = None;
        }
        whole = whole.and_then(|w| {
            let d = i128::from(word(4 + k).ok()?);
            let scaled = d.checked_mul(10_000i128.checked_pow(power.max(0) as u32)?)?;
            if power < 0 {
                Some(w)
            } else {
                w.checked_add(scaled)
            }
        });
    }
    let negative = sign == 0x4000;
    if dscale == 0
        && let Some(w) = whole.and_then(|w| i64::try_from(if negative { -w } else { w }).ok())
    {
        return Ok(Value::Int(w));
    }
    Ok(Value::Real(if negative { -value } else { value }))
}
