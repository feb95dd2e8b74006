//! `goclaw providers` and the `openai_compat_call` tool, against real servers on 127.0.0.1:
//! llmock (an OpenAI-compatible API) and a small HTTP server of the test's own that answers
//! with the request it got (or a redirect), to show what leaves goclaw and what comes back.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;

use serde_json::{Value, json};

use crate::run::{fakellm, llmock};
use crate::util::*;

const KEY: &str = "sk-test-provider-key-0123456789";

/// A server that answers every request with what it received (method, path, headers) as JSON,
/// or, for a path starting with /redirect, a 302 to the cloud metadata address. Runs on a
/// thread for as long as the test.
fn echo_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let mut head = Vec::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                head.push(line.trim_end().to_string());
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let request_line = head.first().cloned().unwrap_or_default();
            let reply = if request_line.contains(" /v1/redirect") {
                "HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/latest/meta-data\r\nContent-Length: 0\r\n\r\n".to_string()
            } else {
                let doc = json!({
                    "request": request_line,
                    "headers": head[1..],
                    "body": String::from_utf8_lossy(&body),
                })
                .to_string();
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{doc}",
                    doc.len()
                )
            };
            let mut stream = reader.into_inner();
            let _ = stream.write_all(reply.as_bytes());
        }
    });
    base
}

fn home(providers: &[(&str, &str)]) -> TestEnv {
    let env = TestEnv::new();
    let mut config = String::from("[agents.quiet.tools]\ndeny = [\"group:runtime\"]\n\n");
    for (name, base) in providers {
        config.push_str(&format!(
            "[providers.{name}]\nkind = \"openai\"\nbase_url = \"{base}\"\napi_key_env = \"TEST_PROVIDER_KEY\"\n\n"
        ));
    }
    std::fs::write(env.home().join("config.toml"), config).unwrap();
    env
}

fn goclaw(env: &TestEnv, args: &[&str]) -> std::process::Output {
    env.cmd(args)
        .env("TEST_PROVIDER_KEY", KEY)
        .output()
        .unwrap()
}

fn answer(o: &std::process::Output) -> Value {
    let text = json(o)["result"]["for_llm"].as_str().unwrap().to_string();
    serde_json::from_str(&text).unwrap_or(Value::String(text))
}

#[test]
fn providers_are_listed_probed_and_called_through_the_gate() {
    let Some(llm) = llmock() else { return };
    let env = home(&[
        ("emb", &format!("{}/v1", llm.base)),
        ("gone", "http://127.0.0.1:1/v1"),
    ]);
    // The key's variable is named and said to be set; its value never shows.
    let o = goclaw(&env, &["providers", "list"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!stdout(&o).contains(KEY));
    let listed = items(&o);
    assert_eq!(listed[0]["name"], "emb");
    assert_eq!(listed[0]["key_env"], "TEST_PROVIDER_KEY");
    assert_eq!(listed[0]["key_set"], true);
    // One answers, one does not: exit 8, naming it.
    let e = assert_error(&goclaw(&env, &["providers", "probe"]), 8, "upstream");
    assert!(e["message"].as_str().unwrap().contains("gone:"), "{e}");
    assert_eq!(code(&goclaw(&env, &["providers", "probe", "emb"])), 0);
    // GET and POST.
    let o = goclaw(&env, &["providers", "call", "emb", "/models"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(answer(&o)["status"], 200);
    assert_eq!(answer(&o)["body"]["object"], "list");
    env.write("body.json", r#"{"model":"m","input":["one","two"]}"#);
    let o = goclaw(
        &env,
        &["providers", "call", "emb", "/embeddings", "@body.json"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(answer(&o)["body"]["data"].as_array().unwrap().len(), 2);
    // The same through tools exec, and the call is in the audit trail.
    let args =
        json!({"provider": "emb", "path": "/embeddings", "body": {"model": "m", "input": "x"}});
    let o = goclaw(
        &env,
        &["tools", "exec", "openai_compat_call", &args.to_string()],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let history = stdout(&env.run(&["tools", "history", "--tool", "openai_compat_call"]));
    assert_eq!(items_in(&history).len(), 3, "{history}");
    // An answer that is not 2xx is the tool's error (exit 1), with the status.
    let o = goclaw(&env, &["providers", "call", "emb", "/no/such/endpoint"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    // An unknown provider is exit 5; a provider that is no OpenAI kind is refused.
    assert_error(
        &goclaw(&env, &["providers", "call", "nope", "/models"]),
        5,
        "not_found",
    );
    // Policy: an agent without group:runtime is denied (exit 3) before anything is sent.
    let o = goclaw(
        &env,
        &["providers", "call", "emb", "/models", "--agent", "quiet"],
    );
    assert_error(&o, 3, "denied");
}

#[test]
fn the_path_never_leaves_the_base_url_and_the_key_never_comes_back() {
    let base = echo_server();
    let env = home(&[("echo", &base)]);
    let o = goclaw(
        &env,
        &["providers", "call", "echo", "/things?x=1", r#"{"a":1}"#],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let seen = answer(&o);
    assert_eq!(
        seen["body"]["request"], "POST /v1/things?x=1 HTTP/1.1",
        "{seen}"
    );
    assert_eq!(seen["body"]["body"], r#"{"a":1}"#);
    // The key went out (as a bearer token) and came back echoed: scrubbed.
    let headers = seen["body"]["headers"].to_string();
    assert!(headers.contains("Bearer [REDACTED]"), "{headers}");
    assert!(!stdout(&o).contains(KEY));
    for path in [
        "/../admin",
        "/v1/../../admin",
        "//169.254.169.254/latest",
        "/%2e%2e/admin",
        "/a%2Fb",
        "/a\\b",
        "/a#b",
        "x",
        "@169.254.169.254/x",
    ] {
        let o = goclaw(&env, &["providers", "call", "echo", path]);
        assert_eq!(code(&o), 1, "{path}: {}", stdout(&o));
        assert!(stderr(&o).contains("refused"), "{path}: {}", stderr(&o));
    }
    // A redirect (to the metadata address) is not followed.
    let o = goclaw(&env, &["providers", "call", "echo", "/redirect"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("a redirect to http://169.254.169.254")
            && stderr(&o).contains("not followed"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_agent_calls_a_provider_endpoint_in_a_run() {
    let Some(llm) = fakellm() else { return };
    let Some(emb) = llmock() else { return };
    let env = home(&[("emb", &format!("{}/v1", emb.base))]);
    let o = env
        .cmd(&[
            "run",
            "--provider",
            "openai",
            "--model",
            "gpt-4o",
            "--events",
        ])
        .arg("ask the embeddings endpoint")
        .env("OPENAI_BASE_URL", format!("{}/v1", llm.base))
        .env("TEST_PROVIDER_KEY", KEY)
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let evs = crate::run::events(&o);
    let result = evs
        .iter()
        .find(|e| e["type"] == "tool.result" && e["name"] == "openai_compat_call")
        .unwrap_or_else(|| panic!("no openai_compat_call result: {}", stdout(&o)));
    assert_eq!(result["is_error"], false, "{result}");
    assert!(!stdout(&o).contains(KEY));
    let last = evs.last().unwrap();
    assert!(
        last.to_string()
            .contains("The embeddings endpoint answered."),
        "{last}"
    );
}
