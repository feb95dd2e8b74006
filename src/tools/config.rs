//! The tools' settings: `[tools]` (policy, rate limit, scrubbing, and each tool's own table)
//! and `[agents.KEY.tools]`, plus [`AgentProfile`], what the gate needs to know of an agent.
//! The policy pipeline reads these through [`PolicySpec`] views.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::policy::{PolicySpec, ProviderSpec};

/// `[tools]`: the global policy and tool settings.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ToolsConfig {
    /// `full | coding | messaging | minimal`; empty (the default) means full, as in the original.
    pub profile: String,
    pub allow: Vec<String>,
    pub deny: Vec<String>,
    pub also_allow: Vec<String>,
    /// Calls per hour per session key; 0 turns the limiter off.
    pub rate_limit_per_hour: u32,
    /// Scrub credentials from every tool result.
    pub scrub_credentials: bool,
    /// Per-provider profile and allow list.
    pub by_provider: BTreeMap<String, ProviderSpec>,
    /// Directory names inside the workspace that file tools refuse and hide.
    pub denied_paths: Vec<String>,
    /// `[tools.exec]`.
    pub exec: super::exec::ExecConfig,
    /// `[tools.web]`: web_fetch's guard and limits, web_search's provider.
    pub web: super::web::WebConfig,
    /// `[tools.ask_user]`: the fallback answer and the wait.
    pub ask_user: super::ask::AskConfig,
    /// Calls at this risk or above (seed 004's levels: `safe`, `medium`, `dangerous`,
    /// `destructive`) go through approval as an `exec` command off the allowlist does: a
    /// prompt on a terminal, `--on-ask` without one. Unset (the default): risk asks nothing.
    pub ask_risk: Option<super::Risk>,
    /// More bridged MCP tools than this, and a run lists none of them: the model finds them
    /// with `mcp_tool_search` (40, as in the original; 0: never).
    pub mcp_search_threshold: usize,
}

impl Default for ToolsConfig {
    fn default() -> Self {
        ToolsConfig {
            // The original's default: an empty profile, i.e. every registered tool.
            profile: String::new(),
            allow: Vec::new(),
            deny: Vec::new(),
            also_allow: Vec::new(),
            rate_limit_per_hour: 0,
            scrub_credentials: true,
            by_provider: BTreeMap::new(),
            denied_paths: vec![".goclaw".into()],
            exec: Default::default(),
            web: Default::default(),
            ask_user: Default::default(),
            ask_risk: None,
            mcp_search_threshold: 40,
        }
    }
}

impl ToolsConfig {
    /// What the policy pipeline reads of `[tools]`.
    pub fn policy(&self) -> PolicySpec<'_> {
        PolicySpec {
            profile: &self.profile,
            allow: &self.allow,
            deny: &self.deny,
            also_allow: &self.also_allow,
            by_provider: Some(&self.by_provider),
        }
    }
}

/// `[agents.KEY.tools]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AgentToolsSpec {
    pub profile: String,
    pub allow: Vec<String>,
    pub deny: Vec<String>,
    pub also_allow: Vec<String>,
    pub by_provider: BTreeMap<String, ProviderSpec>,
    /// `[agents.KEY.tools.exec]`: overrides of `[tools.exec]` for this agent.
    pub exec: super::exec::ExecOverrides,
}

impl AgentToolsSpec {
    /// What the policy pipeline reads of `[agents.KEY.tools]`.
    pub fn policy(&self) -> PolicySpec<'_> {
        PolicySpec {
            profile: &self.profile,
            allow: &self.allow,
            deny: &self.deny,
            also_allow: &self.also_allow,
            by_provider: Some(&self.by_provider),
        }
    }
}

/// What the gate needs to know of an agent defined in config (`[agents.KEY]`): its tool
/// settings, its workspace and whether its context files are shared.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AgentProfile {
    /// Its key in config (`[agents.KEY]`), which the policy's steps name.
    pub key: String,
    pub tools: AgentToolsSpec,
    /// The workspace its tools work in, relative to the command's (default: the command's).
    pub workspace: Option<PathBuf>,
    /// A `predefined` agent: context files shared by every user, except USER.md.
    pub predefined: bool,
    /// `[agents.KEY.subagents]`: the limits on the children its runs spawn.
    pub subagents: crate::subagents::Limits,
}

/// The error for an agent key config does not define (exit 5).
pub fn unknown_agent(key: &str) -> crate::error::Error {
    crate::error::Error::not_found(format!("unknown agent `{key}`"))
        .with_hint("agents are the [agents.KEY] tables of config.toml")
}
