//! Changes that are not transitions: progress (never down, renews the lock), comments (a blocker
//! comment fails the task and escalates to the lead), attachments, updates by the lead, and
//! `ask_user` questions.

use super::*;

impl Board<'_> {
    /// Progress of a task the caller holds; it never goes down. Renews the lock.
    pub fn progress(&mut self, key: &str, percent: i64, step: Option<&str>) -> Result<Task> {
        if !(0..=100).contains(&percent) {
            return Err(Error::usage("percent must be 0-100"));
        }
        self.writable()?;
        let (team, actor, lock) = (self.team.clone(), self.actor.clone(), self.lock_ms());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let now = now_ms();
        let n = tx
            .execute(
                "UPDATE tasks SET progress_percent = CASE WHEN ?3 > coalesce(progress_percent, 0) THEN ?3 ELSE coalesce(progress_percent, 0) END, progress_step = coalesce(?4, progress_step),
                        lock_expires_at = ?5, updated_at = ?6
                 WHERE id = ?1 AND status = 'in_progress' AND owner = ?2",
                db_params![task.id, actor, percent, step, now + lock, now],
            )?;
        if n == 0 {
            return Err(Self::refused(
                &task,
                "report progress on",
                "in_progress, held by the caller",
            ));
        }
        // A report that changes nothing still extends the lock, but is no event.
        let higher = percent > task.progress_percent.unwrap_or(0);
        let new_step = step.is_some_and(|s| task.progress_step.as_deref() != Some(s));
        if higher || new_step {
            Self::event(
                &tx,
                &team,
                &task.id,
                "progress",
                &actor,
                json!({"percent": percent, "step": step}),
            )?;
        }
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit()?;
        Ok(t)
    }

    /// A comment. A `blocker` on a task in progress (by any member, as the issue of team runs
    /// asks: whoever sees the work cannot go on says so) fails it (`Blocked: …`; a run working
    /// on it stops) and, when the team's `blocker_escalation` is on, tells the lead through the
    /// mailbox. Its dependents stay blocked: the lead may retry it with new instructions.
    pub fn comment(&mut self, key: &str, text: &str, blocker: bool) -> Result<(Task, String)> {
        if text.trim().is_empty() {
            return Err(Error::usage("a comment needs text"));
        }
        if text.len() > MAX_COMMENT_BYTES {
            return Err(Error::usage(format!(
                "comment text too long (max {MAX_COMMENT_BYTES} chars)"
            )));
        }
        self.writable()?;
        let escalate = self
            .team
            .setting("blocker_escalation.enabled")
            .as_bool()
            .unwrap_or(true);
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let now = now_ms();
        tx.execute(
            "INSERT INTO task_comments (task_id, author, kind, text, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            db_params![task.id, actor, if blocker { "blocker" } else { "note" }, text, now],
        )?;
        tx.execute(
            "UPDATE tasks SET comment_count = comment_count + 1, updated_at = ?2 WHERE id = ?1",
            db_params![task.id, now],
        )?;
        Self::event(
            &tx,
            &team,
            &task.id,
            "commented",
            &actor,
            json!({"type": if blocker { "blocker" } else { "note" }, "text": text}),
        )?;
        let mut note = format!(
            "Comment added to task #{} \"{}\".",
            task.task_number, task.subject
        );
        if blocker {
            if task.status != "in_progress" {
                note = format!(
                    "Blocker comment saved on task #{} \"{}\", but task is already {} — no escalation needed.",
                    task.task_number, task.subject, task.status
                );
            } else {
                let reason: String = text.chars().take(BLOCKER_REASON_RUNES).collect();
                tx.execute(
                    "UPDATE tasks SET status = 'failed', result = ?2, locked_at = NULL, lock_expires_at = NULL, run_id = NULL, ask_user = NULL, updated_at = ?3
                     WHERE id = ?1 AND status = 'in_progress'",
                    db_params![task.id, format!("FAILED: Blocked: {reason}"), now],
                )?;
                Self::event(
                    &tx,
                    &team,
                    &task.id,
                    "failed",
                    &actor,
                    json!({"reason": format!("Blocked: {reason}")}),
                )?;
                note = format!(
                    "Task #{} \"{}\" auto-failed due to blocker.",
                    task.task_number, task.subject
                );
                if escalate {
                    tx.execute(
                        "INSERT INTO messages (team_id, sender, recipient, kind, text, created_at) VALUES (?1, 'system:escalation', ?2, 'escalation', ?3, ?4)",
                        db_params![
                            team.id,
                            team.lead,
                            format!("[Escalation] Task #{} \"{}\" ({}) was blocked by {actor}: {reason}", task.task_number, task.subject, task.identifier),
                            now
                        ],
                    )?;
                    note.push_str(
                        " Leader has been notified and can retry with updated instructions.",
                    );
                }
            }
        }
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit()?;
        Ok((t, note))
    }

    /// Attaches a path (relative to the workspace) to a task.
    pub fn attach(&mut self, key: &str, path: &str) -> Result<Task> {
        if path.trim().is_empty() {
            return Err(Error::usage("attach needs a path"));
        }
        self.writable()?;
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let n = tx
            .execute(
                "INSERT INTO task_attachments (task_id, path, added_by, created_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (task_id, path) DO NOTHING",
                db_params![task.id, path, actor, now_ms()],
            )?;
        if n == 0 {
            return Err(Error::conflict(format!(
                "{path} is already attached to task {}",
                task.identifier
            )));
        }
        Self::event(
            &tx,
            &team,
            &task.id,
            "attached",
            &actor,
            json!({"path": path}),
        )?;
        tx.commit()?;
        Ok(task)
    }

    /// Lead: changes subject, description, priority, assignee or dependencies (status is not
    /// recomputed from dependencies, as the original, except that a pending task given open
    /// blockers becomes blocked).
    pub fn update(&mut self, key: &str, c: Changes) -> Result<Task> {
        self.require_lead("update tasks")?;
        self.writable()?;
        if c.subject.is_none()
            && c.description.is_none()
            && c.priority.is_none()
            && c.blocked_by.is_none()
            && c.assignee.is_none()
        {
            return Err(Error::usage(
                "no updates provided (set subject, description, priority, assignee or blocked_by)",
            ));
        }
        if c.subject.as_ref().is_some_and(|s| s.trim().is_empty()) {
            return Err(Error::usage("a task's subject cannot be empty"));
        }
        if let Some(Some(a)) = &c.assignee {
            self.require_member(a)?;
        }
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let now = now_ms();
        if let Some(s) = &c.subject {
            tx.execute(
                "UPDATE tasks SET subject = ?2, updated_at = ?3 WHERE id = ?1",
                db_params![task.id, s, now],
            )?;
        }
        if let Some(d) = &c.description {
            tx.execute(
                "UPDATE tasks SET description = ?2, updated_at = ?3 WHERE id = ?1",
                db_params![task.id, d, now],
            )?;
        }
        if let Some(p) = c.priority {
            tx.execute(
                "UPDATE tasks SET priority = ?2, updated_at = ?3 WHERE id = ?1",
                db_params![task.id, p, now],
            )?;
        }
        if let Some(a) = &c.assignee {
            tx.execute(
                "UPDATE tasks SET assignee = ?2, updated_at = ?3 WHERE id = ?1",
                db_params![task.id, a, now],
            )?;
        }
        if let Some(refs) = &c.blocked_by {
            let blockers = Self::resolve_blockers(&tx, &team, refs)?;
            Self::refuse_cycles(&tx, &task, &blockers)?;
            tx.execute(
                "DELETE FROM task_deps WHERE task_id = ?1",
                db_params![&task.id],
            )?;
            for b in &blockers {
                tx.execute(
                    "INSERT INTO task_deps (task_id, blocker_id) VALUES (?1, ?2)",
                    db_params![task.id, b],
                )?;
            }
            // Changed now: a task that waited blocked past the stale time is not stale the
            // moment it is unblocked.
            let status = match blockers.is_empty() {
                true => "CASE status WHEN 'blocked' THEN 'pending' ELSE status END",
                false => "CASE status WHEN 'pending' THEN 'blocked' ELSE status END",
            };
            tx.execute(
                &format!("UPDATE tasks SET status = {status}, updated_at = ?2 WHERE id = ?1"),
                db_params![&task.id, now],
            )?;
        }
        let fields: Vec<&str> = [
            c.subject.as_ref().map(|_| "subject"),
            c.description.as_ref().map(|_| "description"),
            c.priority.map(|_| "priority"),
            c.assignee.as_ref().map(|_| "assignee"),
            c.blocked_by.as_ref().map(|_| "blocked_by"),
        ]
        .into_iter()
        .flatten()
        .collect();
        Self::event(
            &tx,
            &team,
            &task.id,
            "updated",
            &actor,
            json!({"fields": fields}),
        )?;
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit()?;
        Ok(t)
    }

    /// Holder: asks the user something (the task stays in progress); `None` clears it
    /// (holder or lead).
    pub fn ask_user(&mut self, key: &str, question: Option<&str>) -> Result<Task> {
        self.writable()?;
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        let task = Self::find(&tx, &team, key)?;
        let allowed = task.owner.as_deref() == Some(actor.as_str())
            || (question.is_none() && team.is_lead(&actor));
        if !allowed {
            return Err(Error::denied(match question {
                Some(_) => format!(
                    "only the holder of task {} can ask the user about it",
                    task.identifier
                ),
                None => format!(
                    "only the holder of task {} or the lead can clear its question",
                    task.identifier
                ),
            }));
        }
        // Clearing no question changes nothing, and records no event.
        if question.is_none() && task.status == "in_progress" {
            let asked: Option<String> = tx.query_row(
                "SELECT ask_user FROM tasks WHERE id = ?1",
                db_params![&task.id],
                |r| r.get(0),
            )?;
            if asked.is_none() {
                tx.commit()?;
                return Ok(task);
            }
        }
        let n = tx
            .execute(
                "UPDATE tasks SET ask_user = ?2, updated_at = ?3 WHERE id = ?1 AND status = 'in_progress'",
                db_params![task.id, question, now_ms()],
            )?;
        if n == 0 {
            let doing = match question {
                Some(_) => "ask the user about",
                None => "clear the question of",
            };
            return Err(Self::refused(&task, doing, "in_progress"));
        }
        let event = if question.is_some() {
            "asked_user"
        } else {
            "cleared_ask_user"
        };
        Self::event(
            &tx,
            &team,
            &task.id,
            event,
            &actor,
            json!({"question": question}),
        )?;
        let t = Self::find(&tx, &team, &task.id)?;
        tx.commit()?;
        Ok(t)
    }
}
