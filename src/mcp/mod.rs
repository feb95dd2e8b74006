//! MCP servers (reference §17): where they are defined (`goclaw mcp add`, kept in the store with
//! secret env values and headers sealed by [`crate::secrets`], or `[mcp.servers.NAME]` in
//! config), who may use them (agent and user grants with tool allow/deny lists, and access
//! requests a reviewer approves or rejects), and the bridged tool names. Connecting to servers
//! is not here yet; see the open MCP issue.

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::secrets::SecretKey;

pub mod bridge;
pub mod client;
pub mod pool;
pub mod serve;
pub mod sse;

/// `[mcp]` in config.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct McpConfig {
    /// `[mcp.servers.NAME]`.
    pub servers: BTreeMap<String, ServerConfig>,
}

/// One server in config (the original's `tools.mcp_servers` entry).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    pub transport: Transport,
    pub command: Option<String>,
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
    pub url: Option<String>,
    pub headers: BTreeMap<String, String>,
    pub enabled: bool,
    pub prefix: String,
    pub timeout_secs: u64,
    pub access: Access,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            transport: Transport::Stdio,
            command: None,
            args: Vec::new(),
            env: BTreeMap::new(),
            url: None,
            headers: BTreeMap::new(),
            enabled: true,
            prefix: String::new(),
            timeout_secs: DEFAULT_TIMEOUT_SECS,
            access: Access::Open,
        }
    }
}

/// Per-call timeout when none is given (the original's `timeout_sec`).
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Transport {
    #[default]
    Stdio,
    StreamableHttp,
    Sse,
}

impl Transport {
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::StreamableHttp => "streamable-http",
            Transport::Sse => "sse",
        }
    }

    fn parse(s: &str) -> Transport {
        match s {
            "streamable-http" => Transport::StreamableHttp,
            "sse" => Transport::Sse,
            _ => Transport::Stdio,
        }
    }
}

/// Who may use a server's tools: every agent (`open`, grants still narrow them) or only agents
/// holding an enabled grant (`granted`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    #[default]
    Open,
    Granted,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Open => "open",
            Access::Granted => "granted",
        }
    }
}

/// A server as shown: secrets are never included, only their names.
#[derive(Debug, Clone, Serialize)]
pub struct Server {
    pub name: String,
    /// `store` (goclaw mcp add) or `config`.
    pub source: &'static str,
    pub transport: Transport,
    pub command: Option<String>,
    pub args: Vec<String>,
    pub url: Option<String>,
    pub env_keys: Vec<String>,
    pub header_keys: Vec<String>,
    pub prefix: String,
    /// The prefix bridged tools get: `mcp_<prefix or name>__<tool>`.
    pub tool_prefix: String,
    pub timeout_secs: u64,
    pub access: Access,
    pub enabled: bool,
}

/// What `mcp add` stores: a name and the same settings a config entry has.
#[derive(Debug, Clone, Default)]
pub struct NewServer {
    pub name: String,
    pub spec: ServerConfig,
}

/// The effective prefix of bridged tool names (§17): `mcp_` + the server name with `-` → `_`
/// when no prefix is set; `mcp_` + prefix unless the prefix already starts with `mcp_`.
pub fn effective_prefix(server: &str, prefix: &str) -> String {
    if prefix.is_empty() {
        format!("mcp_{}", server.replace('-', "_"))
    } else if prefix.starts_with("mcp_") {
        prefix.to_string()
    } else {
        format!("mcp_{prefix}")
    }
}

/// The registered name of a server's tool.
pub fn tool_name(server: &str, prefix: &str, tool: &str) -> String {
    format!("{}__{tool}", effective_prefix(server, prefix))
}

/// `filterTools` (§17): deny wins; a non-empty allow list keeps only its members.
pub fn tool_allowed(tool: &str, allow: Option<&[String]>, deny: Option<&[String]>) -> bool {
    if deny.is_some_and(|d| d.iter().any(|t| t == tool)) {
        return false;
    }
    match allow {
        Some(a) if !a.is_empty() => a.iter().any(|t| t == tool),
        _ => true,
    }
}

use crate::store::page::{Page, PageRequest};
use crate::store::{now_ms as now, sql};

fn valid_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(Error::usage(format!(
            "invalid server name `{name}`: use letters, digits, - and _ (at most 64)"
        )))
    }
}

