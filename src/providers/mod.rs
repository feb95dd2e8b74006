//! LLM providers behind one type: OpenAI-compatible chat completions (`openai.rs`), Anthropic
//! Messages (`anthropic.rs`) and the playback of a recorded run (`replay.rs`). This module owns
//! the wire-independent parts: the message model, configuration (`[providers.NAME]` and the
//! `OPENAI_*` / `ANTHROPIC_API_KEY` defaults), retries with exponential backoff that honours
//! `Retry-After`, the request and stream-idle time limits, and recording (`--record`).
//!
//! A stream that ends before the provider says it is done is an upstream error (exit 8), never a
//! silently truncated answer. Nothing here prints: text deltas and retries are reported through
//! [`Observer`].

pub mod anthropic;
pub mod openai;
pub mod replay;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};

/// Who said a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

/// One message of a conversation, in goclaw's own (wire-neutral) form; also what sessions store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    #[serde(default)]
    pub content: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For `tool` messages: the call answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// For `tool` messages: the tool's name (Anthropic and some OpenAI servers want it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Message {
    pub fn new(role: Role, content: impl Into<String>) -> Message {
        Message {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            name: None,
        }
    }

    /// An assistant message asking for tool calls.
    pub fn asking(content: impl Into<String>, calls: Vec<ToolCall>) -> Message {
        Message {
            tool_calls: calls,
            ..Message::new(Role::Assistant, content)
        }
    }

    pub fn tool_result(call: &ToolCall, content: impl Into<String>) -> Message {
        Message {
            role: Role::Tool,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: Some(call.id.clone()),
            name: Some(call.name.clone()),
        }
    }
}

/// A tool call the model asked for. `arguments` is the parsed JSON object, or the raw text as a
/// string when the model sent something that does not parse.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

/// A tool offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

/// One request to a model.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChatRequest {
    pub model: String,
    pub messages: Vec<Message>,
    #[serde(default)]
    pub tools: Vec<ToolDef>,
    pub max_tokens: u32,
    pub temperature: f64,
}

/// Tokens a call used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// What the model answered.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    pub content: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub thinking: String,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    /// `stop`, `tool_calls`, `length` (Anthropic's reasons are mapped to these).
    pub finish_reason: String,
    #[serde(default)]
    pub usage: Usage,
}

/// What a provider reports while it works.
pub trait Observer: Send {
    /// A fragment of the answer's text, as it streams.
    fn text(&mut self, _fragment: &str) {}
    /// A fragment of the model's thinking.
    fn thinking(&mut self, _fragment: &str) {}
    /// A failed attempt that will be retried after `wait`.
    fn retrying(&mut self, _attempt: u32, _max_attempts: u32, _error: &str, _wait: Duration) {}
}

/// Which wire protocol a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Openai,
    Anthropic,
    Replay,
}

/// `[providers.NAME]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ProviderConfig {
    pub kind: Kind,
    /// e.g. `http://127.0.0.1:11434/v1` for Ollama (OpenAI) or `https://api.anthropic.com`.
    pub base_url: Option<String>,
    /// The environment variable holding the API key.
    pub api_key_env: Option<String>,
    /// The model, unless the agent or `--model` names one.
    pub model: Option<String>,
    pub context_window: Option<u64>,
    /// US dollars per million input tokens.
    pub input_price: f64,
    /// US dollars per million output tokens.
    pub output_price: f64,
    /// Stream the answer (SSE); false asks for one JSON response.
    pub stream: bool,
    /// Attempts in all, retries included, for 429, 5xx and connection errors.
    pub max_attempts: u32,
    /// Seconds to wait for the response headers (and for a whole non-streamed response).
    pub request_timeout_secs: u64,
    /// Seconds a stream may stay silent before it counts as stalled.
    pub idle_timeout_secs: u64,
    /// For `kind = "replay"`: the recording (`goclaw run --record FILE`) to play back.
    pub file: Option<PathBuf>,
}

impl Default for ProviderConfig {
    fn default() -> Self {
        ProviderConfig {
            kind: Kind::Openai,
            base_url: None,
            api_key_env: None,
            model: None,
            context_window: None,
            input_price: 0.0,
            output_price: 0.0,
            stream: true,
            max_attempts: 3,
            request_timeout_secs: 120,
            idle_timeout_secs: 60,
            file: None,
        }
    }
}

