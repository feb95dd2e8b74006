//! The end of a team run: the tasks it touched, the lead's final turn (every result), and the
//! report with its status and exit code.

use super::*;
use crate::tools::Stopped;

/// A task as the report shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TaskEnd {
    pub id: String,
    pub identifier: String,
    pub subject: String,
    pub status: String,
    pub owner: Option<String>,
    pub result: Option<String>,
    /// Who posted it (a member's request waiting for approval is no failure of the run).
    #[serde(skip)]
    pub created_by: String,
}

/// How a team run ended: the document `goclaw team run` prints.
#[derive(Debug, Clone, Serialize)]
pub struct TeamRunReport {
    pub team_run_id: String,
    pub team: String,
    /// completed | failed | cancelled | timed_out
    pub status: String,
    /// The lead's final answer.
    pub answer: Option<String>,
    /// The tasks this team run touched, and those still open.
    pub tasks: Vec<TaskEnd>,
    /// The tasks that did not complete (failed, cancelled, or left unfinished).
    pub failed: Vec<TaskEnd>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The error kind the exit code follows (`None`: success).
    #[serde(skip)]
    pub kind: Option<ErrorKind>,
}

impl Dispatcher<'_> {
    /// The lead's final turn: every result of this team run.
    pub(super) fn results_message(&self) -> Result<String> {
        let mut s = String::from(
            "[Team results] The team's work has ended. The tasks and their results:\n",
        );
        for t in self.tasks()? {
            let result = t.result.clone().unwrap_or_default();
            let result: String = result.chars().take(RESULT_IN_SUMMARY).collect();
            s.push_str(&format!(
                "\n- {} \"{}\" ({}{}):\n{}\n",
                t.identifier,
                t.subject,
                t.status,
                t.owner
                    .as_ref()
                    .map(|o| format!(", by {o}"))
                    .unwrap_or_default(),
                result.trim()
            ));
        }
        s.push_str("\nWrite the final answer for the user from these results.");
        Ok(s)
    }

    /// The tasks of this team run: those created or dispatched since it started, and those
    /// still open; for one member's work (`team work`), the tasks it ran.
    pub(super) fn tasks(&self) -> Result<Vec<TaskEnd>> {
        let one_member = self.o.only.is_some();
        Ok(board::snapshot(self.store.db(), self.team.id, Watch::All)?
            .into_iter()
            .filter(|t| {
                self.touched.contains(&t.task.id)
                    || (!one_member
                        && (t.task.created_at >= self.started_ms
                            || !board::TERMINAL.contains(&t.task.status.as_str())))
            })
            .map(|t| TaskEnd {
                id: t.task.id,
                identifier: t.task.identifier,
                subject: t.task.subject,
                status: t.task.status,
                owner: t.task.owner,
                result: t.result,
                created_by: t.task.created_by,
            })
            .collect())
    }

    /// The report, and the `team.completed` event.
    pub(super) fn report(mut self, stop: Stop) -> Result<TeamRunReport> {
        self.send_board_events(true)?;
        let tasks = self.tasks()?;
        // What did not get done: failed, or left where nothing moves it. Completed and cancelled
        // tasks (the lead dropped them) are not failures, nor are members' requests waiting
        // for the lead's approval (in review, nobody's work yet, not the lead's). A task the
        // lead posted for approval and left waiting is undone work: it counts.
        let failed: Vec<TaskEnd> = tasks
            .iter()
            .filter(|t| !matches!(t.status.as_str(), "completed" | "cancelled"))
            .filter(|t| {
                !(t.status == "in_review" && t.owner.is_none() && !self.team.is_lead(&t.created_by))
            })
            .cloned()
            .collect();
        let (status, kind, error) = match stop {
            Stop::Cancelled => (
                "cancelled",
                Some(
                    self.cancel
                        .stopped_by()
                        .map_or(ErrorKind::Interrupted, Stopped::error_kind),
                ),
                Some(
                    "the team run was stopped: every run ended, and the tasks they held went back to pending"
                        .to_string(),
                ),
            ),
            Stop::TimedOut => (
                "timed_out",
                Some(ErrorKind::Timeout),
                Some(format!(
                    "the team run timed out after {}: every run ended, and the tasks they held went back to pending",
                    crate::tools::exec::go_duration(self.o.timeout.unwrap_or_default())
                )),
            ),
            Stop::Done => match (&self.lead_error, failed.is_empty()) {
                (Some((kind, e)), _) => ("failed", Some(*kind), Some(e.clone())),
                (None, false) => (
                    "failed",
                    Some(ErrorKind::Failed),
                    Some(format!(
                        "{} task(s) did not complete: {}",
                        failed.len(),
                        failed
                            .iter()
                            .map(|t| format!("{} ({})", t.identifier, t.status))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                ),
                (None, true) => ("completed", None, None),
            },
        };
        let report = TeamRunReport {
            team_run_id: self.team_run_id.clone(),
            team: self.team.name.clone(),
            status: status.to_string(),
            answer: self.lead_answer.take(),
            failed,
            tasks,
            error,
            kind,
        };
        self.emit(TeamEvent::new(
            "team.completed",
            &self.team_run_id,
            None,
            TeamEventData::Completed {
                status: report.status.clone(),
                answer: report.answer.clone(),
                failed: report.failed.iter().map(|t| t.identifier.clone()).collect(),
            },
        ));
        Ok(report)
    }
}
