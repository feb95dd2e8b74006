//! `goclaw mcp`: MCP servers (kept in the store, or in config), grants and access requests,
//! probing and calling their tools, and `mcp serve`, which offers goclaw's own tools to MCP
//! clients through the gate.

use std::collections::BTreeMap;

use clap::{Args, Subcommand};
use serde_json::json;

use super::shared::{CallerArgs, PageArgs, env_var, header, warn_blank_values};
use super::{Context, Status, table};
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::mcp::{self, Access, McpConfig, NewGrant, NewRequest, NewServer, Scope, Transport};
use crate::secrets::SecretKey;
use crate::store::Store;
use crate::store::page::{Page, PageRequest};
use crate::text::printable::printable;
use crate::tools::gate::{CallRequest, Gate, OnAsk};

// MCP servers, grants and access requests.
#[derive(Debug, Args)]
pub struct McpArgs {
    #[command(subcommand)]
    pub command: McpCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum McpCommand {
    /// Add a server: --command for stdio, --url for streamable HTTP or SSE
    #[command(after_help = "Examples:\n  \
        goclaw mcp add everything --command npx --arg -y --arg @modelcontextprotocol/server-everything\n  \
        goclaw mcp add docs --url https://mcp.example.com/mcp --header \"Authorization=Bearer $TOKEN\"\n\n\
        Env values and headers are encrypted at rest (AES-256-GCM; key in secret.key beside the store,\n\
        or GOCLAW_SECRET_KEY) and never printed back. --access granted: only the agents and users\n\
        granted the server (goclaw mcp grant) may use it.")]
    Add(AddArgs),
    /// List servers (secrets never shown)
    List,
    /// One server
    Show { name: String },
    /// Remove a server and its grants and requests
    Rm { name: String },
    /// Enable a server
    Enable { name: String },
    /// Disable a server
    Disable { name: String },
    /// Grant an agent or a user a server's tools (optionally narrowed)
    Grant(GrantArgs),
    /// Remove a grant
    Revoke(WhoArgs),
    /// List grants
    Grants { name: Option<String> },
    /// Ask for access to a server
    Request(RequestArgs),
    /// List access requests
    Requests {
        /// pending | approved | rejected
        #[arg(long, value_parser = ["pending", "approved", "rejected"])]
        status: Option<String>,
        #[command(flatten)]
        page: PageArgs,
    },
    /// Connect, initialize and list tools; report protocol, server, tool count and timings
    Probe { name: String },
    /// List a server's tools (or every enabled server's) with their goclaw names
    Tools { name: Option<String> },
    /// Call one tool through the gate (policy, rate limit, scrubbing, audit); exit 8 when the
    /// server fails
    Call(CallArgs),
    /// A server's resources (URI, name, type)
    Resources { name: String },
    /// Read one resource of a server: its text on a terminal, the contents as JSON otherwise
    #[command(
        after_help = "Example:\n  goclaw mcp read everything demo://resource/static/document/architecture.md"
    )]
    Read { name: String, uri: String },
    /// A server's prompts (name, description, arguments)
    Prompts { name: String },
    /// Get one prompt of a server, filled with its arguments: its messages
    Prompt {
        name: String,
        prompt: String,
        /// K=V, an argument of the prompt (repeatable)
        #[arg(long = "arg", value_name = "K=V")]
        args: Vec<String>,
    },
    /// Serve goclaw's tools to an MCP client over stdio, under an agent's policy
    #[command(after_help = "Example (an editor or agent CLI starts it):\n  \
        goclaw mcp serve --agent builder\n\n\
        Offers the tools the agent's policy allows (MCP tools of the servers it may use\n\
        included). Every call goes through the gate: policy, rate limit, approvals (no\n\
        terminal: --on-ask), scrubbing and the audit trail (channel `mcp`). A refused call\n\
        answers with an error result saying why. Ends when the client closes stdin.")]
    Serve(ServeArgs),
    /// Approve (creating the grant in the same transaction) or reject a request
    Review {
        id: i64,
        #[arg(long, conflicts_with = "reject", required_unless_present = "reject")]
        approve: bool,
        #[arg(long)]
        reject: bool,
        #[arg(long)]
        note: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct AddArgs {
    pub name: String,
    #[arg(long, conflicts_with = "url")]
    pub command: Option<String>,
    /// An argument of the command (repeatable)
    #[arg(long = "arg", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// K=V for the server's environment (repeatable; encrypted)
    #[arg(long = "env", value_parser = env_var)]
    pub env: Vec<(String, String)>,
    #[arg(long, required_unless_present = "command")]
    pub url: Option<String>,
    /// streamable-http (default for --url) or sse
    #[arg(long, value_enum)]
    pub transport: Option<Transport>,
    /// K=V HTTP header (repeatable; encrypted)
    #[arg(long = "header", value_parser = header)]
    pub headers: Vec<(String, String)>,
    /// Prefix of bridged tool names (default: mcp_<name>)
    #[arg(long, default_value = "")]
    pub prefix: String,
    /// Per-call timeout: seconds, or a duration (90s, 1.5m, 1h)
    #[arg(long, default_value_t = mcp::DEFAULT_TIMEOUT_SECS, value_parser = timeout_secs)]
    pub timeout: u64,
    /// open: every agent may use it (grants narrow); granted: only agents with a grant
    #[arg(long, value_enum, default_value_t = Access::Open)]
    pub access: Access,
    #[arg(long)]
    pub disabled: bool,
}

#[derive(Debug, Args)]
pub struct CallArgs {
    pub name: String,
    pub tool: String,
    /// Arguments: JSON, @FILE, or - for stdin (default: {})
    pub args: Option<String>,
    #[command(flatten)]
    pub caller: CallerArgs,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub caller: CallerArgs,
    /// When a call needs an approval (stdin is the MCP channel, so nobody can be asked):
    /// deny, fail, allow, or wait[:DUR] for `goclaw approvals answer` from elsewhere
    #[arg(long, default_value = "deny", value_parser = OnAsk::parse)]
    pub on_ask: OnAsk,
}

#[derive(Debug, Args)]
pub struct WhoArgs {
    pub name: String,
    #[arg(long, conflicts_with = "user", required_unless_present = "user", value_parser = super::shared::non_empty())]
    pub agent: Option<String>,
    #[arg(long, value_parser = super::shared::non_empty())]
    pub user: Option<String>,
}

#[derive(Debug, Args)]
pub struct GrantArgs {
    #[command(flatten)]
    pub who: WhoArgs,
    /// Only these tools (comma-separated original names)
    #[arg(long, value_delimiter = ',')]
    pub allow: Vec<String>,
    /// Never these tools (wins over --allow)
    #[arg(long, value_delimiter = ',')]
    pub deny: Vec<String>,
    /// Record the grant disabled (a disabled user grant removes the server for that user)
    #[arg(long)]
    pub disabled: bool,
    /// K=V for the server's environment when this agent or user uses it, over the server's own
    /// (repeatable; encrypted; a user grant's win over an agent grant's)
    #[arg(long = "env", value_name = "K=V", value_parser = env_var)]
    pub env: Vec<(String, String)>,
    /// K=V HTTP header when this agent or user uses the server, over the server's own
    /// (repeatable; encrypted)
    #[arg(long = "header", value_name = "K=V", value_parser = header)]
    pub headers: Vec<(String, String)>,
}

#[derive(Debug, Args)]
pub struct RequestArgs {
    #[command(flatten)]
    pub who: WhoArgs,
    /// The tools wanted (comma-separated; default all)
    #[arg(long, value_delimiter = ',')]
    pub tools: Vec<String>,
    #[arg(long)]
    pub reason: String,
}

fn who(ctx: &Context, w: &WhoArgs) -> Result<(Scope, String)> {
    match (&w.agent, &w.user) {
        (Some(a), _) => {
            super::shared::check_agents(ctx, [a])?;
            Ok((Scope::Agent, a.clone()))
        }
        (None, Some(u)) => Ok((Scope::User, u.clone())),
        (None, None) => Err(Error::usage("pass --agent KEY or --user ID")),
    }
}

fn actor() -> String {
    std::env::var("USER")
        .ok()
        .filter(|u| !u.is_empty())
        .map_or_else(|| "cli".to_string(), |u| format!("cli:{u}"))
}

fn nonempty(v: Vec<String>) -> Option<Vec<String>> {
    let v: Vec<String> = v.into_iter().filter(|s| !s.is_empty()).collect();
    if v.is_empty() { None } else { Some(v) }
}

pub fn run(ctx: &Context, args: McpArgs) -> Result<Status> {
    let settings = ctx.settings()?;
    let config = &settings.config.mcp;
    let mut store = ctx.any_store()?;
    match args.command {
        McpCommand::Add(a) => exec_add(ctx, &store, settings, a)?,
        McpCommand::List => exec_list(ctx, &store, config)?,
        McpCommand::Show { name } => print_server(ctx, &mcp::get(store.db(), config, &name)?)?,
        McpCommand::Rm { name } => exec_rm(ctx, &store, config, name)?,
        McpCommand::Enable { name } => {
            print_server(ctx, &mcp::set_enabled(store.db(), config, &name, true)?)?
        }
        McpCommand::Disable { name } => {
            print_server(ctx, &mcp::set_enabled(store.db(), config, &name, false)?)?
        }
        McpCommand::Grant(g) => exec_grant(ctx, &store, settings, g)?,
        McpCommand::Revoke(w) => exec_revoke(ctx, &store, config, w)?,
        McpCommand::Grants { name } => exec_grants(ctx, &store, config, name.as_deref())?,
        McpCommand::Request(r) => exec_request(ctx, &store, config, r)?,
        McpCommand::Requests { status, page } => {
            exec_requests(ctx, &store, status.as_deref(), &page.request())?
        }
        McpCommand::Probe { name } => exec_probe(ctx, &store, settings, name)?,
        McpCommand::Tools { name } => exec_tools(ctx, &store, settings, name.as_deref())?,
        McpCommand::Call(c) => return exec_call(ctx, store, config, c),
        McpCommand::Resources { name } => {
            super::mcp_content::resources(ctx, &store, settings, &name)?
        }
        McpCommand::Read { name, uri } => {
            super::mcp_content::read(ctx, &store, settings, &name, &uri)?
        }
        McpCommand::Prompts { name } => super::mcp_content::prompts(ctx, &store, settings, &name)?,
        McpCommand::Prompt { name, prompt, args } => {
            super::mcp_content::prompt(ctx, &store, settings, &name, &prompt, &args)?
        }
        McpCommand::Serve(a) => {
            drop(store);
            return serve(ctx, a);
        }
        McpCommand::Review {
            id,
            approve,
            reject: _,
            note,
        } => exec_review(ctx, &mut store, id, approve, note.as_deref())?,
    }
    Ok(Status::Ok)
}

/// Prints one server; for people a line: name, transport, access, state, source, and the
/// command it runs or the URL it reaches.
/// A server: its record, as `key  value` lines for people.
fn print_server(ctx: &Context, s: &mcp::Server) -> Result<()> {
    ctx.out.data(s, |w| {
        let record = serde_json::to_value(s).unwrap_or_default();
        writeln!(w, "{}", printable(&super::human::fields(&record)))
    })
}

/// `mcp add`: stores the server, its env values and headers sealed.
fn exec_add(ctx: &Context, store: &Store, settings: &Settings, a: AddArgs) -> Result<()> {
    let config = &settings.config.mcp;
    let key_dir = settings.store_dir();
    let key = SecretKey::load(&key_dir)?;
    warn_blank_values(ctx, "--env", &a.env);
    warn_blank_values(ctx, "--header", &a.headers);
    let transport = a.transport.unwrap_or(if a.url.is_some() {
        Transport::StreamableHttp
    } else {
        Transport::Stdio
    });
    // Added all the same (it may be installed later), but said now rather than at every run.
    if let Some(command) = a.command.as_deref().filter(|c| which::which(c).is_err()) {
        ctx.out.warn(&format!(
            "`{command}` is not found (neither a program at that path nor one on PATH): the server cannot start until it is"
        ));
    }
    let s = mcp::add(
        store.db(),
        &key,
        &NewServer {
            name: a.name,
            spec: mcp::ServerConfig {
                transport,
                command: a.command,
                args: a.args,
                env: a.env.into_iter().collect::<BTreeMap<_, _>>(),
                url: a.url,
                headers: a.headers.into_iter().collect(),
                prefix: a.prefix,
                timeout_secs: a.timeout,
                access: a.access,
                enabled: !a.disabled,
            },
        },
        config,
    )?;
    print_server(ctx, &s)
}

/// `mcp list`.
fn exec_list(ctx: &Context, store: &Store, config: &McpConfig) -> Result<()> {
    let all = mcp::list(store.db(), config)?;
    table::page(
        ctx,
        &Page::whole(all),
        &["SERVER", "TRANSPORT", "ACCESS", "ENABLED", "SOURCE"],
        |s| {
            [
                s.name.clone(),
                s.transport.as_str().into(),
                s.access.as_str().into(),
                if s.enabled { "yes" } else { "no" }.into(),
                s.source.to_string(),
            ]
        },
    )
}

/// `mcp rm`.
fn exec_rm(ctx: &Context, store: &Store, config: &McpConfig, name: String) -> Result<()> {
    mcp::remove(store.db(), config, &name)?;
    ctx.out
        .data(&json!({"removed": name}), |w| writeln!(w, "removed {name}"))
}

/// `mcp grant`.
fn exec_grant(ctx: &Context, store: &Store, settings: &Settings, g: GrantArgs) -> Result<()> {
    let (scope, subject) = who(ctx, &g.who)?;
    warn_blank_values(ctx, "--env", &g.env);
    warn_blank_values(ctx, "--header", &g.headers);
    let sealed = !g.env.is_empty() || !g.headers.is_empty();
    let key = if sealed {
        Some(SecretKey::load(&settings.store_dir())?)
    } else {
        None
    };
    let grant = mcp::grant(
        store.db(),
        &settings.config.mcp,
        &g.who.name,
        &NewGrant {
            scope,
            subject: &subject,
            allow: nonempty(g.allow),
            deny: nonempty(g.deny),
            enabled: !g.disabled,
            by: &actor(),
            env: g.env.into_iter().collect(),
            headers: g.headers.into_iter().collect(),
            key: key.as_ref(),
        },
    )?;
    ctx.out.data(&grant, |w| {
        writeln!(
            w,
            "granted {} {} on {}",
            grant.scope, grant.subject, grant.server
        )
    })
}

/// `mcp revoke`.
fn exec_revoke(ctx: &Context, store: &Store, config: &McpConfig, w: WhoArgs) -> Result<()> {
    let (scope, subject) = who(ctx, &w)?;
    mcp::revoke(store.db(), config, &w.name, scope, &subject)?;
    ctx.out.data(
        &json!({"revoked": {"server": w.name, "scope": scope, "subject": subject}}),
        |out| writeln!(out, "revoked"),
    )
}

/// `mcp grants`.
fn exec_grants(ctx: &Context, store: &Store, config: &McpConfig, name: Option<&str>) -> Result<()> {
    if let Some(name) = name {
        // A server that does not exist is not found, not a server without grants.
        mcp::get(store.db(), config, name)?;
    }
    let all = mcp::grants(store.db(), name)?;
    table::page(
        ctx,
        &Page::whole(all),
        &["SERVER", "SCOPE", "SUBJECT", "ENABLED"],
        |g| {
            [
                g.server.clone(),
                g.scope.to_string(),
                g.subject.clone(),
                if g.enabled { "yes" } else { "no" }.into(),
            ]
        },
    )
}

/// `mcp request`.
fn exec_request(ctx: &Context, store: &Store, config: &McpConfig, r: RequestArgs) -> Result<()> {
    let (scope, subject) = who(ctx, &r.who)?;
    let req = mcp::request(
        store.db(),
        config,
        &r.who.name,
        &NewRequest {
            scope,
            subject: &subject,
            tools: nonempty(r.tools),
            reason: &r.reason,
            by: &actor(),
        },
    )?;
    ctx.out
        .data(&req, |w| writeln!(w, "request {} is pending", req.id))
}

/// `mcp requests`.
fn exec_requests(
    ctx: &Context,
    store: &Store,
    status: Option<&str>,
    page: &PageRequest,
) -> Result<()> {
    let all = mcp::requests(store.db(), status, page)?;
    table::page(
        ctx,
        &all,
        &["ID", "STATUS", "SERVER", "SCOPE", "SUBJECT", "REASON"],
        |r| {
            [
                r.id.to_string(),
                r.status.clone(),
                r.server.clone(),
                r.scope.to_string(),
                r.subject.clone(),
                r.reason.clone(),
            ]
        },
    )
}

/// `mcp probe`: connects, lists the tools and reports the timings.
fn exec_probe(ctx: &Context, store: &Store, settings: &Settings, name: String) -> Result<()> {
    let config = &settings.config.mcp;
    let server = mcp::get(store.db(), config, &name)?;
    let key_dir = settings.store_dir();
    let (env, headers) = mcp::bridge::server_secrets(store.db(), config, &key_dir, &server)?;
    let pool = mcp::pool::Pool::new(settings.hidden_from_servers());
    let link = pool.link(&server, (env, headers))?;
    let session = link.connection()?;
    let t = std::time::Instant::now();
    let tools = link.list_tools()?;
    let list_ms = t.elapsed().as_secs_f64() * 1000.0;
    let doc = json!({
        "server": name,
        "protocol_version": session.info.get("protocolVersion"),
        "server_info": session.info.get("serverInfo"),
        "tools": tools.len(),
        "connect_ms": (session.connect_time.as_secs_f64() * 1000.0).round(),
        "list_ms": list_ms.round(),
    });
    ctx.out.data(&doc, |w| {
        writeln!(
            w,
            "{name}: {} tools, protocol {}, connected in {} ms, listed in {} ms",
            doc["tools"], doc["protocol_version"], doc["connect_ms"], doc["list_ms"]
        )
    })
}

/// `mcp tools`: the tools of one server, or of every enabled one.
fn exec_tools(ctx: &Context, store: &Store, settings: &Settings, name: Option<&str>) -> Result<()> {
    let config = &settings.config.mcp;
    let servers: Vec<mcp::Server> = match name {
        Some(n) => vec![mcp::get(store.db(), config, n)?],
        None => mcp::list(store.db(), config)?
            .into_iter()
            .filter(|s| s.enabled)
            .collect(),
    };
    let key_dir = settings.store_dir();
    let pool = mcp::pool::Pool::new(settings.hidden_from_servers());
    let mut rows = Vec::new();
    for s in &servers {
        let secrets = mcp::bridge::server_secrets(store.db(), config, &key_dir, s)?;
        let link = pool.link(s, secrets)?;
        for t in mcp::bridge::tools_of(&link, &mcp::ToolFilter::default())? {
            use crate::tools::Tool;
            rows.push(json!({"name": t.registered, "server": s.name, "tool": t.tool, "description": t.description(), "parameters": t.parameters()}));
        }
    }
    let text = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
    table::page(ctx, &Page::whole(rows), &["TOOL", "DESCRIPTION"], |r| {
        [text(&r["name"]), text(&r["description"])]
    })
}

/// `mcp call`: the tool's call as `tools exec` makes it (the store closed first).
fn exec_call(ctx: &Context, store: Store, config: &McpConfig, c: CallArgs) -> Result<Status> {
    let server = mcp::get(store.db(), config, &c.name)?;
    drop(store);
    let exec = super::tool_call::ExecArgs {
        name: mcp::tool_name(&server.name, &server.prefix, &c.tool),
        args: c.args,
        caller: c.caller,
        channel: None,
        chat_id: None,
        provider: None,
        dry_run: false,
        on_ask: OnAsk::Deny,
    };
    super::tool_call::exec(ctx, exec)
}

/// `mcp review`: approves or rejects a request.
fn exec_review(
    ctx: &Context,
    store: &mut Store,
    id: i64,
    approve: bool,
    note: Option<&str>,
) -> Result<()> {
    let done = mcp::review(store.db(), id, approve, note, &actor())?;
    ctx.out.data(&done, |w| {
        writeln!(w, "request {id}: {}", done["status"].as_str().unwrap_or(""))
    })
}

/// Tool calls `mcp serve` runs at once.
const SERVE_WORKERS: usize = 4;

fn serve(ctx: &Context, a: ServeArgs) -> Result<Status> {
    // An unknown agent is said before any MCP server of the config is started.
    if let Some(agent) = a.caller.agent.as_deref()
        && !ctx.settings()?.config.agents.contains_key(agent)
    {
        return Err(crate::tools::config::unknown_agent(agent));
    }
    let toolbox = super::shared::toolbox(
        ctx,
        &ctx.any_store()?,
        a.caller.caller(),
        crate::ops::toolbox::Bridge::Watched,
        Default::default(),
    )?;
    // Nobody to ask: the client is a program.
    let g = toolbox.gate(Default::default());
    let allowed = g.allowed_tools(a.caller.agent.as_deref())?;
    let offers: Vec<mcp::serve::Offer> = allowed
        .iter()
        .filter_map(|name| toolbox.registry().get(name))
        .map(|t| mcp::serve::Offer {
            name: t.name().to_string(),
            description: t.description().to_string(),
            parameters: t.parameters(),
        })
        .collect();
    // The agent's skills are its prompts, when its policy lets it use skills.
    let prompts = if allowed.iter().any(|t| t == "use_skill") {
        crate::skills::discover(
            g.skill_roots(),
            ctx.any_store()?.db(),
            a.caller.agent.as_deref(),
        )?
        .into_iter()
        .map(|s| mcp::serve::PromptOffer {
            name: s.name,
            description: s.description,
        })
        .collect()
    } else {
        Vec::new()
    };
    ctx.out.verbose(&format!(
        "mcp serve: {} tools for {}",
        offers.len(),
        a.caller.agent.as_deref().unwrap_or("the default agent")
    ));
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        ctx.out.warn(
            "goclaw mcp serve speaks MCP (JSON-RPC) on stdin and stdout; start it from an MCP client",
        );
    }
    let stores = (0..SERVE_WORKERS)
        .map(|_| ctx.any_store())
        .collect::<Result<Vec<_>>>()?;
    let (jobs, queue) = std::sync::mpsc::channel::<mcp::serve::Job>();
    let queue = std::sync::Mutex::new(queue);
    // `--on-ask wait`: approvals wait in the store for `goclaw approvals answer`.
    let relay = super::tool_call::relay(
        ctx,
        a.on_ask,
        a.caller.agent.as_deref(),
        a.caller.session.as_deref(),
    )?;
    let client_gone = crate::tools::SignalFlag::default();
    std::thread::scope(|s| {
        for mut store in stores {
            let (g, queue, a, relay) = (&g, &queue, &a, relay.as_ref());
            let stop = crate::tools::StopWhen {
                deadline: None,
                signal: Some(client_gone.clone()),
                deadline_is: None,
            };
            s.spawn(move || serve_worker(g, &mut store, queue, (a, stop), relay));
        }
        // Returns when the client goes away; dropping `jobs` with it ends the workers, and the
        // calls still running stop as on a hang-up (a command gets SIGTERM): nobody is left to
        // read their answers.
        let served = mcp::serve::serve_stdio(&offers, prompts, jobs, client_gone.clone());
        client_gone.raise(crate::tools::Stopped::HungUp);
        served
    })?;
    Ok(Status::Ok)
}

