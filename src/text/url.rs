//! URLs as goclaw shows them: what may carry a secret (user and password, most of the path,
//! query, fragment) taken out, so a listing or an error never prints a webhook's token.

/// A URL as goclaw shows it (`config show`, `message channels`, a channel's errors): scheme,
/// host, port and a first path part that looks like a name (`/v1`, `/mcp`, `/services`);
/// user, password, the rest of the path, query and fragment become `[REDACTED]`, since webhooks
/// and bots carry their secret there (Slack's and Discord's paths, Telegram's `/bot<token>`,
/// `?token=`). `None` for text that is not a URL with a host.
pub fn shown(text: &str) -> Option<String> {
    const HIDDEN: &str = "[REDACTED]";
    let Some(url) = parsed(text) else {
        // What looks like a URL but does not parse (`https://h:443x/bot…`) is shown by its
        // scheme only: a typo must not print the token it carries.
        return looks_like_a_url(text).map(|scheme| format!("{scheme}:{HIDDEN}"));
    };
    let mut shown = format!("{}://", url.scheme());
    if !url.username().is_empty() || url.password().is_some() {
        shown.push_str(HIDDEN);
        shown.push('@');
    }
    shown.push_str(url.host_str().unwrap_or_default());
    if let Some(port) = url.port() {
        shown.push_str(&format!(":{port}"));
    }
    let (first, hidden) = path_parts(&url);
    if let Some(first) = first {
        shown.push('/');
        shown.push_str(first);
    }
    if hidden.is_some() {
        shown.push_str(&format!("/{HIDDEN}"));
    } else if first.is_some() && url.path().ends_with('/') {
        shown.push('/');
    }
    if url.query().is_some() {
        shown.push('?');
        shown.push_str(HIDDEN);
    }
    if url.fragment().is_some() {
        shown.push('#');
        shown.push_str(HIDDEN);
    }
    Some(shown)
}

/// The parts of URL `text` that [`shown`] hides (user, password, the hidden path and each of
/// its segments, the query and each of its values, the fragment), as written and decoded,
/// longest first: what to take out of a server's answer that echoes the request (`POST
/// /bot<token>/sendMessage`). Parts shorter than 4 bytes are left (they name nothing).
pub fn hidden_parts(text: &str) -> Vec<String> {
    let Some(url) = parsed(text) else {
        return Vec::new();
    };
    let decode = |p: &str| {
        percent_encoding::percent_decode_str(p)
            .decode_utf8_lossy()
            .into_owned()
    };
    let mut parts: Vec<String> = vec![url.username().to_string()];
    parts.extend(url.password().map(str::to_string));
    if !url.username().is_empty() || url.password().is_some() {
        // What an HTTP client sends of them: `Authorization: Basic base64(user:password)`.
        use base64::Engine;
        let pair = format!(
            "{}:{}",
            decode(url.username()),
            decode(url.password().unwrap_or(""))
        );
        parts.push(base64::engine::general_purpose::STANDARD.encode(pair));
    }
    if let (_, Some(path)) = path_parts(&url) {
        parts.push(path.to_string());
        parts.extend(path.split('/').map(str::to_string));
    }
    if let Some(query) = url.query() {
        parts.push(query.to_string());
        for pair in query.split('&') {
            parts.push(pair.to_string());
            parts.extend(pair.split_once('=').map(|(_, v)| v.to_string()));
        }
        parts.extend(url.query_pairs().map(|(_, v)| v.into_owned()));
    }
    parts.extend(url.fragment().map(str::to_string));
    let decoded: Vec<String> = parts.iter().map(|p| decode(p)).collect();
    parts.extend(decoded);
    parts.retain(|p| p.len() >= 4);
    // Longest first; equal parts next to each other, so each is kept once.
    parts.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    parts.dedup();
    parts
}

/// `text` as a URL with a host (`http:/h/x` and `http:\\h\x` are such URLs, as every HTTP
/// client reads them).
fn parsed(text: &str) -> Option<url::Url> {
    url::Url::parse(text.trim()).ok().filter(|u| u.has_host())
}

