//! The command line: the top-level command, the global flags shared by every subcommand, and
//! dispatch. Each subcommand lives in its own file with its clap definition and a handler that
//! turns flags into options and calls the library. Help, man pages and completions are all
//! generated from these definitions (see [`docs`]).

use std::cell::OnceCell;
use std::ffi::OsString;
use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::config::{Env, Given, PathArgs, Settings, Source};
use crate::error::{Error, ErrorKind, Result};
use crate::output::Output;
use crate::store::Store;

pub mod agents;
pub mod approvals;
pub mod completions;
pub mod config;
pub mod cron;
pub mod db;
pub mod docs;
pub mod doctor;
pub mod guard;
pub mod help;
pub mod human;
pub mod input;
pub mod kg;
pub mod mcp;
pub mod mcp_content;
pub mod media;
pub mod message;
pub mod policy;
pub mod process;
pub mod providers;
mod reader;
pub mod run;
pub mod runs;
mod sandbox_args;
pub mod sanitize;
pub mod schema;
pub mod scrub;
pub mod secure_cli;
pub mod sessions;
pub mod shared;
pub mod signals;
pub mod skills;
pub mod table;
pub mod tasks;
pub mod team;
pub mod team_run;
pub mod terminal;
pub mod tool_call;
pub mod tools;
pub mod traces;
pub mod version;

const ABOUT: &str =
    "The GoClaw agent platform as a Unix toolbox: one SQLite store, JSON in and out";

const LONG_ABOUT: &str = "The GoClaw agent platform as a Unix toolbox: git-style subcommands over one \
SQLite store, JSON in and out.\n\n\
Data goes to stdout and human messages to stderr. Commands that return records print JSON when \
stdout is not a terminal (or with --json) and text on a terminal (or with --human). On failure, \
JSON mode prints exactly one error document {\"error\":{\"code\",\"exit_code\",\"message\",\"hint\"}} \
on stdout; a one-line message always goes to stderr. A closed pipe ends a command quietly with \
exit 0. Nothing ever prompts without a terminal.";

/// goclaw: the top-level command, parsed.
#[derive(Debug)]
pub struct Cli {
    pub global: GlobalArgs,
    pub command: Command,
}

/// The top-level command without its subcommands: its name, texts, settings and the global
/// flags. [`Cli`]'s definition is this with every subcommand added; a parse adds only the one
/// its command line names ([`command_for`]).
#[derive(Debug, Parser)]
#[command(
    name = "goclaw",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    disable_help_subcommand = true,
    propagate_version = true,
    max_term_width = 100,
    subcommand_required = true,
    arg_required_else_help = true
)]
struct TopLevel {
    #[command(flatten)]
    global: GlobalArgs,
}

impl CommandFactory for Cli {
    fn command() -> clap::Command {
        Command::augment_subcommands(TopLevel::command())
    }

    fn command_for_update() -> clap::Command {
        Command::augment_subcommands_for_update(TopLevel::command_for_update())
    }
}

impl FromArgMatches for Cli {
    fn from_arg_matches(matches: &ArgMatches) -> std::result::Result<Self, clap::Error> {
        Ok(Cli {
            global: GlobalArgs::from_arg_matches(matches)?,
            command: Command::from_arg_matches(matches)?,
        })
    }

    fn update_from_arg_matches(
        &mut self,
        matches: &ArgMatches,
    ) -> std::result::Result<(), clap::Error> {
        self.global.update_from_arg_matches(matches)?;
        self.command.update_from_arg_matches(matches)
    }
}