/// Adds a server to the store; its env values and headers are sealed with `key`.
pub fn add(
    conn: &Connection,
    key: &SecretKey,
    s: &NewServer,
    config: &McpConfig,
) -> Result<Server> {
    valid_name(&s.name)?;
    if config.servers.contains_key(&s.name) {
        return Err(Error::conflict(format!(
            "server `{}` is defined in config",
            s.name
        )));
    }
    match s.spec.transport {
        Transport::Stdio if s.spec.command.as_deref().unwrap_or("").is_empty() => {
            return Err(Error::usage("a stdio server needs --command"));
        }
        Transport::StreamableHttp | Transport::Sse => {
            let url = s.spec.url.as_deref().unwrap_or("");
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(Error::usage(format!(
                    "a {} server needs an http(s) --url",
                    s.spec.transport.as_str()
                )));
            }
        }
        Transport::Stdio => {}
    }
    let seal = |m| crate::secrets::seal_map(key, m);
    let keys = crate::secrets::names_json;
    let n = conn
        .execute(
            "INSERT INTO mcp_servers (name, transport, command, args, url, env_sealed, headers_sealed, env_keys, header_keys,
                                      tool_prefix, timeout_secs, access, enabled, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14) ON CONFLICT (name) DO NOTHING",
            params![
                s.name,
                s.spec.transport.as_str(),
                s.spec.command,
                serde_json::to_string(&s.spec.args).unwrap_or_else(|_| "[]".into()),
                s.spec.url,
                seal(&s.spec.env)?,
                seal(&s.spec.headers)?,
                keys(&s.spec.env),
                keys(&s.spec.headers),
                s.spec.prefix,
                s.spec.timeout_secs.max(1) as i64,
                s.spec.access.as_str(),
                s.spec.enabled,
                now()
            ],
        )
        .map_err(sql)?;
    if n == 0 {
        return Err(Error::conflict(format!(
            "server `{}` already exists",
            s.name
        )));
    }
    get(conn, config, &s.name)
}

/// Every server: the store's, then config's.
pub fn list(conn: &Connection, config: &McpConfig) -> Result<Vec<Server>> {
    let mut out: Vec<Server> = conn
        .prepare(
            "SELECT name, transport, command, args, url, env_keys, header_keys, tool_prefix, timeout_secs, access, enabled
             FROM mcp_servers ORDER BY name",
        )
        .and_then(|mut st| {
            st.query_map([], |r| {
                let args: String = r.get(3)?;
                let ek: String = r.get(5)?;
                let hk: String = r.get(6)?;
                let name: String = r.get(0)?;
                let prefix: String = r.get(7)?;
                Ok(Server {
                    tool_prefix: effective_prefix(&name, &prefix),
                    name,
                    source: "store",
                    transport: Transport::parse(&r.get::<_, String>(1)?),
                    command: r.get(2)?,
                    args: serde_json::from_str(&args).unwrap_or_default(),
                    url: r.get(4)?,
                    env_keys: serde_json::from_str(&ek).unwrap_or_default(),
                    header_keys: serde_json::from_str(&hk).unwrap_or_default(),
                    prefix,
                    timeout_secs: r.get::<_, i64>(8)?.max(1) as u64,
                    access: if r.get::<_, String>(9)? == "granted" { Access::Granted } else { Access::Open },
                    enabled: r.get(10)?,
                })
            })
            .and_then(|rows| rows.collect())
        })
        .map_err(sql)?;
    for (name, c) in &config.servers {
        out.push(Server {
            name: name.clone(),
            source: "config",
            transport: c.transport,
            command: c.command.clone(),
            args: c.args.clone(),
            url: c.url.clone(),
            env_keys: c.env.keys().cloned().collect(),
            header_keys: c.headers.keys().cloned().collect(),
            prefix: c.prefix.clone(),
            tool_prefix: effective_prefix(name, &c.prefix),
            timeout_secs: c.timeout_secs.max(1),
            access: c.access,
            enabled: c.enabled,
        });
    }
    Ok(out)
}

/// One server by name.
pub fn get(conn: &Connection, config: &McpConfig, name: &str) -> Result<Server> {
    list(conn, config)?
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| {
            Error::not_found(format!("no MCP server `{name}`"))
                .with_hint("`goclaw mcp list` shows them")
        })
}

/// The store id of a server added with `mcp add` (config servers have none).
fn store_id(conn: &Connection, config: &McpConfig, name: &str) -> Result<i64> {
    let id: Option<i64> = conn
        .query_row("SELECT id FROM mcp_servers WHERE name = ?1", [name], |r| {
            r.get(0)
        })
        .optional()
        .map_err(sql)?;
    match id {
        Some(id) => Ok(id),
        None if config.servers.contains_key(name) => Err(Error::conflict(format!(
            "server `{name}` is defined in config; change it there"
        ))),
        None => Err(Error::not_found(format!("no MCP server `{name}`"))),
    }
}

