//! The approval relay (seed 000 §4; issue 20 §6): with `--on-ask wait[:DUR]` and no terminal,
//! an approval `exec` needs is parked in the store as a request, and whoever may answer it does
//! so from anywhere that reaches the store — another terminal, a script, another machine on a
//! PostgreSQL store — with `goclaw approvals answer ID once|always|deny`. The call waits for the
//! answer (looking every [`LOOK_EVERY`]) and is denied when none comes in time
//! (`[tools.exec] approval_timeout_secs`, 2 minutes as in the original, or the `wait:DUR`
//! given); a request nobody answered is marked `expired`.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::approvals::Subject;
use crate::db_params;
use crate::error::{Error, Result};
use crate::store::db::{Db, Row};
use crate::store::{StoreTarget, now_ms};
use crate::tools::StopWhen;
use crate::tools::gate::{Answer, Prompter};

/// How often a waiting call looks for its answer.
pub const LOOK_EVERY: Duration = Duration::from_millis(200);

/// A parked request, as `approvals pending` shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Request {
    pub id: i64,
    pub tool: String,
    pub command: String,
    pub reason: String,
    pub agent: Option<String>,
    pub session: Option<String>,
    /// `pending`, `once`, `always`, `deny` or `expired`.
    pub status: String,
    pub requested_at: i64,
    pub expires_at: i64,
    pub answered_at: Option<i64>,
    pub answered_by: Option<String>,
}

const COLUMNS: &str = "id, tool, command, reason, agent, session, status, requested_at, expires_at, answered_at, answered_by";

fn row(r: &Row) -> Result<Request> {
    let opt = |s: String| (!s.is_empty()).then_some(s);
    Ok(Request {
        id: r.get(0)?,
        tool: r.get(1)?,
        command: r.get(2)?,
        reason: r.get(3)?,
        agent: opt(r.get(4)?),
        session: opt(r.get(5)?),
        status: r.get(6)?,
        requested_at: r.get(7)?,
        expires_at: r.get(8)?,
        answered_at: r.get(9)?,
        answered_by: r.get(10)?,
    })
}

/// What a request is about, when it is parked.
pub struct Asking<'a> {
    pub tool: &'a str,
    pub subject: &'a Subject,
    pub reason: &'a str,
    pub agent: Option<&'a str>,
    pub session: Option<&'a str>,
}

/// Parks a request that expires after `wait`; its id.
pub fn park(db: Db<'_>, a: &Asking<'_>, wait: Duration) -> Result<i64> {
    let now = now_ms();
    db.query_row(
        "INSERT INTO approval_requests (tool, command, subject, reason, agent, session, requested_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
        db_params![
            a.tool,
            a.subject.command,
            serde_json::to_string(&a.subject.commands).unwrap_or_else(|_| "[]".into()),
            a.reason,
            a.agent.unwrap_or(""),
            a.session.unwrap_or(""),
            now,
            now.saturating_add(i64::try_from(wait.as_millis()).unwrap_or(i64::MAX))
        ],
        |r| r.get(0),
    )
}

/// The requests still waiting for an answer, oldest first (expired ones are marked so).
pub fn pending(db: Db<'_>) -> Result<Vec<Request>> {
    db.execute(
        "UPDATE approval_requests SET status = 'expired' WHERE status = 'pending' AND expires_at <= ?1",
        db_params![now_ms()],
    )?;
    db.query_map(
        &format!("SELECT {COLUMNS} FROM approval_requests WHERE status = 'pending' ORDER BY id"),
        db_params![],
        row,
    )
}

/// One request.
pub fn get(db: Db<'_>, id: i64) -> Result<Option<Request>> {
    db.query_opt(
        &format!("SELECT {COLUMNS} FROM approval_requests WHERE id = ?1"),
        db_params![id],
        row,
    )
}

/// Answers a pending request (`once`, `always` or `deny`), once: a request answered already,
/// or expired, is a conflict (exit 6) that says how it ended.
pub fn answer(db: Db<'_>, id: i64, decision: &str, by: &str) -> Result<Request> {
    if !["once", "always", "deny"].contains(&decision) {
        return Err(Error::usage(format!(
            "answer `{decision}`: expected once, always or deny"
        )));
    }
    let now = now_ms();
    let changed = db.execute(
        "UPDATE approval_requests SET status = ?2, answered_at = ?3, answered_by = ?4
         WHERE id = ?1 AND status = 'pending' AND expires_at > ?3",
        db_params![id, decision, now, by],
    )?;
    let Some(request) = get(db, id)? else {
        return Err(Error::not_found(format!("no approval request {id}")));
    };
    if changed == 0 {
        let how = match request.status.as_str() {
            "pending" | "expired" => "expired".to_string(),
            answered => format!("answered already ({answered})"),
        };
        return Err(Error::conflict(format!("approval request {id} {how}")));
    }
    Ok(request)
}

/// Marks a request nobody answered in time.
fn expire(db: Db<'_>, id: i64) -> Result<()> {
    db.execute(
        "UPDATE approval_requests SET status = 'expired' WHERE id = ?1 AND status = 'pending'",
        db_params![id],
    )?;
    Ok(())
}

/// The relay as the gate's [`Prompter`]: parks the request on a connection of its own and
/// waits for the answer. `notice` tells the person running the command how to answer.
pub struct StoreRelay {
    pub store: StoreTarget,
    /// `wait:DUR`: how long to wait instead of `[tools.exec] approval_timeout_secs`.
    pub wait: Option<Duration>,
    pub agent: Option<String>,
    pub session: Option<String>,
    pub notice: Box<dyn Fn(&Request) + Send + Sync>,
}

impl StoreRelay {
    fn relay(
        &self,
        tool: &str,
        subject: &Subject,
        reason: &str,
        timeout: Duration,
        stop: &StopWhen,
    ) -> Result<Answer> {
        let wait = self.wait.unwrap_or(timeout);
        let store = self.store.open()?;
        let asking = Asking {
            tool,
            subject,
            reason,
            agent: self.agent.as_deref(),
            session: self.session.as_deref(),
        };
        let id = park(store.db(), &asking, wait)?;
        if let Some(request) = get(store.db(), id)? {
            (self.notice)(&request);
        }
        let until = Instant::now() + wait;
        while Instant::now() < until {
            // A stopped call's request is not left for someone to answer.
            if let Some(why) = stop.check() {
                expire(store.db(), id)?;
                return Ok(Answer::Stopped(why));
            }
            std::thread::sleep(LOOK_EVERY.min(until.saturating_duration_since(Instant::now())));
            let status = get(store.db(), id)?.map(|r| r.status).unwrap_or_default();
            match status.as_str() {
                "once" => return Ok(Answer::AllowOnce),
                "always" => return Ok(Answer::AllowAlways),
                "deny" => return Ok(Answer::Deny),
                "expired" => return Ok(Answer::TimedOut),
                _ => {}
            }
        }
        expire(store.db(), id)?;
        Ok(Answer::TimedOut)
    }
}

impl Prompter for StoreRelay {
    fn ask(
        &self,
        tool: &str,
        subject: &Subject,
        reason: &str,
        timeout: Duration,
        stop: &StopWhen,
    ) -> Answer {
        // A store that cannot take the request: nobody can answer, so nobody allows it.
        self.relay(tool, subject, reason, timeout, stop)
            .unwrap_or(Answer::Deny)
    }
}
