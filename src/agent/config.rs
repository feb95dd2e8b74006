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
    /// US dollars a run may spend, at its provider's `input_price` / `output_price`: a
    /// request that could take it past is not sent, and the run ends `limited` (exit 4).
    pub max_cost: Option<f64>,
    /// The input guard's mode for this agent (default `[guard] mode`).
    pub guard: Option<crate::text::guard::GuardMode>,
    /// User turns of history sent to the model; 0 = all (default 0).
    pub history_limit: Option<usize>,
    /// `[agents.KEY.compaction]`.
    pub compaction: CompactionConfig,
    /// `[agents.KEY.context_pruning]`: old tool results trimmed and cleared before a run
    /// (off by default).
    pub context_pruning: super::pruning::PruningConfig,
    /// `[agents.KEY.subagents]`: limits on the children its runs spawn.
    pub subagents: crate::subagents::Limits,
    /// `[[agents.KEY.quality_gates]]`: checks of every answer of its runs (seed §11).
    pub quality_gates: Vec<QualityGate>,
}

/// A quality gate (seed 001 §11): a check of a run's answer. A `command` runs in the workspace
/// through the exec tool (policy, sandbox, scrubbing): exit 0 passes, otherwise its output goes
/// back to the agent as revision feedback. An `agent` is a reviewer run that answers `APPROVED`
/// or `REJECTED: feedback`. After `max_retries` revisions that still fail, the run fails.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct QualityGate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// A JSON Schema the answer must be a JSON document valid against (`run --output-schema`).
    #[serde(skip)]
    pub schema: Option<serde_json::Value>,
    /// Revisions after the first failure (default 2).
    #[serde(default = "default_gate_retries")]
    pub max_retries: u32,
}

/// Revisions a quality gate allows by default (seed: `max_retries: 2`).
pub const DEFAULT_GATE_RETRIES: u32 = 2;

fn default_gate_retries() -> u32 {
    DEFAULT_GATE_RETRIES
}

impl AgentConfig {
    /// `predefined`: context files shared by every user, except USER.md.
    pub fn predefined(&self) -> bool {
        self.agent_type.as_deref() == Some("predefined")
    }

    /// What the gate needs of this agent, whose key in config is `key`.
    pub fn profile(&self, key: &str) -> AgentProfile {
        AgentProfile {
            key: key.to_string(),
            tools: self.tools.clone(),
            workspace: self.workspace.clone(),
            predefined: self.predefined(),
            subagents: self.subagents,
        }
    }
}
