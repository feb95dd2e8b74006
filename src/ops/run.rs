//! A run's assembly: the agent (from `[agents.KEY]`, or `default`), its provider resolved and a
//! client made, the toolbox of the caller with every MCP server it may use bridged and watched,
//! and the [`Runner`] wired over them. `goclaw run` turns flags into [`RunOptions`]; a subagent
//! or a team member builds its run the same way.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::Note;
use super::toolbox::{Bridge, Caller, GateOptions, Toolbox};
use crate::agent::config::AgentConfig;
use crate::agent::{Cancel, Runner};
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::providers::{self, Client};
use crate::store::Store;
use crate::text::guard::GuardMode;
use crate::tools::ask::SharedAsker;
use crate::tools::config::unknown_agent;
use crate::tools::gate::{Ceiling, Gate, Prompter};

/// What a run is for and with what, beside its message.
#[derive(Debug, Clone, Default)]
pub struct RunOptions<'a> {
    /// The agent (`None`: `default`, whether or not config defines it).
    pub agent: Option<&'a str>,
    pub user: Option<&'a str>,
    /// The provider (default: the agent's, then the first one configured or in the
    /// environment).
    pub provider: Option<&'a str>,
    /// Save every LLM exchange to this file, for `--provider replay:FILE`.
    pub record: Option<&'a Path>,
    /// Only these tools, within what the policy allows (`--allow-tools`, a job's ceiling).
    pub allow_tools: Option<&'a [String]>,
    /// And at most these subagent limits (a spawned child's parent's), with `allow_tools`.
    pub subagent_limits: Option<crate::subagents::Limits>,
    /// When connecting to the MCP servers gives up: the run's deadline and its signals.
    pub stop: crate::tools::StopWhen,
}

/// The parts of a run, ready to be wired.
pub struct RunKit {
    /// The agent's key (`default` when none was named).
    pub agent_key: String,
    agent: Option<AgentConfig>,
    client: Client,
    toolbox: Toolbox,
    ceiling: Option<Ceiling>,
    guard_mode: GuardMode,
    max_message_chars: usize,
    busy_timeout: Duration,
    /// The run's workspace, when it is not the agent's (a team workspace).
    workspace: Option<std::path::PathBuf>,
    /// What the assembly has to say (an endpoint variable the config overrides).
    notes: Vec<Note>,
}

/// The provider a run of `agent` talks to: the one asked for, else the agent's, else the
/// default one (`[providers.default]`, the first configured, or the environment's).
pub fn provider_name(
    settings: &Settings,
    agent: Option<&AgentConfig>,
    asked: Option<&str>,
) -> Result<String> {
    match asked
        .map(str::to_string)
        .or(agent.and_then(|c| c.provider.clone()))
    {
        Some(p) => Ok(p),
        None => providers::default_name(&settings.config.providers, &|k| std::env::var(k).ok()),
    }
}

/// The provider and model a run of `agent` uses when the command line names neither (`None`
/// where there is none): [`provider_name`], and the agent's model, else that provider's.
pub fn provider_and_model(
    settings: &Settings,
    agent: &AgentConfig,
) -> (Option<String>, Option<String>) {
    let provider = provider_name(settings, Some(agent), None).ok();
    let model = agent.model.clone().or_else(|| {
        let env = |k: &str| std::env::var(k).ok();
        providers::resolve(&settings.config.providers, provider.as_deref()?, &env)
            .ok()?
            .config
            .model
    });
    (provider, model)
}

impl RunKit {
    /// Resolves the agent and its provider and opens the caller's toolbox.
    pub fn open(settings: &Settings, store: &Store, o: RunOptions<'_>) -> Result<RunKit> {
        let config = &settings.config;
        let agent = match o.agent {
            Some(k) => Some(config.agents.get(k).ok_or_else(|| unknown_agent(k))?),
            None => config.agents.get("default"),
        };
        let env = |k: &str| std::env::var(k).ok();
        let provider = provider_name(settings, agent, o.provider)?;
        let resolved = providers::resolve(&config.providers, &provider, &env)?;
        let mut notes = Vec::new();
        if let Some(var) = resolved.overridden_env {
            notes.push(Note::Warn(format!(
                "{var} is set but provider `{}` has base_url = \"{}\" in config, which wins \
                 (a configured provider's own address; unset {var} or change [providers.{}] base_url)",
                resolved.name, resolved.base_url, resolved.name
            )));
        }
        notes.push(Note::Detail(format!(
            "provider {} ({}) at {}{}",
            resolved.name,
            resolved.config.kind,
            resolved.base_url,
            if resolved.api_key.is_some() {
                ", key set"
            } else {
                ", no key"
            }
        )));
        let client = Client::new(resolved, o.record)?;
        let caller = Caller {
            agent: o.agent,
            user: o.user,
        };
        let toolbox = Toolbox::open(settings, store, caller, Bridge::Watched, o.stop)?;
        let ceiling = o.allow_tools.map(|list| Ceiling {
            tools: list
                .iter()
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
                .collect(),
            why: "--allow-tools".into(),
            subagents: o.subagent_limits,
        });
        Ok(RunKit {
            agent_key: o.agent.unwrap_or("default").to_string(),
            guard_mode: agent.and_then(|c| c.guard).unwrap_or(config.guard.mode),
            agent: agent.cloned(),
            client,
            toolbox,
            ceiling,
            max_message_chars: config.guard.max_message_chars,
            busy_timeout: config.store.busy_timeout(),
            workspace: None,
            notes,
        })
    }

    /// What the person running it should hear of the assembly; taken once.
    pub fn take_notes(&mut self) -> Vec<Note> {
        let mut notes = std::mem::take(&mut self.notes);
        notes.extend(self.toolbox.take_notes());
        notes
    }

    /// Every call of the run works in `dir` (created when missing), whatever the agent's
    /// `workspace` says: a team run's workspace.
    pub fn pin_workspace(&mut self, dir: std::path::PathBuf) -> Result<()> {
        std::fs::create_dir_all(&dir).map_err(|e| {
            Error::failed(format!(
                "cannot create the workspace {}: {e}",
                dir.display()
            ))
        })?;
        self.workspace = Some(dir);
        Ok(())
    }

    /// The run's gate: the caller's tools under the run's ceiling; `ask_user` asks `asker`.
    pub fn gate(&self, asker: Option<SharedAsker>) -> Gate<'_> {
        self.toolbox.gate(GateOptions {
            ceiling: self.ceiling.clone(),
            asker,
            workspace: self.workspace.clone(),
        })
    }

    /// The runner over `gate` (from [`RunKit::gate`]) and `store`.
    pub fn runner<'a>(
        &'a self,
        gate: &'a Gate<'a>,
        store: &'a mut Store,
        prompter: Option<&'a dyn Prompter>,
        cancel: Arc<Cancel>,
        rt: &'a tokio::runtime::Runtime,
    ) -> Runner<'a> {
        Runner {
            gate,
            store,
            busy_timeout: self.busy_timeout,
            client: &self.client,
            agent_key: &self.agent_key,
            agent: self.agent.as_ref(),
            guard_mode: self.guard_mode,
            max_message_chars: self.max_message_chars,
            prompter,
            cancel,
            rt,
        }
    }
}

/// The async runtime a run's provider calls use: one worker thread.
pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| Error::internal(format!("cannot start the async runtime: {e}")))
}
