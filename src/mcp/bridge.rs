//! MCP tools in goclaw's registry (§17): a server's tool `T` becomes `mcp_<server>__T` (or the
//! server's prefix), with its schema converted and its successful results wrapped as untrusted
//! content. Tools are found lazily: only the servers a command names are connected. Grants
//! decide which agents see a server and which of its tools.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use rusqlite::Connection;
use serde_json::{Map, Value};

use super::client;
use super::{McpConfig, Server, ToolFilter};
use crate::error::{Error, Result};
use crate::secrets::SecretKey;
use crate::tools::{CallContext, Risk, Tool, ToolResult};

/// One MCP server tool, bridged.
pub struct McpTool {
    pub server: Server,
    pub tool: String,
    pub registered: &'static str,
    description: &'static str,
    schema: Value,
    env: BTreeMap<String, String>,
    headers: BTreeMap<String, String>,
}

impl Tool for McpTool {
    fn name(&self) -> &'static str {
        self.registered
    }
    fn description(&self) -> &'static str {
        self.description
    }
    fn parameters(&self) -> Value {
        self.schema.clone()
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn execute(&self, _ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        let run = || -> Result<ToolResult> {
            let session = client::connect(
                &self.server,
                &self.env,
                &self.headers,
                client::connect_timeout(&self.server),
            )?;
            let out = session.call(
                self.registered,
                &self.tool,
                args.clone(),
                Duration::from_secs(self.server.timeout_secs),
            )?;
            if out.is_error {
                let mut r = ToolResult::error(out.text);
                r.error_kind = Some(crate::error::ErrorKind::Failed);
                return Ok(r);
            }
            Ok(ToolResult::text(client::wrap_untrusted(
                &self.server.name,
                &self.tool,
                &out.text,
            )))
        };
        run().unwrap_or_else(|e| ToolResult::from_error(&e))
    }
}

/// A server's env values and headers.
pub type Secrets = (BTreeMap<String, String>, BTreeMap<String, String>);

/// The env a server is started with and the headers it is sent: config's, or the store's
/// sealed ones.
pub fn server_secrets(
    conn: &Connection,
    config: &McpConfig,
    key_dir: &Path,
    server: &Server,
) -> Result<Secrets> {
    if server.source == "config" {
        return Ok(config
            .servers
            .get(&server.name)
            .map(|c| (c.env.clone(), c.headers.clone()))
            .unwrap_or_default());
    }
    if server.env_keys.is_empty() && server.header_keys.is_empty() {
        return Ok(Default::default());
    }
    let key = SecretKey::load(key_dir)?;
    super::secrets(conn, &key, &server.name)
}

/// Every tool of `server` as bridged tools, filtered by `filter`. Names already taken are
/// skipped (the caller reports them).
pub fn tools_of(
    server: &Server,
    (env, headers): Secrets,
    filter: &ToolFilter,
) -> Result<Vec<McpTool>> {
    let session = client::connect(server, &env, &headers, client::connect_timeout(server))?;
    let listed = session.list_tools(Duration::from_secs(server.timeout_secs))?;
    let mut out = Vec::new();
    for t in listed {
        let Some(name) = t.get("name").and_then(Value::as_str) else {
            continue;
        };
        if !filter.allows(name) {
            continue;
        }
        let registered = super::tool_name(&server.name, &server.prefix, name);
        let description = t
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        out.push(McpTool {
            server: server.clone(),
            tool: name.to_string(),
            // Tool names live as long as the process; a command bridges a handful at most.
            registered: String::leak(registered),
            description: String::leak(description),
            schema: client::convert_schema(t.get("inputSchema").unwrap_or(&Value::Null)),
            env: env.clone(),
            headers: headers.clone(),
        });
    }
    Ok(out)
}

/// The server whose bridged names start like `registered`, if any.
pub fn server_for<'a>(servers: &'a [Server], registered: &str) -> Option<&'a Server> {
    servers.iter().find(|s| {
        registered.starts_with(&format!(
            "{}__",
            super::effective_prefix(&s.name, &s.prefix)
        ))
    })
}

/// Why a server is refused to an agent, when it is.
pub fn refusal(server: &Server, agent: Option<&str>) -> Error {
    if !server.enabled {
        return Error::denied(format!("MCP server `{}` is disabled", server.name));
    }
    Error::denied(format!(
        "MCP server `{}` is not available to {}: it needs a grant (`goclaw mcp grant {} --agent KEY`)",
        server.name,
        agent
            .map(|a| format!("agent `{a}`"))
            .unwrap_or_else(|| "callers without an agent".into()),
        server.name
    ))
}
