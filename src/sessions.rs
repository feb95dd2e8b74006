//! Sessions as the store keeps them: one row per conversation (agent, user, model, token use,
//! summary) and its committed messages. Read here by the agent loop (history), the sessions
//! tools and `goclaw sessions`; written by the run records (`agent::record`).

use serde_json::{Value, json};

use crate::db_params;
use crate::error::{Error, Result};
use crate::providers::Message;
use crate::store::db::{Db, Row};
use crate::store::page::{Page, PageRequest};
use crate::store::sql;

/// A session's row, if it exists.
pub fn session(db: Db<'_>, key: &str) -> Result<Option<Value>> {
    db.query_opt(
        "SELECT key, agent, user_id, summary, model, provider, input_tokens, output_tokens, compaction_count,
                created_at, updated_at,
                (SELECT COUNT(*) FROM session_messages WHERE session = key AND committed = 1)
         FROM sessions WHERE key = ?1",
        db_params![key],
        session_row,
    )
}

fn session_row(r: &Row) -> Result<Value> {
    Ok(json!({
        "key": r.get::<String>(0)?, "agent": r.get::<String>(1)?,
        "user": r.get::<Option<String>>(2)?, "summary": r.get::<Option<String>>(3)?,
        "model": r.get::<Option<String>>(4)?, "provider": r.get::<Option<String>>(5)?,
        "input_tokens": r.get::<i64>(6)?, "output_tokens": r.get::<i64>(7)?,
        "compaction_count": r.get::<i64>(8)?, "created_at": r.get::<i64>(9)?,
        "updated_at": r.get::<i64>(10)?, "messages": r.get::<i64>(11)?,
    }))
}

/// One page of the sessions, most recently used first (the cursor is the last one's time and
/// key).
pub fn sessions(db: Db<'_>, agent: Option<&str>, page: &PageRequest) -> Result<Page<Value>> {
    let (at, key) = page.after_time_key()?.unwrap_or((i64::MAX, String::new()));
    let rows: Vec<Value> = db.query_map(
        "SELECT key, agent, user_id, summary, model, provider, input_tokens, output_tokens, compaction_count,
                created_at, updated_at,
                (SELECT COUNT(*) FROM session_messages m WHERE m.session = s.key AND committed = 1)
         FROM sessions s WHERE (CAST(?1 AS TEXT) IS NULL OR agent = ?1)
           AND (updated_at < ?2 OR (updated_at = ?2 AND (?3 = '' OR key < ?3)))
         ORDER BY updated_at DESC, key DESC LIMIT ?4",
        db_params![agent, at, key, page.fetch()],
        session_row,
    )?;
    Ok(Page::cut(rows, page, |s| {
        crate::store::page::time_key(
            s["updated_at"].as_i64().unwrap_or(0),
            s["key"].as_str().unwrap_or(""),
        )
    }))
}

/// One page of a session's committed messages, oldest first (the cursor is the last one's
/// sequence number).
pub fn history_page(db: Db<'_>, key: &str, page: &PageRequest) -> Result<Page<Message>> {
    let out: Vec<(i64, Message)> = db.query_map(
        "SELECT seq, message FROM session_messages WHERE session = ?1 AND committed = 1 AND seq > ?2
         ORDER BY seq LIMIT ?3",
        db_params![key, page.after_id()?.unwrap_or(i64::MIN), page.fetch()],
        |r| Ok((r.get(0)?, parse_message(key, &r.get::<String>(1)?)?)),
    )?;
    let page = Page::cut(out, page, |(seq, _)| seq.to_string());
    Ok(Page {
        items: page.items.into_iter().map(|(_, m)| m).collect(),
        next_cursor: page.next_cursor,
    })
}

fn parse_message(key: &str, text: &str) -> Result<Message> {
    serde_json::from_str(text).map_err(|e| {
        Error::internal(format!(
            "session {key}: a stored message does not parse: {e}"
        ))
    })
}

/// A session's committed messages, oldest first.
pub fn history(db: Db<'_>, key: &str) -> Result<Vec<Message>> {
    const SQL: &str =
        "SELECT message FROM session_messages WHERE session = ?1 AND committed = 1 ORDER BY seq";
    let Db::Sqlite(conn) = db else {
        return db.query_map(SQL, db_params![key], |r| {
            parse_message(key, &r.get::<String>(0)?)
        });
    };
    // On SQLite each message is parsed from SQLite's own text, with no copy in between (the
    // loop reads the whole history at every start).
    let mut stmt = conn.prepare_cached(SQL).map_err(sql)?;
    let mut rows = stmt.query([key]).map_err(sql)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(sql)? {
        let text = row.get_ref(0).and_then(|v| Ok(v.as_str()?)).map_err(sql)?;
        out.push(parse_message(key, text)?);
    }
    Ok(out)
}
