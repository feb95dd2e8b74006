//! Quality gates (seed 001 §11) and the evaluate-optimize loop (§9): after the agent's answer,
//! each gate checks it; see [`super::config::QualityGate`].
//!
//! A command gate is one `exec` call through the gate (policy, approvals, sandbox, scrubbing,
//! audit): exit 0 passes, anything else sends its output back as revision feedback. An agent
//! gate (a reviewer, or the evaluator of `run --evaluator`) is a `goclaw run` of that agent,
//! started as a child of this run with `--skip-gates` (the recursion guard), that answers
//! `APPROVED` or `REJECTED: feedback`. Every check is a `gate` span and a `gate.checked` event.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::config::QualityGate;
use super::review::{Review, parse_review};
use super::turn::RunState;
use super::*;
use crate::tools::child_run::{self, ChildRun, RunFlags};
use crate::tools::gate::Status;

/// Most revisions a gate allows, whatever config says (each gives the agent its budget again).
const MAX_RETRIES: u32 = 10;
/// How often a wait for a reviewer looks at the cancel flag and the deadline.
const REVIEWER_POLL: Duration = Duration::from_millis(100);
/// How long a reviewer asked to stop is given to record its end.
const REVIEWER_STOP_WAIT: Duration = Duration::from_secs(5);
/// Characters of feedback the agent is given (the rest is cut, with a note).
const FEEDBACK_MAX: usize = 8000;
/// Characters of feedback in a failed run's error.
const SHORT_MAX: usize = 200;

/// What the gates say of an answer.
pub(super) enum GateVerdict {
    /// Every gate passed (or there is none).
    Pass,
    /// A gate failed with retries left: this feedback goes to the agent as a user message.
    Revise(String),
    /// A gate failed with no retry left, or could not check: the run fails with this error.
    Fail(Error),
    /// The run was cancelled or reached its deadline while a gate checked: it ends so.
    Stopped(End),
}

/// What a gate checks with, once its configuration is known to be whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Checker<'g> {
    /// A shell command run in the workspace.
    Command(&'g str),
    /// A reviewer agent's run.
    Reviewer(&'g str),
    /// A JSON Schema the answer must be valid against.
    Schema(&'g serde_json::Value),
}

/// What one check of one gate found.
enum Check {
    Passed,
    /// The answer did not pass: the command's output or the reviewer's feedback.
    Failed(String),
    /// The gate could not check (exec refused, a reviewer that did not answer).
    Broken(Error),
    /// The run must stop.
    Stopped(End),
}

/// The arguments of the `exec` call of a command gate.
#[derive(Serialize)]
struct ExecArgs<'a> {
    command: &'a str,
}

/// One gate's check, for its span and event.
struct Checked<'c> {
    checker: Checker<'c>,
    attempt: u32,
    rounds: u32,
    started_ms: i64,
    took: Duration,
}

