//! Phase 3 of a run: the tools the agent may use (policy, then the bootstrap rule), the system
//! prompt (context files, memory, credentialed CLIs, skills), and the conversation so far (the
//! session's summary and history, repaired and limited, a team lead's reminders, a task's
//! context and the team messages that arrived), ending with this run's message.

use super::turn::RunState;
use super::*;

impl Runner<'_> {
    /// Everything the loop starts from.
    pub(super) fn prepare(
        &mut self,
        req: &RunRequest,
        cfg: AgentConfig,
        meta: RunMeta,
        owner: &files::Owner<'_>,
        message: String,
        outcome: &mut RunOutcome,
    ) -> Result<RunState> {
        let profile = self.agent.map(|a| a.profile(self.agent_key));
        let depth = req.child.as_ref().map_or(0, |c| c.depth);
        let (scope, mut tools, deferred) = self.tools_for(req, &meta, profile.as_ref());
        let extras = PromptExtras::of(req, &meta, self.agent_key, deferred.len());
        let system = self.system_prompt(owner, profile.as_ref(), &mut tools, extras)?;
        let mut all = vec![Message::new(Role::System, system)];
        if let Some(key) = &req.session {
            self.history(key, &meta.run_id, &cfg, &mut all, outcome)?;
        }
        // A team lead is reminded of its board (seen by the model, not kept in the session).
        for reminder in crate::team::lead_reminders(self.store.db(), self.agent_key)? {
            all.push(Message::new(Role::User, reminder));
        }
        // A run on a task is told which (seen by the model, not kept in the session).
        if let Some(task) = req.team.as_ref().and_then(|t| t.task.as_ref()) {
            all.push(Message::new(
                Role::User,
                crate::team::work::task_context(task),
            ));
        }
        // From `base_len` on, this run's messages: team messages that arrived, then its own.
        let base_len = all.len();
        self.deliver_team_messages(req, &mut all)?;
        all.push(Message::new(Role::User, message.clone()));
        // The recursion guard: a reviewer's run checks no gates (its own agent's neither).
        let gates: Vec<config::QualityGate> = if req.skip_gates {
            Vec::new()
        } else {
            cfg.quality_gates
                .iter()
                .chain(&req.gates)
                .cloned()
                .collect()
        };
        let max_iterations = req
            .max_iterations
            .map(|m| m.min(cfg.max_iterations.unwrap_or(DEFAULT_MAX_ITERATIONS)))
            .or(cfg.max_iterations)
            .unwrap_or(DEFAULT_MAX_ITERATIONS)
            .max(1);
        Ok(RunState {
            max_iterations,
            tool_limit: cfg.max_tool_calls.unwrap_or(DEFAULT_MAX_TOOL_CALLS),
            deadline: req
                .timeout
                .map(|t| req.timeout_from.unwrap_or(meta.started) + t),
            max_cost: req.max_cost.or(cfg.max_cost),
            window: cfg
                .context_window
                .or(self.client.resolved.config.context_window)
                .unwrap_or(DEFAULT_CONTEXT_WINDOW),
            verbose: std::env::var("GOCLAW_TRACE_VERBOSE").is_ok_and(|v| v == "1"),
            session: req.session.clone(),
            link: RunLink {
                run_id: meta.run_id.clone(),
                parent_run_id: req.child.as_ref().map(|c| c.parent_run_id.clone()),
                depth,
                provider: meta.provider.clone(),
                model: meta.model.clone(),
                max_iterations,
                relay: req.relay.clone(),
                detach_children: req.detach_children,
                team: req.team.as_ref().map(|t| t.team.name.clone()),
                task_id: req
                    .team
                    .as_ref()
                    .and_then(|t| t.task.as_ref())
                    .map(|t| t.id.clone()),
            },
            scope,
            spawned: false,
            budget: max_iterations,
            gate_failures: vec![0; gates.len()],
            gates,
            message,
            meta,
            cfg,
            tools,
            deferred,
            all,
            base_len,
            carried: Vec::new(),
            usage: Usage::default(),
            cost: 0.0,
            total_calls: 0,
            detector: LoopDetector::default(),
            any_text: false,
            mid_compacted: false,
            iteration: 0,
        })
    }

    /// The tools the agent may use (those offered, and the MCP tools held back in search mode),
    /// and the policy scope they came from: a subagent's get the subagent deny list, and the
    /// leaf list at the deepest level.
    fn tools_for(
        &self,
        req: &RunRequest,
        meta: &RunMeta,
        profile: Option<&crate::tools::config::AgentProfile>,
    ) -> (Scope, Vec<ToolDef>, Vec<ToolDef>) {
        let depth = req.child.as_ref().map_or(0, |c| c.depth);
        // Its own limits under its parent's (a child spawned as another agent nests no deeper
        // than its parent may).
        let max_depth = self.gate.subagent_limits(profile).max_spawn_depth;
        let scope = Scope {
            subagent: depth > 0 || req.restricted,
            leaf: (depth > 0 && depth >= max_depth) || req.restricted,
            ..Scope::default()
        };
        let allowed = self
            .gate
            .evaluate(profile, Some(&meta.provider), &scope)
            .tools;
        let tools = allowed
            .iter()
            .filter_map(|n| self.gate.registry().get(n))
            .map(|t| ToolDef {
                name: t.name().to_string(),
                description: t.description().to_string(),
                parameters: t.parameters(),
            })
            .collect();
        let (offered, deferred) = mcp_search_mode(tools, self.gate.tools().mcp_search_threshold);
        (scope, offered, deferred)
    }

    /// The system prompt: context files, memory, credentialed CLIs and skills as far as the
    /// tools allow them. The first run of an open agent (BOOTSTRAP.md, §16.8) keeps only
    /// `write_file`.
    fn system_prompt(
        &mut self,
        owner: &files::Owner<'_>,
        profile: Option<&crate::tools::config::AgentProfile>,
        tools: &mut Vec<ToolDef>,
        extras: PromptExtras<'_>,
    ) -> Result<String> {
        let mut context_files = files::context_for_run(self.store.db(), owner)?;
        if let Some(md) = extras.team_md {
            context_files.push(("TEAM.md".to_string(), md));
        }
        // First run of an open agent (§16.8): BOOTSTRAP.md is followed with write_file alone.
        let bootstrap = !owner.predefined && context_files.iter().any(|(n, _)| n == "BOOTSTRAP.md");
        if bootstrap {
            tools.retain(|t| t.name == "write_file");
        }
        let has_memory = tools.iter().any(|t| t.name == "memory_search")
            && files::has_memory(self.store.db(), self.agent_key)?;
        let tool_notes = if tools.iter().any(|t| t.name == "credentialed_exec") {
            let clis = crate::tools::credentialed::usable(self.store.db(), Some(self.agent_key))?;
            crate::tools::credentialed::prompt_context(&clis)
        } else {
            String::new()
        };
        let skills = if !bootstrap && tools.iter().any(|t| t.name == "use_skill") {
            let found = crate::skills::discover(
                self.gate.skill_roots(),
                self.store.db(),
                Some(self.agent_key),
            )?;
            crate::skills::prompt_section(&found)
        } else {
            String::new()
        };
        let system = prompt::build(&prompt::PromptInput {
            agent: self.agent_key,
            minimal: false,
            tools,
            workspace: &self.gate.workspace_for(profile),
            context_files: &context_files,
            has_memory,
            today: &prompt::today(),
            bootstrap,
            tool_notes: &tool_notes,
            skills: &skills,
            runtime: extras.runtime,
            user: extras.user,
            sandbox: sandbox_note(self.gate, profile, tools),
            team_workspace: extras.team_workspace.as_deref(),
            extra_context: extras.extra_context,
            mcp_deferred: extras.mcp_deferred,
        });
        Ok(system)
    }

    /// The session's summary and history, repaired in the store when its tool pairing is
    /// broken (§16.6) and cut to the agent's history limit.
    fn history(
        &mut self,
        key: &str,
        run_id: &str,
        cfg: &AgentConfig,
        all: &mut Vec<Message>,
        outcome: &mut RunOutcome,
    ) -> Result<()> {
        // A session is its agent's: another agent's run read its history and added to it.
        if let Some(owner) = record::session_agent(self.store.db(), key)?
            && owner != self.agent_key
        {
            return Err(Error::conflict(format!(
                "session `{key}` is agent `{owner}`'s: a run of agent `{}` cannot continue it",
                self.agent_key
            ))
            .with_hint("give the run a session of its own (--session KEY)"));
        }
        let summary =
            record::compaction_state(self.store.db(), key)?.and_then(|(_, _, summary)| summary);
        if let Some(summary) = summary {
            all.push(Message::new(
                Role::User,
                format!("[Previous conversation summary]\n{summary}"),
            ));
            all.push(Message::new(
                Role::Assistant,
                "I understand the context from our previous conversation. How can I help you?",
            ));
        }
        let stored = record::history(self.store.db(), key)?;
        let (clean, changed) = history::sanitize_history(stored);
        if changed > 0 {
            record::replace_history(self.store.db(), self.gate.scrubber(), key, run_id, &clean)?;
            outcome.warnings.push(format!(
                "session {key}: repaired {changed} message(s) with broken tool pairing"
            ));
        }
        let mut sent = match cfg.history_limit.unwrap_or(0) {
            0 => clean,
            limit => history::sanitize_history(history::limit_history_turns(clean, limit)).0,
        };
        let window = cfg
            .context_window
            .or(self.client.resolved.config.context_window)
            .unwrap_or(DEFAULT_CONTEXT_WINDOW);
        // Silent, as in the original: what the model saw is in the run's trace.
        pruning::prune(&mut sent, window, &cfg.context_pruning);
        all.extend(sent);
        Ok(())
    }
}

