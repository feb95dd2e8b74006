//! `goclaw secure-cli`: the CLIs `credentialed_exec` may run, with their credentials sealed in
//! the store. `add gh --preset gh` takes `GH_TOKEN` from goclaw's own environment, so the token
//! never appears in a command line or shell history; `--env KEY=VALUE` sets one explicitly.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{Context, Status, table};
use crate::error::{Error, Result};
use crate::secrets::SecretKey;
use crate::store::page::Page;
use crate::tools::credentialed::{self, Cli, Preset};

// Credentialed CLIs for credentialed_exec
#[derive(Debug, Args)]
pub struct SecureCliArgs {
    #[command(subcommand)]
    pub command: SecureCliCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum SecureCliCommand {
    /// Register a CLI (or replace its registration)
    Add(AddArgs),
    /// List the registered CLIs (variable names, never values)
    List,
    /// Remove a registration
    Rm(NameArgs),
    /// Let credentialed_exec use a registered CLI again
    Enable(NameArgs),
    /// Keep a registration but refuse to run it
    Disable(NameArgs),
    /// The presets: gh, gcloud, aws, kubectl, terraform
    Presets,
}

#[derive(Debug, Args)]
pub struct NameArgs {
    /// The binary's name, as registered
    pub name: String,
    /// The agent's own registration instead of the global one
    #[arg(long, value_parser = super::shared::non_empty())]
    pub agent: Option<String>,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The binary's bare name, as the agent will type it (gh, aws, …)
    pub name: String,
    /// Fill in variables, deny patterns, time limit and tips from a preset
    #[arg(long)]
    pub preset: Option<String>,
    /// The binary's absolute path [default: where `which NAME` finds it now]
    #[arg(long)]
    pub path: Option<std::path::PathBuf>,
    /// KEY=VALUE, or KEY to take the value from goclaw's environment (repeatable; sealed)
    #[arg(long = "env")]
    pub env: Vec<String>,
    /// A regex over the arguments joined by spaces that refuses the call (repeatable)
    #[arg(long = "deny-args")]
    pub deny_args: Vec<String>,
    /// A regex matched against each argument from its start that refuses the call (repeatable)
    #[arg(long = "deny-verbose")]
    pub deny_verbose: Vec<String>,
    /// Seconds a call may take [default: the preset's, else 30]
    #[arg(long)]
    pub timeout: Option<u64>,
    #[arg(long)]
    pub description: Option<String>,
    /// A hint shown to the agent (e.g. "use --json")
    #[arg(long)]
    pub tips: Option<String>,
    /// Only for this agent [default: every agent]
    #[arg(long, value_parser = super::shared::non_empty())]
    pub agent: Option<String>,
    /// Register it turned off
    #[arg(long)]
    pub disabled: bool,
}

pub fn run(ctx: &Context, args: SecureCliArgs) -> Result<Status> {
    let store = ctx.any_store()?;
    let conn = store.db();
    match args.command {
        SecureCliCommand::Add(a) => {
            let key = SecretKey::load(&ctx.settings()?.store_dir())?;
            let (cli, env) = registration(ctx, a)?;
            credentialed::add(conn, &key, &cli, &env)?;
            ctx.out.data(&cli, |w| {
                writeln!(
                    w,
                    "registered {} ({}) with {}",
                    cli.binary_name,
                    cli.binary_path,
                    if cli.env_keys.is_empty() {
                        "no variables".to_string()
                    } else {
                        cli.env_keys.join(", ")
                    }
                )
            })?;
        }
        SecureCliCommand::List => {
            let all = credentialed::list(conn)?;
            table::page(
                ctx,
                &Page::whole(all),
                &["CLI", "AGENT", "ENABLED", "PATH", "VARIABLES"],
                |c| {
                    [
                        c.binary_name.clone(),
                        if c.agent.is_empty() { "*" } else { &c.agent }.to_string(),
                        if c.enabled { "yes" } else { "no" }.into(),
                        c.binary_path.clone(),
                        c.env_keys.join(","),
                    ]
                },
            )?;
        }
        SecureCliCommand::Rm(n) => {
            let agent = n.agent.unwrap_or_default();
            if !credentialed::remove(conn, &n.name, &agent)? {
                return Err(not_registered(&n.name));
            }
            ctx.out.data(
                &serde_json::json!({"removed": n.name, "agent": agent}),
                |w| writeln!(w, "removed {}", n.name),
            )?;
        }
        SecureCliCommand::Enable(n) | SecureCliCommand::Disable(n) if n.name.is_empty() => {
            return Err(Error::usage("a name is required"));
        }
        SecureCliCommand::Enable(n) => toggle(ctx, conn, n, true)?,
        SecureCliCommand::Disable(n) => toggle(ctx, conn, n, false)?,
        SecureCliCommand::Presets => {
            table::page(
                ctx,
                &Page::whole(credentialed::PRESETS.iter().collect()),
                &["PRESET", "DESCRIPTION", "VARIABLES"],
                |p| [p.name.into(), p.description.into(), p.env.join(", ")],
            )?;
        }
    }
    Ok(Status::Ok)
}

fn not_registered(name: &str) -> Error {
    Error::not_found(format!("no registered CLI named {name}"))
        .with_hint("`goclaw secure-cli list` shows them")
}

fn toggle(ctx: &Context, conn: crate::store::db::Db<'_>, n: NameArgs, on: bool) -> Result<()> {
    let agent = n.agent.unwrap_or_default();
    if !credentialed::set_enabled(conn, &n.name, &agent, on)? {
        return Err(not_registered(&n.name));
    }
    ctx.out
        .data(&serde_json::json!({"name": n.name, "enabled": on}), |w| {
            writeln!(w, "{} {}", n.name, if on { "enabled" } else { "disabled" })
        })
}

/// The registration the flags describe, and the variables to seal.
fn registration(ctx: &Context, a: AddArgs) -> Result<(Cli, BTreeMap<String, String>)> {
    if a.name.is_empty() || a.name.contains('/') {
        return Err(Error::usage(format!(
            "the name must be a bare binary name such as gh, not {:?}",
            a.name
        ))
        .with_hint("give its location with --path"));
    }
    if let Some(agent) = &a.agent {
        super::shared::check_agents(ctx, [agent])?;
    }
    let preset = match &a.preset {
        None => None,
        Some(p) => Some(credentialed::preset(p).ok_or_else(|| {
            Error::usage(format!("unknown preset {p}"))
                .with_hint("`goclaw secure-cli presets` lists them")
        })?),
    };
    let path = binary_path(&a.name, a.path)?;
    let env = variables(preset, &a.env)?;
    let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut deny_args = preset.map(|p| owned(p.deny_args)).unwrap_or_default();
    deny_args.extend(a.deny_args);
    let mut deny_verbose = preset.map(|p| owned(p.deny_verbose)).unwrap_or_default();
    deny_verbose.extend(a.deny_verbose);
    let cli = Cli {
        binary_name: a.name,
        binary_path: path.display().to_string(),
        description: a
            .description
            .or(preset.map(|p| p.description.to_string()))
            .unwrap_or_default(),
        env_keys: env.keys().cloned().collect(),
        deny_args,
        deny_verbose,
        timeout_secs: a.timeout.or(preset.map(|p| p.timeout_secs)).unwrap_or(30),
        tips: a
            .tips
            .or(preset.map(|p| p.tips.to_string()))
            .unwrap_or_default(),
        agent: a.agent.unwrap_or_default(),
        enabled: !a.disabled,
    };
    Ok((cli, env))
}

/// The binary's canonical path: `path` when given (it must be absolute), else `name` on PATH.
fn binary_path(name: &str, path: Option<PathBuf>) -> Result<PathBuf> {
    Ok(match path {
        Some(p) if !p.is_absolute() => {
            return Err(Error::usage(format!(
                "--path must be absolute, not {}",
                p.display()
            )));
        }
        // A missing file is not found (exit 5), as `approvals allow` says of one.
        Some(p) => std::fs::canonicalize(&p).map_err(|e| Error::io("use --path", &p, &e))?,
        None => {
            let path_var = std::env::var("PATH").unwrap_or_default();
            let cwd = std::env::current_dir().unwrap_or_default();
            credentialed::resolve(name, &path_var, &cwd).ok_or_else(|| {
                Error::not_found(format!("{name} is not on PATH"))
                    .with_hint("install it, or give its location with --path")
            })?
        }
    })
}

/// The variables to seal: the preset's from goclaw's environment, then each `--env` item;
/// checks that the preset's required ones are there and its file variables name files.
fn variables(preset: Option<&Preset>, items: &[String]) -> Result<BTreeMap<String, String>> {
    let mut env = BTreeMap::new();
    let from_env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    if let Some(p) = preset {
        for k in p.env.iter().chain(p.optional_env) {
            if let Some(v) = from_env(k) {
                env.insert(k.to_string(), v);
            }
        }
    }
    for item in items {
        match item.split_once('=') {
            Some((k, v)) if !k.is_empty() => {
                env.insert(k.to_string(), v.to_string());
            }
            Some(_) => return Err(Error::usage(format!("--env {item:?}: the name is empty"))),
            None => {
                let v = from_env(item).ok_or_else(|| {
                    Error::usage(format!("--env {item}: ${item} is not set"))
                        .with_hint(format!("export {item}=… first, or pass --env {item}=VALUE"))
                })?;
                env.insert(item.clone(), v);
            }
        }
    }
    if let Some(p) = preset
        && let Some(missing) = p.env.iter().find(|k| !env.contains_key(**k))
    {
        return Err(
            Error::usage(format!("the {} preset needs {missing}", p.name)).with_hint(format!(
                "export {missing}=… before running this, or pass --env {missing}=VALUE"
            )),
        );
    }
    if let Some(p) = preset {
        for k in p.file_env {
            if let Some(v) = env.get(*k)
                && !std::path::Path::new(v).is_file()
            {
                return Err(Error::usage(format!(
                    "{k} must name a file for the {} preset, and {v} is not one",
                    p.name
                )));
            }
        }
    }
    Ok(env)
}
