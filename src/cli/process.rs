//! `goclaw process`: the background commands `exec {background: true}` started (the `process`
//! tool through the gate, as `goclaw tools exec process` is: policy, scrubbing, audit).

use clap::{Args, Subcommand};
use serde_json::json;

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
    super::tool_call::exec_call(ctx, "process", &call, caller)
}
