//! The web tools against a real loopback server (`fixtures/web/serve.py`): SSRF refusals in
//! every spelling, names pinned to public-and-private addresses, redirects into private space,
//! content routing, a real saved page converted, and the three search providers.

use std::path::Path;

use crate::mcp::{Child, free_port, wait_for_port};
use crate::util::*;

/// The fixture server on a free loopback port.
fn server() -> (Child, u16) {
    let port = free_port();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/web/serve.py");
    let child = Child(
        std::process::Command::new("python3")
            .arg(script)
            .arg(port.to_string())
            .spawn()
            .unwrap(),
    );
    wait_for_port(port);
    (child, port)
}

/// A home whose config is `toml`.
fn env_with(toml: &str) -> TestEnv {
    let env = TestEnv::new();
    std::fs::write(env.home().join("config.toml"), toml).unwrap();
    env
}

/// Runs `tool` with `args`; the exit code and what the model would read.
fn call(env: &TestEnv, tool: &str, args: &str) -> (i32, String) {
    tool_text(&env.run(&["tools", "exec", tool, args]))
}

fn fetch(env: &TestEnv, url: &str) -> (i32, String) {
    call(
        env,
        "web_fetch",
        &serde_json::json!({ "url": url }).to_string(),
    )
}

/// Config: loopback allowed by name `site.test` only, and the names the tests pin.
fn pinned() -> String {
    r#"[tools.web]
allow_private_hosts = ["site.test"]
[tools.web.resolve]
"site.test" = ["127.0.0.1"]
"both.test" = ["93.184.216.34", "127.0.0.1"]
"inner.test" = ["10.0.0.7"]
"mapped.test" = ["::ffff:127.0.0.1"]
"#
    .to_string()
}

#[test]
fn private_addresses_are_refused_in_every_spelling() {
    let (_srv, port) = server();
    let env = env_with("");
    for host in [
        "127.0.0.1",
        "2130706433",
        "0x7f000001",
        "0x7f.1",
        "0177.0.0.1",
        "127.1",
        "[::1]",
        "[::ffff:127.0.0.1]",
        "[::ffff:7f00:1]",
        "[0:0:0:0:0:ffff:7f00:1]",
        "169.254.169.254",
        "10.0.0.1",
        "172.16.0.1",
        "192.168.0.1",
        "100.64.0.1",
        "0.0.0.0",
        "[fe80::1]",
        "[fc00::1]",
    ] {
        let (c, text) = fetch(&env, &format!("http://{host}:{port}/json"));
        assert_eq!(c, 3, "a refusal, as a webhook's: {host}: {text}");
        assert!(
            text.contains("SSRF protection: private IP address not allowed"),
            "{host}: {text}"
        );
    }
    for host in [
        "localhost",
        "metadata.google.internal",
        "db.internal",
        "nas.local",
    ] {
        let (c, text) = fetch(&env, &format!("http://{host}:{port}/json"));
        assert_eq!(c, 3);
        assert!(text.contains("SSRF protection: blocked hostname"), "{text}");
    }
    let (c, text) = fetch(&env, "file:///etc/passwd");
    assert_eq!(
        (c, text.as_str()),
        (3, "only http and https URLs are supported")
    );
    let (c, text) = fetch(&env, "http://exa mple.com/");
    assert_eq!(
        (c, text.as_str()),
        (2, "invalid URL: invalid international domain name")
    );
}

#[test]
fn every_resolved_address_is_judged_and_redirects_are_checked_again() {
    let (_srv, port) = server();
    let env = env_with(&pinned());
    // A name with one public and one private address is refused, as are pinned private ones.
    let (c, text) = fetch(&env, &format!("http://both.test:{port}/json"));
    assert_eq!(c, 3, "{text}");
    assert_eq!(
        text,
        "SSRF protection: hostname both.test resolves to private IP 127.0.0.1"
    );
    let (_, text) = fetch(&env, &format!("http://inner.test:{port}/json"));
    assert!(text.contains("resolves to private IP 10.0.0.7"), "{text}");
    let (_, text) = fetch(&env, &format!("http://mapped.test:{port}/json"));
    assert!(
        text.contains("resolves to private IP ::ffff:127.0.0.1"),
        "{text}"
    );
    // The allowlisted name works…
    let (c, text) = fetch(&env, &format!("http://site.test:{port}/json"));
    assert_eq!(c, 0, "{text}");
    assert!(text.contains("Extractor: json\nLength: "), "{text}");
    // …but its redirects into private space do not, whatever the spelling.
    for target in [
        format!("http://127.0.0.1:{port}/json"),
        format!("http://0x7f000001:{port}/json"),
        format!("http://[::ffff:127.0.0.1]:{port}/json"),
        "http://169.254.169.254/latest/meta-data/".to_string(),
        format!("http://localhost:{port}/json"),
    ] {
        let (c, text) = fetch(
            &env,
            &format!("http://site.test:{port}/redirect?to={target}"),
        );
        assert_eq!(c, 3, "{target}: {text}");
        assert!(
            text.starts_with("redirect SSRF protection: "),
            "{target}: {text}"
        );
    }
    let (c, text) = fetch(
        &env,
        &format!("http://site.test:{port}/redirect?to=http://both.test:{port}/json"),
    );
    assert_eq!(c, 3);
    assert_eq!(
        text,
        "redirect SSRF protection: hostname both.test resolves to private IP 127.0.0.1"
    );
    // Redirects within the allowed host: five are followed, the sixth is refused.
    let (c, text) = fetch(&env, &format!("http://site.test:{port}/chain/5"));
    assert_eq!(c, 0, "{text}");
    assert!(
        text.contains(&format!(
            "URL: http://site.test:{port}/chain/0\nRedirected from: http://site.test:{port}/chain/5\nStatus: 200\n"
        )),
        "{text}"
    );
    assert!(text.contains("end of the chain"));
    let (c, text) = fetch(&env, &format!("http://site.test:{port}/chain/6"));
    assert_eq!(
        (c, text.as_str()),
        (8, "fetch failed: stopped after 5 redirects"),
        "the server's failure"
    );
    // A name that does not resolve is the network's failure, not a refusal. (A label over 63
    // bytes: the resolver refuses it without asking a name server, so the test stays local.)
    let name = format!("{}.test", "no-such-name-".repeat(5));
    let (c, text) = fetch(&env, &format!("http://{name}/"));
    assert_eq!(c, 8, "{text}");
    assert!(
        text.starts_with(&format!(
            "SSRF protection: DNS resolution failed for {name}: "
        )),
        "{text}"
    );
}

