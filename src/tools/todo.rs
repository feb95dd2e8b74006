//! `todo` (seed 004's TodoWrite): the session's task list, kept in the store. A call with
//! `todos` replaces the whole list (the model sends it back with statuses changed); a call
//! without returns it. At most one item may be `in_progress`, so the list always says what is
//! being worked on now.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::db_params;
use crate::error::{Error, Result};
use crate::store::db::Begin;
use crate::store::{Store, now_ms};

/// Most items a list may hold.
const MAX_ITEMS: usize = 100;

/// One item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Todo {
    pub content: String,
    pub status: Status,
    /// The present-continuous form shown while it is in progress ("Running the tests").
    #[serde(
        default,
        rename = "activeForm",
        skip_serializing_if = "String::is_empty"
    )]
    pub active_form: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pending,
    InProgress,
    Completed,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::InProgress => "in_progress",
            Status::Completed => "completed",
        }
    }
    fn parse(s: &str) -> Status {
        match s {
            "in_progress" => Status::InProgress,
            "completed" => Status::Completed,
            _ => Status::Pending,
        }
    }
}

/// The session's list.
pub fn load(store: &Store, session: &str) -> Result<Vec<Todo>> {
    store.db().query_map(
        "SELECT content, status, active_form FROM todos WHERE session_key = ?1 ORDER BY position",
        db_params![session],
        |r| {
            Ok(Todo {
                content: r.get(0)?,
                status: Status::parse(&r.get::<String>(1)?),
                active_form: r.get(2)?,
            })
        },
    )
}

/// Replaces the session's list in one transaction.
pub fn save(store: &mut Store, session: &str, todos: &[Todo]) -> Result<()> {
    if todos.len() > MAX_ITEMS {
        return Err(Error::usage(format!(
            "a todo list holds at most {MAX_ITEMS} items"
        )));
    }
    if let Some(empty) = todos.iter().position(|t| t.content.trim().is_empty()) {
        return Err(Error::usage(format!("todos[{empty}].content is empty")));
    }
    if todos
        .iter()
        .filter(|t| t.status == Status::InProgress)
        .count()
        > 1
    {
        return Err(Error::usage(
            "only one todo may be in_progress at a time; finish or reset the others first",
        ));
    }
    let tx = store.db().transaction(Begin::Write)?;
    tx.execute(
        "DELETE FROM todos WHERE session_key = ?1",
        db_params![session],
    )?;
    let now = now_ms();
    for (i, t) in todos.iter().enumerate() {
        tx.execute(
            "INSERT INTO todos (session_key, position, content, status, active_form, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            db_params![
                session,
                i as i64,
                t.content.trim(),
                t.status.as_str(),
                t.active_form,
                now
            ],
        )?;
    }
    tx.commit()
}

/// `todo`.
pub struct TodoTool;

impl Tool for TodoTool {
    fn in_call_order(&self) -> bool {
        true
    }
    fn name(&self) -> &str {
        "todo"
    }
    fn description(&self) -> &str {
        "Keep a task list for this session. Send `todos` (the whole list, each with content and status pending|in_progress|completed) to replace it; send nothing to read it. Keep exactly one item in_progress while you work."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "todos":{"type":"array","description":"The whole list, in order (replaces the stored one)",
                "items":{"type":"object","properties":{
                    "content":{"type":"string","description":"What to do"},
                    "status":{"type":"string","enum":["pending","in_progress","completed"]},
                    "activeForm":{"type":"string","description":"Shown while in progress, e.g. \"Running the tests\""}},
                    "required":["content","status"]}}}})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        let Some(session) = ctx.session_key.as_deref() else {
            return ToolResult::error(
                "todo keeps a list per session: call it with a session (--session KEY)",
            );
        };
        let result = (|| -> Result<Vec<Todo>> {
            if let Some(todos) = args.get("todos") {
                let todos: Vec<Todo> = serde_json::from_value(todos.clone())
                    .map_err(|e| Error::usage(format!("invalid todos: {e}")))?;
                save(store, session, &todos)?;
            }
            load(store, session)
        })();
        match result {
            Err(e) => ToolResult::from_error(&e),
            Ok(todos) => {
                let done = todos
                    .iter()
                    .filter(|t| t.status == Status::Completed)
                    .count();
                ToolResult::text(
                    serde_json::to_string_pretty(&json!({
                        "todos": todos, "count": todos.len(), "completed": done}))
                    .unwrap_or_default(),
                )
            }
        }
    }
}
