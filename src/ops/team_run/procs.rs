//! The runs a team run starts: the lead's turns, members' runs on tasks and reviews, each a
//! `goclaw run` process (see [`crate::tools::child_run`]) linked to the team run by its
//! `parent_run_id`, ending with the dispatcher's process (they watch it). Their exits arrive on
//! one channel, so the dispatcher sleeps until something ends or its next look at the board.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::tools::child_run::{self, ChildRun, RunFlags};
use crate::tools::gate::SharedRelay;

/// What a started run is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// A turn of the lead.
    Lead,
    /// A member working on a task (its id).
    Member { task_id: String },
    /// A review of a task (its id) by a reviewer.
    Review { task_id: String },
}

/// A run started and not yet seen ending.
#[derive(Debug, Clone)]
pub struct Started {
    pub run_id: String,
    pub agent: String,
    pub role: Role,
    pub pid: u32,
}

/// A run that ended: what it was, and how its process exited.
#[derive(Debug)]
pub struct Ended {
    pub started: Started,
    pub exit: std::io::Result<ExitStatus>,
}

/// Where and how runs are started.
pub struct Launcher {
    pub store: crate::store::StoreTarget,
    pub workspace: PathBuf,
    pub config: Option<PathBuf>,
    pub team: String,
    /// The team's directory (`teams/<team>` in the workspace), made sure of: a reviewer's.
    pub team_dir: PathBuf,
    /// The team run's id: every run's `parent_run_id`.
    pub team_run_id: String,
    pub relay: Option<SharedRelay>,
}

/// The runs under way, and the channel their exits come back on.
pub struct Procs {
    launcher: Launcher,
    running: BTreeMap<String, Started>,
    exits_tx: Sender<(String, std::io::Result<ExitStatus>)>,
    exits: Receiver<(String, std::io::Result<ExitStatus>)>,
}

impl Procs {
    pub fn new(launcher: Launcher) -> Procs {
        let (exits_tx, exits) = channel();
        Procs {
            launcher,
            running: BTreeMap::new(),
            exits_tx,
            exits,
        }
    }

    /// Starts `agent`'s run with `message` (`--task`, `--session` and `--skip-gates` as the role
    /// needs); the run's id is chosen here, so a claim can name it first.
    pub fn start(
        &mut self,
        run_id: &str,
        agent: &str,
        role: Role,
        (message, extra): (&str, RunFlags),
    ) -> Result<Started> {
        let l = &self.launcher;
        let flags = RunFlags {
            on_ask: Some("deny".into()),
            run_id: Some(run_id.to_string()),
            parent_run: Some(l.team_run_id.clone()),
            depth: Some(0),
            agent: Some(agent.to_string()),
            // A reviewer judges a result; it is not the team's (no TEAM.md, no mailbox).
            team: (!matches!(role, Role::Review { .. })).then(|| l.team.clone()),
            label: Some(match &role {
                Role::Lead => "lead".to_string(),
                Role::Member { .. } => format!("member:{agent}"),
                Role::Review { .. } => format!("review:{agent}"),
            }),
            ..extra
        };
        let tx = self.exits_tx.clone();
        let id = run_id.to_string();
        // A reviewer looks at the team's directory, where the work is, and works nowhere else.
        let workspace = match &role {
            Role::Review { .. } => l.team_dir.clone(),
            _ => l.workspace.clone(),
        };
        let pid = child_run::start(
            ChildRun {
                store: &l.store,
                workspace: &workspace,
                config: l.config.as_deref(),
                flags,
                message,
                relay: l.relay.clone(),
            },
            move |exit| {
                let _ = tx.send((id, exit));
            },
        )
        .map_err(|e| Error::internal(format!("cannot start {agent}'s run: {e}")))?
        .pid;
        let started = Started {
            run_id: run_id.to_string(),
            agent: agent.to_string(),
            role,
            pid,
        };
        self.running.insert(run_id.to_string(), started.clone());
        Ok(started)
    }

    /// The runs under way.
    pub fn running(&self) -> impl Iterator<Item = &Started> {
        self.running.values()
    }

    pub fn is_empty(&self) -> bool {
        self.running.is_empty()
    }

    /// The runs that ended, waiting up to `wait` for the first.
    pub fn ended(&mut self, wait: Duration) -> Vec<Ended> {
        let mut out = Vec::new();
        let first = self.exits.recv_timeout(wait).ok();
        for (run_id, exit) in first.into_iter().chain(self.exits.try_iter()) {
            if let Some(started) = self.running.remove(&run_id) {
                out.push(Ended { started, exit });
            }
        }
        out
    }

    /// Stops every run: SIGTERM (each ends cancelled, giving its task back), then after
    /// `grace` SIGKILL to the process group of any still there. Returns the runs that ended.
    pub fn stop_all(&mut self, grace: Duration) -> Vec<Ended> {
        for s in self.running.values() {
            crate::subagents::terminate(i64::from(s.pid));
        }
        let deadline = Instant::now() + grace;
        let mut out = Vec::new();
        while !self.running.is_empty() && Instant::now() < deadline {
            out.extend(self.ended(Duration::from_millis(50)));
        }
        for s in self.running.values() {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(s.pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        let deadline = Instant::now() + Duration::from_secs(2);
        while !self.running.is_empty() && Instant::now() < deadline {
            out.extend(self.ended(Duration::from_millis(50)));
        }
        out
    }
}
