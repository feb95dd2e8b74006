//! What the gate decides of a call, stage by stage, as typed records: the [`Decision`] kept in
//! the audit row (and shown by `--dry-run` and `policy explain`), the [`Verdict`] that says
//! whether the call may run, and the [`CallEnd`] of a call that stopped or ran.

use serde::Serialize;

use super::Status;
use crate::error::ErrorKind;
use crate::tools::ToolResult;
use crate::tools::exec::ApprovalMode;
use crate::tools::exec::approvals::{self, Subject};
use crate::tools::exec::sandbox::Kind;

/// The decisions made on the way, in stage order; a stage not reached is absent.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Decision {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicyCheck>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<RateCheck>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deny: Option<DenyCheck>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval: Option<approvals::Decision>,
    /// What the person at the terminal answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<String>,
    /// What `--on-ask` decided when nobody could be asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_ask: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxCheck>,
}

/// The policy stage: is the tool in the caller's final list; if not, the step that removed it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PolicyCheck {
    pub allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The rate limit stage, when it refused.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RateCheck {
    pub allowed: bool,
    pub per_hour: u32,
}

/// The tool's review, when a deny pattern refused the call.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DenyCheck {
    pub group: String,
    pub pattern: String,
}

/// The sandbox a command would run in, or why none can be made.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum SandboxCheck {
    Plan {
        kind: Kind,
        network: bool,
        describe: String,
    },
    Error {
        error: String,
    },
}

/// Whether a call may run.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// Every stage let it through.
    Run,
    /// It needs an approval decision from a person (or `--on-ask`).
    Ask { subject: Subject, reason: String },
    /// A stage stopped it.
    Stop(CallEnd),
}

/// What a review that asks for approval was about, for explanations.
#[derive(Debug, Clone)]
pub struct ApprovalSubject {
    pub subject: Subject,
    pub mode: ApprovalMode,
}

/// How a call ended inside the gate.
#[derive(Debug, Clone)]
pub struct CallEnd {
    pub status: Status,
    pub result: Option<ToolResult>,
    /// Why, for anything but a plain run.
    pub message: Option<String>,
    /// The error kind of a failed tool (a timeout, a conflict), when it is not plain failure.
    pub kind: Option<ErrorKind>,
}

impl CallEnd {
    /// Stopped with `status` for `message`.
    pub fn stop(status: Status, message: impl Into<String>) -> CallEnd {
        CallEnd {
            status,
            result: None,
            message: Some(message.into()),
            kind: None,
        }
    }

    /// Ended with a tool error the model should see (not a refusal).
    pub fn tool_error(result: ToolResult) -> CallEnd {
        CallEnd {
            status: Status::Error,
            kind: result.error_kind,
            result: Some(result),
            message: None,
        }
    }

    /// The tool ran.
    pub fn ran(result: ToolResult) -> CallEnd {
        CallEnd {
            status: if result.is_error {
                Status::Error
            } else {
                Status::Ok
            },
            kind: result.error_kind,
            result: Some(result),
            message: None,
        }
    }
}
