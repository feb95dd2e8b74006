//! The agent loop: Think → Act → Observe (seed 002, with the code's behaviour of §16). One run:
//! input guard and truncation, system prompt, history pipeline, LLM iterations with the
//! policy-filtered tools (nudges, truncated-output retry, tool budget, loop detection), tool
//! calls through the gate (several at once in parallel, results in call order), output
//! sanitising and NO_REPLY, and one atomic flush of the run's messages to its session.
//!
//! A run is a row with a status machine (`record.rs`); exactly one terminal event is emitted.
//! SIGINT/SIGTERM and the deadline end it between steps or mid-stream; the session then keeps
//! the part of the run that is whole (every tool call with its result), never half an answer.
//! Nothing here prints: events go to a [`Sink`], and the caller decides what to show.

pub mod compaction;
pub mod config;
pub mod events;
mod extraction;
mod finish;
mod gates;
pub mod history;
pub mod loopdetect;
mod prepare;
pub mod prompt;
pub mod pruning;
pub mod record;
pub mod review;
pub mod runs;
mod team;
mod turn;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::memory::files;
use crate::providers::{self, ChatRequest, ChatResponse, Message, Role, ToolCall, ToolDef, Usage};
use crate::store::Store;
use crate::store::now_ms;
use crate::text::guard::{self, GuardMode};
use crate::text::words;
use crate::tools::gate::{CallRequest, Gate, OnAsk, Prompter, RunLink, Scope};
use config::AgentConfig;
use events::{Emitter, EventKind, Phase, Stream};
pub use events::{Event, Sink};
use loopdetect::{LoopDetector, Verdict};
use record::{RunEnd, RunStatus, Span};

/// §16.8 defaults.
pub const DEFAULT_MAX_ITERATIONS: u32 = 30;
pub const DEFAULT_MAX_TOOL_CALLS: u32 = 25;
pub const DEFAULT_CONTEXT_WINDOW: u64 = 200_000;
pub const DEFAULT_MAX_TOKENS: u32 = 8192;
pub const DEFAULT_TEMPERATURE: f64 = 0.7;
/// How long a run waits for its children's relayed events to end before its own last one.
const CHILD_EVENTS_DRAIN: Duration = Duration::from_secs(3);
/// Messages are checkpointed every this many iterations.
const CHECKPOINT_EVERY: u32 = 5;

