//! `goclaw team run` and `goclaw team work`: the dispatcher. The lead gets the message and posts
//! tasks; after its turn, the dispatcher starts members' runs in parallel (at most `workers`,
//! one task per member at a time), each on the next task it may claim (the claim names the run,
//! so two dispatchers never run one task twice); a completed task releases its dependents, which
//! are dispatched in turn; a task failed by a blocker comment escalates to the lead (a lead turn
//! with the escalation); a task failed otherwise is tried again, up to the team's
//! `max_task_dispatches`; a task submitted for review (`require_review`) is reviewed by the
//! team's reviewer (or the lead) by the APPROVED / REJECTED protocol. When nothing on the board
//! can move any more, the lead gets a final turn with every result and writes the answer.
//!
//! The dispatcher holds nothing only in memory: the board says what is claimed by which run, a
//! run ends its own task, a run whose dispatcher dies cancels itself and gives its task back,
//! and a claim whose run is gone is released by recovery (`tasks recover`, the next team run).
//! Stopping (Ctrl-C, SIGTERM, `--timeout`) stops every run, and their tasks go back to pending.

mod ends;
mod events;
mod procs;
mod reconnect;
mod report;
mod row;
mod watch;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::agent::Cancel;
use crate::config::Settings;
use crate::error::{Error, ErrorKind, Result};
use crate::store::Store;
use crate::team::board::{self, Board, RunEnd, TaskState, Watch};
use crate::team::{self, Team, mailbox};
use crate::text::scrub::Scrubber;
use crate::tools::child_run::RunFlags;
use crate::tools::gate::SharedRelay;
pub use events::{TeamEvent, TeamEventData};
use procs::{Ended, Launcher, Procs, Role, Started};
pub use report::{TaskEnd, TeamRunReport};
use watch::Noticed;

/// How often the board is looked at when no run ends.
const LOOK_EVERY: Duration = Duration::from_millis(100);
/// The dispatcher acts on an unchanged board at least this often.
const LOOK_ANYWAY: Duration = Duration::from_secs(5);
/// How long stopped runs are given to end cleanly before they are killed.
const STOP_GRACE: Duration = Duration::from_secs(3);
/// Characters of each task's result in the lead's final turn.
const RESULT_IN_SUMMARY: usize = 4000;
/// The sender of escalations (the board's blocker comments).
const ESCALATION: &str = "system:escalation";

/// When a team run ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Until {
    /// When nothing on the board can move any more (the default).
    #[default]
    Empty,
    /// Never: new tasks are dispatched as they come, until stopped.
    Watch,
}

/// Where the dispatcher's messages for the person running it go (the store's connection lost
/// and back): the entry point shows them or not.
pub type Notices = Arc<dyn Fn(crate::ops::Note) + Send + Sync>;

/// What a team run is asked to do.
#[derive(Clone, Default)]
pub struct TeamRunOptions {
    pub team: String,
    /// The lead's message; without one, the board is worked as it is.
    pub message: Option<String>,
    /// Members' runs at once (default: the number of workers).
    pub workers: Option<usize>,
    pub until: Until,
    pub timeout: Option<Duration>,
    /// Only this member works (`team work`): no lead turns, no reviews.
    pub only: Option<String>,
    /// Where the events go (`--events`): the team run's own and every run's.
    pub relay: Option<SharedRelay>,
    pub notices: Option<Notices>,
}

/// Why the dispatch loop stopped.
enum Stop {
    Done,
    Cancelled,
    TimedOut,
}

/// The board before a team run: claims of runs that are gone go back to it first, and on
/// PostgreSQL its changes and the mailbox's notify this dispatcher from now on.
fn ready_board(db: crate::store::db::Db<'_>, team: &Team) -> Result<()> {
    crate::agent::record::reap_abandoned(db)?;
    db.listen(&team.channel())?;
    Board::system(db, team.clone()).recover()?;
    Ok(())
}

