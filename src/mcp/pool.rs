//! Connections to MCP servers, one per server, shared by every tool bridged from it, behind a
//! blocking facade (goclaw's tools are synchronous; the async work runs on one small runtime
//! the pool owns). A server is connected lazily, on the first use of one of its tools.
//!
//! Long-lived uses (`goclaw mcp serve`, an agent run) call [`Pool::watch`]: every 30 s each
//! connected server is pinged (§17; "method not found" counts as healthy). A failed ping, a
//! closed transport or a call that loses the connection starts reconnecting at once, with the
//! backoff of §17 (2, 4, 8, 16, 32, 60, 60… seconds, at most 10 attempts); a success resets
//! it. Unlike the original, where a reconnect attempt is just another ping, an attempt here
//! makes a new connection, so a stdio server that died is started again. While a server is
//! away its tools answer `MCP server "<name>" is disconnected` at once (exit 8) rather than
//! waiting. Without `watch`, a lost connection is made again on the next use.
//!
//! Every wait on a server, the connection and its handshake included, ends when the command
//! must stop (its deadline, a signal: the pool's [`StopWhen`], or a call's own): checked every
//! 50 ms, so a server that never answers its `initialize` holds a command no longer than that.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde_json::{Map, Value};
use tokio::runtime::{Handle, Runtime};
use tokio::sync::Notify;

use super::Server;
use super::client::{self, CallOutcome, Connection, Secrets};
use crate::error::{Error, Result};
use crate::tools::StopWhen;

/// How often a wait on a server looks at its [`StopWhen`].
const STOP_POLL: Duration = Duration::from_millis(50);

/// How often long-lived uses ping their servers (§17).
pub const HEALTH_INTERVAL: Duration = Duration::from_secs(30);
/// Reconnect attempts before a server is given up on (§17).
pub const MAX_RECONNECT_ATTEMPTS: u32 = 10;

/// The wait before reconnect attempt `attempt` (1-based): min(2 s × 2^(attempt−1), 60 s).
pub fn backoff(attempt: u32) -> Duration {
    let secs = 2u64.saturating_mul(1u64 << attempt.saturating_sub(1).min(16));
    Duration::from_secs(secs.min(60))
}

/// The connections of one command or one long-lived process.
#[derive(Default)]
pub struct Pool {
    rt: OnceLock<Runtime>,
    links: Mutex<Vec<Arc<Link>>>,
    health: Mutex<Option<Duration>>,
    /// When the command's waits on its servers end (connecting, listing, asking).
    stop: StopWhen,
    /// goclaw's state, hidden from the stdio servers it starts.
    hidden: Arc<[std::path::PathBuf]>,
}

impl Pool {
    /// A pool whose stdio servers see `hidden` empty (goclaw's state: its store, key and
    /// config; see [`crate::tools::protected::to_mask`]) and whose waits end only at their
    /// servers' own timeouts.
    pub fn new(hidden: Vec<std::path::PathBuf>) -> Pool {
        Pool {
            hidden: hidden.into(),
            ..Pool::default()
        }
    }

    /// This pool, its waits on its servers also ended when `stop` says (the command's
    /// deadline, the signal it watches).
    pub fn stopping_when(self, stop: StopWhen) -> Pool {
        Pool { stop, ..self }
    }

    /// The runtime, started on first need (commands that bridge no MCP tool never start it).
    fn handle(&self) -> Result<Handle> {
        if let Some(rt) = self.rt.get() {
            return Ok(rt.handle().clone());
        }
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("goclaw-mcp")
            .enable_all()
            .build()
            .map_err(|e| Error::internal(format!("cannot start the async runtime: {e}")))?;
        Ok(self.rt.get_or_init(|| rt).handle().clone())
    }

    /// The link to `server` (made on first request; connecting waits for its first use).
    pub fn link(&self, server: &Server, secrets: Secrets) -> Result<Arc<Link>> {
        let handle = self.handle()?;
        let mut links = self.links.lock().map_err(|_| poisoned())?;
        if let Some(l) = links.iter().find(|l| l.server.name == server.name) {
            return Ok(l.clone());
        }
        let link = Arc::new(Link {
            rt: handle,
            server: server.clone(),
            secrets,
            stop: self.stop.clone(),
            hidden: self.hidden.clone(),
            state: tokio::sync::Mutex::new(State::Idle),
            lost: Arc::new(Notify::new()),
            watched: AtomicBool::new(false),
        });
        if let Some(interval) = *self.health.lock().map_err(|_| poisoned())? {
            link.watch(interval);
        }
        links.push(link.clone());
        Ok(link)
    }

