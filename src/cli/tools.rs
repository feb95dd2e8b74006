//! `goclaw tools`: list and describe the tools, run one through the gate exactly as an agent
//! would, and read the audit trail.

use std::io::{BufRead, IsTerminal, Write};

use clap::{Args, Subcommand};
use serde::Serialize;
use serde_json::Value;

use super::input::Input;
use super::{Context, Status};
use crate::error::{Error, Result};
use crate::policy::Groups;
use crate::store::sql_error;
use crate::text::scrub::Scrubber;
use crate::tools::exec::approvals::Subject;
use crate::tools::gate::{Answer, CallRequest, Gate, OnAsk, Prompter};
use crate::tools::{Registry, groups_of};

/// List, describe and run tools; read the audit trail.
#[derive(Debug, Args)]
pub struct ToolsArgs {
    #[command(subcommand)]
    pub command: ToolsCommand,
}

#[derive(Debug, Subcommand)]
pub enum ToolsCommand {
    /// The tools an agent may use: name, groups, risk, allowed
    List {
        /// The agent whose policy applies (a key of [agents] in config)
        #[arg(long, env = "GOCLAW_AGENT")]
        agent: Option<String>,
        /// Show the tools the policy removes too
        #[arg(long)]
        all: bool,
        /// Also connect to the MCP servers the agent may use and list their tools
        #[arg(long)]
        mcp: bool,
    },
    /// A tool's description and JSON schema
    Describe { name: String },
    /// Run a tool through the gate: policy → rate limit → approval → execution → scrubbing → audit
    #[command(after_help = "Examples:\n  \
        goclaw tools exec read_file '{\"path\":\"README.md\"}'\n  \
        goclaw tools exec exec '{\"command\":\"cargo test\"}' --agent builder --session ci\n  \
        goclaw tools exec exec --dry-run '{\"command\":\"rm -rf build\"}'\n\n\
        Exit codes: 0 ok, 1 the tool returned an error, 2 arguments break the schema, 3 denied,\n\
        4 rate limited, 5 unknown tool or agent, 7 the command timed out.")]
    Exec(ExecArgs),
    /// Register a custom tool from its JSON definition (a file, or - for stdin)
    #[command(
        after_help = "The definition (seed 000 §11), plus optional \"env\" and \"agent\":\n  \
        {\"name\": \"dns_lookup\", \"description\": \"Look up DNS records\",\n   \
        \"parameters\": {\"type\": \"object\", \"properties\": {\"domain\": {\"type\": \"string\"}}, \"required\": [\"domain\"]},\n   \
        \"command\": \"dig +short {{.domain}}\", \"timeout_seconds\": 10}\n\n\
        Every {{.key}} becomes the argument's value in single quotes; the rendered command meets the exec\n\
        deny groups and runs with sh -c in the exec sandbox. env values are sealed in the store."
    )]
    Add {
        /// The definition: a JSON file, or - for stdin
        input: String,
        /// Only for this agent (overrides "agent" in the definition)
        #[arg(long)]
        agent: Option<String>,
    },
    /// Remove a custom tool
    Rm {
        name: String,
        /// The agent's own tool instead of the global one
        #[arg(long)]
        agent: Option<String>,
    },
    /// Custom tools: list
    Custom {
        #[command(subcommand)]
        command: CustomCommand,
    },
    /// The audit trail: recent calls, newest first, as JSON Lines
    History {
        #[arg(long, default_value_t = 50)]
        limit: u32,
        #[arg(long)]
        tool: Option<String>,
        #[arg(long)]
        session: Option<String>,
        #[arg(long)]
        agent: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct ExecArgs {
    /// The tool (or an alias such as bash, edit_file)
    pub name: String,
    /// Arguments: a JSON object, @FILE, or - for stdin (default: {})
    pub args: Option<String>,
    #[command(flatten)]
    pub caller: CallerArgs,
    #[arg(long)]
    pub channel: Option<String>,
    #[arg(long)]
    pub chat_id: Option<String>,
    #[arg(long)]
    pub provider: Option<String>,
    /// Show what the gate would decide (and which sandbox would apply); run nothing
    #[arg(long)]
    pub dry_run: bool,
    /// When an approval is needed and there is no terminal: deny (exit 3), fail (exit 1), allow
    #[arg(long, value_enum, default_value_t = OnAsk::Deny)]
    pub on_ask: OnAsk,
}

#[derive(Debug, Subcommand)]
pub enum CustomCommand {
    /// The registered custom tools (variable names, never values)
    List,
}

/// Who a tool call is made for: the agent whose policy applies, the user, the session.
#[derive(Debug, Clone, Args)]
pub struct CallerArgs {
    /// The agent whose policy applies (a key of [agents] in config)
    #[arg(long, env = "GOCLAW_AGENT")]
    pub agent: Option<String>,
    /// The user: per-user context files and memory, user grants of MCP servers
    #[arg(long)]
    pub user: Option<String>,
    /// Session key: the conversation a run continues; rate limits count per session
    #[arg(long, env = "GOCLAW_SESSION")]
    pub session: Option<String>,
}

/// The gate's fixed parts, built once per command.
pub(crate) struct Parts {
    pub registry: Registry,
    pub groups: Groups,
    pub scrubber: Scrubber,
    /// Connections to the MCP servers whose tools are bridged into `registry`.
    pub mcp: crate::mcp::pool::Pool,
}

/// The gate's parts for calls made for `agent`: the built-in tools plus the custom tools that
/// agent sees.
pub(crate) fn parts(
    ctx: &Context,
    store: &crate::store::Store,
    agent: Option<&str>,
) -> Result<Parts> {
    let mut registry = Registry::builtin();
    for tool in crate::tools::custom::for_agent(store.conn(), agent)? {
        if registry.get(&tool.definition.name).is_none() {
            registry.register(Box::new(tool));
        }
    }
    Ok(Parts {
        registry,
        groups: Groups::default(),
        scrubber: super::scrub::build_scrubber(ctx, &Default::default())?,
        mcp: crate::mcp::pool::Pool::new(),
    })
}

/// The parts of a long-lived command (`run`, `mcp serve`): every MCP server the caller may
/// use bridged, and watched (health checks and reconnects).
pub(crate) fn watched_parts(
    ctx: &Context,
    store: &crate::store::Store,
    caller: &CallerArgs,
) -> Result<Parts> {
    let mut p = parts(ctx, store, caller.agent.as_deref())?;
    bridge_all_mcp(
        ctx,
        store,
        &mut p,
        caller.agent.as_deref(),
        caller.user.as_deref(),
    )?;
    p.mcp.watch(crate::mcp::pool::HEALTH_INTERVAL)?;
    Ok(p)
}

pub(crate) fn gate<'a>(ctx: &'a Context, p: &'a Parts) -> Result<Gate<'a>> {
    let s = ctx.settings()?;
    for entry in crate::policy::unknown_groups(&s.config.policy_places()) {
        ctx.out
            .warn(&format!("{entry} names no tool group: it selects no tool"));
    }
    Ok(Gate {
        registry: &p.registry,
        tools: &s.config.tools,
        agents: s.config.agent_profiles(),
        groups: &p.groups,
        scrubber: &p.scrubber,
        workspace: s.workspace.clone(),
        config_file: Some(s.config_path.clone()),
        store_path: s.db_path.clone(),
        embedder: embedder(s)?,
        asker: TerminalPrompter::available()
            .then(|| std::sync::Arc::new(TerminalPrompter) as crate::tools::ask::SharedAsker),
        skill_roots: crate::skills::roots(
            &s.config.skills,
            &s.workspace,
            s.config_path.parent().unwrap_or(std::path::Path::new(".")),
        ),
        ceiling: None,
        config_path: s.config_exists.then(|| s.config_path.clone()),
    })
}

/// The embeddings endpoint of `[memory] embeddings`, resolved like a run's provider.
fn embedder(s: &crate::config::Settings) -> Result<Option<crate::memory::embed::Embedder>> {
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
    Ok(Some(crate::memory::embed::Embedder {
        base_url: resolved.base_url,
        api_key: resolved.api_key,
        model: memory.embedding_model.clone(),
    }))
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
        ToolsCommand::List { agent, all, mcp } => {
            let store = ctx.store()?;
            let mut p = parts(ctx, &store, agent.as_deref())?;
            if mcp {
                bridge_all_mcp(ctx, &store, &mut p, agent.as_deref(), None)?;
            }
            let g = gate(ctx, &p)?;
            let agent_cfg = g.agent(agent.as_deref())?;
            let allowed = g.evaluate(agent_cfg, None).tools;
            let rows: Vec<ListRow> = p
                .registry
                .names()
                .iter()
                .filter_map(|n| p.registry.get(n))
                .map(|t| ListRow {
                    name: t.name(),
                    groups: groups_of(t.name()),
                    risk: t.risk(),
                    allowed: allowed.iter().any(|a| a == t.name()),
                })
                .filter(|r| all || r.allowed)
                .collect();
            ctx.out.data(&rows, |w| {
                let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
                for r in &rows {
                    let mark = if r.allowed { "" } else { "  (not allowed)" };
                    let line = format!(
                        "{:<width$}  {:<11}  {}{mark}",
                        r.name,
                        format!("{:?}", r.risk).to_lowercase(),
                        r.groups.join(",")
                    );
                    writeln!(w, "{}", line.trim_end())?;
                }
                Ok(())
            })?;
        }
        ToolsCommand::Describe { name } => {
            let p = parts(ctx, &ctx.store()?, None)?;
            let tool = p.registry.get(&name).ok_or_else(|| unknown_tool(&name))?;
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
            })?;
        }
        ToolsCommand::Exec(a) => return exec(ctx, a),
        ToolsCommand::Add { input, agent } => add_custom(ctx, &input, agent)?,
        ToolsCommand::Rm { name, agent } => {
            let store = ctx.store()?;
            if !crate::tools::custom::remove(store.conn(), &name, agent.as_deref())? {
                return Err(Error::not_found(format!(
                    "no custom tool named {name}{}",
                    agent
                        .as_ref()
                        .map(|a| format!(" for agent {a}"))
                        .unwrap_or_default()
                ))
                .with_hint("`goclaw tools custom list` shows them"));
            }
            ctx.out
                .data(&serde_json::json!({"removed": name, "agent": agent}), |w| {
                    writeln!(w, "removed {name}")
                })?;
        }
        ToolsCommand::Custom {
            command: CustomCommand::List,
        } => {
            let store = ctx.store()?;
            let all = crate::tools::custom::list(store.conn())?;
            ctx.out.data(&all, |w| {
                for t in &all {
                    writeln!(
                        w,
                        "{:<20} {:<10} {}{}",
                        t.definition.name,
                        t.definition.agent.as_deref().unwrap_or("*"),
                        t.definition.command,
                        if t.definition.enabled {
                            ""
                        } else {
                            "  (disabled)"
                        }
                    )?;
                }
                Ok(())
            })?;
        }
        ToolsCommand::History {
            limit,
            tool,
            session,
            agent,
        } => {
            let store = ctx.store()?;
            let mut stmt = store
                .conn()
                .prepare(
                    "SELECT id, at, agent, session_key, tool, arguments, outcome, is_error, duration_ms, decision, result, user_id, channel
                     FROM tool_calls
                     WHERE (?1 IS NULL OR tool = ?1) AND (?2 IS NULL OR session_key = ?2) AND (?3 IS NULL OR agent = ?3)
                     ORDER BY id DESC LIMIT ?4",
                )
                .map_err(|e| sql_error(store.path(), e))?;
            let rows = stmt
                .query_map(rusqlite::params![tool, session, agent, limit], |r| {
                    let args: String = r.get(5)?;
                    let decision: String = r.get(9)?;
                    Ok(serde_json::json!({
                        "id": r.get::<_, i64>(0)?, "at": r.get::<_, String>(1)?, "agent": r.get::<_, Option<String>>(2)?,
                        "session_key": r.get::<_, Option<String>>(3)?, "tool": r.get::<_, String>(4)?,
                        "arguments": serde_json::from_str::<Value>(&args).unwrap_or(Value::Null),
                        "outcome": r.get::<_, String>(6)?, "is_error": r.get::<_, bool>(7)?,
                        "duration_ms": r.get::<_, i64>(8)?,
                        "decision": serde_json::from_str::<Value>(&decision).unwrap_or(Value::Null),
                        "result": r.get::<_, Option<String>>(10)?,
                        "user": r.get::<_, Option<String>>(11)?, "channel": r.get::<_, Option<String>>(12)?,
                    }))
                })
                .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
                .map_err(|e| sql_error(store.path(), e))?;
            let mut w = ctx.out.stream();
            for row in &rows {
                if ctx.out.is_json() {
                    serde_json::to_writer(&mut w, row)
                        .map_err(|e| Error::internal(e.to_string()))?;
                    w.write_all(b"\n").map_err(Error::stdout)?;
                } else {
                    writeln!(
                        w,
                        "{:>5}  {}  {:<10} {:<9} {:>6}ms  {}",
                        row["id"],
                        row["at"].as_str().unwrap_or(""),
                        row["tool"].as_str().unwrap_or(""),
                        row["outcome"].as_str().unwrap_or(""),
                        row["duration_ms"],
                        row["arguments"]
                    )
                    .map_err(Error::stdout)?;
                }
            }
            w.flush().map_err(Error::stdout)?;
        }
    }
    Ok(Status::Ok)
}

