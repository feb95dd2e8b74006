//! The team run's own events in the `--events` stream, beside the lead's and members' run events
//! (relayed as they come): `team.started`, `team.dispatched` (a run started, with its role),
//! `task.<event>` for every change on the board (`task.claimed`, `task.completed`, …, as
//! `goclaw tasks events` names them), `team.disconnected` and `team.reconnected` (the store's
//! connection lost and made again) and `team.completed`. Every event has the envelope of run
//! events: `v`, `type`, `run_id` (the team run's), `task_id` when about a task, `ts`.

use serde::Serialize;
use serde_json::Value;

use crate::agent::events::EVENT_VERSION;
use crate::store::now_ms;
use crate::team::board::Event as BoardEvent;

/// One event of a team run.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TeamEvent {
    /// The format's version (1).
    pub v: u32,
    /// `team.started`, `team.dispatched`, `team.disconnected`, `team.reconnected`,
    /// `team.completed`, or `task.<event>` (a change on the board, as `goclaw tasks events`
    /// names it).
    #[serde(rename = "type")]
    #[schemars(regex(
        pattern = r"^(team\.(started|dispatched|disconnected|reconnected|completed)|task\.[a-z_]+)$"
    ))]
    pub kind: String,
    /// The team run's id.
    pub run_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    #[serde(flatten)]
    pub data: TeamEventData,
    /// Unix milliseconds.
    pub ts: i64,
}

/// What an event says.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum TeamEventData {
    Started {
        team: String,
        lead: String,
        workers: Vec<String>,
    },
    Dispatched {
        agent: String,
        role: &'static str,
        child_run_id: String,
    },
    Board {
        identifier: String,
        actor: String,
        data: Value,
    },
    /// The store's connection was lost (the dispatcher connects again).
    Disconnected { error: String },
    /// Connected again, this long after the loss.
    Reconnected { after_ms: u64 },
    Completed {
        status: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        answer: Option<String>,
        failed: Vec<String>,
    },
}

impl TeamEvent {
    pub fn new(kind: &str, run_id: &str, task_id: Option<&str>, data: TeamEventData) -> TeamEvent {
        TeamEvent {
            v: EVENT_VERSION,
            kind: kind.to_string(),
            run_id: run_id.to_string(),
            task_id: task_id.map(str::to_string),
            data,
            ts: now_ms(),
        }
    }

    /// A change on the board, as `task.<event>`.
    pub fn board(run_id: &str, e: &BoardEvent) -> TeamEvent {
        let mut ev = TeamEvent::new(
            &format!("task.{}", e.event),
            run_id,
            Some(&e.task_id),
            TeamEventData::Board {
                identifier: e.identifier.clone(),
                actor: e.actor.clone(),
                data: e.data.clone(),
            },
        );
        ev.ts = e.at;
        ev
    }
}
