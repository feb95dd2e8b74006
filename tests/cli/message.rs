//! `goclaw message` and the `message` tool: every kind of channel (standard output, a file, a
//! webhook on a real socket, a command), what leaves goclaw scrubbed, the guard on webhooks,
//! policy, a run that sends, and cron jobs that deliver their result.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::util::*;

const TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
const HOOK_SECRET: &str = "hook-secret-value-4242";

/// A webhook receiver on 127.0.0.1: keeps every request (its head and body); a path ending in
/// /fail answers 500 with the request's headers (so a secret header would come back).
/// The requests a receiver got: each one's head and body.
type Received = Arc<Mutex<Vec<(String, String)>>>;

fn receiver() -> (String, Received) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let got = Arc::new(Mutex::new(Vec::new()));
    let keep = got.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let mut head = String::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                head.push_str(&line);
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let fail = head.lines().next().unwrap_or("").contains("/fail ");
            let reply = if fail {
                format!(
                    "HTTP/1.1 500 Oops\r\nContent-Length: {}\r\n\r\n{head}",
                    head.len()
                )
            } else {
                "HTTP/1.1 204 No Content\r\n\r\n".to_string()
            };
            keep.lock()
                .unwrap()
                .push((head, String::from_utf8_lossy(&body).into_owned()));
            let _ = reader.into_inner().write_all(reply.as_bytes());
        }
    });
    (base, got)
}

fn home(backend: Backend, hook: &str) -> Option<TestEnv> {
    let env = TestEnv::on(backend)?;
    let desk = env.root().join("desk.txt");
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[tools.web]\nallow_private_hosts = [\"127.0.0.1\"]\n\n\
             [agents.mute.tools]\ndeny = [\"group:messaging\"]\n\n\
             [channels.out]\nkind = \"stdout\"\n\n\
             [channels.log]\nkind = \"file\"\npath = \"messages.jsonl\"\n\n\
             [channels.desk]\nkind = \"command\"\n\
             argv = [\"sh\", \"-c\", \"cat > '{}'; echo \\\" [{{topic}}]\\\" >> '{}'\"]\n\n\
             [channels.hook]\nkind = \"webhook\"\nurl = \"{hook}/hook\"\ntopic = \"deploys\"\n\
             headers = {{ Authorization = \"Bearer {HOOK_SECRET}\" }}\n\n\
             [channels.broken]\nkind = \"webhook\"\nurl = \"{hook}/fail\"\n\
             headers = {{ Authorization = \"Bearer {HOOK_SECRET}\" }}\n\n\
             [channels.nope]\nkind = \"command\"\nargv = [\"false\"]\n",
            desk.display(),
            desk.display()
        ),
    )
    .unwrap();
    Some(env)
}

fn lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

