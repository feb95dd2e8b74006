//! The tool runtime: the [`Tool`] trait, results, the registry, and the built-in tools, one file
//! (or folder) per tool family. Nothing reaches a tool except through [`gate`], which applies
//! policy, rate limits, approvals, scrubbing and the audit record in that order.

pub mod ask;
pub mod child_run;
pub mod config;
pub mod credentialed;
pub mod cron;
pub mod custom;
pub mod datetime;
pub mod exec;
pub mod fs;
pub mod gate;
pub mod knowledge;
pub mod mcp_search;
pub mod media;
pub mod memory;
pub mod message;
pub mod process;
pub mod protected;
pub mod provider_call;
pub mod schema;
pub mod sessions;
pub mod skills;
pub mod spawn;
pub mod team;
pub mod todo;
pub mod web;
pub mod workspace;
pub mod workspace_dir;

use std::collections::HashMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How much harm a tool can do (seed 004's ratings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    Safe,
    Medium,
    Dangerous,
    Destructive,
}

impl Risk {
    /// The level as config and documents spell it.
    pub fn name(self) -> &'static str {
        match self {
            Risk::Safe => "safe",
            Risk::Medium => "medium",
            Risk::Dangerous => "dangerous",
            Risk::Destructive => "destructive",
        }
    }
}

/// How a command a tool ran ended.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Exit {
    /// It exited with this code.
    ExitCode(i32),
    /// This signal killed it.
    ExitSignal(i32),
}

/// What a tool returns (reference §1.1).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct ToolResult {
    /// The text fed back to the model.
    pub for_llm: String,
    /// Text for the user, when it differs.
    pub for_user: Option<String>,
    pub is_error: bool,
    pub silent: bool,
    #[serde(rename = "async")]
    pub is_async: bool,
    /// How the command the tool ran ended (exec, a custom tool), as `"exit_code": N` or
    /// `"exit_signal": N`: for scripts (`jq .result.exit_code`); the model reads the text, as
    /// GoClaw's exec wrote it.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub exit: Option<Exit>,
    /// For an error: what kind, when it is more than "the tool failed" (a timeout is exit 7, a
    /// lost claim exit 6 on the command line).
    #[serde(skip)]
    pub error_kind: Option<crate::error::ErrorKind>,
    /// Credential values the tool put into what it ran (a credentialed CLI's, a custom tool's
    /// variables): the gate scrubs them from the result, whatever the scrub setting.
    #[serde(skip)]
    pub secrets: Vec<Vec<u8>>,
}

impl ToolResult {
    pub fn text(s: impl Into<String>) -> ToolResult {
        ToolResult {
            for_llm: s.into(),
            ..ToolResult::default()
        }
    }
    pub fn silent(s: impl Into<String>) -> ToolResult {
        ToolResult {
            for_llm: s.into(),
            silent: true,
            ..ToolResult::default()
        }
    }
    pub fn error(s: impl Into<String>) -> ToolResult {
        ToolResult {
            for_llm: s.into(),
            is_error: true,
            ..ToolResult::default()
        }
    }
    /// A call its caller stopped (`why`: a signal or the deadline): an error result that
    /// exits as the stop does (129, 130, 143, 7).
    pub fn stopped(s: impl Into<String>, why: Stopped) -> ToolResult {
        ToolResult {
            error_kind: Some(why.error_kind()),
            ..ToolResult::error(s)
        }
    }
    /// The result of a tool's body that may fail: its error as an error result (kind kept).
    pub fn from_result(r: crate::error::Result<ToolResult>) -> ToolResult {
        r.unwrap_or_else(|e| ToolResult::from_error(&e))
    }
    /// An error result that keeps the error's kind.
    pub fn from_error(e: &crate::error::Error) -> ToolResult {
        ToolResult {
            for_llm: e.message.clone(),
            is_error: true,
            error_kind: Some(e.kind),
            ..ToolResult::default()
        }
    }
    /// The result of a call whose arguments are wrong (a required one missing or empty): the
    /// caller's mistake, a usage error (exit 2) when a person or script made the call; the model
    /// reads `message` as GoClaw words it.
    pub fn bad_args(message: &str) -> ToolResult {
        ToolResult::from_error(&crate::error::Error::usage(message))
    }
    pub fn user(s: impl Into<String>) -> ToolResult {
        let s = s.into();
        ToolResult {
            for_user: Some(s.clone()),
            for_llm: s,
            ..ToolResult::default()
        }
    }
}