    /// From now on, checks every link's health every `interval` and reconnects lost ones.
    pub fn watch(&self, interval: Duration) -> Result<()> {
        *self.health.lock().map_err(|_| poisoned())? = Some(interval);
        for link in self.links.lock().map_err(|_| poisoned())?.iter() {
            link.watch(interval);
        }
        Ok(())
    }
}

/// Ends when `stop` says, with why; looked at every [`STOP_POLL`].
async fn stopped(stop: &StopWhen) -> crate::tools::Stopped {
    loop {
        if let Some(why) = stop.check() {
            return why;
        }
        tokio::time::sleep(STOP_POLL).await;
    }
}

fn poisoned() -> Error {
    Error::internal("the MCP connection pool is poisoned (a thread panicked)")
}

enum State {
    /// Not connected yet (or, unwatched, lost): the next use connects.
    Idle,
    Connected(Arc<Connection>),
    /// Lost; the watcher is on attempt `attempt` (0 while it has not begun).
    Reconnecting {
        attempt: u32,
        last_error: String,
    },
    /// Every reconnect attempt failed.
    GaveUp {
        last_error: String,
    },
}

/// One server's connection, shared by its tools.
pub struct Link {
    rt: Handle,
    pub server: Server,
    secrets: Secrets,
    /// The pool's stop: what ends a wait that is not a call's.
    stop: StopWhen,
    hidden: Arc<[std::path::PathBuf]>,
    state: tokio::sync::Mutex<State>,
    /// Wakes the watcher when a use finds the connection lost.
    lost: Arc<Notify>,
    watched: AtomicBool,
}

impl Link {
    /// The connection, made now when there is none yet.
    pub fn connection(&self) -> Result<Arc<Connection>> {
        self.until_stopped(
            &self.stop,
            || self.stopped_while("connecting"),
            self.ensure(),
        )
    }

    /// Every tool of the server, as JSON.
    pub fn list_tools(&self) -> Result<Vec<Value>> {
        let doing = || self.stopped_while("listing its tools");
        self.until_stopped(&self.stop, doing, async {
            let conn = self.ensure().await?;
            conn.list_tools(self.call_timeout()).await
        })
    }

    /// Asks the server about its resources or prompts.
    pub fn ask(&self, ask: &super::client::Ask) -> Result<Value> {
        self.until_stopped(&self.stop, || self.stopped_while("answering"), async {
            let conn = self.ensure().await?;
            conn.ask(ask, self.call_timeout()).await
        })
    }

    /// Calls `tool` (registered in goclaw as `registered`) with `args`, giving up when `stop`
    /// says (the run's deadline, a signal), connecting first if need be. The answer that comes
    /// later is dropped; the connection stays.
    pub fn call(
        &self,
        registered: &str,
        tool: &str,
        args: Map<String, Value>,
        stop: &StopWhen,
    ) -> Result<CallOutcome> {
        let call = async {
            let conn = self.ensure().await?;
            match conn.call(registered, tool, args, self.call_timeout()).await {
                Ok(out) => Ok(out),
                Err(failure) => {
                    if failure.connection_lost {
                        self.mark_lost(&conn, &failure.error.message).await;
                    }
                    Err(failure.error)
                }
            }
        };
        self.until_stopped(stop, || format!("MCP tool \"{registered}\" stopped"), call)
    }

    /// `work` on the pool's runtime, given up (and dropped, a half-made connection with it)
    /// when `stop` says, failing as `what` stopped and why.
    fn until_stopped<T>(
        &self,
        stop: &StopWhen,
        what: impl FnOnce() -> String,
        work: impl Future<Output = Result<T>>,
    ) -> Result<T> {
        self.rt.block_on(async {
            tokio::select! {
                done = work => done,
                why = stopped(stop) => Err(Error::new(
                    why.error_kind(),
                    format!("{}: {}", what(), stop.describe(why)),
                )),
            }
        })
    }

    /// What a wait on this server that stopped while `doing` says of itself.
    fn stopped_while(&self, doing: &str) -> String {
        format!("MCP server \"{}\" stopped while {doing}", self.server.name)
    }

    fn call_timeout(&self) -> Duration {
        Duration::from_secs(self.server.timeout_secs.max(1))
    }

