//! URLs as goclaw shows them: what may carry a secret (user and password, most of the path,
//! query, fragment) taken out, so a listing or an error never prints a webhook's token.

/// A URL as goclaw shows it (`config show`, `message channels`, a channel's errors): scheme,
/// host, port and a first path part that looks like a name (`/v1`, `/mcp`, `/services`);
/// user, password, the rest of the path, query and fragment become `[REDACTED]`, since webhooks
/// and bots carry their secret there (Slack's and Discord's paths, Telegram's `/bot<token>`,
/// `?token=`). `None` for text that is not a URL with a host.
pub fn shown(text: &str) -> Option<String> {
    const HIDDEN: &str = "[REDACTED]";
    let url = text
        .contains("://")
        .then(|| url::Url::parse(text).ok())
        .flatten()
        .filter(|u| u.has_host())?;
    let mut shown = format!("{}://", url.scheme());
    if !url.username().is_empty() || url.password().is_some() {
        shown.push_str(HIDDEN);
        shown.push('@');
    }
    shown.push_str(url.host_str().unwrap_or_default());
    if let Some(port) = url.port() {
        shown.push_str(&format!(":{port}"));
    }
    let path = url.path().trim_start_matches('/');
    let (first, rest) = path.split_once('/').unwrap_or((path, ""));
    let a_name = first.len() <= 12
        && first
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    match (first.is_empty(), a_name) {
        (true, _) => {}
        (false, true) => {
            shown.push('/');
            shown.push_str(first);
            if !rest.is_empty() {
                shown.push('/');
                shown.push_str(HIDDEN);
            } else if path.ends_with('/') {
                shown.push('/');
            }
        }
        (false, false) => {
            shown.push('/');
            shown.push_str(HIDDEN);
        }
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
    }
}