/// An error ends a tool's body with its error result (for `?` in tools that return results).
impl From<crate::error::Error> for ToolResult {
    fn from(e: crate::error::Error) -> ToolResult {
        ToolResult::from_error(&e)
    }
}

/// Why a call was stopped before its tool finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The caller's deadline passed (a run's `--timeout`).
    Deadline,
    /// SIGHUP: the terminal the command ran in closed.
    HungUp,
    /// SIGINT.
    Interrupted,
    /// SIGTERM.
    Terminated,
}

impl Stopped {
    /// The signals that stop a command, as [`Stopped`] names them.
    pub const SIGNALS: [Stopped; 3] = [Stopped::HungUp, Stopped::Interrupted, Stopped::Terminated];

    /// The error kind a command line exits with (7, 129, 130, 143).
    pub fn error_kind(self) -> crate::error::ErrorKind {
        match self {
            Stopped::Deadline => crate::error::ErrorKind::Timeout,
            Stopped::HungUp => crate::error::ErrorKind::HungUp,
            Stopped::Interrupted => crate::error::ErrorKind::Interrupted,
            Stopped::Terminated => crate::error::ErrorKind::Terminated,
        }
    }

    /// The signal that stops this way (`None` for a deadline).
    pub fn signal(self) -> Option<nix::sys::signal::Signal> {
        use nix::sys::signal::Signal;
        match self {
            Stopped::Deadline => None,
            Stopped::HungUp => Some(Signal::SIGHUP),
            Stopped::Interrupted => Some(Signal::SIGINT),
            Stopped::Terminated => Some(Signal::SIGTERM),
        }
    }

    /// The stop a signal number means, if it is one of [`Stopped::SIGNALS`].
    pub fn from_signal(number: i32) -> Option<Stopped> {
        Self::SIGNALS
            .into_iter()
            .find(|s| s.signal().is_some_and(|sig| sig as i32 == number))
    }

    /// How a message says it: "interrupted (SIGINT)" ([`ErrorKind::stop_text`]), "the run's
    /// deadline passed".
    ///
    /// [`ErrorKind::stop_text`]: crate::error::ErrorKind::stop_text
    pub fn describe(self) -> &'static str {
        self.error_kind()
            .stop_text()
            .unwrap_or("the run's deadline passed")
    }
}

/// The signal that stopped a command, shared between whoever watches the signals and the
/// calls that must stop: unset, or one of [`Stopped::SIGNALS`] (the first one wins).
#[derive(Debug, Clone, Default)]
pub struct SignalFlag(std::sync::Arc<std::sync::atomic::AtomicI32>);

impl SignalFlag {
    /// Records `why` (a signal: a deadline is not one); returns whether a signal was already
    /// recorded.
    pub fn raise(&self, why: Stopped) -> bool {
        let number = why.signal().map_or(0, |s| s as i32);
        self.0
            .compare_exchange(
                0,
                number,
                std::sync::atomic::Ordering::SeqCst,
                std::sync::atomic::Ordering::SeqCst,
            )
            .is_err()
    }

    /// The signal recorded, if any.
    pub fn get(&self) -> Option<Stopped> {
        Stopped::from_signal(self.0.load(std::sync::atomic::Ordering::SeqCst))
    }
}

/// When a call must stop early: the caller's deadline, and the signal flag. A tool that waits
/// (exec) checks it while it waits.
#[derive(Debug, Clone, Default)]
pub struct StopWhen {
    pub deadline: Option<std::time::Instant>,
    pub signal: Option<SignalFlag>,
    /// What the deadline's passing means, when it is not the run's own deadline (a part of
    /// it given to one step): what a wait it stops says.
    pub deadline_is: Option<&'static str>,
}

impl StopWhen {
    /// Why a wait stopped, as its message says it: [`Stopped::describe`], or for the deadline
    /// what this one is.
    pub fn describe(&self, why: Stopped) -> &'static str {
        match (why, self.deadline_is) {
            (Stopped::Deadline, Some(what)) => what,
            _ => why.describe(),
        }
    }

    /// Has the call to stop, and why?
    pub fn check(&self) -> Option<Stopped> {
        self.signal.as_ref().and_then(SignalFlag::get).or_else(|| {
            self.deadline
                .filter(|d| std::time::Instant::now() >= *d)
                .map(|_| Stopped::Deadline)
        })
    }

    /// `limit`, shortened to the time left before the deadline.
    pub fn cap(&self, limit: std::time::Duration) -> std::time::Duration {
        match self.deadline {
            Some(d) => limit.min(d.saturating_duration_since(std::time::Instant::now())),
            None => limit,
        }
    }
}

