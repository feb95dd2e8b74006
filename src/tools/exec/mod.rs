//! The `exec` tool (reference §4): run a shell command in the workspace. Before it runs, the
//! deny groups ([`deny`]) refuse dangerous commands and approvals ([`approvals`]) decide on the
//! parsed commands ([`shell`]); the gate acts on both. It runs under `sh -c` with stdin closed,
//! `CI=true` and `DEBIAN_FRONTEND=noninteractive`, in its own process group, with a time limit
//! ([`run`]) and, by default, a Landlock sandbox ([`sandbox`]).

pub mod approvals;
pub mod background;
pub mod contain;
pub mod deny;
pub mod destructive;
pub mod keeper;
mod masks;
pub mod relay;
pub mod report;
pub mod run;
pub mod sandbox;
pub mod shell;
pub mod supervise;

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::workspace::Workspace;
use super::{CallContext, Review, Risk, Tool, ToolResult};
use crate::store::Store;

/// Default time limit of one command.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;
/// The most a call may ask for.
pub const MAX_TIMEOUT_SECS: u64 = 1800;
/// Output kept per stream (stdout, stderr).
pub const OUTPUT_LIMIT: usize = 1 << 20;

/// `allow | deny | ask`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ApprovalMode {
    /// Run whatever the deny groups let through (package installs still ask).
    #[default]
    Allow,
    /// Refuse every command.
    Deny,
    /// Run only commands the allowlist approves; ask for the rest.
    Ask,
}

/// `auto | landlock | bwrap | docker | none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SandboxMode {
    /// Landlock when the kernel supports it, plus bubblewrap when installed.
    #[default]
    Auto,
    Landlock,
    Bwrap,
    Docker,
    None,
}

/// `[tools.exec]`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ExecConfig {
    pub approval: ApprovalMode,
    pub timeout_secs: u64,
    /// Deny groups to turn off (`name = false`) or on.
    pub deny_groups: BTreeMap<String, bool>,
    pub sandbox: SandboxMode,
    /// Let sandboxed commands use the network.
    pub network: bool,
    /// Image for `sandbox = "docker"`.
    pub docker_image: String,
    /// Names of variables passed from goclaw's environment to commands, beyond the allowlist
    /// (`PATH`, `HOME`, `LANG`, `LC_*`, `TERM`, … see `sandbox::ENV_ALLOWLIST`).
    pub env: Vec<String>,
    /// How long an approval prompt waits for an answer before it denies (the seed's 2 minutes).
    pub approval_timeout_secs: u64,
    /// Background commands (`exec {background: true}`) that may run at once in one session.
    pub max_background: u32,
}

impl Default for ExecConfig {
    fn default() -> Self {
        ExecConfig {
            approval: ApprovalMode::Allow,
            timeout_secs: DEFAULT_TIMEOUT_SECS,
            deny_groups: BTreeMap::new(),
            sandbox: SandboxMode::Auto,
            network: false,
            docker_image: "debian:bookworm-slim".into(),
            env: Vec::new(),
            approval_timeout_secs: 120,
            max_background: 8,
        }
    }
}

/// `[agents.KEY.tools.exec]`: per-agent overrides.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ExecOverrides {
    pub approval: Option<ApprovalMode>,
    pub timeout_secs: Option<u64>,
    pub deny_groups: BTreeMap<String, bool>,
    pub sandbox: Option<SandboxMode>,
    pub network: Option<bool>,
}

/// The effective exec settings of one call.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExecSettings {
    pub approval: ApprovalMode,
    pub timeout: Duration,
    pub deny_groups: BTreeMap<String, bool>,
    pub sandbox: SandboxMode,
    pub network: bool,
    pub docker_image: String,
    /// Variables passed through beyond the allowlist.
    pub env: Vec<String>,
    /// Literal paths no command may mention (the store, the config file, `.goclaw/`).
    pub denied_paths: Vec<String>,
    /// `[tools.exec] max_background`.
    pub max_background: u32,
}

