//! Phase 4 of a run: the iterations. Each asks the model (nudged at 75% of the budget and on the
//! last iteration, which offers no tools), records the exchange as a span, compacts once
//! mid-loop when the prompt fills the window's share, retries truncated tool calls, enforces the
//! tool-call budget, runs the calls through the gate (several at once in parallel) and watches
//! for loops; every few iterations the run's messages are checkpointed to its session.

use std::time::{Duration, Instant};

use super::gates::GateVerdict;
use super::*;

impl RunState {
    /// Search mode: what a search found, or a held-back tool the model called by name, is
    /// offered from the next turn on.
    fn activate(&mut self, call: &ToolCall, result: &str) {
        let names = if call.name == "mcp_tool_search" {
            crate::tools::mcp_search::found_names(result)
        } else {
            vec![call.name.clone()]
        };
        for name in names {
            if let Some(i) = self.deferred.iter().position(|t| t.name == name) {
                let tool = self.deferred.remove(i);
                self.tools.push(tool);
            }
        }
    }
}

/// The loop's state: the conversation and what the run has used so far.
pub(super) struct RunState {
    pub meta: RunMeta,
    pub session: Option<String>,
    pub cfg: AgentConfig,
    pub tools: Vec<ToolDef>,
    /// MCP tools held back in search mode until `mcp_tool_search` finds them (or the model
    /// calls one by name).
    pub deferred: Vec<ToolDef>,
    /// The conversation; this run's messages start at `base_len`.
    pub all: Vec<Message>,
    pub base_len: usize,
    /// This run's messages that a mid-loop compaction took out of the window.
    pub carried: Vec<Message>,
    pub usage: Usage,
    pub cost: f64,
    pub total_calls: u32,
    pub detector: LoopDetector,
    /// The model has written text at least once.
    pub any_text: bool,
    pub mid_compacted: bool,
    pub iteration: u32,
    pub max_iterations: u32,
    /// Tool calls per run; 0 = unlimited.
    pub tool_limit: u32,
    pub deadline: Option<Instant>,
    /// US dollars the run may spend.
    pub max_cost: Option<f64>,
    /// The context window, in tokens.
    pub window: u64,
    /// Keep the full prompt of every LLM span (`GOCLAW_TRACE_VERBOSE=1`).
    pub verbose: bool,
    /// The run as its tool calls see it (the parent of what `spawn` starts).
    pub link: RunLink,
    /// The policy scope of a subagent (its deny lists), empty for a top-level run.
    pub scope: Scope,
    /// The run has called `spawn`: only then are children looked for.
    pub spawned: bool,
    /// The iterations each attempt gets (a quality gate's revision gets as many again).
    pub budget: u32,
    /// The quality gates the answer must pass, and how often each has failed so far.
    pub gates: Vec<super::config::QualityGate>,
    pub gate_failures: Vec<u32>,
    /// The run's message, for reviewers.
    pub message: String,
}

/// Whether the loop goes on.
enum Flow {
    Next,
    End(End),
}

