//! `goclaw sessions`: the conversations runs continue (`goclaw run --session KEY`), kept in the
//! store. Looking at sessions first marks runs whose process died as abandoned.

use std::io::Write;

use clap::{Args, Subcommand};
use serde_json::json;

use super::{Context, Status};
use crate::agent::record;
use crate::error::{Error, Result};

// Sessions: their messages, kept in the store
#[derive(Debug, Args)]
pub struct SessionsArgs {
    #[command(subcommand)]
    pub command: SessionsCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum SessionsCommand {
    /// Every session, most recently used first
    List {
        #[arg(long)]
        agent: Option<String>,
    },
    /// One session: agent, model, token counts, message count, summary
    Show { key: String },
    /// A session's messages, oldest first (JSON Lines off a terminal)
    History { key: String },
    /// Delete a session and its messages
    Rm { key: String },
}

fn unknown(key: &str) -> Error {
    Error::not_found(format!("no session `{key}`"))
        .with_hint("`goclaw sessions list` shows the sessions")
}

pub fn run(ctx: &Context, args: SessionsArgs) -> Result<Status> {
    let store = ctx.store()?;
    let conn = store.conn();
    record::reap_abandoned(conn)?;
    match args.command {
        SessionsCommand::List { agent } => {
            let all = record::sessions(conn, agent.as_deref())?;
            ctx.out.data(&all, |w| {
                for s in &all {
                    writeln!(
                        w,
                        "{:<24} {:<12} {:>5} messages  {}",
                        s["key"].as_str().unwrap_or(""),
                        s["agent"].as_str().unwrap_or(""),
                        s["messages"],
                        s["model"].as_str().unwrap_or("")
                    )?;
                }
                Ok(())
            })?;
        }
        SessionsCommand::Show { key } => {
            let s = record::session(conn, &key)?.ok_or_else(|| unknown(&key))?;
            ctx.out.data(&s, |w| {
                writeln!(
                    w,
                    "{}",
                    super::human::fields(&serde_json::to_value(&s).unwrap_or_default())
                )
            })?;
        }
        SessionsCommand::History { key } => {
            if record::session(conn, &key)?.is_none() {
                return Err(unknown(&key));
            }
            let msgs = record::history(conn, &key)?;
            let mut w = ctx.out.stream();
            for m in &msgs {
                if ctx.out.is_json() {
                    let line =
                        serde_json::to_string(m).map_err(|e| Error::internal(e.to_string()))?;
                    writeln!(w, "{line}").map_err(Error::stdout)?;
                } else {
                    let role = serde_json::to_value(m.role).unwrap_or_default();
                    let mut text = m.content.clone();
                    for c in &m.tool_calls {
                        text.push_str(&format!("\n  → {} {}", c.name, c.arguments));
                    }
                    writeln!(w, "[{}] {}", role.as_str().unwrap_or(""), text)
                        .map_err(Error::stdout)?;
                }
            }
            w.flush().map_err(Error::stdout)?;
        }
        SessionsCommand::Rm { key } => {
            if !record::remove_session(conn, &key)? {
                return Err(unknown(&key));
            }
            ctx.out
                .data(&json!({"removed": key}), |w| writeln!(w, "removed {key}"))?;
        }
    }
    Ok(Status::Ok)
}
