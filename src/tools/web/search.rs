//! `web_search`: a query sent to one configured provider — Brave (JSON API, key), DuckDuckGo
//! (its HTML endpoint, no key) or a SearXNG instance (`format=json`) — and the results as title,
//! URL and snippet inside the untrusted-content wrapper.
//!
//! The provider's base URL is the operator's choice, so it is not held to the SSRF guard (a
//! SearXNG instance often runs on the same host); the result URLs are never fetched here.

use std::rc::Rc;
use std::time::Duration;

use markup5ever_rcdom::{Node, NodeData};
use reqwest::Url;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::store::Store;
use crate::tools::{CallContext, Risk, Tool, ToolResult};

/// Which search service.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    #[default]
    Duckduckgo,
    Brave,
    Searxng,
}

impl Provider {
    fn name(self) -> &'static str {
        match self {
            Provider::Duckduckgo => "DuckDuckGo",
            Provider::Brave => "Brave",
            Provider::Searxng => "SearXNG",
        }
    }
}

/// `[tools.web.search]`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    pub provider: Provider,
    /// The service's address: default `https://html.duckduckgo.com` and
    /// `https://api.search.brave.com`; required for SearXNG.
    pub base_url: Option<String>,
    /// The environment variable holding the key (Brave: default `BRAVE_API_KEY`; SearXNG: sent
    /// as a bearer token when set).
    pub api_key_env: Option<String>,
    /// Results when the call does not say (`count`, 1–10).
    pub max_results: usize,
    pub timeout_secs: u64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            provider: Provider::default(),
            base_url: None,
            api_key_env: None,
            max_results: 5,
            timeout_secs: 30,
        }
    }
}

/// One result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hit {
    pub title: String,
    pub url: String,
    pub snippet: String,
}

/// Runs `query` against the configured provider.
pub fn search(cfg: &SearchConfig, query: &str, count: usize) -> Result<Vec<Hit>, String> {
    let base = match (&cfg.base_url, cfg.provider) {
        (Some(b), _) => b.trim_end_matches('/').to_string(),
        (None, Provider::Duckduckgo) => "https://html.duckduckgo.com".into(),
        (None, Provider::Brave) => "https://api.search.brave.com".into(),
        (None, Provider::Searxng) => {
            return Err(
                "web search: set [tools.web.search] base_url to your SearXNG instance".into(),
            );
        }
    };
    let key_env = cfg
        .api_key_env
        .clone()
        .or_else(|| (cfg.provider == Provider::Brave).then(|| "BRAVE_API_KEY".to_string()));
    let key = key_env
        .as_deref()
        .and_then(|v| std::env::var(v).ok())
        .filter(|k| !k.is_empty());
    if cfg.provider == Provider::Brave && key.is_none() {
        return Err(format!(
            "web search: Brave needs an API key in ${}",
            key_env.unwrap_or_default()
        ));
    }
    let mut url = Url::parse(&base).map_err(|e| format!("web search: bad base_url {base}: {e}"))?;
    match cfg.provider {
        Provider::Duckduckgo => {
            url.set_path(&format!("{}/html/", url.path().trim_end_matches('/')))
        }
        Provider::Brave => url.set_path(&format!(
            "{}/res/v1/web/search",
            url.path().trim_end_matches('/')
        )),
        Provider::Searxng => url.set_path(&format!("{}/search", url.path().trim_end_matches('/'))),
    }
    {
        let mut q = url.query_pairs_mut();
        q.append_pair("q", query);
        match cfg.provider {
            Provider::Brave => {
                q.append_pair("count", &count.to_string());
            }
            Provider::Searxng => {
                q.append_pair("format", "json");
            }
            Provider::Duckduckgo => {}
        }
    }
    let provider = cfg.provider;
    let timeout = Duration::from_secs(cfg.timeout_secs.max(1));
    let https = url.scheme() == "https";
    let body = super::block_on(async move {
        let client = super::builder(timeout, https)
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        let mut request = client.get(url.clone());
        request = match (provider, &key) {
            (Provider::Brave, Some(k)) => request
                .header("X-Subscription-Token", k)
                .header("Accept", "application/json"),
            (_, Some(k)) => request.bearer_auth(k),
            _ => request,
        };
        let response = request
            .send()
            .await
            .map_err(|e| format!("web search: {}", crate::error::with_causes(&e)))?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|e| format!("web search: {}", crate::error::with_causes(&e)))?;
        if !status.is_success() {
            let head: String = text.chars().take(200).collect();
            return Err(format!(
                "web search: {} answered {status}: {head}",
                provider.name()
            ));
        }
        Ok(text)
    })?;
    let mut hits = match cfg.provider {
        Provider::Duckduckgo => parse_duckduckgo(&body),
        Provider::Brave => parse_json(&body, "/web/results", "description")?,
        Provider::Searxng => parse_json(&body, "/results", "content")?,
    };
    hits.truncate(count);
    Ok(hits)
}

/// Brave's `web.results` and SearXNG's `results`: title, url and the snippet field.
fn parse_json(body: &str, pointer: &str, snippet: &str) -> Result<Vec<Hit>, String> {
    let doc: Value = serde_json::from_str(body)
        .map_err(|e| format!("web search: the answer is not JSON: {e}"))?;
    let Some(results) = doc.pointer(pointer).and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    let text = |v: &Value, k: &str| {
        super::html::convert(v.get(k).and_then(Value::as_str).unwrap_or_default(), true)
    };
    Ok(results
        .iter()
        .map(|r| Hit {
            title: text(r, "title"),
            url: r
                .get("url")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            snippet: text(r, snippet),
        })
        .filter(|h| !h.url.is_empty())
        .collect())
}

