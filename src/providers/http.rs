//! The one way goclaw starts building an HTTP client (providers, web tools, MCP over HTTP), so
//! every client gets the same TLS crypto: rustls on `ring`. `ring` is installed as the process's
//! rustls provider on first use; aws-lc, reqwest's default, ran a CPU-feature probe in a
//! constructor at every process start, whether it made a request or not. Every client follows
//! the same redirects too: a 307 or 308 to the same origin, nothing else.

use std::sync::Once;

/// A `reqwest` client builder whose TLS uses the `ring` provider, and which follows only
/// [`same_origin`] redirects.
pub fn client_builder() -> reqwest::ClientBuilder {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // Err: a provider is installed already (by an embedding program); it is used then.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder().redirect(same_origin())
}

/// The most redirects one request follows.
const MAX_REDIRECTS: usize = 10;

/// Follows a 307 or 308 to the same origin (scheme, host and port), at most [`MAX_REDIRECTS`]
/// times; any other redirect comes back to the caller as the answer (an HTTP 3xx). reqwest drops
/// `Authorization` on a redirect to another host, but not the other headers goclaw sends: an
/// API key in `x-api-key` or an MCP server's `--header` would reach whatever host a hostile or
/// hijacked server names. A 301, 302 or 303 turns a POST into a GET without its body, which
/// would fail further on with a stranger error.
fn same_origin() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let keeps_body = matches!(
            attempt.status(),
            reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
        );
        let same = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        match (keeps_body && same, attempt.previous().len() > MAX_REDIRECTS) {
            (false, _) => attempt.stop(),
            (true, true) => attempt.error(format!("more than {MAX_REDIRECTS} redirects")),
            (true, false) => attempt.follow(),
        }
    })
}

/// What a redirect that was not followed says: where it pointed (at most 200 bytes of it) and
/// why goclaw stayed; `None` for any other status.
pub fn unfollowed_redirect(
    status: reqwest::StatusCode,
    headers: &reqwest::header::HeaderMap,
) -> Option<String> {
    if !status.is_redirection() {
        return None;
    }
    let to = headers
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok()) // visible ASCII: any byte is a character boundary
        .map(|to| &to[..to.len().min(200)]);
    Some(match to {
        Some(to) => format!(
            "a redirect to {to}, not followed: goclaw follows only a 307 or 308 to the same scheme, host and port"
        ),
        None => "a redirect without a Location, not followed".to_string(),
    })
}

/// `HTTP <status>`, with where a redirect pointed ([`unfollowed_redirect`]).
pub fn status_said(status: reqwest::StatusCode, headers: &reqwest::header::HeaderMap) -> String {
    match unfollowed_redirect(status, headers) {
        Some(said) => format!("HTTP {status}, {said}"),
        None => format!("HTTP {status}"),
    }
}