/// Who is calling, from where, and in which workspace (§1.3 step 2). Only the gate makes one
/// (see [`gate::Sealed`]).
#[derive(Debug)]
pub struct CallContext {
    pub agent: Option<String>,
    pub user: Option<String>,
    pub session_key: Option<String>,
    pub channel: Option<String>,
    pub chat_id: Option<String>,
    pub peer_kind: Option<String>,
    /// The directory file tools are confined to and exec runs in.
    pub workspace: PathBuf,
    /// Names inside the workspace that file tools refuse and hide: `[tools] denied_paths`
    /// (default `.goclaw`) and the protected paths that lie inside it.
    pub denied_paths: Vec<String>,
    /// goclaw's own state (absolute): denied to the file tools, masked in the exec sandbox.
    pub protected: Vec<PathBuf>,
    /// The effective `[tools.exec]` settings for this agent.
    pub exec: exec::ExecSettings,
    /// Where the store is, for the runs and ticks a tool starts.
    pub store: crate::store::StoreTarget,
    /// Where `secret.key` is.
    pub key_dir: PathBuf,
    /// The agents defined in config.
    pub known_agents: Vec<String>,
    /// The agent is `type = "predefined"` (context files shared, USER.md per user).
    pub agent_predefined: bool,
    /// Embeddings for memory documents, when configured.
    pub embedder: Option<crate::memory::embed::Embedder>,
    /// `[providers]`, for `openai_compat_call`.
    pub providers: gate::Providers,
    /// `[channels]`, for `message`.
    pub channels: std::sync::Arc<message::Channels>,
    /// `[media]`, for the media tools.
    pub media: std::sync::Arc<media::MediaConfig>,
    /// The MCP tools the caller may use, for `mcp_tool_search` (filled for that tool only).
    pub mcp_catalog: Vec<mcp_search::CatalogEntry>,
    /// `[tools.web]`.
    pub web: web::WebConfig,
    /// `[tools.ask_user]`.
    pub ask: ask::AskConfig,
    /// Who `ask_user` can ask: set only when the call's caller can prompt (a terminal).
    pub asker: Option<ask::SharedAsker>,
    /// Where skills are looked for (`[skills] roots`, resolved).
    pub skill_roots: Vec<PathBuf>,
    /// The caller's final tool list (policy and ceiling), e.g. what a cron job it creates may do.
    pub allowed_tools: Vec<String>,
    /// The config file in use, when there is one (for child `goclaw` processes).
    pub config_path: Option<PathBuf>,
    /// Where goclaw reads its config from, whether or not the file exists.
    pub config_file: PathBuf,
    /// When the call must stop early (the caller's deadline, a signal).
    pub stop: StopWhen,
    /// The run the call is made in (an agent run), for tools that start other runs.
    pub run: Option<gate::RunLink>,
    /// The caller agent's limits on subagents.
    pub subagents: crate::subagents::Limits,
    /// Made by the gate alone.
    _sealed: gate::Sealed,
}

impl CallContext {
    /// The key that opens sealed secrets (beside the store).
    pub fn secret_key(&self) -> crate::error::Result<crate::secrets::SecretKey> {
        crate::secrets::SecretKey::load(&self.key_dir)
    }

    /// Who owns the store-backed files of this call: the agent (`default` without one), its
    /// type, and the user.
    pub fn files_owner(&self) -> crate::memory::files::Owner<'_> {
        crate::memory::files::Owner {
            agent: self.agent.as_deref().unwrap_or("default"),
            predefined: self.agent_predefined,
            user: self.user.as_deref().unwrap_or(""),
        }
    }
}

/// What a tool's own pre-execution review says (only `exec` has one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Review {
    /// Nothing to decide.
    Allow,
    /// Refused outright, e.g. by a deny pattern.
    Deny(exec::Denial),
    /// Needs an approval decision over these parsed commands.
    Approval(exec::approvals::Subject),
}

