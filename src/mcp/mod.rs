//! MCP servers (reference §17): where they are defined (`goclaw mcp add`, kept in the store with
//! secret env values and headers sealed by [`crate::secrets`], or `[mcp.servers.NAME]` in
//! config), who may use them (agent and user grants with tool allow/deny lists, and access
//! requests a reviewer approves or rejects), and the bridged tool names. Connecting to them is
//! [`client`] (a connection, every message it receives bounded: [`bounded`], [`http`],
//! [`paging`], [`server_requests`]) and [`pool`] (connections kept for a run); serving
//! goclaw's own tools is [`serve`].

use std::collections::BTreeMap;

use crate::db_params;
use crate::store::db::Db;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::secrets::SecretKey;

pub mod access;
pub mod bounded;
pub mod bridge;
pub mod client;
pub mod failure;
pub mod http;
pub mod paging;
pub mod pool;
pub mod serve;
pub mod server_requests;
pub mod sse;
mod stdio;

pub use access::{
    Grant, NewGrant, NewRequest, Request, Scope, ToolFilter, access_for, grant, grants, request,
    requests, review, revoke,
};

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

use crate::store::now_ms as now;

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
pub fn add(db: Db<'_>, key: &SecretKey, s: &NewServer, config: &McpConfig) -> Result<Server> {
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
    let n = db
        .execute(
            "INSERT INTO mcp_servers (name, transport, command, args, url, env_sealed, headers_sealed, env_keys, header_keys,
                                      tool_prefix, timeout_secs, access, enabled, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14) ON CONFLICT (name) DO NOTHING",
            db_params![
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
        )?;
    if n == 0 {
        return Err(Error::conflict(format!(
            "server `{}` already exists",
            s.name
        )));
    }
    get(db, config, &s.name)
}

/// Every server: the store's, then config's.
pub fn list(db: Db<'_>, config: &McpConfig) -> Result<Vec<Server>> {
    let mut out: Vec<Server> = db.query_map(
        "SELECT name, transport, command, args, url, env_keys, header_keys, tool_prefix, timeout_secs, access, enabled
         FROM mcp_servers ORDER BY name",
        &[],
        |r| {
            let args: String = r.get(3)?;
            let ek: String = r.get(5)?;
            let hk: String = r.get(6)?;
            let name: String = r.get(0)?;
            let prefix: String = r.get(7)?;
            Ok(Server {
                tool_prefix: effective_prefix(&name, &prefix),
                name,
                source: "store",
                transport: Transport::parse(&r.get::<String>(1)?),
                command: r.get(2)?,
                args: serde_json::from_str(&args).unwrap_or_default(),
                url: r.get(4)?,
                env_keys: serde_json::from_str(&ek).unwrap_or_default(),
                header_keys: serde_json::from_str(&hk).unwrap_or_default(),
                prefix,
                timeout_secs: r.get::<i64>(8)?.max(1) as u64,
                access: if r.get::<String>(9)? == "granted" {
                    Access::Granted
                } else {
                    Access::Open
                },
                enabled: r.get(10)?,
            })
        },
    )?;
    out.extend(config_servers(config));
    Ok(out)
}

/// The servers `[mcp.servers]` of config.toml defines (what `list` adds to the store's).
pub fn config_servers(config: &McpConfig) -> Vec<Server> {
    let mut out = Vec::new();
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
    out
}

/// One server by name.
pub fn get(db: Db<'_>, config: &McpConfig, name: &str) -> Result<Server> {
    list(db, config)?
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| {
            Error::not_found(format!("no MCP server `{name}`"))
                .with_hint("`goclaw mcp list` shows them")
        })
}

/// The store id of a server added with `mcp add` (config servers have none).
fn store_id(db: Db<'_>, config: &McpConfig, name: &str) -> Result<i64> {
    let id: Option<i64> = db.query_opt(
        "SELECT id FROM mcp_servers WHERE name = ?1",
        db_params![name],
        |r| r.get(0),
    )?;
    match id {
        Some(id) => Ok(id),
        None if config.servers.contains_key(name) => Err(Error::conflict(format!(
            "server `{name}` is defined in config; change it there"
        ))),
        None => Err(Error::not_found(format!("no MCP server `{name}`"))),
    }
}

/// Removes a server (and its grants and requests).
pub fn remove(db: Db<'_>, config: &McpConfig, name: &str) -> Result<()> {
    let id = store_id(db, config, name)?;
    db.execute("DELETE FROM mcp_servers WHERE id = ?1", db_params![id])
        .map(|_| ())
}

/// Enables or disables a server.
pub fn set_enabled(db: Db<'_>, config: &McpConfig, name: &str, enabled: bool) -> Result<Server> {
    let id = store_id(db, config, name)?;
    db.execute(
        "UPDATE mcp_servers SET enabled = ?2, updated_at = ?3 WHERE id = ?1",
        db_params![id, enabled, now()],
    )?;
    get(db, config, name)
}

/// The decrypted env values and headers of a stored server (for connecting; never printed).
pub fn secrets(
    db: Db<'_>,
    key: &SecretKey,
    name: &str,
) -> Result<(BTreeMap<String, String>, BTreeMap<String, String>)> {
    type Sealed = (Option<Vec<u8>>, Option<Vec<u8>>);
    let (env, headers): Sealed = db
        .query_opt(
            "SELECT env_sealed, headers_sealed FROM mcp_servers WHERE name = ?1",
            db_params![name],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?
        .ok_or_else(|| Error::not_found(format!("no MCP server `{name}` in the store")))?;
    let open = |b: Option<Vec<u8>>| crate::secrets::open_map(key, b.as_deref());
    Ok((open(env)?, open(headers)?))
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
