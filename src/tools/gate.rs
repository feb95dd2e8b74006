//! The gate: the one way a tool call reaches a tool, from a script (`goclaw tools exec`) or the
//! agent loop alike. In order: normalise the arguments → resolve the tool (aliases too) →
//! policy (is it in the agent's tool list?) → rate limit (a sliding hour per session key, kept
//! in the store so it holds across processes) → the empty-arguments guard (§1.3) → the schema →
//! the tool's review (deny patterns) and the approval decision → execute → scrub → record.
//! Every call is recorded in `tool_calls`, whatever its outcome.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rusqlite::TransactionBehavior;
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::config::{AgentProfile, ToolsConfig, unknown_agent};
use super::exec::approvals::{self, Decision, Subject};
use super::exec::{ExecSettings, sandbox};
use super::{CallContext, Registry, Review, Tool, ToolResult};
use crate::error::{ErrorKind, Result};
use crate::policy::{self, Groups};
use crate::store::{Store, sql_error};
use crate::text::scrub::Scrubber;

/// How a call ended inside the gate: status, result, message, timed out.
type Ending = (
    Status,
    Option<ToolResult>,
    Option<String>,
    Option<ErrorKind>,
);

/// Most parameters one call may carry (seed 004).
pub const MAX_PARAMS: usize = 1000;
/// Characters of a result kept in the audit record.
const RESULT_PREVIEW: usize = 2000;

/// What to do when an approval is needed and nobody can be asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum OnAsk {
    /// Refuse the call (exit 3).
    #[default]
    Deny,
    /// Return a tool error saying approval was required (exit 1).
    Fail,
    /// Run it.
    Allow,
}

/// An answer from a person at a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    AllowOnce,
    AllowAlways,
    Deny,
    /// Nobody answered in time (`[tools.exec] approval_timeout_secs`).
    TimedOut,
}

/// Someone who can be asked (a terminal); the gate never prompts by itself.
pub trait Prompter {
    /// Asks, waiting at most `timeout` for an answer.
    fn ask(&self, tool: &str, subject: &Subject, reason: &str, timeout: Duration) -> Answer;
}

/// Everything the gate needs that does not change between calls.
pub struct Gate<'a> {
    pub registry: &'a Registry,
    pub tools: &'a ToolsConfig,
    /// The agents defined in config, as far as their tools are concerned.
    pub agents: BTreeMap<String, AgentProfile>,
    pub groups: &'a Groups,
    pub scrubber: &'a Scrubber,
    pub workspace: PathBuf,
    /// The config file, even when it does not exist yet (no tool may create or change it).
    pub config_file: Option<PathBuf>,
    /// The store, for tools that keep state.
    pub store_path: PathBuf,
    /// Embeddings for memory documents (`[memory] embeddings`).
    pub embedder: Option<crate::memory::embed::Embedder>,
    /// Who `ask_user` asks when the call's caller can prompt.
    pub asker: Option<super::ask::SharedAsker>,
    /// Where skills are looked for.
    pub skill_roots: Vec<PathBuf>,
    /// A ceiling over the policy: only these tools, whatever the configuration says (a cron
    /// job's captured list, `run --allow-tools`).
    pub ceiling: Option<(Vec<String>, String)>,
    /// The config file in use, if it exists.
    pub config_path: Option<PathBuf>,
}

/// One call.
#[derive(Debug, Clone, Default)]
pub struct CallRequest {
    pub tool: String,
    pub args: Value,
    pub agent: Option<String>,
    pub user: Option<String>,
    pub session_key: Option<String>,
    pub channel: Option<String>,
    pub chat_id: Option<String>,
    pub peer_kind: Option<String>,
    pub provider: Option<String>,
    pub dry_run: bool,
    pub on_ask: OnAsk,
    /// When the call must stop early (the caller's deadline, a signal).
    pub stop: super::StopWhen,
}

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    Error,
    Denied,
    Limited,
    Invalid,
    NotFound,
    DryRun,
}

/// What the gate reports.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub tool: String,
    pub status: Status,
    pub result: Option<ToolResult>,
    /// Why, for anything but a plain run.
    pub message: Option<String>,
    /// The decisions made on the way.
    pub decision: Value,
    /// The audit record's id.
    pub call_id: i64,
    #[serde(skip)]
    pub kind: Option<ErrorKind>,
}

