//! What a failing MCP server's errors say: the transport's causes (rmcp's own text stops at
//! "error sending request", before "connection refused"), without Rust type names, and without
//! the values the server was given: its env values and headers, and the credential of a header
//! (`TOKEN` of `Authorization: Bearer TOKEN`), which a hostile or careless server may echo
//! back in an error ([`Given`], which also takes them out of what a server says of itself
//! and of its tools, resources and prompts).

use rmcp::service::ServiceError;

use super::client::Secrets;
use crate::error::with_causes;

/// The shortest part of a header value taken for a credential of its own.
const CREDENTIAL_MIN: usize = 8;

/// The values a server was given, to be taken out of what it says.
#[derive(Debug, Clone, Default)]
pub struct Given(Vec<String>);

impl Given {
    /// Every env value and header value of `secrets`, and each word of a header value long
    /// enough to be a credential of its own (the token after `Bearer`, `Basic` or `token`).
    pub fn of((env, headers): &Secrets) -> Given {
        let words = headers.values().flat_map(|v| {
            v.split_whitespace()
                .filter(|w| w.len() >= CREDENTIAL_MIN && w.len() < v.len())
                .map(str::to_string)
        });
        let all = env.values().chain(headers.values()).cloned().chain(words);
        Given(all.collect())
    }

    /// The values, for a scrubber.
    pub fn values(&self) -> &[String] {
        &self.0
    }

    /// `text` as a failure may say it: no Rust type names, every given value `[REDACTED]`, at
    /// most 4 KiB.
    pub fn say(&self, text: &str) -> String {
        let values: Vec<&str> = self.0.iter().map(String::as_str).collect();
        crate::text::redact_then_cut(&without_type_names(text), &values, 4096)
    }

    /// `value` (what the server says of itself, its tools, resources and prompts) with every
    /// given value of [`CREDENTIAL_MIN`] bytes or more in its text `[REDACTED]`: a server that
    /// put the key it was given into a tool's description had it shown to the model and on
    /// `mcp tools`. Text is what people and models read: a `description`, `title`,
    /// `instructions` or `text`, and all the server says of itself (`serverInfo`). Names, keys,
    /// URIs and enum values are left as they are: an env value may be an ordinary word
    /// (`TABLE=customers`), and a tool named `list_customers` must keep its name to be called.
    pub fn redact_json(&self, value: &mut serde_json::Value) {
        let words = self.0.iter().map(String::as_str);
        let words: Vec<&str> = words.filter(|w| w.len() >= CREDENTIAL_MIN).collect();
        if !words.is_empty() {
            redact_text(value, &words, false);
        }
    }
}

/// The members whose string values are text people and models read (see
/// [`Given::redact_json`]).
const TEXT_MEMBERS: [&str; 4] = ["description", "title", "instructions", "text"];

/// Redacts `words` in the strings of `value` that are text: all of them when `text`, else those
/// of [`TEXT_MEMBERS`] and everything under `serverInfo`.
fn redact_text(value: &mut serde_json::Value, words: &[&str], text: bool) {
    use serde_json::Value;
    match value {
        Value::String(s) if text && words.iter().any(|w| s.contains(w)) => {
            *s = crate::text::redact_then_cut(s, words, usize::MAX);
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact_text(v, words, text)),
        Value::Object(members) => {
            for (key, v) in members.iter_mut() {
                let text = text || key == "serverInfo" || TEXT_MEMBERS.contains(&key.as_str());
                redact_text(v, words, text);
            }
        }
        _ => {}
    }
}

/// What a failed handshake says, with the causes of a transport's failure (rmcp's message
/// stops at "error sending request", before "connection refused").
pub fn initialize_failure(e: &rmcp::service::ClientInitializeError) -> String {
    match e {
        rmcp::service::ClientInitializeError::TransportError { error, context } => {
            format!("{} (when it was to {context})", transport_failure(error))
        }
        other => with_causes(other),
    }
}

/// What a failed request says: a transport's failure with its causes (see
/// [`initialize_failure`]), anything else as rmcp says it.
pub fn service_failure(e: &ServiceError) -> String {
    match e {
        ServiceError::TransportSend(error) => transport_failure(error),
        other => with_causes(other),
    }
}

/// A transport's failure with its causes: the HTTP client's error, which rmcp wraps without
/// naming it as a source, down to what went wrong on the connection.
fn transport_failure(e: &rmcp::transport::DynamicTransportError) -> String {
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    let inner: &(dyn std::error::Error + 'static) = e.error.as_ref();
    match inner.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
        Some(StreamableHttpError::Client(http)) => with_causes(http),
        _ => with_causes(inner),
    }
}

/// An MCP library error as people read it: rmcp names the transport by its Rust type
/// (`Transport [rmcp::transport::worker::WorkerTransport<…>] error: …`), which says nothing to
/// a user; a bracketed type path (`::` and no white space inside) is left out.
fn without_type_names(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(open) = rest.find('[') {
        let close = rest[open..].find(']').map(|c| open + c);
        match close {
            Some(close)
                if rest[open + 1..close].contains("::")
                    && !rest[open + 1..close].contains(char::is_whitespace) =>
            {
                out.push_str(rest[..open].trim_end_matches(' '));
                rest = &rest[close + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_leave_out_rust_type_names() {
        assert_eq!(
            without_type_names(
                "Send message error Transport [rmcp::transport::worker::WorkerTransport<rmcp::x::Y<reqwest::Client>>] error: Client error: refused [os error 111]"
            ),
            "Send message error Transport error: Client error: refused [os error 111]"
        );
        assert_eq!(without_type_names("a [b] [c::d e] [f"), "a [b] [c::d e] [f");
    }

    #[test]
    fn a_failure_never_says_what_the_server_was_given() {
        let secrets: Secrets = (
            [("KEY".to_string(), "env-secret-1234".to_string())].into(),
            [
                (
                    "Authorization".to_string(),
                    "Bearer tok-abcdefgh-5678".to_string(),
                ),
                ("X-Short".to_string(), "Basic abc".to_string()),
            ]
            .into(),
        );
        let given = Given::of(&secrets);
        let said = given.say(
            "401: env-secret-1234, got tok-abcdefgh-5678 from Bearer tok-abcdefgh-5678 [a::B]",
        );
        assert_eq!(said, "401: [REDACTED], got [REDACTED] from [REDACTED]");
        // A short word of a header is not a value of its own ("Basic" would redact every
        // "Basic" in a message); the whole value still is.
        assert_eq!(given.say("Basic auth: Basic abc"), "Basic auth: [REDACTED]");
    }
}
