//! The tool policy engine (reference §3): groups, profiles and the pipeline that turns the
//! registered tools into the list an agent may use, plus an explanation of every step. Pure:
//! configuration and tool names in, decisions out; no I/O.
//!
//! Where goclaw differs from the original code, on purpose:
//! - `[agents.KEY.tools] profile` is applied (step 1 uses it instead of the global profile);
//!   the original parses it and never uses it.
//! - `[tools.by_provider.NAME]` accepts only `profile` and `allow`, the keys the original reads;
//!   its `deny` and `also_allow` were silently ignored, here they are a config error.
//! - Group `fs` also holds the file tools seed 004 adds (`search`, `glob`, `delete_file`,
//!   `move_file`), and so does the umbrella group `goclaw`.
//! - An unknown profile name is a config error rather than a warning and "all tools".
//! - `use_skill` goes wherever `skill_search` is (the `goclaw` group, the coding and messaging
//!   profiles): a skill found but not usable helps nobody. `credentialed_exec` is in `runtime`
//!   (issue 7; in the original it was a mode of `exec`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Built-in groups (baseline B, plus the seed-004 file tools in `fs` and `goclaw`).
pub const GROUPS: &[(&str, &[&str])] = &[
    ("memory", &["memory_search", "memory_get"]),
    ("web", &["web_search", "web_fetch"]),
    (
        "fs",
        &[
            "read_file",
            "write_file",
            "list_files",
            "edit",
            "search",
            "glob",
            "delete_file",
            "move_file",
        ],
    ),
    ("runtime", &["exec", "credentialed_exec"]),
    (
        "sessions",
        &[
            "sessions_list",
            "sessions_history",
            "sessions_send",
            "spawn",
            "session_status",
        ],
    ),
    ("ui", &["browser"]),
    ("automation", &["cron", "datetime"]),
    (
        "messaging",
        &["message", "create_forum_topic", "list_group_members"],
    ),
    ("team", &["team_tasks", "team_message"]),
    (
        "goclaw",
        &[
            "read_file",
            "write_file",
            "list_files",
            "edit",
            "search",
            "glob",
            "delete_file",
            "move_file",
            "exec",
            "web_search",
            "web_fetch",
            "browser",
            "memory_search",
            "memory_get",
            "sessions_list",
            "sessions_history",
            "sessions_send",
            "spawn",
            "session_status",
            "cron",
            "message",
            "create_forum_topic",
            "list_group_members",
            "read_image",
            "read_document",
            "read_audio",
            "read_video",
            "create_image",
            "create_video",
            "skill_search",
            "use_skill",
            "mcp_tool_search",
            "tts",
            "team_tasks",
            "team_message",
        ],
    ),
];

/// Profiles: the named starting sets of step 1.
pub const PROFILES: &[(&str, Option<&[&str]>)] = &[
    ("minimal", Some(&["session_status"])),
    (
        "coding",
        Some(&[
            "group:fs",
            "group:runtime",
            "group:sessions",
            "group:memory",
            "group:web",
            "read_image",
            "create_image",
            "skill_search",
            "use_skill",
        ]),
    ),
    (
        "messaging",
        Some(&[
            "group:messaging",
            "group:web",
            "sessions_list",
            "sessions_history",
            "sessions_send",
            "session_status",
            "read_image",
            "skill_search",
            "use_skill",
        ]),
    ),
    ("full", None),
];

/// Removed for subagents (§3.5).
pub const SUBAGENT_DENY: &[&str] = &[
    "exec",
    "gateway",
    "agents_list",
    "whatsapp_login",
    "session_status",
    "cron",
    "memory_search",
    "memory_get",
    "sessions_send",
];
/// Also removed for leaf subagents.
pub const LEAF_DENY: &[&str] = &["sessions_list", "sessions_history", "spawn"];
/// Legacy names and the tool they mean.
pub const ALIASES: &[(&str, &str)] = &[
    ("bash", "exec"),
    ("apply-patch", "apply_patch"),
    ("edit_file", "edit"),
    ("sessions_spawn", "spawn"),
];