/// What the caller of a call (a model, an MCP client) is told: the result's text, or why the call
/// did not run (a gate refusal, a failure of the gate itself); and whether that is an error.
pub fn answer(outcome: Result<Outcome>) -> (String, bool) {
    match outcome {
        Err(e) => (e.message, true),
        Ok(o) => {
            let failed = o.error_kind().is_some();
            let result = o.result.map(|r| r.for_llm);
            let text = if failed {
                o.message
                    .or(result)
                    .unwrap_or_else(|| "the tool call failed".into())
            } else {
                result.or(o.message).unwrap_or_default()
            };
            (text, failed)
        }
    }
}

impl Outcome {
    /// The error kind a command line maps this outcome to (`None`: success).
    pub fn error_kind(&self) -> Option<ErrorKind> {
        match self.status {
            Status::Ok | Status::DryRun => None,
            Status::Error if self.kind.is_some() => self.kind,
            Status::Error => Some(ErrorKind::Failed),
            Status::Denied => Some(ErrorKind::Denied),
            Status::Limited => Some(ErrorKind::Limited),
            Status::Invalid => Some(ErrorKind::Usage),
            Status::NotFound => Some(ErrorKind::NotFound),
        }
    }
}

impl Gate<'_> {
    /// The workspace of `agent`'s tools: its own `workspace` (relative to the command's), or
    /// the command's.
    pub fn workspace_for(&self, agent: Option<&AgentProfile>) -> PathBuf {
        match agent.and_then(|a| a.workspace.as_ref()) {
            Some(ws) => self.workspace.join(ws),
            None => self.workspace.clone(),
        }
    }

    /// The context a call runs in.
    pub fn context(&self, req: &CallRequest, agent: Option<&AgentProfile>) -> CallContext {
        let workspace = self.workspace_for(agent);
        let protected = super::protected::paths(
            &self.store_path,
            self.config_file.as_deref(),
            &workspace,
            &self.tools.denied_paths,
        );
        let mut denied_paths = self.tools.denied_paths.clone();
        denied_paths.extend(super::protected::relative_to(&protected, &workspace));
        // The original's literal path denies on the command line (the sandbox is what protects).
        let mut mentioned: Vec<String> = vec![self.store_path.display().to_string()];
        mentioned.extend(self.config_file.iter().map(|c| c.display().to_string()));
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
            store_path: self.store_path.clone(),
            known_agents: self.agents.keys().cloned().collect(),
            agent_predefined: agent.is_some_and(|a| a.predefined),
            embedder: self.embedder.clone(),
            web: self.tools.web.clone(),
            ask: self.tools.ask_user.clone(),
            asker: None,
            skill_roots: self.skill_roots.clone(),
            allowed_tools: Vec::new(),
            config_path: self.config_path.clone(),
            stop: req.stop.clone(),
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
    ) -> policy::Evaluation {
        let req = policy::Request {
            agent: agent.map(|a| a.tools.policy()),
            provider,
            ..policy::Request::default()
        };
        let mut evaluation = policy::evaluate(
            &self.registry.names(),
            self.tools.policy(),
            self.groups,
            &req,
        );
        if let Some((ceiling, why)) = &self.ceiling {
            evaluation.cap(ceiling, why);
        }
        evaluation
    }

    /// Runs one call through the gate and records it.
    pub fn call(
        &self,
        store: &mut Store,
        req: &CallRequest,
        prompter: Option<&dyn Prompter>,
    ) -> Result<Outcome> {
        let start = Instant::now();
        let mut decision = Map::new();
        let args = normalise(&req.tool, &req.args);
        let mut started = None;
        let (status, result, message, kind) = match args {
            Err(msg) => (Status::Invalid, None, Some(msg), None),
            Ok(args) => self
                .run(store, req, &args, prompter, &mut decision, &mut started)
                .map_err(|mut e| {
                    e.message = self.scrubber.scrub_str(&e.message, None);
                    e
                })?,
        };
        let result = result.map(|r| self.scrub_result(r));
        // Everything that leaves the gate is scrubbed: messages, reasons, decisions, names.
        let message = message.map(|m| self.scrubber.scrub_str(&m, None));
        let mut decision = Value::Object(decision);
        self.scrubber.scrub_json(&mut decision);
        let outcome = Outcome {
            tool: self.scrubber.scrub_str(&req.tool, None),
            status,
            result,
            message,
            decision,
            call_id: 0,
            kind,
        };
        let call_id = self.record(store, req, &outcome, start.elapsed(), started)?;
        Ok(Outcome { call_id, ..outcome })
    }

    /// The audit row of a call about to run (outcome `started`), written before the tool runs:
    /// a call whose row cannot be written does not run.
    fn begin(
        &self,
        store: &Store,
        req: &CallRequest,
        decision: &Map<String, Value>,
    ) -> Result<i64> {
        let mut decision = Value::Object(decision.clone());
        self.scrubber.scrub_json(&mut decision);
        let row = Row {
            tool: &self.scrubber.scrub_str(&req.tool, None),
            outcome: "started",
            is_error: false,
            took: Duration::ZERO,
            decision: &decision,
            preview: None,
        };
        self.insert(store, req, &row).map_err(|e| {
            crate::error::Error::failed(format!(
                "the call did not run: its audit record cannot be written to {}: {e}",
                store.path().display()
            ))
        })
    }

    /// Inserts an audit row: the caller's fields and arguments scrubbed, the rest as given.
    fn insert(&self, store: &Store, req: &CallRequest, row: &Row) -> rusqlite::Result<i64> {
        let mut args = req.args.clone();
        self.scrubber.scrub_json(&mut args);
        let scrub = |s: &Option<String>| s.as_ref().map(|v| self.scrubber.scrub_str(v, None));
        store.conn().execute(
            "INSERT INTO tool_calls (at, agent, user_id, session_key, channel, chat_id, tool, arguments, outcome,
                                     is_error, duration_ms, decision, result)
             VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            rusqlite::params![
                scrub(&req.agent),
                scrub(&req.user),
                scrub(&req.session_key),
                scrub(&req.channel),
                scrub(&req.chat_id),
                row.tool,
                args.to_string(),
                row.outcome,
                row.is_error,
                row.took.as_millis() as i64,
                row.decision.to_string(),
                row.preview,
            ],
        )?;
        Ok(store.conn().last_insert_rowid())
    }

    fn run(
        &self,
        store: &mut Store,
        req: &CallRequest,
        args: &Map<String, Value>,
        prompter: Option<&dyn Prompter>,
        decision: &mut Map<String, Value>,
        started: &mut Option<i64>,
    ) -> Result<Ending> {
        let Some(tool) = self.registry.get(&req.tool) else {
            return Ok((
                Status::NotFound,
                None,
                Some(format!("unknown tool: {}", req.tool)),
                None,
            ));
        };
        let agent = self.agent(req.agent.as_deref())?;
        // Policy.
        let evaluation = self.evaluate(agent, req.provider.as_deref());
        if let Some(step) = evaluation.removed_by(tool.name()) {
            let why = format!(
                "tool {} is not allowed{}: removed at step {} ({}: {})",
                tool.name(),
                req.agent
                    .as_ref()
                    .map(|a| format!(" for agent {a}"))
                    .unwrap_or_default(),
                step.step,
                step.name,
                step.rule.clone().unwrap_or_default()
            );
            decision.insert(
                "policy".into(),
                json!({"allowed": false, "step": step.step, "rule": step.rule}),
            );
            return Ok((Status::Denied, None, Some(why), None));
        }
        decision.insert("policy".into(), json!({"allowed": true}));
        // Rate limit.
        let mut ctx = self.context(req, agent);
        ctx.allowed_tools = evaluation.tools.clone();
        if prompter.is_some() {
            ctx.asker = self.asker.clone();
        }
        let per_hour = self.tools.rate_limit_per_hour;
        let key = rate_key(ctx.session_key.as_deref(), req.agent.as_deref());
        if per_hour > 0 && !req.dry_run && !allow_rate(store, &key, per_hour)? {
            let n = per_hour;
            decision.insert(
                "rate_limit".into(),
                json!({"allowed": false, "per_hour": n}),
            );
            let msg = format!("tool rate limit exceeded: {n} actions/hour for key {key}");
            return Ok((Status::Limited, None, Some(msg), None));
        }
        // The empty-arguments guard, then the schema.
        let schema = tool.parameters();
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if args.is_empty() && !required.is_empty() {
            let msg = format!(
                "Tool call had empty arguments (required: {}). This usually means your previous response was too long for the API to include tool parameters. Try again with shorter content — split into smaller parts if needed.",
                required.join(", ")
            );
            return Ok((Status::Error, Some(ToolResult::error(msg)), None, None));
        }
        if let Err(e) = super::schema::validate(&schema, args) {
            return Ok((
                Status::Invalid,
                None,
                Some(format!("invalid arguments for {}: {e}", tool.name())),
                None,
            ));
        }
        // Review and approval.
        match tool.review(&ctx, args) {
            Review::Allow => {}
            Review::Deny(d) => {
                decision.insert(
                    "deny".into(),
                    json!({"group": d.group, "pattern": d.pattern}),
                );
                return Ok((Status::Denied, None, Some(d.message), None));
            }
            Review::Approval(subject) => {
                let entries =
                    approvals::list(store.conn()).map_err(|e| sql_error(store.path(), e))?;
                let d = approvals::decide(ctx.exec.approval, &subject, &entries);
                decision.insert(
                    "approval".into(),
                    serde_json::to_value(&d).unwrap_or(Value::Null),
                );
                if let Some(stop) =
                    self.settle(store, tool, &subject, d, req, prompter, decision)?
                {
                    return Ok(stop);
                }
            }
        }
        if tool.name() == "exec" {
            let plan = sandbox::plan_for(&ctx);
            decision.insert(
                "sandbox".into(),
                match &plan {
                    Ok(p) => {
                        json!({"kind": p.kind, "network": p.network, "describe": p.describe()})
                    }
                    Err(e) => json!({"error": e}),
                },
            );
        }
        if req.dry_run {
            return Ok((
                Status::DryRun,
                None,
                Some("dry run: the gate would run this call".into()),
                None,
            ));
        }
        *started = Some(self.begin(store, req, decision)?);
        let result = tool.execute(&ctx, args);
        let kind = result.error_kind;
        let status = if result.is_error {
            Status::Error
        } else {
            Status::Ok
        };
        Ok((status, Some(result), None, kind))
    }

    /// Acts on an approval decision; `Some` ends the call.
    #[allow(clippy::too_many_arguments)]
    fn settle(
        &self,
        store: &mut Store,
        tool: &dyn Tool,
        subject: &Subject,
        d: Decision,
        req: &CallRequest,
        prompter: Option<&dyn Prompter>,
        decision: &mut Map<String, Value>,
    ) -> Result<Option<Ending>> {
        let reason = match d {
            Decision::Allow(_) => return Ok(None),
            Decision::Deny(r) => return Ok(Some((Status::Denied, None, Some(r), None))),
            Decision::Ask(r) => r,
        };
        if req.dry_run {
            return Ok(Some((
                Status::DryRun,
                None,
                Some(format!("dry run: would ask for approval: {reason}")),
                None,
            )));
        }
        if let Some(p) = prompter {
            let timeout = Duration::from_secs(self.tools.exec.approval_timeout_secs.max(1));
            let answer = p.ask(tool.name(), subject, &reason, timeout);
            decision.insert("asked".into(), json!(format!("{answer:?}")));
            return match answer {
                Answer::AllowOnce => Ok(None),
                Answer::AllowAlways => {
                    for c in subject
                        .commands
                        .iter()
                        .filter(|c| c.program.starts_with('/'))
                    {
                        approvals::add(
                            store.conn(),
                            &c.program,
                            &[],
                            "allow",
                            Some("allowed always at a prompt"),
                        )
                        .map_err(|e| sql_error(store.path(), e))?;
                    }
                    Ok(None)
                }
                Answer::Deny => Ok(Some((
                    Status::Denied,
                    None,
                    Some("command denied by user".into()),
                    None,
                ))),
                Answer::TimedOut => Ok(Some((
                    Status::Denied,
                    None,
                    Some(format!(
                        "exec approval: approval timed out after {}",
                        super::exec::go_duration(Duration::from_secs(
                            self.tools.exec.approval_timeout_secs.max(1)
                        ))
                    )),
                    None,
                ))),
            };
        }
        decision.insert(
            "on_ask".into(),
            json!(format!("{:?}", req.on_ask).to_lowercase()),
        );
        match req.on_ask {
            OnAsk::Allow => Ok(None),
            OnAsk::Deny => Ok(Some((
                Status::Denied,
                None,
                Some(format!(
                    "approval required and no terminal to ask: {reason} (--on-ask allow runs it; `goclaw approvals allow` approves it for good)"
                )),
                None,
            ))),
            OnAsk::Fail => Ok(Some((
                Status::Error,
                Some(ToolResult::error(format!("approval required: {reason}"))),
                None,
                None,
            ))),
        }
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
            .map(|r| r.for_llm.chars().take(RESULT_PREVIEW).collect::<String>())
            .or_else(|| o.message.clone());
        let row = Row {
            tool: &o.tool,
            outcome: match o.status {
                Status::Ok => "ok",
                Status::Error => "error",
                Status::Denied => "denied",
                Status::Limited => "limited",
                Status::Invalid => "invalid",
                Status::NotFound => "not_found",
                Status::DryRun => "dry_run",
            },
            is_error: o.result.as_ref().is_some_and(|r| r.is_error)
                || matches!(o.status, Status::Error),
            took,
            decision: &o.decision,
            preview: preview.as_deref(),
        };
        let written = match started {
            Some(id) => store
                .conn()
                .execute(
                    "UPDATE tool_calls SET outcome = ?1, is_error = ?2, duration_ms = ?3, decision = ?4, result = ?5
                     WHERE id = ?6",
                    rusqlite::params![
                        row.outcome,
                        row.is_error,
                        row.took.as_millis() as i64,
                        row.decision.to_string(),
                        row.preview,
                        id
                    ],
                )
                .map(|_| id),
            None => self.insert(store, req, &row),
        };
        written.map_err(|e| sql_error(store.path(), e))
    }
}