// Flags every subcommand accepts.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// The store: a SQLite file, or a postgres:// URL [default: $GOCLAW_HOME/goclaw.db or
    /// $XDG_DATA_HOME/goclaw/goclaw.db]
    #[arg(
        long,
        global = true,
        env = shared::env_unless_empty("GOCLAW_DB"),
        hide_env_values = true,
        value_name = "PATH|URL"
    )]
    pub db: Option<PathBuf>,
    /// The config file [default: $GOCLAW_HOME/config.toml or $XDG_CONFIG_HOME/goclaw/config.toml]
    #[arg(
        long,
        global = true,
        env = shared::env_unless_empty("GOCLAW_CONFIG"),
        hide_env_values = true,
        value_name = "PATH"
    )]
    pub config: Option<PathBuf>,
    /// The workspace directory tools work in [default: the current directory]
    #[arg(
        long,
        global = true,
        env = shared::env_unless_empty("GOCLAW_WORKSPACE"),
        hide_env_values = true,
        value_name = "DIR"
    )]
    pub workspace: Option<PathBuf>,
    /// Print JSON even on a terminal
    #[arg(long, global = true, conflicts_with = "human")]
    pub json: bool,
    /// Print human text even when stdout is not a terminal
    #[arg(long, global = true)]
    pub human: bool,
    /// Print no warnings or notes on stderr (errors still are)
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Say more on stderr
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Run an agent: Think → Act → Observe until it answers
    Run(Box<run::RunArgs>),
    /// Agent runs: list, show, wait for and cancel them
    Runs(runs::RunsArgs),
    /// Sessions: their messages, kept in the store
    Sessions(sessions::SessionsArgs),
    /// Agents and their context files
    Agents(agents::AgentsArgs),
    /// Traces of runs: LLM and tool spans, tokens, cost
    Traces(traces::TracesArgs),
    /// Redact credentials from text: files or stdin to stdout
    Scrub(scrub::ScrubArgs),
    /// Detect prompt injection in a message
    Guard(guard::GuardArgs),
    /// Clean LLM output: tool-call debris, thinking blocks, echoed system text
    Sanitize(sanitize::SanitizeArgs),
    /// List, describe and run tools through the gate; read the audit trail
    Tools(tools::ToolsArgs),
    /// Explain the tool policy for an agent, or for one call
    Policy(policy::PolicyArgs),
    /// Manage the exec allowlist
    Approvals(approvals::ApprovalsArgs),
    /// Scheduled agent runs and tool calls: add, list, tick (from crontab), daemon
    Cron(cron::CronArgs),
    /// Credentialed CLIs for credentialed_exec: register, list, remove
    SecureCli(secure_cli::SecureCliArgs),
    /// The knowledge graph: entities, relations, search, export
    Kg(kg::KgArgs),
    /// Send a message to a channel (stdout, a file, a webhook, a command); list the channels
    Message(message::MessageArgs),
    /// Background commands that exec started: list, poll, log, kill
    Process(process::ProcessArgs),
    /// Make images and speech, read images, recordings and documents ([media] providers)
    Media(media::MediaArgs),
    /// LLM providers: list, probe, and call an endpoint of one through the gate
    Providers(providers::ProvidersArgs),
    /// Skills: list, search and show
    Skills(skills::SkillsArgs),
    /// Teams of agents, their settings, and the mailbox
    Team(team::TeamArgs),
    /// The team task board
    Tasks(tasks::TasksArgs),
    /// MCP servers, grants and access requests
    Mcp(mcp::McpArgs),
    /// Inspect and maintain the store (SQLite, or PostgreSQL)
    Db(db::DbArgs),
    /// Show or create the configuration
    Config(config::ConfigArgs),
    /// Check the config, the store, providers, MCP servers and the sandbox; exit 1 if broken
    Doctor(doctor::DoctorArgs),
    /// Print a shell completion script
    Completions(completions::CompletionsArgs),
    /// Show help for a command, or a topic: exit-codes
    Help(help::HelpArgs),
    /// Show the version, the commit it was built from and the store schema version
    Version(version::VersionArgs),
    /// Print the JSON Schema of a document goclaw prints (event, run, error, task, …)
    Schema(schema::SchemaArgs),
}

/// What a successful command tells `main` about the exit code: usually 0, sometimes a
/// non-error failure whose output is already printed (e.g. `scrub --check` found secrets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok,
    Exit(ErrorKind),
}

impl Status {
    pub fn code(self) -> u8 {
        match self {
            Status::Ok => 0,
            Status::Exit(kind) => kind.exit_code(),
        }
    }
}

/// What a handler gets: how to print, and lazily resolved paths and configuration.
pub struct Context {
    pub out: Output,
    /// `--json` was given explicitly (text filters print JSON only then).
    pub json_flag: bool,
    paths: PathArgs,
    settings: OnceCell<Settings>,
}

