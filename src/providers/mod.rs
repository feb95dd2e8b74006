//! LLM providers behind one type: OpenAI-compatible chat completions (`openai.rs`), Anthropic
//! Messages (`anthropic.rs`) and the playback of a recorded run (`replay.rs`). The
//! wire-independent parts are re-exported here: the message model (`types.rs`), configuration
//! (`config.rs`: `[providers.NAME]` and the `OPENAI_*` / `ANTHROPIC_API_KEY` defaults), and the
//! client (`client.rs`): retries with exponential backoff that honours `Retry-After`, the request
//! and stream-idle time limits, and recording (`--record`).
//!
//! A stream that ends before the provider says it is done is an upstream error (exit 8), never a
//! silently truncated answer. Nothing here prints: text deltas and retries are reported through
//! [`Observer`].

pub mod anthropic;
mod client;
mod config;
pub mod http;
pub mod openai;
pub mod replay;
pub(crate) mod sse;
mod types;

pub use anthropic::VERSION as ANTHROPIC_VERSION;
pub(crate) use client::Failure;
pub use client::{Client, backoff};
pub use config::{Kind, ProviderConfig, Resolved, default_name, key_variable, resolve};
pub(crate) use types::parse_arguments;
pub use types::{ChatRequest, ChatResponse, Message, Observer, Role, ToolCall, ToolDef, Usage};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use serde_json::Value;
    use std::collections::BTreeMap;
    use std::time::Duration;

    use super::client::status_failure;

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
        // Unknown, as an unknown agent is: exit 5.
        let e = resolve(&none, "nope", &env).unwrap_err();
        assert_eq!(e.kind, ErrorKind::NotFound);
        let r = resolve(&none, "replay:rec.jsonl", &env).unwrap();
        assert_eq!(r.config.kind, Kind::Replay);
    }

    #[test]
    fn a_configured_base_url_wins_over_the_environment_and_says_so() {
        let mut providers = BTreeMap::new();
        providers.insert(
            "local".to_string(),
            ProviderConfig {
                base_url: Some("http://127.0.0.1:8080/v1".into()),
                ..Default::default()
            },
        );
        let env = env_of(&[("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")]);
        let r = resolve(&providers, "local", &env).unwrap();
        assert_eq!(r.base_url, "http://127.0.0.1:8080/v1");
        assert_eq!(r.overridden_env, Some("OPENAI_BASE_URL"));
        // The same address (a trailing slash aside), or none in the environment: nothing to say.
        for env in [
            env_of(&[("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1/")]),
            env_of(&[]),
        ] {
            assert_eq!(
                resolve(&providers, "local", &env).unwrap().overridden_env,
                None
            );
        }
        // Without base_url in config, the environment's address is used.
        let r = resolve(
            &BTreeMap::new(),
            "openai",
            &env_of(&[("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")]),
        )
        .unwrap();
        assert_eq!(
            (r.base_url.as_str(), r.overridden_env),
            ("http://127.0.0.1:9/v1", None)
        );
    }

    #[test]
    fn prices_are_finite_and_not_negative() {
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            let mut providers = BTreeMap::new();
            providers.insert(
                "p".to_string(),
                ProviderConfig {
                    base_url: Some("http://127.0.0.1:9/v1".into()),
                    input_price: bad,
                    ..Default::default()
                },
            );
            let e = resolve(&providers, "p", &env_of(&[])).unwrap_err();
            assert!(e.message.contains("input_price"), "{}", e.message);
        }
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
