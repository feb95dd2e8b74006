//! `goclaw approvals`: the exec allowlist in the store. An entry is a program (resolved to its
//! absolute path) and an argument prefix: `goclaw approvals allow git status` allows
//! `git status …` and nothing else of git.

use std::path::Path;

use clap::{Args, Subcommand};

use super::{Context, Status};
use crate::error::{Error, Result};
use crate::tools::exec::approvals;

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
    Revoke { id: i64 },
}

#[derive(Debug, Args)]
pub struct EntryArgs {
    /// The program: a name on PATH or a path
    pub program: String,
    /// The arguments the command must start with
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
    #[arg(long)]
    pub note: Option<String>,
}

pub fn run(ctx: &Context, args: ApprovalsArgs) -> Result<Status> {
    let store = ctx.any_store()?;
    match args.command {
        ApprovalsCommand::List => {
            let entries = approvals::list(store.db())?;
            super::table::page(
                ctx,
                &crate::store::page::Page::whole(entries),
                &["ID", "DECISION", "PROGRAM", "ARGUMENTS"],
                |e| {
                    [
                        e.id.to_string(),
                        e.decision.to_string(),
                        e.program.clone(),
                        e.args.join(" "),
                    ]
                },
            )?;
        }
        ApprovalsCommand::Allow(e) | ApprovalsCommand::Deny(e) if e.program.is_empty() => {
            return Err(Error::usage("a program is required"));
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
    let program = approvals::resolve_program(&e.program, cwd);
    if program.starts_with("unresolved:") {
        return Err(Error::not_found(format!(
            "no program `{}` on PATH",
            e.program
        )));
    }
    if program.starts_with("builtin:") {
        return Err(Error::usage(format!(
            "`{}` is a shell builtin that needs no approval",
            e.program
        )));
    }
    // An allow entry for nothing would approve whatever is put there later; a deny entry may
    // name a program before it exists.
    if decision == "allow" && !Path::new(&program).is_file() {
        return Err(
            Error::not_found(format!("no program at {program} (`{}`)", e.program))
                .with_hint("allow a program that exists; a deny entry may name one that does not"),
        );
    }
    if decision == "allow" && !is_executable(Path::new(&program)) {
        return Err(Error::usage(format!(
            "{program} (`{}`) is not executable: an allow entry names a program",
            e.program
        )));
    }
    let entry = approvals::add(store.db(), &program, &e.args, decision, e.note.as_deref())?;
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
