//! `goclaw run`: one agent run. Flags become an [`agent::RunRequest`]; the run itself is
//! `agent::Runner`. Output: on a terminal the answer streams as it is generated (tool calls noted
//! on stderr); off a terminal one JSON document; with `--events`, JSON Lines events only.

mod detach;

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
use crate::agent::{Cancel, ChildOf, Event, RunRequest, Sink};
use crate::error::{Error, Result};
use crate::ops::run::{RunKit, RunOptions};
use crate::ops::task_run::TeamWork;
use crate::output::Output;
use crate::text::printable::printable;
use crate::tools::gate::{OnAsk, Prompter};

// Run an agent: Think → Act → Observe until it answers
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
    /// Spend at most this many US dollars, at the provider's prices: a request that could take
    /// the run past it is not sent; status limited, exit 4 (default: the agent's max_cost)
    #[arg(long, value_name = "USD")]
    pub max_cost: Option<f64>,
    /// End the run after this long (90s, 5m, 1h30m, 2d), status timed_out, exit 7
    #[arg(long)]
    pub timeout: Option<String>,
    /// When a tool needs approval and there is no terminal: deny, fail, allow, or wait[:DUR]
    /// for `goclaw approvals answer` from elsewhere
    #[arg(long, default_value = "deny", value_parser = OnAsk::parse)]
    pub on_ask: OnAsk,
    /// Extra context for the system prompt, text or @FILE: the agent sees it under
    /// `## Additional Context`, wrapped in <extra_context>
    #[arg(long, value_name = "TEXT|@FILE")]
    pub context: Option<String>,
    /// Print every event as JSON Lines (and nothing else) on stdout
    #[arg(long)]
    pub events: bool,
    /// Save every LLM exchange to FILE (JSON Lines) for `--provider replay:FILE`
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Only these tools (comma-separated), within what the policy allows; empty: none
    #[arg(long, value_name = "TOOLS", value_delimiter = ',')]
    pub allow_tools: Option<Vec<String>>,
    /// Print {"run_id": …} at once and run in the background (its end is in the store:
    /// `goclaw runs show`, `runs wait`)
    #[arg(long, conflicts_with = "events")]
    pub detach: bool,
    /// The run's id, chosen by whoever started it (a detached run, the spawn tool)
    #[arg(long, hide = true)]
    pub run_id: Option<String>,
    /// The message is text as it is, never @FILE or - (set when goclaw starts a run itself)
    #[arg(long, hide = true)]
    pub literal: bool,
    /// A run that sessions_send started: the subagent deny lists apply, so it cannot start
    /// further runs (set by the sessions_send tool)
    #[arg(long, hide = true)]
    pub sent: bool,
    /// A subagent's parent run (set by the spawn tool)
    #[arg(long, hide = true, requires = "run_id")]
    pub parent_run: Option<String>,
    /// Leave the subagents this run starts running when it ends (default: a run that answers
    /// waits for them, one that ends otherwise cancels them)
    #[arg(long)]
    pub detach_children: bool,
    /// A subagent that does not end with its parent's process (set by the spawn tool)
    #[arg(long, hide = true, requires = "parent_run")]
    pub detached: bool,
    /// At most these subagent limits, CONCURRENT,DEPTH,CHILDREN,ITERATIONS: a child's are its
    /// parent's at most (set by the spawn tool, with --allow-tools)
    #[arg(long, hide = true, requires = "allow_tools")]
    pub subagent_limits: Option<crate::subagents::Limits>,
    /// A subagent's depth (set by the spawn tool)
    #[arg(long, hide = true, default_value_t = 1)]
    pub depth: u32,
    /// A subagent's label (set by the spawn tool)
    #[arg(long, hide = true, default_value = "")]
    pub label: String,
    /// A quality gate: after the answer, CMD runs in the workspace (through exec); exit 0
    /// passes, otherwise its output goes back to the agent for revision (repeatable)
    #[arg(long, value_name = "CMD")]
    pub gate: Vec<String>,
    /// The answer must be one JSON document valid against this JSON Schema: the validation
    /// errors go back to the agent, up to --gate-retries times; then the run fails (exit 1)
    #[arg(long, value_name = "FILE")]
    pub output_schema: Option<PathBuf>,
    /// Revisions a failing --gate, --gate-agent or --output-schema allows before the run fails
    #[arg(long, value_name = "N", default_value_t = crate::agent::config::DEFAULT_GATE_RETRIES)]
    pub gate_retries: u32,
    /// A quality gate run by AGENT, which reviews the answer: APPROVED, or REJECTED: feedback
    /// for revision (repeatable)
    #[arg(long, value_name = "AGENT")]
    pub gate_agent: Vec<String>,
    /// Evaluate-optimize: AGENT judges each answer (APPROVED or REJECTED: feedback) and the
    /// agent revises until approved or --max-rounds is reached
    #[arg(long, value_name = "AGENT")]
    pub evaluator: Option<String>,
    /// Rounds of the evaluator loop, 1 to 5 (default 3)
    #[arg(long, value_name = "N", requires = "evaluator")]
    pub max_rounds: Option<u32>,
    /// Check no quality gate (a gate's own reviewer run: the recursion guard)
    #[arg(long, hide = true)]
    pub skip_gates: bool,
    /// Work on this team task (id, identifier or #number): the run claims it (or takes it when
    /// the agent holds it), starts from it, and its end completes, fails or gives it back
    #[arg(long, value_name = "ID")]
    pub task: Option<String>,
    /// Run for this team (default with --task: the agent's only team): the lead gets TEAM.md,
    /// every run its team messages, and works in the team's workspace
    #[arg(long, value_name = "TEAM", value_parser = super::shared::non_empty())]
    pub team: Option<String>,
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

