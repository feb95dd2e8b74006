//! What several subcommands share: the caller flags (`--agent`, `--user`, `--session`),
//! durations, the check that agents are defined, and opening a toolbox with its notes shown
//! and its gate asking at the terminal (cargo keeps such things in a command prelude).

use std::time::Duration;

use clap::Args;

use super::Context;
use super::terminal::TerminalPrompter;
use crate::error::{Error, Result};
use crate::ops::toolbox::{Bridge, Caller, GateOptions, Toolbox};
use crate::tools::gate::Ceiling;

// Who a tool call is made for: the agent whose policy applies, the user, the session.
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

/// Opens the toolbox of `caller` (see [`Toolbox`]) and shows its notes.
pub(crate) fn toolbox(
    ctx: &Context,
    store: &crate::store::Store,
    caller: Caller<'_>,
    bridge: Bridge<'_>,
) -> Result<Toolbox> {
    let mut toolbox = Toolbox::open(ctx.settings()?, store, caller, bridge)?;
    ctx.out.notes(toolbox.take_notes());
    Ok(toolbox)
}

/// The gate options of a command run by a person: `ask_user` asks at the terminal when there
/// is one.
pub(crate) fn at_terminal(ctx: &Context, ceiling: Option<Ceiling>) -> GateOptions {
    GateOptions {
        ceiling,
        asker: TerminalPrompter::available().then(|| {
            std::sync::Arc::new(TerminalPrompter::new(ctx)) as crate::tools::ask::SharedAsker
        }),
        workspace: None,
    }
}

impl CallerArgs {
    /// The caller these flags name.
    pub fn caller(&self) -> Caller<'_> {
        Caller {
            agent: self.agent.as_deref(),
            user: self.user.as_deref(),
        }
    }
}

/// Checks that every agent is defined in config.
pub(crate) fn check_agents<'a>(
    ctx: &Context,
    agents: impl IntoIterator<Item = &'a String>,
) -> Result<()> {
    let defined = &ctx.settings()?.config.agents;
    for a in agents {
        if !defined.contains_key(a) {
            return Err(crate::tools::config::unknown_agent(a));
        }
    }
    Ok(())
}

/// `30s`, `5m`, `1h`, `250ms`, or plain seconds.
pub fn parse_duration(s: &str) -> Result<Duration> {
    let s = s.trim();
    let (num, unit) = s
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .map_or((s, ""), |i| (&s[..i], &s[i..]));
    let n: f64 = num
        .parse()
        .map_err(|_| Error::usage(format!("invalid duration `{s}` (use e.g. 30s, 5m, 1h)")))?;
    let secs = match unit {
        "" | "s" => n,
        "ms" => n / 1000.0,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => {
            return Err(Error::usage(format!(
                "invalid duration `{s}` (use e.g. 30s, 5m, 1h)"
            )));
        }
    };
    Ok(Duration::from_secs_f64(secs.max(0.0)))
}

/// SIGINT and SIGTERM cancel the run (it then ends cleanly and records why).
pub(crate) fn watch_signals(
    rt: &tokio::runtime::Runtime,
    cancel: std::sync::Arc<crate::agent::Cancel>,
) -> Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let _guard = rt.enter();
    let mut int = signal(SignalKind::interrupt())
        .map_err(|e| Error::internal(format!("cannot watch SIGINT: {e}")))?;
    let mut term = signal(SignalKind::terminate())
        .map_err(|e| Error::internal(format!("cannot watch SIGTERM: {e}")))?;
    rt.spawn(async move {
        tokio::select! {
            _ = int.recv() => cancel.cancel(false),
            _ = term.recv() => cancel.cancel(true),
        }
    });
    Ok(())
}
