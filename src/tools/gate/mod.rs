//! The gate: the one way a tool call reaches a tool, from a script (`goclaw tools exec`) or the
//! agent loop alike. In order: normalise the arguments → resolve the tool (aliases too) →
//! policy (is it in the agent's tool list?) → rate limit (a sliding hour per session key, kept
//! in the store so it holds across processes) → the empty-arguments guard (§1.3) → the schema →
//! the tool's review (deny patterns) and the approval decision → execute → scrub → record.
//! Every call is recorded in `tool_calls`, whatever its outcome.

pub mod audit;
pub mod decision;
mod outcome;
mod request;
mod stages;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::config::{AgentProfile, ToolsConfig, unknown_agent};
use super::exec::approvals::{self, Subject};
use super::exec::{ApprovalMode, ExecSettings};
use super::{CallContext, Registry, Review, Tool, ToolResult};
use crate::error::Result;
use crate::memory::embed::Embedder;
use crate::policy::{self, Evaluation, Groups};
use crate::store::{Store, StoreTarget};
use crate::text::scrub::Scrubber;
use audit::Row;
pub use audit::{allow_rate, rate_key};
use decision::{CallEnd, Decision, Verdict};
pub use outcome::{Outcome, Status, answer};
pub use request::{CallRequest, MAX_PARAMS, OnAsk, Relay, RunLink, Scope, SharedRelay, normalise};

/// Characters of a result kept in the audit record.
const RESULT_PREVIEW: usize = 2000;

/// An answer from a person at a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    AllowOnce,
    AllowAlways,
    Deny,
    /// Nobody answered in time (`[tools.exec] approval_timeout_secs`).
    TimedOut,
    /// The terminal asked closed before anyone answered.
    Closed,
    /// The call was stopped (a signal, the run's deadline) while it waited for an answer.
    Stopped(super::Stopped),
}

/// Someone who can be asked (a terminal); the gate never prompts by itself.
pub trait Prompter {
    /// Asks, waiting at most `timeout` for an answer, and no longer than until `stop` says.
    fn ask(
        &self,
        tool: &str,
        subject: &Subject,
        reason: &str,
        timeout: Duration,
        stop: &super::StopWhen,
    ) -> Answer;
}

/// Everything the gate needs that does not change between calls. Built by
/// `ops::toolbox::Toolbox::gate`, the one place that assembles a gate.
pub struct Gate<'a> {
    registry: &'a Registry,
    tools: &'a ToolsConfig,
    agents: &'a BTreeMap<String, AgentProfile>,
    groups: &'a Groups,
    scrubber: &'a Scrubber,
    workspace: PathBuf,
    /// The workspace is the run's whatever its agent's `workspace` says (a team workspace).
    pinned_workspace: bool,
    /// The config file, even when it does not exist yet (no tool may create or change it).
    config_file: PathBuf,
    config_exists: bool,
    /// The store, for tools that keep state and the runs they start.
    store: StoreTarget,
    /// Where `secret.key` is (beside a SQLite store; the data directory with PostgreSQL).
    key_dir: PathBuf,
    embedder: Option<Embedder>,
    providers: Providers,
    channels: std::sync::Arc<super::message::Channels>,
    media: std::sync::Arc<super::media::MediaConfig>,
    asker: Option<super::ask::SharedAsker>,
    skill_roots: Vec<PathBuf>,
    ceiling: Option<Ceiling>,
}

/// `[providers]` of the config, for the tools that call a provider themselves.
pub type Providers = std::sync::Arc<BTreeMap<String, crate::providers::ProviderConfig>>;

