//! Configuration: where goclaw's files live and what `config.toml` says.
//!
//! Paths follow XDG, and `GOCLAW_HOME` moves every default: the config file is
//! `$GOCLAW_HOME/config.toml` or `$XDG_CONFIG_HOME/goclaw/config.toml` (default
//! `~/.config/goclaw/config.toml`); the store is `$GOCLAW_HOME/goclaw.db` or
//! `$XDG_DATA_HOME/goclaw/goclaw.db` (default `~/.local/share/goclaw/goclaw.db`). Precedence for
//! every setting: flag > environment > config file > default.
//!
//! The file is TOML. Each section is one serde struct that lives in the module it configures;
//! this file only assembles them. Unknown keys are an error naming the key and the file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use crate::agent::config::AgentConfig;
use crate::error::{Error, Result};
use crate::store::StoreConfig;
use crate::store::location::{self, PgUrl};
use crate::text::guard::GuardConfig;
use crate::text::scrub::ScrubConfig;
use crate::tools::config::ToolsConfig;

/// The whole configuration file.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// `[store]`: where the SQLite store lives.
    pub store: StoreConfig,
    /// `[scrub]`: credential values and server addresses every scrub redacts.
    pub scrub: ScrubConfig,
    /// `[guard]`: the prompt-injection guard.
    pub guard: GuardConfig,
    /// `[tools]`: tool policy, rate limit, scrubbing, `[tools.exec]`.
    pub tools: ToolsConfig,
    /// `[agents.KEY]`: the agents; the store keeps only their runtime state.
    pub agents: BTreeMap<String, AgentConfig>,
    /// `[mcp]`: MCP servers defined in config (`[mcp.servers.NAME]`).
    pub mcp: crate::mcp::McpConfig,
    /// `[providers.NAME]`: LLM endpoints (OpenAI-compatible, Anthropic, replay).
    pub providers: BTreeMap<String, crate::providers::ProviderConfig>,
    /// `[memory]`: embeddings for memory search.
    pub memory: crate::memory::embed::MemoryConfig,
    /// `[skills]`: where skills are found.
    pub skills: crate::skills::SkillsConfig,
    /// `[input]`: limits on documents read from stdin or `@FILE`.
    pub input: InputConfig,
    /// `[channels.NAME]`: where `message` and cron jobs' `--deliver` send (stdout, a file, a
    /// webhook, a command).
    pub channels: BTreeMap<String, crate::tools::message::ChannelConfig>,
    /// `[media]`: the providers and models of the media tools.
    pub media: crate::tools::media::MediaConfig,
}

impl Config {
    /// Every place of the configuration that carries a tool policy, for the checks that judge
    /// them all (`[tools]`, then each `[agents.KEY.tools]`).
    pub fn policy_places(&self) -> Vec<crate::policy::Place<'_>> {
        let mut places = vec![("tools".to_string(), self.tools.policy())];
        places.extend(
            self.agents
                .iter()
                .map(|(key, a)| (format!("agents.{key}.tools"), a.tools.policy())),
        );
        places
    }

    /// What the gate needs of each agent defined in config.
    pub fn agent_profiles(&self) -> BTreeMap<String, crate::tools::config::AgentProfile> {
        self.agents
            .iter()
            .map(|(key, a)| (key.clone(), a.profile(key)))
            .collect()
    }
}

/// `[input]`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct InputConfig {
    /// The most bytes of one document read from stdin or `@FILE` (a message, JSON arguments,
    /// a guard or sanitize text); past it the command fails (exit 2) instead of filling memory.
    pub max_bytes: u64,
}

impl Default for InputConfig {
    fn default() -> Self {
        InputConfig {
            max_bytes: DEFAULT_MAX_INPUT_BYTES,
        }
    }
}

/// 64 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 64 << 20;

/// Where a setting came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Flag,
    Env,
    Config,
    Default,
}

