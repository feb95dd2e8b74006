//! `goclaw agents`: the agents of config (`[agents.KEY]`, plus `default`) and their context
//! files in the store (SOUL.md, IDENTITY.md, AGENTS.md, TOOLS.md, USER.md, BOOTSTRAP.md,
//! HEARTBEAT.md), agent-level or per user.

use clap::{Args, Subcommand};
use serde_json::json;

use super::input::Input;
use super::{Context, Status, table};
use crate::agent::{self, config::AgentConfig};
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::memory::files;
use crate::store::page::Page;

// Agents and their context files
#[derive(Debug, Args)]
pub struct AgentsArgs {
    #[command(subcommand)]
    pub command: AgentsCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum AgentsCommand {
    /// Every agent: key, type, provider, model
    List,
    /// One agent's settings, with the defaults filled in, and its context files
    Show {
        /// The agent: a key of [agents] in config, or default
        agent: String,
    },
    /// Context files kept in the store
    #[command(subcommand)]
    Files(FilesCommand),
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum FilesCommand {
    /// List an agent's context files (agent-level and per user)
    Ls {
        /// The agent: a key of [agents] in config, or default
        agent: String,
        /// Only this user's and the agent-level files (default: every user's)
        #[arg(long, value_parser = super::shared::non_empty())]
        user: Option<String>,
    },
    /// Print a context file (the user's, else the agent-level one)
    Get {
        /// The agent: a key of [agents] in config, or default
        agent: String,
        /// The file: SOUL.md, IDENTITY.md, AGENTS.md, TOOLS.md, USER.md, BOOTSTRAP.md or
        /// HEARTBEAT.md
        name: String,
        /// This user's file when there is one, else the agent-level one
        #[arg(long, value_parser = super::shared::non_empty())]
        user: Option<String>,
    },
    /// Set a context file from stdin (or @FILE); an empty BOOTSTRAP.md deletes it
    Set {
        /// The agent: a key of [agents] in config, or default
        agent: String,
        /// The file: SOUL.md, IDENTITY.md, AGENTS.md, TOOLS.md, USER.md, BOOTSTRAP.md or
        /// HEARTBEAT.md
        name: String,
        /// The content: @FILE or - for stdin (default: stdin)
        content: Option<String>,
        /// Set this user's file, not the agent-level one (predefined agents: USER.md only)
        #[arg(long, value_parser = super::shared::non_empty())]
        user: Option<String>,
    },
}

fn check_agent(ctx: &Context, key: &str) -> Result<bool> {
    let agents = &ctx.settings()?.config.agents;
    match agents.get(key) {
        Some(a) => Ok(a.agent_type.as_deref() == Some("predefined")),
        None if key == "default" => Ok(false),
        None => Err(Error::not_found(format!("unknown agent `{key}`"))
            .with_hint("agents are the [agents.KEY] tables of config.toml (and `default`)")),
    }
}

fn check_name(name: &str) -> Result<&'static str> {
    files::CONTEXT_FILES
        .iter()
        .find(|n| **n == name)
        .copied()
        .ok_or_else(|| {
            Error::usage(format!(
                "`{name}` is not a context file: use one of {}",
                files::CONTEXT_FILES.join(", ")
            ))
        })
}

pub fn run(ctx: &Context, args: AgentsArgs) -> Result<Status> {
    let settings = ctx.settings()?;
    match args.command {
        AgentsCommand::List => exec_list(ctx, settings)?,
        AgentsCommand::Show { agent } => exec_show(ctx, settings, &agent)?,
        AgentsCommand::Files(FilesCommand::Ls { agent, user }) => {
            exec_files_ls(ctx, &agent, user.as_deref())?
        }
        AgentsCommand::Files(FilesCommand::Get { agent, name, user }) => {
            exec_files_get(ctx, &agent, &name, user.as_deref())?
        }
        AgentsCommand::Files(FilesCommand::Set {
            agent,
            name,
            content,
            user,
        }) => exec_files_set(ctx, &agent, &name, content.as_deref(), user.as_deref())?,
    }
    Ok(Status::Ok)
}

/// `agents list`: config's agents, and `default` first when config has none by that name;
/// the provider and model are those a run would use.
fn exec_list(ctx: &Context, settings: &Settings) -> Result<()> {
    let row = |key: &str, a: &AgentConfig, description: Option<&str>| {
        let (provider, model) = crate::ops::run::provider_and_model(settings, a);
        json!({"agent": key, "type": a.agent_type.clone().unwrap_or("open".into()),
               "provider": provider, "model": model, "description": description})
    };
    let mut rows: Vec<serde_json::Value> = settings
        .config
        .agents
        .iter()
        .map(|(k, a)| row(k, a, Some(a.description.as_str())))
        .collect();
    if !settings.config.agents.contains_key("default") {
        let default = AgentConfig::default();
        rows.insert(
            0,
            row(
                "default",
                &default,
                Some("the agent of runs without --agent"),
            ),
        );
    }
    let text = |v: &serde_json::Value| v.as_str().unwrap_or("-").to_string();
    table::page(
        ctx,
        &Page::whole(rows),
        &["AGENT", "TYPE", "PROVIDER", "MODEL"],
        |r| {
            [
                text(&r["agent"]),
                text(&r["type"]),
                text(&r["provider"]),
                text(&r["model"]),
            ]
        },
    )
}

/// `agents show`: the agent's settings with the defaults filled in, and its context files.
fn exec_show(ctx: &Context, settings: &Settings, key: &str) -> Result<()> {
    check_agent(ctx, key)?;
    let a = settings.config.agents.get(key).cloned().unwrap_or_default();
    let store = ctx.any_store()?;
    let (provider, model) = crate::ops::run::provider_and_model(settings, &a);
    let doc = json!({
        "agent": key,
        "type": a.agent_type.clone().unwrap_or("open".into()),
        "description": a.description,
        "provider": provider,
        "model": model,
        "workspace": a.workspace.clone().map(|w| settings.workspace.join(w)).unwrap_or(settings.workspace.clone()),
        "max_iterations": a.max_iterations.unwrap_or(agent::DEFAULT_MAX_ITERATIONS),
        "max_tool_calls": a.max_tool_calls.unwrap_or(agent::DEFAULT_MAX_TOOL_CALLS),
        "context_window": a.context_window.unwrap_or(agent::DEFAULT_CONTEXT_WINDOW),
        "max_tokens": a.max_tokens.unwrap_or(agent::DEFAULT_MAX_TOKENS),
        "temperature": a.temperature.unwrap_or(agent::DEFAULT_TEMPERATURE),
        "guard": a.guard.unwrap_or(settings.config.guard.mode),
        "history_limit": a.history_limit.unwrap_or(0),
        "tools": a.tools,
        "context_files": files::list_context(store.db(), key, None)?,
    });
    ctx.out.data(&doc, |w| {
        writeln!(
            w,
            "{}",
            super::human::fields(&serde_json::to_value(&doc).unwrap_or_default())
        )
    })
}

/// `agents files ls`.
fn exec_files_ls(ctx: &Context, agent: &str, user: Option<&str>) -> Result<()> {
    check_agent(ctx, agent)?;
    let store = ctx.any_store()?;
    let all = files::list_context(store.db(), agent, user)?;
    table::page(ctx, &Page::whole(all), &["FILE", "USER", "BYTES"], |f| {
        let who = f.user.as_deref().unwrap_or("(agent)");
        [f.name.clone(), who.to_string(), f.bytes.to_string()]
    })
}

/// `agents files get`: the user's file, else the agent-level one, as it is.
fn exec_files_get(ctx: &Context, agent: &str, name: &str, user: Option<&str>) -> Result<()> {
    let predefined = check_agent(ctx, agent)?;
    let name = check_name(name)?;
    let store = ctx.any_store()?;
    let owner = files::Owner {
        agent,
        predefined,
        user: user.unwrap_or(""),
    };
    let content = files::read_context(store.db(), &owner, name)?
        .ok_or_else(|| Error::not_found(format!("agent `{agent}` has no {name}")))?;
    // The file as it is, like `cat`; a JSON document only when --json asks for one.
    if ctx.json_flag {
        return ctx.out.record_json(&json!({
            "agent": agent,
            "name": name,
            "user": user,
            "content": content,
        }));
    }
    ctx.out.raw(content.as_bytes())
}

/// `agents files set`: the content from stdin or @FILE.
fn exec_files_set(
    ctx: &Context,
    agent: &str,
    name: &str,
    content: Option<&str>,
    user: Option<&str>,
) -> Result<()> {
    let predefined = check_agent(ctx, agent)?;
    let name = check_name(name)?;
    let input = Input::parse(content);
    if matches!(input, Input::Literal(_)) {
        return Err(Error::usage("give the content on stdin (-) or as @FILE"));
    }
    let text = String::from_utf8(input.read(ctx)?)
        .map_err(|_| Error::usage(format!("{name} must be UTF-8 text")))?;
    let store = ctx.any_store()?;
    let owner = files::Owner {
        agent,
        predefined,
        user: user.unwrap_or(""),
    };
    files::write_context(store.db(), &owner, name, &text)?;
    ctx.out.data(
        &json!({"agent": agent, "name": name, "user": user, "bytes": text.len()}),
        |w| writeln!(w, "set {name} of {agent} ({} bytes)", text.len()),
    )
}
