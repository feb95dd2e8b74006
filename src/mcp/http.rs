//! The streamable HTTP transport's client: what rmcp's reqwest client does, but every message a
//! server sends is bounded in JSON values as well as bytes ([`super::bounded`]) before rmcp
//! parses it. rmcp's own bounds a JSON answer to 16 MiB and then parses it whole: 11 MB of
//! `[],[],…` in a `tools/list` answer took `mcp probe` to 786 MB.
//!
//! A POST is sent and its answer read here: a JSON body is counted as it arrives, an event
//! stream event by event; the statuses mean what they mean to rmcp's client (202 accepted, 404
//! an expired session, 401/403 with a challenge, 429 and 5xx as HTTP failures, a JSON-RPC error
//! in a failed answer kept, a legacy server's refusal of `server/discover` turned into the
//! error rmcp's handshake falls back on). The GET stream and the DELETE are rmcp's client's,
//! each event of the stream counted before rmcp parses it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use reqwest::StatusCode;
use reqwest::header::{
    ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, RETRY_AFTER, WWW_AUTHENTICATE,
};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorData, ServerJsonRpcMessage};
use rmcp::transport::common::http_header::{
    EVENT_STREAM_MIME_TYPE, HEADER_LAST_EVENT_ID, HEADER_SESSION_ID, JSON_MIME_TYPE,
};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, HttpStatusError, InsufficientScopeError, SseError, StreamableHttpClient,
    StreamableHttpError, StreamableHttpPostResponse,
};
use sse_stream::{Sse, SseStream};

use super::bounded::{Limits, MESSAGE_LIMIT_BYTES, Meter, Oversized, bounded_events};

/// The most of a failed answer's body that is read (its JSON-RPC error or its text).
const FAILURE_BODY_LIMIT: usize = 64 * 1024;

/// What a request can fail with.
type Failure = StreamableHttpError<reqwest::Error>;

/// A client for [`rmcp::transport::StreamableHttpClientTransport`].
#[derive(Clone)]
pub struct BoundedHttp {
    client: reqwest::Client,
    /// Which limit a message reached, once one did.
    seen: Oversized,
    /// POSTs under way (until their answer's headers): see [`POSTS_AT_ONCE`].
    posting: Arc<tokio::sync::Semaphore>,
    /// The event the last stream was resumed from, and how many times in a row.
    resumed: Arc<std::sync::Mutex<Option<(String, usize)>>>,
}

/// The most times in a row a stream is resumed from one event.
const RESUMES_FROM_ONE_EVENT: usize = 3;

/// The most POSTs one connection has under way at once. rmcp answers each request of the
/// server (a `ping`) with a POST of its own, at once: a server that sent them by the thousand
/// on an answer's stream had goclaw holding that many requests (0.8 GB in 8 s).
const POSTS_AT_ONCE: usize = 16;

/// The most events one stream (a POST's answer, the GET stream) may carry: more than the
/// notifications of any call (a progress report every 100 ms for a quarter of an hour; a call
/// has 60 s by default), and a bound on the requests a server can ask goclaw to answer on one:
/// each waiting answer costs some 4 KB, and 100 000 `ping`s took 429 MB.
pub const STREAM_EVENT_LIMIT: usize = 10_000;

impl BoundedHttp {
    pub fn new(client: reqwest::Client, seen: Oversized) -> BoundedHttp {
        BoundedHttp {
            client,
            seen,
            posting: Arc::new(tokio::sync::Semaphore::new(POSTS_AT_ONCE)),
            resumed: Arc::default(),
        }
    }