impl Runner<'_> {
    /// Iterates until the model answers, a limit is reached or the run is stopped.
    pub(super) fn iterate(
        &mut self,
        req: &RunRequest,
        st: &mut RunState,
        em: &mut Emitter,
        outcome: &mut RunOutcome,
    ) -> Result<End> {
        while st.iteration < st.max_iterations {
            st.iteration += 1;
            outcome.iterations = st.iteration;
            if st.iteration > 1 {
                self.between_iterations(req, st)?;
            }
            if let Some(e) = self.interrupted(st.deadline) {
                return Ok(e);
            }
            if st.spawned {
                self.announce(st)?;
            }
            match self.step(req, st, em)? {
                Flow::Next => {}
                // An answer while children still work: wait for them, then let the model use
                // what they found (when the budget allows one more iteration). A final answer
                // then passes the quality gates, or goes back for revision with their feedback.
                Flow::End(End::Completed(text)) => {
                    if st.iteration < st.max_iterations && st.spawned && self.await_children(st)? {
                        if let Some(e) = self.interrupted(st.deadline) {
                            return Ok(e);
                        }
                        continue;
                    }
                    match self.check_gates(req, st, em, &text)? {
                        GateVerdict::Pass => return Ok(End::Completed(text)),
                        GateVerdict::Fail(e) => return Ok(End::Failed(e)),
                        GateVerdict::Stopped(end) => return Ok(end),
                        GateVerdict::Revise(feedback) => {
                            st.all.push(Message::new(Role::User, feedback));
                            // Each revision gets the run's budget again.
                            st.max_iterations = st.iteration + st.budget;
                            if let Some(e) = self.interrupted(st.deadline) {
                                return Ok(e);
                            }
                        }
                    }
                }
                Flow::End(e) => return Ok(e),
            }
        }
        Ok(End::Completed(String::new()))
    }

    /// One iteration: ask the model, then act on its answer.
    fn step(&mut self, req: &RunRequest, st: &mut RunState, em: &mut Emitter) -> Result<Flow> {
        em.emit(EventKind::Activity {
            phase: Phase::Thinking,
            iteration: Some(st.iteration),
        });
        let last = st.iteration == st.max_iterations;
        if !last
            && st.max_iterations > 1
            && st.iteration == st.max_iterations * 3 / 4
            && !st.any_text
        {
            st.all.push(Message::new(Role::User, "[System] You have used 75% of your iteration budget without providing a text response. Start summarizing your findings and respond to the user within the next few iterations."));
        }
        if last && st.max_iterations > 1 {
            st.all.push(Message::new(Role::User, "[System] Final iteration reached. Summarize all findings and respond to the user now. No more tool calls allowed."));
        }
        let request = ChatRequest {
            model: st.meta.model.clone(),
            messages: std::mem::take(&mut st.all),
            // Moved in and back, like the messages: cloning every schema each iteration cost
            // as much as a small tool call.
            tools: if last {
                Vec::new()
            } else {
                std::mem::take(&mut st.tools)
            },
            max_tokens: st.cfg.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
            temperature: st.cfg.temperature.unwrap_or(DEFAULT_TEMPERATURE),
        };
        // Under a budget, what is sent bounds the request's cost, and counts even when the
        // provider reports no usage: measured once.
        let sent_bytes = st.max_cost.map(|_| request_bytes(&request));
        if let Some(why) = sent_bytes.and_then(|sent| self.over_budget(st, sent, &request)) {
            st.all = request.messages;
            if !last {
                st.tools = request.tools;
            }
            return Ok(Flow::End(End::Limited(why)));
        }
        let (took, started_ms) = (Instant::now(), now_ms());
        let answer = self.ask_llm(&request, em, st.deadline);
        let input_preview = st.verbose.then(|| {
            let text = serde_json::to_string(&request.messages).unwrap_or_default();
            words::prefix_chars(&text, 50_000).to_string()
        });
        st.all = request.messages;
        if !last {
            st.tools = request.tools;
        }
        let call_cost = answer.as_ref().map_or(0.0, |r| self.client.cost(r.usage));
        let exchange = Exchange {
            answer: &answer,
            cost: call_cost,
            started_ms,
            took: took.elapsed(),
            input_preview: input_preview.as_deref(),
        };
        self.llm_span(st, &exchange)?;
        let mut response = match answer {
            Ok(r) => r,
            Err(end) => return Ok(Flow::End(end)),
        };
        st.usage.input_tokens += response.usage.input_tokens;
        st.usage.output_tokens += response.usage.output_tokens;
        st.cost += match sent_bytes {
            Some(sent) => self.client.cost(charged(sent, &response)),
            None => call_cost,
        };
        if !response.content.trim().is_empty() {
            st.any_text = true;
        }
        if response.tool_calls.is_empty() || last {
            st.all
                .push(Message::new(Role::Assistant, response.content.clone()));
            return Ok(Flow::End(End::Completed(response.content)));
        }
        self.compact_mid_loop(st, em, &response);
        history::uniquify_tool_call_ids(&mut response.tool_calls, &st.meta.run_id, st.iteration);
        st.all.push(Message::asking(
            response.content.clone(),
            response.tool_calls.clone(),
        ));
        self.act(req, st, em, response)
    }

    /// Why `request` must not be sent under the run's budget, if it must not: what it could
    /// cost at most (its input at one token per 3 bytes, a generous count, and the whole
    /// `max_tokens` of output) would take the run past `max_cost`.
    fn over_budget(&self, st: &RunState, bytes: usize, request: &ChatRequest) -> Option<String> {
        let budget = st.max_cost?;
        let bound = self.client.cost(Usage {
            input_tokens: (bytes as u64).div_ceil(3),
            output_tokens: u64::from(request.max_tokens),
        });
        (st.cost + bound > budget).then(|| {
            format!(
                "the run's budget of ${budget:.4} would be exceeded: ${:.4} spent, and the next request could cost up to ${bound:.4}",
                st.cost
            )
        })
    }

    /// Acts on an answer with tool calls: retries cut-off calls, keeps the budget, runs the
    /// calls and watches for loops.
    fn act(
        &mut self,
        req: &RunRequest,
        st: &mut RunState,
        em: &mut Emitter,
        response: ChatResponse,
    ) -> Result<Flow> {
        if response.finish_reason == "length" {
            for call in &response.tool_calls {
                st.all.push(Message::tool_result(
                    call,
                    "[not executed: the arguments were cut off]",
                ));
            }
            st.all.push(Message::new(Role::User, "[System] Your output was truncated because it exceeded max_tokens. Your tool call arguments were incomplete. Please retry with shorter content — split large writes into multiple smaller calls, or reduce the amount of text."));
            return Ok(Flow::Next);
        }
        if !response.content.trim().is_empty() {
            let text = sanitized(&response.content);
            if !text.is_empty() && !is_silent(&text) {
                em.emit(EventKind::BlockReply { content: text });
            }
        }
        st.total_calls += response.tool_calls.len() as u32;
        if st.tool_limit > 0 && st.total_calls > st.tool_limit {
            for call in &response.tool_calls {
                st.all.push(Message::tool_result(
                    call,
                    "[not executed: the tool call budget is spent]",
                ));
            }
            st.all.push(Message::new(Role::User, format!("[System] Tool call budget reached ({}/{}). Do NOT call any more tools. Summarize results so far and respond to the user.", st.total_calls, st.tool_limit)));
            return Ok(Flow::Next);
        }
        em.emit(EventKind::Activity {
            phase: Phase::ToolExec,
            iteration: Some(st.iteration),
        });
        let site = st.site();
        let results = self.call_tools(&response.tool_calls, req, &site, em)?;
        st.spawned |= response.tool_calls.iter().any(|c| c.name == "spawn");
        let mut stop = None;
        let mut warnings = Vec::new();
        for (call, (text, is_error)) in response.tool_calls.iter().zip(&results) {
            st.all.push(Message::tool_result(call, text.clone()));
            if !st.deferred.is_empty() && !is_error {
                st.activate(call, text);
            }
            match st.detector.record(&call.name, &call.arguments, text) {
                Verdict::Fine => {}
                Verdict::Warn(w) => warnings.push(w),
                Verdict::Stop(s) => stop = Some(s),
            }
        }
        for w in warnings {
            st.all.push(Message::new(Role::User, w));
        }
        if let Some(text) = stop {
            st.all.push(Message::new(Role::Assistant, text.clone()));
            return Ok(Flow::End(End::Completed(text)));
        }
        if st.iteration.is_multiple_of(CHECKPOINT_EVERY)
            && let Some(key) = &st.session
        {
            record::checkpoint(
                self.store.db(),
                self.gate.scrubber(),
                &st.meta.run_id,
                (key, self.agent_key, req.user.as_deref()),
                &st.all[st.base_len..],
            )?;
        }
        record::heartbeat(self.store.db(), &st.meta.run_id, st.iteration)?;
        Ok(Flow::Next)
    }

    /// Tells the model of the children that ended since it last heard: one message with each
    /// child's answer (or why it failed).
    fn announce(&mut self, st: &mut RunState) -> Result<()> {
        let done = crate::subagents::take_finished(self.store.db(), &st.meta.run_id)?;
        if done.is_empty() {
            return Ok(());
        }
        let mut text = String::from("[Subagent results]");
        for c in &done {
            let body = match c.status.as_str() {
                "completed" => c.content.clone().unwrap_or_default(),
                _ => c.error.clone().unwrap_or_else(|| "no answer".into()),
            };
            text.push_str(&format!(
                "\n- {} (run {}, {}): {}",
                c.label, c.run_id, c.status, body
            ));
        }
        st.all.push(Message::new(Role::User, text));
        Ok(())
    }

    /// Waits for the children still working (not detached), until they end or the run must
    /// stop; `true` when there is something the model has not heard yet.
    fn await_children(&mut self, st: &RunState) -> Result<bool> {
        let children = crate::subagents::children(self.store.db(), &st.meta.run_id)?;
        let unheard = children
            .iter()
            .any(|c| !c.active() && !c.announced && c.status != "rejected");
        let working: Vec<String> = children
            .into_iter()
            .filter(|c| c.active() && !c.detached)
            .map(|c| c.run_id)
            .collect();
        if working.is_empty() {
            return Ok(unheard);
        }
        let deadline = st.deadline;
        let cancel = self.cancel.clone();
        let db = self.store.db();
        // A child whose process died without ending its run is marked abandoned on the way,
        // so the wait does not last until the deadline.
        let mut give_up = || {
            let _ = super::record::reap_abandoned(db);
            cancel.is_cancelled() || deadline.is_some_and(|d| Instant::now() >= d)
        };
        crate::subagents::wait(db, &working, &mut give_up)?;
        Ok(true)
    }

    /// Ends the children still working (not detached): a run that ends takes its children
    /// with it, so none runs on unseen.
    pub(super) fn cancel_children(&mut self, run_id: &str) -> Result<()> {
        for c in crate::subagents::children(self.store.db(), run_id)? {
            if c.active() && !c.detached {
                crate::subagents::cancel(self.store.db(), &c.run_id)?;
            }
        }
        Ok(())
    }

    /// The span of one LLM exchange.
    fn llm_span(&self, st: &RunState, x: &Exchange) -> Result<()> {
        let response = x.answer.as_ref().ok();
        let error = x.answer.as_ref().err().map(|e| match e {
            End::Failed(e) => e.message.as_str(),
            End::Cancelled => "cancelled",
            End::TimedOut => "timed out",
            End::Limited(why) => why.as_str(),
            End::Completed(_) => "",
        });
        let (provider, model) = (&st.meta.provider, &st.meta.model);
        record::add_span(
            self.store.db(),
            self.gate.scrubber(),
            &st.meta.run_id,
            &Span {
                kind: "llm",
                name: &format!("{provider}/{model}"),
                started_at: x.started_ms,
                duration_ms: x.took.as_millis() as i64,
                status: if error.is_some() { "error" } else { "ok" },
                error,
                provider: Some(provider),
                model: Some(model),
                input_tokens: response.map(|r| r.usage.input_tokens),
                output_tokens: response.map(|r| r.usage.output_tokens),
                cost: response.map(|_| x.cost),
                finish_reason: response.map(|r| r.finish_reason.as_str()),
                input_preview: x.input_preview,
                output_preview: response.map(|r| words::prefix_chars(&r.content, 500)),
                ..Default::default()
            },
        )?;
        Ok(())
    }

    /// Mid-loop compaction, once, when the prompt reached the share of the window.
    fn compact_mid_loop(&self, st: &mut RunState, em: &mut Emitter, response: &ChatResponse) {
        let prompt_tokens = match response.usage.input_tokens {
            0 => history::estimate_tokens(&st.all),
            n => n,
        };
        let c = &st.cfg.compaction;
        if st.mid_compacted
            || !c.enabled
            || (prompt_tokens as f64) < st.window as f64 * c.history_share
        {
            return;
        }
        let Some((split, summary)) =
            self.compact_in_loop(em, &st.meta.model, &st.all, c.keep_last.max(1))
        else {
            return;
        };
        st.mid_compacted = true;
        if split > st.base_len {
            st.carried
                .extend(st.all[st.base_len..split].iter().cloned());
        }
        let kept_history = st.base_len.saturating_sub(split);
        let mut next = vec![st.all[0].clone(), summary];
        next.extend(st.all.drain(split..));
        st.base_len = 2 + kept_history;
        st.all = next;
    }

    /// Runs the calls through the gate: one alone, several in parallel (each with its own store
    /// connection), unless someone may be asked for approvals at a terminal. Results come back
    /// in call order as (text for the model, is_error).
    pub(super) fn call_tools(
        &mut self,
        calls: &[ToolCall],
        req: &RunRequest,
        site: &CallSite,
        em: &mut Emitter,
    ) -> Result<Vec<(String, bool)>> {
        for call in calls {
            em.emit(EventKind::ToolCall {
                name: call.name.clone(),
                id: call.id.clone(),
                arguments: call.arguments.clone(),
            });
        }
        let requests: Vec<CallRequest> = calls
            .iter()
            .map(|call| self.call_request(&call.name, call.arguments.clone(), req, site))
            .collect();
        let started_ms = now_ms();
        let timed = self.dispatch(&requests);
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
                self.store.db(),
                self.gate.scrubber(),
                site.run_id,
                &Span {
                    kind: "tool",
                    name: &call.name,
                    started_at: started_ms,
                    duration_ms: took.as_millis() as i64,
                    status: if is_error { "error" } else { "ok" },
                    error: is_error.then_some(text.as_str()),
                    tool_call_id: Some(&call.id),
                    output_preview: Some(words::prefix_chars(&text, 500)),
                    ..Default::default()
                },
            )?;
            results.push((text, is_error));
        }
        Ok(results)
    }

    /// A call of `tool` this run makes at `site`, as the gate receives it: the run's agent,
    /// user, session, approval mode, stop conditions, policy scope and run link. (Each tool call
    /// of the model, and a command gate's `exec`.)
    pub(super) fn call_request(
        &self,
        tool: &str,
        args: serde_json::Value,
        req: &RunRequest,
        site: &CallSite<'_>,
    ) -> CallRequest {
        CallRequest {
            tool: tool.to_string(),
            args,
            agent: self.agent.map(|_| self.agent_key.to_string()),
            user: req.user.clone(),
            session_key: site.session.map(str::to_string),
            channel: Some("run".into()),
            on_ask: req.on_ask,
            stop: crate::tools::StopWhen {
                deadline: site.deadline,
                signal: Some(self.cancel.flag()),
                deadline_is: None,
            },
            scope: site.scope.clone(),
            run: site.link.cloned(),
            ..Default::default()
        }
    }

    /// The calls through the gate, in order, each with how long it took.
    fn dispatch(
        &mut self,
        requests: &[CallRequest],
    ) -> Vec<(Result<crate::tools::gate::Outcome>, Duration)> {
        let gate = self.gate;
        if requests.len() == 1 || self.prompter.is_some() {
            return requests
                .iter()
                .map(|r| {
                    let t = Instant::now();
                    (gate.call(self.store, r, self.prompter), t.elapsed())
                })
                .collect();
        }
        // Calls of tools that run in call order go one after another on one thread, beside
        // the others, each on its own.
        let ordered: Vec<bool> = requests
            .iter()
            .map(|r| {
                gate.registry()
                    .get(&r.tool)
                    .is_some_and(|t| t.in_call_order())
            })
            .collect();
        let target = gate.store_target();
        let run = |r: &CallRequest| {
            let t = Instant::now();
            let result = target
                .open()
                .and_then(|mut store| gate.call(&mut store, r, None));
            (result, t.elapsed())
        };
        let run = &run;
        let panicked = || {
            (
                Err(Error::internal("a tool call thread panicked")),
                Duration::ZERO,
            )
        };
        let mut timed: Vec<Option<(Result<crate::tools::gate::Outcome>, Duration)>> =
            requests.iter().map(|_| None).collect();
        std::thread::scope(|s| {
            let in_order = s.spawn(|| {
                requests
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| ordered[*i])
                    .map(|(i, r)| (i, run(r)))
                    .collect::<Vec<_>>()
            });
            let parallel: Vec<_> = requests
                .iter()
                .enumerate()
                .filter(|(i, _)| !ordered[*i])
                .map(|(i, r)| (i, s.spawn(move || run(r))))
                .collect();
            for (i, h) in parallel {
                timed[i] = Some(h.join().unwrap_or_else(|_| panicked()));
            }
            if let Ok(done) = in_order.join() {
                for (i, result) in done {
                    timed[i] = Some(result);
                }
            }
        });
        timed
            .into_iter()
            .map(|t| t.unwrap_or_else(panicked))
            .collect()
    }
}

