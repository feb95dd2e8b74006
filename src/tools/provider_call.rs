//! `openai_compat_call` (seed 000 §2, "AI & LLM"): one request to an endpoint of a configured
//! OpenAI-compatible provider that the agent loop does not speak itself (embeddings,
//! moderations, a server's own extensions), with the provider's base URL and key.
//!
//! What the caller chooses is the provider (one of `[providers]`, or `openai` from the
//! environment) and a path under its base URL; never the host. The path is refused when it
//! could leave the base URL (`..`, `//`, a scheme, a backslash, an encoded dot or slash, a
//! fragment). The request goes through the web tools' guarded resolver: the provider's own
//! configured host may be private (a local server is the operator's choice), every other
//! address is judged by the SSRF guard, and redirects are not followed. A body makes it a POST
//! (JSON), none a GET. The answer's status and body (JSON when it is JSON) come back, at most
//! [`MAX_BODY`] bytes of it; the key is scrubbed from it whatever `[tools] scrub_credentials`
//! says.

use std::time::Duration;

use reqwest::Url;
use serde_json::{Map, Value, json};

use super::web::{self, WebConfig};
use super::{CallContext, Risk, Tool, ToolResult};
use crate::providers::{self, Kind};
use crate::store::Store;

/// `openai_compat_call`.
pub struct OpenaiCompatCall;

/// The most bytes of an answer read.
pub const MAX_BODY: usize = 1 << 20;

