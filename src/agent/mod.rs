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
pub mod history;
pub mod loopdetect;
pub mod prompt;
pub mod record;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::error::{Error, ErrorKind, Result};
use crate::memory::files;
use crate::providers::{self, ChatRequest, ChatResponse, Message, Role, ToolCall, ToolDef, Usage};
use crate::store::Store;
use crate::store::now_ms;
use crate::text::guard::{self, GuardMode};
use crate::tools::gate::{CallRequest, Gate, OnAsk, Prompter};
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
/// Messages are checkpointed every this many iterations.
const CHECKPOINT_EVERY: u32 = 5;

/// Cancellation shared with signal handlers (SIGINT, SIGTERM); tool calls stop on the same flag.
#[derive(Default)]
pub struct Cancel {
    signal: crate::tools::SignalFlag,
    notify: tokio::sync::Notify,
}

impl Cancel {
    pub fn cancel(&self, terminated: bool) {
        self.signal.raise(terminated);
        self.notify.notify_waiters();
    }
    pub fn is_cancelled(&self) -> bool {
        self.signal.get().is_some()
    }
    /// SIGTERM (not SIGINT) cancelled the run.
    pub fn terminated(&self) -> bool {
        self.signal.get() == Some(crate::tools::Stopped::Terminated)
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
    pub session: Option<String>,
    pub user: Option<String>,
    pub model: Option<String>,
    pub max_iterations: Option<u32>,
    pub timeout: Option<Duration>,
    pub on_ask: OnAsk,
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
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq)]
pub struct RunUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost: f64,
}

/// How a run ended: the JSON document `goclaw run` prints off a terminal.
#[derive(Debug, Clone, Serialize)]
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
}

