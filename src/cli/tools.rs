//! `goclaw tools`: list and describe the tools, run one through the gate exactly as an agent
//! would, and read the audit trail.

use clap::{Args, Subcommand};
use serde::Serialize;

use super::input::Input;
use super::shared::{PageArgs, check_agents, toolbox};
use super::tool_call::{ToolName, exec};
use super::{Context, Status, table};
use crate::error::{Error, Result};
use crate::ops::toolbox::{Bridge, Caller, GateOptions};
use crate::store::page::Page;
use crate::tools::gate::audit::{self, HistoryFilter};
use crate::tools::{Registry, groups_of};

// List, describe and run tools; read the audit trail.
#[derive(Debug, Args)]
pub struct ToolsArgs {
    #[command(subcommand)]
    pub command: ToolsCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum ToolsCommand {
    /// The tools an agent may use: name, groups, risk, allowed
    List {
        /// The agent whose policy applies (a key of [agents] in config)
        #[arg(
            long,
            env = super::shared::env_unless_empty("GOCLAW_AGENT"),
            value_parser = super::shared::non_empty(),
            hide_env_values = true,
        )]
        agent: Option<String>,
        /// Show the tools the policy removes too
        #[arg(long)]
        all: bool,
        /// Also connect to the MCP servers the agent may use and list their tools
        #[arg(long)]
        mcp: bool,
    },
    /// A tool's description and JSON schema
    Describe {
        /// The tool (or an alias such as bash, edit_file; an MCP tool `mcp_SERVER__TOOL` connects
        /// to its server)
        #[arg(value_parser = ToolName, hide_possible_values = true)]
        name: String,
    },
    /// Run a tool through the gate: policy → rate limit → approval → execution → scrubbing → audit
    #[command(after_help = "Examples:\n  \
        goclaw tools exec read_file '{\"path\":\"README.md\"}'\n  \
        goclaw tools exec exec '{\"command\":\"cargo test\"}' --agent builder --session ci\n  \
        goclaw tools exec exec --dry-run '{\"command\":\"rm -rf build\"}'   # denied: exit 3\n\n\
        Exit codes: 0 ok, 1 the tool returned an error, 2 arguments break the schema, 3 denied,\n\
        4 rate limited, 5 unknown tool or agent, 7 the command timed out.")]
    Exec(super::tool_call::ExecArgs),
    /// Register a custom tool from its JSON definition (a file, or - for stdin)
    #[command(
        after_help = "The definition (GoClaw's custom tool format), plus optional \"env\" and \"agent\":\n  \
        {\"name\": \"count\", \"description\": \"Count the lines of a file\",\n   \
        \"parameters\": {\"type\": \"object\", \"properties\": {\"path\": {\"type\": \"string\"}}, \"required\": [\"path\"]},\n   \
        \"command\": \"wc -l {{.path}}\", \"timeout_seconds\": 10}\n\n\
        Every {{.key}} becomes the argument's value in single quotes; the rendered command meets the exec\n\
        deny groups (a command running dig or nmap is refused, as exec would be) and runs with sh -c in\n\
        the exec sandbox. env values are sealed in the store."
    )]
    Add {
        /// The definition: a JSON file, or - for stdin
        input: String,
        /// Only for this agent (overrides "agent" in the definition)
        #[arg(long, value_parser = super::shared::non_empty())]
        agent: Option<String>,
    },
    /// Remove a custom tool
    Rm {
        name: String,
        /// The agent's own tool instead of the global one
        #[arg(long, value_parser = super::shared::non_empty())]
        agent: Option<String>,
    },
    /// Custom tools: list
    Custom {
        #[command(subcommand)]
        command: CustomCommand,
    },
    /// The audit trail: recent calls, newest first
    History {
        #[command(flatten)]
        page: PageArgs,
        #[arg(long)]
        tool: Option<String>,
        #[arg(long, value_parser = super::shared::non_empty())]
        session: Option<String>,
        #[arg(long, value_parser = super::shared::non_empty())]
        agent: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum CustomCommand {
    /// The registered custom tools (variable names, never values)
    List,
}

#[derive(Serialize)]
struct ListRow<'a> {
    name: &'a str,
    groups: Vec<&'static str>,
    risk: crate::tools::Risk,
    allowed: bool,
}

pub fn run(ctx: &Context, args: ToolsArgs) -> Result<Status> {
    match args.command {
        ToolsCommand::List { agent, all, mcp } => exec_list(ctx, agent.as_deref(), all, mcp)?,
        ToolsCommand::Describe { name } => exec_describe(ctx, &name)?,
        ToolsCommand::Exec(a) => return exec(ctx, a),
        ToolsCommand::Add { input, agent } => add_custom(ctx, &input, agent)?,
        ToolsCommand::Rm { name, agent } => exec_rm(ctx, &name, agent.as_deref())?,
        ToolsCommand::Custom {
            command: CustomCommand::List,
        } => exec_custom_list(ctx)?,
        ToolsCommand::History {
            page,
            tool,
            session,
            agent,
        } => exec_history(
            ctx,
            &HistoryFilter {
                tool,
                session,
                agent,
                page: page.request(),
            },
        )?,
    }
    Ok(Status::Ok)
}