impl Source {
    /// As `config path` names it (`flag`, `env`, `config`, `default`).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Flag => "flag",
            Source::Env => "env",
            Source::Config => "config",
            Source::Default => "default",
        }
    }
}

/// The environment that decides default paths (a snapshot, so resolution is testable).
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub goclaw_home: Option<PathBuf>,
    pub xdg_config_home: Option<PathBuf>,
    pub xdg_data_home: Option<PathBuf>,
    pub home: Option<PathBuf>,
    pub cwd: PathBuf,
}

impl Env {
    /// Reads the process environment. Empty variables count as unset, as XDG says.
    pub fn from_process() -> Result<Env> {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let cwd = std::env::current_dir()
            .map_err(|e| Error::failed(format!("cannot read the current directory: {e}")))?;
        Ok(Env {
            goclaw_home: var("GOCLAW_HOME"),
            xdg_config_home: var("XDG_CONFIG_HOME"),
            xdg_data_home: var("XDG_DATA_HOME"),
            home: var("HOME"),
            cwd,
        })
    }

    /// `p` made absolute against the current directory, with `.` dropped and `..` taken back a
    /// part as written (lexically): a state path is then the same whatever a directory before
    /// a `..` becomes later (a command that turned `sub` of `sub/../config.toml` into a symlink
    /// would otherwise choose the config goclaw reads next).
    fn absolute(&self, p: &Path) -> PathBuf {
        let joined = if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.cwd.join(p)
        };
        let mut out = PathBuf::new();
        for part in joined.components() {
            match part {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir => {
                    out.pop();
                }
                other => out.push(other),
            }
        }
        out
    }

    fn home_dir(&self, what: &str) -> Result<PathBuf> {
        self.home.clone().map(|h| self.absolute(&h)).ok_or_else(|| {
            Error::usage(format!("cannot find a default {what}: HOME is not set"))
                .with_hint("set GOCLAW_HOME, or pass --config and --db")
        })
    }

    /// The default config file.
    pub fn default_config(&self) -> Result<PathBuf> {
        if let Some(h) = &self.goclaw_home {
            return Ok(self.absolute(h).join("config.toml"));
        }
        let base = match &self.xdg_config_home {
            Some(x) => self.absolute(x),
            None => self.home_dir("config file")?.join(".config"),
        };
        Ok(base.join("goclaw").join("config.toml"))
    }

    /// The default store.
    pub fn default_db(&self) -> Result<PathBuf> {
        if let Some(h) = &self.goclaw_home {
            return Ok(self.absolute(h).join("goclaw.db"));
        }
        let base = match &self.xdg_data_home {
            Some(x) => self.absolute(x),
            None => self.home_dir("store")?.join(".local").join("share"),
        };
        Ok(base.join("goclaw").join("goclaw.db"))
    }
}

/// A path chosen by flag or environment variable (clap tells which).
#[derive(Debug, Clone)]
pub struct Given {
    pub path: PathBuf,
    pub source: Source,
}

/// What the command line said about paths.
#[derive(Debug, Clone, Default)]
pub struct PathArgs {
    pub config: Option<Given>,
    pub db: Option<Given>,
    pub workspace: Option<Given>,
}

/// Resolved paths and the loaded configuration.
#[derive(Debug, Clone, Serialize)]
pub struct Settings {
    pub config_path: PathBuf,
    pub config_source: Source,
    pub config_exists: bool,
    /// The SQLite store, or with `db_url` the default path (its directory keeps `secret.key`).
    pub db_path: PathBuf,
    pub db_source: Source,
    /// The PostgreSQL store, when `--db`, `GOCLAW_DB` or `[store] url` names one.
    pub db_url: Option<crate::store::location::PgUrl>,
    pub workspace: PathBuf,
    pub workspace_source: Source,
    #[serde(skip)]
    pub config: Config,
}