/// A provider ready to use: configuration resolved, key read.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub name: String,
    pub config: ProviderConfig,
    pub base_url: String,
    pub api_key: Option<String>,
}

const OPENAI_URL: &str = "https://api.openai.com/v1";
const ANTHROPIC_URL: &str = "https://api.anthropic.com";

/// The provider called `name`: from `[providers]`, or one of the built-in names `openai` and
/// `anthropic` (configured by the environment), or `replay:FILE`. A missing key or provider is
/// a usage error saying what to set.
pub fn resolve(
    providers: &BTreeMap<String, ProviderConfig>,
    name: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Resolved> {
    if let Some(file) = name.strip_prefix("replay:") {
        return Ok(Resolved {
            name: "replay".into(),
            config: ProviderConfig {
                kind: Kind::Replay,
                file: Some(PathBuf::from(file)),
                model: Some("recorded".into()),
                ..Default::default()
            },
            base_url: String::new(),
            api_key: None,
        });
    }
    let config = match (providers.get(name), name) {
        (Some(c), _) => c.clone(),
        (None, "openai") => ProviderConfig::default(),
        (None, "anthropic") => ProviderConfig {
            kind: Kind::Anthropic,
            ..Default::default()
        },
        (None, _) => {
            return Err(Error::usage(format!("unknown provider `{name}`")).with_hint(
                "define it as [providers.NAME] in config, or use openai, anthropic or replay:FILE",
            ));
        }
    };
    let nonempty = |k: &str| env(k).filter(|v| !v.is_empty());
    let (url_env, key_env, default_url) = match config.kind {
        Kind::Openai => ("OPENAI_BASE_URL", "OPENAI_API_KEY", OPENAI_URL),
        Kind::Anthropic => ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", ANTHROPIC_URL),
        Kind::Replay => {
            if config.file.is_none() {
                return Err(Error::usage(format!(
                    "provider `{name}` is a replay without a file: set [providers.{name}] file"
                )));
            }
            let model = config.model.clone().or(Some("recorded".into()));
            return Ok(Resolved {
                name: name.into(),
                config: ProviderConfig { model, ..config },
                base_url: String::new(),
                api_key: None,
            });
        }
    };
    let base_url = config
        .base_url
        .clone()
        .or_else(|| nonempty(url_env))
        .unwrap_or_else(|| default_url.to_string())
        .trim_end_matches('/')
        .to_string();
    let key_var = config.api_key_env.clone().unwrap_or(key_env.to_string());
    let api_key = nonempty(&key_var);
    // Local compatible servers (Ollama, vLLM, llama.cpp) need no key; the hosted APIs do.
    if api_key.is_none() && (base_url == OPENAI_URL || base_url == ANTHROPIC_URL) {
        return Err(Error::usage(format!(
            "provider `{name}` needs an API key: set {key_var}"
        ))
        .with_hint(format!(
            "or point it at a compatible server with {url_env} (or [providers.{name}] base_url)"
        )));
    }
    Ok(Resolved {
        name: name.into(),
        config,
        base_url,
        api_key,
    })
}

/// The provider an agent uses when it names none: `default` from config, else the first
/// configured, else whichever of OpenAI and Anthropic the environment configures.
pub fn default_name(
    providers: &BTreeMap<String, ProviderConfig>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<String> {
    if providers.contains_key("default") {
        return Ok("default".into());
    }
    if let Some(name) = providers.keys().next() {
        return Ok(name.clone());
    }
    let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
    if set("OPENAI_API_KEY") || set("OPENAI_BASE_URL") {
        return Ok("openai".into());
    }
    if set("ANTHROPIC_API_KEY") || set("ANTHROPIC_BASE_URL") {
        return Ok("anthropic".into());
    }
    Err(Error::usage("no LLM provider is configured").with_hint(
        "set OPENAI_API_KEY (with OPENAI_BASE_URL for Ollama, vLLM, llama.cpp, OpenRouter…), \
         ANTHROPIC_API_KEY, or define [providers.NAME] in config; `--provider replay:FILE` plays a recording",
    ))
}

/// Why an attempt failed, and whether another may succeed.
pub(crate) struct Failure {
    pub error: Error,
    /// Retry after this long (`Retry-After` or backoff); `None` = do not retry.
    pub retry_after: Option<Duration>,
}

impl Failure {
    pub fn fatal(error: Error) -> Failure {
        Failure {
            error,
            retry_after: None,
        }
    }

    fn into_error(self) -> Error {
        self.error
    }

    /// An upstream failure not worth retrying (the server said something wrong).
    pub fn upstream(msg: String) -> Failure {
        Failure::fatal(Error::upstream(msg))
    }

    /// The stream ended before the provider said the answer was complete; worth another try
    /// only while nothing reached the user (the retry loop knows).
    pub fn cut_short(provider: &str) -> Failure {
        Failure {
            error: Error::upstream(format!(
                "provider `{provider}`: the stream ended before the answer was complete"
            )),
            retry_after: Some(Duration::ZERO),
        }
    }
}

/// The failure an HTTP status gives: 429 and 5xx may be retried (after `Retry-After` when the
/// server names one), anything else not.
pub(crate) fn status_failure(
    provider: &str,
    status: reqwest::StatusCode,
    retry_after: Option<&str>,
    body: &str,
) -> Failure {
    let snippet: String = body.chars().take(300).collect();
    let error = Error::upstream(format!(
        "provider `{provider}` answered HTTP {}: {}",
        status.as_u16(),
        snippet.trim()
    ));
    let retryable = status.as_u16() == 429 || status.is_server_error();
    let after = retry_after
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(60.0)));
    Failure {
        error,
        retry_after: retryable.then(|| after.unwrap_or(Duration::ZERO)),
    }
}