/// Who works on tasks: `only` (`team work`), else every member whose role is `member`; a team
/// that is archived or has none is refused.
fn workers(team: &Team, only: Option<&str>) -> Result<Vec<String>> {
    if team.status != "active" {
        return Err(Error::conflict(format!("team `{}` is archived", team.name)));
    }
    let workers: Vec<String> = match only {
        Some(a) if team.is_member(a) => vec![a.to_string()],
        Some(a) => {
            return Err(Error::denied(format!(
                "`{a}` is not a member of team `{}`",
                team.name
            )));
        }
        None => team
            .members
            .iter()
            .filter(|m| m.role == "member")
            .map(|m| m.agent.clone())
            .collect(),
    };
    if workers.is_empty() {
        return Err(Error::usage(format!(
            "team `{}` has no members to work on tasks (add one: goclaw team members add {} AGENT)",
            team.name, team.name
        )));
    }
    Ok(workers)
}

/// Runs a team: see the module's doc. `cancel` stops it (SIGINT/SIGTERM).
pub fn run(
    settings: &Settings,
    store: &mut Store,
    scrubber: &Scrubber,
    o: TeamRunOptions,
    cancel: Arc<Cancel>,
) -> Result<TeamRunReport> {
    // The dispatcher makes its connection again itself, with its events (see `reconnect`).
    store.db().reconnect_when_lost(false);
    let team = team::get(store.db(), &o.team)?;
    let workers = workers(&team, o.only.as_deref())?;
    ready_board(store.db(), &team)?;
    let team_run_id = uuid::Uuid::now_v7().to_string();
    let row = row::Row::start(
        store.db(),
        &settings.store_target(),
        (&team_run_id, &team, o.message.as_deref()),
        scrubber,
    )?;
    let launcher = Launcher {
        store: settings.store_target(),
        workspace: settings.workspace.clone(),
        config: settings.config_exists.then(|| settings.config_path.clone()),
        team: team.name.clone(),
        team_dir: crate::team::work::ensure_below(
            &settings.workspace,
            &crate::team::work::team_dir(&settings.workspace, &team),
        )
        .map_err(|e| Error::denied(format!("the team workspace cannot be used: {e}")))?,
        team_run_id: team_run_id.clone(),
        relay: o.relay.clone(),
    };
    let mut d = Dispatcher {
        max_workers: o.workers.unwrap_or(workers.len()).max(1),
        max_dispatches: team
            .setting("max_task_dispatches")
            .as_i64()
            .unwrap_or(3)
            .max(1),
        reviewer: team
            .members
            .iter()
            .find(|m| m.role == "reviewer")
            .map_or_else(|| team.lead.clone(), |m| m.agent.clone()),
        last_event: board::last_event(store.db(), team.id)?,
        started_ms: crate::store::now_ms(),
        deadline: o.timeout.map(|t| Instant::now() + t),
        procs: Procs::new(launcher),
        team_run_id,
        store: &mut *store,
        scrubber,
        workers,
        team,
        o,
        cancel,
        lead_answer: None,
        lead_error: None,
        reviews: BTreeMap::new(),
        touched: BTreeSet::new(),
        runs_of: BTreeMap::new(),
        look: None,
        noticed: Noticed::default(),
        final_turn: None,
        unsettled: VecDeque::new(),
    };
    d.emit(TeamEvent::new(
        "team.started",
        &d.team_run_id,
        None,
        TeamEventData::Started {
            team: d.team.name.clone(),
            lead: d.team.lead.clone(),
            workers: d.workers.clone(),
        },
    ));
    let stop = match d.drive() {
        Ok(s) => s,
        Err(e) => {
            d.stop_everything()?;
            drop(d);
            row.finish(
                store.db(),
                ("failed", None, Some(&e.message)),
                Some(e.kind),
                scrubber,
            )?;
            return Err(e);
        }
    };
    let report = d.report(stop)?;
    let end = (
        report.status.as_str(),
        report.answer.as_deref(),
        report.error.as_deref(),
    );
    row.finish(store.db(), end, report.kind, scrubber)?;
    Ok(report)
}

