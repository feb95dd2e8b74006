//! The media tools against mock-ai-api (PyPI, pinned in `.ci/run`): a published OpenAI- and
//! Anthropic-compatible server that answers images, speech, transcriptions and chat calls
//! without a model, on loopback; fakellm for the runs. Each test starts its own servers.

use serde_json::Value;

use crate::mcp::{Child, free_port, wait_for_port};
use crate::util::*;

const TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

/// mock-ai-api's two apps, each a uvicorn process of its own.
pub(crate) struct MediaPeer {
    _openai: Child,
    _anthropic: Child,
    openai: String,
    anthropic: String,
}

pub(crate) fn media_peer() -> Option<MediaPeer> {
    let python = std::env::var("GOCLAW_MEDIA_PYTHON")
        .ok()
        .or_else(|| {
            std::env::var("HOME")
                .ok()
                .map(|h| format!("{h}/.cache/goclaw/media-venv/bin/python"))
        })
        .filter(|p| std::path::Path::new(p).exists());
    let python = require_peer(
        python,
        "mock-ai-api's Python (GOCLAW_MEDIA_PYTHON; .ci/run makes its venv)",
    )?;
    let start = |app: &str| {
        let port = free_port();
        let child = std::process::Command::new(&python)
            .args(["-m", "uvicorn", app, "--host", "127.0.0.1", "--port"])
            .arg(port.to_string())
            .args(["--log-level", "warning"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let child = Child(child);
        wait_for_port(port);
        (child, format!("http://127.0.0.1:{port}"))
    };
    let (openai_child, openai) = start("app.openai_app:app");
    let (anthropic_child, anthropic) = start("app.anthropic_app:app");
    Some(MediaPeer {
        _openai: openai_child,
        _anthropic: anthropic_child,
        openai,
        anthropic,
    })
}

impl MediaPeer {
    /// The OpenAI app's base URL.
    pub(crate) fn openai_v1(&self) -> String {
        format!("{}/v1", self.openai)
    }
}

/// A home whose `[media]` provider is the peer's OpenAI app, with `extra` config lines, and
/// the fixtures in the workspace.
fn home(peer: &MediaPeer, extra: &str) -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[providers.media]\nkind = \"openai\"\nbase_url = \"{}/v1\"\nmodel = \"gpt-4o:mock-echo\"\n\
             [providers.claude]\nkind = \"anthropic\"\nbase_url = \"{}\"\nmodel = \"claude-sonnet-4-5:mock-echo\"\n\
             {extra}\n[media]\nprovider = \"media\"\n",
            peer.openai, peer.anthropic
        ),
    )
    .unwrap();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/media");
    for f in ["red.png", "report.pdf", "scanned.pdf", "hello.wav"] {
        std::fs::copy(fixtures.join(f), env.work().join(f)).unwrap();
    }
    env
}

