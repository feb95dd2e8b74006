//! Creating tasks: who may create what, deduplication by key, numbering and identifiers, the
//! initial status (in review, blocked or pending).

use super::*;

impl Board<'_> {
    /// Creates a task; with a dedupe key already used, returns that task instead (`false`).
    pub fn create(&mut self, new: NewTask) -> Result<(Task, bool)> {
        self.may_create(&new)?;
        let (team, actor) = (self.team.clone(), self.actor.clone());
        let tx = self.begin()?;
        if let Some(key) = &new.dedupe_key {
            let existing: Option<String> = tx.query_opt(
                "SELECT id FROM tasks WHERE team_id = ?1 AND dedupe_key = ?2",
                db_params![team.id, key],
                |r| r.get(0),
            )?;
            if let Some(id) = existing {
                let t = Self::find(&tx, &team, &id)?;
                tx.commit()?;
                return Ok((t, false));
            }
        }
        let blockers = Self::resolve_blockers(&tx, &team, &new.blocked_by)?;
        let id = uuid::Uuid::now_v7();
        let hex = id.simple().to_string();
        let number: i64 = tx.query_row(
            "SELECT coalesce(max(task_number), 0) + 1 FROM tasks WHERE team_id = ?1",
            db_params![team.id],
            |r| r.get(0),
        )?;
        let identifier = format!("T-{number:03}-{}", &hex[hex.len() - 4..]);
        // A member's request waits for the lead's approval unless the team dispatches them
        // (`member_requests.auto_dispatch`): members cannot keep a dispatcher busy with their
        // own tasks.
        let held_for_approval = !self.may_lead()
            && team.setting("member_requests.auto_dispatch").as_bool() != Some(true);
        let status = if new.require_approval || held_for_approval {
            "in_review"
        } else if !blockers.is_empty() {
            "blocked"
        } else {
            "pending"
        };
        let now = now_ms();
        tx.execute(
            "INSERT INTO tasks (id, team_id, task_number, identifier, subject, description, status, priority, assignee,
                                created_by, dedupe_key, require_approval, created_at, updated_at, gate)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13, ?14)",
            db_params![
                id.to_string(),
                team.id,
                number,
                identifier,
                new.subject,
                new.description,
                status,
                new.priority,
                new.assignee,
                actor,
                new.dedupe_key,
                new.require_approval,
                now,
                new.gate.as_deref().map(str::trim).filter(|g| !g.is_empty())
            ],
        )?;
        for b in &blockers {
            tx.execute(
                "INSERT INTO task_deps (task_id, blocker_id) VALUES (?1, ?2)",
                db_params![id.to_string(), b],
            )?;
        }
        Self::event(
            &tx,
            &team,
            &id.to_string(),
            "created",
            &actor,
            json!({"subject": new.subject, "status": status, "assignee": new.assignee}),
        )?;
        let task = Self::find(&tx, &team, &id.to_string())?;
        tx.commit()?;
        Ok((task, true))
    }

    /// Who may create what: the lead anything; a member only a request, when the team takes
    /// requests. The subject must say something and an assignee must be a member.
    fn may_create(&self, new: &NewTask) -> Result<()> {
        self.writable()?;
        if new.subject.trim().is_empty() {
            return Err(Error::usage("a task needs a subject"));
        }
        // An empty key would make every task created with one the same task: a script's
        // `--dedupe-key "$KEY"` with KEY unset lost its tasks.
        if new.dedupe_key.as_ref().is_some_and(|k| k.trim().is_empty()) {
            return Err(Error::usage(
                "the dedupe key is empty: give a key, or leave --dedupe-key out",
            ));
        }
        if !self.may_lead() {
            let requests = self
                .team
                .setting("member_requests.enabled")
                .as_bool()
                .unwrap_or(false);
            if !requests {
                return Err(Error::denied(
                    "only the team lead can create tasks (members may comment instead)",
                ));
            }
            if !new.request {
                return Err(Error::denied(
                    "members can only create request tasks (pass --request)",
                ));
            }
        }
        if let Some(a) = &new.assignee {
            self.require_member(a)?;
        }
        Ok(())
    }
}
