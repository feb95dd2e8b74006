//! Compaction and memory flush (§16.7). After a completed run, a session whose history is longer
//! than 200 messages or estimated above 75 % of the context window is compacted: first a memory
//! flush (a short side turn, minimal prompt, the last 10 messages, at most 5 iterations and 90 s,
//! in which the agent may write memory files; a `NO_REPLY` or a failure writes an extractive
//! fallback to `memory/<date>-auto-extract.md`), then a summary of all but the last 4 messages
//! (max 1024 tokens, temperature 0.3, 120 s), stored on the session, which keeps only those 4.
//! The next run starts from the summary. During a run, once, when a response's prompt reached 75 %
//! of the window, the older part of the in-memory conversation is summarised in place.
//!
//! The original summarises in the background; a command-line run does it before its terminal
//! event, so the process never exits with the work half done.

use std::time::{Duration, Instant};

use super::events::{Emitter, EventKind, Phase};
use super::history;
use super::{End, Runner, record};
use crate::error::Result;
use crate::memory::files::{self, Owner};
use crate::providers::{ChatRequest, Message, Role, ToolDef};

pub const HISTORY_SHARE: f64 = 0.75;
pub const MIN_MESSAGES: usize = 200;
pub const KEEP_LAST: usize = 4;

/// `[agents.KEY.compaction]`: the thresholds of §16.7.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CompactionConfig {
    /// Compact at all (post-run and mid-loop).
    pub enabled: bool,
    /// Compact after a run when the history is longer than this.
    pub min_messages: usize,
    /// …or estimated above this share of the context window.
    pub history_share: f64,
    /// Messages kept after a compaction.
    pub keep_last: usize,
    /// Run the memory flush first.
    pub memory_flush: bool,
    /// Before the summary, ask the model for the entities and relations of what is compacted
    /// and write them to the knowledge graph (when the agent may use knowledge_graph_search).
    pub knowledge_extraction: bool,
}

impl Default for CompactionConfig {
    fn default() -> Self {
        CompactionConfig {
            enabled: true,
            min_messages: MIN_MESSAGES,
            history_share: HISTORY_SHARE,
            keep_last: KEEP_LAST,
            memory_flush: true,
            knowledge_extraction: false,
        }
    }
}

const FLUSH_PROMPT: &str = "Pre-compaction memory flush. Store durable memories now (use memory/YYYY-MM-DD.md; create memory/ if needed). IMPORTANT: If the file already exists, APPEND new content only and do not overwrite existing entries. If nothing to store, reply with NO_REPLY.";
const FLUSH_SYSTEM: &str = "Pre-compaction memory flush turn. The session is near auto-compaction; capture durable memories to disk. You may reply, but usually NO_REPLY is correct.";
const SUMMARY_PROMPT: &str =
    "Provide a concise summary of this conversation, preserving key context:\n";

/// Whether a session's history is past the thresholds of compaction.
fn past_threshold(stored: &[Message], c: &super::Compaction) -> bool {
    let threshold = c.window as f64 * c.config.history_share;
    stored.len() > c.config.min_messages || history::estimate_tokens(stored) as f64 > threshold
}

