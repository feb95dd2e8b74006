use super::*;

/// An owned place of the configuration, as the tests build them.
#[derive(Debug, Clone, Default)]
struct Spec {
    profile: String,
    allow: Vec<String>,
    deny: Vec<String>,
    also_allow: Vec<String>,
    by_provider: BTreeMap<String, ProviderSpec>,
}

impl Spec {
    fn p(&self) -> PolicySpec<'_> {
        PolicySpec {
            profile: &self.profile,
            allow: &self.allow,
            deny: &self.deny,
            also_allow: &self.also_allow,
            by_provider: Some(&self.by_provider),
        }
    }
}

type ToolsConfig = Spec;
type AgentToolsSpec = Spec;

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn registry() -> Vec<String> {
    names(&[
        "read_file",
        "write_file",
        "list_files",
        "edit",
        "search",
        "glob",
        "delete_file",
        "move_file",
        "exec",
        "web_fetch",
        "team_tasks",
        "session_status",
        "sessions_list",
        "spawn",
        "cron",
    ])
}

fn eval(global: &ToolsConfig, req: &Request<'_>) -> Vec<String> {
    evaluate(&registry(), global.p(), &Groups::default(), req).tools
}

fn full() -> ToolsConfig {
    ToolsConfig {
        profile: "full".into(),
        ..ToolsConfig::default()
    }
}

#[test]
fn profiles() {
    let mut g = full();
    assert_eq!(eval(&g, &Request::default()), registry());
    g.profile = String::new();
    assert_eq!(eval(&g, &Request::default()), registry());
    g.profile = "minimal".into();
    assert_eq!(eval(&g, &Request::default()), names(&["session_status"]));
    g.profile = "coding".into();
    let coding = eval(&g, &Request::default());
    assert!(coding.contains(&"exec".to_string()) && coding.contains(&"glob".to_string()));
    assert!(coding.contains(&"spawn".to_string()), "group:sessions");
    assert!(!coding.contains(&"team_tasks".to_string()) && !coding.contains(&"cron".to_string()));
    g.profile = "messaging".into();
    assert_eq!(
        eval(&g, &Request::default()),
        names(&["web_fetch", "session_status", "sessions_list"])
    );
}

#[test]
fn provider_profile_replaces_the_global_one() {
    let mut g = ToolsConfig {
        profile: "minimal".into(),
        ..full()
    };
    g.by_provider.insert(
        "anthropic".into(),
        ProviderSpec {
            profile: "full".into(),
            allow: vec![],
        },
    );
    let req = Request {
        provider: Some("anthropic"),
        ..Request::default()
    };
    assert_eq!(eval(&g, &req), registry());
    assert_eq!(
        eval(
            &g,
            &Request {
                provider: Some("openai"),
                ..Request::default()
            }
        ),
        names(&["session_status"])
    );
}

#[test]
fn allow_lists_intersect_in_order() {
    let mut g = full();
    g.allow = names(&["group:fs", "exec"]);
    g.by_provider.insert(
        "p".into(),
        ProviderSpec {
            profile: String::new(),
            allow: names(&["read_file", "exec", "edit"]),
        },
    );
    let agent = AgentToolsSpec {
        allow: names(&["exec", "read_file"]),
        ..AgentToolsSpec::default()
    };
    let req = Request {
        agent: Some(agent.p()),
        provider: Some("p"),
        ..Request::default()
    };
    assert_eq!(eval(&g, &req), names(&["read_file", "exec"]));
    let ra = names(&["exec"]);
    let req = Request {
        request_allow: &ra,
        ..req
    };
    assert_eq!(eval(&g, &req), names(&["exec"]));
}

#[test]
fn deny_then_also_allow_can_re_add() {
    let mut g = full();
    g.deny = names(&["group:runtime", "cron"]);
    let agent = AgentToolsSpec {
        deny: names(&["write_file"]),
        also_allow: names(&["exec", "not_registered"]),
        ..Default::default()
    };
    let req = Request {
        agent: Some(agent.p()),
        ..Request::default()
    };
    let out = eval(&g, &req);
    assert!(!out.contains(&"cron".to_string()) && !out.contains(&"write_file".to_string()));
    // also_allow re-adds a denied tool, and never adds an unregistered one.
    assert_eq!(out.last().map(String::as_str), Some("exec"));
    assert!(!out.contains(&"not_registered".to_string()));
    // also_allow also escapes the per-request list.
    let ra = names(&["read_file"]);
    let out = eval(
        &g,
        &Request {
            request_allow: &ra,
            ..req
        },
    );
    assert_eq!(out, names(&["read_file", "exec"]));
}