    async fn post(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session: Option<Arc<str>>,
        token: Option<String>,
        headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let mut request = self.client.post(uri.as_ref()).header(
            ACCEPT,
            format!("{EVENT_STREAM_MIME_TYPE}, {JSON_MIME_TYPE}"),
        );
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request = with_headers(request, headers)?;
        let had_session = session.is_some();
        if let Some(session) = session {
            request = request.header(HEADER_SESSION_ID, session.as_ref());
        }
        let response = {
            // Held until the answer's headers: an answer streamed for long holds none.
            let _turn = self.posting.acquire().await.map_err(|_| {
                StreamableHttpError::UnexpectedServerResponse(Cow::Borrowed("the client closed"))
            })?;
            request.json(&message).send().await?
        };
        let status = response.status();
        challenge(status, response.headers())?;
        if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && had_session {
            return Err(StreamableHttpError::SessionExpired);
        }
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let json = content_type
            .as_deref()
            .is_some_and(|t| t.starts_with(JSON_MIME_TYPE));
        let session_id = response
            .headers()
            .get(HEADER_SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        if !status.is_success() {
            return failed(&message, had_session, json, session_id, response).await;
        }
        // What a notification or an answer gets back is neither waited for nor read (202 with no
        // body, or an empty 200 from some servers): a server that answered each answer to its
        // pings with an event stream left open had goclaw holding every one of those streams.
        if !awaits_answer(&message) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        match content_type.as_deref() {
            Some(t) if t.starts_with(EVENT_STREAM_MIME_TYPE) => {
                let events = bounded_events(response.bytes_stream(), self.seen.clone());
                let events = SseStream::from_bytes_stream(events).boxed();
                let events = at_most(events, Some(self.seen.clone()));
                Ok(StreamableHttpPostResponse::Sse(events, session_id))
            }
            Some(t) if t.starts_with(JSON_MIME_TYPE) => {
                let body = self.read_message(response).await?;
                match serde_json::from_slice::<ServerJsonRpcMessage>(&body) {
                    Ok(answer) => Ok(StreamableHttpPostResponse::Json(answer, session_id)),
                    Err(e) => Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                        format!("the answer is not a JSON-RPC message: {e}"),
                    ))),
                }
            }
            _ => Err(StreamableHttpError::UnexpectedContentType(content_type)),
        }
    }

    /// Refuses to resume a stream from event `from` more than [`RESUMES_FROM_ONE_EVENT`]
    /// times in a row: a server whose resumed stream broke off at the same place each time
    /// (10 050 events, cut after 10 000) was resumed without end, 118 times in 60 s.
    fn resuming(&self, from: &str) -> Result<(), Failure> {
        let mut last = self
            .resumed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match &mut *last {
            Some((id, times)) if id == from => *times += 1,
            other => *other = Some((from.to_string(), 1)),
        }
        match &*last {
            Some((_, times)) if *times > RESUMES_FROM_ONE_EVENT => Err(
                StreamableHttpError::UnexpectedServerResponse(Cow::Owned(format!(
                    "the server's stream was resumed from event `{}` {RESUMES_FROM_ONE_EVENT} times and broke off each time: refused",
                    crate::text::words::prefix_chars(from, 64)
                ))),
            ),
            _ => Ok(()),
        }
    }

    /// A JSON answer's body, counted against [`Limits::BODY`] as it arrives.
    async fn read_message(&self, response: reqwest::Response) -> Result<Vec<u8>, Failure> {
        let too_large = || StreamableHttpError::ResponseBodyTooLarge {
            max_size: MESSAGE_LIMIT_BYTES,
        };
        if response
            .content_length()
            .is_some_and(|n| n >= MESSAGE_LIMIT_BYTES as u64)
        {
            self.seen.reached_bytes();
            return Err(too_large());
        }
        let mut meter = Meter::new(Limits::BODY, self.seen.clone());
        let mut body = Vec::new();
        let mut chunks = response.bytes_stream();
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk?;
            meter.take(&chunk)?;
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }

    /// `events` (a GET stream) with each event's data counted before it is passed on; the
    /// stream ends after one that reaches a limit. The stream of no request fails none, so no
    /// later failure is said to be it; an answer's stream `resumed` fails its request, and
    /// says so.
    fn counted(
        &self,
        events: BoxStream<'static, Result<Sse, SseError>>,
        resumed: bool,
    ) -> BoxStream<'static, Result<Sse, SseError>> {
        let seen = match resumed {
            true => self.seen.clone(),
            false => Oversized::default(),
        };
        at_most(events, resumed.then(|| seen.clone()))
            .scan(false, move |ended, event| {
                if *ended {
                    return std::future::ready(None);
                }
                let counted = event.and_then(|event| {
                    let data = event.data.as_deref().unwrap_or_default();
                    Meter::new(Limits::BODY, seen.clone())
                        .take(data.as_bytes())
                        .map_err(|e| {
                            *ended = true;
                            SseError::Body(Box::new(e))
                        })?;
                    Ok(event)
                });
                std::future::ready(Some(counted))
            })
            .boxed()
    }
}

impl StreamableHttpClient for BoundedHttp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        self.post(uri, message, session_id, auth_header, custom_headers)
            .await
    }

    // The event size is ours ([`MESSAGE_LIMIT_BYTES`], rmcp's default too).
    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        _max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        self.post(uri, message, session_id, auth_header, custom_headers)
            .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failure> {
        self.client
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Failure> {
        self.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            MESSAGE_LIMIT_BYTES,
        )
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Failure> {
        let resumed = last_event_id.is_some();
        if let Some(from) = &last_event_id {
            self.resuming(from)?;
        }
        let events = self
            .client
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size.min(MESSAGE_LIMIT_BYTES),
            )
            .await?;
        Ok(self.counted(events, resumed))
    }
}

