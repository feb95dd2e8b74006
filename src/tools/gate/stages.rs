//! The gate's stages before a tool runs, in order: arguments → tool → agent → policy → rate
//! limit (calls only) → the empty-arguments guard → schema → the tool's review and the approval
//! decision → sandbox; and the settling of an approval that must be asked for.

use std::time::Duration;

use serde_json::{Map, Value};

use super::decision::{
    CallEnd, Decision, DenyCheck, PolicyCheck, RateCheck, SandboxCheck, Verdict,
};
use super::*;

/// The empty-arguments guard (§1.3: a model whose output was cut off sends `{}`), then the
/// schema.
fn arguments_stage(tool: &dyn Tool, args: &Map<String, Value>) -> Option<CallEnd> {
    let schema = tool.parameters();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if args.is_empty() && !required.is_empty() {
        return Some(CallEnd::tool_error(ToolResult::bad_args(&format!(
            "Tool call had empty arguments (required: {}). This usually means your previous response was too long for the API to include tool parameters. Try again with shorter content — split into smaller parts if needed.",
            required.join(", ")
        ))));
    }
    let e = crate::tools::schema::validate(&schema, args).err()?;
    Some(CallEnd::stop(
        Status::Invalid,
        format!("invalid arguments for {}: {e}", tool.name()),
    ))
}

