//! The one error type of the crate and the exit-code table. Every failure carries an
//! [`ErrorKind`], which alone decides the process exit code; the message names what was wrong
//! and the hint, when there is one, says what to do about it. This is the only place that maps
//! failures to exit codes.

use std::fmt;
use std::path::Path;

use serde::Serialize;

/// What kind of failure this is; each kind has one stable exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The operation ran and failed (a tool returned an error, a check found something).
    Failed,
    /// Bad flags or invalid input (malformed JSON, schema violation, unknown option).
    Usage,
    /// Refused by policy, a deny pattern, an approval, or the input guard in block mode.
    Denied,
    /// Rate limit, budget or concurrency limit reached.
    Limited,
    /// Unknown tool, task, session, server, file.
    NotFound,
    /// State transition not allowed, claim lost to another worker, duplicate.
    Conflict,
    /// A time limit was reached.
    Timeout,
    /// An LLM provider, MCP server or network peer failed.
    Upstream,
    /// A bug in goclaw.
    Internal,
    /// Stopped by SIGHUP (the terminal that ran it closed), unless started with it ignored.
    HungUp,
    /// Interrupted by SIGINT.
    Interrupted,
    /// Stopped by SIGTERM.
    Terminated,
}

impl ErrorKind {
    /// Every kind, in exit-code order.
    pub const ALL: [ErrorKind; 12] = [
        ErrorKind::Failed,
        ErrorKind::Usage,
        ErrorKind::Denied,
        ErrorKind::Limited,
        ErrorKind::NotFound,
        ErrorKind::Conflict,
        ErrorKind::Timeout,
        ErrorKind::Upstream,
        ErrorKind::Internal,
        ErrorKind::HungUp,
        ErrorKind::Interrupted,
        ErrorKind::Terminated,
    ];

    /// The kind whose exit code is `code` (a process's, a stored run's), if any.
    pub fn from_exit_code(code: i64) -> Option<ErrorKind> {
        ErrorKind::ALL
            .into_iter()
            .find(|k| i64::from(k.exit_code()) == code)
    }

    pub fn exit_code(self) -> u8 {
        match self {
            ErrorKind::Failed => 1,
            ErrorKind::Usage => 2,
            ErrorKind::Denied => 3,
            ErrorKind::Limited => 4,
            ErrorKind::NotFound => 5,
            ErrorKind::Conflict => 6,
            ErrorKind::Timeout => 7,
            ErrorKind::Upstream => 8,
            ErrorKind::Internal => 10,
            ErrorKind::HungUp => 129,
            ErrorKind::Interrupted => 130,
            ErrorKind::Terminated => 143,
        }
    }

    /// The stable name used as `error.code` in the JSON error document.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Failed => "failed",
            ErrorKind::Usage => "usage",
            ErrorKind::Denied => "denied",
            ErrorKind::Limited => "limited",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Conflict => "conflict",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Upstream => "upstream",
            ErrorKind::Internal => "internal",
            ErrorKind::HungUp => "hangup",
            ErrorKind::Interrupted => "interrupted",
            ErrorKind::Terminated => "terminated",
        }
    }

    /// How a message says that this kind's signal stopped the work: "hung up (SIGHUP)",
    /// "interrupted (SIGINT)", "terminated (SIGTERM)"; `None` for a kind no signal gives.
    pub fn stop_text(self) -> Option<&'static str> {
        match self {
            ErrorKind::HungUp => Some("hung up (SIGHUP)"),
            ErrorKind::Interrupted => Some("interrupted (SIGINT)"),
            ErrorKind::Terminated => Some("terminated (SIGTERM)"),
            _ => None,
        }
    }

    pub fn meaning(self) -> &'static str {
        match self {
            ErrorKind::Failed => {
                "the operation ran and failed (a tool returned an error, a check found something, a run failed)"
            }
            ErrorKind::Usage => {
                "bad flags or invalid input (malformed JSON, schema violation, unknown option, a tool called without a required argument or with a pattern it cannot read)"
            }
            ErrorKind::Denied => {
                "refused by policy, a deny pattern, an approval, or the input guard in block mode"
            }
            ErrorKind::Limited => "rate limit, budget or concurrency limit reached",
            ErrorKind::NotFound => "unknown tool, task, session, server, file",
            ErrorKind::Conflict => {
                "state transition not allowed, claim lost to another worker, duplicate"
            }
            ErrorKind::Timeout => "a time limit was reached",
            ErrorKind::Upstream => "an LLM provider, MCP server or network peer failed",
            ErrorKind::Internal => "a bug",
            ErrorKind::HungUp => "SIGHUP",
            ErrorKind::Interrupted => "SIGINT",
            ErrorKind::Terminated => "SIGTERM",
        }
    }
}

/// The exit-code table as text: for `goclaw help exit-codes`, the long help and the README.
/// Meanings are wrapped to fit 80 columns, their next lines under the first: clap would wrap
/// them at the terminal's width back to the left edge.
pub fn exit_code_table() -> String {
    const INDENT: usize = 20;
    const WIDTH: usize = 79 - INDENT;
    let mut s = String::from("Exit codes:\n  0    ok           success\n");
    for kind in ErrorKind::ALL {
        s.push_str(&format!("  {:<4} {:<12}", kind.exit_code(), kind.name()));
        let mut line = 0;
        for word in kind.meaning().split(' ') {
            if line > 0 && line + 1 + word.len() > WIDTH {
                // The space before the word completes the indent.
                s.push_str(&format!("\n{:1$}", "", INDENT - 1));
                line = 0;
            }
            s.push(' ');
            s.push_str(word);
            line += 1 + word.len();
        }
        s.push('\n');
    }
    s
}