/// `events`, failing after [`STREAM_EVENT_LIMIT`] of them; said through `said` when the
/// stream answers a request (the request fails with it).
fn at_most(
    events: BoxStream<'static, Result<Sse, SseError>>,
    said: Option<Oversized>,
) -> BoxStream<'static, Result<Sse, SseError>> {
    events
        .scan(0usize, move |seen, event| {
            *seen += 1;
            std::future::ready(match *seen {
                n if n <= STREAM_EVENT_LIMIT => Some(event),
                n if n == STREAM_EVENT_LIMIT + 1 => {
                    if let Some(said) = &said {
                        said.reached_events();
                    }
                    Some(Err(SseError::Body(
                        format!("the stream carried more than {STREAM_EVENT_LIMIT} events").into(),
                    )))
                }
                _ => None,
            })
        })
        .boxed()
}

/// `request` with the caller's headers; one that goclaw's transport sets itself is refused
/// (`MCP-Protocol-Version` passes: rmcp sets it after the handshake through these).
fn with_headers(
    mut request: reqwest::RequestBuilder,
    headers: HashMap<HeaderName, HeaderValue>,
) -> Result<reqwest::RequestBuilder, Failure> {
    for (name, value) in headers {
        let reserved = [ACCEPT.as_str(), HEADER_SESSION_ID, HEADER_LAST_EVENT_ID];
        if reserved
            .iter()
            .any(|r| name.as_str().eq_ignore_ascii_case(r))
        {
            return Err(StreamableHttpError::ReservedHeaderConflict(
                name.as_str().to_string(),
            ));
        }
        request = request.header(name, value);
    }
    Ok(request)
}

/// A 401 or 403 that names what it takes (`WWW-Authenticate`).
fn challenge(status: StatusCode, headers: &HeaderMap) -> Result<(), Failure> {
    let Some(header) = headers.get(WWW_AUTHENTICATE) else {
        return Ok(());
    };
    let text = || {
        header.to_str().map(str::to_string).map_err(|_| {
            StreamableHttpError::UnexpectedServerResponse(Cow::Borrowed(
                "invalid www-authenticate header value",
            ))
        })
    };
    match status {
        StatusCode::UNAUTHORIZED => Err(StreamableHttpError::AuthRequired(AuthRequiredError::new(
            text()?,
        ))),
        StatusCode::FORBIDDEN => {
            let text = text()?;
            let scope = scope_of(&text);
            Err(StreamableHttpError::InsufficientScope(
                InsufficientScopeError::new(text, scope),
            ))
        }
        _ => Ok(()),
    }
}

/// The `scope` a `WWW-Authenticate` challenge asks for, if it names one.
fn scope_of(challenge: &str) -> Option<String> {
    let lower = challenge.to_ascii_lowercase();
    let at = lower.find("scope=")? + "scope=".len();
    let rest = &challenge[at..];
    let value = match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next()?,
        None => rest.split([',', ' ']).next()?,
    };
    (!value.is_empty()).then(|| value.to_string())
}

/// Whether `message` waits for an answer (a request does; a notification, response or error
/// does not).
fn awaits_answer(message: &ClientJsonRpcMessage) -> bool {
    matches!(message, ClientJsonRpcMessage::Request(_))
}

/// A failed answer (not 2xx): its JSON-RPC error when it carries one, else the failure.
async fn failed(
    message: &ClientJsonRpcMessage,
    had_session: bool,
    json: bool,
    session_id: Option<String>,
    response: reqwest::Response,
) -> Result<StreamableHttpPostResponse, Failure> {
    let status = response.status();
    if status.is_redirection() {
        let said = crate::providers::http::status_said(status, response.headers());
        return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
            said,
        )));
    }
    let mut http_failure = (status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error())
        .then(|| {
            let retry_after = response
                .headers()
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            HttpStatusError::new(status.as_u16(), retry_after)
        });
    if let Some(failure) =
        http_failure.take_if(|_| !json || status == StatusCode::TOO_MANY_REQUESTS)
    {
        return Err(failure.into());
    }
    let body = read_failure(response).await;
    if let Some(answer) = discover_refused(message, had_session, status, &body) {
        return Ok(answer);
    }
    let auth = matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN);
    if !auth
        && json
        && let Ok(error @ ServerJsonRpcMessage::Error(_)) =
            serde_json::from_str::<ServerJsonRpcMessage>(&body)
    {
        return Ok(StreamableHttpPostResponse::Json(error, session_id));
    }
    match http_failure {
        Some(failure) => Err(failure.into()),
        None => Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
            format!("HTTP {status}: {}", preview(&body)),
        ))),
    }
}