/// What an audit row says of a call's end (or its start).
struct Row<'a> {
    tool: &'a str,
    outcome: &'a str,
    is_error: bool,
    took: Duration,
    decision: &'a Value,
    preview: Option<&'a str>,
}

/// The key calls are counted under: the session key, trimmed, lower-cased and with white space
/// collapsed (`Nightly ` and `nightly` share a quota); without a session, the agent
/// (`agent:KEY`, `agent:default` for none), so leaving the session out does not escape the limit.
pub fn rate_key(session: Option<&str>, agent: Option<&str>) -> String {
    match session.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => s
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase(),
        None => format!("agent:{}", agent.unwrap_or("default")),
    }
}

/// The sliding-window limiter (§8) in the store: drop events older than an hour, refuse at
/// `max`, else record now; one `BEGIN IMMEDIATE` transaction, so processes share the window.
pub fn allow_rate(store: &mut Store, key: &str, max: u32) -> Result<bool> {
    let path = store.path().to_path_buf();
    let err = |e| sql_error(&path, e);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    let tx = store
        .conn_mut()
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(err)?;
    tx.execute(
        "DELETE FROM rate_limit_events WHERE key = ?1 AND at_ms < ?2",
        (key, now - 3_600_000),
    )
    .map_err(err)?;
    let count: i64 = tx
        .query_row(
            "SELECT count(*) FROM rate_limit_events WHERE key = ?1",
            [key],
            |r| r.get(0),
        )
        .map_err(err)?;
    if count >= i64::from(max) {
        tx.commit().map_err(err)?;
        return Ok(false);
    }
    tx.execute(
        "INSERT INTO rate_limit_events (key, at_ms) VALUES (?1, ?2)",
        (key, now),
    )
    .map_err(err)?;
    tx.commit().map_err(err)?;
    Ok(true)
}