/// A failure: its kind, a message naming what was wrong, an optional hint and optional
/// structured details (printed inside the JSON error document).
#[derive(Debug, Clone)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    pub hint: Option<String>,
    pub details: Option<Box<serde_json::Value>>,
    /// The reader of our output went away (closed pipe): a normal end, not a failure.
    closed_pipe: bool,
    /// Writing standard output failed otherwise (a terminal that hung up: EIO).
    stdout_failed: bool,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            hint: None,
            details: None,
            closed_pipe: false,
            stdout_failed: false,
        }
    }
    pub fn failed(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Failed, message)
    }
    pub fn usage(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Usage, message)
    }
    pub fn denied(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Denied, message)
    }
    pub fn not_found(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::NotFound, message)
    }
    pub fn conflict(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Conflict, message)
    }
    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Internal, message)
    }
    /// An LLM provider, MCP server or network peer failed (exit 8).
    pub fn upstream(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Upstream, message)
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Error {
        self.hint = Some(hint.into());
        self
    }

    pub fn with_details(mut self, details: serde_json::Value) -> Error {
        self.details = Some(Box::new(details));
        self
    }

    /// The downstream reader closed the pipe.
    pub fn closed_pipe() -> Error {
        let mut e = Error::new(ErrorKind::Failed, "output closed");
        e.closed_pipe = true;
        e
    }

    pub fn is_closed_pipe(&self) -> bool {
        self.closed_pipe
    }

    /// An I/O failure on `path`, classified by what went wrong.
    pub fn io(action: &str, path: &Path, err: &std::io::Error) -> Error {
        use std::io::ErrorKind as Io;
        let kind = match err.kind() {
            Io::NotFound => ErrorKind::NotFound,
            Io::PermissionDenied => ErrorKind::Denied,
            Io::AlreadyExists => ErrorKind::Conflict,
            Io::BrokenPipe => return Error::closed_pipe(),
            Io::InvalidInput | Io::InvalidData | Io::IsADirectory | Io::NotADirectory => {
                ErrorKind::Usage
            }
            Io::TimedOut => ErrorKind::Timeout,
            Io::Interrupted => ErrorKind::Interrupted,
            _ => ErrorKind::Failed,
        };
        Error::new(
            kind,
            format!(
                "cannot {action} {}: {}",
                path.display(),
                plain_io_message(err)
            ),
        )
    }

    /// A failure writing to standard output: a closed pipe is a normal end.
    pub fn stdout(err: std::io::Error) -> Error {
        if err.kind() == std::io::ErrorKind::BrokenPipe {
            Error::closed_pipe()
        } else {
            let mut e = Error::failed(format!(
                "cannot write to standard output: {}",
                plain_io_message(&err)
            ));
            e.stdout_failed = true;
            e
        }
    }

    /// Whether writing standard output failed (not a closed pipe: see [`Error::stdout`]).
    pub fn is_stdout_failure(&self) -> bool {
        self.stdout_failed
    }

    /// The JSON error document: `{"error":{"code","exit_code","message","hint"}}`.
    pub fn to_json(&self) -> ErrorDocument {
        ErrorDocument {
            error: ErrorBody {
                code: self.kind.name().to_string(),
                exit_code: self.kind.exit_code(),
                message: self.message.clone(),
                hint: self.hint.clone(),
                details: self.details.as_deref().cloned(),
            },
        }
    }
}

/// The one JSON document a failed command prints: `{"error": {…}}`.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct ErrorDocument {
    pub error: ErrorBody,
}

/// What went wrong.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct ErrorBody {
    /// The exit code's name: `failed`, `usage`, `denied`, `limited`, `not_found`, `conflict`,
    /// `timeout`, `upstream`, `internal`, `hangup`, `interrupted`, `terminated`.
    pub code: String,
    pub exit_code: u8,
    /// What was wrong, naming it.
    pub message: String,
    /// What to do about it (`null` when there is nothing to add).
    pub hint: Option<String>,
    /// More, for some errors (a failed run's outcome).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
}

/// `io::Error`'s message without the " (os error N)" suffix.
fn plain_io_message(err: &std::io::Error) -> String {
    let s = err.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// `e`'s message followed by its causes, innermost last: where reqwest, hyper and rmcp say what
/// actually went wrong ("connection refused"), which their own message leaves out. A cause
/// whose text is said already (an outer message that quotes its inner one) is left out.
pub fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let said = c.to_string();
        if !said.is_empty() && !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = c.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_stable_and_distinct() {
        let codes: Vec<u8> = ErrorKind::ALL.iter().map(|k| k.exit_code()).collect();
        assert_eq!(codes, [1, 2, 3, 4, 5, 6, 7, 8, 10, 129, 130, 143]);
    }

    #[test]
    fn document_shape() {
        let doc = serde_json::to_value(Error::denied("no").with_hint("ask").to_json()).unwrap();
        assert_eq!(
            doc,
            serde_json::json!({"error":{"code":"denied","exit_code":3,"message":"no","hint":"ask"}})
        );
    }
}