impl<'a> Gate<'a> {
    /// The stages before a tool runs, in order: arguments → tool → agent → policy → rate limit
    /// (calls only) → the empty-arguments guard → schema → review and approval decision →
    /// sandbox. A stage that stops the call sets the verdict; the rest are not reached.
    pub(super) fn decide_for(
        &self,
        store: &mut Store,
        req: &CallRequest,
        purpose: Purpose,
    ) -> Result<Decided<'a>> {
        let mut d = Decided {
            tool: None,
            evaluation: None,
            decision: Decision::default(),
            verdict: Verdict::Run,
            approval: None,
            ready: None,
        };
        if let Some(end) = self.stages(store, req, purpose, &mut d)? {
            d.verdict = Verdict::Stop(end);
        }
        Ok(d)
    }

    fn stages(
        &self,
        store: &mut Store,
        req: &CallRequest,
        purpose: Purpose,
        d: &mut Decided<'a>,
    ) -> Result<Option<CallEnd>> {
        let args = match normalise(&req.tool, &req.args) {
            Ok(args) => args,
            Err(msg) => return Ok(Some(CallEnd::stop(Status::Invalid, msg))),
        };
        let Some(tool) = self.registry.get(&req.tool) else {
            let msg = format!("unknown tool: {}", req.tool);
            return Ok(Some(CallEnd::stop(Status::NotFound, msg)));
        };
        d.tool = Some(tool);
        let agent = self.agent(req.agent.as_deref())?;
        let allowed = match self.policy_stage(req, agent, tool, d) {
            Ok(allowed) => allowed,
            Err(end) => return Ok(Some(end)),
        };
        let ctx = self.context(req, agent, allowed);
        if purpose == Purpose::Call
            && let Some(end) = self.rate_stage(store, req, &ctx, d)?
        {
            return Ok(Some(end));
        }
        if let Some(end) = arguments_stage(tool, &args) {
            return Ok(Some(end));
        }
        if let Some(end) = self.review_stage(store, tool, &ctx, &args, d)? {
            return Ok(Some(end));
        }
        // The sandbox the tool would run in.
        d.decision.sandbox = tool.sandbox(&ctx).map(|plan| match plan {
            Ok(p) => SandboxCheck::Plan {
                kind: p.kind,
                network: p.network,
                describe: p.describe(),
            },
            Err(error) => SandboxCheck::Error { error },
        });
        d.ready = Some((ctx, args));
        Ok(None)
    }

    /// Is the tool in the caller's final list? The list, or the refusal naming the step.
    fn policy_stage(
        &self,
        req: &CallRequest,
        agent: Option<&AgentProfile>,
        tool: &dyn Tool,
        d: &mut Decided<'a>,
    ) -> std::result::Result<Vec<String>, CallEnd> {
        let evaluation = self.evaluate(agent, req.provider.as_deref(), &req.scope);
        let removed = evaluation.removed_by(tool.name()).cloned();
        let allowed = evaluation.tools.clone();
        d.evaluation = Some(evaluation);
        let Some(step) = removed else {
            d.decision.policy = Some(PolicyCheck {
                allowed: true,
                step: None,
                name: None,
                rule: None,
            });
            return Ok(allowed);
        };
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
        d.decision.policy = Some(PolicyCheck {
            allowed: false,
            step: Some(step.step),
            name: Some(step.name),
            rule: step.rule,
        });
        Err(CallEnd::stop(Status::Denied, why))
    }

    /// The rate limit (`[tools] rate_limit_per_hour`), counted in the store; a dry run is not
    /// counted.
    fn rate_stage(
        &self,
        store: &mut Store,
        req: &CallRequest,
        ctx: &CallContext,
        d: &mut Decided<'a>,
    ) -> Result<Option<CallEnd>> {
        let per_hour = self.tools.rate_limit_per_hour;
        if per_hour == 0 || req.dry_run {
            return Ok(None);
        }
        let key = rate_key(ctx.session_key.as_deref(), req.agent.as_deref());
        if allow_rate(store.db(), &key, per_hour)? {
            return Ok(None);
        }
        d.decision.rate_limit = Some(RateCheck {
            allowed: false,
            per_hour,
        });
        let msg = format!("tool rate limit exceeded: {per_hour} actions/hour for key {key}");
        Ok(Some(CallEnd::stop(Status::Limited, msg)))
    }

    /// The tool's own review (deny patterns), then the approval decision over what it asks
    /// about: allowed, denied, or to be asked for (the verdict).
    fn review_stage(
        &self,
        store: &Store,
        tool: &dyn Tool,
        ctx: &CallContext,
        args: &Map<String, Value>,
        d: &mut Decided<'a>,
    ) -> Result<Option<CallEnd>> {
        let risky = self
            .tools
            .ask_risk
            .map(|t| (tool.call_risk(args), t))
            .filter(|(risk, t)| risk >= t)
            .map(|(risk, t)| {
                format!(
                    "a {} call needs approval ([tools] ask_risk = \"{}\")",
                    risk.name(),
                    t.name()
                )
            });
        match tool.review(ctx, args) {
            Review::Allow => {
                if let Some(reason) = risky {
                    let subject = Subject::call(tool.name(), args);
                    d.approval = Some((subject.clone(), ctx.exec.approval));
                    d.verdict = Verdict::Ask { subject, reason };
                }
                Ok(None)
            }
            Review::Deny(denial) => {
                d.decision.deny = Some(DenyCheck {
                    group: denial.group,
                    pattern: denial.pattern,
                });
                Ok(Some(CallEnd::stop(Status::Denied, denial.message)))
            }
            Review::Approval(subject) => {
                let entries = approvals::list(store.db())?;
                let decision = approvals::decide(ctx.exec.approval, &subject, &entries);
                d.decision.approval = Some(decision.clone());
                d.approval = Some((subject.clone(), ctx.exec.approval));
                Ok(match decision {
                    approvals::Decision::Allow(_) if risky.is_some() => {
                        let reason = risky.unwrap_or_default();
                        let subject = Subject {
                            by_risk: true,
                            ..subject
                        };
                        d.decision.approval = Some(approvals::Decision::Ask(reason.clone()));
                        d.verdict = Verdict::Ask { subject, reason };
                        None
                    }
                    approvals::Decision::Allow(_) => None,
                    approvals::Decision::Deny(r) => Some(CallEnd::stop(Status::Denied, r)),
                    approvals::Decision::Ask(reason) => {
                        // Risky as well: "always" may not put it on the allowlist.
                        let subject = Subject {
                            by_risk: risky.is_some(),
                            ..subject
                        };
                        let reason = match &risky {
                            Some(r) => format!("{reason}; {r}"),
                            None => reason,
                        };
                        d.verdict = Verdict::Ask { subject, reason };
                        None
                    }
                })
            }
        }
    }

    /// Acts on an approval that must be asked for; `Some` ends the call.
    pub(super) fn settle(
        &self,
        store: &mut Store,
        subject: &Subject,
        reason: String,
        req: &CallRequest,
        prompter: Option<&dyn Prompter>,
        decision: &mut Decision,
    ) -> Result<Option<CallEnd>> {
        if req.dry_run {
            let msg = format!("dry run: would ask for approval: {reason}");
            return Ok(Some(CallEnd::stop(Status::DryRun, msg)));
        }
        // `--on-ask wait:DUR` sets how long a parked request waits; else the config's.
        let timeout = match req.on_ask {
            OnAsk::Wait(Some(wait)) => wait,
            _ => Duration::from_secs(self.tools.exec.approval_timeout_secs.max(1)),
        };
        if let Some(p) = prompter {
            let answer = p.ask(&req.tool, subject, &reason, timeout, &req.stop);
            decision.asked = Some(format!("{answer:?}"));
            return match answer {
                Answer::AllowOnce => Ok(None),
                // The allowlist cannot settle a call asked about for its risk: "always" is once.
                Answer::AllowAlways => {
                    for c in subject
                        .commands
                        .iter()
                        .filter(|c| c.program.starts_with('/') && !subject.by_risk)
                    {
                        approvals::add(
                            store.db(),
                            &c.program,
                            &[],
                            "allow",
                            Some("allowed always at a prompt"),
                        )?;
                    }
                    Ok(None)
                }
                Answer::Deny => Ok(Some(CallEnd::stop(
                    Status::Denied,
                    "command denied by user",
                ))),
                Answer::TimedOut => Ok(Some(CallEnd::stop(
                    Status::Denied,
                    format!(
                        "exec approval: approval timed out after {}",
                        crate::tools::exec::go_duration(timeout)
                    ),
                ))),
                Answer::Closed => Ok(Some(CallEnd::stop(
                    Status::Denied,
                    "exec approval: the terminal closed before anyone answered",
                ))),
                Answer::Stopped(why) => Ok(Some(CallEnd::ran(ToolResult::stopped(
                    format!(
                        "cancelled while asking for approval: {}",
                        req.stop.describe(why)
                    ),
                    why,
                )))),
            };
        }
        decision.on_ask = Some(req.on_ask.name().to_string());
        Ok(match req.on_ask {
            OnAsk::Allow => None,
            // Waiting needs the relay, which the command line gives as the prompter; without
            // it nobody could answer, so nobody allows it.
            OnAsk::Deny | OnAsk::Wait(_) => Some(CallEnd::stop(
                Status::Denied,
                if subject.by_risk {
                    format!(
                        "approval required and no terminal to ask: {reason} (--on-ask allow runs it)"
                    )
                } else {
                    format!(
                        "approval required and no terminal to ask: {reason} (--on-ask allow runs it; `goclaw approvals allow` approves it for good)"
                    )
                },
            )),
            OnAsk::Fail => Some(CallEnd::tool_error(ToolResult::error(format!(
                "approval required: {reason}"
            )))),
        })
    }
}