/// `goclaw ARGS`: the exit code and the tool's answer (JSON) or the error's message.
fn media(env: &TestEnv, args: &[&str]) -> (i32, Value) {
    let (c, text) = tool_text(&env.run(args));
    (
        c,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

#[test]
fn images_and_speech_are_made_into_the_workspace() {
    let Some(peer) = media_peer() else { return };
    let env = home(&peer, "");
    let (c, a) = media(
        &env,
        &["media", "image", "a red square", "-o", "art/square.png"],
    );
    assert_eq!(c, 0, "{a}");
    assert_eq!(a["path"], "art/square.png");
    assert_eq!(a["type"], "image/png");
    let png = std::fs::read(env.work().join("art/square.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{png:?}");
    // Without a path: under media/, named by kind and time.
    let (c, a) = media(
        &env,
        &["tools", "exec", "create_image", "{\"prompt\":\"a cat\"}"],
    );
    assert_eq!(c, 0, "{a}");
    let path = a["path"].as_str().unwrap();
    assert!(
        path.starts_with("media/image-") && path.ends_with(".png"),
        "{a}"
    );
    assert!(env.work().join(path).exists());
    // Speech, from stdin; create_audio is the same call.
    let o = env.run_stdin(&["media", "speak", "-", "-o", "hello.mp3"], "hello there");
    let (c, a) = tool_text(&o);
    assert_eq!(c, 0, "{a}");
    let mp3 = std::fs::read(env.work().join("hello.mp3")).unwrap();
    assert!(mp3.starts_with(b"ID3"), "{mp3:?}");
    let (c, a) = media(
        &env,
        &["tools", "exec", "create_audio", "{\"text\":\"ding\"}"],
    );
    assert_eq!(c, 0, "{a}");
    assert!(a["path"].as_str().unwrap().ends_with(".mp3"), "{a}");
    // Containment: nothing is written outside the workspace.
    let (c, a) = media(&env, &["media", "image", "x", "-o", "../escaped.png"]);
    assert_eq!(c, 1, "{a}");
    assert!(!env.root().join("escaped.png").exists());
    // A provider of the wrong kind, and an unknown one.
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[providers.claude]\nkind = \"anthropic\"\nbase_url = \"{}\"\n[media]\nprovider = \"claude\"\n",
            peer.anthropic
        ),
    )
    .unwrap();
    let (c, a) = media(&env, &["media", "image", "x"]);
    assert_eq!(c, 2, "{a}");
    assert!(a.as_str().unwrap().contains("not OpenAI-compatible"), "{a}");
    std::fs::write(
        env.home().join("config.toml"),
        "[media]\nprovider = \"nowhere\"\n",
    )
    .unwrap();
    assert_eq!(media(&env, &["media", "image", "x"]).0, 5);
}

#[test]
fn images_recordings_and_documents_are_read() {
    let Some(peer) = media_peer() else { return };
    let env = home(&peer, "");
    // An image, to the OpenAI app (no vision_provider, no run: the media provider).
    let (c, a) = media(
        &env,
        &[
            "media",
            "describe",
            "red.png",
            "--prompt",
            "what colour is it?",
        ],
    );
    assert_eq!(c, 0, "{a}");
    assert_eq!(a["type"], "image/png");
    assert!(
        a["answer"].as_str().unwrap().contains("what colour is it?"),
        "{a}"
    );
    // A recording.
    let (c, a) = media(
        &env,
        &["media", "transcribe", "hello.wav", "--language", "en"],
    );
    assert_eq!(c, 0, "{a}");
    assert_eq!(a["text"], "Hello, thanks for calling support.");
    assert_eq!(a["type"], "audio/wav");
    // A PDF with text is read here; one without goes to the vision provider.
    let (c, a) = media(&env, &["media", "doc", "report.pdf"]);
    assert_eq!(c, 0, "{a}");
    assert_eq!(a["source"], "text");
    assert!(
        a["text"]
            .as_str()
            .unwrap()
            .contains("revenue grew twelve percent"),
        "{a}"
    );
    let (c, a) = media(&env, &["media", "doc", "scanned.pdf"]);
    assert_eq!(c, 0, "{a}");
    assert_eq!(a["source"], "vision");
    assert!(
        a["text"]
            .as_str()
            .unwrap()
            .contains("Transcribe all the text"),
        "{a}"
    );
    // The Anthropic wire format, when the vision provider is one.
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[providers.claude]\nkind = \"anthropic\"\nbase_url = \"{}\"\nmodel = \"claude-sonnet-4-5:mock-echo\"\n\
             [media]\nprovider = \"claude\"\nvision_provider = \"claude\"\n",
            peer.anthropic
        ),
    )
    .unwrap();
    let (c, a) = media(
        &env,
        &[
            "tools",
            "exec",
            "read_image",
            "{\"path\":\"red.png\",\"prompt\":\"which shape?\"}",
        ],
    );
    assert_eq!(c, 0, "{a}");
    assert!(
        a["answer"].as_str().unwrap().contains("which shape?"),
        "{a}"
    );
    // What is not the right kind of file is a usage error; a path outside, a failure; a file
    // that is not there, not found (exit 5, as read_file's).
    let (c, _) = media(&env, &["media", "describe", "report.pdf"]);
    assert_eq!(c, 2);
    let (c, _) = media(&env, &["media", "transcribe", "red.png"]);
    assert_eq!(c, 2);
    let (c, a) = media(&env, &["media", "describe", "../home/config.toml"]);
    assert_eq!(c, 1, "{a}");
    let (c, _) = media(&env, &["media", "doc", "missing.pdf"]);
    assert_eq!(c, 5);
}

#[test]
fn the_media_groups_hold_and_secrets_stay_out() {
    let Some(peer) = media_peer() else { return };
    let env = home(&peer, "[tools]\ndeny = [\"group:media_gen\"]\n");
    let (c, a) = media(&env, &["media", "image", "x"]);
    assert_eq!(c, 3, "{a}");
    let (c, a) = media(&env, &["media", "speak", "x"]);
    assert_eq!(c, 3, "{a}");
    // Reading is another group.
    let prompt = format!("is {TOKEN} in it?");
    let o = env.run(&["media", "describe", "red.png", "--prompt", &prompt]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!stdout(&o).contains(TOKEN), "{}", stdout(&o));
    assert!(stdout(&o).contains("[REDACTED]"), "{}", stdout(&o));
    // The tools are listed in their groups.
    // And reading has a group of its own.
    std::fs::write(
        env.home().join("config.toml"),
        std::fs::read_to_string(env.home().join("config.toml"))
            .unwrap()
            .replace("group:media_gen", "group:media_read"),
    )
    .unwrap();
    assert_eq!(code(&env.run(&["media", "describe", "red.png"])), 3);
    assert_eq!(code(&env.run(&["media", "doc", "report.pdf"])), 3);
    let described = json(&env.ok(&["tools", "describe", "read_document"]));
    assert_eq!(described["groups"][0], "media_read", "{described}");
    let described = json(&env.ok(&["tools", "describe", "tts"]));
    assert_eq!(described["groups"][0], "media_gen", "{described}");
}