/// A tool. Implementations never print and never exit.
pub trait Tool: Send + Sync {
    fn name(&self) -> &str;
    fn description(&self) -> &str;
    /// JSON schema of the arguments (an object schema).
    fn parameters(&self) -> Value;
    fn risk(&self) -> Risk;
    /// The risk of this call, which may be above the tool's (`exec` of `rm`, `move_file` that
    /// overwrites): what `[tools] ask_risk` compares.
    fn call_risk(&self, _args: &Map<String, Value>) -> Risk {
        self.risk()
    }
    /// For a tool bridged from an MCP server: the server and the tool's own name there.
    fn mcp_origin(&self) -> Option<(&str, &str)> {
        None
    }
    /// Its arguments leave goclaw (a message, a request body): the gate scrubs them before the
    /// tool gets them, as it scrubs every result.
    fn outbound(&self) -> bool {
        false
    }
    /// Its calls in one response run one after another in call order, beside the others (which
    /// run in parallel): each may build on the one before (a task blocked by the task created
    /// just before it, an edit of a file the previous call wrote). In parallel they ran in any
    /// order, and such batches failed at random.
    fn in_call_order(&self) -> bool {
        false
    }
    /// A check before execution; the gate acts on it.
    fn review(&self, _ctx: &CallContext, _args: &Map<String, Value>) -> Review {
        Review::Allow
    }
    /// Runs the call, with the gate's own store connection for tools that keep state. Only the
    /// gate can call this: nobody else can make a [`CallContext`].
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut crate::store::Store,
    ) -> ToolResult;
    /// The sandbox a call would run in (`None`: the tool runs no command).
    fn sandbox(
        &self,
        _ctx: &CallContext,
    ) -> Option<std::result::Result<exec::sandbox::Plan, String>> {
        None
    }
}

/// Registered tools by canonical name, plus aliases. A name is found through an index: a
/// server's 33 000 bridged tools took 4 s to register when each was looked for by a walk.
pub struct Registry {
    tools: Vec<Box<dyn Tool>>,
    /// Each tool's place in `tools`, by name.
    places: HashMap<String, usize>,
    aliases: Vec<(String, String)>,
}

impl Registry {
    /// Every built-in tool.
    pub fn builtin() -> Registry {
        let mut r = Registry {
            tools: Vec::new(),
            places: HashMap::new(),
            aliases: Vec::new(),
        };
        for t in fs::tools() {
            r.register(t);
        }
        r.register(Box::new(exec::ExecTool));
        r.register(Box::new(process::ProcessTool));
        r.register(Box::new(team::TeamTasks));
        r.register(Box::new(team::TeamMessage));
        r.register(Box::new(memory::MemorySearch));
        r.register(Box::new(memory::MemoryGet));
        r.register(Box::new(datetime::Datetime));
        r.register(Box::new(cron::CronTool));
        r.register(Box::new(web::fetch::WebFetch));
        r.register(Box::new(web::search::WebSearch));
        r.register(Box::new(credentialed::CredentialedExec));
        r.register(Box::new(todo::TodoTool));
        r.register(Box::new(spawn::SpawnTool));
        r.register(Box::new(sessions::SessionsList));
        r.register(Box::new(sessions::SessionsHistory));
        r.register(Box::new(sessions::SessionsSend));
        r.register(Box::new(sessions::SessionStatus));
        r.register(Box::new(skills::SkillSearch));
        r.register(Box::new(skills::UseSkill));
        r.register(Box::new(skills::PublishSkill));
        r.register(Box::new(ask::AskUser));
        r.register(Box::new(workspace_dir::WorkspaceDir));
        r.register(Box::new(provider_call::OpenaiCompatCall));
        r.register(Box::new(message::MessageTool));
        r.register(Box::new(knowledge::KnowledgeGraphSearch));
        r.register(Box::new(mcp_search::McpToolSearch));
        for t in media::tools() {
            r.register(t);
        }
        for (alias, target) in crate::policy::ALIASES {
            r.alias(alias, target);
        }
        r
    }

    /// Adds `tool`; one already registered under its name is replaced, in its place.
    pub fn register(&mut self, tool: Box<dyn Tool>) {
        match self.places.get(tool.name()) {
            Some(&place) => self.tools[place] = tool,
            None => {
                self.places
                    .insert(tool.name().to_string(), self.tools.len());
                self.tools.push(tool);
            }
        }
    }

    /// Adds an alias; refused (no-op) when a real tool has that name or the target is unknown.
    pub fn alias(&mut self, alias: &str, target: &str) {
        if self.places.contains_key(alias) || !self.places.contains_key(target) {
            return;
        }
        self.aliases.push((alias.to_string(), target.to_string()));
    }

