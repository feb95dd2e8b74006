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

use std::collections::{BTreeMap, HashSet};

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
            "codemap",
        ],
    ),
    (
        "runtime",
        &["exec", "process", "credentialed_exec", "openai_compat_call"],
    ),
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
    (
        "media_gen",
        &["create_image", "create_audio", "create_video", "tts"],
    ),
    (
        "media_read",
        &["read_image", "read_audio", "read_document", "read_video"],
    ),
    ("knowledge", &["knowledge_graph_search", "skill_search"]),
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
            "codemap",
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
            "openai_compat_call",
            "knowledge_graph_search",
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

/// What the pipeline reads of one place of the configuration (`[tools]`, `[agents.KEY.tools]`):
/// a view, so the sections themselves stay with the modules that own them.
#[derive(Debug, Clone, Copy, Default)]
pub struct PolicySpec<'a> {
    /// `full | coding | messaging | minimal`; empty means full (or, for an agent, the global one).
    pub profile: &'a str,
    pub allow: &'a [String],
    pub deny: &'a [String],
    pub also_allow: &'a [String],
    /// Per-provider profile and allow list.
    pub by_provider: Option<&'a BTreeMap<String, ProviderSpec>>,
}

impl<'a> PolicySpec<'a> {
    fn for_provider(&self, provider: Option<&str>) -> Option<&'a ProviderSpec> {
        self.by_provider.and_then(|b| b.get(provider?))
    }
}

/// A place of the configuration and its policy, as `(table, spec)`: `("tools", …)`,
/// `("agents.KEY.tools", …)`. Messages name the place as `[table] key`.
pub type Place<'a> = (String, PolicySpec<'a>);

