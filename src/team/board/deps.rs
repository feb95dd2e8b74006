//! Dependencies between tasks: resolving `blocked_by` references, refusing cycles, and releasing
//! the dependents of a task that reached a terminal status.

use super::*;

impl Board<'_> {
    /// Removes `id` from its dependents' open dependencies; those left with none go pending.
    pub(super) fn release_dependents(
        tx: &Db<'_>,
        team: &Team,
        id: &str,
        actor: &str,
    ) -> Result<Vec<String>> {
        let dependents: Vec<String> = tx.query_map(
            "SELECT task_id FROM task_deps WHERE blocker_id = ?1",
            db_params![id],
            |r| r.get(0),
        )?;
        tx.execute(
            "DELETE FROM task_deps WHERE blocker_id = ?1",
            db_params![id],
        )?;
        let mut unblocked = Vec::new();
        for dep in dependents {
            let n = tx
                .execute(
                    "UPDATE tasks SET status = 'pending', updated_at = ?2
                     WHERE id = ?1 AND status = 'blocked' AND NOT EXISTS (SELECT 1 FROM task_deps WHERE task_id = ?1)",
                    db_params![dep, now_ms()],
                )?;
            if n > 0 {
                Self::event(tx, team, &dep, "unblocked", actor, json!({"by": id}))?;
                unblocked.push(dep);
            }
        }
        Ok(unblocked)
    }

    /// Resolves blocker references to ids, refusing unknown, foreign and finished tasks.
    pub(super) fn resolve_blockers(
        tx: &Db<'_>,
        team: &Team,
        refs: &[String],
    ) -> Result<Vec<String>> {
        let mut ids = Vec::new();
        for r in refs {
            // Not found keeps the original's message; ambiguous says so, with the candidates.
            let t = Self::find(tx, team, r).map_err(|e| match e.kind {
                crate::error::ErrorKind::NotFound => Error::usage(format!("blocked_by: no task `{r}` in team `{}` — create dependency tasks first and use their ids", team.name)),
                _ => Error::usage(format!("blocked_by: {}", e.message)),
            })?;
            if TERMINAL.contains(&t.status.as_str()) {
                return Err(Error::usage(format!(
                    "blocked_by task {} ({}) is already {}. Do not block on finished tasks",
                    t.identifier, t.subject, t.status
                )));
            }
            if !ids.contains(&t.id) {
                ids.push(t.id);
            }
        }
        Ok(ids)
    }

    /// Refuses edges `task -> blockers` that would close a cycle, naming it.
    pub(super) fn refuse_cycles(tx: &Db<'_>, task: &Task, blockers: &[String]) -> Result<()> {
        for b in blockers {
            if *b == task.id {
                return Err(Error::usage(format!(
                    "task {} cannot block itself",
                    task.identifier
                )));
            }
            // Does `b` already (transitively) wait for `task`?
            let mut path = vec![b.clone()];
            if let Some(found) = Self::path_to(tx, b, &task.id, &mut path, 0)? {
                let names: Vec<String> = std::iter::once(task.id.clone())
                    .chain(found)
                    .map(|id| {
                        tx.query_row(
                            "SELECT identifier FROM tasks WHERE id = ?1",
                            db_params![&id],
                            |r| r.get::<String>(0),
                        )
                        .unwrap_or(id)
                    })
                    .collect();
                return Err(Error::usage(format!(
                    "dependency cycle: {}",
                    names.join(" → ")
                )));
            }
        }
        Ok(())
    }

    fn path_to(
        tx: &Db<'_>,
        from: &str,
        target: &str,
        path: &mut Vec<String>,
        depth: usize,
    ) -> Result<Option<Vec<String>>> {
        if from == target {
            return Ok(Some(path.clone()));
        }
        if depth > 10_000 {
            return Ok(None);
        }
        let next: Vec<String> = tx.query_map(
            "SELECT blocker_id FROM task_deps WHERE task_id = ?1",
            db_params![from],
            |r| r.get(0),
        )?;
        for n in next {
            if path.contains(&n) && n != target {
                continue;
            }
            path.push(n.clone());
            if let Some(p) = Self::path_to(tx, &n, target, path, depth + 1)? {
                return Ok(Some(p));
            }
            path.pop();
        }
        Ok(None)
    }
}