/// The dispatcher's state.
struct Dispatcher<'a> {
    store: &'a mut Store,
    scrubber: &'a Scrubber,
    team: Team,
    o: TeamRunOptions,
    cancel: Arc<Cancel>,
    procs: Procs,
    team_run_id: String,
    workers: Vec<String>,
    max_workers: usize,
    max_dispatches: i64,
    /// Who reviews tasks submitted for review.
    reviewer: String,
    /// The board's last event sent to `--events`.
    last_event: i64,
    started_ms: i64,
    deadline: Option<Instant>,
    lead_answer: Option<String>,
    /// Why the lead's run failed, and its kind (its exit code's).
    lead_error: Option<(ErrorKind, String)>,
    /// Reviews started per task.
    reviews: BTreeMap<String, i64>,
    /// Tasks this team run dispatched or reviewed.
    touched: BTreeSet<String>,
    /// Runs started per worker.
    runs_of: BTreeMap<String, usize>,
    /// The lead's final turn, once started: its answer is the team run's.
    final_turn: Option<String>,
    /// The board's last event and message when the dispatcher last acted, and when.
    look: Option<((i64, i64), Instant)>,
    /// PostgreSQL: a notification came (a board event or a message, from any machine) since
    /// the board was last looked at, and since its events were last relayed.
    noticed: Noticed,
    /// Runs that ended and whose end is not written yet (the store's connection broke).
    unsettled: VecDeque<Ended>,
}