    /// The tool registered as `name`.
    fn named(&self, name: &str) -> Option<&dyn Tool> {
        let place = *self.places.get(name)?;
        self.tools.get(place).map(|t| t.as_ref())
    }

    /// Real name first, then alias.
    pub fn get(&self, name: &str) -> Option<&dyn Tool> {
        if let Some(t) = self.named(name) {
            return Some(t);
        }
        let target = self
            .aliases
            .iter()
            .find(|(a, _)| a == name)
            .map(|(_, t)| t.as_str())?;
        self.named(target)
    }

    /// Canonical names, in registration order.
    pub fn names(&self) -> Vec<String> {
        self.tools.iter().map(|t| t.name().to_string()).collect()
    }

    /// Each tool's name and the first sentence of its description (what a shell's completion
    /// shows beside the name), in registration order.
    pub fn summaries(&self) -> Vec<(String, String)> {
        self.tools
            .iter()
            .map(|t| {
                let d = t.description();
                let first = d.split_once(". ").map_or(d, |(first, _)| first);
                (
                    t.name().to_string(),
                    first.trim_end_matches('.').to_string(),
                )
            })
            .collect()
    }

    pub fn aliases(&self) -> &[(String, String)] {
        &self.aliases
    }
}

/// What an agent sees of per-agent registrations (credentialed CLIs, custom tools): one per
/// name, its own row over the global one. `rows` holds only global rows and the agent's own.
pub fn own_over_global<T>(
    rows: Vec<T>,
    name: impl Fn(&T) -> &str,
    own: impl Fn(&T) -> bool,
) -> Vec<T> {
    let mut by_name: std::collections::BTreeMap<String, T> = Default::default();
    for row in rows {
        if own(&row) || !by_name.contains_key(name(&row)) {
            by_name.insert(name(&row).to_string(), row);
        }
    }
    by_name.into_values().collect()
}

/// What every LLM API accepts as a tool name, `^[a-zA-Z0-9_-]{1,64}$`: custom tools must have
/// one, and bridged MCP tools without one are left out.
pub fn valid_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A string argument, trimmed ("" when absent or not a string).
pub fn trimmed_arg<'a>(args: &'a Map<String, Value>, key: &str) -> &'a str {
    args.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .trim()
}

/// [`trimmed_arg`], or `None` when it is empty or absent.
pub fn given_arg<'a>(args: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    Some(trimmed_arg(args, key)).filter(|s| !s.is_empty())
}

/// Groups a tool belongs to (built-in groups only).
pub fn groups_of(name: &str) -> Vec<&'static str> {
    crate::policy::GROUPS
        .iter()
        .filter(|(_, m)| m.contains(&name))
        .map(|(g, _)| *g)
        .collect()
}

#[cfg(test)]
mod own_over_global_tests {
    #[test]
    fn the_agents_own_row_wins_whatever_the_order() {
        let rows = vec![("gh", "ops"), ("gh", ""), ("aws", ""), ("kubectl", "ops")];
        let seen = super::own_over_global(rows, |r| r.0, |r| !r.1.is_empty());
        assert_eq!(seen, vec![("aws", ""), ("gh", "ops"), ("kubectl", "ops")]);
        let rows = vec![("gh", ""), ("gh", "ops")];
        assert_eq!(
            super::own_over_global(rows, |r| r.0, |r| !r.1.is_empty()),
            vec![("gh", "ops")]
        );
    }
}

#[cfg(test)]
mod stopped_tests {
    use super::{SignalFlag, Stopped};

    #[test]
    fn a_flag_keeps_the_first_signal_and_names_it_back() {
        for why in Stopped::SIGNALS {
            let number = why.signal().unwrap() as i32;
            assert_eq!(Stopped::from_signal(number), Some(why));
            let flag = SignalFlag::default();
            assert!(!flag.raise(why));
            assert!(
                flag.raise(Stopped::Interrupted),
                "a second signal is told apart"
            );
            assert_eq!(flag.get(), Some(why));
        }
        assert_eq!(Stopped::from_signal(0), None);
        assert_eq!(Stopped::from_signal(nix::sys::signal::SIGUSR1 as i32), None);
        assert_eq!(Stopped::HungUp.error_kind().exit_code(), 129);
    }
}