impl ExecSettings {
    pub fn resolve(
        global: &ExecConfig,
        agent: Option<&ExecOverrides>,
        denied_paths: Vec<String>,
    ) -> ExecSettings {
        let mut deny_groups = global.deny_groups.clone();
        let mut s = ExecSettings {
            approval: global.approval,
            timeout: Duration::from_secs(global.timeout_secs.clamp(1, MAX_TIMEOUT_SECS)),
            deny_groups: BTreeMap::new(),
            sandbox: global.sandbox,
            network: global.network,
            docker_image: global.docker_image.clone(),
            env: global.env.clone(),
            denied_paths,
            max_background: global.max_background,
        };
        if let Some(a) = agent {
            s.approval = a.approval.unwrap_or(s.approval);
            if let Some(t) = a.timeout_secs {
                s.timeout = Duration::from_secs(t.clamp(1, MAX_TIMEOUT_SECS));
            }
            deny_groups.extend(a.deny_groups.clone());
            s.sandbox = a.sandbox.unwrap_or(s.sandbox);
            s.network = a.network.unwrap_or(s.network);
        }
        s.deny_groups = deny_groups;
        s
    }
}

/// Unknown deny-group names in config (a typo would silently keep a group on).
pub fn unknown_deny_groups(groups: &BTreeMap<String, bool>) -> Vec<String> {
    groups
        .keys()
        .filter(|k| !deny::DENY_GROUPS.iter().any(|g| g.name == k.as_str()))
        .cloned()
        .collect()
}

/// A refusal by a deny pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Denial {
    pub group: String,
    pub pattern: String,
    pub message: String,
}

/// The `exec` tool.
pub struct ExecTool;

fn command_arg(args: &Map<String, Value>) -> &str {
    args.get("command")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

impl Tool for ExecTool {
    fn name(&self) -> &'static str {
        "exec"
    }
    fn description(&self) -> &'static str {
        "Execute a shell command and return its output"
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "command":{"type":"string","description":"The shell command"},
            "working_dir":{"type":"string","description":"Directory inside the workspace"},
            "timeout":{"type":"integer","minimum":1,"maximum":background::MAX_TIMEOUT_SECS,
                "description":"Seconds (at most 1800; in the background at most 86400, default 3600)"},
            "background":{"type":"boolean","description":"Start the command and return at once with a process id; follow it with the process tool"},
            "detach":{"type":"boolean","description":"With background: keep it running after this run ends"}},
            "required":["command"]})
    }
    fn risk(&self) -> Risk {
        Risk::Dangerous
    }
    fn call_risk(&self, args: &Map<String, Value>) -> Risk {
        if destructive::reason(command_arg(args)).is_some() {
            Risk::Destructive
        } else {
            Risk::Dangerous
        }
    }

    fn sandbox(&self, ctx: &CallContext) -> Option<Result<sandbox::Plan, String>> {
        Some(sandbox::plan_for(ctx))
    }
    fn review(&self, ctx: &CallContext, args: &Map<String, Value>) -> Review {
        let command = command_arg(args);
        if command.is_empty() {
            return Review::Allow; // execute reports it
        }
        let parsed = shell::parse(command);
        let views = shell::deny_views(command);
        let texts = &views.texts;
        let mut groups = ctx.exec.deny_groups.clone();
        let package_on = deny::group_enabled(deny::PACKAGE_INSTALL, &groups);
        groups.insert(deny::PACKAGE_INSTALL.into(), false);
        if let Some(d) = denial(texts, &groups, &ctx.exec.denied_paths) {
            return Review::Deny(d);
        }
        let package_install = if package_on {
            let only: BTreeMap<String, bool> = deny::DENY_GROUPS
                .iter()
                .map(|g| (g.name.to_string(), g.name == deny::PACKAGE_INSTALL))
                .collect();
            deny::check(texts, &only, &[]).map(|m| m.pattern)
        } else {
            None
        };
        let cwd = working_dir(ctx, args).unwrap_or_else(|_| ctx.workspace.clone());
        Review::Approval(approvals::subject(
            command,
            &parsed,
            &views,
            &cwd,
            package_install,
        ))
    }

    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        let command = command_arg(args);
        if command.is_empty() {
            return ToolResult::bad_args("command is required");
        }
        let cwd = match working_dir(ctx, args) {
            Ok(c) => c,
            Err(e) => return ToolResult::error(e),
        };
        let timeout_arg = args.get("timeout").and_then(Value::as_u64);
        let background = args.get("background").and_then(Value::as_bool) == Some(true);
        if background {
            // Made before the plan, which masks only what exists: the first background command
            // must not see the logs of those that come after it.
            if let Err(e) = background::create_root(&ctx.key_dir) {
                return ToolResult::from_error(&e);
            }
        }
        let plan = match sandbox::plan_to_run(ctx) {
            Ok(p) => p,
            Err(e) => {
                return ToolResult::error(format!(
                    "sandbox unavailable: {e} (will not fall back to unsandboxed host execution)"
                ));
            }
        };
        if background {
            let detach = args.get("detach").and_then(Value::as_bool) == Some(true);
            return ToolResult::from_result(start_background(
                ctx,
                store,
                Background {
                    command,
                    cwd: &cwd,
                    plan: &plan,
                    timeout: timeout_arg,
                    detach,
                },
            ));
        }
        let asked = timeout_arg.map_or(ctx.exec.timeout, |s| {
            Duration::from_secs(s.clamp(1, MAX_TIMEOUT_SECS))
        });
        // Never longer than the caller has left.
        let timeout = ctx.stop.cap(asked);
        match run::run(
            command,
            &cwd,
            &Default::default(),
            timeout,
            OUTPUT_LIMIT,
            &plan,
            &ctx.stop,
        ) {
            Ok(outcome) => outcome.into_result(timeout),
            Err(e) => ToolResult::error(format!("cannot start the command: {e}")),
        }
    }
}

