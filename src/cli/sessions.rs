//! `goclaw sessions`: the conversations runs continue (`goclaw run --session KEY`), kept in the
//! store. Looking at sessions first marks runs whose process died as abandoned.

use clap::{Args, Subcommand};
use serde_json::json;

use super::shared::PageArgs;
use super::{Context, Status, table};
use crate::agent::record;
use crate::error::{Error, Result};
use crate::text::printable::printable;

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
        /// Only this agent's sessions
        #[arg(long, value_parser = super::shared::non_empty())]
        agent: Option<String>,
        #[command(flatten)]
        page: PageArgs,
    },
    /// One session: agent, model, token counts, message count, summary
    Show {
        /// The session's key (the --session of its runs)
        key: String,
    },
    /// A session's messages, oldest first
    History {
        /// The session's key (the --session of its runs)
        key: String,
        #[command(flatten)]
        page: PageArgs,
    },
    /// Delete a session and its messages
    Rm {
        /// The session's key (the --session of its runs)
        key: String,
    },
}

fn unknown(key: &str) -> Error {
    Error::not_found(format!("no session `{key}`"))
        .with_hint("`goclaw sessions list` shows the sessions")
}

pub fn run(ctx: &Context, args: SessionsArgs) -> Result<Status> {
    let store = ctx.any_store()?;
    let conn = store.db();
    record::reap_abandoned(conn)?;
    match args.command {
        SessionsCommand::List { agent, page } => {
            let all = record::sessions(conn, agent.as_deref(), &page.request())?;
            let text = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
            table::page(
                ctx,
                &all,
                &["SESSION", "AGENT", "MESSAGES", "MODEL", "UPDATED"],
                |s| {
                    [
                        text(&s["key"]),
                        text(&s["agent"]),
                        s["messages"].to_string(),
                        text(&s["model"]),
                        super::human::time(s["updated_at"].as_i64().unwrap_or(0)),
                    ]
                },
            )?;
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
        SessionsCommand::History { key, page } => {
            if record::session(conn, &key)?.is_none() {
                return Err(unknown(&key));
            }
            let msgs = record::history_page(conn, &key, &page.request())?;
            ctx.out.data(&msgs, |w| {
                for m in &msgs.items {
                    let role = serde_json::to_value(m.role).unwrap_or_default();
                    let mut text = m.content.clone();
                    for c in &m.tool_calls {
                        text.push_str(&format!("\n  → {} {}", c.name, c.arguments));
                    }
                    let line = format!("[{}] {}", role.as_str().unwrap_or(""), text);
                    writeln!(w, "{}", printable(&line))?;
                }
                Ok(())
            })?;
            if let Some(cursor) = msgs.next_cursor.as_ref().filter(|_| !ctx.out.is_json()) {
                ctx.out.note(&format!("more: --cursor {cursor}"));
            }
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