/// Removes a server (and its grants and requests).
pub fn remove(conn: &Connection, config: &McpConfig, name: &str) -> Result<()> {
    let id = store_id(conn, config, name)?;
    conn.execute("DELETE FROM mcp_servers WHERE id = ?1", [id])
        .map(|_| ())
        .map_err(sql)
}

/// Enables or disables a server.
pub fn set_enabled(
    conn: &Connection,
    config: &McpConfig,
    name: &str,
    enabled: bool,
) -> Result<Server> {
    let id = store_id(conn, config, name)?;
    conn.execute(
        "UPDATE mcp_servers SET enabled = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, enabled, now()],
    )
    .map_err(sql)?;
    get(conn, config, name)
}

/// The decrypted env values and headers of a stored server (for connecting; never printed).
pub fn secrets(
    conn: &Connection,
    key: &SecretKey,
    name: &str,
) -> Result<(BTreeMap<String, String>, BTreeMap<String, String>)> {
    let (env, headers): (Option<Vec<u8>>, Option<Vec<u8>>) = conn
        .query_row(
            "SELECT env_sealed, headers_sealed FROM mcp_servers WHERE name = ?1",
            [name],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(sql)?
        .ok_or_else(|| Error::not_found(format!("no MCP server `{name}` in the store")))?;
    let open = |b: Option<Vec<u8>>| crate::secrets::open_map(key, b.as_deref());
    Ok((open(env)?, open(headers)?))
}

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
}

fn list_json(v: &Option<Vec<String>>) -> Option<String> {
    v.as_ref()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::to_string(l).unwrap_or_else(|_| "[]".into()))
}

/// A grant to record: who (`scope`, `subject`) gets a server's tools, narrowed by `allow` and
/// `deny`, and who granted it.
#[derive(Debug, Clone)]
pub struct NewGrant<'a> {
    pub scope: Scope,
    pub subject: &'a str,
    pub allow: Option<Vec<String>>,
    pub deny: Option<Vec<String>>,
    pub enabled: bool,
    pub by: &'a str,
}

/// Grants (or replaces the grant of) the subject of `g` on a stored server.
pub fn grant(conn: &Connection, config: &McpConfig, server: &str, g: &NewGrant) -> Result<Grant> {
    let id = store_id(conn, config, server)?;
    upsert_grant(conn, id, g)?;
    grants(conn, Some(server))?
        .into_iter()
        .find(|x| x.scope == g.scope.as_str() && x.subject == g.subject)
        .ok_or_else(|| Error::internal("the grant was not saved"))
}

fn upsert_grant(conn: &Connection, server_id: i64, g: &NewGrant) -> Result<()> {
    conn.execute(
        "INSERT INTO mcp_grants (server_id, scope, subject, enabled, tool_allow, tool_deny, granted_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (server_id, scope, subject) DO UPDATE SET
           enabled = excluded.enabled, tool_allow = excluded.tool_allow, tool_deny = excluded.tool_deny,
           granted_by = excluded.granted_by",
        params![server_id, g.scope.as_str(), g.subject, g.enabled, list_json(&g.allow), list_json(&g.deny), g.by, now()],
    )
    .map(|_| ())
    .map_err(sql)
}

/// Removes a grant; not found when there was none.
pub fn revoke(
    conn: &Connection,
    config: &McpConfig,
    server: &str,
    scope: Scope,
    subject: &str,
) -> Result<()> {
    let id = store_id(conn, config, server)?;
    let n = conn
        .execute(
            "DELETE FROM mcp_grants WHERE server_id = ?1 AND scope = ?2 AND subject = ?3",
            params![id, scope.as_str(), subject],
        )
        .map_err(sql)?;
    if n == 0 {
        return Err(Error::not_found(format!(
            "no {} grant for `{subject}` on `{server}`",
            scope.as_str()
        )));
    }
    Ok(())
}