/// What the prompt says of the run beyond its tools and files.
struct PromptExtras<'a> {
    /// TEAM.md, for a team's lead.
    team_md: Option<String>,
    runtime: prompt::Runtime<'a>,
    user: Option<&'a str>,
    team_workspace: Option<std::path::PathBuf>,
    extra_context: Option<&'a str>,
    /// MCP tools held back for `mcp_tool_search`.
    mcp_deferred: usize,
}

impl<'a> PromptExtras<'a> {
    fn of(
        req: &'a RunRequest,
        meta: &'a RunMeta,
        agent: &str,
        mcp_deferred: usize,
    ) -> PromptExtras<'a> {
        PromptExtras {
            // Only a team's lead gets TEAM.md (seed 000, "Lead-Centric Design").
            team_md: (req.team.as_ref())
                .filter(|t| t.team.is_lead(agent))
                .map(|t| crate::team::work::team_md(&t.team, &t.base)),
            runtime: prompt::Runtime {
                session: req.session.as_deref(),
                provider: &meta.provider,
                model: &meta.model,
            },
            user: req.user.as_deref(),
            team_workspace: req
                .team
                .as_ref()
                .map(|t| crate::team::work::team_dir(&t.base, &t.team)),
            extra_context: req.context.as_deref(),
            mcp_deferred,
        }
    }
}

