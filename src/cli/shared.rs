//! What several subcommands share: the caller flags (`--agent`, `--user`, `--session`),
//! durations, the check that agents are defined, the acting agent and its team (`--as`,
//! `--team`), `NAME=VALUE` flags (environment variables, HTTP headers), and opening a toolbox
//! with its notes shown and its gate asking at the terminal (cargo keeps such things in a
//! command prelude).

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
    #[arg(
        long,
        env = super::shared::env_unless_empty("GOCLAW_AGENT"),
        value_parser = super::shared::non_empty(),
        hide_env_values = true,
    )]
    pub agent: Option<String>,
    /// The user: per-user context files and memory, user grants of MCP servers
    #[arg(long, value_parser = non_empty())]
    pub user: Option<String>,
    /// Session key: the conversation a run continues; rate limits count per session
    #[arg(
        long,
        env = super::shared::env_unless_empty("GOCLAW_SESSION"),
        value_parser = super::shared::non_empty(),
        hide_env_values = true,
    )]
    pub session: Option<String>,
}

// `--limit` and `--cursor` of a list that grows: one page of it (see `crate::store::page`). A
// plain comment: clap would take a doc comment for the help of every list that flattens it.
#[derive(Debug, Clone, Args)]
pub struct PageArgs {
    /// The most items to print (1 to 1000)
    #[arg(long, default_value_t = crate::store::page::DEFAULT_LIMIT as u64,
          value_parser = clap::value_parser!(u64).range(1..=crate::store::page::MAX_LIMIT as u64))]
    pub limit: u64,
    /// Go on after the page this cursor ends (the `next_cursor` of the previous page)
    #[arg(long)]
    pub cursor: Option<String>,
}

impl PageArgs {
    /// The page these flags ask for.
    pub fn request(&self) -> crate::store::page::PageRequest {
        crate::store::page::PageRequest {
            limit: Some(self.limit as usize),
            cursor: self.cursor.clone(),
        }
    }
}

/// The name of a `GOCLAW_*` variable for clap's `env`, unless it is set empty: an empty variable
/// counts as unset, as XDG's variables and `GOCLAW_HOME` do (`GOCLAW_SESSION=` is no session,
/// `GOCLAW_DB=` the default store), where an empty flag (`--session ''`) is a usage error.
/// clap reads the variable when the flag is defined, so this is read then too.
pub(crate) fn env_unless_empty(name: &'static str) -> Option<&'static str> {
    match std::env::var_os(name) {
        Some(value) if value.is_empty() => None,
        _ => Some(name),
    }
}

/// The value parser of a name that cannot be empty or blank (an agent, a session, a user): an
/// empty `--user ''` silently meant no user (and overwrote the agent-level file), an empty
/// `--agent ''` listed nothing, a blank `--session ' '` made a session named by a space.
pub(crate) fn non_empty() -> clap::builder::ValueParser {
    clap::builder::ValueParser::new(|value: &str| {
        if value.trim().is_empty() {
            Err(format!(
                "a name cannot be {}",
                if value.is_empty() { "empty" } else { "blank" }
            ))
        } else {
            Ok(value.to_string())
        }
    })
}

/// Opens the toolbox of `caller` (see [`Toolbox`]) and shows its notes; connecting to MCP
/// servers ends when `stop` says.
pub(crate) fn toolbox(
    ctx: &Context,
    store: &crate::store::Store,
    caller: Caller<'_>,
    bridge: Bridge<'_>,
    stop: crate::tools::StopWhen,
) -> Result<Toolbox> {
    let mut toolbox = Toolbox::open(ctx.settings()?, store, caller, bridge, stop)?;
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
    let invalid = |why: String| {
        Error::usage(format!("invalid duration `{s}`{why}"))
            .with_hint("e.g. 30 (seconds), 90s, 1.5m, 1h30m, 2d, 500ms")
    };
    // A bare number is seconds; a number with one unit may have a fraction (1.5h).
    let (num, unit) = s
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .map_or((s, ""), |i| (&s[..i], &s[i..]));
    if let Ok(n) = num.parse::<f64>() {
        let scale = match unit {
            "" | "s" => Some(1.0),
            "ms" => Some(0.001),
            "m" => Some(60.0),
            "h" => Some(3600.0),
            "d" => Some(86_400.0),
            _ => None,
        };
        if let Some(scale) = scale {
            let d =
                Duration::try_from_secs_f64(n * scale).map_err(|e| invalid(format!(": {e}")))?;
            return capped(d).map_err(invalid);
        }
    }
    // Everything else as humantime reads it: 1h30m, 2d 4h, 90sec, 1week.
    let d = humantime::parse_duration(s).map_err(|e| invalid(format!(": {e}")))?;
    capped(d).map_err(invalid)
}

/// At most ten years: longer is a typo, and would overflow a deadline or a schedule.
fn capped(d: Duration) -> std::result::Result<Duration, String> {
    const MAX: Duration = Duration::from_secs(10 * 365 * 86_400);
    if d > MAX {
        Err(": longer than ten years".into())
    } else {
        Ok(d)
    }
}

/// SIGINT, SIGTERM and SIGHUP (unless the command started with it ignored, as under `nohup`)
/// cancel the run: it then ends cleanly and records why.
pub(crate) fn watch_signals(
    rt: &tokio::runtime::Runtime,
    cancel: std::sync::Arc<crate::agent::Cancel>,
) -> Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    super::signals::stops_itself();
    let _guard = rt.enter();
    let mut watched = Vec::new();
    for why in super::signals::stopping() {
        let Some(sig) = why.signal() else { continue };
        let stream = signal(SignalKind::from_raw(sig as i32))
            .map_err(|e| Error::internal(format!("cannot watch {sig}: {e}")))?;
        watched.push((why, stream));
    }
    if watched.is_empty() {
        return Ok(());
    }
    rt.spawn(async move {
        let arrivals = watched.iter_mut().map(|(why, stream)| {
            let why = *why;
            Box::pin(async move {
                stream.recv().await;
                why
            })
        });
        let (why, _, _) = futures::future::select_all(arrivals).await;
        super::signals::received_now(why);
        cancel.cancel(why);
        // A statement waiting in the server (a lock another session holds) would not see it:
        // the store's watcher cancels it (`signals::cancel_statements_on_signal`).
    });
    Ok(())
}