/// The parts of a gate (see [`Gate`]'s fields).
pub struct GateParts<'a> {
    pub registry: &'a Registry,
    pub tools: &'a ToolsConfig,
    /// The agents defined in config, as far as their tools are concerned.
    pub agents: &'a BTreeMap<String, AgentProfile>,
    pub groups: &'a Groups,
    pub scrubber: &'a Scrubber,
    pub workspace: PathBuf,
    /// `workspace` is the run's whatever its agent's says (a team workspace).
    pub pinned_workspace: bool,
    pub config_file: PathBuf,
    pub config_exists: bool,
    pub store: StoreTarget,
    pub key_dir: PathBuf,
    /// Embeddings for memory documents (`[memory] embeddings`).
    pub embedder: Option<Embedder>,
    /// `[providers]` (`openai_compat_call`).
    pub providers: Providers,
    /// `[channels]` (`message`).
    pub channels: std::sync::Arc<super::message::Channels>,
    /// `[media]` (the media tools).
    pub media: std::sync::Arc<super::media::MediaConfig>,
    /// Who `ask_user` asks when the call's caller can prompt.
    pub asker: Option<super::ask::SharedAsker>,
    /// Where skills are looked for.
    pub skill_roots: Vec<PathBuf>,
    /// A ceiling over the policy.
    pub ceiling: Option<Ceiling>,
}

/// A ceiling over the policy: only these tools, whatever the configuration says (a cron job's
/// captured list, `run --allow-tools`), and why, for the explanation of a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ceiling {
    pub tools: Vec<String>,
    /// And at most these subagent limits (a spawned child's: its parent's, so an agent that
    /// may not nest cannot nest through another agent it spawns).
    pub subagents: Option<crate::subagents::Limits>,
    pub why: String,
}

/// Only the gate makes a [`CallContext`] (it is a field no one else can fill), so only the
/// gate can hand one to [`Tool::review`] and [`Tool::execute`]: nothing reaches a tool except
/// through the gate.
#[derive(Debug)]
pub struct Sealed(());

/// A call decided but not run (see [`Gate::decide`]).
pub struct Decided<'g> {
    /// The tool, once resolved.
    pub tool: Option<&'g dyn Tool>,
    /// The caller's tool list and how it came about, once the agent is known.
    pub evaluation: Option<Evaluation>,
    /// The decisions made on the way.
    pub decision: Decision,
    pub verdict: Verdict,
    /// What an approval would be asked about, when the tool's review asked for one.
    pub approval: Option<(Subject, ApprovalMode)>,
    /// The context and arguments the tool would run with, once they passed every stage.
    ready: Option<(CallContext, Map<String, Value>)>,
}

/// What a decision is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// A call: the rate limit counts it (unless a dry run).
    Call,
    /// An explanation: nothing is counted or changed.
    Explain,
}

impl<'a> Gate<'a> {
    /// A gate from its parts.
    pub(crate) fn new(p: GateParts<'a>) -> Gate<'a> {
        Gate {
            registry: p.registry,
            tools: p.tools,
            agents: p.agents,
            groups: p.groups,
            scrubber: p.scrubber,
            workspace: p.workspace,
            pinned_workspace: p.pinned_workspace,
            config_file: p.config_file,
            config_exists: p.config_exists,
            store: p.store,
            key_dir: p.key_dir,
            embedder: p.embedder,
            providers: p.providers,
            channels: p.channels,
            media: p.media,
            asker: p.asker,
            skill_roots: p.skill_roots,
            ceiling: p.ceiling,
        }
    }

    /// The MCP tools among `allowed`, for `mcp_tool_search`.
    fn mcp_catalog(&self, allowed: &[String]) -> Vec<super::mcp_search::CatalogEntry> {
        allowed
            .iter()
            .filter_map(|n| self.registry.get(n))
            .filter_map(|t| {
                let (server, original) = t.mcp_origin()?;
                Some(super::mcp_search::CatalogEntry {
                    name: t.name().to_string(),
                    original_name: original.to_string(),
                    server: server.to_string(),
                    description: t.description().to_string(),
                })
            })
            .collect()
    }

    /// The tools behind this gate.
    pub fn registry(&self) -> &'a Registry {
        self.registry
    }

