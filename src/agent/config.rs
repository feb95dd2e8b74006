//! `[agents.KEY]`: an agent defined in config, its run settings and the parts other modules
//! read (its tools' settings, the gate's [`AgentProfile`]).

use serde::{Deserialize, Serialize};

use super::compaction::CompactionConfig;
use crate::tools::config::{AgentProfile, AgentToolsSpec};

/// `[agents.KEY]`: an agent defined in config. Unset run settings take the defaults of §16.8.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AgentConfig {
    pub description: String,
    pub tools: AgentToolsSpec,
    /// A key of `[providers]`, `openai`, `anthropic` or `replay:FILE` (default: see README).
    pub provider: Option<String>,
    pub model: Option<String>,
    /// `open` (context files per user) or `predefined` (shared, plus the user's USER.md).
    #[serde(rename = "type")]
    pub agent_type: Option<String>,
    /// The workspace its tools work in (default: the command's workspace).
    pub workspace: Option<std::path::PathBuf>,
    /// LLM iterations per run (default 30).
    pub max_iterations: Option<u32>,
    /// Tool calls per run; 0 = unlimited (default 25).
    pub max_tool_calls: Option<u32>,
    /// Tokens (default 200 000, or the provider's).
    pub context_window: Option<u64>,
    pub max_tokens: Option<u32>,
    pub temperature: Option<f64>,
    /// The input guard's mode for this agent (default `[guard] mode`).
    pub guard: Option<crate::text::guard::GuardMode>,
    /// User turns of history sent to the model; 0 = all (default 0).
    pub history_limit: Option<usize>,
    /// `[agents.KEY.compaction]`.
    pub compaction: CompactionConfig,
    /// `[agents.KEY.subagents]`: limits on the children its runs spawn.
    pub subagents: crate::subagents::Limits,
}

impl AgentConfig {
    /// `predefined`: context files shared by every user, except USER.md.
    pub fn predefined(&self) -> bool {
        self.agent_type.as_deref() == Some("predefined")
    }

    /// What the gate needs of this agent.
    pub fn profile(&self) -> AgentProfile {
        AgentProfile {
            tools: self.tools.clone(),
            workspace: self.workspace.clone(),
            predefined: self.predefined(),
            subagents: self.subagents,
        }
    }
}
