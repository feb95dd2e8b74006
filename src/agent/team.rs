//! A run for a team (see [`TeamRun`]): team messages reach it at its first turn and at every
//! iteration after (so a `team_message` sent while it runs arrives at its next iteration), and
//! a run on a task is nudged to report progress every [`PROGRESS_EVERY`] iterations.

use super::turn::RunState;
use super::*;
use crate::team::{mailbox, work};

use work::PROGRESS_EVERY;

impl Runner<'_> {
    /// Appends the agent's unread team messages (each marked read for it) to `all`.
    pub(super) fn deliver_team_messages(
        &mut self,
        req: &RunRequest,
        all: &mut Vec<Message>,
    ) -> Result<()> {
        let Some(t) = &req.team else { return Ok(()) };
        if !t.team.is_member(self.agent_key) {
            return Ok(());
        }
        let unread = mailbox::read(self.store.db(), &t.team, self.agent_key)?;
        all.extend(
            work::delivered(&unread)
                .into_iter()
                .map(|m| Message::new(Role::User, m)),
        );
        Ok(())
    }

    /// Before an iteration after the first: the run stops if its task was taken from it (a
    /// blocker comment, its own included, fails the task); else the team messages that arrived,
    /// and the progress nudge.
    pub(super) fn between_iterations(&mut self, req: &RunRequest, st: &mut RunState) -> Result<()> {
        if let Some(task) = req.team.as_ref().and_then(|t| t.task.as_ref())
            && let Some(why) =
                crate::team::board::taken_from(self.store.db(), task, &st.meta.run_id)?
        {
            self.cancel.withdraw(why);
            return Ok(());
        }
        self.deliver_team_messages(req, &mut st.all)?;
        if let Some(task) = req.team.as_ref().and_then(|t| t.task.as_ref())
            && st.iteration.is_multiple_of(PROGRESS_EVERY)
        {
            st.all
                .push(Message::new(Role::User, work::progress_nudge(task)));
        }
        Ok(())
    }
}