/// Accepts both argument shapes of seed 004: `{"name": T, "params": {…}}` and flat (where a
/// `name` equal to the tool's is dropped). More than [`MAX_PARAMS`] parameters are refused.
pub fn normalise(tool: &str, args: &Value) -> std::result::Result<Map<String, Value>, String> {
    let obj = match args {
        Value::Null => return Ok(Map::new()),
        Value::Object(o) => o,
        other => {
            return Err(format!(
                "arguments must be a JSON object, not {}",
                json_type(other)
            ));
        }
    };
    let inner = match (obj.get("name"), obj.get("params")) {
        (Some(Value::String(n)), Some(Value::Object(p))) if obj.len() == 2 => {
            if policy::canonical(n) != policy::canonical(tool) && !n.eq_ignore_ascii_case(tool) {
                return Err(format!(
                    "the arguments name tool `{n}` but the call is for `{tool}`"
                ));
            }
            p.clone()
        }
        (Some(Value::String(n)), _) if n == tool => {
            let mut o = obj.clone();
            o.remove("name");
            o
        }
        _ => obj.clone(),
    };
    if inner.len() > MAX_PARAMS {
        return Err(format!(
            "too many parameters: {} (at most {MAX_PARAMS})",
            inner.len()
        ));
    }
    Ok(inner)
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_argument_shapes() {
        let flat = normalise("exec", &json!({"command": "ls"})).unwrap();
        let nested = normalise(
            "exec",
            &json!({"name": "exec", "params": {"command": "ls"}}),
        )
        .unwrap();
        let named = normalise("exec", &json!({"name": "exec", "command": "ls"})).unwrap();
        let alias = normalise(
            "exec",
            &json!({"name": "bash", "params": {"command": "ls"}}),
        )
        .unwrap();
        assert_eq!(flat, nested);
        assert_eq!(flat, named);
        assert_eq!(flat, alias);
        assert!(normalise("exec", &json!({"name": "read_file", "params": {}})).is_err());
        assert!(normalise("exec", &json!([1])).is_err());
        let many: Map<String, Value> = (0..1001).map(|i| (format!("k{i}"), json!(i))).collect();
        assert!(
            normalise("exec", &Value::Object(many))
                .unwrap_err()
                .contains("too many")
        );
    }
}