fn unknown_tool(name: &str) -> Error {
    Error::not_found(format!("unknown tool: {name}"))
        .with_hint("`goclaw tools list --all` lists every tool")
}

/// Brings the MCP tool `name` (and the rest of its server's tools) into the registry, when
/// `name` belongs to a configured server the agent may use.
pub(crate) fn bridge_mcp(
    ctx: &Context,
    store: &crate::store::Store,
    p: &mut Parts,
    name: &str,
    agent: Option<&str>,
    user: Option<&str>,
) -> Result<()> {
    use crate::mcp::{self, bridge};
    if !name.starts_with("mcp_") || p.registry.get(name).is_some() {
        return Ok(());
    }
    let settings = ctx.settings()?;
    let servers = mcp::list(store.conn(), &settings.config.mcp)?;
    let Some(server) = bridge::server_for(&servers, name) else {
        return Ok(()); // the gate reports an unknown tool
    };
    let filter = mcp::access_for(store.conn(), server, agent, user)?
        .ok_or_else(|| bridge::refusal(server, agent))?;
    let key_dir = settings.store_dir();
    let secrets = bridge::server_secrets(store.conn(), &settings.config.mcp, &key_dir, server)?;
    scrub_given(p, &secrets)?;
    let link = p.mcp.link(server, secrets)?;
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
    let names = register_mcp(ctx, p, &server.name, tools);
    p.groups.register("mcp", names);
    Ok(())
}