/// Cancellation shared with signal handlers (SIGHUP, SIGINT, SIGTERM); tool calls stop on the
/// same flag.
#[derive(Default)]
pub struct Cancel {
    signal: crate::tools::SignalFlag,
    notify: tokio::sync::Notify,
    /// Why the run's work was taken from it (its task failed by a blocker, cancelled).
    withdrawn: std::sync::Mutex<Option<String>>,
    /// The run was withdrawn as a normal end of its command (see [`Cancel::withdraw_quietly`]).
    quietly: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for Cancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cancel")
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

impl Cancel {
    /// Stops the run as `why` (a signal) would: the first reason given is the one kept.
    pub fn cancel(&self, why: crate::tools::Stopped) {
        self.signal.raise(why);
        self.notify.notify_waiters();
    }
    /// Stops the run because its work was taken from it (tools stop as on SIGTERM); the run
    /// ends cancelled with `why` (exit 6, a lost claim).
    pub fn withdraw(&self, why: String) {
        if let Ok(mut w) = self.withdrawn.lock() {
            w.get_or_insert(why);
        }
        self.cancel(crate::tools::Stopped::Terminated);
    }
    /// Stops the run as [`Cancel::withdraw`] does, for a reason that is a normal end of its
    /// command (the reader of its events went away: a closed pipe): the run is recorded
    /// cancelled with `why`, and with the exit code its command ends with, 0.
    pub fn withdraw_quietly(&self, why: String) {
        self.quietly
            .store(true, std::sync::atomic::Ordering::SeqCst);
        self.withdraw(why);
    }
    /// Whether the run was withdrawn by [`Cancel::withdraw_quietly`].
    pub fn withdrawn_quietly(&self) -> bool {
        self.quietly.load(std::sync::atomic::Ordering::SeqCst)
    }
    /// Why the run's work was taken from it, if it was.
    pub fn withdrawn(&self) -> Option<String> {
        self.withdrawn.lock().ok().and_then(|w| w.clone())
    }
    pub fn is_cancelled(&self) -> bool {
        self.signal.get().is_some()
    }
    /// The signal that cancelled the run, if one did.
    pub fn stopped_by(&self) -> Option<crate::tools::Stopped> {
        self.signal.get()
    }
    /// The flag itself, for tools that wait (they stop their process when it is set).
    pub fn flag(&self) -> crate::tools::SignalFlag {
        self.signal.clone()
    }
    async fn cancelled(&self) {
        loop {
            let notified = self.notify.notified();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}

/// What a run is asked to do.
#[derive(Debug, Clone, Default)]
pub struct RunRequest {
    pub message: String,
    /// Extra context for the system prompt (`run --context`), under `## Additional Context`.
    pub context: Option<String>,
    pub session: Option<String>,
    pub user: Option<String>,
    pub model: Option<String>,
    pub max_iterations: Option<u32>,
    pub timeout: Option<Duration>,
    /// When `timeout` began counting (the command's start, before its MCP servers were
    /// connected); `None`: the run's own start.
    pub timeout_from: Option<std::time::Instant>,
    /// US dollars the run may spend (`--max-cost`; else the agent's `max_cost`).
    pub max_cost: Option<f64>,
    pub on_ask: OnAsk,
    /// The run's id, when the caller chose it (a detached run, a subagent); else a new one.
    pub run_id: Option<String>,
    /// Set when this run is a subagent: its parent and its place.
    pub child: Option<ChildOf>,
    /// Where the events of this run's children go (when the caller shows events).
    pub relay: Option<crate::tools::gate::SharedRelay>,
    /// Its children outlive it (`run --detach-children`).
    pub detach_children: bool,
    /// Started by another run outside the subagent tree (`sessions_send`): the subagent and
    /// leaf deny lists apply, so it cannot start further runs.
    pub restricted: bool,
    /// Quality gates of this run (`--gate`, `--gate-agent`, `--evaluator`), checked after the
    /// agent's own `quality_gates`.
    pub gates: Vec<config::QualityGate>,
    /// No quality gate is checked (a gate's own reviewer run: the seed's recursion guard).
    pub skip_gates: bool,
    /// The team the run works for (`--team`, `--task`), and its task.
    pub team: Option<TeamRun>,
}

/// A run for a team: the lead gets TEAM.md, every run its mailbox messages, and a run on a
/// task the task's context and progress nudges (see [`crate::team::work`]).
#[derive(Debug, Clone)]
pub struct TeamRun {
    pub team: crate::team::Team,
    /// The task the run works on, which it holds.
    pub task: Option<crate::team::board::Task>,
    /// The command's workspace, below which the team's lies (for TEAM.md).
    pub base: std::path::PathBuf,
}

/// What a subagent run knows of its parent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChildOf {
    pub parent_run_id: String,
    pub depth: u32,
    pub label: String,
}

/// Everything a run works with.
pub struct Runner<'a> {
    pub gate: &'a Gate<'a>,
    pub store: &'a mut Store,
    pub busy_timeout: Duration,
    pub client: &'a providers::Client,
    pub agent_key: &'a str,
    pub agent: Option<&'a AgentConfig>,
    /// The input guard's mode and message limit.
    pub guard_mode: GuardMode,
    pub max_message_chars: usize,
    pub prompter: Option<&'a dyn Prompter>,
    pub cancel: Arc<Cancel>,
    pub rt: &'a tokio::runtime::Runtime,
}

/// Token use and cost of a run.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, schemars::JsonSchema)]
pub struct RunUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost: f64,
}

/// How a run ended: the JSON document `goclaw run` prints off a terminal.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RunOutcome {
    pub run_id: String,
    pub session: Option<String>,
    pub status: RunStatus,
    pub content: String,
    pub silent: bool,
    pub iterations: u32,
    pub usage: RunUsage,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Notes for the person running it (guard matches, skipped things).
    #[serde(skip)]
    pub warnings: Vec<String>,
    /// The error kind the exit code follows (`None`: success).
    #[serde(skip)]
    pub kind: Option<ErrorKind>,
    #[serde(skip)]
    pub tool_calls: u32,
    /// The user the run was for.
    #[serde(skip)]
    pub user: Option<String>,
}

/// Streams the provider's fragments out as `chunk` / `thinking` events and reports retries.
struct Streaming<'e, 's> {
    emitter: &'e mut Emitter<'s>,
}

