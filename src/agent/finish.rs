//! The end of a run: how the loop's end becomes a status and an error, then one transaction
//! for the run row and its session, post-run compaction, the root span and the one terminal
//! event.

use super::turn::RunState;
use super::*;
use crate::tools::Stopped;

impl Runner<'_> {
    /// The status and error of the loop's end; the answer, sanitised, for a completed run.
    pub(super) fn judge(
        &self,
        end: End,
        req: &RunRequest,
        st: &mut RunState,
        outcome: &mut RunOutcome,
    ) -> (RunStatus, Option<Error>) {
        outcome.tool_calls = st.total_calls;
        outcome.usage = RunUsage {
            input_tokens: st.usage.input_tokens,
            output_tokens: st.usage.output_tokens,
            cost: st.cost,
        };
        match end {
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
            // A refusal is recorded as one (a gate whose command the policy denies), so `runs
            // wait` exits as the run did.
            End::Failed(e) => match e.kind {
                ErrorKind::Denied => (RunStatus::Denied, Some(e)),
                ErrorKind::Limited => (RunStatus::Limited, Some(e)),
                _ => (RunStatus::Failed, Some(e)),
            },
            End::Limited(why) => (
                RunStatus::Limited,
                Some(Error::new(ErrorKind::Limited, why)),
            ),
            End::Cancelled if self.cancel.withdrawn().is_some() => (
                RunStatus::Cancelled,
                Some(Error::new(
                    ErrorKind::Conflict,
                    self.cancel.withdrawn().unwrap_or_default(),
                )),
            ),
            End::Cancelled => match self.cancel.stopped_by() {
                // SIGTERM and SIGHUP say which; Ctrl-C is the usual way and says nothing more.
                Some(why @ (Stopped::Terminated | Stopped::HungUp)) => (
                    RunStatus::Cancelled,
                    Some(Error::new(
                        why.error_kind(),
                        format!("the run was cancelled ({})", why.error_kind().meaning()),
                    )),
                ),
                _ => (
                    RunStatus::Cancelled,
                    Some(Error::new(ErrorKind::Interrupted, "the run was cancelled")),
                ),
            },
            End::TimedOut => (
                RunStatus::TimedOut,
                Some(Error::new(
                    ErrorKind::Timeout,
                    format!(
                        "the run timed out after {}",
                        crate::tools::exec::go_duration(req.timeout.unwrap_or_default())
                    ),
                )),
            ),
        }
    }

    /// Writes the end: run row and session in one transaction, root span, terminal event.
    pub(super) fn finish(
        &mut self,
        em: &mut Emitter,
        mut outcome: RunOutcome,
        meta: &RunMeta,
        end: Conclusion,
    ) -> Result<RunOutcome> {
        let status = end.status;
        outcome.status = status;
        // A run withdrawn quietly (its reader went away) ends its command well: exit 0.
        outcome.kind = end
            .error
            .as_ref()
            .map(|e| e.kind)
            .filter(|_| !self.cancel.withdrawn_quietly());
        // What the command prints is scrubbed like what it stores and streams.
        let scrub = |t: &str| self.gate.scrubber().scrub_str(t, None);
        outcome.error = end.error.as_ref().map(|e| scrub(&e.message));
        outcome.content = scrub(&outcome.content);
        let session = outcome.session.clone();
        let user = outcome.user.as_deref();
        record::finish_run(
            self.store.db(),
            self.gate.scrubber(),
            &outcome.run_id,
            session
                .as_deref()
                .filter(|_| !end.messages.is_empty())
                .map(|k| (k, self.agent_key, user)),
            &end.messages,
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
                kind: outcome.kind,
            },
            (&meta.provider, &meta.model),
        )?;
        if let (RunStatus::Completed, Some(c), Some(key)) =
            (status, end.compaction, session.as_deref())
        {
            let warnings = self.maybe_compact(em, key, &meta.run_id, &c)?;
            outcome.warnings.extend(warnings);
        }
        let root = record::add_span(
            self.store.db(),
            self.gate.scrubber(),
            &outcome.run_id,
            &Span {
                kind: "agent",
                name: self.agent_key,
                started_at: meta.started_ms,
                duration_ms: meta.started.elapsed().as_millis() as i64,
                status: status.as_str(),
                error: outcome.error.as_deref(),
                input_tokens: Some(outcome.usage.input_tokens),
                output_tokens: Some(outcome.usage.output_tokens),
                cost: Some(outcome.usage.cost),
                output_preview: Some(words::prefix_chars(&outcome.content, 500)),
                ..Default::default()
            },
        )?;
        record::adopt_spans(self.store.db(), &outcome.run_id, root)?;
        em.emit(terminal_event(status, &outcome));
        Ok(outcome)
    }
}

/// The one terminal event of a run.
fn terminal_event(status: RunStatus, outcome: &RunOutcome) -> EventKind {
    let (iterations, usage) = (outcome.iterations, outcome.usage);
    match status {
        RunStatus::Completed => EventKind::RunCompleted {
            content: outcome.content.clone(),
            silent: outcome.silent,
            iterations,
            usage,
        },
        RunStatus::Cancelled => EventKind::RunCancelled { iterations, usage },
        _ => EventKind::RunFailed {
            status,
            error: outcome.error.clone(),
            iterations,
            usage,
        },
    }
}
