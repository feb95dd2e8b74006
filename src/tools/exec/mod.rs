//! The `exec` tool (reference §4): run a shell command in the workspace. Before it runs, the
//! deny groups ([`deny`]) refuse dangerous commands and approvals ([`approvals`]) decide on the
//! parsed commands ([`shell`]); the gate acts on both. It runs under `sh -c` with stdin closed,
//! `CI=true` and `DEBIAN_FRONTEND=noninteractive`, in its own process group, with a time limit
//! ([`run`]) and, by default, a Landlock sandbox ([`sandbox`]).

pub mod approvals;
pub mod deny;
pub mod relay;
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
            "timeout":{"type":"integer","minimum":1,"maximum":MAX_TIMEOUT_SECS,"description":"Seconds"}},
            "required":["command"]})
    }
    fn risk(&self) -> Risk {
        Risk::Dangerous
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
        let texts = views.texts;
        let mut groups = ctx.exec.deny_groups.clone();
        let package_on = deny::group_enabled(deny::PACKAGE_INSTALL, &groups);
        groups.insert(deny::PACKAGE_INSTALL.into(), false);
        if let Some(d) = denial(&texts, &groups, &ctx.exec.denied_paths) {
            return Review::Deny(d);
        }
        let package_install = if package_on {
            let only: BTreeMap<String, bool> = deny::DENY_GROUPS
                .iter()
                .map(|g| (g.name.to_string(), g.name == deny::PACKAGE_INSTALL))
                .collect();
            deny::check(&texts, &only, &[]).map(|m| m.pattern)
        } else {
            None
        };
        let cwd = working_dir(ctx, args).unwrap_or_else(|_| ctx.workspace.clone());
        let mut subject = approvals::subject(command, &parsed, &cwd, package_install);
        subject.hidden = views.hidden.first().cloned();
        Review::Approval(subject)
    }

    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        let command = command_arg(args);
        if command.is_empty() {
            return ToolResult::error("command is required");
        }
        let cwd = match working_dir(ctx, args) {
            Ok(c) => c,
            Err(e) => return ToolResult::error(e),
        };
        let asked = args
            .get("timeout")
            .and_then(Value::as_u64)
            .map_or(ctx.exec.timeout, |s| {
                Duration::from_secs(s.clamp(1, MAX_TIMEOUT_SECS))
            });
        // Never longer than the caller has left.
        let timeout = ctx.stop.cap(asked);
        let plan = match sandbox::plan_for(ctx) {
            Ok(p) => p,
            Err(e) => {
                return ToolResult::error(format!(
                    "sandbox unavailable: {e} (will not fall back to unsandboxed host execution)"
                ));
            }
        };
        match run::run(command, &cwd, timeout, OUTPUT_LIMIT, &plan, &ctx.stop) {
            Ok(outcome) => outcome.into_result(timeout),
            Err(e) => ToolResult::error(format!("cannot start the command: {e}")),
        }
    }
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