#[test]
fn a_real_page_becomes_markdown_or_text_in_the_wrapper() {
    let (_srv, port) = server();
    let env = env_with(&pinned());
    let url = format!("http://site.test:{port}/page/rust-book-data-types.html");
    let (c, md) = fetch(&env, &url);
    assert_eq!(c, 0, "{md}");
    assert!(
        md.starts_with(
            "SECURITY NOTICE: The following content is from an EXTERNAL, UNTRUSTED source."
        ),
        "{md}"
    );
    assert!(md.contains("<<<EXTERNAL_UNTRUSTED_CONTENT>>>\nSource: Web Fetch\n---\nURL: "));
    assert!(md.contains("Extractor: html-to-markdown\n"));
    assert!(md.contains("## [Data Types](#data-types)"), "headings");
    assert!(
        md.contains("| Length                 | Signed  | Unsigned |\n| ---"),
        "tables"
    );
    assert!(md.contains("```rust\n#![allow(unused)]\nfn main() {\nlet guess: u32 = \"42\".parse().expect(\"Not a number!\");"), "code blocks keep their language");
    assert!(!md.contains("path_to_root"), "no script text");
    assert!(
        !md.contains("<script") && !md.contains("\n*\n"),
        "no markup, no empty bullets"
    );
    assert!(!md.contains("[](print.html"), "no empty links");
    assert!(
        md.trim_end()
            .ends_with("<<<END_EXTERNAL_UNTRUSTED_CONTENT>>>")
    );

    let (c, text) = call(
        &env,
        "web_fetch",
        &serde_json::json!({"url": url, "extractMode": "text"}).to_string(),
    );
    assert_eq!(c, 0);
    assert!(text.contains("Extractor: html-to-text\n"));
    assert!(!text.contains("```") && !text.contains("## "), "{text}");
    assert!(text.contains("Data Types"));

    // Over maxChars: the first characters, and the whole text in a file of the workspace.
    let (c, cut) = call(
        &env,
        "web_fetch",
        &serde_json::json!({"url": url, "maxChars": 200}).to_string(),
    );
    assert_eq!(c, 0);
    let file = cut
        .lines()
        .find_map(|l| l.strip_prefix("Full-Content-File: "))
        .unwrap();
    let saved = std::fs::read_to_string(env.work().join(file)).unwrap();
    assert!(
        saved.len() > 10_000 && saved.contains("| 8-bit                  | `i8`    | `u8`     |")
    );
    assert!(cut.contains("[Content truncated at 200 chars."));
}