    /// The scrubber everything leaving the gate goes through.
    pub fn scrubber(&self) -> &'a Scrubber {
        self.scrubber
    }

    /// The tool settings (`[tools]`).
    pub fn tools(&self) -> &'a ToolsConfig {
        self.tools
    }

    /// The tool groups, with the MCP groups of the bridged servers.
    pub fn groups(&self) -> &'a Groups {
        self.groups
    }

    /// Where the store is.
    pub fn store_target(&self) -> &StoreTarget {
        &self.store
    }

    /// The config file, when it exists (what a run this gate's caller starts is given).
    pub fn config_path(&self) -> Option<&std::path::Path> {
        self.config_exists.then_some(self.config_file.as_path())
    }

    /// Embeddings for memory documents, if configured.
    pub fn embedder(&self) -> Option<&Embedder> {
        self.embedder.as_ref()
    }

    /// Where skills are looked for.
    pub fn skill_roots(&self) -> &[PathBuf] {
        &self.skill_roots
    }

    /// The workspace of `agent`'s tools: its own `workspace` (relative to the command's), or
    /// the command's.
    pub fn workspace_for(&self, agent: Option<&AgentProfile>) -> PathBuf {
        match agent.and_then(|a| a.workspace.as_ref()) {
            Some(ws) if !self.pinned_workspace => self.workspace.join(ws),
            _ => self.workspace.clone(),
        }
    }

    /// The context a call runs in.
    fn context(
        &self,
        req: &CallRequest,
        agent: Option<&AgentProfile>,
        allowed_tools: Vec<String>,
    ) -> CallContext {
        let workspace = self.workspace_for(agent);
        let store_file = super::protected::store_file(&self.store, &self.key_dir);
        let protected = super::protected::of_state(
            (&self.store, &self.key_dir),
            &self.config_file,
            &workspace,
            &self.tools.denied_paths,
        );
        let mut denied_paths = self.tools.denied_paths.clone();
        denied_paths.extend(super::protected::relative_to(&protected, &workspace));
        // The original's literal path denies on the command line (the sandbox is what protects).
        let mut mentioned: Vec<String> = vec![store_file.display().to_string()];
        mentioned.push(self.config_file.display().to_string());
        mentioned.push(".goclaw/".into());
        CallContext {
            agent: req.agent.clone(),
            user: req.user.clone(),
            session_key: req.session_key.clone().filter(|s| !s.is_empty()),
            channel: req.channel.clone().filter(|s| !s.is_empty()),
            chat_id: req.chat_id.clone().filter(|s| !s.is_empty()),
            peer_kind: req.peer_kind.clone().filter(|s| !s.is_empty()),
            workspace,
            denied_paths,
            protected,
            exec: ExecSettings::resolve(&self.tools.exec, agent.map(|a| &a.tools.exec), mentioned),
            store: self.store.clone(),
            key_dir: self.key_dir.clone(),
            known_agents: self.agents.keys().cloned().collect(),
            agent_predefined: agent.is_some_and(|a| a.predefined),
            embedder: self.embedder.clone(),
            providers: self.providers.clone(),
            channels: self.channels.clone(),
            media: self.media.clone(),
            mcp_catalog: if req.tool == "mcp_tool_search" {
                self.mcp_catalog(&allowed_tools)
            } else {
                Vec::new()
            },
            web: self.tools.web.clone(),
            ask: self.tools.ask_user.clone(),
            asker: None,
            skill_roots: self.skill_roots.clone(),
            allowed_tools,
            config_path: self.config_exists.then(|| self.config_file.clone()),
            config_file: self.config_file.clone(),
            stop: req.stop.clone(),
            run: req.run.clone(),
            subagents: self.subagent_limits(agent),
            _sealed: Sealed(()),
        }
    }

    /// The agent named `key` in config (`None` for no agent); an unknown key is exit 5.
    pub fn agent(&self, key: Option<&str>) -> Result<Option<&AgentProfile>> {
        match key {
            None => Ok(None),
            Some(key) => self
                .agents
                .get(key)
                .map(Some)
                .ok_or_else(|| unknown_agent(key)),
        }
    }

    /// The agent's final tool list and how it came about.
    pub fn evaluate(
        &self,
        agent: Option<&AgentProfile>,
        provider: Option<&str>,
        scope: &Scope,
    ) -> Evaluation {
        let req = policy::Request {
            agent: agent.map(|a| a.tools.policy()),
            agent_key: agent.map(|a| a.key.as_str()),
            provider,
            group_allow: &scope.group_allow,
            request_allow: &scope.request_allow,
            subagent: scope.subagent || scope.leaf,
            leaf: scope.leaf,
        };
        let mut evaluation = policy::evaluate(
            &self.registry.names(),
            self.tools.policy(),
            self.groups,
            &req,
        );
        if let Some(c) = &self.ceiling {
            evaluation.cap(&c.tools, &c.why);
        }
        evaluation
    }

    /// The subagent limits of `agent` (`None`: the defaults) under this gate's ceiling.
    pub fn subagent_limits(&self, agent: Option<&AgentProfile>) -> crate::subagents::Limits {
        agent
            .map(|a| a.subagents)
            .unwrap_or_default()
            .cap(self.ceiling.as_ref().and_then(|c| c.subagents))
    }

    /// The final tool list of the agent named `key` (`None`: the default policy), under this
    /// gate's ceiling: what it may call.
    pub fn allowed_tools(&self, key: Option<&str>) -> Result<Vec<String>> {
        Ok(self
            .evaluate(self.agent(key)?, None, &Scope::default())
            .tools)
    }

    /// Runs one call through the gate and records it.
    pub fn call(
        &self,
        store: &mut Store,
        req: &CallRequest,
        prompter: Option<&dyn Prompter>,
    ) -> Result<Outcome> {
        let start = Instant::now();
        let mut started = None;
        let (decision, end) = self
            .run(store, req, prompter, &mut started)
            .map_err(|mut e| {
                e.message = self.scrubber.scrub_str(&e.message, None);
                e
            })?;
        // Everything that leaves the gate is scrubbed: results, messages, decisions, names.
        let result = end.result.map(|r| self.scrub_result(r));
        let message = end.message.map(|m| self.scrubber.scrub_str(&m, None));
        let mut decision = serde_json::to_value(&decision).unwrap_or(Value::Null);
        self.scrubber.scrub_json(&mut decision);
        let mut outcome = Outcome {
            tool: self.scrubber.scrub_str(&req.tool, None),
            status: end.status,
            result,
            message,
            decision,
            call_id: 0,
            kind: end.kind,
            audit_error: None,
        };
        outcome.call_id = match (
            self.record(store, req, &outcome, start.elapsed(), started),
            started,
        ) {
            (Ok(id), _) => id,
            // The tool ran and its record says so: what it did is not undone by a store that
            // cannot take its end (a full disk), so its result is not withheld either.
            (Err(e), Some(id)) => {
                outcome.audit_error = Some(self.scrubber.scrub_str(&e.message, None));
                id
            }
            (Err(e), None) => return Err(e),
        };
        Ok(outcome)
    }

    /// Decides a call without running it, counting nothing and asking nobody: what `policy
    /// explain` shows. A call goes through the same stages (see [`Gate::call`]).
    pub fn decide(&self, store: &mut Store, req: &CallRequest) -> Result<Decided<'a>> {
        self.decide_for(store, req, Purpose::Explain)
    }

    /// Decides, settles an approval, then runs the tool (unless a dry run).
    fn run(
        &self,
        store: &mut Store,
        req: &CallRequest,
        prompter: Option<&dyn Prompter>,
        started: &mut Option<i64>,
    ) -> Result<(Decision, CallEnd)> {
        let mut decided = self.decide_for(store, req, Purpose::Call)?;
        let verdict = std::mem::replace(&mut decided.verdict, Verdict::Run);
        let mut decision = decided.decision;
        // A call stopped before it began (the run was cancelled while the model answered, or
        // its deadline passed) neither asks nor runs.
        if let Some(why) = req.stop.check() {
            let result = ToolResult::stopped(
                format!("cancelled before it ran: {}", req.stop.describe(why)),
                why,
            );
            return Ok((decision, CallEnd::ran(result)));
        }
        match verdict {
            Verdict::Stop(end) => return Ok((decision, end)),
            Verdict::Ask { subject, reason } => {
                if let Some(end) =
                    self.settle(store, &subject, reason, req, prompter, &mut decision)?
                {
                    return Ok((decision, end));
                }
            }
            Verdict::Run => {}
        }
        let (Some(tool), Some((mut ctx, args))) = (decided.tool, decided.ready) else {
            return Err(crate::error::Error::internal(
                "the gate decided to run a call it did not prepare",
            ));
        };
        if req.dry_run {
            let end = CallEnd::stop(Status::DryRun, "dry run: the gate would run this call");
            return Ok((decision, end));
        }
        if prompter.is_some() {
            ctx.asker = self.asker.clone();
        }
        *started = Some(self.begin(store, req, &decision)?);
        let args = if tool.outbound() {
            let mut leaving = Value::Object(args);
            self.scrubber.scrub_json(&mut leaving);
            match leaving {
                Value::Object(scrubbed) => scrubbed,
                _ => Map::new(),
            }
        } else {
            args
        };
        Ok((decision, CallEnd::ran(tool.execute(&ctx, &args, store))))
    }

    /// The audit row of a call about to run (outcome `started`), written before the tool runs:
    /// a call whose row cannot be written does not run.
    fn begin(&self, store: &Store, req: &CallRequest, decision: &Decision) -> Result<i64> {
        let mut decision = serde_json::to_value(decision).unwrap_or(Value::Null);
        self.scrubber.scrub_json(&mut decision);
        let row = Row {
            tool: &self.scrubber.scrub_str(&req.tool, None),
            outcome: "started",
            is_error: false,
            took: Duration::ZERO,
            decision: &decision,
            preview: None,
        };
        // Its kind kept: a store another process kept locked is exit 7 (it was 1).
        audit::insert(self.scrubber, store.db(), req, &row).map_err(|e| {
            let mut refused = crate::error::Error::new(
                e.kind,
                format!(
                    "the call did not run: its audit record cannot be written to {}: {}",
                    store.path().display(),
                    e.message
                ),
            );
            refused.hint = e.hint;
            refused
        })
    }

    /// Scrubs a result (`[tools] scrub_credentials`); credentials the tool itself injected
    /// (`ToolResult::secrets`) are scrubbed whatever that setting says.
    fn scrub_result(&self, mut r: ToolResult) -> ToolResult {
        let injected = std::mem::take(&mut r.secrets);
        let with_injected;
        let scrubber = if injected.is_empty() {
            if !self.tools.scrub_credentials {
                return r;
            }
            self.scrubber
        } else {
            match self.scrubber.with_more_values(&injected) {
                Ok(s) => {
                    with_injected = s;
                    &with_injected
                }
                // Fail closed: nothing the tool printed leaves unscrubbed.
                Err(e) => return ToolResult::error(format!("cannot scrub the result: {e}")),
            }
        };
        if !r.for_llm.is_empty() {
            r.for_llm = scrubber.scrub_str(&r.for_llm, None);
        }
        if let Some(u) = r.for_user.take() {
            r.for_user = Some(scrubber.scrub_str(&u, None));
        }
        r
    }

    fn record(
        &self,
        store: &Store,
        req: &CallRequest,
        o: &Outcome,
        took: Duration,
        started: Option<i64>,
    ) -> Result<i64> {
        let preview = o
            .result
            .as_ref()
            .map(|r| crate::text::words::prefix_chars(&r.for_llm, RESULT_PREVIEW).to_string())
            .or_else(|| o.message.clone());
        let outcome = serde_json::to_value(o.status).unwrap_or(Value::Null);
        let row = Row {
            tool: &o.tool,
            outcome: outcome.as_str().unwrap_or("error"),
            is_error: o.result.as_ref().is_some_and(|r| r.is_error)
                || matches!(o.status, Status::Error),
            took,
            decision: &o.decision,
            preview: preview.as_deref(),
        };
        audit::finish(self.scrubber, store.db(), req, &row, started)
    }
}
