//! Who may use an MCP server: grants to agents and users (with allow/deny lists of its tools),
//! access requests and their review, and the decision for one caller (`access_for`).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use super::{Access, McpConfig, Server, store_id, tool_allowed};
use crate::db_params;
use crate::error::{Error, Result};
use crate::secrets::SecretKey;
use crate::store::db::{Begin, Db};
use crate::store::now_ms as now;
use crate::store::page::{Page, PageRequest};

/// `agent` or `user`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Agent,
    User,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Agent => "agent",
            Scope::User => "user",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Grant {
    pub id: i64,
    pub server: String,
    pub scope: String,
    pub subject: String,
    pub enabled: bool,
    pub tool_allow: Option<Vec<String>>,
    pub tool_deny: Option<Vec<String>>,
    pub granted_by: String,
    /// Names of the env values and headers the grant sets (their values are sealed).
    pub env_keys: Vec<String>,
    pub header_keys: Vec<String>,
}

fn list_json(v: &Option<Vec<String>>) -> Option<String> {
    v.as_ref()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::to_string(l).unwrap_or_else(|_| "[]".into()))
}

/// A grant to record: who (`scope`, `subject`) gets a server's tools, narrowed by `allow` and
/// `deny`, and who granted it.
#[derive(Clone)]
pub struct NewGrant<'a> {
    pub scope: Scope,
    pub subject: &'a str,
    pub allow: Option<Vec<String>>,
    pub deny: Option<Vec<String>>,
    pub enabled: bool,
    pub by: &'a str,
    /// Env values and headers for this grant's subject, over the server's (sealed with `key`).
    pub env: BTreeMap<String, String>,
    pub headers: BTreeMap<String, String>,
    pub key: Option<&'a SecretKey>,
}

/// Grants (or replaces the grant of) the subject of `g` on a stored server.
pub fn grant(db: Db<'_>, config: &McpConfig, server: &str, g: &NewGrant) -> Result<Grant> {
    let id = store_id(db, config, server)?;
    upsert_grant(db, id, g)?;
    grants(db, Some(server))?
        .into_iter()
        .find(|x| x.scope == g.scope.as_str() && x.subject == g.subject)
        .ok_or_else(|| Error::internal("the grant was not saved"))
}

fn upsert_grant(db: Db<'_>, server_id: i64, g: &NewGrant) -> Result<()> {
    let seal = |m: &BTreeMap<String, String>| -> Result<Option<Vec<u8>>> {
        match (m.is_empty(), g.key) {
            (true, _) => Ok(None),
            (false, Some(key)) => crate::secrets::seal_map(key, m),
            (false, None) => Err(Error::internal("a grant's secrets need the store's key")),
        }
    };
    let keys = crate::secrets::names_json;
    db.execute(
        "INSERT INTO mcp_grants (server_id, scope, subject, enabled, tool_allow, tool_deny, granted_by, created_at,
                                 env_sealed, headers_sealed, env_keys, header_keys)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
         ON CONFLICT (server_id, scope, subject) DO UPDATE SET
           enabled = excluded.enabled, tool_allow = excluded.tool_allow, tool_deny = excluded.tool_deny,
           granted_by = excluded.granted_by, env_sealed = excluded.env_sealed,
           headers_sealed = excluded.headers_sealed, env_keys = excluded.env_keys,
           header_keys = excluded.header_keys",
        db_params![server_id, g.scope.as_str(), g.subject, g.enabled, list_json(&g.allow), list_json(&g.deny), g.by, now(),
                   seal(&g.env)?, seal(&g.headers)?, keys(&g.env), keys(&g.headers)],
    )
    .map(|_| ())
}

