//! `goclaw process`: the background commands `exec {background: true}` started (the `process`
//! tool through the gate, as `goclaw tools exec process` is: policy, scrubbing, audit).

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::shared::CallerArgs;
use super::{Context, Status};
use crate::error::Result;

// Background commands: list, poll, log, kill
#[derive(Debug, Args)]
pub struct ProcessArgs {
    #[command(subcommand)]
    pub command: ProcessCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum ProcessCommand {
    /// The session's background commands (every one without --session), newest first
    #[command(after_help = "Examples:\n  \
        goclaw tools exec exec '{\"command\":\"sleep 1; echo built\",\"background\":true}'\n  \
        goclaw process list")]
    List {
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// The output written since the last poll, and the status
    Poll {
        /// The background command's id, as `process list` shows it
        id: i64,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// The last lines of the log (the last 2 MiB of output are kept)
    Log {
        /// The background command's id, as `process list` shows it
        id: i64,
        /// How many lines
        #[arg(long, default_value_t = crate::tools::process::LOG_LINES,
              value_parser = clap::value_parser!(u64).range(1..=crate::tools::process::MAX_LOG_LINES))]
        lines: u64,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// End a background command: SIGTERM to its process group, SIGKILL two seconds later
    Kill {
        /// The background command's id, as `process list` shows it
        id: i64,
        #[command(flatten)]
        caller: CallerArgs,
    },
}

pub fn run(ctx: &Context, args: ProcessArgs) -> Result<Status> {
    let (call, caller) = match args.command {
        ProcessCommand::List { caller } => (json!({"action": "list"}), caller),
        ProcessCommand::Poll { id, caller } => (json!({"action": "poll", "id": id}), caller),
        ProcessCommand::Log { id, lines, caller } => {
            (json!({"action": "log", "id": id, "lines": lines}), caller)
        }
        ProcessCommand::Kill { id, caller } => (json!({"action": "kill", "id": id}), caller),
    };
    super::tool_call::exec_shown(ctx, "process", &call, caller, Some(shown))
}

/// The tool's JSON reply as people read it: `list` a table; `poll`, `log` and `kill` a line
/// with the command's status, then the output.
fn shown(reply: &str) -> Option<String> {
    let reply: Value = serde_json::from_str(reply).ok()?;
    if let Some(list) = reply.get("processes").and_then(Value::as_array) {
        let rows: Vec<[String; 5]> = list
            .iter()
            .map(|p| {
                [
                    field(p, "id"),
                    status(p, false),
                    field(p, "pid"),
                    p.get("started_at")
                        .and_then(Value::as_i64)
                        .map_or_else(|| "-".into(), super::human::time),
                    field(p, "command"),
                ]
            })
            .collect();
        if rows.is_empty() {
            return Some("(no background commands)\n".into());
        }
        let mut out = Vec::new();
        super::table::write(
            &mut out,
            &["ID", "STATUS", "PID", "STARTED", "COMMAND"],
            &rows,
        )
        .ok()?;
        return String::from_utf8(out).ok();
    }
    let mut out = format!(
        "process {}: {} · {}\n",
        field(&reply, "process"),
        status(&reply, true),
        crate::text::printable::one_line(&field(&reply, "command"))
    );
    if let Some(dropped) = reply.get("dropped_bytes").and_then(Value::as_u64) {
        out.push_str(&format!(
            "[{dropped} bytes dropped from the log before this]\n"
        ));
    }
    let body = reply
        .get("output")
        .or_else(|| reply.get("log"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    out.push_str(body);
    if !body.is_empty() && !body.ends_with('\n') {
        out.push('\n');
    }
    if reply.get("more").and_then(Value::as_bool) == Some(true) {
        out.push_str("[more output: poll again]\n");
    }
    Some(out)
}

/// A field as text (`-` when absent or null).
fn field(value: &Value, key: &str) -> String {
    match value.get(key) {
        None | Some(Value::Null) => "-".into(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// `running`, `exited (exit 0)`, `killed (exit 143)`; `with_reason`: and why it ended
/// (`: stopped by process kill`).
fn status(p: &Value, with_reason: bool) -> String {
    let mut s = field(p, "status");
    if let Some(code) = p.get("exit_code").and_then(Value::as_i64) {
        s.push_str(&format!(" (exit {code})"));
    }
    if let Some(signal) = p.get("signal").and_then(Value::as_i64) {
        s.push_str(&format!(" (signal {signal})"));
    }
    if let Some(reason) = p.get("reason").and_then(Value::as_str)
        && with_reason
    {
        s.push_str(&format!(": {reason}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn replies_are_shown_as_people_read_them() {
        let list = r#"{"processes":[{"id":2,"command":"make\nall","status":"killed","pid":7,"exit_code":143,"reason":"stopped by process kill","started_at":0},{"id":1,"command":"sleep 9","status":"running","pid":null,"started_at":null}]}"#;
        assert_eq!(
            shown(list).unwrap(),
            "ID  STATUS             PID  STARTED               COMMAND\n\
             2   killed (exit 143)  7    1970-01-01T00:00:00Z  make all\n\
             1   running            -    -                     sleep 9\n"
        );
        assert_eq!(
            shown(r#"{"processes":[]}"#).unwrap(),
            "(no background commands)\n"
        );
        let poll = r#"{"process":3,"status":"running","command":"tail -f x\u001b[2J","output":"a\nb","more":true,"dropped_bytes":10}"#;
        assert_eq!(
            shown(poll).unwrap(),
            "process 3: running · tail -f x\u{FFFD}[2J\n[10 bytes dropped from the log before this]\na\nb\n[more output: poll again]\n"
        );
        let kill = r#"{"process":3,"status":"killed","command":"x","exit_code":143,"reason":"stopped by process kill"}"#;
        assert_eq!(
            shown(kill).unwrap(),
            "process 3: killed (exit 143): stopped by process kill · x\n"
        );
        assert_eq!(
            shown("not json"),
            None,
            "a reply that is not JSON is shown as it is"
        );
    }
}