/// Puts a server's bridged tools in the registry (skipping taken names, with a warning) and
/// registers the group `mcp:<server>`; returns the names registered.
fn register_mcp(
    ctx: &Context,
    p: &mut Parts,
    server: &str,
    tools: Vec<crate::mcp::bridge::McpTool>,
) -> Vec<String> {
    let mut names = Vec::new();
    for t in tools {
        if p.registry.get(&t.registered).is_some() {
            ctx.out.warn(&format!(
                "MCP tool {} skipped: the name is taken",
                t.registered
            ));
            continue;
        }
        names.push(t.registered.clone());
        p.registry.register(Box::new(t));
    }
    p.groups.register(&format!("mcp:{server}"), names.clone());
    names
}

/// Bridges the tools of every enabled MCP server `agent` may use (for listings and
/// explanations). A server that fails is reported and skipped; the others still count.
pub(crate) fn bridge_all_mcp(
    ctx: &Context,
    store: &crate::store::Store,
    p: &mut Parts,
    agent: Option<&str>,
    user: Option<&str>,
) -> Result<()> {
    use crate::mcp::{self, bridge};
    let settings = ctx.settings()?;
    let key_dir = settings.store_dir();
    let mut links = Vec::new();
    for server in mcp::list(store.conn(), &settings.config.mcp)? {
        let Some(filter) = mcp::access_for(store.conn(), &server, agent, user)? else {
            continue;
        };
        let secrets =
            bridge::server_secrets(store.conn(), &settings.config.mcp, &key_dir, &server)?;
        scrub_given(p, &secrets)?;
        links.push((p.mcp.link(&server, secrets)?, filter));
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
            Ok(tools) => all_names.extend(register_mcp(ctx, p, &link.server.name, tools)),
            Err(e) => ctx.out.warn(&format!(
                "MCP server `{}` skipped: {}",
                link.server.name, e.message
            )),
        }
    }
    if !all_names.is_empty() {
        p.groups.register("mcp", all_names);
    }
    Ok(())
}