    fn is_watched(&self) -> bool {
        self.watched.load(Ordering::Relaxed)
    }

    async fn open(&self) -> Result<Connection> {
        client::open(
            (&self.server, &self.hidden),
            &self.secrets,
            client::connect_timeout(&self.server),
        )
        .await
    }

    /// The live connection; connects when idle, refuses at once while reconnecting.
    async fn ensure(&self) -> Result<Arc<Connection>> {
        let mut state = self.state.lock().await;
        if let State::Connected(conn) = &*state {
            if !conn.is_closed() {
                return Ok(conn.clone());
            }
            let conn = conn.clone();
            drop(state);
            self.mark_lost(&conn, "the transport is closed").await;
            state = self.state.lock().await;
        }
        match &*state {
            State::Connected(conn) => Ok(conn.clone()),
            State::Idle => match self.open().await {
                Ok(conn) => {
                    let conn = Arc::new(conn);
                    *state = State::Connected(conn.clone());
                    Ok(conn)
                }
                Err(e) => {
                    if self.is_watched() {
                        *state = State::Reconnecting {
                            attempt: 0,
                            last_error: e.message.clone(),
                        };
                        self.lost.notify_one();
                    }
                    Err(e)
                }
            },
            State::Reconnecting {
                attempt,
                last_error,
            } => Err(Error::upstream(format!(
                "MCP server \"{}\" is disconnected (reconnect attempt {attempt} of {MAX_RECONNECT_ATTEMPTS}; last error: {last_error})",
                self.server.name
            ))),
            State::GaveUp { last_error } => Err(Error::upstream(format!(
                "MCP server \"{}\" is disconnected: max reconnect attempts ({MAX_RECONNECT_ATTEMPTS}) reached (last error: {last_error})",
                self.server.name
            ))),
        }
    }

    /// Records that `conn` is gone (unless it was already replaced): the watcher reconnects,
    /// or, unwatched, the next use does.
    async fn mark_lost(&self, conn: &Arc<Connection>, why: &str) {
        let mut state = self.state.lock().await;
        if !matches!(&*state, State::Connected(c) if Arc::ptr_eq(c, conn)) {
            return;
        }
        *state = if self.is_watched() {
            self.lost.notify_one();
            State::Reconnecting {
                attempt: 0,
                last_error: why.to_string(),
            }
        } else {
            State::Idle
        };
    }

    /// Starts the health watcher (once).
    fn watch(self: &Arc<Self>, interval: Duration) {
        if self.watched.swap(true, Ordering::Relaxed) {
            return;
        }
        let link = self.clone();
        self.rt.spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(interval) => {}
                    _ = link.lost.notified() => {}
                }
                if !link.check().await {
                    return;
                }
            }
        });
    }

    /// One health check: ping a live connection; reconnect a lost one with backoff. False
    /// when the server has been given up on.
    async fn check(&self) -> bool {
        let current = match &*self.state.lock().await {
            State::Idle => return true,
            State::GaveUp { .. } => return false,
            State::Connected(c) => Some(c.clone()),
            State::Reconnecting { .. } => None,
        };
        if let Some(conn) = current {
            match conn.ping(client::connect_timeout(&self.server)).await {
                Ok(()) => return true,
                Err(e) => self.mark_lost(&conn, &e.message).await,
            }
        }
        loop {
            // Only this loop moves the attempt on, and it gives up at the last one.
            let attempt = match &mut *self.state.lock().await {
                State::Reconnecting { attempt, .. } => {
                    *attempt += 1;
                    *attempt
                }
                State::GaveUp { .. } => return false,
                _ => return true,
            };
            tokio::time::sleep(backoff(attempt)).await;
            let result = self.open().await;
            let mut state = self.state.lock().await;
            match result {
                Ok(conn) => {
                    *state = State::Connected(Arc::new(conn));
                    return true;
                }
                Err(e) => {
                    if attempt >= MAX_RECONNECT_ATTEMPTS {
                        *state = State::GaveUp {
                            last_error: e.message,
                        };
                        return false;
                    }
                    *state = State::Reconnecting {
                        attempt,
                        last_error: e.message,
                    };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_follows_section_17() {
        let secs: Vec<u64> = (1..=8).map(|a| backoff(a).as_secs()).collect();
        assert_eq!(secs, [2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(backoff(u32::MAX).as_secs(), 60);
    }
}