/// Every grant, or those of one server.
pub fn grants(conn: &Connection, server: Option<&str>) -> Result<Vec<Grant>> {
    conn.prepare(
        "SELECT g.id, s.name, g.scope, g.subject, g.enabled, g.tool_allow, g.tool_deny, g.granted_by
         FROM mcp_grants g JOIN mcp_servers s ON s.id = g.server_id
         WHERE ?1 IS NULL OR s.name = ?1 ORDER BY s.name, g.scope, g.subject",
    )
    .and_then(|mut st| {
        st.query_map([server], |r| {
            let parse = |v: Option<String>| v.and_then(|s| serde_json::from_str::<Vec<String>>(&s).ok());
            Ok(Grant {
                id: r.get(0)?,
                server: r.get(1)?,
                scope: r.get(2)?,
                subject: r.get(3)?,
                enabled: r.get(4)?,
                tool_allow: parse(r.get(5)?),
                tool_deny: parse(r.get(6)?),
                granted_by: r.get(7)?,
            })
        })
        .and_then(|rows| rows.collect())
    })
    .map_err(sql)
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
pub fn request(
    conn: &Connection,
    config: &McpConfig,
    server: &str,
    r: &NewRequest,
) -> Result<Request> {
    if r.reason.trim().is_empty() {
        return Err(Error::usage("an access request needs a --reason"));
    }
    let id = store_id(conn, config, server)?;
    conn.execute(
        "INSERT INTO mcp_requests (server_id, scope, subject, tools, reason, requested_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![id, r.scope.as_str(), r.subject, list_json(&r.tools), r.reason, r.by, now()],
    )
    .map_err(sql)?;
    let rid = conn.last_insert_rowid();
    let just_made = PageRequest {
        limit: Some(1),
        cursor: Some((rid - 1).to_string()),
    };
    requests(conn, None, &just_made)?
        .items
        .into_iter()
        .find(|x| x.id == rid)
        .ok_or_else(|| Error::internal("the request was not saved"))
}

/// One page of the access requests (of one status), oldest first (the cursor is the last
/// request's id).
pub fn requests(
    conn: &Connection,
    status: Option<&str>,
    page: &PageRequest,
) -> Result<Page<Request>> {
    let after = page.after_id()?.unwrap_or(0);
    let rows: Vec<Request> = conn.prepare(
        "SELECT r.id, s.name, r.scope, r.subject, r.tools, r.reason, r.status, r.requested_by, r.reviewed_by, r.review_note
         FROM mcp_requests r JOIN mcp_servers s ON s.id = r.server_id
         WHERE (?1 IS NULL OR r.status = ?1) AND r.id > ?2 ORDER BY r.id LIMIT ?3",
    )
    .and_then(|mut st| {
        st.query_map(rusqlite::params![status, after, page.fetch()], |r| {
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
        })
        .and_then(|rows| rows.collect())
    })
    .map_err(sql)?;
    Ok(Page::cut(rows, page, |r| r.id.to_string()))
}

/// Approves or rejects a pending request. Approval creates (or replaces) the grant in the same
/// transaction, so a request is never approved without its grant.
pub fn review(
    conn: &mut Connection,
    id: i64,
    approve: bool,
    note: Option<&str>,
    by: &str,
) -> Result<Value> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sql)?;
    let row: Option<(i64, String, String, Option<String>, String)> = tx
        .query_row(
            "SELECT server_id, scope, subject, tools, status FROM mcp_requests WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()
        .map_err(sql)?;
    let Some((server_id, scope, subject, tools, status)) = row else {
        return Err(Error::not_found(format!("no access request {id}")));
    };
    if status != "pending" {
        return Err(Error::conflict(format!(
            "access request {id} is already {status}"
        )));
    }
    let new_status = if approve { "approved" } else { "rejected" };
    tx.execute(
        "UPDATE mcp_requests SET status = ?2, reviewed_by = ?3, reviewed_at = ?4, review_note = ?5 WHERE id = ?1 AND status = 'pending'",
        params![id, new_status, by, now(), note],
    )
    .map_err(sql)?;
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
        };
        upsert_grant(&tx, server_id, &grant)?;
    }
    tx.commit().map_err(sql)?;
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
    conn: &Connection,
    server: &Server,
    agent: Option<&str>,
    user: Option<&str>,
) -> Result<Option<ToolFilter>> {
    if !server.enabled {
        return Ok(None);
    }
    let all = grants(conn, Some(&server.name))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_follow_the_original() {
        assert_eq!(tool_name("myserver", "", "query"), "mcp_myserver__query");
        assert_eq!(tool_name("x", "pg", "query"), "mcp_pg__query");
        assert_eq!(tool_name("x", "mcp_pg", "query"), "mcp_pg__query");
        assert_eq!(tool_name("my-server", "", "query"), "mcp_my_server__query");
        assert_eq!(tool_name("x", "mcp", "q"), "mcp_mcp__q");
    }

    #[test]
    fn filter_tools_deny_wins() {
        let a = vec!["read".to_string(), "write".to_string()];
        let d = vec!["write".to_string()];
        assert!(tool_allowed("read", Some(&a), Some(&d)));
        assert!(!tool_allowed("write", Some(&a), Some(&d)));
        assert!(!tool_allowed("other", Some(&a), None));
        assert!(tool_allowed("other", None, None));
        assert!(tool_allowed("other", Some(&[]), None));
    }
}