/// `[tools]`: the global policy and tool settings.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ToolsConfig {
    /// `full | coding | messaging | minimal`; empty (the default) means full, as in the original.
    pub profile: String,
    pub allow: Vec<String>,
    pub deny: Vec<String>,
    pub also_allow: Vec<String>,
    /// Calls per hour per session key; 0 turns the limiter off.
    pub rate_limit_per_hour: u32,
    /// Scrub credentials from every tool result.
    pub scrub_credentials: bool,
    /// Per-provider profile and allow list.
    pub by_provider: BTreeMap<String, ProviderSpec>,
    /// Directory names inside the workspace that file tools refuse and hide.
    pub denied_paths: Vec<String>,
    /// `[tools.exec]`.
    pub exec: crate::tools::exec::ExecConfig,
    /// `[tools.web]`: web_fetch's guard and limits, web_search's provider.
    pub web: crate::tools::web::WebConfig,
    /// `[tools.ask_user]`: the fallback answer and the wait.
    pub ask_user: crate::tools::ask::AskConfig,
}

impl Default for ToolsConfig {
    fn default() -> Self {
        ToolsConfig {
            // The original's default: an empty profile, i.e. every registered tool.
            profile: String::new(),
            allow: Vec::new(),
            deny: Vec::new(),
            also_allow: Vec::new(),
            rate_limit_per_hour: 0,
            scrub_credentials: true,
            by_provider: BTreeMap::new(),
            denied_paths: vec![".goclaw".into()],
            exec: Default::default(),
            web: Default::default(),
            ask_user: Default::default(),
        }
    }
}

/// `group:NAME` entries of the configuration that name no group: they select no tool, which a
/// typo should not do silently. `mcp:` groups exist only once servers are bridged, so they are
/// not judged. Each as "`group:NAME` in PLACE".
pub fn unknown_groups(tools: &ToolsConfig, agents: &BTreeMap<String, AgentConfig>) -> Vec<String> {
    let known = Groups::default().names();
    let mut out = Vec::new();
    let mut check = |place: String, list: &[String]| {
        for entry in list {
            if let Some(g) = entry.strip_prefix("group:")
                && !g.starts_with("mcp")
                && g != "teams"
                && !known.iter().any(|k| k == g)
            {
                out.push(format!("`{entry}` in {place}"));
            }
        }
    };
    for (name, list) in [
        ("allow", &tools.allow),
        ("deny", &tools.deny),
        ("also_allow", &tools.also_allow),
    ] {
        check(format!("[tools] {name}"), list);
    }
    for (key, a) in agents {
        for (name, list) in [
            ("allow", &a.tools.allow),
            ("deny", &a.tools.deny),
            ("also_allow", &a.tools.also_allow),
        ] {
            check(format!("[agents.{key}.tools] {name}"), list);
        }
    }
    out
}

/// `[tools.by_provider.NAME]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct ProviderSpec {
    pub profile: String,
    pub allow: Vec<String>,
}

/// The error for an agent key config does not define (exit 5).
pub fn unknown_agent(key: &str) -> crate::error::Error {
    crate::error::Error::not_found(format!("unknown agent `{key}`"))
        .with_hint("agents are the [agents.KEY] tables of config.toml")
}

/// `[agents.KEY]`: an agent defined in config. Unset run settings take the defaults of §16.8.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AgentConfig {
    pub description: String,
    pub tools: AgentToolsSpec,
    /// A key of `[providers]`, `openai`, `anthropic` or `replay:FILE` (default: see README).
    pub provider: Option<String>,
    pub model: Option<String>,
    /// `open` (context files per user) or `predefined` (shared, plus the user's USER.md).
    #[serde(rename = "type")]
    pub agent_type: Option<String>,
    /// The workspace its tools work in (default: the command's workspace).
    pub workspace: Option<std::path::PathBuf>,
    /// LLM iterations per run (default 30).
    pub max_iterations: Option<u32>,
    /// Tool calls per run; 0 = unlimited (default 25).
    pub max_tool_calls: Option<u32>,
    /// Tokens (default 200 000, or the provider's).
    pub context_window: Option<u64>,
    pub max_tokens: Option<u32>,
    pub temperature: Option<f64>,
    /// The input guard's mode for this agent (default `[guard] mode`).
    pub guard: Option<crate::text::guard::GuardMode>,
    /// User turns of history sent to the model; 0 = all (default 0).
    pub history_limit: Option<usize>,
    /// `[agents.KEY.compaction]`.
    pub compaction: crate::agent::compaction::CompactionConfig,
}