/// The wait before retry `attempt` (1-based) when the server named none: 1, 2, 4… s, at most 30.
pub fn backoff(attempt: u32) -> Duration {
    Duration::from_secs((1u64 << attempt.saturating_sub(1).min(5)).min(30))
}

/// A client for one resolved provider.
pub struct Client {
    pub resolved: Resolved,
    /// Built with the client, except for a replay, which never needs it (loading the TLS roots
    /// costs milliseconds); built then on first request if ever.
    http: std::sync::OnceLock<reqwest::Client>,
    replay: Option<replay::Replay>,
    recorder: Option<Mutex<std::fs::File>>,
}

impl Client {
    pub fn new(resolved: Resolved, record: Option<&std::path::Path>) -> Result<Client> {
        let replay = match (&resolved.config.kind, &resolved.config.file) {
            (Kind::Replay, Some(file)) => Some(replay::Replay::load(file)?),
            _ => None,
        };
        let recorder = match record {
            None => None,
            Some(path) => Some(Mutex::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| Error::io("open the recording", path, &e))?,
            )),
        };
        let http = std::sync::OnceLock::new();
        if replay.is_none() {
            let _ = http.set(build_http().map_err(Failure::into_error)?);
        }
        Ok(Client {
            resolved,
            http,
            replay,
            recorder,
        })
    }

    /// The model to use when neither the agent nor the command names one.
    pub fn default_model(&self) -> Option<&str> {
        self.resolved.config.model.as_deref()
    }

    /// Cost in US dollars of `usage` at this provider's prices.
    pub fn cost(&self, usage: Usage) -> f64 {
        (usage.input_tokens as f64 * self.resolved.config.input_price
            + usage.output_tokens as f64 * self.resolved.config.output_price)
            / 1_000_000.0
    }

    /// One exchange, retried as configured. Text streams to `observer` as it comes; a retry is
    /// made only while nothing has streamed yet (so no fragment is ever shown twice).
    pub async fn chat(
        &self,
        req: &ChatRequest,
        observer: &mut dyn Observer,
    ) -> Result<ChatResponse> {
        if let Some(replay) = &self.replay {
            let response = replay.next(req)?;
            if !response.thinking.is_empty() {
                observer.thinking(&response.thinking);
            }
            if !response.content.is_empty() {
                observer.text(&response.content);
            }
            return Ok(response);
        }
        let max = self.resolved.config.max_attempts.max(1);
        let mut attempt = 1;
        loop {
            let mut streamed = false;
            let mut counting = Counting {
                inner: observer,
                streamed: &mut streamed,
            };
            let result = match self.resolved.config.kind {
                Kind::Anthropic => anthropic::chat(self, req, &mut counting).await,
                _ => openai::chat(self, req, &mut counting).await,
            };
            match result {
                Ok(response) => {
                    self.record(req, &response)?;
                    return Ok(response);
                }
                Err(Failure {
                    error,
                    retry_after: Some(after),
                }) if attempt < max && !streamed => {
                    let wait = if after.is_zero() {
                        backoff(attempt)
                    } else {
                        after
                    };
                    observer.retrying(attempt, max, &error.message, wait);
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
                Err(f) => return Err(f.error),
            }
        }
    }

    fn record(&self, req: &ChatRequest, response: &ChatResponse) -> Result<()> {
        let Some(file) = &self.recorder else {
            return Ok(());
        };
        let line = serde_json::json!({"request": req, "response": response});
        let mut f = file
            .lock()
            .map_err(|_| Error::internal("the recording file lock is poisoned"))?;
        writeln!(f, "{line}")
            .map_err(|e| Error::internal(format!("cannot write the recording: {e}")))
    }

    fn request_timeout(&self) -> Duration {
        Duration::from_secs(self.resolved.config.request_timeout_secs.max(1))
    }

    fn idle_timeout(&self) -> Duration {
        Duration::from_secs(self.resolved.config.idle_timeout_secs.max(1))
    }

    /// Sends `body` to `path` under the request time limit; a connection error may be retried,
    /// an error status is a [`status_failure`].
    pub(crate) async fn post(
        &self,
        path: &str,
        headers: &[(&str, String)],
        body: &impl Serialize,
    ) -> std::result::Result<reqwest::Response, Failure> {
        let url = format!("{}{path}", self.resolved.base_url);
        let body = serde_json::to_vec(body).map_err(|e| {
            Failure::fatal(Error::internal(format!("cannot encode the request: {e}")))
        })?;
        let http = match self.http.get() {
            Some(c) => c,
            None => {
                let c = build_http()?;
                self.http.get_or_init(|| c)
            }
        };
        let mut request = http
            .post(&url)
            .header("content-type", "application/json")
            .body(body);
        for (k, v) in headers {
            request = request.header(*k, v);
        }
        let name = &self.resolved.name;
        let response = match tokio::time::timeout(self.request_timeout(), request.send()).await {
            Err(_) => {
                return Err(Failure {
                    error: Error::upstream(format!(
                        "provider `{name}` did not answer within {}s",
                        self.request_timeout().as_secs()
                    )),
                    retry_after: Some(Duration::ZERO),
                });
            }
            Ok(Err(e)) => {
                return Err(Failure {
                    error: Error::upstream(format!(
                        "provider `{name}` at {url}: {}",
                        error_chain(&e)
                    )),
                    retry_after: (e.is_connect() || e.is_request()).then_some(Duration::ZERO),
                });
            }
            Ok(Ok(r)) => r,
        };
        if !response.status().is_success() {
            let status = response.status();
            let retry_after = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let body = tokio::time::timeout(self.request_timeout(), response.text())
                .await
                .ok()
                .and_then(|r| r.ok())
                .unwrap_or_default();
            return Err(status_failure(name, status, retry_after.as_deref(), &body));
        }
        Ok(response)
    }

    /// The response's server-sent events, one at a time, each under the idle time limit. `None`
    /// at the end of the stream.
    pub(crate) fn events(
        &self,
        response: reqwest::Response,
    ) -> impl futures::Stream<
        Item = std::result::Result<
            eventsource_stream::Event,
            eventsource_stream::EventStreamError<reqwest::Error>,
        >,
    > + use<> {
        use eventsource_stream::Eventsource;
        response.bytes_stream().eventsource()
    }

    /// The next event, or an idle-timeout / transport error naming the provider.
    pub(crate) async fn next_event<S>(
        &self,
        stream: &mut S,
    ) -> std::result::Result<Option<eventsource_stream::Event>, Failure>
    where
        S: futures::Stream<
                Item = std::result::Result<
                    eventsource_stream::Event,
                    eventsource_stream::EventStreamError<reqwest::Error>,
                >,
            > + Unpin,
    {
        use futures::StreamExt;
        let name = &self.resolved.name;
        match tokio::time::timeout(self.idle_timeout(), stream.next()).await {
            Err(_) => Err(Failure {
                error: Error::upstream(format!(
                    "provider `{name}`: the stream stalled (nothing for {}s)",
                    self.idle_timeout().as_secs()
                )),
                retry_after: Some(Duration::ZERO),
            }),
            Ok(None) => Ok(None),
            Ok(Some(Ok(event))) => Ok(Some(event)),
            Ok(Some(Err(e))) => Err(Failure {
                error: Error::upstream(format!("provider `{name}`: the stream broke: {e}")),
                retry_after: Some(Duration::ZERO),
            }),
        }
    }

    /// A whole (non-streamed) response body as JSON, under the request time limit.
    pub(crate) async fn json_body(
        &self,
        response: reqwest::Response,
    ) -> std::result::Result<Value, Failure> {
        let name = &self.resolved.name;
        let text = match tokio::time::timeout(self.request_timeout(), response.text()).await {
            Err(_) => {
                return Err(Failure {
                    error: Error::upstream(format!("provider `{name}`: the response stalled")),
                    retry_after: Some(Duration::ZERO),
                });
            }
            Ok(Err(e)) => {
                return Err(Failure {
                    error: Error::upstream(format!(
                        "provider `{name}`: the response broke: {}",
                        error_chain(&e)
                    )),
                    retry_after: Some(Duration::ZERO),
                });
            }
            Ok(Ok(t)) => t,
        };
        serde_json::from_str(&text).map_err(|e| {
            Failure::fatal(Error::upstream(format!(
                "provider `{name}` sent a response that is not JSON ({e})"
            )))
        })
    }
}

