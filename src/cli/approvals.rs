//! `goclaw approvals`: the exec allowlist in the store. An entry is a program (resolved to its
//! absolute path) and an argument prefix: `goclaw approvals allow git status` allows
//! `git status …` and nothing else of git.

use std::path::Path;

use clap::{Args, Subcommand};

use super::{Context, Status};
use crate::error::{Error, Result};
use crate::tools::exec::{approvals, relay};

// Manage the exec allowlist.
#[derive(Debug, Args)]
pub struct ApprovalsArgs {
    #[command(subcommand)]
    pub command: ApprovalsCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum ApprovalsCommand {
    /// List the entries
    List,
    /// Allow PROGRAM with an optional argument prefix
    Allow(EntryArgs),
    /// Deny PROGRAM with an optional argument prefix (wins over allow entries and allow mode)
    Deny(EntryArgs),
    /// Remove an entry by id
    Revoke {
        /// The entry's id, as `approvals list` shows it
        id: i64,
    },
    /// The approvals waiting for an answer (calls made with --on-ask wait)
    Pending,
    /// Answer a waiting approval: once, always (adds the programs to the allowlist) or deny
    #[command(
        after_help = "Example:\n  goclaw approvals pending\n  goclaw approvals answer 7 once   # exit 5 when no request 7 waits\n\n\
        Exit codes: 0 answered, 5 no such request, 6 answered already or expired."
    )]
    Answer {
        /// The request's id, as `approvals pending` shows it
        id: i64,
        /// The answer: once (this call), always (also adds its programs to the allowlist) or deny
        #[arg(value_parser = ["once", "always", "deny"])]
        answer: String,
    },
}

/// An entry's program and argument prefix. Options go before PROGRAM: every word after it,
/// flags included, is the command's (as with `env` or `timeout`).
#[derive(Debug, Args)]
#[command(
    after_help = "Options go before PROGRAM: every word after it, flags included, is an \
argument of the command.\n\nExample:\n  goclaw approvals allow --note \"read-only status\" git status"
)]
pub struct EntryArgs {
    /// The program (a name on PATH or a path), then the arguments the command must start with:
    /// every word after PROGRAM, flags included (goclaw's own `-v` or `--json` too)
    // One list, not a program and a list: clap would still take a global flag that comes right
    // after PROGRAM as goclaw's (`grep -v secret` stored `grep secret`).
    #[arg(
        value_name = "PROGRAM [ARGS]",
        required = true,
        num_args = 1..,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub command: Vec<String>,
    /// A note kept with the entry (shown by `approvals list`)
    #[arg(long)]
    pub note: Option<String>,
}

impl EntryArgs {
    fn program(&self) -> &str {
        self.command.first().map_or("", String::as_str)
    }

    fn args(&self) -> &[String] {
        self.command.get(1..).unwrap_or_default()
    }
}

pub fn run(ctx: &Context, args: ApprovalsArgs) -> Result<Status> {
    let store = ctx.any_store()?;
    match args.command {
        ApprovalsCommand::List => {
            let entries = approvals::list(store.db())?;
            super::table::page(
                ctx,
                &crate::store::page::Page::whole(entries),
                &["ID", "DECISION", "PROGRAM", "ARGUMENTS", "NOTE"],
                |e| {
                    [
                        e.id.to_string(),
                        e.decision.to_string(),
                        e.program.clone(),
                        e.args.join(" "),
                        e.note.clone().unwrap_or_default(),
                    ]
                },
            )?;
        }
        ApprovalsCommand::Allow(e) | ApprovalsCommand::Deny(e) if e.program().is_empty() => {
            return Err(Error::usage("a program is required"));
        }
        // A mistyped option where the program goes would be stored as a program named
        // `--typo` (a deny entry that matches nothing, exit 0).
        ApprovalsCommand::Allow(e) | ApprovalsCommand::Deny(e) if e.program().starts_with('-') => {
            return Err(Error::usage(format!(
                "`{}` is no program: it looks like an option, and options go before PROGRAM",
                e.program()
            ))
            .with_hint("see `goclaw approvals allow --help`; a program whose name starts with - is given by its path (./-x)"));
        }
        ApprovalsCommand::Allow(e) => add(ctx, &store, e, "allow")?,
        ApprovalsCommand::Deny(e) => add(ctx, &store, e, "deny")?,
        ApprovalsCommand::Revoke { id } => {
            if !approvals::revoke(store.db(), id)? {
                return Err(Error::not_found(format!("no approval entry {id}"))
                    .with_hint("`goclaw approvals list` shows them"));
            }
            ctx.out.data(&serde_json::json!({"revoked": id}), |w| {
                writeln!(w, "revoked {id}")
            })?;
        }
        ApprovalsCommand::Pending => {
            let waiting = relay::pending(store.db())?;
            super::table::page(
                ctx,
                &crate::store::page::Page::whole(waiting),
                &["ID", "TOOL", "COMMAND", "AGENT", "EXPIRES"],
                |r| {
                    [
                        r.id.to_string(),
                        r.tool.clone(),
                        r.command.clone(),
                        r.agent.clone().unwrap_or_else(|| "-".into()),
                        format!(
                            "in {}s",
                            (r.expires_at - crate::store::now_ms()).max(0) / 1000
                        ),
                    ]
                },
            )?;
        }
        ApprovalsCommand::Answer { id, answer } => {
            let by = std::env::var("USER").unwrap_or_else(|_| "unknown".into());
            let r = relay::answer(store.db(), id, &answer, &format!("cli:{by}"))?;
            ctx.out
                .data(&r, |w| writeln!(w, "request {id}: {answer}"))?;
        }
    }
    Ok(Status::Ok)
}

/// Whether anyone may execute `path` (a mode bit; the exec tool's own run decides the rest).
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

fn add(ctx: &Context, store: &crate::store::Store, e: EntryArgs, decision: &str) -> Result<()> {
    let cwd = &ctx.settings()?.workspace;
    let mut program = approvals::resolve_program(e.program(), cwd);
    if program.starts_with("unresolved:") {
        if decision != "deny" {
            return Err(
                Error::not_found(format!("no program `{}` on PATH", e.program())).with_hint(
                    "allow a program that exists; a deny entry may name one that does not",
                ),
            );
        }
        // Denied by its name, wherever it is installed later.
        program = e.program().to_string();
    }
    if program.starts_with("builtin:") {
        return Err(Error::usage(format!(
            "`{}` is a shell builtin that needs no approval",
            e.program()
        )));
    }
    // An allow entry for nothing would approve whatever is put there later; a deny entry may
    // name a program before it exists.
    if decision == "allow" && !Path::new(&program).is_file() {
        return Err(
            Error::not_found(format!("no program at {program} (`{}`)", e.program()))
                .with_hint("allow a program that exists; a deny entry may name one that does not"),
        );
    }
    if decision == "allow" && !is_executable(Path::new(&program)) {
        return Err(Error::usage(format!(
            "{program} (`{}`) is not executable: an allow entry names a program",
            e.program()
        )));
    }
    let entry = approvals::add(store.db(), &program, e.args(), decision, e.note.as_deref())?;
    ctx.out.data(&entry, |w| {
        writeln!(
            w,
            "{} {}: {} {}",
            entry.id,
            entry.decision,
            entry.program,
            entry.args.join(" ")
        )
    })
}
