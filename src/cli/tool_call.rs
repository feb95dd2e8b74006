//! A tool called through the gate from the command line: `tools exec`, and the subcommands
//! that are a tool's command-line form (`kg search`, `media`, `message send`, `process`,
//! `providers call`, `mcp call`); with the terminal, or the store's relay when there is none,
//! to answer an approval.

use clap::Args;
use serde_json::Value;

use super::input::Input;
use super::shared::{CallerArgs, at_terminal, toolbox};
use super::terminal::TerminalPrompter;
use super::{Context, Status};
use crate::error::{Error, Result};
use crate::ops::toolbox::Bridge;
use crate::tools::gate::{CallRequest, OnAsk, Prompter};

/// A tool's name: any text (custom tools, MCP tools and aliases are names too), with the
/// built-in tools offered to shell completion (the generated scripts list them, with the first
/// sentence of each description where the shell shows one).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ToolName;

impl clap::builder::TypedValueParser for ToolName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let tools = crate::tools::Registry::builtin().summaries();
        Some(Box::new(tools.into_iter().map(|(name, summary)| {
            clap::builder::PossibleValue::new(name).help(summary)
        })))
    }
}

#[derive(Debug, Args)]
pub struct ExecArgs {
    /// The tool (or an alias such as bash, edit_file)
    #[arg(value_parser = ToolName, hide_possible_values = true)]
    pub name: String,
    /// Arguments: a JSON object, @FILE, or - for stdin (default: {})
    pub args: Option<String>,
    #[command(flatten)]
    pub caller: CallerArgs,
    #[arg(long, value_parser = super::shared::non_empty())]
    pub channel: Option<String>,
    #[arg(long)]
    pub chat_id: Option<String>,
    #[arg(long)]
    pub provider: Option<String>,
    /// Show what the gate would decide (and which sandbox would apply); run nothing
    #[arg(long)]
    pub dry_run: bool,
    /// When an approval is needed and there is no terminal: deny (exit 3), fail (exit 1), allow,
    /// or wait[:DUR] for `goclaw approvals answer` from elsewhere
    #[arg(long, default_value = "deny", value_parser = OnAsk::parse)]
    pub on_ask: OnAsk,
}

/// `tool` called with `args` as `caller`, through the gate, as `tools exec` calls it (for the
/// subcommands that are a tool's command-line form: `kg search`, `message send`,
/// `providers call`).
pub(crate) fn exec_call(
    ctx: &Context,
    tool: &str,
    args: &Value,
    caller: CallerArgs,
) -> Result<Status> {
    exec_shown(ctx, tool, args, caller, None)
}

/// A tool's reply as people read it: `None` keeps the reply as the tool wrote it.
pub(crate) type Shown = fn(&str) -> Option<String>;

/// [`exec_call`], with the reply shown on a terminal as `shown` renders it (`--json` and pipes
/// get the call's outcome as `tools exec` prints it).
pub(crate) fn exec_shown(
    ctx: &Context,
    tool: &str,
    args: &Value,
    caller: CallerArgs,
    shown: Option<Shown>,
) -> Result<Status> {
    exec_as(
        ctx,
        ExecArgs {
            name: tool.into(),
            args: Some(args.to_string()),
            caller,
            channel: None,
            chat_id: None,
            provider: None,
            dry_run: false,
            on_ask: OnAsk::Deny,
        },
        shown,
    )
}

/// `tools exec`: the call `a` through the gate, its outcome printed (an error document for a
/// call that did not go through).
pub(crate) fn exec(ctx: &Context, a: ExecArgs) -> Result<Status> {
    exec_as(ctx, a, None)
}