/// A background start, as the `exec` call asked for it.
struct Background<'a> {
    command: &'a str,
    cwd: &'a std::path::Path,
    plan: &'a sandbox::Plan,
    timeout: Option<u64>,
    detach: bool,
}

/// Starts a command under a keeper ([`background`]) and answers with its handle: the row is
/// reserved under the session's limit, the keeper started, and the row marked running (or
/// failed, with the keeper's reason).
fn start_background(
    ctx: &CallContext,
    store: &mut Store,
    b: Background<'_>,
) -> crate::error::Result<ToolResult> {
    let root = background::logs_root(&ctx.key_dir);
    let db = store.db();
    background::prune(db, &root)?;
    let timeout = Duration::from_secs(
        b.timeout
            .unwrap_or(background::DEFAULT_TIMEOUT_SECS)
            .clamp(1, background::MAX_TIMEOUT_SECS),
    );
    // A run (or `mcp serve`) owns what it starts, unless it is detached.
    let owned = ctx.run.is_some() || ctx.channel.as_deref() == Some("mcp");
    let detached = b.detach || ctx.run.as_ref().is_some_and(|r| r.detach_children) || !owned;
    let session = ctx.session_key.as_deref().unwrap_or("");
    background::settle(db, &root, session)?;
    let id = background::reserve(
        db,
        &background::NewProcess {
            command: b.command,
            cwd: &b.cwd.display().to_string(),
            session,
            agent: ctx.agent.as_deref().unwrap_or(""),
            run_id: ctx.run.as_ref().map(|r| r.run_id.as_str()),
            detached,
            timeout,
            max_per_session: ctx.exec.max_background,
        },
    )?;
    let spec = background::KeeperSpec {
        id,
        dir: background::process_dir(&root, id),
        plan: b.plan.portable(),
        command: b.command.to_string(),
        cwd: b.cwd.to_path_buf(),
        timeout_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
        owner: (!detached).then(|| std::process::id() as i32),
    };
    let keeper = match background::spawn_keeper(&spec) {
        Ok(started) => started,
        Err(e) => {
            background::ended(
                db,
                id,
                &background::Ending {
                    status: "failed".into(),
                    exit_code: None,
                    signal: None,
                    reason: Some(e.message.clone()),
                    ended_at: crate::store::now_ms(),
                },
            )?;
            return Err(e);
        }
    };
    background::started(db, id, &keeper)?;
    let answer = json!({
        "process": id,
        "pid": keeper.pid,
        "status": "running",
        "timeout_secs": timeout.as_secs(),
        "ends_with": if detached { "its own end, its time limit or process kill" } else { "this run" },
        "next": format!("process {{\"action\":\"poll\",\"id\":{id}}} for new output and status; log for the last lines; kill to stop it"),
    });
    Ok(ToolResult::text(answer.to_string()))
}