/// What a server was given (env values, headers) must never come back through its results.
fn scrub_given(p: &mut Parts, secrets: &crate::mcp::bridge::Secrets) -> Result<()> {
    let given: Vec<Vec<u8>> = secrets
        .0
        .values()
        .chain(secrets.1.values())
        .map(|v| v.as_bytes().to_vec())
        .collect();
    if !given.is_empty() {
        p.scrubber = p
            .scrubber
            .with_more_values(&given)
            .map_err(Error::internal)?;
    }
    Ok(())
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
        super::team::check_agents(ctx, [a])?;
    }
    crate::tools::custom::validate(&def, &Registry::builtin().names())?;
    let store = ctx.store()?;
    let key = crate::secrets::SecretKey::load(&ctx.settings()?.store_dir())?;
    crate::tools::custom::add(store.conn(), &key, &def)?;
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

pub(crate) fn exec(ctx: &Context, a: ExecArgs) -> Result<Status> {
    let signal = super::signals::watch();
    let args: Value = match &a.args {
        None => Value::Object(Default::default()),
        Some(s) => Input::parse(Some(s)).read_json(ctx)?,
    };
    let mut store = ctx.store()?;
    let mut p = parts(ctx, &store, a.caller.agent.as_deref())?;
    bridge_mcp(
        ctx,
        &store,
        &mut p,
        &a.name,
        a.caller.agent.as_deref(),
        a.caller.user.as_deref(),
    )?;
    let g = gate(ctx, &p)?;
    let req = CallRequest {
        tool: a.name.clone(),
        args,
        agent: a.caller.agent,
        user: a.caller.user,
        session_key: a.caller.session,
        channel: a.channel,
        chat_id: a.chat_id,
        peer_kind: None,
        provider: a.provider,
        dry_run: a.dry_run,
        on_ask: a.on_ask,
        stop: crate::tools::StopWhen {
            deadline: None,
            signal,
        },
    };
    let terminal = TerminalPrompter;
    let prompter: Option<&dyn Prompter> = if TerminalPrompter::available() {
        Some(&terminal)
    } else {
        None
    };
    let outcome = g.call(&mut store, &req, prompter)?;
    match outcome.error_kind() {
        None => {
            let text = outcome
                .result
                .as_ref()
                .map(|r| r.for_llm.clone())
                .or_else(|| outcome.message.clone())
                .unwrap_or_default();
            ctx.out.data(&outcome, |w| {
                if outcome.result.is_none() {
                    writeln!(
                        w,
                        "{text}\n{}",
                        serde_json::to_string_pretty(&outcome.decision).unwrap_or_default()
                    )
                } else if text.ends_with('\n') {
                    w.write_all(text.as_bytes())
                } else {
                    writeln!(w, "{text}")
                }
            })?;
            Ok(Status::Ok)
        }
        Some(kind) => {
            let message = outcome
                .message
                .clone()
                .or_else(|| outcome.result.as_ref().map(|r| r.for_llm.clone()))
                .unwrap_or_else(|| "the tool call failed".into());
            let details = serde_json::to_value(&outcome).unwrap_or(Value::Null);
            Err(Error::new(kind, message).with_details(details))
        }
    }
}

