//! `goclaw policy explain`: the final tool list and every step of the pipeline, or the fate of
//! one call (which step kept or removed the tool, the deny pattern, the approval decision),
//! without running anything.

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::input::Input;
use super::{Context, Status};
use crate::error::{Error, Result};
use crate::policy;
use crate::store::sql_error;
use crate::tools::exec::approvals;
use crate::tools::{Review, gate::normalise};

/// Explain the tool policy.
#[derive(Debug, Args)]
pub struct PolicyArgs {
    #[command(subcommand)]
    pub command: PolicyCommand,
}

#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Show the final tool list and, for each step, the rule that applied and what it changed
    #[command(after_help = "Examples:\n  \
        goclaw policy explain --agent reviewer\n  \
        goclaw policy explain --agent reviewer --tool exec --args '{\"command\":\"git push\"}'")]
    Explain(ExplainArgs),
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    #[arg(long, env = "GOCLAW_AGENT")]
    pub agent: Option<String>,
    /// Also connect to the MCP servers the agent may use, so their tools and the `mcp` and
    /// `mcp:<server>` groups take part
    #[arg(long)]
    pub mcp: bool,
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
    let store = ctx.store()?;
    let mut p = super::tools::parts(ctx, &store, a.agent.as_deref())?;
    if a.mcp {
        super::tools::bridge_all_mcp(ctx, &store, &mut p, a.agent.as_deref(), None)?;
    } else if let Some(t) = a.tool.as_deref() {
        super::tools::bridge_mcp(ctx, &store, &mut p, t, a.agent.as_deref(), None)?;
    }
    let g = super::tools::gate(ctx, &p)?;
    let agent = g.agent(a.agent.as_deref())?;
    let req = policy::Request {
        agent: agent.map(|a| a.tools.policy()),
        provider: a.provider.as_deref(),
        group_allow: &a.group_allow,
        request_allow: &a.request_allow,
        subagent: a.subagent || a.leaf,
        leaf: a.leaf,
    };
    let eval = policy::evaluate(&p.registry.names(), g.tools.policy(), g.groups, &req);
    let Some(tool_name) = &a.tool else {
        let doc = json!({"agent": a.agent, "provider": a.provider, "tools": eval.tools, "steps": eval.steps});
        ctx.out.data(&doc, |w| {
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
        return Ok(Status::Ok);
    };
    // One call.
    let tool = p
        .registry
        .get(tool_name)
        .ok_or_else(|| Error::not_found(format!("unknown tool: {tool_name}")))?;
    let call_args = match &a.args {
        Some(s) => Input::parse(Some(s)).read_json(ctx)?,
        None => Value::Object(Default::default()),
    };
    let call_args = normalise(tool.name(), &call_args).map_err(Error::usage)?;
    let mut doc = serde_json::Map::new();
    doc.insert("tool".into(), json!(tool.name()));
    let mut decision = "allow";
    match eval.removed_by(tool.name()) {
        Some(step) => {
            decision = "deny";
            doc.insert(
                "policy".into(),
                json!({"allowed": false, "step": step.step, "name": step.name, "rule": step.rule}),
            );
        }
        None => {
            let kept = eval
                .steps
                .iter()
                .rev()
                .find(|s| s.added.iter().any(|t| t == tool.name()));
            doc.insert(
                "policy".into(),
                json!({"allowed": true, "kept_by": kept.map_or("profile and allow lists".to_string(), |s| format!("step {} ({})", s.step, s.name))}),
            );
        }
    }
    let call = crate::tools::gate::CallRequest {
        agent: a.agent.clone(),
        ..Default::default()
    };
    let cctx = g.context(&call, agent);
    match tool.review(&cctx, &call_args) {
        Review::Allow => {}
        Review::Deny(d) => {
            decision = "deny";
            doc.insert("deny_group".into(), json!(d.group));
            doc.insert("pattern".into(), json!(d.pattern));
            doc.insert("message".into(), json!(d.message));
        }
        Review::Approval(subject) => {
            let store = ctx.store()?;
            let entries = approvals::list(store.conn()).map_err(|e| sql_error(store.path(), e))?;
            let d = approvals::decide(cctx.exec.approval, &subject, &entries);
            if decision == "allow" {
                decision = match &d {
                    approvals::Decision::Allow(_) => "allow",
                    approvals::Decision::Deny(_) => "deny",
                    approvals::Decision::Ask(_) => "ask",
                };
            }
            doc.insert(
                "approval".into(),
                serde_json::to_value(&d).unwrap_or(Value::Null),
            );
            doc.insert(
                "approval_mode".into(),
                serde_json::to_value(cctx.exec.approval).unwrap_or(Value::Null),
            );
            doc.insert(
                "commands".into(),
                serde_json::to_value(&subject.commands).unwrap_or(Value::Null),
            );
            if let Some(o) = &subject.opaque {
                doc.insert("opaque".into(), json!(o));
            }
            let plan = crate::tools::exec::sandbox::plan_for(&cctx);
            doc.insert(
                "sandbox".into(),
                match plan {
                    Ok(p) => json!(p.describe()),
                    Err(e) => json!({"error": e}),
                },
            );
        }
    }
    doc.insert("decision".into(), json!(decision));
    let mut doc = Value::Object(doc);
    // The command and the reasons may carry secrets (`--args` with a token in it).
    p.scrubber.scrub_json(&mut doc);
    ctx.out.data(&doc, |w| {
        writeln!(w, "{}: {decision}", tool.name())?;
        for (k, v) in doc
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| *k != "tool" && *k != "decision")
        {
            writeln!(w, "  {k}: {v}")?;
        }
        Ok(())
    })?;
    Ok(Status::Ok)
}
