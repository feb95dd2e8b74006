//! A toolbox: the tool set a caller may reach (built-in tools, the custom tools its agent sees,
//! the MCP servers' tools bridged in) with everything a gate needs besides: the scrubber (which
//! also learns every secret handed to an MCP server), the embedder for memory, the skill roots
//! and the agents' profiles. It is the one place a [`Gate`] is built: `tools exec`, `tools list`,
//! `policy explain`, `run`, `mcp serve` and both kinds of cron job open a toolbox and ask it for
//! a gate.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::Note;
use super::scrubber::{self, ScrubExtras};
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::mcp::{self, bridge, pool::Pool};
use crate::memory::embed::Embedder;
use crate::policy::Groups;
use crate::store::{Store, StoreTarget};
use crate::text::scrub::Scrubber;
use crate::tools::ask::SharedAsker;
use crate::tools::config::{AgentProfile, ToolsConfig};
use crate::tools::gate::{Ceiling, Gate, GateParts};
use crate::tools::{Registry, StopWhen};

/// Who the calls are made for: the agent whose policy, custom tools and MCP grants apply, and
/// the user (user grants of MCP servers).
#[derive(Debug, Clone, Copy, Default)]
pub struct Caller<'a> {
    pub agent: Option<&'a str>,
    pub user: Option<&'a str>,
}

/// Which MCP servers' tools to bring in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bridge<'a> {
    /// None: built-in and custom tools only.
    None,
    /// The server of this tool name (`mcp_SERVER__TOOL`), if it is one the caller may use: the
    /// one call of `tools exec` or a cron tool job.
    ToolOf(&'a str),
    /// Every server the caller may use (listings and explanations); a server that fails is
    /// noted and skipped.
    All,
    /// Every server, kept healthy for a long-lived command (`run`, `mcp serve`): health checks
    /// and reconnects.
    Watched,
}

/// What a gate adds to its toolbox.
#[derive(Default)]
pub struct GateOptions {
    /// Only these tools, whatever the policy says (a cron job's captured list, `--allow-tools`).
    pub ceiling: Option<Ceiling>,
    /// Who `ask_user` asks, when the call's caller can prompt.
    pub asker: Option<SharedAsker>,
    /// The workspace of every call, whatever the agent's `workspace` says (a team workspace).
    pub workspace: Option<std::path::PathBuf>,
}

/// The tool set and the gate's fixed parts, built once per command.
pub struct Toolbox {
    registry: Registry,
    groups: Groups,
    scrubber: Scrubber,
    /// Connections to the MCP servers whose tools are bridged into `registry`.
    mcp: Pool,
    tools: ToolsConfig,
    agents: BTreeMap<String, AgentProfile>,
    workspace: PathBuf,
    config_file: PathBuf,
    config_exists: bool,
    store: StoreTarget,
    key_dir: PathBuf,
    embedder: Option<Embedder>,
    providers: crate::tools::gate::Providers,
    channels: std::sync::Arc<crate::tools::message::Channels>,
    media: std::sync::Arc<crate::tools::media::MediaConfig>,
    skill_roots: Vec<PathBuf>,
    notes: Vec<Note>,
}

