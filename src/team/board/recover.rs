//! Recovery, safe to run from cron: claims whose run is gone and expired claims back to pending, old pending and in-review tasks
//! marked stale, orphaned blocked tasks released.

use super::*;

/// Claims made by hand whose lock expired (a claim a run holds lasts as long as the run, see
/// `release_dead_claims`).
const EXPIRED: &str = "SELECT id FROM tasks WHERE team_id = ?1 AND status = 'in_progress' AND lock_expires_at < ?2 AND run_id IS NULL";
/// The statuses marked stale when left too long, each with its further condition. A task
/// waiting for the lead's approval (in review, nobody's work yet) is never marked stale: a stale
/// task nobody holds may be claimed, which would skip the approval.
const STALE: [(&str, &str); 2] = [("pending", ""), ("in_review", " AND owner IS NOT NULL")];
/// Blocked tasks none of whose blockers is left.
const ORPHANED: &str = "SELECT id FROM tasks t WHERE team_id = ?1 AND status = 'blocked' AND NOT EXISTS (SELECT 1 FROM task_deps d WHERE d.task_id = t.id)";

impl Board<'_> {
    /// Every look recovery takes on `db`, as it runs them (`Board::begin` compiles them ahead of
    /// a write's transaction).
    pub(super) fn recovery_looks(db: &Db<'_>) -> Vec<String> {
        let mut looks = vec![Self::dead_claims_look(db), Self::look(db, EXPIRED)];
        looks.extend(
            STALE
                .iter()
                .map(|&(status, extra)| Self::look(db, &Self::stale_look(status, extra))),
        );
        looks.push(Self::look(db, ORPHANED));
        looks
    }

    /// A look in the order recovery takes rows (see [`lock_order`](Self::lock_order)).
    fn look(db: &Db<'_>, query: &str) -> String {
        format!("{query}{}", Self::lock_order(db, "id"))
    }

    /// Tasks in `status` not updated since `?2`.
    fn stale_look(status: &str, extra: &str) -> String {
        format!(
            "SELECT id FROM tasks WHERE team_id = ?1 AND status = '{status}' AND updated_at < ?2{extra}"
        )
    }

    /// Stale handling (§11.2): expired locks go back to pending (nobody holds them), pending
    /// and in-review tasks left too long are marked stale, and blocked tasks whose blockers are
    /// all gone are released. Safe to run at any time, from any process.
    pub fn recover(&mut self) -> Result<Recovered> {
        let team = self.team.clone();
        let tx = self.begin_without_recovery()?;
        let out = Self::recover_in(&tx, &team)?;
        tx.commit()?;
        Ok(out)
    }

    /// The order recovery takes rows in: by `column` on PostgreSQL, where claims do not wait
    /// for recovery and rows locked in one order never deadlock; none on SQLite, whose one
    /// writer needs no order (and the order would cost a sort).
    pub(super) fn lock_order(db: &Db<'_>, column: &str) -> String {
        match db.dialect() {
            Dialect::Postgres => format!(" ORDER BY {column}"),
            Dialect::Sqlite => String::new(),
        }
    }

    /// Recovery inside a write's own transaction (every write runs it first, so a claim is one
    /// transaction and a read none).
    pub(super) fn recover_in(tx: &Db<'_>, team: &Team) -> Result<Recovered> {
        let pending_h = team.setting("stale_pending_hours").as_i64().unwrap_or(2);
        let review_h = team.setting("stale_review_hours").as_i64().unwrap_or(4);
        let now = now_ms();
        let mut out = Recovered {
            recovered: Self::release_dead_claims(tx, team)?,
            ..Recovered::default()
        };
        let ids = |tx: &Db<'_>, q: &str, p: &[&dyn ToValue]| -> Result<Vec<String>> {
            tx.query_map(&Self::look(tx, q), p, |r| r.get(0))
        };
        for id in ids(tx, EXPIRED, db_params![team.id, now])? {
            // Each update is guarded by what selected it, and a task that moved meanwhile (on
            // PostgreSQL claims do not wait for recovery) gets no event.
            if tx.execute(
                "UPDATE tasks SET status = 'pending', owner = NULL, locked_at = NULL, lock_expires_at = NULL, updated_at = ?2
                 WHERE id = ?1 AND status = 'in_progress' AND lock_expires_at < ?2 AND run_id IS NULL",
                db_params![id, now],
            )? == 0
            {
                continue;
            }
            Self::event(
                tx,
                team,
                &id,
                "recovered",
                "system",
                json!({"reason": "lock expired"}),
            )?;
            out.recovered.push(id);
        }
        for ((status, extra), hours) in STALE.into_iter().zip([pending_h, review_h]) {
            if hours <= 0 {
                continue;
            }
            let cutoff = now - hours * 3_600_000;
            for id in ids(
                tx,
                &Self::stale_look(status, extra),
                db_params![team.id, cutoff],
            )? {
                let guarded = format!(
                    "UPDATE tasks SET status = 'stale', updated_at = ?2
                     WHERE id = ?1 AND status = '{status}' AND updated_at < ?3{extra}"
                );
                if tx.execute(&guarded, db_params![id, now, cutoff])? == 0 {
                    continue;
                }
                Self::event(tx, team, &id, "stale", "system", json!({"was": status}))?;
                out.stale.push(id);
            }
        }
        for id in ids(tx, ORPHANED, db_params![team.id])? {
            if tx.execute(
                "UPDATE tasks SET status = 'pending', updated_at = ?2 WHERE id = ?1 AND status = 'blocked'",
                db_params![id, now],
            )? == 0
            {
                continue;
            }
            Self::event(tx, team, &id, "unblocked", "system", json!({}))?;
            out.unblocked.push(id);
        }
        Ok(out)
    }
}