/// `group:NAME` entries of the configuration that name no group: they select no tool, which a
/// typo should not do silently. `mcp:` groups exist only once servers are bridged, so they are
/// not judged. Each as "`group:NAME` in PLACE".
pub fn unknown_groups(places: &[Place<'_>]) -> Vec<String> {
    let known = Groups::default().names();
    let mut out = Vec::new();
    for (table, spec) in places {
        for (name, list) in [
            ("allow", spec.allow),
            ("deny", spec.deny),
            ("also_allow", spec.also_allow),
        ] {
            for entry in list {
                if let Some(g) = entry.strip_prefix("group:")
                    && !g.starts_with("mcp")
                    && g != "teams"
                    && !known.iter().any(|k| k == g)
                {
                    out.push(format!("`{entry}` in [{table}] {name}"));
                }
            }
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

/// Everything the pipeline looks at for one request.
#[derive(Debug, Clone, Default)]
pub struct Request<'a> {
    pub agent: Option<PolicySpec<'a>>,
    /// The agent's key in config, which its steps' rules name (`[agents.KEY.tools] deny`).
    pub agent_key: Option<&'a str>,
    pub provider: Option<&'a str>,
    /// The chat group's allow list (the original's `groupAllow`, e.g. a forum topic's tools):
    /// step 7.
    pub group_allow: &'a [String],
    /// A further per-request allow list, also at step 7, after the group's.
    pub request_allow: &'a [String],
    pub subagent: bool,
    pub leaf: bool,
}

impl Request<'_> {
    /// The agent's table in config, as a step's rule names it.
    fn agent_table(&self) -> String {
        format!("[agents.{}.tools]", self.agent_key.unwrap_or("*"))
    }
}

/// Checks profile names; returns the first unknown one.
pub fn check_profiles(places: &[Place<'_>]) -> Result<(), String> {
    let known = |p: &str| p.is_empty() || PROFILES.iter().any(|(n, _)| *n == p);
    let mut names: Vec<(String, &str)> = Vec::new();
    for (table, spec) in places {
        names.push((format!("[{table}] profile"), spec.profile));
        for (prov, p) in spec.by_provider.into_iter().flatten() {
            names.push((
                format!("[{table}.by_provider.{prov}] profile"),
                p.profile.as_str(),
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
        let mut seen = HashSet::new();
        for entry in spec {
            let names = match entry.strip_prefix("group:") {
                Some(g) => self.members(g),
                None => vec![entry.clone()],
            };
            for n in names {
                if seen.insert(n.clone()) {
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
                let wanted = set(&wanted);
                all.iter()
                    .filter(|t| wanted.contains(t.as_str()))
                    .cloned()
                    .collect()
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
        let ceiling = set(ceiling);
        step.removed = self
            .tools
            .iter()
            .filter(|t| !ceiling.contains(t.as_str()))
            .cloned()
            .collect();
        self.tools.retain(|t| ceiling.contains(t.as_str()));
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
    global: PolicySpec<'_>,
    groups: &Groups,
    req: &Request<'_>,
) -> Evaluation {
    let provider_spec = global.for_provider(req.provider);
    let agent_provider = req.agent.and_then(|a| a.for_provider(req.provider));
    let mut p = Pipeline {
        all,
        groups,
        list: Vec::new(),
        steps: Vec::new(),
    };
    p.step_profile(global, req);
    p.step_provider_profile(provider_spec, req.provider);
    p.steps_allow(global, req, provider_spec, agent_provider);
    p.steps_deny(global, req);
    p.steps_also_allow(global, req);
    p.steps_subagent(req);
    Evaluation {
        tools: p.list,
        steps: p.steps,
    }
}

/// The pipeline as it runs: the registered tools, the list so far and the steps so far.
struct Pipeline<'a> {
    all: &'a [String],
    groups: &'a Groups,
    list: Vec<String>,
    steps: Vec<Step>,
}

impl Pipeline<'_> {
    /// 1. Profile: the agent's if it has one, else the global one.
    fn step_profile(&mut self, global: PolicySpec<'_>, req: &Request<'_>) {
        let agent_profile = req.agent.map(|a| a.profile).filter(|p| !p.is_empty());
        let profile = agent_profile.unwrap_or(global.profile);
        self.list = self.groups.profile(profile, self.all);
        let src = if agent_profile.is_some() {
            "agent profile"
        } else {
            "profile"
        };
        let kept = set(&self.list);
        let removed: Vec<String> = self
            .all
            .iter()
            .filter(|t| !kept.contains(t.as_str()))
            .cloned()
            .collect();
        self.steps.push(Step {
            step: 1,
            name: "profile",
            rule: Some(format!(
                "{src} {}",
                if profile.is_empty() { "full" } else { profile }
            )),
            removed,
            added: Vec::new(),
        });
    }

    /// 2. Provider profile replaces it.
    fn step_provider_profile(&mut self, spec: Option<&ProviderSpec>, provider: Option<&str>) {
        let mut step = Step::new(2, "provider profile");
        if let Some(spec) = spec.filter(|s| !s.profile.is_empty()) {
            let next = self.groups.profile(&spec.profile, self.all);
            step.rule = Some(format!(
                "[tools.by_provider.{}] profile {}",
                provider.unwrap_or_default(),
                spec.profile
            ));
            let (now, then) = (set(&self.list), set(&next));
            step.removed = self
                .list
                .iter()
                .filter(|t| !then.contains(t.as_str()))
                .cloned()
                .collect();
            step.added = next
                .iter()
                .filter(|t| !now.contains(t.as_str()))
                .cloned()
                .collect();
            self.list = next;
        }
        self.steps.push(step);
    }

    /// 3–7. Allow lists, each intersecting.
    fn steps_allow(
        &mut self,
        global: PolicySpec<'_>,
        req: &Request<'_>,
        provider_spec: Option<&ProviderSpec>,
        agent_provider: Option<&ProviderSpec>,
    ) {
        let allow_steps: [(u8, &'static str, Option<&[String]>, String); 6] = [
            (
                3,
                "global allow",
                Some(global.allow),
                "[tools] allow".into(),
            ),
            (
                4,
                "provider allow",
                provider_spec.map(|s| s.allow.as_slice()),
                format!(
                    "[tools.by_provider.{}] allow",
                    req.provider.unwrap_or_default()
                ),
            ),
            (
                5,
                "agent allow",
                req.agent.map(|a| a.allow),
                format!("{} allow", req.agent_table()),
            ),
            (
                6,
                "agent provider allow",
                agent_provider.map(|s| s.allow.as_slice()),
                format!(
                    "[agents.{}.tools.by_provider.{}] allow",
                    req.agent_key.unwrap_or("*"),
                    req.provider.unwrap_or_default()
                ),
            ),
            (
                7,
                "group allow",
                Some(req.group_allow),
                "the group's allow list".into(),
            ),
            (
                7,
                "request allow",
                Some(req.request_allow),
                "per-request allow list".into(),
            ),
        ];
        for (n, name, spec, place) in allow_steps {
            let mut step = Step::new(n, name);
            if let Some(spec) = spec.filter(|s| !s.is_empty()) {
                let allowed = self.groups.expand(spec);
                let allowed = set(&allowed);
                step.rule = Some(format!("{place} = {spec:?}"));
                step.removed = self
                    .list
                    .iter()
                    .filter(|t| !allowed.contains(t.as_str()))
                    .cloned()
                    .collect();
                self.list.retain(|t| allowed.contains(t.as_str()));
            }
            self.steps.push(step);
        }
    }

    /// 8–9. Deny lists.
    fn steps_deny(&mut self, global: PolicySpec<'_>, req: &Request<'_>) {
        let deny_steps: [(u8, &'static str, Option<&[String]>, String); 2] = [
            (8, "global deny", Some(global.deny), "[tools] deny".into()),
            (
                9,
                "agent deny",
                req.agent.map(|a| a.deny),
                format!("{} deny", req.agent_table()),
            ),
        ];
        for (n, name, spec, place) in deny_steps {
            let mut step = Step::new(n, name);
            if let Some(spec) = spec.filter(|s| !s.is_empty()) {
                let denied = self.groups.expand(spec);
                let denied = set(&denied);
                step.rule = Some(format!("{place} = {spec:?}"));
                step.removed = self
                    .list
                    .iter()
                    .filter(|t| denied.contains(t.as_str()))
                    .cloned()
                    .collect();
                self.list.retain(|t| !denied.contains(t.as_str()));
            }
            self.steps.push(step);
        }
    }

    /// 10–11. alsoAllow adds back registered tools, even denied ones.
    fn steps_also_allow(&mut self, global: PolicySpec<'_>, req: &Request<'_>) {
        let also_steps: [(u8, &'static str, Option<&[String]>, String); 2] = [
            (
                10,
                "global also_allow",
                Some(global.also_allow),
                "[tools] also_allow".into(),
            ),
            (
                11,
                "agent also_allow",
                req.agent.map(|a| a.also_allow),
                format!("{} also_allow", req.agent_table()),
            ),
        ];
        for (n, name, spec, place) in also_steps {
            let mut step = Step::new(n, name);
            if let Some(spec) = spec.filter(|s| !s.is_empty()) {
                step.rule = Some(format!("{place} = {spec:?}"));
                let registered = set(self.all);
                let listed: HashSet<String> = self.list.iter().cloned().collect();
                for t in self.groups.expand(spec) {
                    if registered.contains(t.as_str()) && !listed.contains(&t) {
                        step.added.push(t.clone());
                        self.list.push(t);
                    }
                }
            }
            self.steps.push(step);
        }
    }

    /// 12–13. Subagent and leaf deny lists.
    fn steps_subagent(&mut self, req: &Request<'_>) {
        for (n, name, on, deny) in [
            (12u8, "subagent deny", req.subagent, SUBAGENT_DENY),
            (13, "leaf deny", req.leaf, LEAF_DENY),
        ] {
            let mut step = Step::new(n, name);
            if on {
                step.rule = Some(format!("{name} list"));
                step.removed = self
                    .list
                    .iter()
                    .filter(|t| deny.contains(&t.as_str()))
                    .cloned()
                    .collect();
                self.list.retain(|t| !deny.contains(&t.as_str()));
            }
            self.steps.push(step);
        }
    }
}

/// `IsDenied`: does the global or agent deny list name this tool?
pub fn is_denied(
    name: &str,
    global: PolicySpec<'_>,
    agent: Option<PolicySpec<'_>>,
    groups: &Groups,
) -> bool {
    groups.expand(global.deny).iter().any(|t| t == name)
        || agent.is_some_and(|a| groups.expand(a.deny).iter().any(|t| t == name))
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

/// The names of `list`, to look them up in constant time: a server with 33 000 tools made
/// each list-in-list step a walk of billions.
fn set(list: &[String]) -> HashSet<&str> {
    list.iter().map(String::as_str).collect()
}