impl<'g> Checker<'g> {
    /// What `gate` (the `n`th, from 1) checks with: exactly one of `command` and `agent`.
    fn of(gate: &'g QualityGate, n: usize) -> Result<Checker<'g>> {
        if let Some(schema) = &gate.schema {
            return Ok(Checker::Schema(schema));
        }
        match (gate.command.as_deref(), gate.agent.as_deref()) {
            (Some(c), None) if !c.trim().is_empty() => Ok(Checker::Command(c)),
            (None, Some(a)) if !a.trim().is_empty() => Ok(Checker::Reviewer(a)),
            (Some(c), Some(a)) => Err(Error::usage(format!(
                "quality gate #{n} sets both command `{c}` and agent `{a}`: set exactly one"
            ))),
            (None, None) => Err(Error::usage(format!(
                "quality gate #{n} sets neither command nor agent: set exactly one"
            ))),
            _ => Err(Error::usage(format!(
                "quality gate #{n} has an empty command or agent"
            ))),
        }
    }

    /// The gate as events name it: the command, or `agent:KEY`.
    fn label(self) -> String {
        match self {
            Checker::Command(c) => c.to_string(),
            Checker::Reviewer(a) => format!("agent:{a}"),
            Checker::Schema(_) => "output-schema".into(),
        }
    }
}

/// Checks every gate's configuration (a gate sets exactly one of `command` and `agent`).
pub(super) fn validate(gates: &[QualityGate]) -> Result<()> {
    for (i, g) in gates.iter().enumerate() {
        Checker::of(g, i + 1)?;
    }
    Ok(())
}

impl Runner<'_> {
    /// Checks `answer` against the run's gates, in order, stopping at the first that fails.
    pub(super) fn check_gates(
        &mut self,
        req: &RunRequest,
        st: &mut RunState,
        em: &mut Emitter,
        answer: &str,
    ) -> Result<GateVerdict> {
        if st.gates.is_empty() {
            return Ok(GateVerdict::Pass);
        }
        let gates = st.gates.clone();
        if let Err(e) = validate(&gates) {
            let at = format!("agent `{}`: {}", self.agent_key, e.message);
            return Ok(GateVerdict::Fail(Error::usage(at)));
        }
        for (i, gate) in gates.iter().enumerate() {
            let gate = &QualityGate {
                max_retries: gate.max_retries.min(MAX_RETRIES),
                ..gate.clone()
            };
            let checker = Checker::of(gate, i + 1)?;
            let checked = Checked {
                checker,
                attempt: st.gate_failures[i] + 1,
                rounds: gate.max_retries.saturating_add(1),
                started_ms: now_ms(),
                took: Duration::ZERO,
            };
            let started = Instant::now();
            let found = match checker {
                Checker::Command(command) => self.run_command(req, st, command)?,
                Checker::Reviewer(agent) => {
                    self.ask_reviewer(st, agent, answer, (checked.attempt, checked.rounds))?
                }
                Checker::Schema(schema) => check_schema(schema, answer),
            };
            let checked = Checked {
                took: started.elapsed(),
                ..checked
            };
            self.record_check(st, em, &checked, &found)?;
            match found {
                Check::Passed => {}
                Check::Stopped(end) => return Ok(GateVerdict::Stopped(end)),
                Check::Broken(e) => return Ok(GateVerdict::Fail(e)),
                Check::Failed(feedback) => {
                    st.gate_failures[i] += 1;
                    let failures = st.gate_failures[i];
                    if failures > gate.max_retries {
                        return Ok(GateVerdict::Fail(Error::failed(failed_for_good(
                            checker, failures, &feedback,
                        ))));
                    }
                    let round = (failures, checked.rounds);
                    return Ok(GateVerdict::Revise(revision_message(
                        checker, round, &feedback,
                    )));
                }
            }
        }
        Ok(GateVerdict::Pass)
    }

    /// A command gate: the command through the gate's `exec`. A run that ends with exit 0
    /// passes; a failing command gives its output as feedback; a call the gate refused (policy,
    /// approval, rate limit) means the gate cannot check.
    fn run_command(&mut self, req: &RunRequest, st: &RunState, command: &str) -> Result<Check> {
        let args = serde_json::to_value(ExecArgs { command })
            .map_err(|e| Error::internal(format!("the exec arguments of a gate: {e}")))?;
        let site = st.site();
        let call = self.call_request("exec", args, req, &site);
        let outcome = self.gate.call(self.store, &call, self.prompter);
        if let Some(end) = self.interrupted(st.deadline) {
            return Ok(Check::Stopped(end));
        }
        let cannot = |kind: ErrorKind, why: &str| {
            Check::Broken(Error::new(
                kind,
                format!("quality gate `{command}` could not run: {why}"),
            ))
        };
        Ok(match outcome {
            Err(e) => cannot(e.kind, &e.message),
            Ok(o) => match o.status {
                Status::Ok => Check::Passed,
                Status::Error => Check::Failed(o.reply()),
                _ => cannot(o.error_kind().unwrap_or(ErrorKind::Failed), &o.reply()),
            },
        })
    }