impl providers::Observer for Streaming<'_, '_> {
    fn text(&mut self, fragment: &str) {
        self.emitter.text(Stream::Chunk, fragment);
    }
    fn thinking(&mut self, fragment: &str) {
        self.emitter.text(Stream::Thinking, fragment);
    }
    fn retrying(&mut self, attempt: u32, max: u32, error: &str, wait: Duration) {
        self.emitter.emit(EventKind::RunRetrying {
            attempt,
            max_attempts: max,
            error: error.to_string(),
            wait_ms: wait.as_millis() as u64,
        });
    }
}

impl RunOutcome {
    /// The outcome of a run that has just started.
    fn started(run_id: &str, req: &RunRequest) -> RunOutcome {
        RunOutcome {
            run_id: run_id.to_string(),
            session: req.session.clone(),
            status: RunStatus::Running,
            content: String::new(),
            silent: false,
            iterations: 0,
            usage: RunUsage::default(),
            error: None,
            warnings: Vec::new(),
            kind: None,
            tool_calls: 0,
            user: req.user.clone(),
        }
    }
}

/// What a run is, fixed at its start.
struct RunMeta {
    run_id: String,
    provider: String,
    model: String,
    started: Instant,
    started_ms: i64,
}

/// How a run ends: its status and error, the messages its session keeps, and what post-run
/// compaction needs (for a run that got that far).
struct Conclusion<'c> {
    status: RunStatus,
    error: Option<Error>,
    messages: Vec<Message>,
    compaction: Option<Compaction<'c>>,
}

/// What post-run compaction needs.
struct Compaction<'a> {
    model: &'a str,
    owner: files::Owner<'a>,
    tools: &'a [ToolDef],
    window: u64,
    config: &'a compaction::CompactionConfig,
}

/// How the loop ended, before the flush.
enum End {
    Completed(String),
    Failed(Error),
    Cancelled,
    TimedOut,
    /// A budget stopped the run before a request that could exceed it.
    Limited(String),
}