/// `user: …` / `assistant: …` lines of a transcript (tool traffic left out).
fn transcript(msgs: &[Message]) -> String {
    msgs.iter()
        .filter_map(|m| match m.role {
            Role::User => Some(format!("user: {}", m.content)),
            Role::Assistant if !m.content.trim().is_empty() => {
                Some(format!("assistant: {}", super::sanitized(&m.content)))
            }
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where a mid-loop compaction cuts `all` (index 0 is the system prompt, which stays): keep the
/// last max(4, 30 %) messages, moved back so the tail never starts with a tool result; none
/// under 6 messages or when nothing but the prompt would be summarised.
pub fn mid_loop_split(all: &[Message], keep_last: usize) -> Option<usize> {
    let n = all.len();
    if n < 6 {
        return None;
    }
    let keep = keep_last.max((n as f64 * 0.3).ceil() as usize);
    let mut split = n.saturating_sub(keep);
    while split > 0 && all[split].role == Role::Tool {
        split -= 1;
    }
    (split > 1).then_some(split)
}

impl Runner<'_> {
    /// Summarises the head of the in-memory conversation (the system prompt kept: the original
    /// summarises it too, and the model then runs without it). Returns the cut and the message
    /// that replaces the head.
    pub(super) fn compact_in_loop(
        &self,
        em: &mut Emitter,
        model: &str,
        all: &[Message],
        keep_last: usize,
    ) -> Option<(usize, Message)> {
        let split = mid_loop_split(all, keep_last)?;
        em.emit(EventKind::Activity {
            phase: Phase::Compacting,
            iteration: None,
        });
        let prompt = format!("{SUMMARY_PROMPT}{}", transcript(&all[1..split]));
        let summary = self
            .side_call(
                em,
                model,
                vec![Message::new(Role::User, prompt)],
                Duration::from_secs(30),
            )
            .ok()?;
        let summary = super::sanitized(&summary);
        (!summary.is_empty()).then(|| {
            (
                split,
                Message::new(
                    Role::User,
                    format!("[Summary of earlier conversation]\n{summary}"),
                ),
            )
        })
    }

    /// Compacts the session after a run when it has grown past the thresholds, holding the
    /// session's compaction lease (one process at a time: another run's compaction of the same
    /// session is left to it, with a warning). Problems are returned as warnings: the run
    /// itself has succeeded.
    pub(super) fn maybe_compact(
        &mut self,
        em: &mut Emitter,
        key: &str,
        run_id: &str,
        c: &super::Compaction,
    ) -> Result<Vec<String>> {
        let cfg = c.config;
        if !cfg.enabled {
            return Ok(Vec::new());
        }
        if !past_threshold(&record::history(self.store.db(), key)?, c) {
            return Ok(Vec::new());
        }
        if !record::take_compaction_lock(self.store.db(), key, run_id)? {
            return Ok(vec![format!(
                "compaction: another process is compacting session {key}; left to it"
            )]);
        }
        let result = self.compact_locked(em, key, c);
        record::release_compaction_lock(self.store.db(), key, run_id)?;
        result
    }

    /// The flush and summary of [`Runner::maybe_compact`], under the lease.
    fn compact_locked(
        &mut self,
        em: &mut Emitter,
        key: &str,
        c: &super::Compaction,
    ) -> Result<Vec<String>> {
        let (model, owner, tools, cfg) = (c.model, &c.owner, c.tools, c.config);
        let keep = cfg.keep_last.max(1);
        // Read again under the lease: another process may have compacted it meanwhile.
        let stored = record::history(self.store.db(), key)?;
        if !past_threshold(&stored, c) {
            return Ok(Vec::new());
        }
        em.emit(EventKind::Activity {
            phase: Phase::Compacting,
            iteration: None,
        });
        let mut warnings = Vec::new();
        let (count, flushed, old_summary) =
            record::compaction_state(self.store.db(), key)?.unwrap_or((0, -1, None));
        let can_write_memory = tools.iter().any(|t| t.name == "write_file")
            && tools.iter().any(|t| t.name == "memory_search");
        if cfg.memory_flush && can_write_memory && flushed != count {
            if let Err(e) = self.memory_flush(em, model, owner, tools, &stored, keep) {
                warnings.push(format!("memory flush: {}", e.message));
            }
            record::mark_flushed(self.store.db(), key)?;
        }
        if stored.len() <= keep {
            return Ok(warnings);
        }
        let head = &stored[..stored.len() - keep];
        if cfg.knowledge_extraction
            && tools.iter().any(|t| t.name == "knowledge_graph_search")
            && let Err(e) = self.extract_knowledge(em, model, owner.user, &transcript(head))
        {
            warnings.push(format!("knowledge extraction: {e}"));
        }
        let mut prompt = format!("{SUMMARY_PROMPT}{}", transcript(head));
        if let Some(old) = old_summary.filter(|s| !s.is_empty()) {
            prompt.push_str(&format!("\n\nExisting context: {old}"));
        }
        match self.side_call(
            em,
            model,
            vec![Message::new(Role::User, prompt)],
            Duration::from_secs(120),
        ) {
            Ok(summary) => {
                let summary = super::sanitized(&summary);
                if summary.is_empty() {
                    warnings.push("compaction: the model returned an empty summary".into());
                } else {
                    record::compact(self.store.db(), self.gate.scrubber(), key, &summary, keep)?;
                }
            }
            Err(e) => warnings.push(format!("compaction: {e}")),
        }
        Ok(warnings)
    }

    /// One LLM call without tools (summaries), under its own time limit.
    pub(super) fn side_call(
        &self,
        em: &mut Emitter,
        model: &str,
        messages: Vec<Message>,
        limit: Duration,
    ) -> std::result::Result<String, String> {
        let request = ChatRequest {
            model: model.to_string(),
            messages,
            tools: Vec::new(),
            max_tokens: 1024,
            temperature: 0.3,
        };
        match self.ask_llm(&request, em, Some(Instant::now() + limit)) {
            Ok(r) => Ok(r.content),
            Err(End::Failed(e)) => Err(e.message),
            Err(End::TimedOut) => Err(format!("no answer within {}s", limit.as_secs())),
            Err(_) => Err("cancelled".into()),
        }
    }

    /// The minimal system prompt of the memory-flush turn.
    fn flush_prompt(&self, tools: &[ToolDef]) -> String {
        super::prompt::build(&super::prompt::PromptInput {
            agent: self.agent_key,
            minimal: true,
            tools,
            workspace: &self
                .gate
                .workspace_for(self.agent.map(|a| a.profile(self.agent_key)).as_ref()),
            context_files: &[],
            has_memory: true,
            today: &super::prompt::today(),
            bootstrap: false,
            tool_notes: "",
            skills: "",
            runtime: Default::default(),
            user: None,
            sandbox: None,
            team_workspace: None,
            extra_context: None,
            mcp_deferred: 0,
        })
    }

    /// The memory-flush side turn; a NO_REPLY or a failure writes the extractive fallback.
    fn memory_flush(
        &mut self,
        em: &mut Emitter,
        model: &str,
        owner: &Owner,
        tools: &[ToolDef],
        stored: &[Message],
        keep: usize,
    ) -> Result<()> {
        let system = self.flush_prompt(tools);
        let tail = &stored[stored.len().saturating_sub(10)..];
        let mut messages = vec![Message::new(
            Role::System,
            format!("{system}\n\n{FLUSH_SYSTEM}"),
        )];
        messages.extend(history::sanitize_history(tail.to_vec()).0);
        messages.push(Message::new(Role::User, FLUSH_PROMPT));
        let deadline = Instant::now() + Duration::from_secs(90);
        let request = super::RunRequest {
            on_ask: crate::tools::gate::OnAsk::Deny,
            user: (!owner.user.is_empty()).then(|| owner.user.to_string()),
            ..Default::default()
        };
        let mut answer: Option<String> = None;
        for _ in 0..5 {
            let req = ChatRequest {
                model: model.to_string(),
                messages: messages.clone(),
                tools: tools.to_vec(),
                max_tokens: 4096,
                temperature: 0.3,
            };
            let Ok(response) = self.ask_llm(&req, em, Some(deadline)) else {
                break;
            };
            if response.tool_calls.is_empty() {
                answer = Some(response.content);
                break;
            }
            messages.push(Message::asking(
                response.content.clone(),
                response.tool_calls.clone(),
            ));
            let run_id = em.run_id().to_string();
            let scope = crate::tools::gate::Scope::default();
            let site = super::turn::CallSite {
                run_id: &run_id,
                session: None,
                deadline: None,
                link: None,
                scope: &scope,
            };
            let results = self.call_tools(&response.tool_calls, &request, &site, em)?;
            for (call, (text, _)) in response.tool_calls.iter().zip(results) {
                messages.push(Message::tool_result(call, text));
            }
        }
        let silent = answer
            .as_deref()
            .is_none_or(|a| super::is_silent(&super::sanitized(a)));
        if silent {
            let head = &stored[..stored.len().saturating_sub(keep)];
            let extract = transcript(head);
            if !extract.is_empty() {
                let path = format!(
                    "memory/{}-auto-extract.md",
                    chrono::Utc::now().format("%Y-%m-%d")
                );
                let old = files::read_memory(self.store.db(), owner, &path)?;
                let content = match old.filter(|o| !o.is_empty()) {
                    Some(old) => format!("{old}\n\n---\n\n{extract}"),
                    None => extract,
                };
                if let Some(w) = files::write_memory(
                    self.store.db(),
                    owner,
                    &path,
                    &content,
                    self.gate.embedder(),
                )? {
                    return Err(crate::error::Error::upstream(w));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::ToolCall;
    use serde_json::json;

    #[test]
    fn the_split_never_starts_the_tail_with_a_result() {
        let call = ToolCall {
            id: "a".into(),
            name: "t".into(),
            arguments: json!({}),
        };
        let asking = Message::asking("", vec![call.clone()]);
        let result = Message::tool_result(&call, "r");
        let sys = Message::new(Role::System, "s");
        let user = Message::new(Role::User, "u");
        // sys user ask res ask res : keep 4 → split 2 (an assistant)
        let all = vec![
            sys.clone(),
            user.clone(),
            asking.clone(),
            result.clone(),
            asking.clone(),
            result.clone(),
        ];
        assert_eq!(mid_loop_split(&all, KEEP_LAST), Some(2));
        // sys user ask res res ask res : keep 4 → split 3 is a result → back to 2
        let all = vec![
            sys.clone(),
            user.clone(),
            asking.clone(),
            result.clone(),
            result.clone(),
            asking.clone(),
            result.clone(),
        ];
        assert_eq!(mid_loop_split(&all, KEEP_LAST), Some(2));
        assert_eq!(mid_loop_split(&all[..5], KEEP_LAST), None);
        // nothing but the prompt before the cut
        let all = vec![
            sys,
            asking.clone(),
            result.clone(),
            asking,
            result.clone(),
            result,
        ];
        assert_eq!(mid_loop_split(&all, KEEP_LAST), None);
    }
}
