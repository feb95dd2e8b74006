//! What the gate reports of a call: its [`Status`], the result, why it did not run, the
//! decisions made on the way and the audit row's id; and the outcome as text for a model or an
//! MCP client.

use serde::Serialize;
use serde_json::Value;

use crate::error::{ErrorKind, Result};
use crate::tools::ToolResult;

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    Error,
    Denied,
    Limited,
    Invalid,
    NotFound,
    DryRun,
}

/// What the gate reports.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub tool: String,
    pub status: Status,
    pub result: Option<ToolResult>,
    /// Why, for anything but a plain run.
    pub message: Option<String>,
    /// The decisions made on the way.
    pub decision: Value,
    /// The audit record's id.
    pub call_id: i64,
    #[serde(skip)]
    pub kind: Option<ErrorKind>,
    /// Why the call's end could not be written to its audit record (a full disk), when the
    /// tool ran: its record says it started, with its arguments, and its result is still
    /// given, not lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audit_error: Option<String>,
}

/// What the caller of a call (a model, an MCP client) is told: the outcome's
/// [`reply`](Outcome::reply), or why the gate itself failed; and whether that is an error.
pub fn answer(outcome: Result<Outcome>) -> (String, bool) {
    match outcome {
        Err(e) => (e.message, true),
        Ok(o) => (o.reply(), o.error_kind().is_some()),
    }
}

impl Outcome {
    /// The outcome as text: the result, or why the call did not run. For a failure, the
    /// gate's reason comes first; for a success, the tool's result.
    pub fn reply(&self) -> String {
        let result = self.result.as_ref().map(|r| r.for_llm.clone());
        if self.error_kind().is_some() {
            self.message
                .clone()
                .or(result)
                .unwrap_or_else(|| "the tool call failed".into())
        } else {
            result.or_else(|| self.message.clone()).unwrap_or_default()
        }
    }

    /// What to do about a failed call, when there is something: a deny group that may be
    /// turned off, a command's time limit that may be raised.
    pub fn hint(&self) -> Option<String> {
        if let Some(group) = self.decision["deny"]["group"].as_str() {
            return Some(format!(
                "the deny group `{group}` matched; `[tools.exec] deny_groups = {{ {group} = false }}` turns it off (also per agent)"
            ));
        }
        let timed_out = self.error_kind() == Some(ErrorKind::Timeout) && self.tool == "exec";
        timed_out.then(|| {
            "a call may ask for more time with \"timeout\" (seconds, at most 1800); [tools.exec] timeout_secs sets the default".to_string()
        })
    }

    /// The error kind a command line maps this outcome to (`None`: success).
    pub fn error_kind(&self) -> Option<ErrorKind> {
        match self.status {
            Status::Ok | Status::DryRun => None,
            Status::Error if self.kind.is_some() => self.kind,
            Status::Error => Some(ErrorKind::Failed),
            Status::Denied => Some(ErrorKind::Denied),
            Status::Limited => Some(ErrorKind::Limited),
            Status::Invalid => Some(ErrorKind::Usage),
            Status::NotFound => Some(ErrorKind::NotFound),
        }
    }
}