/// [`exec`], the reply shown to people as `shown` renders it.
fn exec_as(ctx: &Context, a: ExecArgs, shown: Option<Shown>) -> Result<Status> {
    // The tool's processes get KILL_GRACE after SIGTERM; recording the call takes the rest.
    let signal = super::signals::watch(
        crate::tools::exec::run::KILL_GRACE + std::time::Duration::from_secs(1),
    );
    let args: Value = match &a.args {
        None => Value::Object(Default::default()),
        Some(s) => Input::parse(Some(s)).read_json(ctx)?,
    };
    let mut store = ctx.any_store()?;
    let stop = crate::tools::StopWhen {
        deadline: None,
        signal,
        deadline_is: None,
    };
    let toolbox = toolbox(
        ctx,
        &store,
        a.caller.caller(),
        Bridge::ToolOf(&a.name),
        stop.clone(),
    )?;
    let g = toolbox.gate(at_terminal(ctx, None));
    let req = CallRequest {
        tool: a.name.clone(),
        args,
        agent: a.caller.agent,
        user: a.caller.user,
        session_key: a.caller.session,
        channel: a.channel,
        chat_id: a.chat_id,
        provider: a.provider,
        dry_run: a.dry_run,
        on_ask: a.on_ask,
        stop,
        ..CallRequest::default()
    };
    let terminal = TerminalPrompter::new(ctx);
    let relay = relay(
        ctx,
        req.on_ask,
        req.agent.as_deref(),
        req.session_key.as_deref(),
    )?;
    let prompter: Option<&dyn Prompter> = if TerminalPrompter::available() {
        Some(&terminal)
    } else {
        relay.as_ref().map(|r| r as &dyn Prompter)
    };
    let outcome = g.call(&mut store, &req, prompter)?;
    if let Some(why) = &outcome.audit_error {
        ctx.out.warn(&format!(
            "the call ran, but its end could not be written to its audit record ({why}); the record says it started"
        ));
    }
    drop(g);
    drop(toolbox);
    store.release_at_exit();
    match outcome.error_kind() {
        None => {
            let reply = outcome.reply();
            let text = shown.and_then(|render| render(&reply)).unwrap_or(reply);
            // For people, `Output::data` makes it printable; `--json` and pipes get it as it is.
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
            let mut message = outcome.reply();
            if let Some(shown) = failed_command_shown(ctx, &outcome)? {
                message = shown;
            }
            let details = serde_json::to_value(&outcome).unwrap_or(Value::Null);
            let err = Error::new(kind, message).with_details(details);
            Err(match outcome.hint() {
                Some(hint) => err.with_hint(hint),
                None => err,
            })
        }
    }
}

/// For people: a command that failed after writing output has that output printed on stdout
/// as it is (not folded into the one error line on stderr), and the error line says how the
/// command ended. `None` for JSON (the error document holds the output) and anything else.
fn failed_command_shown(
    ctx: &Context,
    outcome: &crate::tools::gate::Outcome,
) -> Result<Option<String>> {
    let Some(r) = outcome.result.as_ref().filter(|_| !ctx.out.is_json()) else {
        return Ok(None);
    };
    let ended = match r.exit {
        Some(crate::tools::Exit::ExitCode(code)) => format!("exit status {code}"),
        Some(crate::tools::Exit::ExitSignal(sig)) => format!("killed by signal {sig}"),
        None => return Ok(None),
    };
    if r.for_llm.is_empty() || r.for_llm == ended || outcome.message.is_some() {
        return Ok(None);
    }
    let text = &r.for_llm;
    ctx.out.data(outcome, |w| match text.ends_with('\n') {
        true => w.write_all(text.as_bytes()),
        false => writeln!(w, "{text}"),
    })?;
    Ok(Some(format!(
        "{} failed ({ended}); its output is above",
        outcome.tool
    )))
}

/// The relay of `--on-ask wait[:DUR]` (used when there is no terminal to ask): the approval is
/// parked in the store, and stderr says how to answer it.
pub(crate) fn relay(
    ctx: &Context,
    on_ask: crate::tools::gate::OnAsk,
    agent: Option<&str>,
    session: Option<&str>,
) -> Result<Option<crate::tools::exec::relay::StoreRelay>> {
    let crate::tools::gate::OnAsk::Wait(wait) = on_ask else {
        return Ok(None);
    };
    let out = ctx.out.clone();
    Ok(Some(crate::tools::exec::relay::StoreRelay {
        store: ctx.settings()?.store_target(),
        wait,
        agent: agent.map(str::to_string),
        session: session.map(str::to_string),
        notice: Box::new(move |r| {
            out.note(&format!(
                "approval needed (request {}): {}\n  {}\n  answer from anywhere: goclaw approvals answer {} once|always|deny",
                r.id, r.command, r.reason, r.id
            ))
        }),
    }))
}