/// Asks at the terminal: allow once, allow always, or deny. Used only when both stdin and
/// stderr are terminals.
/// Text a model or command chose, made safe to show on a terminal: control characters (escape
/// sequences that could redraw the screen or fake a prompt) become U+FFFD; newlines and tabs stay.
fn printable(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

#[derive(Debug)]
pub(crate) struct TerminalPrompter;

impl crate::tools::ask::Asker for TerminalPrompter {
    /// The question and numbered choices on stderr; one line from stdin, waited for with
    /// poll(2) so the wait ends on time without leaving a reader behind.
    fn ask(&self, q: &crate::tools::ask::Question, timeout: std::time::Duration) -> Option<String> {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "? {}", printable(&q.question));
        for (i, c) in q.choices.iter().enumerate() {
            let _ = writeln!(err, "  {}. {}", i + 1, printable(c));
        }
        let _ = write!(err, "> ");
        let _ = err.flush();
        drop(err);
        read_line_within(timeout)
    }
}

/// One line from stdin, waited for with poll(2) so the wait ends on time without leaving a
/// reader behind; `None` (and a note on stderr) when nothing came.
fn read_line_within(timeout: std::time::Duration) -> Option<String> {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let stdin = std::io::stdin();
    let ms = PollTimeout::try_from(timeout.as_millis().min(i32::MAX as u128) as i32)
        .unwrap_or(PollTimeout::MAX);
    let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLIN)];
    match poll(&mut fds, ms) {
        Ok(n) if n > 0 => {
            let mut line = String::new();
            stdin.lock().read_line(&mut line).ok()?;
            Some(line.trim().to_string())
        }
        _ => {
            eprintln!("(no answer)");
            None
        }
    }
}

impl TerminalPrompter {
    pub(crate) fn available() -> bool {
        std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
    }
}

impl Prompter for TerminalPrompter {
    fn ask(
        &self,
        tool: &str,
        subject: &Subject,
        reason: &str,
        timeout: std::time::Duration,
    ) -> Answer {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "{tool} wants to run: {}\n  ({})",
            printable(&subject.command),
            printable(reason)
        );
        for c in &subject.commands {
            let _ = writeln!(
                err,
                "  runs {} as {}",
                printable(&c.argv.join(" ")),
                printable(&c.program)
            );
        }
        let _ = write!(err, "Allow? [o]nce / [a]lways / [d]eny: ");
        let _ = err.flush();
        drop(err);
        let Some(line) = read_line_within(timeout) else {
            return Answer::TimedOut;
        };
        match line.to_ascii_lowercase().as_str() {
            "o" | "once" | "y" | "yes" => Answer::AllowOnce,
            "a" | "always" => Answer::AllowAlways,
            _ => Answer::Deny,
        }
    }
}