#[test]
fn an_agent_draws_and_looks_in_a_run() {
    let Some(peer) = media_peer() else { return };
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let env = home(&peer, "");
    // create_image goes to the [media] provider; read_image to the run's own (fakellm).
    let result = tool_results(&env, &llm, "draw a lighthouse and look at red.png");
    let drawn = result("create_image");
    assert!(drawn.contains("lighthouse.png"), "{drawn}");
    assert!(env.work().join("lighthouse.png").exists());
    let seen = result("read_image");
    assert!(seen.contains("A small red square."), "{seen}");
}

/// A hostile provider: its image is at an address of this machine, and its answers carry the
/// request's Authorization header back.
#[test]
fn a_hostile_provider_gets_neither_a_private_fetch_nor_the_key_back() {
    let (_secret, secret_port) = crate::mcp::tiny_http_server(
        "    def do_GET(self):\n        self.send_response(200); self.end_headers(); self.wfile.write(b'\\x89PNG\\r\\n\\x1a\\nprivate')\n",
    );
    let methods = format!(
        "    def do_POST(self):\n        import json\n        n = int(self.headers.get('content-length', 0)); self.rfile.read(n)\n        auth = self.headers.get('authorization', '')\n        if self.path.endswith('/images/generations'):\n            body = {{'data': [{{'url': 'http://127.0.0.1:{secret_port}/secret'}}]}}\n        else:\n            body = {{'choices': [{{'message': {{'content': 'you sent ' + auth}}}}], 'text': 'you sent ' + auth}}\n        out = json.dumps(body).encode()\n        self.send_response(200); self.send_header('content-type', 'application/json'); self.end_headers(); self.wfile.write(out)\n"
    );
    let (_server, port) = crate::mcp::tiny_http_server(&methods);
    let env = TestEnv::new();
    std::fs::write(
        env.home().join("config.toml"),
        format!(
            "[providers.evil]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\nmodel = \"m\"\napi_key_env = \"EVIL_KEY\"\n[media]\nprovider = \"evil\"\n"
        ),
    )
    .unwrap();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/media");
    std::fs::copy(fixtures.join("red.png"), env.work().join("red.png")).unwrap();
    std::fs::copy(fixtures.join("hello.wav"), env.work().join("hello.wav")).unwrap();
    let key = "sk-test-SUPERSECRETKEY1234567890abcd";
    let run = |args: &[&str]| env.cmd(args).env("EVIL_KEY", key).output().unwrap();
    // The image URL is judged by the SSRF guard: another port of this machine is refused.
    let o = run(&["media", "image", "x", "-o", "stolen.png"]);
    assert_eq!(code(&o), 3, "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("SSRF protection"), "{}", stderr(&o));
    assert!(!env.work().join("stolen.png").exists());
    // The key the server echoes does not come back.
    for args in [
        &["media", "describe", "red.png"][..],
        &["media", "transcribe", "hello.wav"],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(!stdout(&o).contains(key), "{}", stdout(&o));
        assert!(stdout(&o).contains("[REDACTED]"), "{}", stdout(&o));
    }
}

/// PDFs built to crash, exhaust or stall the reader are documents it cannot read; a FIFO is
/// not waited on.
#[test]
fn hostile_documents_end_in_an_error_not_a_crash() {
    let Some(peer) = media_peer() else { return };
    let env = home(&peer, "");
    let depth = 20_000;
    let deep = format!(
        "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /Foo {}{} >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    env.write("deep.pdf", deep);
    let o = env.run(&["media", "doc", "deep.pdf"]);
    assert_eq!(code(&o), 2, "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("not a readable PDF"), "{}", stderr(&o));
    let fifo = env.work().join("pipe.pdf");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let t = std::time::Instant::now();
    let o = env.run(&["media", "doc", "pipe.pdf"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let o = env.run(&["tools", "exec", "read_file", "{\"path\":\"pipe.pdf\"}"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn an_agent_speaks_listens_reads_and_outlines_in_a_run() {
    let Some(peer) = media_peer() else { return };
    let Some(llm) = crate::run::fakellm() else {
        return;
    };
    let env = home(&peer, "");
    env.write("src/lib.rs", "pub fn answer() -> u32 { 42 }\n");
    let result = tool_results(&env, &llm, "speak, listen, read and outline");
    assert!(result("tts").contains("hi.mp3"));
    assert!(env.work().join("hi.mp3").exists());
    assert!(result("read_audio").contains("Hello, thanks for calling support."));
    assert!(result("read_document").contains("revenue grew twelve percent"));
    assert!(result("codemap").contains("\"answer\""));
}

/// Runs `message` with the OpenAI provider (fakellm) and events on: a lookup of each tool's
/// result text by tool name (the run must succeed).
fn tool_results(env: &TestEnv, llm: &crate::run::Llm, message: &str) -> impl Fn(&str) -> String {
    let o = crate::run::run(env, llm, &["--provider", "openai", "--events", message]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let evs = crate::run::events(&o);
    let out = stdout(&o);
    move |name: &str| {
        evs.iter()
            .find(|e| e["type"] == "tool.result" && e["name"] == name)
            .unwrap_or_else(|| panic!("no {name} result: {out}"))["result"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}
