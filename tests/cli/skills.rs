//! Skills: discovery under the roots, `skill_search` against hand-computed BM25 scores,
//! `use_skill`, `publish_skill` and `goclaw skills`.

use serde_json::Value;

use crate::util::*;

fn skill(env: &TestEnv, dir: &str, name: &str, description: &str) {
    env.write(
        &format!("{dir}/SKILL.md"),
        format!(
            "---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nSteps for {name}.\n"
        ),
    );
}

fn three(env: &TestEnv) {
    skill(env, "skills/a-pdf", "pdf", "export tool");
    skill(env, "skills/b-image", "image", "resize");
    skill(env, "skills/c-merge", "pdf-merge", "pdf split");
}

fn tool(env: &TestEnv, name: &str, args: &str, extra: &[&str]) -> (i32, String) {
    let mut a = vec!["tools", "exec", name, args];
    a.extend(extra);
    tool_text(&env.run(&a))
}

on_both_backends! {
fn skill_search_scores_are_the_hand_computed_bm25(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    three(&env);
    // N = 3 documents: "pdf export tool" (3 tokens), "image resize" (2), "pdf merge pdf split"
    // (4); avgDL = 3. For "pdf": df = 2, idf = ln((3 - 2 + 0.5)/(2 + 0.5) + 1) = ln 1.6.
    // pdf-merge: tf 2, dl 4 → 2·2.2/(2 + 1.2·(0.25 + 0.75·4/3)) = 4.4/3.5.
    // pdf: tf 1, dl 3 → 2.2/2.2 = 1.
    let idf = 1.6f64.ln();
    let (c, text) = tool(&env, "skill_search", r#"{"query":"pdf"}"#, &[]);
    assert_eq!(c, 0, "{text}");
    let (doc, action) = text.split_once("\n\nACTION REQUIRED: ").unwrap();
    let doc: Value = serde_json::from_str(doc).unwrap();
    assert_eq!(doc["count"], 2);
    let hits = doc["results"].as_array().unwrap();
    assert_eq!(hits[0]["name"], "pdf-merge");
    assert!((hits[0]["score"].as_f64().unwrap() - idf * 4.4 / 3.5).abs() < 1e-9);
    assert_eq!(hits[1]["name"], "pdf");
    assert!((hits[1]["score"].as_f64().unwrap() - idf).abs() < 1e-9);
    assert_eq!(hits[1]["slug"], "a-pdf");
    assert!(
        hits[1]["location"]
            .as_str()
            .unwrap()
            .ends_with("skills/a-pdf/SKILL.md")
    );
    assert_eq!(
        action,
        "Call use_skill with name \"pdf-merge\" to load the skill instructions, then follow them."
    );
    // "resize resize": the repeated token counts twice; idf = ln(8/3), dl 2 → 2.2/1.9 each.
    let (_, text) = tool(
        &env,
        "skill_search",
        r#"{"query":"resize resize","max_results":1}"#,
        &[],
    );
    let doc: Value = serde_json::from_str(text.split("\n\nACTION").next().unwrap()).unwrap();
    let expect = 2.0 * (8.0f64 / 3.0).ln() * 2.2 / 1.9;
    assert!(
        (doc["results"][0]["score"].as_f64().unwrap() - expect).abs() < 1e-9,
        "{doc}"
    );
    let (c, text) = tool(&env, "skill_search", r#"{"query":"kubernetes"}"#, &[]);
    assert_eq!(
        (c, text.as_str()),
        (0, "No skills found matching: kubernetes")
    );
    let (c, text) = tool(&env, "skill_search", r#"{"query":" "}"#, &[]);
    assert_eq!((c, text.as_str()), (2, "query parameter is required"));
    // The command line ranks the same way.
    let hits = list(&env.run(&["skills", "search", "pdf"]));
    assert_eq!(hits[0]["name"], "pdf-merge");
    assert!((hits[0]["score"].as_f64().unwrap() - idf * 4.4 / 3.5).abs() < 1e-9);
}
}

on_both_backends! {
fn use_skill_returns_the_instructions(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    three(&env);
    let (c, text) = tool(&env, "use_skill", r#"{"name":"image"}"#, &[]);
    assert_eq!(c, 0, "{text}");
    assert!(
        text.starts_with("Using skill image (base directory: "),
        "{text}"
    );
    assert!(text.contains("Steps for image."));
    let (c, text) = tool(&env, "use_skill", r#"{"name":"nope"}"#, &[]);
    assert_eq!(c, 1);
    assert!(text.contains("skill not found: nope"));
    let shown = json(&env.run(&["skills", "show", "image"]));
    assert!(
        shown["content"]
            .as_str()
            .unwrap()
            .contains("Steps for image.")
    );
    // By its slug (its directory) too, as `skills list` shows it.
    let shown = json(&env.run(&["skills", "show", "b-image"]));
    assert_eq!(shown["skill"]["name"], "image", "{shown}");
    assert_error(&env.run(&["skills", "show", "nope"]), 5, "not_found");
}
}

on_both_backends! {
fn roots_in_order_and_published_skills_per_agent(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    std::fs::write(
        env.home().join("config.toml"),
        "[agents.writer]\n[agents.other]\n",
    )
    .unwrap();
    three(&env);
    // The config directory's skills come after the workspace's: same name, first one wins.
    let home_skill = env.home().join("skills/pdf-again/SKILL.md");
    std::fs::create_dir_all(home_skill.parent().unwrap()).unwrap();
    std::fs::write(&home_skill, "---\nname: pdf\ndescription: shadowed\n---\n").unwrap();
    std::fs::write(
        env.home().join("skills/global-only/SKILL.md").tap_dir(),
        "---\nname: global-only\ndescription: from the config dir\n---\n",
    )
    .unwrap();
    let list = list(&env.run(&["skills", "list"]));
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["pdf", "image", "pdf-merge", "global-only"]);
    assert_eq!(list[0]["description"], "export tool");
    // What is left out is said, and why.
    env.write("skills/d-plain/SKILL.md", "# no front matter\n");
    env.write("skills/e-nameless/SKILL.md", "---\ndescription: x\n---\n");
    // A FIFO (a model with exec can make one) is not opened: it blocked every run for good.
    std::fs::create_dir_all(env.work().join("skills/f-fifo")).unwrap();
    nix::unistd::mkfifo(
        &env.work().join("skills/f-fifo/SKILL.md"),
        nix::sys::stat::Mode::from_bits_truncate(0o644),
    )
    .unwrap();
    // A directory whose name is not UTF-8 (its paths cannot be written in JSON): skill_search
    // and skills show panicked on it, skills list ended with exit 10.
    let odd = env
        .work()
        .join("skills")
        .join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"g-odd\xff"));
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("SKILL.md"), "---\nname: odd\ndescription: d\n---\nbody\n").unwrap();
    // A directory linked out of the skills directory, and a SKILL.md hard-linked to a file
    // elsewhere (a model with exec can make both): use_skill read the file outside.
    let outside = env.root().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(
        outside.join("SKILL.md"),
        "---\nname: outside\ndescription: d\n---\nOUTSIDE_SECRET\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, env.work().join("skills/h-linked")).unwrap();
    std::fs::create_dir_all(env.work().join("skills/i-hard")).unwrap();
    std::fs::hard_link(
        outside.join("SKILL.md"),
        env.work().join("skills/i-hard/SKILL.md"),
    )
    .unwrap();
    let (_, text) = tool(&env, "use_skill", r#"{"name":"outside"}"#, &[]);
    assert!(!text.contains("OUTSIDE_SECRET"), "{text}");
    let (c, text) = tool(&env, "skill_search", r#"{"query":"odd"}"#, &[]);
    assert_eq!(c, 0, "{text}");
    assert_eq!(code(&env.run(&["skills", "show", "odd"])), 5);
    let o = env.run(&["skills", "list"]);
    assert_eq!(crate::util::list(&o).as_array().unwrap().len(), 4);
    let err = stderr(&o);
    for said in [
        "SKILL.md is not a skill: its directory's name is not valid UTF-8",
        "d-plain/SKILL.md is not a skill: it has no front matter",
        "e-nameless/SKILL.md is not a skill: its front matter gives no `name`",
        "f-fifo/SKILL.md is not a skill: it is not a regular file",
        "h-linked/SKILL.md is not a skill: its directory is a link out of the skills directory",
        "i-hard/SKILL.md is not a skill: it is a hard link",
        "pdf-again/SKILL.md is not a skill: its name `pdf` is the skill's at ",
    ] {
        assert!(err.contains(said), "{said}: {err}");
    }

    // publish_skill: a directory of the workspace, seen by the publishing agent only.
    skill(
        &env,
        "drafts/release",
        "release-notes",
        "write release notes from git log",
    );
    let (c, text) = tool(
        &env,
        "publish_skill",
        r#"{"path":"drafts/release"}"#,
        &["--agent", "writer"],
    );
    assert_eq!(c, 0, "{text}");
    let (_, text) = tool(
        &env,
        "skill_search",
        r#"{"query":"release notes"}"#,
        &["--agent", "writer"],
    );
    assert!(text.contains("\"source\": \"published\""), "{text}");
    let (_, text) = tool(
        &env,
        "skill_search",
        r#"{"query":"release notes"}"#,
        &["--agent", "other"],
    );
    assert_eq!(text, "No skills found matching: release notes");
    // Outside the workspace, or without a SKILL.md: refused.
    let (c, _) = tool(
        &env,
        "publish_skill",
        r#"{"path":"../home/skills/global-only"}"#,
        &["--agent", "writer"],
    );
    assert_eq!(c, 1);
    let (c, _) = tool(
        &env,
        "publish_skill",
        r#"{"path":"/etc"}"#,
        &["--agent", "writer"],
    );
    assert_eq!(c, 1);
    // A SKILL.md that points out of its directory is no skill.
    let sneaky = env.work().join("sneaky");
    std::fs::create_dir_all(&sneaky).unwrap();
    env.write(
        "secret.md",
        "---\nname: secret\ndescription: x\n---\nthe secret\n",
    );
    std::os::unix::fs::symlink(env.work().join("secret.md"), sneaky.join("SKILL.md")).unwrap();
    let (c, _) = tool(
        &env,
        "publish_skill",
        r#"{"path":"sneaky"}"#,
        &["--agent", "writer"],
    );
    assert_eq!(c, 2);
    std::fs::create_dir_all(env.work().join("empty")).unwrap();
    let (c, text) = tool(
        &env,
        "publish_skill",
        r#"{"path":"empty"}"#,
        &["--agent", "writer"],
    );
    assert_eq!(c, 2, "{text}");
}
}

trait TapDir {
    fn tap_dir(self) -> Self;
}
impl TapDir for std::path::PathBuf {
    /// Creates the parent directory and returns the path.
    fn tap_dir(self) -> Self {
        std::fs::create_dir_all(self.parent().unwrap()).unwrap();
        self
    }
}

on_both_backends! {
fn an_agent_run_is_shown_the_skills(backend) {
    let Some(env) = TestEnv::on(backend) else { return };
    three(&env);
    let provider = crate::run::recording(&env, "r.jsonl", &[crate::run::answer("ok")]);
    let (_, inputs) = crate::run::verbose_run(&env, &["--provider", &provider, "hi"]);
    let system = inputs[0][0]["content"].as_str().unwrap();
    assert!(system.contains("## Skills (mandatory)\n"), "{system}");
    assert!(
        system
            .contains("<skill><name>pdf-merge</name><description>pdf split</description></skill>"),
        "{system}"
    );
    assert!(system.find("## Safety").unwrap() < system.find("## Skills").unwrap());
}
}