    /// An agent gate: a run of `agent` (a child of this one, checking no gates itself) asked
    /// to review the answer; waited for until it ends or this run must stop.
    fn ask_reviewer(
        &self,
        st: &RunState,
        agent: &str,
        answer: &str,
        round: (u32, u32),
    ) -> Result<Check> {
        let run_id = uuid::Uuid::now_v7().to_string();
        let flags = RunFlags {
            agent: Some(agent.to_string()),
            run_id: Some(run_id.clone()),
            parent_run: Some(st.meta.run_id.clone()),
            depth: Some(st.link.depth + 1),
            label: Some(format!("gate:{agent}")),
            on_ask: Some("deny".into()),
            skip_gates: true,
            ..RunFlags::default()
        };
        let message = review_request(&st.message, answer, round);
        let workspace = self.gate.workspace_for(None);
        let (tx, rx) = std::sync::mpsc::channel();
        let started = child_run::start(
            ChildRun {
                store: self.gate.store_target(),
                workspace: &workspace,
                config: self.gate.config_path(),
                flags,
                message: &message,
                relay: st.link.relay.clone(),
            },
            move |waited| {
                let exit = match waited {
                    Ok(status) => status.to_string(),
                    Err(e) => format!("cannot wait for it: {e}"),
                };
                let _ = tx.send(exit);
            },
        );
        let pid = match started {
            Ok(launched) => launched.pid,
            Err(e) => {
                return Ok(Check::Broken(Error::failed(format!(
                    "reviewer {agent} could not start: {e}"
                ))));
            }
        };
        let Some(exit) = self.wait_reviewer(&rx, pid, st.deadline) else {
            let end = self.interrupted(st.deadline).unwrap_or(End::Cancelled);
            return Ok(Check::Stopped(end));
        };
        Ok(match runs::get(self.store.db(), &run_id)? {
            Some(r) if r.status == "completed" => {
                match parse_review(r.content.as_deref().unwrap_or("")) {
                    Review::Approved => Check::Passed,
                    Review::Rejected(feedback) => Check::Failed(feedback),
                }
            }
            Some(r) => Check::Broken(Error::failed(format!(
                "reviewer {agent} did not answer: {} {}",
                r.status,
                r.error.as_deref().unwrap_or("")
            ))),
            None => Check::Broken(Error::failed(format!(
                "reviewer {agent} did not answer: its run never started ({exit})"
            ))),
        })
    }