impl Settings {
    /// The SQLite store a command opens; a PostgreSQL store is refused by the commands that do
    /// not run on one yet (only `goclaw db` does).
    pub fn sqlite_path(&self) -> Result<&Path> {
        match &self.db_url {
            None => Ok(&self.db_path),
            Some(url) => Err(Error::usage(format!(
                "this command does not run on a PostgreSQL store yet (the store is {url})"
            ))
            .with_hint("`goclaw db` does; use a SQLite store (--db PATH) for the rest")),
        }
    }

    /// How to reach the PostgreSQL store, when the store is one.
    pub fn pg_target(&self) -> Option<crate::store::db::PgConnect> {
        self.db_url.as_ref().map(|url| crate::store::db::PgConnect {
            url: url.clone(),
            password_env: self.config.store.password_env.clone(),
            connect_timeout: self.config.store.busy_timeout(),
        })
    }

    /// Where the store is, to open it (here, in a thread, or in a child process).
    pub fn store_target(&self) -> crate::store::StoreTarget {
        match self.pg_target() {
            Some(target) => crate::store::StoreTarget::Postgres(target),
            None => crate::store::StoreTarget::Sqlite {
                path: self.db_path.clone(),
                busy_timeout: self.config.store.busy_timeout(),
            },
        }
    }

    /// Where the store is, as people read it (a URL without its password).
    pub fn store_location(&self) -> String {
        match &self.db_url {
            Some(url) => url.to_string(),
            None => self.db_path.display().to_string(),
        }
    }

    /// The directory of the store (where `secret.key` lives too).
    pub fn store_dir(&self) -> PathBuf {
        self.db_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    }

    /// goclaw's state (see [`crate::tools::protected`]) that exists, as its stdio MCP servers
    /// must not see it: not the workspace's `.goclaw` (backups of the user's own files), or the
    /// workspace, pinned above it, would be a mount point that renames could not cross.
    pub fn hidden_from_servers(&self) -> Vec<PathBuf> {
        let protected = crate::tools::protected::of_state(
            (&self.store_target(), &self.store_dir()),
            &self.config_path,
            &self.workspace,
            &[],
        );
        crate::tools::protected::to_mask(&protected)
    }

    /// Resolves paths and loads the config file. A config file named by flag or environment
    /// must exist; the default one may be absent (empty configuration).
    pub fn resolve(args: &PathArgs, env: &Env) -> Result<Settings> {
        Settings::resolve_with(args, env, false).map(|(s, _)| s)
    }

    /// [`Settings::resolve`] for commands that work without the configuration (`config path`,
    /// `db path`, `scrub`): a config file that does not parse is set aside, and its error comes
    /// back beside settings built from the defaults, for the command to warn about.
    pub fn resolve_lenient(args: &PathArgs, env: &Env) -> Result<(Settings, Option<Error>)> {
        Settings::resolve_with(args, env, true)
    }

