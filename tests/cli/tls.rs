//! HTTPS: goclaw's TLS (rustls on ring, installed by `providers::http`) against a real
//! OpenAI-compatible server (llmock under uvicorn) serving a certificate from a test CA. The CA
//! is trusted through `SSL_CERT_FILE`; without it the same server is refused, so trust is not
//! bypassed.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::mcp::{Child, free_port, peer_python, wait_for_port};
use crate::util::*;

/// Makes `ca.pem` and a `leaf.pem`/`leaf.key` for 127.0.0.1 signed by it, in `dir`.
fn certificates(dir: &Path) -> Option<()> {
    let openssl = require_peer(which::which("openssl").ok(), "openssl (the CLI)")?;
    let run = |args: &[&str]| {
        let out = Command::new(&openssl)
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "openssl {args:?}: {out:?}");
    };
    run(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=goclaw test CA",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign",
    ]);
    run(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "leaf.key",
        "-out",
        "leaf.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    std::fs::write(
        dir.join("leaf.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    run(&[
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "leaf.pem",
        "-days",
        "1",
        "-extfile",
        "leaf.ext",
    ]);
    Some(())
}

#[test]
fn a_provider_over_https_is_reached_with_a_trusted_ca_and_refused_without() {
    let env = TestEnv::new();
    let dir = env.root().join("tls");
    std::fs::create_dir_all(&dir).unwrap();
    if certificates(&dir).is_none() {
        return;
    }
    let Some(py) = peer_python() else { return };
    let uvicorn = Path::new(&py).with_file_name("uvicorn");
    let Some(uvicorn) = require_peer(
        uvicorn.exists().then_some(uvicorn),
        "uvicorn in the peers' venv (.ci/run installs it with llmock)",
    ) else {
        return;
    };
    let port = free_port();
    let _server = Child(
        Command::new(uvicorn)
            .args(["llmock.main:create_app", "--factory", "--host", "127.0.0.1"])
            .args(["--port", &port.to_string()])
            .arg("--ssl-keyfile")
            .arg(dir.join("leaf.key"))
            .arg("--ssl-certfile")
            .arg(dir.join("leaf.pem"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_for_port(port);
    let base = format!("https://127.0.0.1:{port}/v1");
    let run = |trust: bool| {
        let mut c = env.cmd(&["run", "--model", "gpt-4o", "say hello"]);
        c.env("OPENAI_BASE_URL", &base).env("OPENAI_API_KEY", "k");
        if trust {
            c.env("SSL_CERT_FILE", dir.join("ca.pem"));
        }
        c.output().unwrap()
    };
    let trusted = run(true);
    assert_eq!(code(&trusted), 0, "{}", stderr(&trusted));
    let doc = json(&trusted);
    assert_eq!(doc["status"], "completed", "{doc}");
    assert!(
        !doc["content"].as_str().unwrap_or_default().is_empty(),
        "{doc}"
    );

    let refused = run(false);
    let err = assert_error(&refused, 8, "upstream");
    let message = err["message"].as_str().unwrap_or_default();
    assert!(message.contains("certificate"), "{message}");
}