impl RunState {
    /// Where this run's tool calls are made.
    pub(super) fn site(&self) -> CallSite<'_> {
        CallSite {
            run_id: &self.meta.run_id,
            session: self.session.as_deref(),
            deadline: self.deadline,
            link: Some(&self.link),
            scope: &self.scope,
        }
    }
}

/// Where tool calls are made: the run (for spans), the session (rate limits, context files)
/// and the deadline the calls must stop by.
pub(super) struct CallSite<'c> {
    pub run_id: &'c str,
    pub session: Option<&'c str>,
    pub deadline: Option<Instant>,
    /// The run as the calls see it, when they may start children.
    pub link: Option<&'c RunLink>,
    pub scope: &'c Scope,
}

/// One LLM exchange, for its span.
struct Exchange<'x> {
    answer: &'x std::result::Result<ChatResponse, End>,
    cost: f64,
    started_ms: i64,
    took: Duration,
    input_preview: Option<&'x str>,
}

/// The bytes of a request's messages and tools, as sent.
fn request_bytes(request: &ChatRequest) -> usize {
    serde_json::to_vec(&request.messages).map_or(0, |v| v.len())
        + serde_json::to_vec(&request.tools).map_or(0, |v| v.len())
}

/// The usage a budget counts for an exchange: the provider's, or when it reported none (some
/// local servers do not), four bytes a token of what was sent and of the answer, so a
/// provider that reports nothing still spends the budget.
fn charged(sent_bytes: usize, response: &ChatResponse) -> Usage {
    if response.usage != Usage::default() {
        return response.usage;
    }
    let answer = response.content.len()
        + response
            .tool_calls
            .iter()
            .map(|c| c.name.len() + c.arguments.to_string().len())
            .sum::<usize>();
    Usage {
        input_tokens: (sent_bytes as u64).div_ceil(4),
        output_tokens: (answer as u64).div_ceil(4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_provider_that_reports_no_usage_is_charged_an_estimate() {
        let mut response = ChatResponse {
            content: "x".repeat(40),
            thinking: String::new(),
            tool_calls: Vec::new(),
            finish_reason: "stop".into(),
            usage: Usage::default(),
        };
        let estimate = charged(4000, &response);
        assert_eq!((estimate.input_tokens, estimate.output_tokens), (1000, 10));
        response.usage = Usage {
            input_tokens: 7,
            output_tokens: 3,
        };
        assert_eq!(
            charged(4000, &response),
            response.usage,
            "reported usage wins"
        );
    }
}
