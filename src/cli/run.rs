//! `goclaw run`: one agent run. Flags become an [`agent::RunRequest`]; the run itself is
//! `agent::Runner`. Output: on a terminal the answer streams as it is generated (tool calls noted
//! on stderr); off a terminal one JSON document; with `--events`, JSON Lines events only.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use serde_json::Value;

use super::input::Input;
use super::shared::CallerArgs;
use super::terminal::TerminalPrompter;
use super::{Context, Status};
use crate::agent::events::EventKind;
use crate::agent::{Cancel, Event, RunRequest, Sink};
use crate::error::{Error, Result};
use crate::ops::run::{RunKit, RunOptions};
use crate::output::Output;
use crate::tools::gate::{OnAsk, Prompter};

/// Run an agent: Think → Act → Observe until it answers
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    goclaw run 'summarize README.md'\n  \
    echo 'fix the failing test' | goclaw run --agent builder --session ci -\n  \
    goclaw run --provider replay:fixtures/runs/quickstart.jsonl 'what is in notes.txt?'\n  \
    goclaw run --events 'list the files' | jq -c 'select(.type==\"tool.call\")'\n\n\
    Exit codes: 0 completed, 1 failed, 3 denied by the input guard, 7 timed out,\n\
    8 the provider failed, 130 interrupted.")]
pub struct RunArgs {
    /// The message: text, @FILE, or - for stdin (default: stdin)
    pub message: Option<String>,
    #[command(flatten)]
    pub caller: CallerArgs,
    /// The model (default: the agent's, then the provider's)
    #[arg(long)]
    pub model: Option<String>,
    /// A key of [providers], openai, anthropic, or replay:FILE (default: the agent's)
    #[arg(long)]
    pub provider: Option<String>,
    /// At most this many LLM iterations (the agent's limit still applies)
    #[arg(long)]
    pub max_iterations: Option<u32>,
    /// End the run after this long (30s, 5m, 1h), status timed_out, exit 7
    #[arg(long)]
    pub timeout: Option<String>,
    /// When a tool needs approval and there is no terminal: deny, fail or allow
    #[arg(long, value_enum, default_value_t = OnAsk::Deny)]
    pub on_ask: OnAsk,
    /// Print every event as JSON Lines (and nothing else) on stdout
    #[arg(long)]
    pub events: bool,
    /// Save every LLM exchange to FILE (JSON Lines) for `--provider replay:FILE`
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Only these tools (comma-separated), within what the policy allows; empty: none
    #[arg(long, value_name = "TOOLS", value_delimiter = ',')]
    pub allow_tools: Option<Vec<String>>,
}

/// How events are shown.
enum Show {
    /// JSON Lines on stdout.
    Events,
    /// The answer streamed to a terminal; tool calls on stderr.
    Terminal { streamed: bool },
    /// Nothing until the final document.
    Quiet,
}

/// Shows a run's events as `--events` or the terminal asks, through [`Output`]: tool-call
/// notes are notes (silent with `--quiet`), streamed text is data.
struct CliSink {
    show: Show,
    out: Output,
}

impl Sink for CliSink {
    fn event(&mut self, event: &Event) {
        match &mut self.show {
            // A closed pipe ends the output, not the run (its state is recorded anyway).
            Show::Events => {
                let _ = self.out.record_json(event);
            }
            Show::Terminal { streamed } => match &event.kind {
                EventKind::Chunk { content } => {
                    *streamed = true;
                    let _ = self.out.raw(content.as_bytes());
                }
                EventKind::ToolCall {
                    name, arguments, ..
                } => {
                    if *streamed {
                        let _ = self.out.raw(b"\n");
                        *streamed = false;
                    }
                    self.out.note(&format!("→ {name} {arguments}"));
                }
                EventKind::ToolResult {
                    is_error: true,
                    result,
                    ..
                } => {
                    self.out
                        .note(&format!("  ✗ {}", result.lines().next().unwrap_or("")));
                }
                EventKind::RunRetrying {
                    attempt,
                    max_attempts,
                    error,
                    ..
                } => self
                    .out
                    .note(&format!("retrying ({attempt}/{max_attempts}): {error}")),
                _ => {}
            },
            Show::Quiet => {}
        }
    }
}

pub fn run(ctx: &Context, a: RunArgs) -> Result<Status> {
    let message = String::from_utf8(Input::parse(a.message.as_deref()).read(ctx)?)
        .map_err(|_| Error::usage("the message is not UTF-8 text"))?;
    if message.trim().is_empty() {
        return Err(Error::usage("the message is empty"));
    }
    let timeout = a
        .timeout
        .as_deref()
        .map(super::shared::parse_duration)
        .transpose()?;
    let mut store = ctx.store()?;
    let options = RunOptions {
        agent: a.caller.agent.as_deref(),
        user: a.caller.user.as_deref(),
        provider: a.provider.as_deref(),
        record: a.record.as_deref(),
        allow_tools: a.allow_tools.as_deref(),
    };
    let mut kit = RunKit::open(ctx.settings()?, &store, options)?;
    ctx.out.notes(kit.take_notes());
    let gate = kit.gate(super::shared::at_terminal(ctx, None).asker);
    let rt = crate::ops::run::runtime()?;
    let cancel = Arc::new(Cancel::default());
    watch_signals(&rt, cancel.clone())?;

    let terminal = std::io::stdout().is_terminal() && !ctx.json_flag;
    let show = if a.events {
        Show::Events
    } else if terminal {
        Show::Terminal { streamed: false }
    } else {
        Show::Quiet
    };
    let terminal_prompter = TerminalPrompter::new(ctx);
    let prompter: Option<&dyn Prompter> = if TerminalPrompter::available() {
        Some(&terminal_prompter)
    } else {
        None
    };
    let mut runner = kit.runner(&gate, &mut store, prompter, cancel, &rt);
    let request = RunRequest {
        message,
        session: a.caller.session.clone(),
        user: a.caller.user.clone(),
        model: a.model.clone(),
        max_iterations: a.max_iterations,
        timeout,
        on_ask: a.on_ask,
    };
    let mut sink = CliSink {
        show,
        out: ctx.out.clone(),
    };
    let outcome = runner.run(&request, &mut sink)?;
    for w in &outcome.warnings {
        ctx.out.warn(w);
    }
    match (&sink.show, outcome.kind) {
        (Show::Events, None) => Ok(Status::Ok),
        (Show::Events, Some(kind)) => {
            ctx.out.note(&format!(
                "error: run {} {}: {}",
                outcome.run_id,
                outcome.status.as_str(),
                outcome.error.as_deref().unwrap_or("")
            ));
            Ok(Status::Exit(kind))
        }
        (Show::Terminal { streamed }, None) => {
            if !*streamed && !outcome.silent {
                ctx.out.raw(outcome.content.as_bytes())?;
            }
            ctx.out.raw(b"\n")?;
            Ok(Status::Ok)
        }
        (_, None) => {
            ctx.out
                .data(&outcome, |w| writeln!(w, "{}", outcome.content))?;
            Ok(Status::Ok)
        }
        (_, Some(kind)) => {
            let details = serde_json::to_value(&outcome).unwrap_or(Value::Null);
            Err(Error::new(
                kind,
                format!(
                    "run {} {}: {}",
                    outcome.run_id,
                    outcome.status.as_str(),
                    outcome.error.as_deref().unwrap_or("")
                ),
            )
            .with_details(details))
        }
    }
}

/// SIGINT and SIGTERM cancel the run (it then ends cleanly and records why).
fn watch_signals(rt: &tokio::runtime::Runtime, cancel: Arc<Cancel>) -> Result<()> {
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