impl Context {
    /// Paths and config, resolved on first use (so `completions` works with a broken config).
    pub fn settings(&self) -> Result<&Settings> {
        if let Some(s) = self.settings.get() {
            return Ok(s);
        }
        let s = Settings::resolve(&self.paths, &Env::from_process()?)?;
        self.say_settings(&s);
        Ok(self.settings.get_or_init(|| s))
    }

    /// With `-v`: which config file and workspace this command uses, and where they came from.
    fn say_settings(&self, s: &Settings) {
        if !self.out.is_verbose() {
            return;
        }
        self.out.verbose(&format!(
            "config {} (from {}{})",
            s.config_path.display(),
            s.config_source.as_str(),
            if s.config_exists { "" } else { "; absent" }
        ));
        self.out.verbose(&format!(
            "workspace {} (from {})",
            s.workspace.display(),
            s.workspace_source.as_str()
        ));
    }

    /// [`Context::settings`] for a command that works without the configuration: a config file
    /// that does not parse is warned about and its settings left out (the defaults stand).
    pub fn settings_lenient(&self, what_is_lost: &str) -> Result<&Settings> {
        if let Some(s) = self.settings.get() {
            return Ok(s);
        }
        let (s, broken) = Settings::resolve_lenient(&self.paths, &Env::from_process()?)?;
        if let Some(e) = broken {
            self.out.warn(&format!(
                "{}; going on without it: {what_is_lost}",
                e.message
            ));
        }
        self.say_settings(&s);
        Ok(self.settings.get_or_init(|| s))
    }

    /// The `--config`, `--db` and `--workspace` given, and where from.
    pub fn path_args(&self) -> &PathArgs {
        &self.paths
    }

    /// Opens (creating and migrating as needed) the store of either backend, for a command
    /// whose code runs on the database layer.
    pub fn any_store(&self) -> Result<Store> {
        self.open_store(self.settings()?.store_target())
    }

    /// Opens (creating and migrating as needed) the SQLite store; a command not on the database
    /// layer yet refuses a PostgreSQL one here, before it touches anything.
    pub fn store(&self) -> Result<Store> {
        let settings = self.settings()?;
        settings.sqlite_path()?;
        self.open_store(settings.store_target())
    }

    fn open_store(&self, target: crate::store::StoreTarget) -> Result<Store> {
        let store = target.open()?;
        // A store made by this open (its first migration applied now) at a path someone named:
        // said, so a mistyped --db's empty board is not taken for the real one's.
        let made = store.applied().first().is_some_and(|m| m.version == 1);
        if made
            && matches!(target, crate::store::StoreTarget::Sqlite { .. })
            && self.settings()?.db_source != crate::config::Source::Default
        {
            self.out.note(&format!(
                "note: created a new, empty store at {}",
                target.location()
            ));
        }
        if let Some(s) = self
            .out
            .is_verbose()
            .then(|| self.settings().ok())
            .flatten()
        {
            self.out.verbose(&format!(
                "store {} (from {})",
                target.location(),
                s.db_source.as_str()
            ));
        }
        for m in store.applied() {
            self.out.verbose(&format!(
                "store {}: applied migration {:03}_{}",
                target.location(),
                m.version,
                m.name
            ));
        }
        Ok(store)
    }
}

/// The clap command with everything derive cannot say (the exit-code table in the long help).
pub fn command() -> clap::Command {
    Cli::command().after_long_help(crate::error::exit_code_table())
}

/// A parse that did not produce a command: help or version text, or a usage error.
pub enum Early {
    Print(String),
    Fail(Output, Error),
}

