//! `goclaw config`: where goclaw's files are, what the configuration says, and a starter file.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};

use clap::{Args, Subcommand};
use serde::Serialize;

use super::{Context, Status};
use crate::config::STARTER;
use crate::error::{Error, Result};
use crate::text::printable::printable;
use crate::text::scrub::Scrubber;

// Show or create the configuration (TOML).
#[derive(Debug, Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub command: ConfigCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum ConfigCommand {
    /// Print the resolved paths: config file, store, workspace, and where each came from
    Path,
    /// Print the effective configuration (secrets scrubbed): TOML on a terminal, else JSON
    Show,
    /// Print one effective setting by its dotted key (tools.exec.sandbox, agents.w1.model):
    /// the value alone on a terminal (TOML for a table), else JSON; exit 5 when it has none
    #[command(after_help = "Example:\n  goclaw config get tools.exec.sandbox\n  \
        goclaw config get agents   # a table: TOML on a terminal, a JSON object otherwise")]
    Get {
        /// The setting's dotted key, as `config show` names it
        key: String,
    },
    /// Write a commented starter config file (never overwrites one)
    Init,
}

#[derive(Serialize)]
struct PathsDoc<'a> {
    config: &'a std::path::Path,
    config_source: crate::config::Source,
    config_exists: bool,
    db: String,
    db_source: crate::config::Source,
    workspace: &'a std::path::Path,
    workspace_source: crate::config::Source,
}

pub fn run(ctx: &Context, args: ConfigArgs) -> Result<Status> {
    match args.command {
        ConfigCommand::Path => {
            let s = ctx.settings_lenient("a [store] path in it is not shown")?;
            // Shown here, so it must be writable as JSON text (settings let it be otherwise).
            crate::config::refuse_non_utf8(&[("the workspace", &s.workspace)])?;
            let doc = PathsDoc {
                config: &s.config_path,
                config_source: s.config_source,
                config_exists: s.config_exists,
                db: s.store_location(),
                db_source: s.db_source,
                workspace: &s.workspace,
                workspace_source: s.workspace_source,
            };
            ctx.out.data(&doc, |w| {
                let missing = if doc.config_exists { "" } else { " (absent)" };
                writeln!(w, "config     {}{missing}", doc.config.display())?;
                writeln!(w, "store      {}", doc.db)?;
                writeln!(w, "workspace  {}", doc.workspace.display())
            })?;
        }
        ConfigCommand::Show => {
            let s = ctx.settings()?;
            let value =
                toml::Value::try_from(&s.config).map_err(|e| Error::internal(e.to_string()))?;
            let scrubbed = scrub_config(value)?;
            let text =
                toml::to_string_pretty(&scrubbed).map_err(|e| Error::internal(e.to_string()))?;
            ctx.out.data(&scrubbed, |w| w.write_all(text.as_bytes()))?;
        }
        ConfigCommand::Get { key } => {
            if key.is_empty() {
                return Err(Error::usage("the key is empty")
                    .with_hint("`goclaw config show` prints the whole configuration"));
            }
            let s = ctx.settings()?;
            let value =
                toml::Value::try_from(&s.config).map_err(|e| Error::internal(e.to_string()))?;
            let config = scrub_config(value)?;
            let found = setting(&config, &key).ok_or_else(|| {
                Error::not_found(format!("no setting `{key}` in the effective configuration"))
                    .with_hint("unset, or not a key: `goclaw config show` prints them all")
            })?;
            // For people: the value alone, made printable (a config's text cannot steer the
            // terminal either).
            ctx.out.data(found, |w| match found {
                toml::Value::String(text) => writeln!(w, "{}", printable(text)),
                toml::Value::Table(t) if t.is_empty() => writeln!(w, "(empty)"),
                toml::Value::Table(_) => match toml::to_string_pretty(found) {
                    Ok(text) => w.write_all(printable(&text).as_bytes()),
                    Err(e) => Err(std::io::Error::other(e.to_string())),
                },
                other => writeln!(w, "{}", printable(&other.to_string())),
            })?;
        }
        ConfigCommand::Init => {
            let s = ctx.settings()?;
            let path = &s.config_path;
            if let Some(dir) = path.parent().filter(|d| !d.exists()) {
                std::fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(dir)
                    .map_err(|e| Error::io("create config directory", dir, &e))?;
            }
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(path)
                .map_err(|e| match e.kind() {
                    std::io::ErrorKind::AlreadyExists => Error::conflict(format!(
                        "{} already exists; it was left as it is",
                        path.display()
                    ))
                    .with_hint("edit it, or move it away first"),
                    _ => Error::io("create config file", path, &e),
                })?;
            file.write_all(STARTER.as_bytes())
                .map_err(|e| Error::io("write config file", path, &e))?;
            ctx.out.data(&serde_json::json!({ "created": path }), |w| {
                writeln!(w, "wrote {}", path.display())
            })?;
        }
    }
    Ok(Status::Ok)
}