/// The most of a failed answer's text an error keeps here: twice what a failure may say
/// ([`super::failure::Given::say`] cuts at 4 KiB after it has taken out the values the server
/// was given; a cut here first could leave a part of one, past the reach of that).
const PREVIEW_LIMIT: usize = 8192;

/// The start of a failed answer's text, for an error: at most [`PREVIEW_LIMIT`] bytes.
fn preview(body: &str) -> Cow<'_, str> {
    if body.len() <= PREVIEW_LIMIT {
        return Cow::Borrowed(body);
    }
    let mut end = PREVIEW_LIMIT;
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}… (cut at {PREVIEW_LIMIT} bytes)", &body[..end]))
}

/// The first [`FAILURE_BODY_LIMIT`] bytes of a failed answer, as text.
async fn read_failure(response: reqwest::Response) -> String {
    let mut body = Vec::new();
    let mut chunks = response.bytes_stream();
    while let Some(Ok(chunk)) = chunks.next().await {
        let room = FAILURE_BODY_LIMIT - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() == FAILURE_BODY_LIMIT {
            break;
        }
    }
    String::from_utf8_lossy(&body).into_owned()
}

/// A server of an older protocol refusing `server/discover` (a 4xx other than 401/403, outside
/// a session): the refusal as the JSON-RPC error answering that request, which rmcp's
/// handshake takes as "fall back to `initialize`". Its own error when it sent one.
fn discover_refused(
    message: &ClientJsonRpcMessage,
    had_session: bool,
    status: StatusCode,
    body: &str,
) -> Option<StreamableHttpPostResponse> {
    let refused = status.is_client_error()
        && !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN);
    let ClientJsonRpcMessage::Request(request) = message else {
        return None;
    };
    if had_session || !refused || !matches!(request.request, ClientRequest::DiscoverRequest(_)) {
        return None;
    }
    let error = match serde_json::from_str::<ServerJsonRpcMessage>(body) {
        Ok(ServerJsonRpcMessage::Error(e)) => e.error,
        _ => ErrorData::invalid_request(
            format!(
                "server/discover refused with HTTP {status}: {}",
                preview(body)
            ),
            None,
        ),
    };
    Some(StreamableHttpPostResponse::Json(
        ServerJsonRpcMessage::error(error, Some(request.id.clone())),
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_streams_event_over_the_limit_ends_it_before_it_is_parsed() {
        let event = |data: String| Ok(Sse::default().data(data));
        let flood = format!("[{}]", vec!["[]"; 200_001].join(","));
        let events =
            futures::stream::iter([event("{}".into()), event(flood), event("{}".into())]).boxed();
        let seen = Oversized::default();
        let http = crate::providers::http::client_builder().build().unwrap();
        let client = BoundedHttp::new(http, seen.clone());
        let got: Vec<_> = client.counted(events, false).collect().await;
        assert_eq!(got.len(), 2, "the stream ends after the flood");
        assert!(got[0].is_ok());
        let refused = got[1].as_ref().map(|_| ()).unwrap_err().to_string();
        assert!(refused.contains("200000 values"), "{refused}");
        assert!(!seen.happened(), "no request's failure is the stream's");
    }

    #[tokio::test]
    async fn a_stream_ends_after_its_last_allowed_event() {
        let events = futures::stream::iter(
            (0..STREAM_EVENT_LIMIT + 50).map(|_| Ok(Sse::default().data("{}"))),
        )
        .boxed();
        let seen = Oversized::default();
        let got: Vec<_> = at_most(events, Some(seen.clone())).collect().await;
        assert_eq!(got.len(), STREAM_EVENT_LIMIT + 1);
        assert!(got[..STREAM_EVENT_LIMIT].iter().all(Result::is_ok));
        assert!(got[STREAM_EVENT_LIMIT].is_err());
        let said = seen.or(&"Transport closed");
        assert!(said.contains("more than 10000 events"), "{said}");
    }

    #[test]
    fn a_failed_answers_text_is_cut_for_its_error() {
        assert_eq!(preview("short"), "short");
        let long = "é".repeat(5000);
        let cut = preview(&long);
        assert!(
            cut.len() < 8300 && cut.ends_with("… (cut at 8192 bytes)"),
            "{cut}"
        );
    }

    #[test]
    fn a_challenges_scope_is_read_quoted_or_bare() {
        assert_eq!(
            scope_of(r#"Bearer realm="x", scope="files:read files:write""#).as_deref(),
            Some("files:read files:write")
        );
        assert_eq!(
            scope_of("Bearer SCOPE=admin, error=x").as_deref(),
            Some("admin")
        );
        assert_eq!(scope_of("Bearer realm=x"), None);
        assert_eq!(scope_of(r#"Bearer scope="""#), None);
    }
}