#[test]
fn content_types_are_routed_and_hostile_pages_defused() {
    let (_srv, port) = server();
    let env = env_with(&pinned());
    let (_, text) = fetch(&env, &format!("http://site.test:{port}/json"));
    assert!(
        text.contains("Length: 41\n\n{\n  \"b\": [\n    1,\n    2\n  ],\n  \"a\": \"x\"\n}"),
        "{text}"
    );
    let (_, text) = call(
        &env,
        "web_fetch",
        &serde_json::json!({"url": format!("http://site.test:{port}/md"), "extractMode": "text"})
            .to_string(),
    );
    assert!(
        text.contains("Extractor: cf-markdown\nLength: 22\n\nTitle\n\nSome bold link."),
        "{text}"
    );
    let (_, text) = fetch(&env, &format!("http://site.test:{port}/empty"));
    assert!(text.contains("[No content extracted."), "{text}");
    let (_, text) = fetch(&env, &format!("http://site.test:{port}/page/hostile.html"));
    assert!(
        text.contains("# Product notes\n\nNothing to see.\n\nDone here."),
        "{text}"
    );
    assert!(
        !text.contains("Ignore all previous") && !text.contains("SYSTEM"),
        "hidden text is dropped: {text}"
    );
    // Markers inside the content, plain or in fullwidth look-alikes, cannot end the wrapper.
    let (_, text) = fetch(&env, &format!("http://site.test:{port}/page/hostile.txt"));
    assert_eq!(
        text.matches("<<<END_EXTERNAL_UNTRUSTED_CONTENT>>>").count(),
        1,
        "{text}"
    );
    assert_eq!(
        text.matches("[[END_MARKER_SANITIZED]]").count(),
        2,
        "{text}"
    );
    assert!(text.contains("Extractor: raw\n"));
    let (c, text) = fetch(&env, &format!("http://site.test:{port}/missing"));
    assert_eq!(c, 0);
    assert!(text.contains("Status: 404\n"), "{text}");
}

#[test]
fn the_domain_lists_apply() {
    let env = env_with(
        "[tools.web]\nblocked_domains = [\"*.blocked.test\"]\nallowed_domains = [\"ok.test\", \"a.blocked.test\"]\n",
    );
    let (c, text) = fetch(&env, "http://a.blocked.test/");
    assert_eq!(
        (c, text.as_str()),
        (3, "domain \"a.blocked.test\" is blocked by policy")
    );
    let (c, text) = fetch(&env, "http://other.test/");
    assert_eq!(
        (c, text.as_str()),
        (
            3,
            "domain \"other.test\" is not in the allowed domains list"
        )
    );
}

#[test]
fn web_search_reads_each_provider() {
    let (_srv, port) = server();
    let base = format!("http://127.0.0.1:{port}");
    let env = env_with(&format!(
        "[tools.web.search]\nprovider = \"duckduckgo\"\nbase_url = \"{base}\"\n"
    ));
    let (c, text) = call(&env, "web_search", r#"{"query":"rust"}"#);
    assert_eq!(c, 0, "{text}");
    assert!(text.contains("Source: Web Search\n---\nResults for: rust (via DuckDuckGo)\n\n1. Rust Programming Language\n   https://www.rust-lang.org/\n   A language empowering everyone to build reliable and efficient software.\n\n2. "), "{text}");
    let (_, text) = call(&env, "web_search", r#"{"query":"rust","count":1}"#);
    assert!(!text.contains("\n2. "), "{text}");
    let (c, text) = call(&env, "web_search", r#"{"query":"  "}"#);
    assert_eq!((c, text.as_str()), (2, "query parameter is required"));

    let env = env_with(&format!(
        "[tools.web.search]\nprovider = \"searxng\"\nbase_url = \"{base}\"\n"
    ));
    let (c, text) = call(&env, "web_search", r#"{"query":"tokio"}"#);
    assert_eq!(c, 0, "{text}");
    assert!(
        text.contains("1. Searx one\n   https://s1.test/\n   about tokio\n\n2. Searx two"),
        "{text}"
    );

    let env = env_with(&format!(
        "[tools.web.search]\nprovider = \"brave\"\nbase_url = \"{base}\"\napi_key_env = \"TEST_BRAVE_KEY\"\n"
    ));
    let (c, text) = call(&env, "web_search", r#"{"query":"x"}"#);
    assert_eq!(
        (c, text.as_str()),
        (1, "web search: Brave needs an API key in $TEST_BRAVE_KEY")
    );
    let o = env
        .cmd(&["tools", "exec", "web_search", r#"{"query":"serde"}"#])
        .env("TEST_BRAVE_KEY", "brave-test-key")
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let text = json(&o)["result"]["for_llm"].as_str().unwrap().to_string();
    assert!(
        text.contains("1. Brave one\n   https://one.test/\n   first for serde"),
        "{text}"
    );
    assert!(!text.contains("brave-test-key"));
}

#[test]
fn max_chars_and_the_body_read_are_capped() {
    let (_srv, port) = server();
    let env =
        env_with(&pinned().replace("[tools.web]\n", "[tools.web]\nmax_body_bytes = 1048576\n"));
    let t = std::time::Instant::now();
    let (c, text) = call(
        &env,
        "web_fetch",
        &serde_json::json!({"url": format!("http://site.test:{port}/huge"), "maxChars": 1e15})
            .to_string(),
    );
    assert_eq!(c, 0, "{text}");
    assert!(t.elapsed() < std::time::Duration::from_secs(20));
    assert!(
        text.contains("[Content truncated at 200000 chars."),
        "{}",
        &text[..300.min(text.len())]
    );
    let file = text
        .lines()
        .find_map(|l| l.strip_prefix("Full-Content-File: "))
        .unwrap();
    let saved = std::fs::metadata(env.work().join(file)).unwrap().len();
    assert!(saved <= 1_100_000, "read {saved} bytes");
}