/// goclaw's own helper processes, before any parsing: the exec sandbox's re-exec
/// (`goclaw __sandbox-exec …`), which applies the sandbox and runs the command, returning only
/// the exit code of a failure to; a background command's keeper (`goclaw __keep-process`); and
/// the PDF reader of `read_document` (`goclaw __pdf-text`).
/// `None` for any other command line.
pub fn sandbox_exec(args: &[OsString]) -> Option<u8> {
    use crate::tools::exec::sandbox::REEXEC_SUBCOMMAND;
    if args.len() == 2 && args[1] == crate::tools::exec::keeper::SUBCOMMAND {
        return Some(crate::tools::exec::keeper::main());
    }
    if args.len() == 2 && args[1] == crate::tools::media::pdf::SUBCOMMAND {
        return Some(crate::tools::media::pdf::child_main());
    }
    if args.get(1).is_none_or(|a| a != REEXEC_SUBCOMMAND) {
        return None;
    }
    let out = Output::new(false, true, false, 0).for_filter(false);
    let a = match sandbox_args::SandboxExecArgs::try_parse_from(&args[1..]) {
        Ok(a) => a,
        Err(e) => {
            let err = Error::usage(e.to_string().lines().next().unwrap_or("").to_string());
            out.error(&err);
            return Some(err.kind.exit_code());
        }
    };
    // Returns only when it could not exec.
    let why = crate::tools::exec::supervise::supervise(&crate::tools::exec::supervise::Options {
        writable: a.writable,
        pinned: a.pinned,
        masked: a.masked,
        network: a.net,
        no_sandbox: a.no_sandbox,
        parent: a.parent,
        guarded: a.guarded,
        grace: std::time::Duration::from_millis(a.grace_ms),
        report_fd: a.report_fd,
        argv: a.argv,
    });
    let err = Error::failed(format!("sandbox: {why}"));
    out.error(&err);
    Some(err.kind.exit_code())
}

/// Parses the command line.
pub fn parse(args: Vec<OsString>) -> std::result::Result<(Cli, ArgMatches), Early> {
    // The definitions are freed here, before the command runs: leaking them saved their ~5 %
    // of the instructions, but the memory they leave is what the store's schema reuses, and
    // without it a `tools exec read_file` faulted in 70 more pages of heap (and took longer).
    let matches = command_for(&args)
        .try_get_matches_from(&args)
        .map_err(|e| clap_failure(&args, e))?;
    let cli = Cli::from_arg_matches(&matches).map_err(|e| clap_failure(&args, e))?;
    Ok((cli, matches))
}

fn clap_failure(args: &[OsString], e: clap::Error) -> Early {
    use clap::error::ErrorKind as K;
    match e.kind() {
        K::DisplayVersion if args.iter().skip(1).any(|a| a == "--json") => {
            Early::Print(version::json_line())
        }
        K::DisplayHelp | K::DisplayVersion => Early::Print(e.render().to_string()),
        _ => {
            let has = |flag: &str| args.iter().skip(1).any(|a| a == flag);
            let mut out = Output::new(has("--json"), has("--human"), false, 0);
            if is_filter(&subcommand_of(&TopLevel::command(), args).0) {
                out = out.for_filter(has("--json"));
            }
            if e.kind() == K::DisplayHelpOnMissingArgumentOrSubcommand {
                // A command left out is a usage error; the help goes to stderr for people.
                out.stderr_text(&e.render().to_string());
                return Early::Fail(
                    out,
                    Error::usage("a subcommand is required")
                        .with_hint("see the list of commands above, or `goclaw --help`"),
                );
            }
            // clap's first paragraph, on one line: what was missing may be on its next lines
            // ("the following required arguments were not provided:\n  <PROGRAM>").
            let rendered = e.render().to_string();
            let paragraph: Vec<&str> = rendered
                .lines()
                .map(str::trim)
                .take_while(|line| !line.is_empty())
                .collect();
            let first = paragraph.join(" ");
            let message = match first.strip_prefix("error: ") {
                Some(rest) => rest.to_string(),
                None if first.is_empty() => "invalid arguments".to_string(),
                None => first,
            };
            let hint = match suggestion(&e) {
                Some(s) => format!("did you mean `{s}`? (`goclaw help COMMAND` shows the usage)"),
                None => "see `goclaw --help` or `goclaw help COMMAND`".to_string(),
            };
            Early::Fail(out, Error::usage(message).with_hint(hint))
        }
    }
}

/// The text filters: stdout is their data stream, never an error's.
fn is_filter(subcommand: &str) -> bool {
    matches!(subcommand, "scrub" | "sanitize")
}

