//! Completions and man pages are generated from the clap definitions; the committed copies
//! must match. Run `GOCLAW_BLESS=1 cargo test` to regenerate them.

use std::path::PathBuf;

use clap::ValueEnum;
use clap_complete::Shell;
use goclaw::cli::docs;

use crate::util::*;

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn check_or_bless(path: PathBuf, expected: &[u8], stale: &mut Vec<String>) {
    if std::env::var_os("GOCLAW_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, expected).unwrap();
    } else if std::fs::read(&path).ok().as_deref() != Some(expected) {
        stale.push(path.display().to_string());
    }
}

#[test]
fn committed_completions_and_man_pages_are_current() {
    let mut stale = Vec::new();
    for shell in Shell::value_variants() {
        check_or_bless(
            repo("completions").join(docs::completion_file(*shell)),
            &docs::completion(*shell),
            &mut stale,
        );
    }
    let pages = docs::man_pages().unwrap();
    assert!(pages.len() >= 15, "one page per command: {}", pages.len());
    for (name, page) in &pages {
        let page = String::from_utf8_lossy(page);
        for section in [".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", "\\fB130\\fR"] {
            assert!(page.contains(section), "{name} lacks {section}");
        }
    }
    let names: Vec<String> = pages.iter().map(|(n, _)| n.clone()).collect();
    for (name, page) in pages {
        check_or_bless(repo("man").join(&name), &page, &mut stale);
    }
    for entry in std::fs::read_dir(repo("man")).unwrap().flatten() {
        let n = entry.file_name().to_string_lossy().into_owned();
        if !names.contains(&n) {
            stale.push(format!("man/{n} (no such command any more)"));
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files (run GOCLAW_BLESS=1 cargo test): {stale:?}"
    );
}

#[test]
fn completion_offers_the_built_in_tools_by_name() {
    let env = TestEnv::new();
    let bash = stdout(&env.run(&["completions", "bash"]));
    assert!(
        bash.contains(" read_file write_file edit "),
        "no tool names"
    );
    let zsh = stdout(&env.run(&["completions", "zsh"]));
    assert!(
        zsh.contains("read_file\\:\"Read a text file"),
        "no tool summaries"
    );
    // Offered, not required: any name still reaches the gate (custom and MCP tools).
    let o = env.run(&["tools", "exec", "no_such_tool", "{}"]);
    assert_error(&o, 5, "not_found");
}

#[test]
fn completions_command_prints_the_same_script() {
    let env = TestEnv::new();
    for (name, shell) in [
        ("bash", Shell::Bash),
        ("zsh", Shell::Zsh),
        ("fish", Shell::Fish),
        ("elvish", Shell::Elvish),
        ("powershell", Shell::PowerShell),
    ] {
        let o = env.run(&["completions", name]);
        assert_eq!(code(&o), 0);
        assert!(o.stdout == docs::completion(shell), "{name}");
        // The sandbox's internal re-exec is no command a person completes.
        assert!(!stdout(&o).contains("sandbox-exec"), "{name}");
    }
    assert_error(&env.run(&["completions", "tcsh"]), 2, "usage");
    assert!(!stdout(&env.run(&["--help"])).contains("sandbox-exec"));
    // It still runs (exec spawns it); bad flags are a usage error on stderr.
    let o = env.run(&["__sandbox-exec", "--no-sandbox", "--", "true"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = env.run(&["__sandbox-exec", "--bogus"]);
    assert_eq!(code(&o), 2);
    assert!(
        stdout(&o).is_empty() && stderr(&o).starts_with("error:"),
        "{o:?}"
    );
}

#[test]
fn committed_schemas_are_current() {
    let mut stale = Vec::new();
    let docs = goclaw::cli::schema::documents();
    assert!(docs.len() >= 6);
    for (name, _, schema) in &docs {
        let mut text = serde_json::to_string_pretty(schema).unwrap();
        text.push('\n');
        check_or_bless(
            repo("docs/schema").join(format!("{name}.json")),
            text.as_bytes(),
            &mut stale,
        );
    }
    assert!(
        stale.is_empty(),
        "stale: {stale:?}; run `GOCLAW_BLESS=1 cargo test` and commit the result"
    );
}

/// What `goclaw schema NAME` prints is the committed schema, and the documents the commands
/// print use only the properties their schema declares, with every required one present.
#[test]
fn printed_documents_fit_their_schemas() {
    let env = TestEnv::new();
    let listed = list(&env.run(&["schema"]));
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["name"] == "event"),
        "{listed}"
    );
    let schema = |name: &str| {
        let o = env.run(&["schema", name]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let committed = std::fs::read_to_string(repo(&format!("docs/schema/{name}.json"))).unwrap();
        assert_eq!(stdout(&o), committed, "{name}");
        json(&o)
    };
    let fits = |name: &str, doc: &serde_json::Value| {
        let s = schema(name);
        let props = s["properties"].as_object().unwrap();
        for key in doc.as_object().unwrap().keys() {
            assert!(
                props.contains_key(key),
                "{name}: `{key}` is not in the schema"
            );
        }
        for key in s["required"].as_array().into_iter().flatten() {
            assert!(
                doc.get(key.as_str().unwrap()).is_some(),
                "{name}: `{key}` is missing"
            );
        }
    };
    fits("version", &json(&env.run(&["version"])));
    fits("doctor", &json(&env.run(&["doctor"])));
    fits(
        "error",
        &json(&env.run(&["tools", "describe", "no_such_tool"])),
    );
    assert_error(&env.run(&["schema", "nope"]), 5, "not_found");
}