/// `tools list`: the tools `agent` may use (every tool with `all`; MCP tools too with `mcp`).
fn exec_list(ctx: &Context, agent: Option<&str>, all: bool, mcp: bool) -> Result<()> {
    let store = ctx.any_store()?;
    let caller = Caller { agent, user: None };
    let bridge = if mcp { Bridge::All } else { Bridge::None };
    let toolbox = toolbox(ctx, &store, caller, bridge, Default::default())?;
    let g = toolbox.gate(GateOptions::default());
    let allowed = g.allowed_tools(agent)?;
    let allowed: std::collections::HashSet<&str> = allowed.iter().map(String::as_str).collect();
    let registry = toolbox.registry();
    let rows: Vec<ListRow> = registry
        .names()
        .iter()
        .filter_map(|n| registry.get(n))
        .map(|t| ListRow {
            name: t.name(),
            groups: groups_of(t.name()),
            risk: t.risk(),
            allowed: allowed.contains(t.name()),
        })
        .filter(|r| all || r.allowed)
        .collect();
    table::page(
        ctx,
        &Page::whole(rows),
        &["TOOL", "RISK", "GROUPS", "ALLOWED"],
        |r| {
            [
                r.name.to_string(),
                format!("{:?}", r.risk).to_lowercase(),
                r.groups.join(","),
                if r.allowed { "yes" } else { "no" }.into(),
            ]
        },
    )
}

/// `tools describe`: a tool's description and JSON schema.
fn exec_describe(ctx: &Context, name: &str) -> Result<()> {
    // An MCP tool's server is connected, as for `tools exec` (it was an unknown tool).
    let toolbox = toolbox(
        ctx,
        &ctx.any_store()?,
        Caller::default(),
        Bridge::ToolOf(name),
        Default::default(),
    )?;
    let tool = toolbox
        .registry()
        .get(name)
        .ok_or_else(|| unknown_tool(name))?;
    let doc = serde_json::json!({
        "name": tool.name(), "description": tool.description(), "risk": tool.risk(),
        "groups": groups_of(tool.name()), "parameters": tool.parameters(),
    });
    ctx.out.data(&doc, |w| {
        writeln!(
            w,
            "{} ({:?}; groups: {})",
            tool.name(),
            tool.risk(),
            groups_of(tool.name()).join(", ")
        )?;
        writeln!(w, "{}\n", tool.description())?;
        writeln!(
            w,
            "{}",
            serde_json::to_string_pretty(&tool.parameters()).unwrap_or_default()
        )
    })
}

/// `tools rm`: removes a custom tool (the agent's own with `agent`).
fn exec_rm(ctx: &Context, name: &str, agent: Option<&str>) -> Result<()> {
    let store = ctx.any_store()?;
    if !crate::tools::custom::remove(store.db(), name, agent)? {
        return Err(Error::not_found(format!(
            "no custom tool named {name}{}",
            agent.map(|a| format!(" for agent {a}")).unwrap_or_default()
        ))
        .with_hint("`goclaw tools custom list` shows them"));
    }
    ctx.out
        .data(&serde_json::json!({"removed": name, "agent": agent}), |w| {
            writeln!(w, "removed {name}")
        })
}

/// `tools custom list`: the registered custom tools.
fn exec_custom_list(ctx: &Context) -> Result<()> {
    let store = ctx.any_store()?;
    let all = crate::tools::custom::list(store.db())?;
    table::page(
        ctx,
        &Page::whole(all),
        &["TOOL", "AGENT", "ENABLED", "COMMAND"],
        |t| {
            [
                t.definition.name.clone(),
                t.definition.agent.clone().unwrap_or_else(|| "*".into()),
                if t.definition.enabled { "yes" } else { "no" }.into(),
                t.definition.command.clone(),
            ]
        },
    )
}

/// `tools history`: the audit trail, newest first, one record a call.
fn exec_history(ctx: &Context, filter: &HistoryFilter) -> Result<()> {
    let store = ctx.any_store()?;
    let page = audit::history(&store, filter)?;
    table::page(
        ctx,
        &page,
        &["ID", "AT", "TOOL", "OUTCOME", "MS", "ARGUMENTS"],
        |row| {
            [
                row.id.to_string(),
                super::human::time(row.at),
                row.tool.clone(),
                row.outcome.clone(),
                row.duration_ms.to_string(),
                row.arguments.to_string(),
            ]
        },
    )
}

fn unknown_tool(name: &str) -> Error {
    Error::not_found(format!("unknown tool: {name}"))
        .with_hint("`goclaw tools list --all` lists every tool")
}

/// `tools add`: reads, checks and stores a custom tool's definition.
fn add_custom(ctx: &Context, input: &str, agent: Option<String>) -> Result<()> {
    // A path, `-` for stdin, or (for scripts) the JSON itself or @PATH.
    let source = if input == "-" || input.starts_with('{') || input.starts_with('@') {
        Input::parse(Some(input))
    } else {
        Input::File(input.into())
    };
    let doc = source.read_json(ctx)?;
    let mut def: crate::tools::custom::Definition = serde_json::from_value(doc)
        .map_err(|e| Error::usage(format!("invalid custom tool definition: {e}")))?;
    if agent.is_some() {
        def.agent = agent;
    }
    if let Some(a) = &def.agent {
        check_agents(ctx, [a])?;
    }
    crate::tools::custom::validate(&def, &Registry::builtin().names())?;
    if let Some(denial) = crate::tools::custom::denied_as_written(&def) {
        // Stored all the same (arguments may change what matched), but said at once rather
        // than at the first call.
        ctx.out.warn(&format!(
            "{}: its command meets the exec deny group `{}` as written, so calls will be \
             refused ({}); custom tools cannot turn deny groups off",
            def.name, denial.group, denial.message
        ));
    }
    let store = ctx.any_store()?;
    let key = crate::secrets::SecretKey::load(&ctx.settings()?.store_dir())?;
    crate::tools::custom::add(store.db(), &key, &def)?;
    ctx.out.data(&def, |w| {
        writeln!(
            w,
            "added {}{}",
            def.name,
            def.agent
                .as_ref()
                .map(|a| format!(" for agent {a}"))
                .unwrap_or_default()
        )
    })
}
