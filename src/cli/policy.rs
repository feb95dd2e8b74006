//! `goclaw policy explain`: the final tool list and every step of the pipeline, or the fate of
//! one call (which step kept or removed the tool, the deny pattern, the approval decision),
//! without running anything.

use clap::{Args, Subcommand};
use serde_json::{Map, Value, json};

use super::input::Input;
use super::{Context, Status};
use crate::error::{Error, Result};
use crate::ops::toolbox::{Bridge, Caller, GateOptions};
use crate::text::printable::printable;
use crate::tools::gate::decision::{SandboxCheck, Verdict};
use crate::tools::gate::{CallRequest, Decided, Scope, Status as CallStatus};

// Explain the tool policy.
#[derive(Debug, Args)]
pub struct PolicyArgs {
    #[command(subcommand)]
    pub command: PolicyCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum PolicyCommand {
    /// Show the final tool list and, for each step, the rule that applied and what it changed
    #[command(after_help = "Examples:\n  \
        goclaw policy explain --agent reviewer\n  \
        goclaw policy explain --agent reviewer --tool exec --args '{\"command\":\"git push\"}'")]
    Explain(ExplainArgs),
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The agent whose policy to explain (a key of [agents] in config; none: the global policy)
    #[arg(
        long,
        env = super::shared::env_unless_empty("GOCLAW_AGENT"),
        value_parser = super::shared::non_empty(),
        hide_env_values = true,
    )]
    pub agent: Option<String>,
    /// Also connect to the MCP servers the agent may use, so their tools and the `mcp` and
    /// `mcp:<server>` groups take part
    #[arg(long)]
    pub mcp: bool,
    /// Apply this provider's rules too ([tools.by_provider.NAME], and the agent's)
    #[arg(long)]
    pub provider: Option<String>,
    /// Apply the subagent deny list
    #[arg(long)]
    pub subagent: bool,
    /// Apply the leaf-subagent deny list too
    #[arg(long)]
    pub leaf: bool,
    /// The chat group's allow list (comma-separated names or group:NAME)
    #[arg(long, value_delimiter = ',')]
    pub group_allow: Vec<String>,
    /// A per-request allow list (comma-separated)
    #[arg(long, value_delimiter = ',')]
    pub request_allow: Vec<String>,
    /// Explain one call of this tool
    #[arg(long)]
    pub tool: Option<String>,
    /// The call's arguments: JSON, @FILE or -
    #[arg(long, requires = "tool")]
    pub args: Option<String>,
}

pub fn run(ctx: &Context, args: PolicyArgs) -> Result<Status> {
    let PolicyCommand::Explain(a) = args.command;
    let mut store = ctx.any_store()?;
    let caller = Caller {
        agent: a.agent.as_deref(),
        user: None,
    };
    let bridge = match (a.mcp, a.tool.as_deref()) {
        (true, _) => Bridge::All,
        (false, Some(t)) => Bridge::ToolOf(t),
        (false, None) => Bridge::None,
    };
    let toolbox = super::shared::toolbox(ctx, &store, caller, bridge, Default::default())?;
    let g = toolbox.gate(GateOptions::default());
    let scope = Scope {
        group_allow: a.group_allow.clone(),
        request_allow: a.request_allow.clone(),
        subagent: a.subagent,
        leaf: a.leaf,
    };
    let Some(tool_name) = &a.tool else {
        let eval = g.evaluate(g.agent(a.agent.as_deref())?, a.provider.as_deref(), &scope);
        let doc = json!({"agent": a.agent, "provider": a.provider, "tools": eval.tools, "steps": eval.steps});
        return show_list(ctx, &doc, &eval);
    };
    // One call, decided by the gate as it would decide it, without running or counting it.
    let call_args = match &a.args {
        Some(s) => Input::parse(Some(s)).read_json(ctx)?,
        None => Value::Object(Default::default()),
    };
    let req = CallRequest {
        tool: tool_name.clone(),
        args: call_args,
        agent: a.agent.clone(),
        provider: a.provider.clone(),
        scope,
        ..Default::default()
    };
    let decided = g.decide(&mut store, &req)?;
    let mut doc = explanation(&decided)?;
    // The command and the reasons may carry secrets (`--args` with a token in it).
    g.scrubber().scrub_json(&mut doc);
    let (name, verdict) = (
        doc["tool"].as_str().unwrap_or_default().to_string(),
        doc["decision"].as_str().unwrap_or_default().to_string(),
    );
    ctx.out.data(&doc, |w| {
        writeln!(w, "{name}: {verdict}")?;
        // The reasons as a record for people: `key  value` lines, nested keys dotted.
        let mut rest = doc.clone();
        if let Some(map) = rest.as_object_mut() {
            map.remove("tool");
            map.remove("decision");
        }
        for line in super::human::fields(&rest).lines() {
            writeln!(w, "  {}", printable(line))?;
        }
        Ok(())
    })?;
    Ok(Status::Ok)
}