/// Runs queued calls through the gate until the queue closes.
fn serve_worker(
    g: &Gate,
    store: &mut crate::store::Store,
    queue: &std::sync::Mutex<std::sync::mpsc::Receiver<mcp::serve::Job>>,
    (a, stop): (&ServeArgs, crate::tools::StopWhen),
    relay: Option<&crate::tools::exec::relay::StoreRelay>,
) {
    loop {
        let job = match queue.lock().map(|q| q.recv()) {
            Ok(Ok(job)) => job,
            _ => return,
        };
        let req = CallRequest {
            tool: job.tool,
            args: serde_json::Value::Object(job.args),
            agent: a.caller.agent.clone(),
            user: a.caller.user.clone(),
            session_key: a.caller.session.clone(),
            channel: Some("mcp".into()),
            on_ask: a.on_ask,
            stop: stop.clone(),
            ..CallRequest::default()
        };
        // A client that can ask its user is asked; otherwise `--on-ask` (and its relay) decide.
        let prompter = match &job.asker {
            Some(client) => Some(client as &dyn crate::tools::gate::Prompter),
            None => relay.map(|r| r as &dyn crate::tools::gate::Prompter),
        };
        let (text, is_error) = crate::tools::gate::answer(g.call(store, &req, prompter));
        let answer = mcp::serve::Answer { text, is_error };
        // The client may have gone; nothing to tell it then.
        let _ = job.reply.send(answer);
    }
}

/// `--timeout` of `mcp add`: whole seconds as before, or any duration the other commands take,
/// rounded up to a second.
fn timeout_secs(s: &str) -> std::result::Result<u64, String> {
    if let Ok(n) = s.trim().parse::<u64>() {
        return Ok(n);
    }
    let d = super::shared::parse_duration(s).map_err(|e| e.message)?;
    Ok(d.as_secs() + u64::from(d.subsec_nanos() > 0))
}