impl Runner<'_> {
    /// Runs the agent once. Returns the outcome whatever the end (a failed run is an outcome
    /// with `kind`); `Err` only when the run could not be recorded at all.
    pub fn run(&mut self, req: &RunRequest, sink: &mut dyn Sink) -> Result<RunOutcome> {
        record::reap_abandoned(self.store.db())?;
        let run_id = req
            .run_id
            .clone()
            .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
        let parent_run_id = req.child.as_ref().map(|c| c.parent_run_id.clone());
        let mut em = Emitter::new(sink, (run_id.clone(), parent_run_id), self.gate.scrubber());
        if let Some(task) = req.team.as_ref().and_then(|t| t.task.as_ref()) {
            em.set_task(&task.id);
        }
        let cfg = self.agent.cloned().unwrap_or_default();
        self.check_budget(req.max_cost.or(cfg.max_cost))?;
        let meta = RunMeta {
            model: self.model_for(req, &cfg)?,
            provider: self.client.resolved.name.clone(),
            run_id,
            started: Instant::now(),
            started_ms: now_ms(),
        };
        let mut outcome = RunOutcome::started(&meta.run_id, req);
        let new_run = record::NewRun {
            id: &meta.run_id,
            session: req.session.as_deref(),
            agent: self.agent_key,
            user: req.user.as_deref(),
            provider: &meta.provider,
            model: &meta.model,
            message: &req.message,
            parent: req
                .child
                .as_ref()
                .map(|c| (c.parent_run_id.as_str(), c.depth, c.label.as_str())),
        };
        record::start_run(self.store.db(), self.gate.scrubber(), &new_run)?;
        em.emit(EventKind::RunStarted {
            message: req.message.clone(),
            agent: self.agent_key.to_string(),
            session: req.session.clone(),
        });
        // Phase 2: the input guard, then truncation.
        let message = match self.screen(req, &mut outcome)? {
            Ok(message) => message,
            Err(refusal) => {
                let end = Conclusion {
                    status: RunStatus::Denied,
                    error: Some(refusal),
                    messages: Vec::new(),
                    compaction: None,
                };
                return self.finish(&mut em, outcome, &meta, end);
            }
        };
        // Phase 3: prompt and history; phase 4: iterations.
        let owner = files::Owner {
            agent: self.agent_key,
            predefined: cfg.predefined(),
            user: req.user.as_deref().unwrap_or(""),
        };
        let mut st = self.prepare(req, cfg, meta, &owner, message, &mut outcome)?;
        let end = self.iterate(req, &mut st, &mut em, &mut outcome)?;
        if st.spawned {
            self.cancel_children(&st.meta.run_id)?;
        }
        // The children's last events come before this run's own.
        if let Some(relay) = &st.link.relay {
            relay.drain(CHILD_EVENTS_DRAIN);
        }
        let (status, error) = self.judge(end, req, &mut st, &mut outcome);
        // Only a run that completes adds to its session. One that fails, is cancelled or times
        // out leaves the session as it was (its message, error and spans stay with the run:
        // `goclaw runs show`, `goclaw traces show`), so a retried run (a cron job against a
        // provider that is down) never finds its own unanswered message in the history, and
        // the model never sees a question as if it had been dealt with.
        let messages = if status == RunStatus::Completed {
            let mut pending = std::mem::take(&mut st.carried);
            pending.extend(st.all.split_off(st.base_len));
            pending
        } else {
            Vec::new()
        };
        let compaction = Compaction {
            model: &st.meta.model,
            owner,
            tools: &st.tools,
            window: st.window,
            config: &st.cfg.compaction,
        };
        let end = Conclusion {
            status,
            error,
            messages,
            compaction: Some(compaction),
        };
        self.finish(&mut em, outcome, &st.meta, end)
    }

    /// A budget needs prices: without them every request would look free.
    fn check_budget(&self, max_cost: Option<f64>) -> Result<()> {
        let Some(budget) = max_cost else {
            return Ok(());
        };
        if !(budget.is_finite() && budget > 0.0) {
            return Err(Error::usage(format!(
                "max_cost must be a positive number of US dollars, not {budget}"
            )));
        }
        let million = Usage {
            input_tokens: 1_000_000,
            output_tokens: 1_000_000,
        };
        if self.client.cost(million) <= 0.0 {
            let name = &self.client.resolved.name;
            return Err(Error::usage(format!(
                "a budget (max_cost ${budget}) needs the prices of provider `{name}`"
            ))
            .with_hint(format!(
                "set input_price and output_price (US$ per million tokens) in [providers.{name}]"
            )));
        }
        Ok(())
    }

    /// The model: the request's, the agent's, or the provider's default.
    fn model_for(&self, req: &RunRequest, cfg: &AgentConfig) -> Result<String> {
        req.model
            .clone()
            .or(cfg.model.clone())
            .or(self.client.default_model().map(str::to_string))
            .ok_or_else(|| {
                Error::usage(format!(
                    "no model for agent `{}`: pass --model, or set model in [agents.{}] or [providers.{}]",
                    self.agent_key, self.agent_key, self.client.resolved.name
                ))
            })
    }

    /// The input guard: the message to send (truncated to the limit), or the refusal.
    fn screen(
        &self,
        req: &RunRequest,
        outcome: &mut RunOutcome,
    ) -> Result<std::result::Result<String, Error>> {
        let verdict =
            guard::check(req.message.as_bytes(), self.guard_mode).map_err(Error::internal)?;
        if verdict.blocked {
            return Ok(Err(Error::denied(guard::blocked_message(&verdict.matches))));
        }
        if !verdict.matches.is_empty() && self.guard_mode != GuardMode::Log {
            outcome.warnings.push(format!(
                "possible prompt injection in the message ({})",
                verdict.matches.join(",")
            ));
        }
        Ok(Ok(guard::truncate(&req.message, self.max_message_chars)
            .unwrap_or_else(|| req.message.clone())))
    }

    /// Why the run must stop now, if it must.
    fn interrupted(&self, deadline: Option<Instant>) -> Option<End> {
        if self.cancel.is_cancelled() {
            return Some(End::Cancelled);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(End::TimedOut);
        }
        None
    }

    /// One LLM exchange, ended early by cancellation or the deadline.
    fn ask_llm(
        &self,
        request: &ChatRequest,
        em: &mut Emitter,
        deadline: Option<Instant>,
    ) -> std::result::Result<ChatResponse, End> {
        let cancel = self.cancel.clone();
        let client = self.client;
        let mut observer = Streaming { emitter: em };
        self.rt.block_on(async {
            let until = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d.into()).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                r = client.chat(request, &mut observer) => r.map_err(End::Failed),
                _ = cancel.cancelled() => Err(End::Cancelled),
                _ = until => Err(End::TimedOut),
            }
        })
    }
}

fn sanitized(text: &str) -> String {
    crate::text::sanitize::sanitize(text.as_bytes())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_else(|_| text.to_string())
}

fn is_silent(text: &str) -> bool {
    crate::text::sanitize::is_silent(text.as_bytes())
}