/// The env values and headers the caller's grants on `server` set: an agent grant's, then a
/// user grant's over them (opened with the key in `key_dir`, read only when a grant has any).
pub fn grant_secrets(
    db: Db<'_>,
    key_dir: &std::path::Path,
    server: &str,
    agent: Option<&str>,
    user: Option<&str>,
) -> Result<super::client::Secrets> {
    let mut out: super::client::Secrets = Default::default();
    for (scope, subject) in [("agent", agent), ("user", user)] {
        let Some(subject) = subject else { continue };
        type Sealed = (Option<Vec<u8>>, Option<Vec<u8>>);
        let sealed: Option<Sealed> = db.query_opt(
            "SELECT g.env_sealed, g.headers_sealed FROM mcp_grants g JOIN mcp_servers s ON s.id = g.server_id
             WHERE s.name = ?1 AND g.scope = ?2 AND g.subject = ?3 AND g.enabled = 1",
            db_params![server, scope, subject],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let Some((env, headers)) = sealed.filter(|(e, h)| e.is_some() || h.is_some()) else {
            continue;
        };
        let key = SecretKey::existing(key_dir).map_err(|_| {
            Error::failed(format!(
                "the grant of {scope} {subject} on `{server}` has sealed values and the store's key is missing"
            ))
        })?;
        out.0
            .extend(crate::secrets::open_map(&key, env.as_deref())?);
        out.1
            .extend(crate::secrets::open_map(&key, headers.as_deref())?);
    }
    Ok(out)
}

/// Removes a grant; not found when there was none.
pub fn revoke(
    db: Db<'_>,
    config: &McpConfig,
    server: &str,
    scope: Scope,
    subject: &str,
) -> Result<()> {
    let id = store_id(db, config, server)?;
    let n = db.execute(
        "DELETE FROM mcp_grants WHERE server_id = ?1 AND scope = ?2 AND subject = ?3",
        db_params![id, scope.as_str(), subject],
    )?;
    if n == 0 {
        return Err(Error::not_found(format!(
            "no {} grant for `{subject}` on `{server}`",
            scope.as_str()
        )));
    }
    Ok(())
}

/// Every grant, or those of one server.
pub fn grants(db: Db<'_>, server: Option<&str>) -> Result<Vec<Grant>> {
    db.query_map(
        "SELECT g.id, s.name, g.scope, g.subject, g.enabled, g.tool_allow, g.tool_deny, g.granted_by,
                g.env_keys, g.header_keys
         FROM mcp_grants g JOIN mcp_servers s ON s.id = g.server_id
         WHERE CAST(?1 AS TEXT) IS NULL OR s.name = ?1 ORDER BY s.name, g.scope, g.subject",
        db_params![server],
        |r| {
            let parse =
                |v: Option<String>| v.and_then(|s| serde_json::from_str::<Vec<String>>(&s).ok());
            Ok(Grant {
                id: r.get(0)?,
                server: r.get(1)?,
                scope: r.get(2)?,
                subject: r.get(3)?,
                enabled: r.get(4)?,
                tool_allow: parse(r.get(5)?),
                tool_deny: parse(r.get(6)?),
                granted_by: r.get(7)?,
                env_keys: parse(r.get(8)?).unwrap_or_default(),
                header_keys: parse(r.get(9)?).unwrap_or_default(),
            })
        },
    )
}

#[derive(Debug, Clone, Serialize)]
pub struct Request {
    pub id: i64,
    pub server: String,
    pub scope: String,
    pub subject: String,
    pub tools: Option<Vec<String>>,
    pub reason: String,
    pub status: String,
    pub requested_by: String,
    pub reviewed_by: Option<String>,
    pub review_note: Option<String>,
}

/// An access request to file: who (`scope`, `subject`) wants which `tools` (all when `None`),
/// why, and who asks.
#[derive(Debug, Clone)]
pub struct NewRequest<'a> {
    pub scope: Scope,
    pub subject: &'a str,
    pub tools: Option<Vec<String>>,
    pub reason: &'a str,
    pub by: &'a str,
}

/// Files an access request to a stored server.
pub fn request(db: Db<'_>, config: &McpConfig, server: &str, r: &NewRequest) -> Result<Request> {
    if r.reason.trim().is_empty() {
        return Err(Error::usage("an access request needs a --reason"));
    }
    let id = store_id(db, config, server)?;
    let rid: i64 = db.query_row(
        "INSERT INTO mcp_requests (server_id, scope, subject, tools, reason, requested_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
        db_params![id, r.scope.as_str(), r.subject, list_json(&r.tools), r.reason, r.by, now()],
        |r| r.get(0),
    )?;
    let just_made = PageRequest {
        limit: Some(1),
        cursor: Some((rid - 1).to_string()),
    };
    requests(db, None, &just_made)?
        .items
        .into_iter()
        .find(|x| x.id == rid)
        .ok_or_else(|| Error::internal("the request was not saved"))
}