fn build_http() -> std::result::Result<reqwest::Client, Failure> {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| {
            Failure::fatal(Error::internal(format!(
                "cannot build the HTTP client: {e}"
            )))
        })
}

/// Marks that something streamed, so the retry loop knows a retry would repeat it.
struct Counting<'a> {
    inner: &'a mut dyn Observer,
    streamed: &'a mut bool,
}

impl Observer for Counting<'_> {
    fn text(&mut self, fragment: &str) {
        *self.streamed = true;
        self.inner.text(fragment);
    }
    fn thinking(&mut self, fragment: &str) {
        *self.streamed = true;
        self.inner.thinking(fragment);
    }
}

/// An error with its sources, which is where reqwest says what actually went wrong.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        s.push_str(": ");
        s.push_str(&cause.to_string());
        source = cause.source();
    }
    s
}

/// Parses tool-call arguments as JSON; text that does not parse is kept as a string (the gate
/// then refuses it against the schema, and the model sees why).
pub(crate) fn parse_arguments(raw: &str) -> Value {
    if raw.trim().is_empty() {
        return Value::Object(Default::default());
    }
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn defaults_come_from_the_environment() {
        let none = BTreeMap::new();
        let e = default_name(&none, &env_of(&[])).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Usage);
        assert!(e.hint.unwrap_or_default().contains("OPENAI_API_KEY"));
        let env = env_of(&[("OPENAI_BASE_URL", "http://127.0.0.1:1/v1/")]);
        assert_eq!(default_name(&none, &env).unwrap(), "openai");
        let r = resolve(&none, "openai", &env).unwrap();
        assert_eq!(r.base_url, "http://127.0.0.1:1/v1");
        assert!(r.api_key.is_none());
        let e = resolve(&none, "anthropic", &env).unwrap_err();
        assert!(e.message.contains("set ANTHROPIC_API_KEY"), "{}", e.message);
        let e = resolve(&none, "nope", &env).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Usage);
        let r = resolve(&none, "replay:rec.jsonl", &env).unwrap();
        assert_eq!(r.config.kind, Kind::Replay);
    }

    #[test]
    fn retry_rules() {
        let s = |code| reqwest::StatusCode::from_u16(code).unwrap();
        assert_eq!(
            status_failure("p", s(429), Some("3"), "").retry_after,
            Some(Duration::from_secs(3))
        );
        assert_eq!(
            status_failure("p", s(503), None, "").retry_after,
            Some(Duration::ZERO)
        );
        assert_eq!(
            status_failure("p", s(429), Some("9999"), "").retry_after,
            Some(Duration::from_secs(60))
        );
        assert!(
            status_failure("p", s(400), None, "bad")
                .retry_after
                .is_none()
        );
        assert!(status_failure("p", s(401), None, "").retry_after.is_none());
        let waits: Vec<u64> = (1..=7).map(|a| backoff(a).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30]);
    }

    #[test]
    fn arguments_that_do_not_parse_stay_text() {
        assert_eq!(parse_arguments(""), serde_json::json!({}));
        assert_eq!(parse_arguments(r#"{"a":1}"#), serde_json::json!({"a":1}));
        assert_eq!(parse_arguments("{\"a\":"), Value::String("{\"a\":".into()));
    }
}