/// Ends the command with exit 7 when it is still busy 2 s past its `--timeout`: a store
/// server that stops answering (a partition, a frozen host) held `db query --timeout 5s` for
/// 43 s and `team message wait --timeout 8s` for 85 s, waiting in a statement the command's
/// own deadline could not reach. What was under way is left to the server (its transaction is
/// never committed).
pub(crate) fn deadline_guard(ctx: &Context, timeout: Duration, what: &str) {
    let out = ctx.out.clone();
    let what = what.to_string();
    let _ = std::thread::Builder::new()
        .name("deadline".into())
        .spawn(move || {
            std::thread::sleep(timeout + Duration::from_secs(2));
            let err = Error::new(
                crate::error::ErrorKind::Timeout,
                format!(
                    "{what}: still waiting for the store 2s after its --timeout of {}s; it does not answer",
                    timeout.as_secs_f64()
                ),
            );
            let code = i32::from(err.kind.exit_code());
            // The command may hold stdout (a query's rows streaming): the error document is
            // given a moment, and the process ends either way.
            let (said, written) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                out.error(&err);
                let _ = said.send(());
            });
            if written.recv_timeout(Duration::from_millis(300)).is_err() {
                eprintln!("error: {what}: the store does not answer (past its --timeout)");
            }
            std::process::exit(code);
        });
}

/// The acting agent (`--as` / GOCLAW_AGENT), which must be defined.
pub(crate) fn acting(ctx: &Context, agent: &Option<String>) -> Result<String> {
    let a = agent.clone().ok_or_else(|| {
        Error::usage("which agent is acting? pass --as AGENT or set GOCLAW_AGENT")
    })?;
    check_agents(ctx, [&a])?;
    Ok(a)
}

/// The team by `--team`, else the agent's only team.
pub(crate) fn resolve_team(
    db: crate::store::db::Db<'_>,
    team: &Option<String>,
    agent: &str,
) -> Result<crate::team::Team> {
    match team {
        Some(t) => crate::team::get(db, t),
        None => crate::team::team_of(db, agent),
    }
}

/// Warns of a value that looks cut short, most often by a shell variable that was empty
/// (`--header "Authorization=Bearer $TOKEN"` with no TOKEN): empty, or ending in white space.
/// Stored all the same: an empty value can be meant.
pub(crate) fn warn_blank_values(ctx: &Context, flag: &str, pairs: &[(String, String)]) {
    for (key, value) in pairs {
        if value.trim().is_empty() {
            ctx.out.warn(&format!(
                "{flag} {key} has an empty value (was a shell variable unset?)"
            ));
        } else if value.ends_with(char::is_whitespace) {
            // The value itself is not shown: it is a secret.
            ctx.out.warn(&format!(
                "{flag} {key}'s value ends in white space (was a shell variable unset?)"
            ));
        }
    }
}

/// `--header NAME=VALUE`: a name HTTP allows, a value without line breaks or other control
/// characters (what no server could be sent).
pub(crate) fn header(s: &str) -> std::result::Result<(String, String), String> {
    let (name, value) = key_value(s)?;
    reqwest::header::HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| format!("`{}` is not an HTTP header name", name.escape_debug()))?;
    reqwest::header::HeaderValue::from_str(&value).map_err(|_| {
        format!("the value of header {name} holds a line break or another control character")
    })?;
    Ok((name, value))
}

/// `--env NAME=VALUE`: a name a process can be given (no white space or control character).
pub(crate) fn env_var(s: &str) -> std::result::Result<(String, String), String> {
    let (name, value) = key_value(s)?;
    if name
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '\0')
        || !name.is_ascii()
    {
        return Err(format!(
            "`{}` is not an environment variable's name",
            name.escape_debug()
        ));
    }
    Ok((name, value))
}

pub(crate) fn key_value(s: &str) -> std::result::Result<(String, String), String> {
    s.split_once('=')
        .filter(|(k, _)| !k.is_empty())
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("expected KEY=VALUE, got `{s}`"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn durations_as_people_write_them() {
        for (text, secs) in [
            ("30", 30.0),
            ("90s", 90.0),
            ("1.5m", 90.0),
            ("500ms", 0.5),
            ("1h30m", 5400.0),
            ("1h 30m", 5400.0),
            ("2d", 172_800.0),
            ("1w", 604_800.0),
            (" 5m ", 300.0),
        ] {
            assert_eq!(parse_duration(text).unwrap().as_secs_f64(), secs, "{text}");
        }
        for bad in [
            "",
            "soon",
            "5 parsecs",
            "-5s",
            "1e999",
            "9999999999999999999999ms",
            "213503982335d",
        ] {
            let e = parse_duration(bad).unwrap_err();
            assert_eq!(e.kind, crate::error::ErrorKind::Usage, "{bad}");
            assert!(
                e.message.contains("invalid duration"),
                "{bad}: {}",
                e.message
            );
        }
    }
}
