//! A run that works for a team (`goclaw run --team T`, `--task ID`): the team, the run's
//! workspace in the team's, and for a task the claim (recording the run), the message a
//! dispatched task starts with, its quality gate, a watch that stops the run when the task is
//! taken from it (a blocker comment by anyone fails it; the lead may cancel it), and its end:
//! the answer completes the task (or is submitted for review, when the team requires review),
//! a failure fails it, a stop (Ctrl-C, SIGTERM, a deadline of the dispatcher) gives it back.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::agent::config::QualityGate;
use crate::agent::record::RunStatus;
use crate::agent::{Cancel, RunOutcome, TeamRun};
use crate::error::Result;
use crate::store::Store;
use crate::team::board::{Board, RunEnd, Task, taken_from};
use crate::team::{self, Team, work};

/// How often a run on a task looks whether the task is still its own.
const WATCH_EVERY: Duration = Duration::from_millis(250);

/// What a run for a team works with.
pub struct TeamWork {
    pub team: Team,
    /// The task, once taken for the run.
    pub task: Option<Task>,
    /// The run's workspace: the agent's in the team's.
    pub workspace: PathBuf,
    base: PathBuf,
    agent: String,
    run_id: String,
    description: String,
    feedback: Option<String>,
    gate: Option<String>,
}

impl TeamWork {
    /// The team (`team`, else the task's agent's only team) and, with `task`, the task taken
    /// for the run `run_id` of `agent`: claimed when pending, or recorded when the agent holds
    /// it already.
    pub fn take(
        store: &mut Store,
        base: &Path,
        (team_name, task_key): (Option<&str>, Option<&str>),
        agent: &str,
        run_id: &str,
    ) -> Result<TeamWork> {
        let team = match team_name {
            Some(t) => team::get(store.db(), t)?,
            None => team::team_of(store.db(), agent)?,
        };
        if !team.is_member(agent) {
            return Err(crate::error::Error::denied(format!(
                "`{agent}` is not a member of team `{}`",
                team.name
            )));
        }
        let workspace =
            work::ensure_below(base, &work::workspace(base, &team, agent)).map_err(|e| {
                crate::error::Error::denied(format!("the team workspace cannot be used: {e}"))
            })?;
        let mut w = TeamWork {
            workspace,
            base: base.to_path_buf(),
            agent: agent.to_string(),
            run_id: run_id.to_string(),
            team,
            task: None,
            description: String::new(),
            feedback: None,
            gate: None,
        };
        if let Some(key) = task_key {
            let mut board = Board::open(store.db(), w.team.clone(), agent)?;
            let task = board.take_for_run(key, run_id)?;
            let detail = board.get(&task.id)?;
            w.description = detail.description;
            // A task given back after a rejected review carries the reviewer's words.
            w.feedback = detail
                .result
                .filter(|r| r.starts_with("Rejected: "))
                .map(|r| r.trim_start_matches("Rejected: ").to_string());
            w.gate = detail.gate;
            w.task = Some(task);
        }
        Ok(w)
    }

    /// The message a run on the task starts with, when it was given none.
    pub fn dispatch_message(&self) -> Option<String> {
        let task = self.task.as_ref()?;
        Some(work::dispatch_message(
            task,
            &self.description,
            self.feedback.as_deref(),
            &self.workspace,
        ))
    }

    /// The task's quality gate, if it has one.
    pub fn gate(&self) -> Option<QualityGate> {
        self.gate.clone().map(|command| QualityGate {
            command: Some(command),
            agent: None,
            schema: None,
            max_retries: crate::agent::config::DEFAULT_GATE_RETRIES,
        })
    }

    /// What the run is told of its team.
    pub fn team_run(&self) -> TeamRun {
        TeamRun {
            team: self.team.clone(),
            task: self.task.clone(),
            base: self.base.clone(),
        }
    }

    /// Stops the run (withdrawn: exit 6) as soon as its task is no longer its own: failed by a
    /// blocker comment, cancelled, taken back. Looks every [`WATCH_EVERY`] from its own
    /// connection, until the run ends (`cancel` raised) or the task is gone.
    pub fn watch(&self, store: &crate::store::StoreTarget, cancel: Arc<Cancel>) {
        let Some(task) = self.task.clone() else {
            return;
        };
        let (target, run_id) = (store.clone(), self.run_id.clone());
        std::thread::spawn(move || {
            let Ok(store) = target.open() else {
                return;
            };
            while !cancel.is_cancelled() {
                std::thread::sleep(WATCH_EVERY);
                if let Ok(Some(why)) = taken_from(store.db(), &task, &run_id) {
                    cancel.withdraw(why);
                    return;
                }
            }
        });
    }

    /// Gives the task back to the board (the run never got going).
    pub fn give_back(&self, store: &mut Store) -> Result<Option<Task>> {
        let Some(task) = &self.task else {
            return Ok(None);
        };
        Board::open(store.db(), self.team.clone(), &self.agent)?.end_run(
            &task.id,
            &self.run_id,
            &RunEnd::Release,
        )
    }

    /// Ends the task from the run's outcome (when the run still holds it); the task after.
    pub fn end(&self, store: &mut Store, outcome: &RunOutcome) -> Result<Option<Task>> {
        let Some(task) = &self.task else {
            return Ok(None);
        };
        let review = self
            .team
            .setting("require_review")
            .as_bool()
            .unwrap_or(false);
        let end = match outcome.status {
            RunStatus::Completed => {
                let result = work::result_of(if outcome.content.is_empty() {
                    "(no output)"
                } else {
                    &outcome.content
                });
                if review {
                    RunEnd::Review(result)
                } else {
                    RunEnd::Complete(result)
                }
            }
            RunStatus::Cancelled => RunEnd::Release,
            _ => RunEnd::Fail(
                outcome
                    .error
                    .clone()
                    .unwrap_or_else(|| format!("the run {}", outcome.status.as_str())),
            ),
        };
        let mut board = Board::open(store.db(), self.team.clone(), &self.agent)?;
        board.end_run(&task.id, &self.run_id, &end)
    }
}