/// DuckDuckGo's HTML page: `a.result__a` (title, link through `/l/?uddg=`) and the following
/// `.result__snippet`.
pub fn parse_duckduckgo(page: &str) -> Vec<Hit> {
    let converter = htmd::HtmlToMarkdown::new();
    let Ok(tree) = converter.html_to_tree(page) else {
        return Vec::new();
    };
    let mut hits = Vec::new();
    walk(&tree, &mut hits);
    hits.retain(|h| !h.url.is_empty());
    hits
}

fn walk(node: &Rc<Node>, hits: &mut Vec<Hit>) {
    if let NodeData::Element { attrs, .. } = &node.data {
        let attrs = attrs.borrow();
        let attr = |n: &str| {
            attrs
                .iter()
                .find(|a| &*a.name.local == n)
                .map(|a| a.value.to_string())
        };
        let classes = attr("class").unwrap_or_default();
        let has = |c: &str| classes.split_ascii_whitespace().any(|x| x == c);
        if has("result__a") {
            hits.push(Hit {
                title: text_of(node),
                url: ddg_target(&attr("href").unwrap_or_default()),
                snippet: String::new(),
            });
            return;
        }
        if has("result__snippet") {
            if let Some(last) = hits.last_mut()
                && last.snippet.is_empty()
            {
                last.snippet = text_of(node);
            }
            return;
        }
    }
    for child in node.children.borrow().iter() {
        walk(child, hits);
    }
}

/// The text inside a node, whitespace collapsed.
fn text_of(node: &Rc<Node>) -> String {
    fn collect(node: &Rc<Node>, out: &mut String) {
        if let NodeData::Text { contents } = &node.data {
            out.push_str(&contents.borrow());
        }
        for c in node.children.borrow().iter() {
            collect(c, out);
        }
    }
    let mut s = String::new();
    collect(node, &mut s);
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The real target of a DuckDuckGo result link (`//duckduckgo.com/l/?uddg=<target>&rut=…`).
fn ddg_target(href: &str) -> String {
    let Ok(url) = Url::parse("https://duckduckgo.com/").and_then(|b| b.join(href)) else {
        return href.to_string();
    };
    if url.path() == "/l/"
        && let Some((_, target)) = url.query_pairs().find(|(k, _)| k == "uddg")
    {
        return target.into_owned();
    }
    url.to_string()
}

/// The results as the model sees them (inside the wrapper).
pub fn render(query: &str, provider: Provider, hits: &[Hit]) -> String {
    if hits.is_empty() {
        return format!("No results found for: {query}");
    }
    let mut out = format!("Results for: {query} (via {})\n", provider.name());
    for (i, h) in hits.iter().enumerate() {
        out.push_str(&format!("\n{}. {}\n   {}\n", i + 1, h.title, h.url));
        if !h.snippet.is_empty() {
            out.push_str(&format!("   {}\n", h.snippet));
        }
    }
    out.trim_end().to_string()
}

/// `web_search`.
pub struct WebSearch;

impl Tool for WebSearch {
    fn name(&self) -> &str {
        "web_search"
    }
    fn description(&self) -> &str {
        "Search the web. Returns titles, URLs and snippets; use web_fetch to read a page."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "query":{"type":"string","description":"What to search for"},
            "count":{"type":"number","description":"How many results (1-10, default 5)"}},
            "required":["query"]})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        let query = crate::tools::trimmed_arg(args, "query");
        if query.is_empty() {
            return ToolResult::bad_args("query parameter is required");
        }
        let cfg = &ctx.web.search;
        let count = args
            .get("count")
            .and_then(Value::as_f64)
            .map(|n| n as usize)
            .unwrap_or(cfg.max_results)
            .clamp(1, 10);
        match search(cfg, query, count) {
            Ok(hits) => ToolResult::text(super::wrap_external(
                "Web Search",
                &render(query, cfg.provider, &hits),
            )),
            Err(e) => ToolResult::error(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duckduckgo_results_are_read_from_its_html() {
        let page = r#"<html><body><div class="result results_links">
          <h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fwww.rust-lang.org%2F&amp;rut=abc">Rust <b>Programming</b> Language</a></h2>
          <a class="result__snippet" href="//duckduckgo.com/l/?uddg=x">A language empowering <b>everyone</b>.</a></div>
          <div class="result"><a class="result__a" href="https://example.org/direct">Direct</a></div></body></html>"#;
        assert_eq!(
            parse_duckduckgo(page),
            vec![
                Hit {
                    title: "Rust Programming Language".into(),
                    url: "https://www.rust-lang.org/".into(),
                    snippet: "A language empowering everyone.".into()
                },
                Hit {
                    title: "Direct".into(),
                    url: "https://example.org/direct".into(),
                    snippet: String::new()
                }
            ]
        );
    }

    #[test]
    fn json_providers_and_rendering() {
        let brave = r#"{"web":{"results":[{"title":"A &amp; <strong>B</strong>","url":"https://a.test/","description":"about <strong>a</strong>"}]}}"#;
        let hits = parse_json(brave, "/web/results", "description").unwrap();
        assert_eq!(hits[0].title, "A & B");
        assert_eq!(hits[0].snippet, "about a");
        assert_eq!(
            render("q", Provider::Brave, &hits),
            "Results for: q (via Brave)\n\n1. A & B\n   https://a.test/\n   about a"
        );
        assert_eq!(render("q", Provider::Brave, &[]), "No results found for: q");
        assert!(parse_json("nope", "/results", "content").is_err());
    }
}
