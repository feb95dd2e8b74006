//! The client for one resolved provider: retries with exponential backoff that honours
//! `Retry-After` (made only while nothing has streamed), the request and stream-idle time limits,
//! the HTTP post and its server-sent events, playback of a recording and recording (`--record`).

use std::io::Write;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;

use super::{
    ChatRequest, ChatResponse, Kind, Observer, Resolved, Usage, anthropic, openai, replay,
};
use crate::error::{Error, Result};
use crate::text::json_values::ValueCount;

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
            // The conversation, word for word: readable by its owner only, as the store is (a
            // file that exists keeps its mode).
            Some(path) => Some(Mutex::new(
                std::os::unix::fs::OpenOptionsExt::mode(
                    std::fs::OpenOptions::new().create(true).append(true),
                    0o600,
                )
                .open(path)
                .map_err(|e| Error::io("open the recording", path, &e))?,
            )),
        };
        let http = std::sync::OnceLock::new();
        if replay.is_none() {
            let _ = http.set(build_http(&resolved.base_url).map_err(Failure::into_error)?);
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

    /// Sends `body` (JSON) to `path` under the request time limit; a connection error may be
    /// retried, an error status is a [`status_failure`].
    pub(crate) async fn post(
        &self,
        path: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> std::result::Result<reqwest::Response, Failure> {
        let url = format!("{}{path}", self.resolved.base_url);
        let http = match self.http.get() {
            Some(c) => c,
            None => {
                let c = build_http(&self.resolved.base_url)?;
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
                let (connect, retry) = (e.is_connect(), e.is_connect() || e.is_request());
                // The URL is said once, before the causes (reqwest's message repeats it).
                let mut error = Error::upstream(format!(
                    "provider `{name}` at {url}: {}",
                    crate::error::with_causes(&e.without_url())
                ));
                if connect {
                    error = error.with_hint(format!(
                        "nothing answered at {url}: is the provider's server running, and is \
                         `base_url` (or OPENAI_BASE_URL) right? `goclaw providers probe` checks"
                    ));
                }
                return Err(Failure {
                    error,
                    retry_after: retry.then_some(Duration::ZERO),
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
            let redirect = super::http::unfollowed_redirect(status, response.headers());
            let body = match redirect {
                Some(said) => said,
                None => tokio::time::timeout(self.request_timeout(), response.text())
                    .await
                    .ok()
                    .and_then(|r| r.ok())
                    .unwrap_or_default(),
            };
            return Err(status_failure(name, status, retry_after.as_deref(), &body));
        }
        Ok(response)
    }

    /// The response's server-sent events, one at a time, each under the idle time limit. `None`
    /// at the end of the stream. Their data (and a byte for each) may add up to [`MAX_BODY`], as
    /// a whole answer may: a model that never stops (a local one caught in a loop) ends with an
    /// error, not with all of memory.
    pub(crate) fn events(
        &self,
        response: reqwest::Response,
    ) -> impl futures::Stream<Item = std::result::Result<super::sse::Event, Broken>> + use<> {
        use futures::StreamExt;
        let mut total = 0usize;
        super::sse::events(response.bytes_stream()).map(move |item| {
            let event = item.map_err(Broken::Transport)?;
            // Its data and type, and one more: an endless stream of empty events is bounded
            // too (it kept the idle timer from ever running out).
            total = total.saturating_add(event.data.len() + event.event.len() + 1);
            if total > MAX_BODY {
                return Err(Broken::TooLarge);
            }
            Ok(event)
        })
    }

    /// The next event, or an idle-timeout / transport error naming the provider.
    pub(crate) async fn next_event<S>(
        &self,
        stream: &mut S,
    ) -> std::result::Result<Option<super::sse::Event>, Failure>
    where
        S: futures::Stream<Item = std::result::Result<super::sse::Event, Broken>> + Unpin,
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
            Ok(Some(Err(Broken::Transport(e)))) => Err(Failure {
                error: Error::upstream(format!("provider `{name}`: the stream broke: {e}")),
                retry_after: Some(Duration::ZERO),
            }),
            // Asked again, it would only say as much again.
            Ok(Some(Err(Broken::TooLarge))) => Err(Failure::fatal(Error::upstream(format!(
                "provider `{name}`: the streamed response is larger than {} MiB",
                MAX_BODY >> 20
            )))),
        }
    }

    /// Whether a streamed request was answered whole, as JSON (a server that ignores `stream`,
    /// as some compatible ones do): it is read as a whole answer. A page (a login page, a
    /// proxy's notice) is refused at once, said with its type; any other answer is read as
    /// events, whatever its type says (some servers label them `text/plain`).
    pub(crate) fn answered_whole(
        &self,
        response: &reqwest::Response,
    ) -> std::result::Result<bool, Failure> {
        let Some(kind) = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
        else {
            return Ok(false);
        };
        let essence = kind
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if essence == "application/json" || essence.ends_with("+json") {
            Ok(true)
        } else if essence != "text/html" && essence != "application/xhtml+xml" {
            Ok(false)
        } else {
            Err(Failure::fatal(Error::upstream(format!(
                "provider `{}` answered with a page (`{}`), not server-sent events nor JSON (is \
                 its base_url the API's own address?)",
                self.resolved.name,
                crate::text::printable::printable(&essence)
            ))))
        }
    }

    /// A whole (non-streamed) response body as JSON, under the request time limit.
    pub(crate) async fn json_body(
        &self,
        response: reqwest::Response,
    ) -> std::result::Result<Value, Failure> {
        let name = &self.resolved.name;
        let text = match tokio::time::timeout(self.request_timeout(), at_most(response)).await {
            Ok(Ok(None)) => {
                return Err(Failure::fatal(Error::upstream(format!(
                    "provider `{name}`: the response is larger than {} MiB",
                    MAX_BODY >> 20
                ))));
            }
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
                        crate::error::with_causes(&e)
                    )),
                    retry_after: Some(Duration::ZERO),
                });
            }
            Ok(Ok(Some(t))) => t,
        };
        if values_past(&text, MAX_VALUES) {
            return Err(Failure::fatal(Error::upstream(format!(
                "provider `{name}`: the response holds more than {MAX_VALUES} JSON values"
            ))));
        }
        serde_json::from_slice(&text).map_err(|e| {
            Failure::fatal(Error::upstream(format!(
                "provider `{name}` sent a response that is not JSON ({e})"
            )))
        })
    }
}

