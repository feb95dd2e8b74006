//! A run the dispatcher started ended: what its end leaves to write. A member's task it did not
//! end fails (and is tried again while its dispatches allow), the lead's answer is kept, a
//! review's verdict is applied in the reviewer's name. Ends wait in `unsettled` until written,
//! so an end met while the store's connection is lost is written once it is back.

use super::procs::{Ended, Role};
use super::{Dispatcher, LOOK_EVERY, tolerate};
use crate::agent::review::{Review, parse_review};
use crate::error::{ErrorKind, Result};
use crate::team::board::{self, Board, RunEnd, Watch};

impl Dispatcher<'_> {
    /// Waits up to [`LOOK_EVERY`] for runs to end, then writes what every ended run leaves to
    /// write; an end that cannot be written (the store's connection broke) stays to be written
    /// first once the store answers again.
    pub(super) fn settle_ends(&mut self) -> Result<()> {
        let ended = self.procs.ended(LOOK_EVERY);
        self.unsettled.extend(ended);
        while let Some(ended) = self.unsettled.pop_front() {
            if let Err(e) = tolerate(self.on_end(&ended)) {
                self.unsettled.push_front(ended);
                return Err(e);
            }
            self.look = None;
        }
        Ok(())
    }
    /// A run ended: its task, the lead's answer, or a review's verdict.
    pub(super) fn on_end(&mut self, e: &Ended) -> Result<()> {
        let row = crate::agent::runs::get(self.store.db(), &e.started.run_id)?;
        match &e.started.role {
            Role::Lead => match row {
                // The answer is the final turn's (an earlier turn's text is no answer).
                Some(r) if r.status == "completed" => {
                    if self.final_turn.as_deref() == Some(r.id.as_str()) {
                        self.lead_answer = r.content;
                    }
                }
                Some(r) => {
                    // The lead's own exit code says what kind of failure it was (8: its
                    // provider failed), and so the team run's.
                    let kind = e
                        .exit
                        .as_ref()
                        .ok()
                        .and_then(std::process::ExitStatus::code)
                        .and_then(|c| ErrorKind::from_exit_code(c.into()))
                        .filter(|k| {
                            matches!(
                                k,
                                ErrorKind::Upstream | ErrorKind::Limited | ErrorKind::Denied
                            )
                        })
                        .unwrap_or(ErrorKind::Failed);
                    self.lead_error = Some((
                        kind,
                        format!(
                            "the lead's run {} {}: {}",
                            r.id,
                            r.status,
                            r.error.unwrap_or_default()
                        ),
                    ))
                }
                None => {
                    self.lead_error = Some((
                        ErrorKind::Failed,
                        format!(
                            "the lead's run did not start ({}); `goclaw run --agent {}` says why",
                            match &e.exit {
                                Ok(s) => s.to_string(),
                                Err(err) => err.to_string(),
                            },
                            self.team.lead
                        ),
                    ))
                }
            },
            Role::Member { task_id } => self.member_ended(task_id, e)?,
            Role::Review { task_id } => {
                let verdict = row
                    .filter(|r| r.status == "completed")
                    .map(|r| parse_review(r.content.as_deref().unwrap_or("")));
                // The reviewer's verdict, in its name (goclaw applies it: a reviewer who is not
                // the lead may not approve by hand).
                let mut b = Board::for_run_of(self.store.db(), self.team.clone(), &e.started.agent);
                match verdict {
                    Some(Review::Approved) => {
                        b.approve(task_id)?;
                    }
                    Some(Review::Rejected(feedback)) => {
                        b.reject(task_id, &feedback)?;
                    }
                    // A reviewer that did not answer: the task waits for the next review.
                    None => {}
                }
            }
        }
        Ok(())
    }

    /// A member's run ended. A run that died without ending its task fails it; a task failed
    /// (not by a blocker, which goes to the lead) is tried again while its dispatches allow.
    fn member_ended(&mut self, task_id: &str, e: &Ended) -> Result<()> {
        let run_id = &e.started.run_id;
        let mut b = Board::system(self.store.db(), self.team.clone());
        b.end_run(
            task_id,
            run_id,
            &RunEnd::Fail(format!(
                "{}'s run ended without ending its task ({})",
                e.started.agent,
                match &e.exit {
                    Ok(s) => s.to_string(),
                    Err(err) => err.to_string(),
                }
            )),
        )?;
        let Some(t) = board::snapshot(self.store.db(), self.team.id, Watch::Task(task_id))?
            .into_iter()
            .next()
        else {
            return Ok(());
        };
        let blocked = t
            .result
            .as_deref()
            .is_some_and(|r| r.starts_with("FAILED: Blocked:"));
        if t.task.status == "failed" && !blocked && t.dispatch_count < self.max_dispatches {
            Board::system(self.store.db(), self.team.clone()).retry(task_id)?;
        }
        Ok(())
    }
}
