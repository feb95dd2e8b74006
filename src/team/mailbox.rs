//! The team mailbox (reference §12, with its broadcast bug fixed): direct messages, broadcasts
//! from the lead, and escalations from the task board. Read state is kept per recipient, so a
//! broadcast is read by each member on its own (the original marked the shared row read, and
//! the first reader hid it from everyone). `wait` blocks until something arrives.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::{Team, now_ms};
use crate::db_params;
use crate::error::{Error, ErrorKind, Result};
use crate::store::db::{Db, Dialect};

/// Most messages one read returns.
pub const READ_LIMIT: usize = 50;

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Message {
    pub id: i64,
    pub sender: String,
    pub recipient: Option<String>,
    pub kind: String,
    pub text: String,
    pub created_at: i64,
}

fn check_member(team: &Team, agent: &str) -> Result<()> {
    if team.is_member(agent) {
        Ok(())
    } else {
        Err(Error::denied(format!(
            "`{agent}` is not a member of team `{}`",
            team.name
        )))
    }
}

/// Sends `text` from `from` to one member.
pub fn send(db: Db<'_>, team: &Team, from: &str, to: &str, text: &str) -> Result<Message> {
    check_member(team, from)?;
    if !team.is_member(to) {
        return Err(Error::not_found(format!(
            "`{to}` is not a member of team `{}`",
            team.name
        )));
    }
    insert(db, team, from, Some(to), "chat", text)
}

/// The lead sends `text` to every other member.
pub fn broadcast(db: Db<'_>, team: &Team, from: &str, text: &str) -> Result<Message> {
    check_member(team, from)?;
    if !team.is_lead(from) {
        return Err(Error::denied(format!(
            "only the team lead ({}) can broadcast",
            team.lead
        )));
    }
    insert(db, team, from, None, "broadcast", text)
}

fn insert(
    db: Db<'_>,
    team: &Team,
    from: &str,
    to: Option<&str>,
    kind: &str,
    text: &str,
) -> Result<Message> {
    if text.trim().is_empty() {
        return Err(Error::usage("a message needs text"));
    }
    if team.status != "active" {
        return Err(Error::conflict(format!("team `{}` is archived", team.name)));
    }
    let now = now_ms();
    let id = db.query_row(
        "INSERT INTO messages (team_id, sender, recipient, kind, text, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         RETURNING id",
        db_params![team.id, from, to, kind, text, now],
        |r| r.get::<i64>(0),
    )?;
    Ok(Message {
        id,
        sender: from.into(),
        recipient: to.map(Into::into),
        kind: kind.into(),
        text: text.into(),
        created_at: now,
    })
}

/// Unread messages for `agent`, oldest first (at most [`READ_LIMIT`]), marked read for it alone.
pub fn read(db: Db<'_>, team: &Team, agent: &str) -> Result<Vec<Message>> {
    read_at_most(db, team, agent, READ_LIMIT)
}

/// [`read`], at most `limit` messages: the rest stay unread for the next read.
pub fn read_at_most(db: Db<'_>, team: &Team, agent: &str, limit: usize) -> Result<Vec<Message>> {
    check_member(team, agent)?;
    let msgs: Vec<Message> = db.query_map(
        "SELECT m.id, m.sender, m.recipient, m.kind, m.text, m.created_at FROM messages m
         WHERE m.team_id = ?1 AND (m.recipient = ?2 OR (m.recipient IS NULL AND m.sender != ?2))
           AND NOT EXISTS (SELECT 1 FROM message_reads r WHERE r.message_id = m.id AND r.agent = ?2)
         ORDER BY m.id LIMIT ?3",
        db_params![team.id, agent, limit],
        |r| {
            Ok(Message {
                id: r.get(0)?,
                sender: r.get(1)?,
                recipient: r.get(2)?,
                kind: r.get(3)?,
                text: r.get(4)?,
                created_at: r.get(5)?,
            })
        },
    )?;
    let now = now_ms();
    let mut mine = Vec::with_capacity(msgs.len());
    for m in msgs {
        // Each message is this read's only when its mark is: two reads by the same agent at
        // once (two processes, two machines) deliver each message once between them.
        let marked = db.execute(
            "INSERT INTO message_reads (message_id, agent, read_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (message_id, agent) DO NOTHING",
            db_params![m.id, agent, now],
        )?;
        if marked > 0 {
            mine.push(m);
        }
    }
    Ok(mine)
}

/// How many messages from `sender` `agent` has not read (nothing is marked read).
pub fn unread_from(db: Db<'_>, team: &Team, agent: &str, sender: &str) -> Result<i64> {
    db.query_row(
        "SELECT count(*) FROM messages m
         WHERE m.team_id = ?1 AND m.sender = ?3 AND (m.recipient = ?2 OR (m.recipient IS NULL AND m.sender != ?2))
           AND NOT EXISTS (SELECT 1 FROM message_reads r WHERE r.message_id = m.id AND r.agent = ?2)",
        db_params![team.id, agent, sender],
        |r| r.get(0),
    )
}

/// Blocks until `agent` has unread messages, then reads them; a timeout is exit code 7.
pub fn wait(
    db: Db<'_>,
    team: &Team,
    agent: &str,
    timeout: Option<Duration>,
    on_waiting: &mut dyn FnMut(),
) -> Result<Vec<Message>> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(25);
    let mut waiting = false;
    // On PostgreSQL a message sent from any machine wakes the wait at once (NOTIFY); the look
    // every few seconds only guards against a notification lost with a connection. SQLite's
    // waiters look again, at most every 250 ms.
    db.listen(&team.channel())?;
    let max_pause = match db.dialect() {
        Dialect::Sqlite => Duration::from_millis(250),
        Dialect::Postgres => Duration::from_secs(5),
    };
    loop {
        let msgs = read(db, team, agent)?;
        if !msgs.is_empty() {
            return Ok(msgs);
        }
        if !waiting {
            // The mailbox was empty once: from now on a message sent is a message waited for.
            waiting = true;
            on_waiting();
        }
        if let Some(t) = timeout {
            if start.elapsed() >= t {
                return Err(Error::new(
                    ErrorKind::Timeout,
                    format!("no message for `{agent}` within {}s", t.as_secs_f64()),
                ));
            }
            pause = pause.min(
                t.saturating_sub(start.elapsed())
                    .max(Duration::from_millis(1)),
            );
        }
        db.notified(pause)?;
        pause = (pause * 2).min(max_pause);
    }
}