impl Tool for OpenaiCompatCall {
    fn name(&self) -> &str {
        "openai_compat_call"
    }
    fn description(&self) -> &str {
        "Call an endpoint of a configured OpenAI-compatible provider with its base URL and key, e.g. /embeddings or /moderations: POST with a JSON body, or GET without one. Returns the HTTP status and the answer."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "provider":{"type":"string","description":"a provider of the configuration ([providers]), or openai"},
            "path":{"type":"string","description":"the endpoint under the provider's base URL, e.g. /embeddings"},
            "body":{"type":"object","description":"the JSON body (POST); leave it out for a GET"}},
            "required":["provider","path"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn outbound(&self) -> bool {
        true
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        let name = super::trimmed_arg(args, "provider");
        let path = super::trimmed_arg(args, "path");
        if name.is_empty() || path.is_empty() {
            return ToolResult::bad_args("provider and path are required");
        }
        let body = match args.get("body") {
            None | Some(Value::Null) => None,
            Some(b @ Value::Object(_)) => Some(b.clone()),
            Some(_) => return ToolResult::bad_args("body must be a JSON object"),
        };
        let env = |k: &str| std::env::var(k).ok();
        if !ctx.providers.contains_key(name) && !["openai", "anthropic"].contains(&name) {
            return ToolResult::from_error(&crate::error::Error::not_found(format!(
                "unknown provider `{name}`: the configured ones are {}",
                ctx.providers.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        }
        let resolved = match providers::resolve(&ctx.providers, name, &env) {
            Ok(r) => r,
            Err(e) => return ToolResult::from_error(&e),
        };
        if resolved.config.kind != Kind::Openai {
            return ToolResult::error(format!(
                "provider `{name}` is not OpenAI-compatible (kind = \"openai\")"
            ));
        }
        let url = match endpoint(&resolved.base_url, path) {
            Ok(u) => u,
            Err(e) => return ToolResult::error(e),
        };
        let timeout = ctx.stop.cap(Duration::from_secs(
            resolved.config.request_timeout_secs.max(1),
        ));
        let mut result = match web::block_on(call(
            &ctx.web,
            &url,
            resolved.api_key.as_deref(),
            body,
            timeout,
        )) {
            Ok((status, answer)) => {
                let doc = json!({"status": status, "body": answer});
                // Pretty for the model to read, unless that would make a large answer larger.
                let text = match serde_json::to_string(&doc).unwrap_or_default() {
                    compact if compact.len() > 64 * 1024 => compact,
                    _ => serde_json::to_string_pretty(&doc).unwrap_or_default(),
                };
                if (200..300).contains(&status) {
                    ToolResult::text(text)
                } else {
                    ToolResult::error(text)
                }
            }
            Err(e) => ToolResult::error(format!("{name}: {e}")),
        };
        result
            .secrets
            .extend(resolved.api_key.map(String::into_bytes));
        result
    }
}

/// The URL of `path` under `base`: refused unless it stays under the base URL.
pub fn endpoint(base: &str, path: &str) -> Result<Url, String> {
    let refuse = |why: &str| Err(format!("path `{path}` refused: {why}"));
    if !path.starts_with('/') {
        return refuse("it must start with /, under the provider's base URL");
    }
    let lower = path.to_ascii_lowercase();
    if path.contains("//") || path.contains('\\') || path.contains('#') {
        return refuse("it may not hold //, \\ or #");
    }
    // `..;` is `..` to some servers (Tomcat, Spring), `.;` is `.`.
    if path
        .split(['/', '?'])
        .any(|seg| seg == "." || seg.starts_with("..") || seg.starts_with(".;"))
    {
        return refuse("it may not hold . or .. segments");
    }
    if ["%2e", "%2f", "%5c", "%00"]
        .iter()
        .any(|e| lower.contains(e))
    {
        return refuse("it may not hold an encoded dot, slash, backslash or NUL");
    }
    if path.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return refuse("it may not hold white space or control characters");
    }
    let base_url =
        Url::parse(base).map_err(|e| format!("the provider's base URL `{base}`: {e}"))?;
    let url = Url::parse(&format!("{}{path}", base.trim_end_matches('/')))
        .map_err(|e| format!("path `{path}`: {e}"))?;
    let under = format!("{}/", base_url.path().trim_end_matches('/'));
    if url.origin() != base_url.origin() || !url.path().starts_with(&under) {
        return refuse("it leaves the provider's base URL");
    }
    Ok(url)
}

/// A request's body.
pub(crate) enum Body {
    /// A GET.
    Empty,
    /// A POST of JSON.
    Json(Value),
    /// A POST of a multipart form (a file upload).
    Form(reqwest::multipart::Form),
}

/// What an endpoint answered: its status, content type and at most the limit of its body.
pub(crate) struct Answer {
    pub status: u16,
    pub content_type: String,
    pub bytes: Vec<u8>,
    /// The body went on past the limit.
    pub cut: bool,
}

/// The headers that authenticate to a provider of `kind` with `key`.
pub(crate) fn auth_headers(kind: Kind, key: Option<&str>) -> Vec<(&'static str, String)> {
    match (kind, key) {
        (Kind::Anthropic, key) => {
            let mut h = vec![(
                "anthropic-version",
                providers::ANTHROPIC_VERSION.to_string(),
            )];
            h.extend(key.map(|k| ("x-api-key", k.to_string())));
            h
        }
        (_, Some(k)) => vec![("authorization", format!("Bearer {k}"))],
        (_, None) => Vec::new(),
    }
}

/// Where a request goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// A configured provider's endpoint: its host may be private (a local server is the
    /// operator's choice); any other address it resolves to is judged by the guard.
    Provider,
    /// An address a provider answered with (an image's URL): the whole guard, the URL itself
    /// first (the resolver sees names, not addresses written in the URL).
    Public,
}

/// Why a request got no answer: the guard refused it, or it failed.
pub(crate) enum SendError {
    Refused(String),
    Failed(String),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Refused(m) | SendError::Failed(m) => f.write_str(m),
        }
    }
}