    /// Waits for a reviewer's process to end (what `on_exit` sent: how it exited). `None` when
    /// this run must stop first: the reviewer is then asked to stop (SIGTERM) and given a
    /// moment to record it.
    fn wait_reviewer(
        &self,
        rx: &Receiver<String>,
        pid: u32,
        deadline: Option<Instant>,
    ) -> Option<String> {
        loop {
            match rx.recv_timeout(REVIEWER_POLL) {
                Ok(exit) => return Some(exit),
                Err(RecvTimeoutError::Disconnected) => {
                    return Some("its process was lost".into());
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if self.interrupted(deadline).is_some() {
                crate::subagents::terminate(i64::from(pid));
                let _ = rx.recv_timeout(REVIEWER_STOP_WAIT);
                return None;
            }
        }
    }

    /// A check as a `gate` span of the run's trace and a `gate.checked` event.
    fn record_check(
        &self,
        st: &RunState,
        em: &mut Emitter<'_>,
        c: &Checked<'_>,
        found: &Check,
    ) -> Result<()> {
        let said = match found {
            Check::Passed => None,
            Check::Failed(feedback) => Some(feedback.clone()),
            Check::Broken(e) => Some(e.message.clone()),
            Check::Stopped(End::TimedOut) => Some("stopped: the run's deadline passed".into()),
            Check::Stopped(_) => Some("stopped: the run was cancelled".into()),
        };
        // A command may carry a credential: the span's name is scrubbed like its output.
        let name = match c.checker {
            Checker::Command(command) => {
                format!("gate: {}", self.gate.scrubber().scrub_str(command, None))
            }
            Checker::Reviewer(agent) => format!("evaluator: {agent} round {}", c.attempt),
            Checker::Schema(_) => format!("output schema, attempt {}", c.attempt),
        };
        let short = said.as_deref().map(short_feedback);
        record::add_span(
            self.store.db(),
            self.gate.scrubber(),
            &st.meta.run_id,
            &Span {
                kind: "gate",
                name: &name,
                started_at: c.started_ms,
                duration_ms: c.took.as_millis() as i64,
                status: if said.is_some() { "error" } else { "ok" },
                error: short.as_deref(),
                output_preview: said.as_deref().map(|s| words::prefix_chars(s, 500)),
                ..Default::default()
            },
        )?;
        em.emit(EventKind::GateChecked {
            gate: c.checker.label(),
            attempt: c.attempt,
            passed: said.is_none(),
            feedback: said.as_deref().map(|s| capped(s.trim())),
        });
        Ok(())
    }
}

/// What a reviewer is asked: the task, the answer, and the protocol of its reply.
fn review_request(task: &str, answer: &str, (round, rounds): (u32, u32)) -> String {
    format!(
        "You are the reviewer of another agent's work (a quality gate, round {round} of {rounds}).\n\n\
         The task it was given:\n<task>\n{task}\n</task>\n\n\
         Its answer:\n<answer>\n{answer}\n</answer>\n\n\
         Check whether the answer does what the task asks, correctly and completely; you may look \
         at the workspace with your tools. Then reply with exactly one of:\n\
         APPROVED\n\
         REJECTED: <what is wrong, and what to change>\n\
         Your reply must start with APPROVED or REJECTED."
    )
}

/// The user message that sends the answer back for revision after `round.0` failed checks of
/// `round.1` allowed.
fn revision_message(checker: Checker<'_>, (failed, rounds): (u32, u32), feedback: &str) -> String {
    let feedback = capped(feedback.trim());
    match checker {
        Checker::Command(command) => format!(
            "[Quality gate] The check `{command}` failed on your answer (attempt {failed} of {rounds}). Its output:\n\
             {feedback}\n\n\
             Revise your work so that the check passes, then answer again."
        ),
        Checker::Reviewer(agent) => format!(
            "[Quality gate] The reviewer {agent} rejected your answer (round {failed} of {rounds}). The reviewer's feedback:\n\
             {feedback}\n\n\
             Revise your work to address this feedback, then answer again."
        ),
        Checker::Schema(schema) => format!(
            "[Output schema] Your answer must be exactly one JSON document, nothing before or after it and no code fence, valid against this JSON Schema (attempt {failed} of {rounds}):\n\
             {schema}\n\n\
             It is not: {feedback}\n\n\
             Answer again with the JSON document only."
        ),
    }
}

/// The error of a run whose answer failed a gate `failures` times, retries spent.
fn failed_for_good(checker: Checker<'_>, failures: u32, feedback: &str) -> String {
    let short = short_feedback(feedback);
    match checker {
        Checker::Command(command) => {
            format!("quality gate `{command}` failed after {failures} attempts: {short}")
        }
        Checker::Reviewer(agent) => {
            format!("reviewer {agent} rejected the answer after {failures} rounds: {short}")
        }
        Checker::Schema(_) => format!(
            "the answer did not fit the output schema after {failures} attempts: {}",
            capped(feedback.trim())
        ),
    }
}

/// An output-schema gate: the answer (white space around it aside) must parse as one JSON
/// document valid against `schema`; the feedback names every violation with its place.
fn check_schema(schema: &serde_json::Value, answer: &str) -> Check {
    let validator = match crate::tools::schema::validator(schema) {
        Ok(v) => v,
        Err(e) => {
            return Check::Broken(Error::usage(format!("the output schema is not valid: {e}")));
        }
    };
    let doc: serde_json::Value = match serde_json::from_str(answer.trim()) {
        Ok(v) => v,
        Err(e) => return Check::Failed(format!("it is not one JSON document ({e})")),
    };
    let errors = crate::tools::schema::violations(&validator, &doc);
    if errors.is_empty() {
        Check::Passed
    } else {
        Check::Failed(errors.join("\n"))
    }
}

/// The lines of feedback that say something, joined by `; ` (a command's `STDERR:` label is
/// not one: the error was that label alone, and the cause was left out), at most [`SHORT_MAX`]
/// characters.
fn short_feedback(feedback: &str) -> String {
    let said: Vec<&str> = feedback
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != "STDERR:")
        .collect();
    let line = match said.is_empty() {
        true => "no output".to_string(),
        false => said.join("; "),
    };
    let line = line.as_str();
    let cut = words::prefix_chars(line, SHORT_MAX);
    if cut.len() < line.len() {
        format!("{cut}…")
    } else {
        cut.to_string()
    }
}

/// Feedback cut to [`FEEDBACK_MAX`] characters, saying how much was left out.
fn capped(feedback: &str) -> String {
    let cut = words::prefix_chars(feedback, FEEDBACK_MAX);
    if cut.len() == feedback.len() {
        return feedback.to_string();
    }
    let left = feedback[cut.len()..].chars().count();
    format!("{cut}\n[… {left} more characters]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(command: Option<&str>, agent: Option<&str>) -> QualityGate {
        QualityGate {
            command: command.map(str::to_string),
            agent: agent.map(str::to_string),
            schema: None,
            max_retries: 2,
        }
    }

    #[test]
    fn a_schema_check_names_each_violation_and_its_place() {
        let schema = serde_json::json!({
            "type": "object",
            "required": ["legs"],
            "properties": {"legs": {"type": "integer"}, "tags": {"type": "array", "items": {"maxLength": 3}}}
        });
        assert!(matches!(
            check_schema(&schema, " {\"legs\": 4}\n"),
            Check::Passed
        ));
        let Check::Failed(why) =
            check_schema(&schema, r#"{"legs": "four", "tags": ["ok", "toolong"]}"#)
        else {
            panic!("passed")
        };
        assert!(
            why.contains("at /legs") && why.contains("at /tags/1"),
            "{why}"
        );
        let Check::Failed(why) = check_schema(&schema, "```json\n{\"legs\": 4}\n```") else {
            panic!("passed")
        };
        assert!(why.contains("not one JSON document"), "{why}");
    }

    #[test]
    fn approved_is_a_case_insensitive_prefix() {
        assert_eq!(parse_review("APPROVED"), Review::Approved);
        assert_eq!(parse_review("  approved.\n"), Review::Approved);
        assert_eq!(parse_review("Approved — looks good"), Review::Approved);
    }

    #[test]
    fn rejected_gives_its_feedback() {
        assert_eq!(
            parse_review("REJECTED: the tests are missing"),
            Review::Rejected("the tests are missing".into())
        );
        assert_eq!(
            parse_review("rejected:add a README"),
            Review::Rejected("add a README".into())
        );
        assert_eq!(
            parse_review("REJECTED"),
            Review::Rejected("REJECTED".into())
        );
    }

    #[test]
    fn anything_else_is_a_rejection_with_the_whole_text() {
        assert_eq!(
            parse_review(" It mostly works, but not quite. "),
            Review::Rejected("It mostly works, but not quite.".into())
        );
        assert_eq!(parse_review("ok"), Review::Rejected("ok".into()));
        assert_eq!(parse_review("é"), Review::Rejected("é".into()));
    }

    #[test]
    fn a_gate_sets_exactly_one_checker() {
        assert_eq!(
            Checker::of(&gate(Some("make test"), None), 1).ok(),
            Some(Checker::Command("make test"))
        );
        assert_eq!(
            Checker::of(&gate(None, Some("critic")), 1).ok(),
            Some(Checker::Reviewer("critic"))
        );
        let both = validate(&[gate(Some("ls"), None), gate(Some("ls"), Some("critic"))]);
        assert!(both.is_err_and(|e| e.kind == ErrorKind::Usage && e.message.contains("#2")));
        assert!(validate(&[gate(None, None)]).is_err());
        assert!(validate(&[gate(Some("  "), None)]).is_err());
    }

    #[test]
    fn revision_messages_say_what_failed_and_how_often() {
        let m = revision_message(
            Checker::Command("test -f done.txt"),
            (1, 3),
            "exit status 1\n",
        );
        assert!(m.starts_with("[Quality gate] The check `test -f done.txt` failed"));
        assert!(m.contains("attempt 1 of 3"));
        assert!(m.contains("exit status 1\n\nRevise your work"));
        let m = revision_message(Checker::Reviewer("critic"), (2, 3), "cite sources");
        assert!(m.contains("reviewer critic rejected your answer (round 2 of 3)"));
        assert!(m.contains("The reviewer's feedback:\ncite sources\n"));
    }

    #[test]
    fn long_feedback_is_capped() {
        let long = "x".repeat(FEEDBACK_MAX + 10);
        let m = revision_message(Checker::Command("make"), (1, 2), &long);
        assert!(m.contains("[… 10 more characters]"));
        assert_eq!(capped("short"), "short");
    }

    #[test]
    fn final_failures_are_short() {
        let e = failed_for_good(
            Checker::Command("make test"),
            3,
            "\n  error: 2 tests failed\nmore\n",
        );
        assert_eq!(
            e,
            "quality gate `make test` failed after 3 attempts: error: 2 tests failed; more"
        );
        let e = failed_for_good(
            Checker::Command("ls /nope"),
            2,
            "STDERR:\nls: cannot access '/nope': No such file or directory\n",
        );
        assert_eq!(
            e,
            "quality gate `ls /nope` failed after 2 attempts: ls: cannot access '/nope': No such file or directory"
        );
        let e = failed_for_good(Checker::Reviewer("critic"), 2, "");
        assert_eq!(
            e,
            "reviewer critic rejected the answer after 2 rounds: no output"
        );
        assert!(short_feedback(&"y".repeat(300)).ends_with('…'));
    }

    #[test]
    fn the_review_request_states_the_protocol() {
        let m = review_request("write a poem", "Roses…", (1, 3));
        assert!(m.contains("round 1 of 3"));
        assert!(m.contains("<task>\nwrite a poem\n</task>"));
        assert!(m.contains("<answer>\nRoses…\n</answer>"));
        assert!(m.contains("APPROVED\nREJECTED: "));
    }
}
