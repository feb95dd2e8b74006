//! The team run's own row in `runs`, so `runs show`, `runs wait` and `runs cancel` take a team
//! run's id as they take any run's: its lead's, members' and reviewers' runs are its children
//! (their `parent_run_id`). The row names the dispatcher's process (`runs cancel` signals it,
//! and the team run stops as on SIGTERM), is kept fresh by a heartbeat from a thread of its
//! own (a dispatcher waits on its members for hours), and ends with the report's status. A
//! dispatcher that dies leaves it to the run reaper, which marks it abandoned.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::db_params;
use crate::error::{ErrorKind, Result};
use crate::store::db::Db;
use crate::store::{StoreTarget, now_ms};
use crate::team::Team;
use crate::text::scrub::Scrubber;

/// How often the heartbeat is written (the reaper trusts one younger than 10 minutes).
const BEAT_EVERY: Duration = Duration::from_secs(60);

/// The row while the team run goes on; its heartbeat stops when it is dropped.
pub(super) struct Row {
    id: String,
    stop: Arc<AtomicBool>,
}

impl Row {
    /// Writes the row (`running`, this process, the lead as its agent, `team:NAME` as its
    /// label) and starts its heartbeat on a connection of its own.
    pub fn start(
        db: Db<'_>,
        target: &StoreTarget,
        (id, team, message): (&str, &Team, Option<&str>),
        scrubber: &Scrubber,
    ) -> Result<Row> {
        let now = now_ms();
        db.execute(
            "INSERT INTO runs (id, agent, status, pid, heartbeat_at, started_at, message, depth, label, host, pid_start, pid_ns)
             VALUES (?1, ?2, 'running', ?3, ?4, ?4, ?5, 0, ?6, ?7, ?8, ?9)",
            db_params![
                id,
                team.lead,
                std::process::id(),
                now,
                message.map(|m| scrubber.scrub_str(m, None)),
                format!("team:{}", team.name),
                crate::host::name(),
                crate::host::own_start(),
                crate::host::pid_namespace()
            ],
        )?;
        let stop = Arc::new(AtomicBool::new(false));
        let (beating, target, run) = (stop.clone(), target.clone(), id.to_string());
        std::thread::spawn(move || {
            let mut store = None;
            let mut waited = Duration::ZERO;
            while !beating.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(500));
                waited += Duration::from_millis(500);
                if waited >= BEAT_EVERY {
                    waited = Duration::ZERO;
                    // Opened at the first beat, and again after its connection was lost (a
                    // PostgreSQL server restarted): a dispatcher that outlives the loss must not
                    // look abandoned to other machines ten minutes later.
                    if store
                        .as_ref()
                        .is_none_or(|s: &crate::store::Store| s.db().connection_lost())
                    {
                        store = target.open().ok();
                    }
                    if let Some(s) = &store {
                        let _ = crate::agent::record::heartbeat(s.db(), &run, 0);
                    }
                }
            }
        });
        Ok(Row {
            id: id.to_string(),
            stop,
        })
    }

    /// Ends the row: `status` is the report's (completed, failed, cancelled, timed_out), `kind`
    /// the failure's, whose exit code the command ends with.
    pub fn finish(
        self,
        db: Db<'_>,
        (status, answer, error): (&str, Option<&str>, Option<&str>),
        kind: Option<ErrorKind>,
        scrubber: &Scrubber,
    ) -> Result<()> {
        db.execute(
            "UPDATE runs SET status = ?2, ended_at = ?3, content = ?4, error = ?5, exit_code = ?6
             WHERE id = ?1 AND status = 'running'",
            db_params![
                self.id,
                status,
                now_ms(),
                answer.map(|a| scrubber.scrub_str(a, None)),
                error.map(|e| scrubber.scrub_str(e, None)),
                i64::from(kind.map_or(0, ErrorKind::exit_code))
            ],
        )?;
        Ok(())
    }
}

impl Drop for Row {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