/// With `--events`, the children's events join the stream as they come (each line one event of
/// a child, with its `run_id` and `parent_run_id`).
#[derive(Debug)]
pub(crate) struct EventRelay {
    out: Output,
    /// Children whose stream is still open.
    open: std::sync::Mutex<usize>,
    ended: std::sync::Condvar,
    /// What a closed pipe stops, when the relay is the command's only output (`team run
    /// --events`); else a closed pipe ends the output, not the runs.
    stops: Option<Arc<Cancel>>,
    reader_gone: std::sync::atomic::AtomicBool,
}

impl EventRelay {
    /// A relay to this command's stdout.
    pub(crate) fn shared(ctx: &Context) -> crate::tools::gate::SharedRelay {
        Self::new(ctx, None)
    }

    /// A relay whose closed pipe cancels `cancel`: nobody reads the events any more.
    pub(crate) fn stopping(ctx: &Context, cancel: Arc<Cancel>) -> Arc<EventRelay> {
        Self::new(ctx, Some(cancel))
    }

    fn new(ctx: &Context, stops: Option<Arc<Cancel>>) -> Arc<EventRelay> {
        Arc::new(EventRelay {
            out: ctx.out.clone(),
            open: std::sync::Mutex::new(0),
            ended: std::sync::Condvar::new(),
            stops,
            reader_gone: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The reader went away: a relay that stops the runs stops them (once).
    pub(crate) fn gone(&self) {
        if !self
            .reader_gone
            .swap(true, std::sync::atomic::Ordering::Relaxed)
            && let Some(cancel) = &self.stops
        {
            cancel.cancel(crate::tools::Stopped::Interrupted);
        }
    }

    /// Whether a write met a closed pipe, or the reader went away.
    pub(crate) fn reader_gone(&self) -> bool {
        self.reader_gone.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl crate::tools::gate::Relay for EventRelay {
    fn line(&self, line: &str) {
        if let Err(e) = self.out.raw(format!("{line}\n").as_bytes())
            && e.is_closed_pipe()
        {
            self.gone();
        }
    }
    fn stream(&self, open: bool) {
        if let Ok(mut n) = self.open.lock() {
            *n = if open { *n + 1 } else { n.saturating_sub(1) };
            self.ended.notify_all();
        }
    }
    fn drain(&self, timeout: std::time::Duration) {
        if let Ok(n) = self.open.lock() {
            let _ = self.ended.wait_timeout_while(n, timeout, |n| *n > 0);
        }
    }
}

/// Shows a run's events as `--events` or the terminal asks, through [`Output`]: tool-call
/// notes are notes (silent with `--quiet`), streamed text is data.
struct CliSink {
    show: Show,
    out: Output,
    /// Stopped when the reader of `--events` is gone (`goclaw run --events | head -1`): nobody
    /// sees what the run does any more, so it should do no more.
    cancel: Arc<Cancel>,
    reader_gone: bool,
}

/// Why a run whose events nobody reads any more ends (its status: cancelled).
const READER_GONE: &str = "the reader of the events went away (a closed pipe)";

impl Sink for CliSink {
    fn event(&mut self, event: &Event) {
        match &mut self.show {
            Show::Events => {
                if let Err(e) = self.out.record_json(event)
                    && e.is_closed_pipe()
                    && !self.reader_gone
                {
                    self.reader_gone = true;
                    self.cancel.withdraw_quietly(READER_GONE.into());
                }
            }
            Show::Terminal { streamed } => match &event.kind {
                EventKind::Chunk { content } => {
                    *streamed = true;
                    // The model's text, made printable: no escape sequence of its choosing
                    // reaches the terminal (one split across chunks loses its ESC here).
                    let _ = self.out.raw(printable(content).as_bytes());
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
    let message = read_message(ctx, &a)?;
    let timeout = a
        .timeout
        .as_deref()
        .map(super::shared::parse_duration)
        .transpose()?;
    if a.detach {
        return detach::detach(ctx, &a, &message);
    }
    let gates = quality_gates(ctx, &a)?;
    let mut store = ctx.any_store()?;
    let run_id = a
        .run_id
        .clone()
        .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    let work = match (&a.team, &a.task) {
        (None, None) => None,
        (team, task) => Some(TeamWork::take(
            &mut store,
            &ctx.settings()?.workspace,
            (team.as_deref(), task.as_deref()),
            a.caller.agent.as_deref().unwrap_or("default"),
            &run_id,
        )?),
    };
    let message = match work.as_ref().and_then(TeamWork::dispatch_message) {
        Some(task) if message.trim().is_empty() => task,
        Some(task) => format!("{task}\n\n{message}"),
        None => message,
    };
    let request = RunRequest {
        message,
        context: read_context(ctx, &a)?,
        session: a.caller.session.clone(),
        user: a.caller.user.clone(),
        model: a.model.clone(),
        max_iterations: a.max_iterations,
        timeout,
        // From here: connecting to the MCP servers counts against `--timeout`.
        timeout_from: Some(std::time::Instant::now()),
        max_cost: a.max_cost,
        on_ask: a.on_ask,
        run_id: Some(run_id),
        detach_children: a.detach_children,
        restricted: a.sent,
        gates: gates
            .into_iter()
            .chain(work.as_ref().and_then(TeamWork::gate))
            .collect(),
        skip_gates: a.skip_gates,
        child: None,
        relay: a.events.then(|| EventRelay::shared(ctx)),
        team: work.as_ref().map(TeamWork::team_run),
    };
    let result = execute(ctx, &a, &mut store, request, work.as_ref());
    if let (Err(_), Some(w)) = (&result, &work) {
        // The run never got going: its task goes back to the board.
        let _ = w.give_back(&mut store);
    }
    result
}

/// The message: text, @FILE or stdin; with `--task` it may be left out (the task is the
/// message), and stdin is read only when `-` says so.
fn read_message(ctx: &Context, a: &RunArgs) -> Result<String> {
    // A message another run or a job passes is text as it is: never @FILE or stdin.
    let input = match (&a.message, a.literal) {
        (Some(text), true) => Input::Literal(text.clone()),
        (None, _) if a.task.is_some() => Input::Literal(String::new()),
        (message, _) => Input::parse(message.as_deref()),
    };
    let mut message = String::from_utf8(input.read(ctx)?)
        .map_err(|_| Error::usage("the message is not UTF-8 text"))?;
    // Read from stdin or a file, it ends where a shell's `$(…)` would end it: `echo hi | goclaw
    // run -` sends `hi`, not `hi` and a newline. Text given on the command line is kept as is.
    if !matches!(input, Input::Literal(_)) {
        message.truncate(message.trim_end_matches(['\n', '\r']).len());
    }
    if message.trim().is_empty() && a.task.is_none() {
        return Err(Error::usage("the message is empty"));
    }
    Ok(message)
}

/// `--context`: its text, read from @FILE when it names one.
fn read_context(ctx: &Context, a: &RunArgs) -> Result<Option<String>> {
    let Some(value) = a.context.as_deref() else {
        return Ok(None);
    };
    if value == "-" {
        return Err(Error::usage(
            "--context takes text or @FILE (standard input is the message's)",
        ));
    }
    let input = Input::parse(Some(value));
    let text = String::from_utf8(input.read(ctx)?)
        .map_err(|_| Error::usage(format!("--context: {} is not UTF-8 text", input.describe())))?;
    Ok(Some(text))
}

/// Runs `request`: the agent's kit in the run's workspace, signals and the parent watched, the
/// events shown as asked; for a team task, the task watched and ended from the outcome.
fn execute(
    ctx: &Context,
    a: &RunArgs,
    store: &mut crate::store::Store,
    mut request: RunRequest,
    work: Option<&TeamWork>,
) -> Result<Status> {
    let settings = ctx.settings()?;
    // Watched from here: connecting to the MCP servers stops at a signal like the rest of the
    // run.
    let rt = crate::ops::run::runtime()?;
    let cancel = Arc::new(Cancel::default());
    super::shared::watch_signals(&rt, cancel.clone())?;
    let options = RunOptions {
        agent: a.caller.agent.as_deref(),
        user: a.caller.user.as_deref(),
        provider: a.provider.as_deref(),
        record: a.record.as_deref(),
        allow_tools: a.allow_tools.as_deref(),
        subagent_limits: a.subagent_limits,
        // Connecting may take half the run's time: a server that never answers is skipped
        // with time left for the work (it took all of it, and the run timed out unbegun).
        stop: crate::tools::StopWhen {
            deadline: request
                .timeout
                .zip(request.timeout_from)
                .map(|(t, from)| from + t / 2),
            signal: Some(cancel.flag()),
            deadline_is: Some(
                "half of the run's --timeout, the time given to connecting to its MCP servers, passed",
            ),
        },
    };
    let mut kit = RunKit::open(settings, store, options)?;
    ctx.out.notes(kit.take_notes());
    if let Some(w) = work {
        kit.pin_workspace(w.workspace.clone())?;
    }
    let gate = kit.gate(super::shared::at_terminal(ctx, None).asker);
    request.child = a.parent_run.as_ref().map(|parent_run_id| {
        if !a.detached {
            watch_parent(cancel.clone());
        }
        ChildOf {
            parent_run_id: parent_run_id.clone(),
            depth: a.depth,
            label: a.label.clone(),
        }
    });
    if let Some(w) = work {
        w.watch(&settings.store_target(), cancel.clone());
    }
    let terminal = std::io::stdout().is_terminal() && !ctx.json_flag;
    let show = if a.events {
        // Nobody reads the events any more: the run stops now, not at its next event.
        let withdraw = cancel.clone();
        super::reader::on_reader_gone(move || withdraw.withdraw_quietly(READER_GONE.into()));
        Show::Events
    } else if terminal {
        Show::Terminal { streamed: false }
    } else {
        Show::Quiet
    };
    let terminal_prompter = TerminalPrompter::new(ctx);
    let relay = super::tool_call::relay(
        ctx,
        request.on_ask,
        a.caller.agent.as_deref(),
        request.session.as_deref(),
    )?;
    let prompter: Option<&dyn Prompter> = if TerminalPrompter::available() {
        Some(&terminal_prompter)
    } else {
        relay.as_ref().map(|r| r as &dyn Prompter)
    };
    let mut sink = CliSink {
        show,
        out: ctx.out.clone(),
        cancel: cancel.clone(),
        reader_gone: false,
    };
    let outcome = kit
        .runner(&gate, store, prompter, cancel, &rt)
        .run(&request, &mut sink)?;
    if let Some(w) = work {
        w.end(store, &outcome)?;
    }
    for w in &outcome.warnings {
        ctx.out.warn(w);
    }
    if sink.reader_gone || sink.cancel.withdrawn().as_deref() == Some(READER_GONE) {
        // The run is recorded as cancelled; for the pipeline a closed pipe is a normal end,
        // which ends quietly (said with --verbose).
        ctx.out
            .verbose(&format!("run {} stopped: {READER_GONE}", outcome.run_id));
        return Ok(Status::Ok);
    }
    show_outcome(ctx, &sink.show, &outcome)
}

/// The outcome as the show mode wants it: nothing more after `--events` (the events said it),
/// the end of the streamed answer on a terminal, else one JSON document; a failed run is the
/// error document with the outcome as details.
fn show_outcome(ctx: &Context, show: &Show, outcome: &crate::agent::RunOutcome) -> Result<Status> {
    match (show, outcome.kind) {
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
                ctx.out.raw(printable(&outcome.content).as_bytes())?;
            }
            ctx.out.raw(b"\n")?;
            Ok(Status::Ok)
        }
        (_, None) => {
            ctx.out
                .data(outcome, |w| writeln!(w, "{}", outcome.content))?;
            Ok(Status::Ok)
        }
        (_, Some(kind)) => {
            let details = serde_json::to_value(outcome).unwrap_or(Value::Null);
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

/// A subagent ends (cancelled, as by SIGTERM) when the process that started it is gone: it was
/// adopted by another process. Checked twice a second, so a killed parent leaves no child
/// running past its next heartbeat window.
fn watch_parent(cancel: Arc<Cancel>) {
    let parent = nix::unistd::getppid();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(std::time::Duration::from_millis(500));
            if nix::unistd::getppid() != parent {
                cancel.cancel(crate::tools::Stopped::Terminated);
                return;
            }
        }
    });
}

/// The quality gates of `--gate`, `--gate-agent` and `--evaluator`, in that order: commands
/// first (cheap), then reviewers, then the evaluator (an agent gate with `--max-rounds` - 1
/// revisions). Empty commands, unknown agents and rounds outside 1..=5 are refused here, before
/// the run starts.
fn quality_gates(ctx: &Context, a: &RunArgs) -> Result<Vec<crate::agent::config::QualityGate>> {
    use crate::agent::config::QualityGate;
    if a.gate.iter().any(|c| c.trim().is_empty()) {
        return Err(Error::usage("--gate needs a command"));
    }
    super::shared::check_agents(ctx, a.gate_agent.iter().chain(&a.evaluator))?;
    if a.gate_retries > MAX_GATE_RETRIES {
        return Err(Error::usage(format!(
            "--gate-retries must be at most {MAX_GATE_RETRIES} (got {})",
            a.gate_retries
        )));
    }
    let rounds = a.max_rounds.unwrap_or(DEFAULT_ROUNDS);
    if !(1..=MAX_ROUNDS).contains(&rounds) {
        return Err(Error::usage(format!(
            "--max-rounds must be between 1 and {MAX_ROUNDS} (got {rounds})"
        )));
    }
    let gate = |command: Option<&String>, agent: Option<&String>, max_retries| QualityGate {
        command: command.cloned(),
        agent: agent.cloned(),
        schema: None,
        max_retries,
    };
    let mut gates: Vec<QualityGate> = a
        .gate
        .iter()
        .map(|c| gate(Some(c), None, a.gate_retries))
        .collect();
    gates.extend(
        a.gate_agent
            .iter()
            .map(|g| gate(None, Some(g), a.gate_retries)),
    );
    gates.extend(a.evaluator.iter().map(|e| gate(None, Some(e), rounds - 1)));
    if let Some(path) = &a.output_schema {
        gates.push(QualityGate {
            schema: Some(output_schema(path)?),
            ..gate(None, None, a.gate_retries)
        });
    }
    Ok(gates)
}

/// The JSON Schema of `--output-schema FILE`, checked to be one before the run starts.
fn output_schema(path: &std::path::Path) -> Result<Value> {
    // A schema, not a data set: at most 16 MiB (so /dev/zero ends at once).
    const MAX: u64 = 16 << 20;
    let text = std::fs::File::open(path)
        .and_then(|f| crate::host::read_at_most(f, MAX))
        .map_err(|e| Error::io("read", path, &e))?
        .ok_or_else(|| {
            Error::usage(format!(
                "--output-schema {}: larger than 16 MiB",
                path.display()
            ))
        })?;
    let schema: Value = serde_json::from_slice(&text)
        .map_err(|e| Error::usage(format!("--output-schema {}: not JSON: {e}", path.display())))?;
    crate::tools::schema::validator(&schema).map_err(|e| {
        Error::usage(format!(
            "--output-schema {}: not a valid JSON Schema: {e}",
            path.display()
        ))
    })?;
    Ok(schema)
}

/// Rounds of the evaluator loop by default (`--max-rounds`), and at most.
const DEFAULT_ROUNDS: u32 = 3;
const MAX_ROUNDS: u32 = 5;
/// Most revisions `--gate-retries` allows (each gives the agent its budget again).
const MAX_GATE_RETRIES: u32 = 10;