    fn resolve_with(
        args: &PathArgs,
        env: &Env,
        lenient: bool,
    ) -> Result<(Settings, Option<Error>)> {
        let (config_path, config_source) = match &args.config {
            Some(g) => (env.absolute(&g.path), g.source),
            None => (env.default_config()?, Source::Default),
        };
        let mut broken = None;
        let text = match read_config_file(&config_path) {
            Ok(t) => Some(t),
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound && config_source == Source::Default =>
            {
                None
            }
            Err(e) => {
                let e = Error::io("read config file", &config_path, &e)
                    .with_hint("check --config / GOCLAW_CONFIG, or run `goclaw config init`");
                // A file that cannot be read (a directory, no permission) is broken: a command
                // that can go on without it says so and goes on. One named that does not exist
                // is a mistake in the command line, not a broken file.
                if !lenient || e.kind == crate::error::ErrorKind::NotFound {
                    return Err(e);
                }
                broken = Some(e);
                None
            }
        };
        let config_exists = text.is_some();
        let config = match text.map(|t| parse(&t, &config_path)) {
            Some(Ok(c)) => c,
            Some(Err(e)) if lenient => {
                broken = Some(e);
                Config::default()
            }
            Some(Err(e)) => return Err(e),
            None => Config::default(),
        };
        let config_dir = config_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| env.cwd.clone());
        check_store(&config.store, &config_path)?;
        if let Some(g) = &args.db {
            location::refuse_other_url(&g.path.to_string_lossy())?;
        }
        let given_url = args.db.as_ref().and_then(|g| {
            g.path
                .to_str()
                .filter(|t| location::is_url(t))
                .map(|t| (t, g.source))
        });
        let (db_path, db_source, db_url) = match (&args.db, &config.store.url, &config.store.path) {
            (Some(g), ..) => match given_url {
                Some((text, _)) => (env.default_db()?, g.source, Some(PgUrl::parse(text)?)),
                None => (env.absolute(&g.path), g.source, None),
            },
            (None, Some(url), _) => (env.default_db()?, Source::Config, Some(PgUrl::parse(url)?)),
            (None, None, Some(p)) => (config_dir.join(expand_tilde(p, env)), Source::Config, None),
            (None, None, None) => (env.default_db()?, Source::Default, None),
        };
        let (workspace, workspace_source) = match &args.workspace {
            Some(g) => (env.absolute(&g.path), g.source),
            None => (env.cwd.clone(), Source::Default),
        };
        // A command that goes on without its config (`scrub`, `db path`) has no use for the
        // workspace either: the directory it was started in may have any name.
        let unused = lenient && workspace_source == Source::Default;
        let checked = if unused { Path::new("") } else { &workspace };
        refuse_non_utf8(&[
            ("the workspace", checked),
            ("the store", &db_path),
            ("the config file", &config_path),
        ])?;
        if workspace_source != Source::Default && !workspace.is_dir() {
            return Err(Error::not_found(format!(
                "workspace {} is not a directory",
                workspace.display()
            )));
        }
        let settings = Settings {
            config_path,
            config_source,
            config_exists,
            db_path,
            db_source,
            db_url,
            workspace,
            workspace_source,
            config,
        };
        Ok((settings, broken))
    }
}

fn expand_tilde(p: &Path, env: &Env) -> PathBuf {
    match (p.strip_prefix("~"), &env.home) {
        (Ok(rest), Some(home)) => home.join(rest),
        _ => p.to_path_buf(),
    }
}

/// Where a config error sends people: the starter file covers the common sections only.
const CONFIG_KEYS_HINT: &str =
    "every key is in the README's sections (Configuration, Providers, Tools, MCP, …)";

/// The largest config file read: a config, not a data set.
const MAX_CONFIG_BYTES: u64 = 16 << 20;

/// The config file's text: a regular file (a FIFO with no writer blocked for ever, `/dev/zero`
/// filled memory), at most [`MAX_CONFIG_BYTES`], UTF-8.
fn read_config_file(path: &Path) -> std::io::Result<String> {
    let bytes = crate::host::read_regular_file(path, MAX_CONFIG_BYTES)?;
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Parses config text; errors name the file, the line and the offending key.
pub fn parse(text: &str, path: &Path) -> Result<Config> {
    let config: Config = parse_toml(text, path)?;
    let invalid = |msg: String| {
        Error::usage(format!("invalid config file {}: {msg}", path.display()))
            .with_hint(CONFIG_KEYS_HINT)
    };
    crate::policy::check_profiles(&config.policy_places()).map_err(invalid)?;
    let mut groups = vec![(
        "[tools.exec] deny_groups".to_string(),
        &config.tools.exec.deny_groups,
    )];
    for (key, agent) in &config.agents {
        groups.push((
            format!("[agents.{key}.tools.exec] deny_groups"),
            &agent.tools.exec.deny_groups,
        ));
    }
    for (key, agent) in &config.agents {
        if let Some(p) = agent.context_pruning.problem() {
            return Err(invalid(format!("[agents.{key}] {p}")));
        }
    }
    for (place, map) in groups {
        let unknown = crate::tools::exec::unknown_deny_groups(map);
        if !unknown.is_empty() {
            return Err(invalid(format!(
                "{place}: unknown deny group(s) {}",
                unknown.join(", ")
            )));
        }
    }
    Ok(config)
}

fn parse_toml(text: &str, path: &Path) -> Result<Config> {
    toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().to_string();
        let line = e.span().map(|span| error_line(text, span, &msg));
        let at = line.map(|l| format!(":{l}")).unwrap_or_default();
        Error::usage(format!("invalid config file {}{at}: {msg}", path.display()))
            .with_hint(CONFIG_KEYS_HINT)
    })
}