/// `## Sandbox`: how `exec` confines the agent's commands, when it has `exec` and a sandbox.
fn sandbox_note(
    gate: &Gate<'_>,
    profile: Option<&crate::tools::config::AgentProfile>,
    tools: &[ToolDef],
) -> Option<String> {
    use crate::tools::exec::{SandboxMode, sandbox};
    if !tools.iter().any(|t| t.name == "exec") {
        return None;
    }
    let global = &gate.tools().exec;
    let own = profile.map(|p| &p.tools.exec);
    let mode = own.and_then(|e| e.sandbox).unwrap_or(global.sandbox);
    let network = own.and_then(|e| e.network).unwrap_or(global.network);
    if mode == SandboxMode::None {
        return None;
    }
    let (layers, _) = sandbox::layers_for(mode).ok()?;
    if mode == SandboxMode::Docker {
        return Some(format!(
            "exec runs your commands in a Docker container ({}) with only the workspace mounted, at /workspace{}.",
            global.docker_image,
            if network { "" } else { "; there is no network" }
        ));
    }
    Some(format!(
        "exec runs your commands in a sandbox ({layers}): the workspace, /tmp and /dev are writable, everything else is read-only{}, and goclaw's own state is hidden. A command that must write elsewhere fails: say so instead of retrying it.",
        if network { "" } else { ", there is no network" }
    ))
}

/// MCP search mode (§17): with more MCP tools than `threshold` (0: never) and
/// `mcp_tool_search` allowed, the MCP tools are held back (deferred) until a search finds them;
/// otherwise every MCP tool is offered and the search is not. The tools offered, and those
/// held back.
fn mcp_search_mode(tools: Vec<ToolDef>, threshold: usize) -> (Vec<ToolDef>, Vec<ToolDef>) {
    let is_mcp = |t: &ToolDef| t.name.starts_with("mcp_") && t.name != "mcp_tool_search";
    let count = tools.iter().filter(|t| is_mcp(t)).count();
    let searchable = tools.iter().any(|t| t.name == "mcp_tool_search");
    if threshold == 0 || count <= threshold || !searchable {
        let offered = tools
            .into_iter()
            .filter(|t| t.name != "mcp_tool_search")
            .collect();
        return (offered, Vec::new());
    }
    tools.into_iter().partition(|t| !is_mcp(t))
}