/// The largest whole answer read (a chat answer, not a data set), streamed or not.
const MAX_BODY: usize = 64 << 20;

/// Why a streamed answer ended early.
#[derive(Debug)]
pub(crate) enum Broken {
    /// The connection or the event format failed.
    Transport(String),
    /// Its events' data passed [`MAX_BODY`].
    TooLarge,
}

/// The most JSON values (arrays, objects and their items and members) of a whole answer: a
/// chat answer holds a few hundred; 60 MB of `[0],` took 6 GB once parsed.
const MAX_VALUES: usize = 1_000_000;

/// Whether `json` holds more than `max` values, counted without parsing: each `[`, `{` and `,`
/// outside strings ([`ValueCount`], an object counting as one).
fn values_past(json: &[u8], max: usize) -> bool {
    let mut count = ValueCount::new(1);
    count.count(json);
    count.values > max
}

/// The body of `response`, `None` once it passes [`MAX_BODY`] (read no further).
async fn at_most(mut response: reqwest::Response) -> reqwest::Result<Option<Vec<u8>>> {
    let mut body = Vec::new();
    while let Some(piece) = response.chunk().await? {
        if body.len() + piece.len() > MAX_BODY {
            return Ok(None);
        }
        body.extend_from_slice(&piece);
    }
    Ok(Some(body))
}

/// The HTTP client for a provider at `base_url`. A plain-http provider (a local Ollama, a
/// server on loopback) gets a client without TLS roots: reading the system's certificate bundle
/// costs milliseconds of CPU on every run, for nothing. (It then cannot follow a redirect to
/// https; a provider that redirects is configured with its https URL.)
fn build_http(base_url: &str) -> std::result::Result<reqwest::Client, Failure> {
    let builder = super::http::client_builder().connect_timeout(Duration::from_secs(10));
    let builder = if base_url.starts_with("http://") {
        builder.tls_certs_only(std::iter::empty())
    } else {
        builder
    };
    builder.build().map_err(|e| {
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

#[cfg(test)]
mod tests {
    use super::values_past;

    #[test]
    fn values_are_counted_outside_strings_only() {
        assert!(!values_past(br#"{"a":[1,2,3]}"#, 5));
        assert!(values_past(br#"{"a":[1,2,3,4,5]}"#, 5));
        // Brackets and commas inside strings, escaped quotes included, are text.
        assert!(!values_past(br#"{"a":"[[[,,,{{{\"[[[,,,"}"#, 1));
        assert!(values_past(&b"[0],".repeat(1000), 999));
    }
}