/// One page of the access requests (of one status), oldest first (the cursor is the last
/// request's id).
pub fn requests(db: Db<'_>, status: Option<&str>, page: &PageRequest) -> Result<Page<Request>> {
    let after = page.after_id()?.unwrap_or(0);
    let rows: Vec<Request> = db.query_map(
        "SELECT r.id, s.name, r.scope, r.subject, r.tools, r.reason, r.status, r.requested_by, r.reviewed_by, r.review_note
         FROM mcp_requests r JOIN mcp_servers s ON s.id = r.server_id
         WHERE (CAST(?1 AS TEXT) IS NULL OR r.status = ?1) AND r.id > ?2 ORDER BY r.id LIMIT ?3",
        db_params![status, after, page.fetch()],
        |r| {
            let tools: Option<String> = r.get(4)?;
            Ok(Request {
                id: r.get(0)?,
                server: r.get(1)?,
                scope: r.get(2)?,
                subject: r.get(3)?,
                tools: tools.and_then(|t| serde_json::from_str(&t).ok()),
                reason: r.get(5)?,
                status: r.get(6)?,
                requested_by: r.get(7)?,
                reviewed_by: r.get(8)?,
                review_note: r.get(9)?,
            })
        },
    )?;
    Ok(Page::cut(rows, page, |r| r.id.to_string()))
}

/// Approves or rejects a pending request. Approval creates (or replaces) the grant in the same
/// transaction, so a request is never approved without its grant.
pub fn review(db: Db<'_>, id: i64, approve: bool, note: Option<&str>, by: &str) -> Result<Value> {
    let tx = db.transaction(Begin::Write)?;
    type Pending = (i64, String, String, Option<String>, String);
    let row: Option<Pending> = tx.query_opt(
        "SELECT server_id, scope, subject, tools, status FROM mcp_requests WHERE id = ?1",
        db_params![id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )?;
    let Some((server_id, scope, subject, tools, status)) = row else {
        return Err(Error::not_found(format!("no access request {id}")));
    };
    if status != "pending" {
        return Err(Error::conflict(format!(
            "access request {id} is already {status}"
        )));
    }
    let new_status = if approve { "approved" } else { "rejected" };
    // The status is checked again by the update itself: two reviewers on two machines at once
    // (PostgreSQL reads without the write lock) cannot both decide it.
    let decided = tx.execute(
        "UPDATE mcp_requests SET status = ?2, reviewed_by = ?3, reviewed_at = ?4, review_note = ?5 WHERE id = ?1 AND status = 'pending'",
        db_params![id, new_status, by, now(), note],
    )?;
    if decided == 0 {
        return Err(Error::conflict(format!(
            "access request {id} was decided by someone else meanwhile"
        )));
    }
    if approve {
        let scope = if scope == "user" {
            Scope::User
        } else {
            Scope::Agent
        };
        let grant = NewGrant {
            scope,
            subject: &subject,
            allow: tools.and_then(|t| serde_json::from_str(&t).ok()),
            deny: None,
            enabled: true,
            by,
            env: BTreeMap::new(),
            headers: BTreeMap::new(),
            key: None,
        };
        upsert_grant(*tx, server_id, &grant)?;
    }
    tx.commit()?;
    Ok(json!({"id": id, "status": new_status, "grant_created": approve}))
}

/// A grant's narrowing of a server's tools (§17 filterTools; `None`: no restriction).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ToolFilter {
    pub allow: Option<Vec<String>>,
    pub deny: Option<Vec<String>>,
}

impl ToolFilter {
    pub fn allows(&self, tool: &str) -> bool {
        tool_allowed(tool, self.allow.as_deref(), self.deny.as_deref())
    }
}

/// Which of a server's tools `agent` (and `user`, when known) may use, or `None` when the
/// server is not available to them at all: a disabled user grant removes the server; a
/// `granted` server needs an enabled agent grant; grants narrow with allow/deny (deny wins).
pub fn access_for(
    db: Db<'_>,
    server: &Server,
    agent: Option<&str>,
    user: Option<&str>,
) -> Result<Option<ToolFilter>> {
    if !server.enabled {
        return Ok(None);
    }
    let all = grants(db, Some(&server.name))?;
    let find = |scope: &str, subject: Option<&str>| {
        subject.and_then(|s| all.iter().find(|g| g.scope == scope && g.subject == s))
    };
    if find("user", user).is_some_and(|g| !g.enabled) {
        return Ok(None);
    }
    match (find("agent", agent), server.access) {
        (Some(g), _) if g.enabled => Ok(Some(ToolFilter {
            allow: g.tool_allow.clone(),
            deny: g.tool_deny.clone(),
        })),
        (_, Access::Granted) => Ok(None),
        (Some(_), Access::Open) => Ok(None), // a disabled agent grant removes it
        (None, Access::Open) => Ok(Some(ToolFilter::default())),
    }
}