impl Toolbox {
    /// The toolbox of `caller`, with the MCP servers `bridge` names. Connecting to them, and
    /// every later wait on them outside a call, ends when `stop` says (the command's deadline
    /// and signals: a server that never answers cannot hold the command).
    pub fn open(
        settings: &Settings,
        store: &Store,
        caller: Caller<'_>,
        bridge: Bridge<'_>,
        stop: StopWhen,
    ) -> Result<Toolbox> {
        let mut notes = Vec::new();
        let config = &settings.config;
        for entry in crate::policy::unknown_groups(&config.policy_places()) {
            notes.push(Note::Warn(format!(
                "{entry} names no tool group: it selects no tool"
            )));
        }
        let mut registry = Registry::builtin();
        for tool in crate::tools::custom::for_agent(store.db(), caller.agent)? {
            if registry.get(&tool.definition.name).is_none() {
                registry.register(Box::new(tool));
            }
        }
        let scrubber = scrubber::build(settings, &ScrubExtras::default(), &mut notes)?;
        let mut toolbox = Toolbox {
            registry,
            groups: Groups::default(),
            scrubber,
            mcp: Pool::new(match bridge {
                // No server is started: what to hide from one is not looked up.
                Bridge::None => Vec::new(),
                Bridge::ToolOf(name) if !name.starts_with("mcp_") => Vec::new(),
                _ => settings.hidden_from_servers(),
            })
            .stopping_when(stop),
            tools: config.tools.clone(),
            agents: config.agent_profiles(),
            workspace: settings.workspace.clone(),
            config_file: settings.config_path.clone(),
            config_exists: settings.config_exists,
            store: settings.store_target(),
            key_dir: settings.store_dir(),
            embedder: embedder(settings)?,
            providers: std::sync::Arc::new(config.providers.clone()),
            channels: std::sync::Arc::new(channels(settings)?),
            media: std::sync::Arc::new(config.media.clone()),
            skill_roots: crate::skills::roots(
                &config.skills,
                &settings.workspace,
                settings.config_path.parent().unwrap_or(Path::new(".")),
            ),
            notes,
        };
        match bridge {
            Bridge::None => {}
            // The search looks at every server the caller may use.
            Bridge::ToolOf("mcp_tool_search") => toolbox.bridge_all(settings, store, caller)?,
            Bridge::ToolOf(name) => toolbox.bridge_server_of(settings, store, name, caller)?,
            Bridge::All => toolbox.bridge_all(settings, store, caller)?,
            Bridge::Watched => {
                toolbox.bridge_all(settings, store, caller)?;
                toolbox.mcp.watch(crate::mcp::pool::HEALTH_INTERVAL)?;
            }
        }
        Ok(toolbox)
    }

    /// A gate over this toolbox.
    pub fn gate(&self, options: GateOptions) -> Gate<'_> {
        Gate::new(GateParts {
            registry: &self.registry,
            tools: &self.tools,
            agents: &self.agents,
            groups: &self.groups,
            scrubber: &self.scrubber,
            pinned_workspace: options.workspace.is_some(),
            workspace: options.workspace.unwrap_or_else(|| self.workspace.clone()),
            config_file: self.config_file.clone(),
            config_exists: self.config_exists,
            store: self.store.clone(),
            key_dir: self.key_dir.clone(),
            embedder: self.embedder.clone(),
            providers: self.providers.clone(),
            channels: self.channels.clone(),
            media: self.media.clone(),
            asker: options.asker,
            skill_roots: self.skill_roots.clone(),
            ceiling: options.ceiling,
        })
    }

    /// Every tool in the box.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// What the person running the command should hear of the assembly (unknown groups, skipped
    /// MCP servers and tools, dropped scrub values); taken once.
    pub fn take_notes(&mut self) -> Vec<Note> {
        std::mem::take(&mut self.notes)
    }

    /// Brings the MCP tool `name` (and the rest of its server's tools) into the registry, when
    /// `name` belongs to a configured server the caller may use.
    fn bridge_server_of(
        &mut self,
        settings: &Settings,
        store: &Store,
        name: &str,
        caller: Caller<'_>,
    ) -> Result<()> {
        if !name.starts_with("mcp_") || self.registry.get(name).is_some() {
            return Ok(());
        }
        let servers = mcp::list(store.db(), &settings.config.mcp)?;
        let Some(server) = bridge::server_for(&servers, name) else {
            return Ok(()); // the gate reports an unknown tool
        };
        let filter = mcp::access_for(store.db(), server, caller.agent, caller.user)?
            .ok_or_else(|| bridge::refusal(server, caller.agent))?;
        let secrets = caller_secrets(settings, store, server, caller)?;
        self.scrub_given(&secrets)?;
        let link = self.mcp.link(server, secrets)?;
        let tools = bridge::tools_of(&link, &mcp::ToolFilter::default())?;
        if let Some(t) = tools.iter().find(|t| t.registered == name)
            && !filter.allows(&t.tool)
        {
            return Err(Error::denied(format!(
                "tool `{}` of MCP server `{}` is not granted to this agent",
                t.tool, server.name
            )));
        }
        let tools = tools
            .into_iter()
            .filter(|t| filter.allows(&t.tool))
            .collect();
        let names = self.register_server(&server.name, tools);
        self.groups.register("mcp", names);
        Ok(())
    }

    /// Bridges the tools of every enabled MCP server the caller may use. A server that fails
    /// is noted and skipped; the others still count.
    fn bridge_all(&mut self, settings: &Settings, store: &Store, caller: Caller<'_>) -> Result<()> {
        let mut links = Vec::new();
        for server in mcp::list(store.db(), &settings.config.mcp)? {
            let Some(filter) = mcp::access_for(store.db(), &server, caller.agent, caller.user)?
            else {
                continue;
            };
            let secrets = caller_secrets(settings, store, &server, caller)?;
            self.scrub_given(&secrets)?;
            links.push((self.mcp.link(&server, secrets)?, filter));
        }
        // Each server is connected and listed on its own thread, so a slow one holds up nobody.
        let listed: Vec<_> = std::thread::scope(|s| {
            let listing: Vec<_> = links
                .iter()
                .map(|(link, filter)| s.spawn(move || bridge::tools_of(link, filter)))
                .collect();
            listing
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(Error::internal("MCP listing thread panicked")))
                })
                .collect()
        });
        let mut all_names = Vec::new();
        for ((link, _), tools) in links.iter().zip(listed) {
            match tools {
                Ok(tools) => all_names.extend(self.register_server(&link.server.name, tools)),
                Err(e) => self.notes.push(Note::Warn(format!(
                    "MCP server `{}` skipped: {}",
                    link.server.name, e.message
                ))),
            }
        }
        if !all_names.is_empty() {
            self.groups.register("mcp", all_names);
        }
        Ok(())
    }

    /// Puts a server's bridged tools in the registry (skipping taken names, with a note) and
    /// registers the group `mcp:<server>`; returns the names registered.
    fn register_server(&mut self, server: &str, tools: Vec<bridge::McpTool>) -> Vec<String> {
        let mut names = Vec::new();
        for t in tools {
            if self.registry.get(&t.registered).is_some() {
                self.notes.push(Note::Warn(format!(
                    "MCP tool {} skipped: the name is taken",
                    t.registered
                )));
                continue;
            }
            names.push(t.registered.clone());
            self.registry.register(Box::new(t));
        }
        self.groups
            .register(&format!("mcp:{server}"), names.clone());
        names
    }

    /// What a server was given (env values, headers, a header's credential) must never come
    /// back through its results.
    fn scrub_given(&mut self, secrets: &bridge::Secrets) -> Result<()> {
        let given: Vec<Vec<u8>> = mcp::failure::Given::of(secrets)
            .values()
            .iter()
            .map(|v| v.as_bytes().to_vec())
            .collect();
        if !given.is_empty() {
            self.scrubber = self
                .scrubber
                .with_more_values(&given)
                .map_err(Error::internal)?;
        }
        Ok(())
    }
}