on_both_backends! {
fn messages_reach_every_kind_of_channel_scrubbed(backend) {
    let (hook, got) = receiver();
    let Some(env) = home(backend, &hook) else { return };
    let text = format!("deployed with {TOKEN} at last");
    // Standard output: one JSON line, before the call's own document.
    let o = env.run(&["message", "send", "--channel", "out", &text]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let first: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(first["channel"], "out");
    assert_eq!(first["text"], "deployed with [REDACTED] at last");
    assert!(!stdout(&o).contains(TOKEN));
    // A file, beside the config, private.
    let o = env.run(&["message", "send", "--channel", "log", "--topic", "t1", &text]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let file = env.home().join("messages.jsonl");
    let written = lines(&file);
    assert_eq!(written[0]["topic"], "t1");
    assert_eq!(written[0]["text"], "deployed with [REDACTED] at last");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    // A command: the text on its stdin, the topic in its arguments.
    let o = env.run_stdin(&["message", "send", "--channel", "desk", "--topic", "ops", "-"], text.clone());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let desk = std::fs::read_to_string(env.root().join("desk.txt")).unwrap();
    assert_eq!(desk, "deployed with [REDACTED] at last [ops]\n");
    let o = env.run(&["message", "send", "--channel", "desk", "--topic=-rf", "x"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stderr(&o).contains("may not start with -"), "{}", stderr(&o));
    // A webhook: the record POSTed with the configured header, the default topic.
    let o = env.run(&["message", "send", "--channel", "hook", &text]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (head, body) = got.lock().unwrap()[0].clone();
    assert!(head.starts_with("POST /hook "), "{head}");
    assert!(head.contains(&format!("Bearer {HOOK_SECRET}")), "{head}");
    let record: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(record["topic"], "deploys");
    assert_eq!(record["text"], "deployed with [REDACTED] at last");
    // A webhook that fails and echoes the header back: exit 8, the header's value scrubbed.
    let o = env.run(&["message", "send", "--channel", "broken", "x"]);
    assert_eq!(code(&o), 8, "{}", stdout(&o));
    assert!(stderr(&o).contains("HTTP 500"), "{}", stderr(&o));
    assert!(!stderr(&o).contains(HOOK_SECRET) && !stdout(&o).contains(HOOK_SECRET));
    // A command that fails: exit 1. An unknown channel: exit 5. The audit has every call.
    assert_eq!(code(&env.run(&["message", "send", "--channel", "nope", "x"])), 1);
    assert_error(&env.run(&["message", "send", "--channel", "zzz", "x"]), 5, "not_found");
    let history = env.sql("SELECT count(*) AS n FROM tool_calls WHERE tool = 'message'");
    assert_eq!(history[0]["n"], 8, "{history:?}");
    // Policy: an agent without group:messaging is denied; nothing is sent.
    let o = env.run(&["message", "send", "--channel", "log", "no", "--agent", "mute"]);
    assert_error(&o, 3, "denied");
    assert_eq!(lines(&file).len(), 1);
    // The listing names header keys, never their values.
    let o = env.run(&["message", "channels"]);
    assert!(!stdout(&o).contains(HOOK_SECRET), "{}", stdout(&o));
    assert_eq!(items(&o).len(), 6);
}
}

#[test]
fn a_webhook_to_a_private_address_needs_the_operators_leave() {
    let (hook, got) = receiver();
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        format!("[channels.hook]\nkind = \"webhook\"\nurl = \"{hook}/hook\"\n"),
    )
    .unwrap();
    let o = env.run(&["message", "send", "--channel", "hook", "x"]);
    let e = assert_error(&o, 3, "denied");
    assert!(e["message"].as_str().unwrap().contains("SSRF"), "{e}");
    assert!(got.lock().unwrap().is_empty());
    // A channel missing its kind's key, or with another kind's, is a config error, named.
    for bad in [
        "[channels.f]\nkind = \"file\"\n",
        "[channels.f]\nkind = \"file\"\npath = \"\"\n",
        "[channels.f]\nkind = \"stdout\"\nheaders = { a = \"b\" }\n",
        "[channels.f]\nkind = \"command\"\nargv = [\"\"]\n",
        "[channels.f]\nkind = \"command\"\nargv = [\"true\"]\ntimeout_secs = 99999\n",
    ] {
        std::fs::write(env.home().join("config.toml"), bad).unwrap();
        let e = assert_error(&env.run(&["message", "channels"]), 2, "usage");
        assert!(
            e["message"].as_str().unwrap().contains("[channels.f]"),
            "{bad}: {e}"
        );
    }
    // A webhook's URL may be its secret: what the model and the audit see names no more than
    // its host and first path part.
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[tools.web]\nallow_private_hosts = [\"127.0.0.1\"]\n\
             [channels.hook]\nkind = \"webhook\"\n\
             url = \"{}\"\n\
             [channels.bg]\nkind = \"command\"\nargv = [\"sh\", \"-c\", \"sleep 30.5 & exit 0\"]\n\
             timeout_secs = 2\n",
            hook.replace("http://", "http://user:hookpassw0rd@")
                + "/hook/T000/B000/secretpart?sig=abc"
        ),
    )
    .unwrap();
    let o = env.run(&["message", "send", "--channel", "hook", "x"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o) + &stdout(&env.run(&["message", "channels"]));
    for secret in ["hookpassw0rd", "secretpart", "sig=abc"] {
        assert!(!text.contains(secret), "{secret}: {text}");
    }
    assert_eq!(got.lock().unwrap().len(), 1);
    // A command that leaves a child behind holding its stderr ends at its time limit.
    let t = std::time::Instant::now();
    let o = env.run(&["message", "send", "--channel", "bg", "x"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        t.elapsed() < std::time::Duration::from_secs(6),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn an_agent_sends_a_message_in_a_run() {
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let (hook, _) = receiver();
    let Some(env) = home(Backend::Sqlite, &hook) else {
        return;
    };
    let o = crate::run::run(&env, &llm, &["tell the ops channel"]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let written = lines(&env.home().join("messages.jsonl"));
    assert_eq!(written.len(), 1, "{written:?}");
    assert_eq!(written[0]["text"], "deploy finished");
    assert_eq!(written[0]["topic"], "deploys");
    assert_eq!(written[0]["agent"], Value::Null);
}

on_both_backends! {
fn cron_jobs_deliver_their_result_to_a_channel(backend) {
    let (hook, _) = receiver();
    let Some(env) = home(backend, &hook) else { return };
    let add = |name: &str, deliver: &str| {
        env.run(&[
            "cron", "add", name, "--every", "1h", "--tool", "datetime", "--deliver", deliver,
        ])
    };
    assert_eq!(code(&add("clock", "log")), 0);
    assert_error(&add("lost", "zzz"), 5, "not_found");
    let o = env.run(&["cron", "tick", "--force", "clock"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let written = lines(&env.home().join("messages.jsonl"));
    assert_eq!(written[0]["topic"], "clock");
    assert!(written[0]["text"].as_str().unwrap().contains("unix_ms"), "{written:?}");
    // A delivery that fails makes the run a failure, and says why.
    assert_eq!(code(&add("muted", "nope")), 0);
    let o = env.run(&["cron", "tick", "--force", "muted"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("not delivered to channel nope"),
        "{}",
        stdout(&o)
    );
}
}

/// A webhook's URL carries its secret in its path (Telegram's `/bot<token>`) or query: the
/// listing and the errors of a failed delivery show neither, though reqwest's own error names
/// the whole URL.
#[test]
fn a_webhooks_token_in_its_url_is_never_shown() {
    const TOKEN: &str = "123456789:AAHdqTcvCH1vGWJxfSecret";
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[tools.web]\nallow_private_hosts = [\"127.0.0.1\"]\n\n\
             [channels.tg]\nkind = \"webhook\"\n\
             url = \"http://127.0.0.1:1/bot{TOKEN}/sendMessage?chat=42\"\n"
        ),
    )
    .unwrap();
    let o = env.run(&["message", "channels"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        items(&o)[0]["to"],
        "http://127.0.0.1:1/[REDACTED]?[REDACTED]"
    );
    let o = env.run(&["message", "send", "--channel", "tg", "hello"]);
    assert_eq!(code(&o), 8, "{}", stdout(&o));
    for text in [stdout(&o), stderr(&o)] {
        assert!(!text.contains("AAHdqTcvCH1vGWJxf"), "{text}");
    }
    assert!(
        stderr(&o).contains("http://127.0.0.1:1/[REDACTED]"),
        "{}",
        stderr(&o)
    );
    let audit = env.sql("SELECT * FROM tool_calls WHERE tool = 'message'");
    assert!(
        !format!("{audit:?}").contains("AAHdqTcvCH1vGWJxf"),
        "{audit:?}"
    );
}

/// A server that fails and echoes the request it got (its line, its headers): what the URL
/// hides is taken out of the answer the error quotes, as the headers' values are.
#[test]
fn a_webhook_that_echoes_the_request_shows_no_part_of_its_url_secret() {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        for _ in 0..2 {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = String::new();
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                head.push_str(&line);
            }
            let body = format!("bad request: {head}");
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 500 Oops\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[tools.web]\nallow_private_hosts = [\"127.0.0.1\"]\n\n\
             [channels.tg]\nkind = \"webhook\"\n\
             url = \"http://hookuser:Pa55wordX@127.0.0.1:{port}/bot123456:TokenPart1/send%20Message?chat=42&key=QueryKey7\"\n"
        ),
    )
    .unwrap();
    for args in [
        &["message", "send", "--channel", "tg", "hello"][..],
        &[
            "tools",
            "exec",
            "message",
            r#"{"channel":"tg","text":"hello"}"#,
        ],
    ] {
        let o = env.run(args);
        assert_eq!(code(&o), 8, "{}", stdout(&o));
        assert!(stdout(&o).contains("answered HTTP 500"), "{}", stdout(&o));
        for text in [stdout(&o), stderr(&o)] {
            for secret in [
                "TokenPart1",
                "QueryKey7",
                "Pa55wordX",
                "send Message",
                "send%20Message",
                // hookuser:Pa55wordX in base64: what the client sent as basic auth.
                "aG9va3VzZXI6UGE1NXdvcmRY",
            ] {
                assert!(!text.contains(secret), "{secret} in {text}");
            }
        }
    }
    server.join().unwrap();
    let audit = env.sql("SELECT * FROM tool_calls WHERE tool = 'message'");
    for secret in ["TokenPart1", "QueryKey7", "Pa55wordX"] {
        assert!(!format!("{audit:?}").contains(secret), "{audit:?}");
    }
}