/// The definitions a parse of `args` needs. clap copies every global flag into each subcommand
/// of a command it builds, whether the command line uses that subcommand or not: 7 flags into
/// 29 subcommands, and dropping those copies again, were a sixth of a `tasks claim --next`
/// process's instructions. When only global flags come before the first other word and that
/// word names a subcommand, the top level gets that subcommand alone; the parse, its errors and
/// the subcommand's help are the same, since none of them looks at the other subcommands. Any
/// other command line (`--help`, `--version`, no subcommand, an unknown or misspelt one) gets
/// them all, so the top level's help and suggestions are unchanged.
fn command_for(args: &[OsString]) -> clap::Command {
    let top = TopLevel::command();
    let (name, only_global_flags_before) = subcommand_of(&top, args);
    if only_global_flags_before {
        // The subcommands are deferred: this builds each one's name and about line only.
        let all = Command::augment_subcommands(clap::Command::new("goclaw"));
        if let Some(sub) = all.find_subcommand(&name) {
            return top.subcommand(sub.clone());
        }
    }
    command()
}

/// The subcommand a command line names: the first word that is neither a flag nor the value of
/// a top-level flag that takes one (empty when there is none), and whether only the top level's
/// own flags (`top`'s: the global ones) came before it.
fn subcommand_of(top: &clap::Command, args: &[OsString]) -> (String, bool) {
    let mut only_global = true;
    let mut words = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(w) = words.next() {
        if !w.starts_with('-') {
            return (w.into_owned(), only_global);
        }
        match top_level_flags(top, &w) {
            // clap takes no value that starts with a dash (`--db -- x`: `--` ends the flags),
            // so such a line is left to the whole definition.
            Some(true) => only_global &= words.next().is_some_and(|v| !v.starts_with('-')),
            Some(false) => {}
            None => only_global = false,
        }
    }
    (String::new(), false)
}

/// Whether `word` (which starts with a dash) is made of `top`'s own flags, as they are defined:
/// `None` if not, else whether the next word is the value of its last flag (`--db PATH`, but not
/// `--db=PATH` or `-vv`). `--help` and `--version` are not among them before clap builds `top`.
fn top_level_flags(top: &clap::Command, word: &str) -> Option<bool> {
    let takes_value = |a: &clap::Arg| a.get_action().takes_values();
    if let Some(long) = word.strip_prefix("--") {
        let (name, inline) = long
            .split_once('=')
            .map_or((long, false), |(n, _)| (n, true));
        let arg = top.get_arguments().find(|a| a.get_long() == Some(name))?;
        return Some(takes_value(arg) && !inline);
    }
    let mut shorts = word.strip_prefix('-').filter(|s| !s.is_empty())?.chars();
    while let Some(c) = shorts.next() {
        let arg = top.get_arguments().find(|a| a.get_short() == Some(c))?;
        if takes_value(arg) {
            return Some(shorts.as_str().is_empty());
        }
    }
    Some(false)
}

/// The closest subcommand or flag clap found for a misspelt one (`tols` -> `tools`).
fn suggestion(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    [ContextKind::SuggestedSubcommand, ContextKind::SuggestedArg]
        .into_iter()
        .find_map(|kind| match e.get(kind)? {
            ContextValue::String(s) => Some(s.clone()),
            // clap lists the candidates from the least to the most alike.
            ContextValue::Strings(v) => v.last().cloned(),
            _ => None,
        })
}