/// The deny patterns' verdict on a command's texts (the raw command, then each parsed simple
/// command normalised), as the denial the gate reports.
pub fn denial(
    texts: &[String],
    groups: &BTreeMap<String, bool>,
    denied_paths: &[String],
) -> Option<Denial> {
    deny::check(texts, groups, denied_paths).map(|m| Denial {
        message: format!(
            "command denied by safety policy: matches pattern {}",
            m.pattern
        ),
        group: m.group.to_string(),
        pattern: m.pattern,
    })
}

/// What deny patterns look at: the raw command and the texts of what it runs
/// ([`shell::deny_views`]).
pub fn deny_texts(command: &str) -> Vec<String> {
    shell::deny_views(command).texts
}

/// The directory a command runs in: the workspace, or `working_dir` inside it.
fn working_dir(ctx: &CallContext, args: &Map<String, Value>) -> Result<std::path::PathBuf, String> {
    contained_dir(
        ctx,
        args.get("working_dir")
            .and_then(Value::as_str)
            .unwrap_or_default(),
    )
}

/// `dir` (relative to the workspace; "" is the workspace) as an absolute path, held to the file
/// tools' containment: it must exist and stay inside the workspace.
pub(crate) fn contained_dir(ctx: &CallContext, dir: &str) -> Result<std::path::PathBuf, String> {
    let root = ctx
        .workspace
        .canonicalize()
        .map_err(|e| format!("workspace {}: {e}", ctx.workspace.display()))?;
    if dir.is_empty() {
        return Ok(root);
    }
    let ws = Workspace::open(&root, &ctx.denied_paths).map_err(|e| e.message)?;
    let (_, rel) = ws.open_dir(dir).map_err(|e| e.message)?;
    Ok(root.join(rel))
}

/// Go's `time.Duration` text for whole seconds (`1m0s`, `2m30s`, `45s`, `1h0m0s`).
pub fn go_duration(d: Duration) -> String {
    let s = d.as_secs();
    let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60);
    if h > 0 {
        format!("{h}h{m}m{sec}s")
    } else if m > 0 {
        format!("{m}m{sec}s")
    } else if d.subsec_millis() > 0 {
        format!("{}s", d.as_secs_f64())
    } else {
        format!("{sec}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_go() {
        assert_eq!(go_duration(Duration::from_secs(60)), "1m0s");
        assert_eq!(go_duration(Duration::from_secs(150)), "2m30s");
        assert_eq!(go_duration(Duration::from_secs(5)), "5s");
        assert_eq!(go_duration(Duration::from_secs(3600)), "1h0m0s");
    }

    #[test]
    fn deny_patterns_compile() {
        assert_eq!(deny::compile_error(), None);
    }

    #[test]
    fn settings_merge_agent_overrides() {
        let mut g = ExecConfig::default();
        g.deny_groups.insert("network_recon".into(), false);
        let a = ExecOverrides {
            approval: Some(ApprovalMode::Ask),
            timeout_secs: Some(5000),
            network: Some(true),
            ..Default::default()
        };
        let s = ExecSettings::resolve(&g, Some(&a), vec![]);
        assert_eq!(s.approval, ApprovalMode::Ask);
        assert_eq!(s.timeout, Duration::from_secs(MAX_TIMEOUT_SECS));
        assert!(s.network);
        assert_eq!(s.deny_groups.get("network_recon"), Some(&false));
        assert_eq!(
            unknown_deny_groups(&[("netwrk".to_string(), false)].into_iter().collect()),
            vec!["netwrk".to_string()]
        );
    }
}