fn truncate_chars(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

impl Runner<'_> {
    /// Runs the agent once. Returns the outcome whatever the end (a failed run is an outcome
    /// with `kind`); `Err` only when the run could not be recorded at all.
    pub fn run(&mut self, req: &RunRequest, sink: &mut dyn Sink) -> Result<RunOutcome> {
        record::reap_abandoned(self.store.conn())?;
        let run_id = uuid::Uuid::now_v7().to_string();
        let mut em = Emitter::new(sink, run_id.clone(), self.gate.scrubber());
        let cfg = self.agent.cloned().unwrap_or_default();
        let model = req
            .model
            .clone()
            .or(cfg.model.clone())
            .or(self.client.default_model().map(str::to_string))
            .ok_or_else(|| {
                Error::usage(format!(
                    "no model for agent `{}`: pass --model, or set model in [agents.{}] or [providers.{}]",
                    self.agent_key, self.agent_key, self.client.resolved.name
                ))
            })?;
        let provider = self.client.resolved.name.clone();
        let session = req.session.clone();
        let mut outcome = RunOutcome {
            run_id: run_id.clone(),
            session: session.clone(),
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
        };
        record::start_run(
            self.store.conn(),
            self.gate.scrubber(),
            &run_id,
            session.as_deref(),
            self.agent_key,
            req.user.as_deref(),
            &provider,
            &model,
            &req.message,
        )?;
        let started = Instant::now();
        let started_ms = now_ms();
        em.emit(EventKind::RunStarted {
            message: req.message.clone(),
            agent: self.agent_key.to_string(),
            session: session.clone(),
        });

        // Phase 2: the input guard, then truncation.
        let verdict =
            guard::check(req.message.as_bytes(), self.guard_mode).map_err(Error::internal)?;
        if verdict.blocked {
            let msg = guard::blocked_message(&verdict.matches);
            return self.finish(
                &mut em,
                outcome,
                RunStatus::Denied,
                Some(Error::denied(msg)),
                &[],
                (&provider, &model),
                (started, started_ms),
                None,
            );
        }
        if !verdict.matches.is_empty() && self.guard_mode != GuardMode::Log {
            outcome.warnings.push(format!(
                "possible prompt injection in the message ({})",
                verdict.matches.join(",")
            ));
        }
        let message = guard::truncate(&req.message, self.max_message_chars)
            .unwrap_or_else(|| req.message.clone());

        // Phase 3: prompt and history.
        let allowed = self
            .gate
            .evaluate(
                self.agent.map(|a| a.profile()).as_ref(),
                Some(&provider),
                &Default::default(),
            )
            .tools;
        let mut tools: Vec<ToolDef> = allowed
            .iter()
            .filter_map(|n| self.gate.registry().get(n))
            .map(|t| ToolDef {
                name: t.name().to_string(),
                description: t.description().to_string(),
                parameters: t.parameters(),
            })
            .collect();
        let owner = files::Owner {
            agent: self.agent_key,
            predefined: cfg.predefined(),
            user: req.user.as_deref().unwrap_or(""),
        };
        let context_files = files::context_for_run(self.store.conn(), &owner)?;
        // First run of an open agent (§16.8): BOOTSTRAP.md is followed with write_file alone.
        let bootstrap = !owner.predefined && context_files.iter().any(|(n, _)| n == "BOOTSTRAP.md");
        if bootstrap {
            tools.retain(|t| t.name == "write_file");
        }
        let has_memory = tools.iter().any(|t| t.name == "memory_search")
            && files::has_memory(self.store.conn(), self.agent_key)?;
        let tool_notes = if tools.iter().any(|t| t.name == "credentialed_exec") {
            let clis = crate::tools::credentialed::usable(self.store.conn(), Some(self.agent_key))?;
            crate::tools::credentialed::prompt_context(&clis)
        } else {
            String::new()
        };
        let skills = if !bootstrap && tools.iter().any(|t| t.name == "use_skill") {
            let found = crate::skills::discover(
                self.gate.skill_roots(),
                self.store.conn(),
                Some(self.agent_key),
            )?;
            crate::skills::prompt_section(&found)
        } else {
            String::new()
        };
        let system = prompt::build(&prompt::PromptInput {
            agent: self.agent_key,
            minimal: false,
            tools: &tools,
            workspace: &self
                .gate
                .workspace_for(self.agent.map(|a| a.profile()).as_ref()),
            context_files: &context_files,
            has_memory,
            today: &prompt::today(),
            bootstrap,
            tool_notes: &tool_notes,
            skills: &skills,
        });
        let mut base = vec![Message::new(Role::System, system)];
        if let Some(key) = &session {
            let summary = record::compaction_state(self.store.conn(), key)?
                .and_then(|(_, _, summary)| summary);
            if let Some(summary) = summary {
                base.push(Message::new(
                    Role::User,
                    format!("[Previous conversation summary]\n{summary}"),
                ));
                base.push(Message::new(
                    Role::Assistant,
                    "I understand the context from our previous conversation. How can I help you?",
                ));
            }
            let stored = record::history(self.store.conn(), key)?;
            // A history with broken tool pairing is repaired in the store too (§16.6).
            let (clean, changed) = history::sanitize_history(stored);
            if changed > 0 {
                record::replace_history(
                    self.store.conn_mut(),
                    self.gate.scrubber(),
                    key,
                    &run_id,
                    &clean,
                )?;
                outcome.warnings.push(format!(
                    "session {key}: repaired {changed} message(s) with broken tool pairing"
                ));
            }
            match cfg.history_limit.unwrap_or(0) {
                0 => base.extend(clean),
                limit => {
                    let limited = history::limit_history_turns(clean, limit);
                    base.extend(history::sanitize_history(limited).0);
                }
            }
        }
        // A team lead is reminded of its board (seen by the model, not kept in the session).
        for reminder in crate::team::lead_reminders(self.store.conn(), self.agent_key)? {
            base.push(Message::new(Role::User, reminder));
        }
        // One growing conversation: the history, then this run's messages from `base_len` on.
        let mut base_len = base.len();
        let mut all = base;
        all.push(Message::new(Role::User, message));

        // Phase 4: iterations.
        let max_iterations = req
            .max_iterations
            .map(|m| m.min(cfg.max_iterations.unwrap_or(DEFAULT_MAX_ITERATIONS)))
            .or(cfg.max_iterations)
            .unwrap_or(DEFAULT_MAX_ITERATIONS)
            .max(1);
        let tool_limit = cfg.max_tool_calls.unwrap_or(DEFAULT_MAX_TOOL_CALLS);
        let deadline = req.timeout.map(|t| started + t);
        let verbose = std::env::var("GOCLAW_TRACE_VERBOSE").is_ok_and(|v| v == "1");
        let mut usage = Usage::default();
        let mut cost = 0.0;
        let mut total_calls = 0u32;
        let mut detector = LoopDetector::default();
        let mut any_text = false;
        let mut end = End::Completed(String::new());
        let window = cfg
            .context_window
            .or(self.client.resolved.config.context_window)
            .unwrap_or(DEFAULT_CONTEXT_WINDOW);
        // This run's messages that a mid-loop compaction took out of the window.
        let mut carried: Vec<Message> = Vec::new();
        let mut mid_compacted = false;
        let mut iteration = 0;
        while iteration < max_iterations {
            iteration += 1;
            outcome.iterations = iteration;
            if let Some(e) = self.interrupted(deadline) {
                end = e;
                break;
            }
            em.emit(EventKind::Activity {
                phase: Phase::Thinking,
                iteration: Some(iteration),
            });
            let last = iteration == max_iterations;
            if !last && max_iterations > 1 && iteration == max_iterations * 3 / 4 && !any_text {
                all.push(Message::new(Role::User, "[System] You have used 75% of your iteration budget without providing a text response. Start summarizing your findings and respond to the user within the next few iterations."));
            }
            if last && max_iterations > 1 {
                all.push(Message::new(Role::User, "[System] Final iteration reached. Summarize all findings and respond to the user now. No more tool calls allowed."));
            }
            let request = ChatRequest {
                model: model.clone(),
                messages: std::mem::take(&mut all),
                tools: if last { Vec::new() } else { tools.clone() },
                max_tokens: cfg.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
                temperature: cfg.temperature.unwrap_or(DEFAULT_TEMPERATURE),
            };
            let llm_start = Instant::now();
            let llm_started_ms = now_ms();
            let answer = self.ask_llm(&request, &mut em, deadline);
            let input_preview = verbose.then(|| {
                let text = serde_json::to_string(&request.messages).unwrap_or_default();
                truncate_chars(&text, 50_000).to_string()
            });
            all = request.messages;
            let (response, span_error) = match answer {
                Ok(r) => (Some(r), None),
                Err(e) => (None, Some(e)),
            };
            let call_cost = response.as_ref().map_or(0.0, |r| self.client.cost(r.usage));
            record::add_span(
                self.store.conn(),
                self.gate.scrubber(),
                &run_id,
                &Span {
                    kind: "llm",
                    name: &format!("{provider}/{model}"),
                    started_at: llm_started_ms,
                    duration_ms: llm_start.elapsed().as_millis() as i64,
                    status: if span_error.is_some() { "error" } else { "ok" },
                    error: span_error.as_ref().map(|e| match e {
                        End::Failed(e) => e.message.as_str(),
                        End::Cancelled => "cancelled",
                        End::TimedOut => "timed out",
                        End::Completed(_) => "",
                    }),
                    provider: Some(&provider),
                    model: Some(&model),
                    input_tokens: response.as_ref().map(|r| r.usage.input_tokens),
                    output_tokens: response.as_ref().map(|r| r.usage.output_tokens),
                    cost: response.as_ref().map(|_| call_cost),
                    finish_reason: response.as_ref().map(|r| r.finish_reason.as_str()),
                    input_preview: input_preview.as_deref(),
                    output_preview: response.as_ref().map(|r| truncate_chars(&r.content, 500)),
                    ..Default::default()
                },
            )?;
            let Some(mut response) = response else {
                end = span_error.unwrap_or(End::Cancelled);
                break;
            };
            usage.input_tokens += response.usage.input_tokens;
            usage.output_tokens += response.usage.output_tokens;
            cost += call_cost;
            if !response.content.trim().is_empty() {
                any_text = true;
            }
            if response.tool_calls.is_empty() || last {
                all.push(Message::new(Role::Assistant, response.content.clone()));
                end = End::Completed(response.content);
                break;
            }
            // Mid-loop compaction, once, when the prompt reached the share of the window.
            let prompt_tokens = match response.usage.input_tokens {
                0 => history::estimate_tokens(&all),
                n => n,
            };
            if !mid_compacted
                && cfg.compaction.enabled
                && prompt_tokens as f64 >= window as f64 * cfg.compaction.history_share
                && let Some((split, summary)) =
                    self.compact_in_loop(&mut em, &model, &all, cfg.compaction.keep_last.max(1))
            {
                mid_compacted = true;
                if split > base_len {
                    carried.extend(all[base_len..split].iter().cloned());
                }
                let kept_history = base_len.saturating_sub(split);
                let mut next = vec![all[0].clone(), summary];
                next.extend(all.drain(split..));
                base_len = 2 + kept_history;
                all = next;
            }
            history::uniquify_tool_call_ids(&mut response.tool_calls, &run_id, iteration);
            all.push(Message::asking(
                response.content.clone(),
                response.tool_calls.clone(),
            ));
            if response.finish_reason == "length" {
                for call in &response.tool_calls {
                    all.push(Message::tool_result(
                        call,
                        "[not executed: the arguments were cut off]",
                    ));
                }
                all.push(Message::new(Role::User, "[System] Your output was truncated because it exceeded max_tokens. Your tool call arguments were incomplete. Please retry with shorter content — split large writes into multiple smaller calls, or reduce the amount of text."));
                continue;
            }
            if !response.content.trim().is_empty() {
                let text = sanitized(&response.content);
                if !text.is_empty() && !is_silent(&text) {
                    em.emit(EventKind::BlockReply { content: text });
                }
            }
            total_calls += response.tool_calls.len() as u32;
            if tool_limit > 0 && total_calls > tool_limit {
                for call in &response.tool_calls {
                    all.push(Message::tool_result(
                        call,
                        "[not executed: the tool call budget is spent]",
                    ));
                }
                all.push(Message::new(Role::User, format!("[System] Tool call budget reached ({total_calls}/{tool_limit}). Do NOT call any more tools. Summarize results so far and respond to the user.")));
                continue;
            }
            em.emit(EventKind::Activity {
                phase: Phase::ToolExec,
                iteration: Some(iteration),
            });
            let results = self.call_tools(
                &response.tool_calls,
                req,
                &session,
                &mut em,
                &run_id,
                deadline,
            )?;
            let mut stop = None;
            let mut warnings = Vec::new();
            for (call, (text, _)) in response.tool_calls.iter().zip(&results) {
                all.push(Message::tool_result(call, text.clone()));
                match detector.record(&call.name, &call.arguments, text) {
                    Verdict::Fine => {}
                    Verdict::Warn(w) => warnings.push(w),
                    Verdict::Stop(s) => stop = Some(s),
                }
            }
            for w in warnings {
                all.push(Message::new(Role::User, w));
            }
            if let Some(text) = stop {
                all.push(Message::new(Role::Assistant, text.clone()));
                end = End::Completed(text);
                break;
            }
            if iteration % CHECKPOINT_EVERY == 0
                && let Some(key) = &session
            {
                record::checkpoint(
                    self.store.conn_mut(),
                    self.gate.scrubber(),
                    &run_id,
                    (key, self.agent_key, req.user.as_deref()),
                    &all[base_len..],
                )?;
            }
            record::heartbeat(self.store.conn(), &run_id, iteration)?;
        }
        outcome.tool_calls = total_calls;
        outcome.usage = RunUsage {
            input_tokens: usage.input_tokens,
            output_tokens: usage.output_tokens,
            cost,
        };
        let (status, error) = match end {
            End::Completed(content) => {
                let clean = sanitized(&content);
                outcome.silent = is_silent(&clean);
                outcome.content = if outcome.silent {
                    String::new()
                } else if clean.is_empty() {
                    "...".into()
                } else {
                    clean
                };
                (RunStatus::Completed, None)
            }
            End::Failed(e) => (RunStatus::Failed, Some(e)),
            End::Cancelled if self.cancel.terminated() => (
                RunStatus::Cancelled,
                Some(Error::new(
                    ErrorKind::Terminated,
                    "the run was cancelled (SIGTERM)",
                )),
            ),
            End::Cancelled => (
                RunStatus::Cancelled,
                Some(Error::new(ErrorKind::Interrupted, "the run was cancelled")),
            ),
            End::TimedOut => (
                RunStatus::TimedOut,
                Some(Error::new(
                    ErrorKind::Timeout,
                    format!(
                        "the run timed out after {}s",
                        req.timeout.unwrap_or_default().as_secs()
                    ),
                )),
            ),
        };
        // Keep only whole steps: an assistant's tool calls with all their results.
        let mut pending = carried;
        pending.extend(all.split_off(base_len));
        let whole = if status == RunStatus::Completed {
            pending
        } else {
            whole_steps(pending)
        };
        let compaction = Compaction {
            model: &model,
            owner: owner.clone(),
            tools: &tools,
            window,
            config: &cfg.compaction,
        };
        self.finish(
            &mut em,
            outcome,
            status,
            error,
            &whole,
            (&provider, &model),
            (started, started_ms),
            Some(compaction),
        )
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

    /// Runs the calls through the gate: one alone, several in parallel (each with its own store
    /// connection), unless someone may be asked for approvals at a terminal. Results come back
    /// in call order as (text for the model, is_error).
    fn call_tools(
        &mut self,
        calls: &[ToolCall],
        req: &RunRequest,
        session: &Option<String>,
        em: &mut Emitter,
        run_id: &str,
        deadline: Option<Instant>,
    ) -> Result<Vec<(String, bool)>> {
        for call in calls {
            em.emit(EventKind::ToolCall {
                name: call.name.clone(),
                id: call.id.clone(),
                arguments: call.arguments.clone(),
            });
        }
        let request = |call: &ToolCall| CallRequest {
            tool: call.name.clone(),
            args: call.arguments.clone(),
            agent: self.agent.map(|_| self.agent_key.to_string()),
            user: req.user.clone(),
            session_key: session.clone(),
            channel: Some("run".into()),
            on_ask: req.on_ask,
            stop: crate::tools::StopWhen {
                deadline,
                signal: Some(self.cancel.flag()),
            },
            ..Default::default()
        };
        let gate = self.gate;
        let started_ms = now_ms();
        let timed: Vec<(Result<crate::tools::gate::Outcome>, Duration)> =
            if calls.len() == 1 || self.prompter.is_some() {
                let mut out = Vec::new();
                for call in calls {
                    let t = Instant::now();
                    out.push((
                        gate.call(self.store, &request(call), self.prompter),
                        t.elapsed(),
                    ));
                }
                out
            } else {
                let path = gate.store_path().to_path_buf();
                let busy = self.busy_timeout;
                let requests: Vec<CallRequest> = calls.iter().map(request).collect();
                std::thread::scope(|s| {
                    let handles: Vec<_> = requests
                        .iter()
                        .map(|r| {
                            let path = path.clone();
                            s.spawn(move || {
                                let t = Instant::now();
                                let result = Store::open(&path, busy)
                                    .and_then(|mut store| gate.call(&mut store, r, None));
                                (result, t.elapsed())
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| {
                            h.join().unwrap_or_else(|_| {
                                (
                                    Err(Error::internal("a tool call thread panicked")),
                                    Duration::ZERO,
                                )
                            })
                        })
                        .collect()
                })
            };
        let mut results = Vec::new();
        for (call, (outcome, took)) in calls.iter().zip(timed) {
            let (text, is_error) = crate::tools::gate::answer(outcome);
            em.emit(EventKind::ToolResult {
                name: call.name.clone(),
                id: call.id.clone(),
                is_error,
                result: text.clone(),
            });
            record::add_span(
                self.store.conn(),
                self.gate.scrubber(),
                run_id,
                &Span {
                    kind: "tool",
                    name: &call.name,
                    started_at: started_ms,
                    duration_ms: took.as_millis() as i64,
                    status: if is_error { "error" } else { "ok" },
                    error: is_error.then_some(text.as_str()),
                    tool_call_id: Some(&call.id),
                    output_preview: Some(truncate_chars(&text, 500)),
                    ..Default::default()
                },
            )?;
            results.push((text, is_error));
        }
        Ok(results)
    }

    /// Writes the end: run row and session in one transaction, root span, terminal event.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &mut self,
        em: &mut Emitter,
        mut outcome: RunOutcome,
        status: RunStatus,
        error: Option<Error>,
        messages: &[Message],
        provider_model: (&str, &str),
        (started, started_ms): (Instant, i64),
        compaction: Option<Compaction>,
    ) -> Result<RunOutcome> {
        outcome.status = status;
        outcome.kind = error.as_ref().map(|e| e.kind);
        // What the command prints is scrubbed like what it stores and streams.
        let scrub = |t: &str| self.gate.scrubber().scrub_str(t, None);
        outcome.error = error.as_ref().map(|e| scrub(&e.message));
        outcome.content = scrub(&outcome.content);
        let session = outcome.session.clone();
        let user = outcome.user.as_deref();
        record::finish_run(
            self.store.conn_mut(),
            self.gate.scrubber(),
            &outcome.run_id,
            session
                .as_deref()
                .filter(|_| !messages.is_empty())
                .map(|k| (k, self.agent_key, user)),
            messages,
            &RunEnd {
                status,
                content: &outcome.content,
                silent: outcome.silent,
                iterations: outcome.iterations,
                tool_calls: outcome.tool_calls,
                input_tokens: outcome.usage.input_tokens,
                output_tokens: outcome.usage.output_tokens,
                cost: outcome.usage.cost,
                error: outcome.error.as_deref(),
            },
            provider_model,
        )?;
        if let (RunStatus::Completed, Some(c), Some(key)) = (status, compaction, session.as_deref())
        {
            let warnings = self.maybe_compact(em, key, &c)?;
            outcome.warnings.extend(warnings);
        }
        let root = record::add_span(
            self.store.conn(),
            self.gate.scrubber(),
            &outcome.run_id,
            &Span {
                kind: "agent",
                name: self.agent_key,
                started_at: started_ms,
                duration_ms: started.elapsed().as_millis() as i64,
                status: status.as_str(),
                error: outcome.error.as_deref(),
                input_tokens: Some(outcome.usage.input_tokens),
                output_tokens: Some(outcome.usage.output_tokens),
                cost: Some(outcome.usage.cost),
                output_preview: Some(truncate_chars(&outcome.content, 500)),
                ..Default::default()
            },
        )?;
        record::adopt_spans(self.store.conn(), &outcome.run_id, root)?;
        let usage = outcome.usage;
        match status {
            RunStatus::Completed => em.emit(EventKind::RunCompleted {
                content: outcome.content.clone(),
                silent: outcome.silent,
                iterations: outcome.iterations,
                usage,
            }),
            RunStatus::Cancelled => em.emit(EventKind::RunCancelled {
                iterations: outcome.iterations,
                usage,
            }),
            _ => em.emit(EventKind::RunFailed {
                status,
                error: outcome.error.clone(),
                iterations: outcome.iterations,
                usage,
            }),
        }
        Ok(outcome)
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

/// The messages up to the last whole step: a trailing assistant whose tool calls lack results
/// (or a partial answer) is dropped.
fn whole_steps(mut msgs: Vec<Message>) -> Vec<Message> {
    loop {
        let Some(last) = msgs.last() else { return msgs };
        let whole = match last.role {
            Role::Assistant => last.tool_calls.is_empty(),
            Role::Tool => {
                // Whole when the assistant before the results has all of them.
                let start = msgs.iter().rposition(|m| m.role != Role::Tool).unwrap_or(0);
                let answered = msgs.len() - start - 1;
                msgs[start].tool_calls.len() == answered
            }
            _ => true,
        };
        if whole {
            return msgs;
        }
        msgs.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn whole_steps_drops_unanswered_calls() {
        let call = ToolCall {
            id: "a".into(),
            name: "t".into(),
            arguments: json!({}),
        };
        let asking = Message::asking("", vec![call.clone()]);
        let msgs = vec![Message::new(Role::User, "hi"), asking.clone()];
        assert_eq!(whole_steps(msgs).len(), 1);
        let msgs = vec![
            Message::new(Role::User, "hi"),
            asking,
            Message::tool_result(&call, "r"),
        ];
        assert_eq!(whole_steps(msgs).len(), 3);
    }
}
