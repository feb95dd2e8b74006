//! The legacy MCP HTTP+SSE transport (protocol 2024-11-05), which rmcp no longer ships: a GET
//! opens an event stream whose first `endpoint` event names the URL to POST messages to; the
//! server's answers come back as `message` events on that stream. Built on reqwest and
//! goclaw's event reader (`providers::sse`), and handed to rmcp as a sink/stream pair, so the
//! rest of the client (handshake, calls, time limits) is the same as for the other transports.

use futures::{Sink, Stream, StreamExt};
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use std::pin::Pin;

/// Messages to the server: each one is POSTed to the endpoint the server named.
pub type Outgoing = Pin<Box<dyn Sink<ClientJsonRpcMessage, Error = std::io::Error> + Send>>;
/// Messages from the server, in the order they arrive on the event stream.
pub type Incoming = Pin<Box<dyn Stream<Item = ServerJsonRpcMessage> + Send>>;

/// Opens the event stream at `url`, waits for the `endpoint` event and returns the pair rmcp
/// serves over. `headers` go on the GET and on every POST. The error says what went wrong (the
/// HTTP status, a stream that ended before naming its endpoint, an endpoint on another origin).
/// An event larger than one message may be (16 MiB, or 200 000 JSON elements) ends the stream
/// and is said through `oversized` (an event had no bound: one that never ended grew without
/// limit).
pub async fn connect(
    url: &str,
    headers: HeaderMap,
    oversized: super::bounded::Oversized,
) -> Result<(Outgoing, Incoming), String> {
    let base = reqwest::Url::parse(url).map_err(|e| format!("invalid URL `{url}`: {e}"))?;
    let client = crate::providers::http::client_builder()
        .default_headers(headers)
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    let response = client
        .get(base.clone())
        .header(ACCEPT, "text/event-stream")
        .send()
        .await
        .map_err(|e| {
            format!(
                "cannot open the event stream: {}",
                crate::error::with_causes(&e)
            )
        })?;
    if !response.status().is_success() {
        let said = crate::providers::http::status_said(response.status(), response.headers());
        return Err(format!("event stream refused: {said}"));
    }
    let mut events = Box::pin(crate::providers::sse::events(
        super::bounded::bounded_events(response.bytes_stream(), oversized),
    ));
    let endpoint = loop {
        match events.next().await {
            Some(Ok(event)) if event.event == "endpoint" => break event.data,
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(format!("event stream broke: {e}")),
            None => return Err("the event stream ended before naming its endpoint".into()),
        }
    };
    let endpoint = base
        .join(endpoint.trim())
        .map_err(|e| format!("invalid endpoint `{endpoint}`: {e}"))?;
    // The messages carry the session; they must not be sent to another host.
    if endpoint.origin() != base.origin() {
        return Err(format!(
            "the endpoint `{endpoint}` is on another origin than `{base}`"
        ));
    }
    let incoming = events
        // An error on the stream ends it; rmcp then reports the session as closed.
        .take_while(|event| std::future::ready(event.is_ok()))
        .filter_map(|event| {
            std::future::ready(match event {
                Ok(e) if e.event == "message" || e.event.is_empty() => {
                    serde_json::from_str::<ServerJsonRpcMessage>(&e.data).ok()
                }
                _ => None,
            })
        });
    let outgoing = futures::sink::unfold(
        (client, endpoint),
        |(client, endpoint), message: ClientJsonRpcMessage| async move {
            let body = serde_json::to_vec(&message).map_err(std::io::Error::other)?;
            let response = client
                .post(endpoint.clone())
                .header(CONTENT_TYPE, "application/json")
                .body(body)
                .send()
                .await
                .map_err(std::io::Error::other)?;
            if !response.status().is_success() {
                let said =
                    crate::providers::http::status_said(response.status(), response.headers());
                return Err(std::io::Error::other(format!("message refused: {said}")));
            }
            Ok((client, endpoint))
        },
    );
    Ok((Box::pin(outgoing), Box::pin(incoming)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// A one-shot HTTP server on loopback that answers the GET with `body` as an event stream.
    fn serve_events(body: &'static str) -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            );
        });
        format!("http://{addr}/sse")
    }

    fn connect_to(url: &str) -> Result<(), String> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(connect(url, HeaderMap::new(), Default::default()))
            .map(|_| ())
    }

    #[test]
    fn an_endpoint_on_another_origin_is_refused() {
        let url = serve_events("event: endpoint\ndata: http://169.254.169.254/messages\n\n");
        let err = connect_to(&url).unwrap_err();
        assert!(err.contains("another origin"), "{err}");
    }

    #[test]
    fn a_stream_that_ends_without_an_endpoint_says_so() {
        let url = serve_events(": nothing here\n\n");
        let err = connect_to(&url).unwrap_err();
        assert!(err.contains("before naming its endpoint"), "{err}");
    }

    #[test]
    fn an_event_larger_than_a_message_ends_the_stream_and_says_why() {
        use crate::mcp::bounded::Oversized;
        let line = format!("data: {}\n", "x".repeat(1 << 20));
        // One event of 17 lines of 1 MiB (no line over the limit, the event over it), and
        // one that never ends.
        let many = format!("event: message\n{}\n", line.repeat(17));
        let endless = format!("event: message\ndata: {}", "y".repeat(17 << 20));
        for body in [many, endless] {
            let body: &'static str =
                Box::leak(format!("event: endpoint\ndata: /messages\n\n{body}").into_boxed_str());
            let url = serve_events(body);
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let seen = Oversized::default();
            let ended = rt.block_on(async {
                let (_out, mut incoming) =
                    connect(&url, HeaderMap::new(), seen.clone()).await.unwrap();
                incoming.next().await.is_none()
            });
            assert!(ended);
            assert!(seen.or(&"closed").contains("16 MiB"), "{}", seen.or(&"x"));
        }
    }

    #[test]
    fn a_relative_endpoint_on_the_same_origin_connects() {
        let url = serve_events("event: endpoint\ndata: /messages/?session_id=1\n\n");
        assert_eq!(connect_to(&url), Ok(()));
    }
}
