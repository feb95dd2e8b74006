//! `goclaw run`: one agent run. Flags become an [`agent::RunRequest`]; the run itself is
//! `agent::Runner`. Output: on a terminal the answer streams as it is generated (tool calls noted
//! on stderr); off a terminal one JSON document; with `--events`, JSON Lines events only.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use serde_json::Value;

use super::input::Input;
use super::tools::CallerArgs;
use super::{Context, Status};
use crate::agent::{Cancel, RunRequest, Runner, Sink};
use crate::error::{Error, Result};
use crate::providers;
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

struct CliSink {
    show: Show,
}

impl Sink for CliSink {
    fn event(&mut self, event: &Value) {
        match &mut self.show {
            Show::Events => {
                let mut out = std::io::stdout().lock();
                // A closed pipe ends the output, not the run (its state is recorded anyway).
                let _ = writeln!(out, "{event}");
                let _ = out.flush();
            }
            Show::Terminal { streamed } => {
                let kind = event["type"].as_str().unwrap_or("");
                match kind {
                    "chunk" => {
                        *streamed = true;
                        let mut out = std::io::stdout().lock();
                        let _ = out.write_all(event["content"].as_str().unwrap_or("").as_bytes());
                        let _ = out.flush();
                    }
                    "tool.call" => {
                        if *streamed {
                            println!();
                            *streamed = false;
                        }
                        eprintln!(
                            "→ {} {}",
                            event["name"].as_str().unwrap_or(""),
                            event["arguments"]
                        );
                    }
                    "tool.result" if event["is_error"] == true => {
                        let text = event["result"].as_str().unwrap_or("");
                        eprintln!("  ✗ {}", text.lines().next().unwrap_or(""));
                    }
                    "run.retrying" => eprintln!(
                        "retrying ({}/{}): {}",
                        event["attempt"],
                        event["maxAttempts"],
                        event["error"].as_str().unwrap_or("")
                    ),
                    _ => {}
                }
            }
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
        .map(super::team::parse_duration)
        .transpose()?;
    let settings = ctx.settings()?;
    let config = &settings.config;
    let agent_key = a.caller.agent.clone().unwrap_or_else(|| "default".into());
    let agent_cfg = match &a.caller.agent {
        Some(k) => Some(
            config
                .agents
                .get(k)
                .ok_or_else(|| crate::tools::config::unknown_agent(k))?,
        ),
        None => config.agents.get("default"),
    };
    let env = |k: &str| std::env::var(k).ok();
    let provider_name = match a
        .provider
        .clone()
        .or(agent_cfg.and_then(|c| c.provider.clone()))
    {
        Some(p) => p,
        None => providers::default_name(&config.providers, &env)?,
    };
    let resolved = providers::resolve(&config.providers, &provider_name, &env)?;
    let client = providers::Client::new(resolved, a.record.as_deref())?;

    let mut store = ctx.store()?;
    let p = super::tools::watched_parts(ctx, &store, &a.caller)?;
    let mut gate = super::tools::gate(ctx, &p)?;
    if let Some(list) = &a.allow_tools {
        let list: Vec<String> = list
            .iter()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        gate.ceiling = Some((list, "--allow-tools".into()));
    }

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| Error::internal(format!("cannot start the async runtime: {e}")))?;
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
    let prompter_impl = super::tools::TerminalPrompter;
    let prompter: Option<&dyn Prompter> = if super::tools::TerminalPrompter::available() {
        Some(&prompter_impl)
    } else {
        None
    };
    let mut runner = Runner {
        gate: &gate,
        store: &mut store,
        busy_timeout: config.store.busy_timeout(),
        client: &client,
        agent_key: &agent_key,
        agent: agent_cfg,
        guard_mode: agent_cfg.and_then(|c| c.guard).unwrap_or(config.guard.mode),
        max_message_chars: config.guard.max_message_chars,
        prompter,
        cancel,
        rt: &rt,
    };
    let request = RunRequest {
        message,
        session: a.caller.session.clone(),
        user: a.caller.user.clone(),
        model: a.model.clone(),
        max_iterations: a.max_iterations,
        timeout,
        on_ask: a.on_ask,
    };
    let mut sink = CliSink { show };
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
            let mut out = std::io::stdout().lock();
            if !*streamed && !outcome.silent {
                let _ = out.write_all(outcome.content.as_bytes());
            }
            let _ = writeln!(out);
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