/// The scheme of text that starts as a URL does (`https:`, then `/` or `\\`).
fn looks_like_a_url(text: &str) -> Option<&str> {
    let (scheme, rest) = text.trim().split_once(':')?;
    let is_scheme = scheme.len() > 1
        && scheme
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    (is_scheme && rest.starts_with(['/', '\\'])).then_some(scheme)
}

/// A URL's path as [`shown`] splits it: a first part shown when it looks like a name (`/v1`,
/// `/mcp`, `/services`), and what is hidden (`None`: nothing).
fn path_parts(url: &url::Url) -> (Option<&str>, Option<&str>) {
    let path = url.path().trim_start_matches('/');
    let (first, rest) = path.split_once('/').unwrap_or((path, ""));
    let a_name = first.len() <= 12
        && first
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    match (first.is_empty(), a_name) {
        (true, _) => (None, None),
        (false, true) => (Some(first), (!rest.is_empty()).then_some(rest)),
        (false, false) => (None, Some(path)),
    }
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn the_secret_parts_of_a_url_are_taken_out() {
        for (url, want) in [
            (
                "https://hooks.slack.com/services/T000/B000/SlackSecret",
                "https://hooks.slack.com/services/[REDACTED]",
            ),
            (
                "https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxf/sendMessage",
                "https://api.telegram.org/[REDACTED]",
            ),
            (
                "https://discord.com/api/webhooks/1/tok",
                "https://discord.com/api/[REDACTED]",
            ),
            (
                "https://u:p@h.example:8443/v1?k=s#f",
                "https://[REDACTED]@h.example:8443/v1?[REDACTED]#[REDACTED]",
            ),
            ("http://127.0.0.1:9/hook", "http://127.0.0.1:9/hook"),
            ("https://example.com", "https://example.com"),
        ] {
            assert_eq!(shown(url).as_deref(), Some(want), "{url}");
        }
        assert_eq!(shown("not a url"), None);
        assert_eq!(shown("mailto:someone@example.com"), None);
        // What HTTP clients read as URLs though they are written otherwise, and what looks
        // like a URL but does not parse: the token is not shown either way.
        for (text, want) in [
            (
                "http:/h.example/bot1234:SECRET/x",
                "http://h.example/[REDACTED]",
            ),
            (
                "http:\\\\h.example\\bot1234:SECRET",
                "http://h.example/[REDACTED]",
            ),
            ("https://h.example:443x/bot1234:SECRET", "https:[REDACTED]"),
            (
                " https://h.example/services/T0/SECRET ",
                "https://h.example/services/[REDACTED]",
            ),
        ] {
            assert_eq!(shown(text).as_deref(), Some(want), "{text}");
        }
    }

    #[test]
    fn the_hidden_parts_are_what_an_echoing_server_must_not_show() {
        let parts = super::hidden_parts(
            "https://user:pa55word@h.example/bot1234:SECRET/send%20it?token=t0ken%2B1&x=1#frag",
        );
        for want in [
            "bot1234:SECRET/send%20it",
            "bot1234:SECRET",
            "send it",
            "token=t0ken%2B1",
            "t0ken%2B1",
            "t0ken+1",
            "pa55word",
            "user",
            "frag",
            "dXNlcjpwYTU1d29yZA==",
        ] {
            assert!(parts.iter().any(|p| p == want), "{want}: {parts:?}");
        }
        // Longest first, so a part inside a longer one does not cut that one in two.
        assert!(
            parts.windows(2).all(|w| w[0].len() >= w[1].len()),
            "{parts:?}"
        );
        // A name shown is not hidden.
        let parts = super::hidden_parts("https://hooks.slack.com/services/T000/B000/Secret");
        assert!(!parts.iter().any(|p| p == "services"), "{parts:?}");
        assert!(parts.iter().any(|p| p == "Secret"), "{parts:?}");
    }
}
