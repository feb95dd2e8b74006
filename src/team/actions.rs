//! The board's actions as one typed vocabulary: [`Action`] says what to do, [`apply`] does it on
//! a [`Board`] and returns a [`Reply`]. The `team_tasks` tool turns an agent's JSON into an
//! `Action`, `goclaw tasks` turns flags into one; each renders the reply its own way (the tool as
//! the text a model reads, the command as JSON or a line for people). So the two never drift.

use super::board::{Board, Changes, Detail, Event, NewTask, Page, PageRequest, Recovered, Task};
use crate::error::Result;

/// One action on the board, by the board's acting agent.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A page of tasks, highest priority first.
    List {
        status: String,
        page: PageRequest,
    },
    Get {
        task: String,
    },
    /// A page of the tasks matching a query, best first.
    Search {
        query: String,
        page: PageRequest,
    },
    /// A page of the event log of one task or the whole board, oldest first.
    Events {
        task: Option<String>,
        page: PageRequest,
    },
    Create(NewTask),
    /// Claim this task, or (`None`) the most urgent one the agent may take.
    Claim {
        task: Option<String>,
    },
    Complete {
        task: String,
        result: String,
    },
    Fail {
        task: String,
        reason: String,
    },
    Cancel {
        task: String,
        reason: String,
    },
    Assign {
        task: String,
        to: String,
    },
    Review {
        task: String,
        /// The result submitted (default: the one the task has).
        result: Option<String>,
    },
    Approve {
        task: String,
    },
    Reject {
        task: String,
        reason: String,
    },
    Retry {
        task: String,
    },
    Comment {
        task: String,
        text: String,
        blocker: bool,
    },
    Progress {
        task: String,
        percent: i64,
        step: Option<String>,
    },
    Attach {
        task: String,
        path: String,
    },
    Update {
        task: String,
        changes: Changes,
    },
    /// Ask the user a question about the task, or (`None`) clear it.
    AskUser {
        task: String,
        question: Option<String>,
    },
    Recover,
}

/// What an action returns.
#[derive(Debug, Clone)]
pub enum Reply {
    /// The task after a transition or an edit.
    Task(Task),
    Created {
        task: Task,
        /// `false`: a task with the same dedupe key already existed, and this is it.
        created: bool,
    },
    /// A page of tasks (a listing or a search).
    Tasks(Page<Task>),
    Detail(Box<Detail>),
    Events(Page<Event>),
    /// The claimed task; `None` when there was nothing to claim.
    Claimed(Option<Task>),
    Commented {
        task: Task,
        note: String,
    },
    Recovered(Recovered),
}

/// Does `action` on `board`.
pub fn apply(board: &mut Board<'_>, action: Action) -> Result<Reply> {
    use Action as A;
    Ok(match action {
        A::List { status, page } => Reply::Tasks(board.list(&status, &page)?),
        A::Get { task } => Reply::Detail(Box::new(board.get(&task)?)),
        A::Search { query, page } => Reply::Tasks(board.search(&query, &page)?),
        A::Events { task, page } => Reply::Events(board.events(task.as_deref(), &page)?),
        A::Create(new) => {
            let (task, created) = board.create(new)?;
            Reply::Created { task, created }
        }
        A::Claim { task: Some(key) } => Reply::Claimed(Some(board.claim(&key)?)),
        A::Claim { task: None } => Reply::Claimed(board.claim_next()?),
        A::Complete { task, result } => Reply::Task(board.complete(&task, &result)?),
        A::Fail { task, reason } => Reply::Task(board.fail(&task, &reason)?),
        A::Cancel { task, reason } => Reply::Task(board.cancel(&task, &reason)?),
        A::Assign { task, to } => Reply::Task(board.assign(&task, &to)?),
        A::Review { task, result } => Reply::Task(board.review(&task, result.as_deref())?),
        A::Approve { task } => Reply::Task(board.approve(&task)?),
        A::Reject { task, reason } => Reply::Task(board.reject(&task, &reason)?),
        A::Retry { task } => Reply::Task(board.retry(&task)?),
        A::Comment {
            task,
            text,
            blocker,
        } => {
            let (task, note) = board.comment(&task, &text, blocker)?;
            Reply::Commented { task, note }
        }
        A::Progress {
            task,
            percent,
            step,
        } => Reply::Task(board.progress(&task, percent, step.as_deref())?),
        A::Attach { task, path } => Reply::Task(board.attach(&task, &path)?),
        A::Update { task, changes } => Reply::Task(board.update(&task, changes)?),
        A::AskUser { task, question } => Reply::Task(board.ask_user(&task, question.as_deref())?),
        A::Recover => Reply::Recovered(board.recover()?),
    })
}