#[test]
fn agent_profile_is_applied() {
    let g = full();
    let agent = AgentToolsSpec {
        profile: "minimal".into(),
        ..Default::default()
    };
    assert_eq!(
        eval(
            &g,
            &Request {
                agent: Some(agent.p()),
                ..Request::default()
            }
        ),
        names(&["session_status"])
    );
}

#[test]
fn subagent_and_leaf_lists() {
    let g = full();
    let out = eval(
        &g,
        &Request {
            subagent: true,
            ..Request::default()
        },
    );
    assert!(!out.contains(&"exec".to_string()) && !out.contains(&"cron".to_string()));
    assert!(out.contains(&"spawn".to_string()));
    let out = eval(
        &g,
        &Request {
            subagent: true,
            leaf: true,
            ..Request::default()
        },
    );
    assert!(!out.contains(&"spawn".to_string()) && !out.contains(&"sessions_list".to_string()));
}

#[test]
fn groups_expand_and_dynamic_groups() {
    let mut groups = Groups::default();
    assert_eq!(groups.expand(&names(&["group:nope"])), Vec::<String>::new());
    groups.register("mcp:postgres", names(&["mcp_postgres__query"]));
    assert_eq!(
        groups.expand(&names(&["group:mcp:postgres", "exec"])),
        names(&["mcp_postgres__query", "exec"])
    );
    groups.unregister("mcp:postgres");
    assert!(groups.expand(&names(&["group:mcp:postgres"])).is_empty());
    for (name, _) in GROUPS {
        assert!(!groups.members(name).is_empty(), "{name}");
    }
}

#[test]
fn explanation_names_the_step_that_removed_a_tool() {
    let mut g = ToolsConfig {
        profile: "coding".into(),
        ..full()
    };
    g.deny = names(&["exec"]);
    let e = evaluate(&registry(), g.p(), &Groups::default(), &Request::default());
    assert_eq!(e.removed_by("exec").map(|s| s.step), Some(8));
    assert_eq!(e.removed_by("team_tasks").map(|s| s.step), Some(1));
    assert!(e.removed_by("read_file").is_none());
    assert_eq!(e.steps.len(), 14);
}

#[test]
fn is_denied_and_aliases() {
    let g = ToolsConfig {
        deny: names(&["group:fs"]),
        ..full()
    };
    assert!(is_denied("glob", g.p(), None, &Groups::default()));
    assert!(!is_denied("exec", g.p(), None, &Groups::default()));
    let a = AgentToolsSpec {
        deny: names(&["exec"]),
        ..Default::default()
    };
    assert!(is_denied("exec", g.p(), Some(a.p()), &Groups::default()));
    assert_eq!(canonical("bash"), "exec");
    assert_eq!(canonical("edit_file"), "edit");
    assert_eq!(canonical("read_file"), "read_file");
}

#[test]
fn unknown_profiles_are_refused() {
    let g = ToolsConfig {
        profile: "codng".into(),
        ..full()
    };
    assert!(
        check_profiles(&[("tools".into(), g.p())])
            .unwrap_err()
            .contains("codng")
    );
    assert!(check_profiles(&[("tools".into(), full().p())]).is_ok());
}

#[test]
fn agent_provider_allow_and_group_allow() {
    let g = full();
    let mut agent = AgentToolsSpec::default();
    agent.by_provider.insert(
        "p".into(),
        ProviderSpec {
            profile: String::new(),
            allow: names(&["group:fs", "exec"]),
        },
    );
    let req = Request {
        agent: Some(agent.p()),
        provider: Some("p"),
        ..Request::default()
    };
    let e = evaluate(&registry(), g.p(), &Groups::default(), &req);
    assert_eq!(e.removed_by("cron").map(|s| s.step), Some(6));
    assert!(e.tools.contains(&"exec".to_string()));
    // Another provider: step 6 does not apply.
    let req = Request {
        agent: Some(agent.p()),
        provider: Some("q"),
        ..Request::default()
    };
    assert_eq!(eval(&g, &req), registry());
    // The group's list, then the request's, both at step 7.
    let (ga, ra) = (names(&["group:fs"]), names(&["read_file", "exec"]));
    let req = Request {
        group_allow: &ga,
        request_allow: &ra,
        ..Request::default()
    };
    let e = evaluate(&registry(), g.p(), &Groups::default(), &req);
    assert_eq!(e.tools, names(&["read_file"]));
    assert_eq!(
        e.removed_by("exec").map(|s| (s.step, s.name)),
        Some((7, "group allow"))
    );
    assert_eq!(
        e.removed_by("write_file").map(|s| (s.step, s.name)),
        Some((7, "request allow"))
    );
}

#[test]
fn the_default_profile_is_full() {
    assert_eq!(
        eval(&ToolsConfig::default(), &Request::default()),
        registry()
    );
}
