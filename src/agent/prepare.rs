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
        let profile = self.agent.map(|a| a.profile());
        let depth = req.child.as_ref().map_or(0, |c| c.depth);
        let (scope, mut tools) = self.tools_for(req, &cfg, &meta, profile.as_ref());
        // Only a team's lead gets TEAM.md (seed 000, "Lead-Centric Design").
        let team_md = (req.team.as_ref())
            .filter(|t| t.team.is_lead(self.agent_key))
            .map(|t| crate::team::work::team_md(&t.team, &t.base));
        let system = self.system_prompt(owner, profile.as_ref(), &mut tools, team_md)?;
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
            deadline: req.timeout.map(|t| meta.started + t),
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

    /// The tools the agent may use, and the policy scope they came from: a subagent's get the
    /// subagent deny list, and the leaf list at the deepest level.
    fn tools_for(
        &self,
        req: &RunRequest,
        cfg: &AgentConfig,
        meta: &RunMeta,
        profile: Option<&crate::tools::config::AgentProfile>,
    ) -> (Scope, Vec<ToolDef>) {
        let depth = req.child.as_ref().map_or(0, |c| c.depth);
        let scope = Scope {
            subagent: depth > 0 || req.restricted,
            leaf: (depth > 0 && depth >= cfg.subagents.max_spawn_depth) || req.restricted,
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
        (scope, tools)
    }

    /// The system prompt: context files, memory, credentialed CLIs and skills as far as the
    /// tools allow them. The first run of an open agent (BOOTSTRAP.md, §16.8) keeps only
    /// `write_file`.
    fn system_prompt(
        &mut self,
        owner: &files::Owner<'_>,
        profile: Option<&crate::tools::config::AgentProfile>,
        tools: &mut Vec<ToolDef>,
        team_md: Option<String>,
    ) -> Result<String> {
        let mut context_files = files::context_for_run(self.store.db(), owner)?;
        if let Some(md) = team_md {
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
        match cfg.history_limit.unwrap_or(0) {
            0 => all.extend(clean),
            limit => {
                let limited = history::limit_history_turns(clean, limit);
                all.extend(history::sanitize_history(limited).0);
            }
        }
        Ok(())
    }
}