/// Sends a request (see [`Reach`] for what the guard lets through); no redirect is followed.
/// At most `limit` bytes of the answer are read.
pub(crate) async fn send(
    web_cfg: &WebConfig,
    url: &Url,
    reach: Reach,
    headers: &[(&'static str, String)],
    body: Body,
    timeout: Duration,
    limit: usize,
) -> Result<Answer, SendError> {
    let mut guarded = web_cfg.clone();
    match reach {
        Reach::Provider => guarded
            .allow_private_hosts
            .push(url.host_str().unwrap_or_default().to_ascii_lowercase()),
        Reach::Public => {
            web::fetch::check_url(url, web_cfg, false).map_err(SendError::Refused)?;
        }
    }
    let client =
        web::client(&guarded, timeout, url.scheme() == "https").map_err(SendError::Failed)?;
    let mut request = match body {
        Body::Json(b) => client.post(url.clone()).json(&b),
        Body::Form(f) => client.post(url.clone()).multipart(f),
        Body::Empty => client.get(url.clone()),
    };
    for (k, v) in headers {
        request = request.header(*k, v);
    }
    let mut response = request.send().await.map_err(|e| match web::refusal(&e) {
        Some(r) => SendError::Refused(r),
        None => SendError::Failed(format!("{url}: {}", crate::error::with_causes(&e))),
    })?;
    let status = response.status().as_u16();
    if response.status().is_redirection() {
        let to = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("?");
        return Err(SendError::Failed(format!(
            "{url} answered HTTP {status}, a redirect to {to}: not followed"
        )));
    }
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let mut bytes = Vec::new();
    let mut cut = false;
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| SendError::Failed(format!("{url}: {}", crate::error::with_causes(&e))))?
    {
        let room = limit - bytes.len();
        if chunk.len() > room {
            bytes.extend_from_slice(&chunk[..room]);
            cut = true;
            break;
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(Answer {
        status,
        content_type,
        bytes,
        cut,
    })
}

/// Sends the call; returns the status and the answer (JSON, or text).
async fn call(
    web_cfg: &WebConfig,
    url: &Url,
    key: Option<&str>,
    body: Option<Value>,
    timeout: Duration,
) -> Result<(u16, Value), String> {
    let body = body.map_or(Body::Empty, Body::Json);
    let headers = auth_headers(Kind::Openai, key);
    // A little more than what is kept, so a key across the cut is whole to take out.
    let limit = MAX_BODY + key.map_or(0, str::len);
    let a = send(
        web_cfg,
        url,
        Reach::Provider,
        &headers,
        body,
        timeout,
        limit,
    )
    .await
    .map_err(|e| e.to_string())?;
    let answer = match serde_json::from_slice::<Value>(&a.bytes) {
        Ok(v) if !a.cut => v,
        _ => {
            // The key taken out before the cut, so no part of it is left at the end.
            let mut text = crate::text::redact_then_cut(
                &String::from_utf8_lossy(&a.bytes),
                &key.into_iter().collect::<Vec<_>>(),
                MAX_BODY,
            );
            if a.cut {
                text.push_str(&format!("\n[answer cut at {MAX_BODY} bytes]"));
            }
            Value::String(text)
        }
    };
    Ok((a.status, answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_stays_under_the_base_url() {
        let base = "http://127.0.0.1:8080/v1";
        assert_eq!(
            endpoint(base, "/embeddings").unwrap().as_str(),
            "http://127.0.0.1:8080/v1/embeddings"
        );
        assert_eq!(
            endpoint(base, "/models?limit=2").unwrap().as_str(),
            "http://127.0.0.1:8080/v1/models?limit=2"
        );
        for bad in [
            "embeddings",
            "/../admin",
            "/x/../../admin",
            "//evil.example/x",
            "/%2e%2e/admin",
            "/%2E%2E/admin",
            "/x%2fy",
            "/a\\..\\b",
            "/a#frag",
            "/a b",
            "/a\n",
            "/.",
            "@evil.example/x",
            "/x?/../../y",
            "/x/..;/admin",
            "/x/.;/y",
        ] {
            assert!(endpoint(base, bad).is_err(), "{bad}");
        }
        // A base URL without a path: everything under it.
        assert!(endpoint("https://api.example.com", "/v1/embeddings").is_ok());
    }
}