impl Dispatcher<'_> {
    /// The loop: the lead's first turn, then dispatching until nothing can move (or forever
    /// with `--watch`), then the lead's final turn.
    fn drive(&mut self) -> Result<Stop> {
        let leading = self.o.only.is_none();
        if let (Some(message), true) = (self.o.message.clone(), leading) {
            self.lead_turn(&message)?;
        }
        loop {
            if let Some(stop) = self.interrupted() {
                self.stop_everything()?;
                return Ok(stop);
            }
            match self.step(leading) {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => self.reconnect_after(e)?,
            }
        }
        if let (Some(_), true) = (&self.o.message, leading) {
            let summary = self.results_message()?;
            self.final_turn = Some(self.lead_turn(&summary)?);
            while self.lead_busy() || !self.unsettled.is_empty() {
                if let Some(stop) = self.interrupted() {
                    self.stop_everything()?;
                    return Ok(stop);
                }
                if let Err(e) = self
                    .settle_ends()
                    .and_then(|()| self.send_board_events(false))
                {
                    self.reconnect_after(e)?;
                }
            }
        }
        Ok(Stop::Done)
    }

    /// One look: the runs that ended are settled and the board's events relayed; when the board
    /// moved, escalations, reviews and members' runs are started. True when the team run is
    /// done.
    fn step(&mut self, leading: bool) -> Result<bool> {
        self.settle_ends()?;
        self.send_board_events(false)?;
        if self.lead_busy() || !self.board_moved()? {
            return Ok(false);
        }
        if leading && self.escalation_waiting()? {
            self.lead_turn(ESCALATION_TURN)?;
            return Ok(false);
        }
        if leading {
            self.start_reviews()?;
        }
        self.dispatch()?;
        Ok(self.o.until == Until::Empty && self.procs.is_empty() && !self.others_working()?)
    }

    fn interrupted(&self) -> Option<Stop> {
        if self.cancel.is_cancelled() {
            return Some(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Stop::TimedOut);
        }
        None
    }

    fn lead_busy(&self) -> bool {
        self.procs.running().any(|s| s.role == Role::Lead)
    }

    /// Starts a turn of the lead, in the team run's session; its run id.
    fn lead_turn(&mut self, message: &str) -> Result<String> {
        let run_id = uuid::Uuid::now_v7().to_string();
        let session = RunFlags {
            session: Some(format!("team-run:{}", self.team_run_id)),
            ..RunFlags::default()
        };
        let lead = self.team.lead.clone();
        let started = self
            .procs
            .start(&run_id, &lead, Role::Lead, (message, session))?;
        self.dispatched(&started);
        Ok(run_id)
    }

    fn dispatched(&mut self, s: &Started) {
        let (role, task) = match &s.role {
            Role::Lead => ("lead", None),
            Role::Member { task_id } => ("member", Some(task_id.clone())),
            Role::Review { task_id } => ("review", Some(task_id.clone())),
        };
        if let Some(t) = &task {
            self.touched.insert(t.clone());
        }
        self.emit(TeamEvent::new(
            "team.dispatched",
            &self.team_run_id,
            task.as_deref(),
            TeamEventData::Dispatched {
                agent: s.agent.clone(),
                role,
                child_run_id: s.run_id.clone(),
            },
        ));
    }

    /// Unread escalations for the lead (its next turn reads them).
    fn escalation_waiting(&self) -> Result<bool> {
        Ok(mailbox::unread_from(self.store.db(), &self.team, &self.team.lead, ESCALATION)? > 0)
    }

    /// Tasks waiting for a run that used all their dispatches fail (a run that cannot start,
    /// a blocker retried again and again): the team run never loops on one task.
    fn give_up_spent(&mut self) -> Result<()> {
        let spent = board::snapshot(
            self.store.db(),
            self.team.id,
            Watch::Spent(self.max_dispatches),
        )?;
        for t in spent {
            let reason = format!(
                "dispatched {} times without ending (the team's max_task_dispatches)",
                t.dispatch_count
            );
            // A task this run fails is this run's to report, though it dispatched none.
            if Board::system(self.store.db(), self.team.clone())
                .give_up(&t.task.id, &reason)?
                .is_some()
            {
                self.touched.insert(t.task.id);
            }
        }
        Ok(())
    }

    /// Starts members' runs: for each idle worker, a task it holds that waits for it (given
    /// back after a rejected review), else the next task it may claim.
    fn dispatch(&mut self) -> Result<()> {
        self.give_up_spent()?;
        // One task per member at a time, across dispatchers: a member another team run (or
        // `team work` elsewhere) has working is busy here too.
        let mut busy: BTreeSet<String> = self
            .procs
            .running()
            .filter(|s| matches!(s.role, Role::Member { .. }))
            .map(|s| s.agent.clone())
            .collect();
        let mut working = busy.len();
        busy.extend(Board::live_owners(self.store.db(), self.team.id)?);
        // The workers that ran least first, so work spreads over the team.
        let mut workers = self.workers.clone();
        workers.sort_by_key(|w| self.runs_of.get(w).copied().unwrap_or(0));
        for worker in workers {
            if working >= self.max_workers {
                break;
            }
            if busy.contains(&worker) {
                continue;
            }
            let run_id = uuid::Uuid::now_v7().to_string();
            let Some(task_id) = self.next_task(&worker, &run_id)? else {
                continue;
            };
            let started = self.procs.start(
                &run_id,
                &worker,
                Role::Member {
                    task_id: task_id.clone(),
                },
                (
                    "",
                    RunFlags {
                        task: Some(task_id.clone()),
                        ..RunFlags::default()
                    },
                ),
            );
            match started {
                Ok(s) => {
                    self.dispatched(&s);
                    *self.runs_of.entry(worker.clone()).or_default() += 1;
                    working += 1;
                }
                Err(e) => {
                    // The claim goes back: nothing runs on it.
                    let mut b = Board::system(self.store.db(), self.team.clone());
                    b.end_run(&task_id, &run_id, &RunEnd::Release)?;
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// The task `worker`'s next run works on: one it holds without a run (its run records
    /// itself), else one claimed for `run_id`.
    fn next_task(&mut self, worker: &str, run_id: &str) -> Result<Option<String>> {
        let held = board::snapshot(self.store.db(), self.team.id, Watch::HeldWithoutRun(worker))?
            .into_iter()
            .next();
        let mut b = Board::open(self.store.db(), self.team.clone(), worker)?;
        if let Some(t) = held {
            if t.dispatch_count >= self.max_dispatches {
                // Rejected too often: it fails, past its retries.
                b.take_for_run(&t.task.id, run_id)?;
                b.end_run(
                    &t.task.id,
                    run_id,
                    &RunEnd::Fail(format!(
                        "not accepted after {} runs (the team's max_task_dispatches)",
                        t.dispatch_count
                    )),
                )?;
                return Ok(None);
            }
            b.count_dispatch(&t.task.id)?;
            return Ok(Some(t.task.id));
        }
        Ok(b.claim_for_run(None, run_id, Some(self.max_dispatches))?
            .map(|t| t.id))
    }

    /// Tasks submitted for review by a run, reviewed by the reviewer (one review at a time per
    /// task, at most `max_task_dispatches` per task).
    fn start_reviews(&mut self) -> Result<()> {
        let reviewing: BTreeSet<String> = self
            .procs
            .running()
            .filter_map(|s| match &s.role {
                Role::Review { task_id } => Some(task_id.clone()),
                _ => None,
            })
            .collect();
        let waiting: Vec<TaskState> =
            board::snapshot(self.store.db(), self.team.id, Watch::Submitted)?
                .into_iter()
                .filter(|t| !reviewing.contains(&t.task.id))
                .filter(|t| {
                    self.reviews.get(&t.task.id).copied().unwrap_or(0) < self.max_dispatches
                })
                .collect();
        for t in waiting {
            let description = Board::system(self.store.db(), self.team.clone())
                .get(&t.task.id)?
                .description;
            let message = review_message(&t, &description);
            let run_id = uuid::Uuid::now_v7().to_string();
            let reviewer = self.reviewer.clone();
            let s = self.procs.start(
                &run_id,
                &reviewer,
                Role::Review {
                    task_id: t.task.id.clone(),
                },
                (
                    &message,
                    RunFlags {
                        skip_gates: true,
                        ..RunFlags::default()
                    },
                ),
            )?;
            *self.reviews.entry(t.task.id.clone()).or_default() += 1;
            self.dispatched(&s);
        }
        Ok(())
    }

    /// Runs of other dispatchers (or `team work` elsewhere) working on this board, or about to:
    /// a task another dispatcher claimed a moment ago has no running run yet.
    fn others_working(&self) -> Result<bool> {
        Ok(Board::live_claims(self.store.db(), self.team.id)? > 0)
    }

    /// Stops every run; a task a stopped run still holds goes back to pending. A run that
    /// ended cancelled was stopped by the user, not failed by its task: its dispatch is not
    /// counted against `max_task_dispatches` (three Ctrl-C would fail the task for good).
    fn stop_everything(&mut self) -> Result<()> {
        let ended = self.procs.stop_all(STOP_GRACE);
        // After a lost connection, one more attempt: each stopped run gives its task back
        // itself, the dispatcher's release is the safety net.
        self.connect_once_more();
        // Ends seen before the stop are written as they came.
        while let Some(e) = self.unsettled.pop_front() {
            tolerate(self.on_end(&e))?;
        }
        for e in ended {
            if let Role::Member { task_id } = &e.started.role {
                let mut board = Board::system(self.store.db(), self.team.clone());
                board.end_run(task_id, &e.started.run_id, &RunEnd::Release)?;
                board.uncount_stopped_dispatch(task_id, &e.started.run_id)?;
            }
        }
        self.send_board_events(true)
    }
}

/// The board moved on while a run ended (a task cancelled by the lead during its review, two
/// dispatchers' reviewers judging one task): a refusal then is no reason to stop the team run.
fn tolerate(r: Result<()>) -> Result<()> {
    match r {
        Err(e)
            if matches!(
                e.kind,
                ErrorKind::Conflict | ErrorKind::NotFound | ErrorKind::Denied
            ) =>
        {
            Ok(())
        }
        other => other,
    }
}

/// The lead's turn on an escalation (the escalation itself arrives as a team message).
const ESCALATION_TURN: &str = "[Team dispatcher] A task of your team was blocked and failed (the escalation is above). Decide what to do: give it new instructions and retry it (team_tasks update, then retry), cancel it, or create other tasks. The members keep working meanwhile.";

/// What a reviewer is asked about a task submitted for review.
fn review_message(t: &TaskState, description: &str) -> String {
    format!(
        "Review the result of team task #{} \"{}\" ({}).\n\nThe task:\n<task>\n{}\n</task>\n\n\
         Its result:\n<result>\n{}\n</result>\n\n\
         Reply with exactly one of:\nAPPROVED\nREJECTED: <what must change>",
        t.task.task_number,
        t.task.subject,
        t.task.identifier,
        description.trim(),
        t.result.as_deref().unwrap_or("").trim()
    )
}