/// Builds the context and runs the command.
pub fn run(cli: Cli, matches: &ArgMatches) -> (Output, Result<Status>) {
    let g = &cli.global;
    let out = Output::new(g.json, g.human, g.quiet, g.verbose);
    crate::store::db::on_connect(signals::cancel_statements_on_signal);
    let warn = out.clone();
    crate::store::db::on_outage(move |outage| warn.warn(&outage.to_string()));
    crate::store::db::stop_waiting_when(|| signals::received().map(|why| why.error_kind()));
    let given = |id: &str, value: &Option<PathBuf>| {
        value.as_ref().map(|p| Given {
            path: p.clone(),
            source: match matches.value_source(id) {
                Some(ValueSource::EnvVariable) => Source::Env,
                _ => Source::Flag,
            },
        })
    };
    let ctx = Context {
        out: out.clone(),
        json_flag: g.json,
        paths: PathArgs {
            config: given("config", &g.config),
            db: given("db", &g.db),
            workspace: given("workspace", &g.workspace),
        },
        settings: OnceCell::new(),
    };
    let out = match &cli.command {
        Command::Scrub(_) | Command::Sanitize(_) => out.for_filter(g.json),
        // stdout is the MCP client's JSON-RPC stream: an error never goes there.
        Command::Mcp(mcp::McpArgs {
            command: mcp::McpCommand::Serve(_),
        }) => out.for_filter(false),
        _ => out,
    };
    let result = match cli.command {
        Command::Run(a) => run::run(&ctx, *a),
        Command::Runs(a) => runs::run(&ctx, a),
        Command::Sessions(a) => sessions::run(&ctx, a),
        Command::Agents(a) => agents::run(&ctx, a),
        Command::Traces(a) => traces::run(&ctx, a),
        Command::Scrub(a) => scrub::run(&ctx, a),
        Command::Guard(a) => guard::run(&ctx, a),
        Command::Sanitize(a) => sanitize::run(&ctx, a),
        Command::Tools(a) => tools::run(&ctx, a),
        Command::Policy(a) => policy::run(&ctx, a),
        Command::Approvals(a) => approvals::run(&ctx, a),
        Command::Cron(a) => cron::run(&ctx, a),
        Command::SecureCli(a) => secure_cli::run(&ctx, a),
        Command::Kg(a) => kg::run(&ctx, a),
        Command::Message(a) => message::run(&ctx, a),
        Command::Process(a) => process::run(&ctx, a),
        Command::Media(a) => media::run(&ctx, a),
        Command::Providers(a) => providers::run(&ctx, a),
        Command::Skills(a) => skills::run(&ctx, a),
        Command::Team(a) => team::run(&ctx, a),
        Command::Tasks(a) => tasks::run(&ctx, a),
        Command::Mcp(a) => mcp::run(&ctx, a),
        Command::Db(a) => db::run(&ctx, a),
        Command::Config(a) => config::run(&ctx, a),
        Command::Doctor(a) => doctor::run(&ctx, a),
        Command::Completions(a) => completions::run(&ctx, a),
        Command::Help(a) => help::run(&ctx, a),
        Command::Version(a) => version::run(&ctx, a),
        Command::Schema(a) => schema::run(&ctx, a),
    };
    (out, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn a_parse_builds_only_the_subcommand_its_command_line_names() {
        let all = command().get_subcommands().count();
        let count = |line: &str| command_for(&words(line)).get_subcommands().count();
        assert!(all > 20);
        for pruned in [
            "goclaw tasks list",
            "goclaw --json -vv -q --db=/x --config /c --workspace /w tasks list",
            "goclaw --db tasks team list",
        ] {
            assert_eq!(count(pruned), 1, "{pruned}");
        }
        assert_eq!(
            command_for(&words("goclaw --db tasks team list"))
                .get_subcommands()
                .next()
                .map(|c| c.get_name().to_string()),
            Some("team".to_string())
        );
        for whole in [
            "goclaw",
            "goclaw --help",
            "goclaw -h tasks",
            "goclaw --version tasks",
            "goclaw tols",
            "goclaw --no-such-flag tasks",
            "goclaw --db",
            "goclaw --db -- --db=x tasks list",
            "goclaw --config -x tasks list",
        ] {
            assert_eq!(count(whole), all, "{whole}");
        }
    }

    #[test]
    fn help_and_errors_are_the_same_with_one_subcommand_or_all() {
        let mut full = command();
        full.build();
        let mut lines = vec![
            "goclaw --db -- --db=x tasks list".to_string(),
            "goclaw --human --config -- --config x version".to_string(),
            "goclaw --workspace -- --db=runs scrub".to_string(),
        ];
        for sub in full.get_subcommands() {
            let name = sub.get_name();
            lines.push(format!("goclaw {name} --help"));
            lines.push(format!("goclaw --json {name} --no-such-flag"));
            for leaf in sub.get_subcommands() {
                let leaf = leaf.get_name();
                lines.push(format!("goclaw -q {name} {leaf} --help"));
                lines.push(format!("goclaw {name} {leaf} --no-such-flag"));
            }
        }
        assert!(lines.len() > 100);
        let outcome = |cmd: clap::Command, line: &str| match cmd.try_get_matches_from(words(line)) {
            Ok(m) => format!("parsed {:?}", m.subcommand_name()),
            Err(e) => format!("{:?}: {}", e.kind(), e.render()),
        };
        for line in &lines {
            let args = words(line);
            assert_eq!(
                outcome(command_for(&args), line),
                outcome(command(), line),
                "{line}"
            );
        }
    }
}