/// The final tool list and the steps that made it.
fn show_list(ctx: &Context, doc: &Value, eval: &crate::policy::Evaluation) -> Result<Status> {
    ctx.out.data(doc, |w| {
        writeln!(w, "tools: {}", eval.tools.join(", "))?;
        for s in &eval.steps {
            let Some(rule) = &s.rule else { continue };
            write!(w, "{:>2}. {:<22} {rule}", s.step, s.name)?;
            if !s.removed.is_empty() {
                write!(w, "\n      removed: {}", s.removed.join(", "))?;
            }
            if !s.added.is_empty() {
                write!(w, "\n      added: {}", s.added.join(", "))?;
            }
            writeln!(w)?;
        }
        Ok(())
    })?;
    Ok(Status::Ok)
}

/// The explanation of one call: which step kept or removed the tool, the deny pattern, the
/// approval decision and the sandbox; `decision` is `allow`, `ask`, `deny` or `invalid`. An
/// unknown tool is an error of the command (exit 5), as are arguments that are not an object.
fn explanation(d: &Decided<'_>) -> Result<Value> {
    let tool = match (d.tool, &d.verdict) {
        (Some(t), _) => t,
        (None, Verdict::Stop(end)) => {
            let message = end.message.clone().unwrap_or_default();
            return Err(match end.status {
                CallStatus::NotFound => Error::not_found(message),
                _ => Error::usage(message),
            });
        }
        (None, _) => return Err(Error::internal("no tool in a decided call")),
    };
    let mut doc = Map::new();
    doc.insert("tool".into(), json!(tool.name()));
    match &d.decision.policy {
        Some(p) if !p.allowed => {
            doc.insert(
                "policy".into(),
                json!({"allowed": false, "step": p.step, "name": p.name, "rule": p.rule}),
            );
        }
        _ => {
            let kept = d.evaluation.as_ref().and_then(|e| {
                e.steps
                    .iter()
                    .rev()
                    .find(|s| s.added.iter().any(|t| t == tool.name()))
            });
            doc.insert(
                "policy".into(),
                json!({"allowed": true, "kept_by": kept.map_or("profile and allow lists".to_string(), |s| format!("step {} ({})", s.step, s.name))}),
            );
        }
    }
    let (verdict, message) = match &d.verdict {
        Verdict::Run => ("allow", None),
        Verdict::Ask { .. } => ("ask", None),
        Verdict::Stop(end) => (
            match end.status {
                CallStatus::Denied | CallStatus::Limited => "deny",
                _ => "invalid",
            },
            end.message
                .clone()
                .or_else(|| end.result.as_ref().map(|r| r.for_llm.clone())),
        ),
    };
    if let Some(deny) = &d.decision.deny {
        doc.insert("deny_group".into(), json!(deny.group));
        doc.insert("pattern".into(), json!(deny.pattern));
    }
    if let Some(m) = message.filter(|_| d.decision.policy.as_ref().is_some_and(|p| p.allowed)) {
        doc.insert("message".into(), json!(m));
    }
    if let (Some(approval), Some((subject, mode))) = (&d.decision.approval, &d.approval) {
        doc.insert("approval".into(), to_json(approval)?);
        doc.insert("approval_mode".into(), to_json(mode)?);
        doc.insert("commands".into(), to_json(&subject.commands)?);
        if let Some(o) = &subject.opaque {
            doc.insert("opaque".into(), json!(o));
        }
    }
    if let Some(sandbox) = &d.decision.sandbox {
        doc.insert(
            "sandbox".into(),
            match sandbox {
                SandboxCheck::Plan { describe, .. } => json!(describe),
                SandboxCheck::Error { error } => json!({"error": error}),
            },
        );
    }
    doc.insert("decision".into(), json!(verdict));
    Ok(Value::Object(doc))
}

fn to_json(v: &impl serde::Serialize) -> Result<Value> {
    serde_json::to_value(v).map_err(|e| Error::internal(format!("cannot encode: {e}")))
}