/// `[channels]`, checked, relative paths from the config file's directory.
pub fn channels(s: &Settings) -> Result<crate::tools::message::Channels> {
    let channels = crate::tools::message::Channels {
        channels: s.config.channels.clone(),
        base_dir: s
            .config_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
    };
    channels.validate()?;
    Ok(channels)
}

/// The embeddings endpoint of `[memory] embeddings`, resolved like a run's provider.
fn embedder(s: &Settings) -> Result<Option<Embedder>> {
    let memory = &s.config.memory;
    let Some(name) = &memory.embeddings else {
        return Ok(None);
    };
    let env = |k: &str| std::env::var(k).ok();
    let resolved = crate::providers::resolve(&s.config.providers, name, &env)
        .map_err(|e| Error::usage(format!("[memory] embeddings: {}", e.message)))?;
    if resolved.config.kind != crate::providers::Kind::Openai {
        return Err(Error::usage(format!(
            "[memory] embeddings: provider `{name}` is not OpenAI-compatible (kind = \"openai\")"
        )));
    }
    Ok(Some(Embedder {
        base_url: resolved.base_url,
        api_key: resolved.api_key,
        model: memory.embedding_model.clone(),
    }))
}

/// The env values and headers `caller` uses `server` with: the server's, and over them what
/// the caller's grants set.
fn caller_secrets(
    settings: &Settings,
    store: &Store,
    server: &mcp::Server,
    caller: Caller<'_>,
) -> Result<mcp::client::Secrets> {
    let key_dir = settings.store_dir();
    let mut secrets = bridge::server_secrets(store.db(), &settings.config.mcp, &key_dir, server)?;
    let own = mcp::access::grant_secrets(
        store.db(),
        &key_dir,
        &server.name,
        caller.agent,
        caller.user,
    )?;
    secrets.0.extend(own.0);
    secrets.1.extend(own.1);
    Ok(secrets)
}