/// The line an error is about: for an unknown key, the line that sets it (toml reports the
/// whole table), else where the error's span starts.
fn error_line(text: &str, span: std::ops::Range<usize>, msg: &str) -> usize {
    let line_of = |at: usize| {
        text.as_bytes()[..at.min(text.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    };
    let key = msg
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split('`').next());
    if let Some(key) = key {
        let region = &text[span.start.min(text.len())..span.end.min(text.len())];
        let mut offset = span.start;
        for l in region.split_inclusive('\n') {
            let t = l.trim_start();
            if let Some(rest) = t.strip_prefix(key)
                && (rest.trim_start().starts_with('=') || rest.starts_with('.'))
            {
                return line_of(offset);
            }
            offset += l.len();
        }
    }
    line_of(span.start)
}

/// The commented starter file `goclaw config init` writes.
pub const STARTER: &str = r#"# goclaw configuration.
# Precedence for every setting: command-line flag > environment variable > this file > default.
# Unknown keys are an error, so a typo never goes unnoticed.

[store]
# The SQLite store shared by every goclaw command (created on first use, mode 0600).
# Relative paths are relative to this file. Default: $GOCLAW_HOME/goclaw.db or
# $XDG_DATA_HOME/goclaw/goclaw.db. Overridden by --db / GOCLAW_DB.
# path = "goclaw.db"
# How long to wait, in milliseconds, for another process's write before failing (exit 7).
# busy_timeout_ms = 10000

[scrub]
# Exact credential values every scrub redacts as [REDACTED] (values under 6 bytes are ignored).
# values = []
# Files holding one credential value per line.
# values_files = []
# Server addresses every scrub redacts as [SERVER_IP].
# server_ips = []
# Add this host's non-loopback interface addresses to server_ips (no network requests).
# detect_server_ips = false

[guard]
# Prompt-injection guard mode: off | log | warn | block.
# mode = "warn"
# Messages longer than this many bytes are truncated by the agent loop.
# max_message_chars = 32000

[input]
# The most bytes of one document read from stdin or @FILE (exit 2 past it).
# max_bytes = 67108864

[tools]
# Starting tool set: full (the default: every tool) | coding | messaging | minimal.
# profile = "coding"
# Keep only these tools (names or group:NAME); empty keeps all the profile gives.
# allow = []
# Remove these.
# deny = []
# Add these back, even if denied.
# also_allow = []
# Tool calls per hour per session key (per agent without a session); 0 turns the limit off.
# rate_limit_per_hour = 0
# Scrub credentials from every tool result.
# scrub_credentials = true
# Names inside the workspace that file tools refuse and hide.
# denied_paths = [".goclaw"]

# [tools.by_provider.anthropic]
# profile = "full"
# allow = []

[tools.exec]
# allow: run what the deny groups let through; deny: run nothing; ask: run what the
# allowlist (`goclaw approvals`) approves and ask for the rest.
# approval = "allow"
# timeout_secs = 60
# Turn a deny group off (or back on).
# deny_groups = { package_install = false }
# auto (Landlock, plus bubblewrap when installed) | landlock | bwrap | docker | none
# sandbox = "auto"
# network = false
# docker_image = "debian:bookworm-slim"
# Variables passed to commands beyond PATH, HOME, LANG, LC_*, TERM, … (never goclaw's keys).
# env = []
# Seconds an approval prompt waits for an answer before it denies.
# approval_timeout_secs = 120

# An agent: its own tool policy and exec settings.
# [agents.reviewer]
# description = "reads code, runs tests"
# [agents.reviewer.tools]
# profile = "coding"
# deny = ["write_file", "edit"]
# [agents.reviewer.tools.exec]
# approval = "ask"
"#;

/// `[store]`: a URL or a path, each of its kind.
fn check_store(store: &StoreConfig, config_path: &Path) -> Result<()> {
    if store.url.is_some() && store.path.is_some() {
        return Err(Error::usage(format!(
            "{}: [store] sets both url and path; keep one",
            config_path.display()
        )));
    }
    if let Some(url) = &store.url
        && !location::is_url(url)
    {
        location::refuse_other_url(url)?;
        return Err(Error::usage(format!(
            "{}: [store] url must be a postgres:// URL",
            config_path.display()
        )));
    }
    // A URL in `path` would name a SQLite file (`postgres:/…` beside the config), a
    // private store where a shared one was meant.
    if let Some(p) = store.path.as_ref().and_then(|p| p.to_str())
        && (location::is_url(p) || p.contains("://"))
    {
        return Err(Error::usage(format!(
            "{}: [store] path is a file; a URL goes in [store] url",
            config_path.display()
        ))
        .with_hint("[store]\nurl = \"postgres://USER@HOST/DATABASE\""));
    }
    Ok(())
}

/// Every path goclaw prints is written as JSON text, which holds UTF-8 only: a root that is not
/// UTF-8 is refused once, here, rather than failing (or printing something else) wherever it is
/// shown.
pub(crate) fn refuse_non_utf8(paths: &[(&str, &Path)]) -> Result<()> {
    for (what, path) in paths {
        if path.to_str().is_none() {
            return Err(Error::usage(format!(
                "{what} {} is not valid UTF-8: goclaw writes paths in JSON, which cannot hold it",
                path.display()
            ))
            .with_hint("rename it (or the directory it is in), or use a path that is UTF-8"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Env {
        Env {
            home: Some("/home/u".into()),
            cwd: "/work".into(),
            ..Env::default()
        }
    }

    #[test]
    fn xdg_defaults_and_goclaw_home() {
        let e = env();
        assert_eq!(
            e.default_config().unwrap(),
            PathBuf::from("/home/u/.config/goclaw/config.toml")
        );
        assert_eq!(
            e.default_db().unwrap(),
            PathBuf::from("/home/u/.local/share/goclaw/goclaw.db")
        );
        let e = Env {
            xdg_config_home: Some("/x/c".into()),
            xdg_data_home: Some("/x/d".into()),
            ..env()
        };
        assert_eq!(
            e.default_config().unwrap(),
            PathBuf::from("/x/c/goclaw/config.toml")
        );
        assert_eq!(
            e.default_db().unwrap(),
            PathBuf::from("/x/d/goclaw/goclaw.db")
        );
        let e = Env {
            goclaw_home: Some("gh".into()),
            ..e
        };
        assert_eq!(
            e.default_config().unwrap(),
            PathBuf::from("/work/gh/config.toml")
        );
        assert_eq!(e.default_db().unwrap(), PathBuf::from("/work/gh/goclaw.db"));
        let e = Env {
            home: None,
            ..Env::default()
        };
        assert!(e.default_db().is_err());
    }

    #[test]
    fn unknown_keys_name_key_file_and_line() {
        let err = parse(
            "[store]\npath = \"x\"\n\n[guard]\nmood = \"warn\"\n",
            Path::new("/c.toml"),
        )
        .unwrap_err();
        assert!(err.message.contains("/c.toml:5"), "{}", err.message);
        assert!(err.message.contains("mood"), "{}", err.message);
        let err = parse("[nope]\n", Path::new("/c.toml")).unwrap_err();
        assert!(err.message.contains("nope"), "{}", err.message);
    }

    #[test]
    fn starter_file_parses_to_defaults() {
        assert_eq!(parse(STARTER, Path::new("s")).unwrap(), Config::default());
    }
}
