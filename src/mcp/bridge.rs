//! MCP tools in goclaw's registry (§17): a server's tool `T` becomes `mcp_<server>__T` (or the
//! server's prefix), with its schema converted and its successful results wrapped as untrusted
//! content. Tools are found lazily: only the servers a command names are connected. Grants
//! decide which agents see a server and which of its tools.

use std::path::Path;
use std::sync::Arc;

use crate::store::db::Db;
use serde_json::{Map, Value};

use super::client;
use super::pool::Link;
use super::{McpConfig, Server, ToolFilter};
use crate::error::{Error, Result};
use crate::secrets::SecretKey;
use crate::store::Store;
use crate::tools::{CallContext, Risk, Tool, ToolResult};

pub use super::client::Secrets;

/// One MCP server tool, bridged.
pub struct McpTool {
    link: Arc<Link>,
    pub tool: String,
    pub registered: String,
    description: String,
    schema: Value,
}

impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.registered
    }
    fn mcp_origin(&self) -> Option<(&str, &str)> {
        Some((&self.link.server.name, &self.tool))
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn parameters(&self) -> Value {
        self.schema.clone()
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        match self
            .link
            .call(&self.registered, &self.tool, args.clone(), &ctx.stop)
        {
            Err(e) => ToolResult::from_error(&e),
            Ok(out) if out.is_error => {
                let mut r = ToolResult::error(out.text);
                r.error_kind = Some(crate::error::ErrorKind::Failed);
                r
            }
            Ok(out) => ToolResult::text(client::wrap_untrusted(
                &self.link.server.name,
                &self.tool,
                &at_most(&out.text, MAX_RESULT_BYTES),
            )),
        }
    }
}

/// The most of a server's answer a model is given, as exec's output: a server that answers
/// 15 MB had all of it sent to the provider at every iteration after, and kept in the session.
pub const MAX_RESULT_BYTES: usize = 1 << 20;

/// `text` cut to at most `max` bytes where a cut may fall before the scrubber sees it
/// ([`crate::text::words::prefix_bytes`]: never inside a word), saying so when it was cut.
fn at_most(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if text.len() <= max {
        return text.into();
    }
    let kept = crate::text::words::prefix_bytes(text, max);
    format!(
        "{kept}\n[truncated: the server answered {} bytes; the first {} are above]",
        text.len(),
        kept.len()
    )
    .into()
}

/// The secrets of a server config.toml defines (in the file itself); none for another.
pub fn server_secrets_of_config(config: &McpConfig, server: &Server) -> Result<Secrets> {
    Ok(config
        .servers
        .get(&server.name)
        .filter(|_| server.source == "config")
        .map(|c| (c.env.clone(), c.headers.clone()))
        .unwrap_or_default())
}

/// The env a server is started with and the headers it is sent: config's, or the store's
/// sealed ones (opened with the existing key; none is ever made for them).
pub fn server_secrets(
    db: Db<'_>,
    config: &McpConfig,
    key_dir: &Path,
    server: &Server,
) -> Result<Secrets> {
    if server.source == "config" {
        return server_secrets_of_config(config, server);
    }
    if server.env_keys.is_empty() && server.header_keys.is_empty() {
        return Ok(Default::default());
    }
    let key = SecretKey::existing(key_dir)?;
    super::secrets(db, &key, &server.name)
}

/// Every tool of the server behind `link` as bridged tools, filtered by `filter`. Names
/// already taken are the caller's to skip and report.
pub fn tools_of(link: &Arc<Link>, filter: &ToolFilter) -> Result<Vec<McpTool>> {
    let server = &link.server;
    let mut out = Vec::new();
    for t in link.list_tools()? {
        let Some(name) = t.get("name").and_then(Value::as_str) else {
            continue;
        };
        let registered = super::tool_name(&server.name, &server.prefix, name);
        // A name no provider accepts would break every run that offers it: a hostile or careless
        // server's `../../etc/x` is not bridged.
        if !filter.allows(name) || !crate::tools::valid_tool_name(&registered) {
            continue;
        }
        out.push(McpTool {
            link: link.clone(),
            tool: name.to_string(),
            registered,
            description: t
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            schema: client::convert_schema(t.get("inputSchema").unwrap_or(&Value::Null)),
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

#[cfg(test)]
mod result_tests {
    use super::at_most;

    #[test]
    fn a_long_answer_is_cut_at_a_character_and_says_so() {
        assert_eq!(at_most("short", 10), "short");
        let cut = at_most("aé€😀tail", 4);
        assert!(
            cut.starts_with("aé\n[truncated: the server answered 14 bytes; the first 3"),
            "{cut}"
        );
    }
}