/// `[agents.KEY.tools]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AgentToolsSpec {
    pub profile: String,
    pub allow: Vec<String>,
    pub deny: Vec<String>,
    pub also_allow: Vec<String>,
    pub by_provider: BTreeMap<String, ProviderSpec>,
    /// `[agents.KEY.tools.exec]`: overrides of `[tools.exec]` for this agent.
    pub exec: crate::tools::exec::ExecOverrides,
}

/// Everything the pipeline looks at for one request.
#[derive(Debug, Clone, Default)]
pub struct Request<'a> {
    pub agent: Option<&'a AgentToolsSpec>,
    pub provider: Option<&'a str>,
    /// The chat group's allow list (the original's `groupAllow`, e.g. a forum topic's tools):
    /// step 7.
    pub group_allow: &'a [String],
    /// A further per-request allow list, also at step 7, after the group's.
    pub request_allow: &'a [String],
    pub subagent: bool,
    pub leaf: bool,
}

/// Checks profile names; returns the first unknown one.
pub fn check_profiles(
    tools: &ToolsConfig,
    agents: &BTreeMap<String, AgentConfig>,
) -> Result<(), String> {
    let known = |p: &str| p.is_empty() || PROFILES.iter().any(|(n, _)| *n == p);
    let mut names: Vec<(String, &str)> = vec![("[tools] profile".into(), tools.profile.as_str())];
    for (prov, spec) in &tools.by_provider {
        names.push((
            format!("[tools.by_provider.{prov}] profile"),
            spec.profile.as_str(),
        ));
    }
    for (key, agent) in agents {
        names.push((
            format!("[agents.{key}.tools] profile"),
            agent.tools.profile.as_str(),
        ));
        for (prov, spec) in &agent.tools.by_provider {
            names.push((
                format!("[agents.{key}.tools.by_provider.{prov}] profile"),
                spec.profile.as_str(),
            ));
        }
    }
    for (place, name) in names {
        if !known(name) {
            return Err(format!(
                "{place}: unknown profile `{name}` (known: {})",
                PROFILES
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    Ok(())
}

/// Group membership, with groups registered at run time (`mcp`, `mcp:<server>`).
#[derive(Debug, Clone, Default)]
pub struct Groups {
    dynamic: BTreeMap<String, Vec<String>>,
}

impl Groups {
    /// Registers (or replaces) a run-time group.
    pub fn register(&mut self, name: &str, members: Vec<String>) {
        self.dynamic.insert(name.to_string(), members);
    }

    pub fn unregister(&mut self, name: &str) {
        self.dynamic.remove(name);
    }

    /// Members of a group; an unknown group has none.
    pub fn members(&self, group: &str) -> Vec<String> {
        // Seed 000 spells the team group `teams`.
        let group = if group == "teams" { "team" } else { group };
        if let Some(m) = self.dynamic.get(group) {
            return m.clone();
        }
        GROUPS
            .iter()
            .find(|(n, _)| *n == group)
            .map(|(_, m)| m.iter().map(|s| s.to_string()).collect())
            .unwrap_or_default()
    }

    /// Every group name, built-in then run-time.
    pub fn names(&self) -> Vec<String> {
        GROUPS
            .iter()
            .map(|(n, _)| n.to_string())
            .chain(self.dynamic.keys().cloned())
            .collect()
    }

    /// Expands a spec list: `group:NAME` to its members, other entries as they are.
    pub fn expand(&self, spec: &[String]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for entry in spec {
            let names = match entry.strip_prefix("group:") {
                Some(g) => self.members(g),
                None => vec![entry.clone()],
            };
            for n in names {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        out
    }

    /// Registered tools a profile selects (empty or `full`: all of them).
    pub fn profile(&self, name: &str, all: &[String]) -> Vec<String> {
        match PROFILES.iter().find(|(n, _)| *n == name) {
            Some((_, Some(spec))) => {
                let wanted = self.expand(&spec.iter().map(|s| s.to_string()).collect::<Vec<_>>());
                all.iter().filter(|t| wanted.contains(t)).cloned().collect()
            }
            _ => all.to_vec(),
        }
    }
}

/// One step of the pipeline, as `policy explain` shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Step {
    pub step: u8,
    pub name: &'static str,
    /// The rule that applied (e.g. `profile coding`, or the allow list); `None` when skipped.
    pub rule: Option<String>,
    pub removed: Vec<String>,
    pub added: Vec<String>,
}

impl Step {
    fn new(step: u8, name: &'static str) -> Step {
        Step {
            step,
            name,
            rule: None,
            removed: Vec::new(),
            added: Vec::new(),
        }
    }
}

/// The pipeline's result: the final list and every step.
#[derive(Debug, Clone, Serialize)]
pub struct Evaluation {
    pub tools: Vec<String>,
    pub steps: Vec<Step>,
}

impl Evaluation {
    /// Step 14, ceiling: keeps only tools in `ceiling` (a cron job's creator's list, a run's
    /// `--allow-tools`), so no configuration change can widen what the caller had.
    pub fn cap(&mut self, ceiling: &[String], rule: &str) {
        let mut step = Step::new(14, "ceiling");
        step.rule = Some(rule.to_string());
        step.removed = self
            .tools
            .iter()
            .filter(|t| !ceiling.contains(t))
            .cloned()
            .collect();
        self.tools.retain(|t| ceiling.contains(t));
        self.steps.push(step);
    }

    /// The last step that removed `tool`, if it is not in the final list.
    pub fn removed_by(&self, tool: &str) -> Option<&Step> {
        if self.tools.iter().any(|t| t == tool) {
            return None;
        }
        self.steps
            .iter()
            .rev()
            .find(|s| s.removed.iter().any(|t| t == tool))
    }
}

/// Runs the pipeline (§3.4, then §3.5's subagent and leaf lists) over the registered `all`.
pub fn evaluate(
    all: &[String],
    global: &ToolsConfig,
    groups: &Groups,
    req: &Request<'_>,
) -> Evaluation {
    let mut steps = Vec::new();
    let mut list: Vec<String>;
    let provider_spec = req.provider.and_then(|p| global.by_provider.get(p));
    let agent_provider = req
        .agent
        .and_then(|a| req.provider.and_then(|p| a.by_provider.get(p)));

    // 1. Profile: the agent's if it has one, else the global one.
    let agent_profile = req
        .agent
        .map(|a| a.profile.as_str())
        .filter(|p| !p.is_empty());
    let profile = agent_profile.unwrap_or(global.profile.as_str());
    list = groups.profile(profile, all);
    let src = if agent_profile.is_some() {
        "agent profile"
    } else {
        "profile"
    };
    steps.push(Step {
        step: 1,
        name: "profile",
        rule: Some(format!(
            "{src} {}",
            if profile.is_empty() { "full" } else { profile }
        )),
        removed: all.iter().filter(|t| !list.contains(t)).cloned().collect(),
        added: Vec::new(),
    });
    // 2. Provider profile replaces it.
    let mut step = Step::new(2, "provider profile");
    if let Some(spec) = provider_spec.filter(|s| !s.profile.is_empty()) {
        let next = groups.profile(&spec.profile, all);
        step.rule = Some(format!(
            "[tools.by_provider.{}] profile {}",
            req.provider.unwrap_or_default(),
            spec.profile
        ));
        step.removed = list.iter().filter(|t| !next.contains(t)).cloned().collect();
        step.added = next.iter().filter(|t| !list.contains(t)).cloned().collect();
        list = next;
    }
    steps.push(step);
    // 3–7. Allow lists, each intersecting.
    let group_allow = req.group_allow.to_vec();
    let request_allow = req.request_allow.to_vec();
    let allow_steps: [(u8, &'static str, Option<&Vec<String>>, String); 6] = [
        (
            3,
            "global allow",
            Some(&global.allow),
            "[tools] allow".into(),
        ),
        (
            4,
            "provider allow",
            provider_spec.map(|s| &s.allow),
            format!(
                "[tools.by_provider.{}] allow",
                req.provider.unwrap_or_default()
            ),
        ),
        (
            5,
            "agent allow",
            req.agent.map(|a| &a.allow),
            "[agents.*.tools] allow".into(),
        ),
        (
            6,
            "agent provider allow",
            agent_provider.map(|s| &s.allow),
            "agent by_provider allow".into(),
        ),
        (
            7,
            "group allow",
            Some(&group_allow),
            "the group's allow list".into(),
        ),
        (
            7,
            "request allow",
            Some(&request_allow),
            "per-request allow list".into(),
        ),
    ];
    for (n, name, spec, place) in allow_steps {
        let mut step = Step::new(n, name);
        if let Some(spec) = spec.filter(|s| !s.is_empty()) {
            let allowed = groups.expand(spec);
            step.rule = Some(format!("{place} = {spec:?}"));
            step.removed = list
                .iter()
                .filter(|t| !allowed.contains(t))
                .cloned()
                .collect();
            list.retain(|t| allowed.contains(t));
        }
        steps.push(step);
    }
    // 8–9. Deny lists.
    let deny_steps: [(u8, &'static str, Option<&Vec<String>>, &str); 2] = [
        (8, "global deny", Some(&global.deny), "[tools] deny"),
        (
            9,
            "agent deny",
            req.agent.map(|a| &a.deny),
            "[agents.*.tools] deny",
        ),
    ];
    for (n, name, spec, place) in deny_steps {
        let mut step = Step::new(n, name);
        if let Some(spec) = spec.filter(|s| !s.is_empty()) {
            let denied = groups.expand(spec);
            step.rule = Some(format!("{place} = {spec:?}"));
            step.removed = list
                .iter()
                .filter(|t| denied.contains(t))
                .cloned()
                .collect();
            list.retain(|t| !denied.contains(t));
        }
        steps.push(step);
    }
    // 10–11. alsoAllow adds back registered tools, even denied ones.
    let also_steps: [(u8, &'static str, Option<&Vec<String>>, &str); 2] = [
        (
            10,
            "global also_allow",
            Some(&global.also_allow),
            "[tools] also_allow",
        ),
        (
            11,
            "agent also_allow",
            req.agent.map(|a| &a.also_allow),
            "[agents.*.tools] also_allow",
        ),
    ];
    for (n, name, spec, place) in also_steps {
        let mut step = Step::new(n, name);
        if let Some(spec) = spec.filter(|s| !s.is_empty()) {
            step.rule = Some(format!("{place} = {spec:?}"));
            for t in groups.expand(spec) {
                if all.contains(&t) && !list.contains(&t) {
                    step.added.push(t.clone());
                    list.push(t);
                }
            }
        }
        steps.push(step);
    }
    // 12–13. Subagent and leaf deny lists.
    for (n, name, on, deny) in [
        (12u8, "subagent deny", req.subagent, SUBAGENT_DENY),
        (13, "leaf deny", req.leaf, LEAF_DENY),
    ] {
        let mut step = Step::new(n, name);
        if on {
            step.rule = Some(format!("{name} list"));
            step.removed = list
                .iter()
                .filter(|t| deny.contains(&t.as_str()))
                .cloned()
                .collect();
            list.retain(|t| !deny.contains(&t.as_str()));
        }
        steps.push(step);
    }
    Evaluation { tools: list, steps }
}

/// `IsDenied`: does the global or agent deny list name this tool?
pub fn is_denied(
    name: &str,
    global: &ToolsConfig,
    agent: Option<&AgentToolsSpec>,
    groups: &Groups,
) -> bool {
    groups.expand(&global.deny).iter().any(|t| t == name)
        || agent.is_some_and(|a| groups.expand(&a.deny).iter().any(|t| t == name))
}

/// The canonical name of a tool or legacy alias.
pub fn canonical(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(a, _)| *a == name)
        .map_or(name, |(_, c)| c)
}

#[cfg(test)]
mod tests;