/// The value at a dotted `key` in `config`: each part a key of the table before it. A part may
/// itself hold dots (an agent or provider named `a.b`): the longest that names a key is tried
/// first, then the shorter ones. No part is empty (`a.`, `.a`, `a..b` name nothing).
fn setting<'v>(config: &'v toml::Value, key: &str) -> Option<&'v toml::Value> {
    let table = config.as_table()?;
    let ends = (1..=key.len())
        .rev()
        .filter(|&end| end == key.len() || key.as_bytes()[end] == b'.');
    for end in ends {
        let Some(value) = table.get(&key[..end]) else {
            continue;
        };
        if end == key.len() {
            return Some(value);
        }
        let rest = &key[end + 1..];
        if let Some(found) = (!rest.is_empty()).then(|| setting(value, rest)).flatten() {
            return Some(found);
        }
    }
    None
}

/// Hides secrets: values of keys that name a secret, and every value of a `headers` or `env`
/// table (an MCP server's, a channel's: secrets whatever their names), become "[REDACTED]"; so
/// does what a URL may hide a secret in (see [`without_url_secrets`]); every other string goes
/// through the credential scrubber. A key ending in `_env` names a variable, not a secret, and
/// is shown.
fn scrub_config(value: toml::Value) -> Result<toml::Value> {
    let scrubber = Scrubber::new(&[], &[]).map_err(Error::internal)?;
    fn walk(v: toml::Value, key: &str, all_secret: bool, s: &Scrubber) -> toml::Value {
        let lower = key.to_ascii_lowercase();
        let secret_key = all_secret
            || (!lower.ends_with("_env")
                && ["key", "secret", "token", "password", "credential", "values"]
                    .iter()
                    .any(|k| lower.contains(k)));
        match v {
            toml::Value::String(_) if secret_key => toml::Value::String("[REDACTED]".into()),
            toml::Value::String(text) => {
                toml::Value::String(s.scrub_str(&without_url_secrets(&text), None))
            }
            toml::Value::Array(items) => toml::Value::Array(
                items
                    .into_iter()
                    .map(|i| walk(i, key, all_secret, s))
                    .collect(),
            ),
            toml::Value::Table(t) => {
                let secrets_within = all_secret || lower == "headers" || lower == "env";
                toml::Value::Table(
                    t.into_iter()
                        .map(|(k, v)| {
                            let v = walk(v, &k, secrets_within, s);
                            (k, v)
                        })
                        .collect(),
                )
            }
            other => other,
        }
    }
    Ok(walk(value, "", false, &scrubber))
}

/// A string as `config show` prints it: a URL without what may hide a secret
/// ([`crate::text::url::shown`]), other text as it is.
fn without_url_secrets(text: &str) -> std::borrow::Cow<'_, str> {
    crate::text::url::shown(text).map_or(text.into(), std::borrow::Cow::Owned)
}
