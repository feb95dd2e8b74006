//! Provider configuration: `[providers.NAME]`, the built-in `openai` and `anthropic` providers
//! configured by the environment (`OPENAI_*`, `ANTHROPIC_*`), `replay:FILE`, and the choice of
//! a provider when an agent names none.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

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
    /// The endpoint variable (`OPENAI_BASE_URL`…) set to another address than the config's
    /// `base_url`, which wins for a configured provider: worth a warning, never silence.
    pub overridden_env: Option<&'static str>,
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
            overridden_env: None,
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
            return Err(Error::not_found(format!("unknown provider `{name}`")).with_hint(
                "define it as [providers.NAME] in config, or use openai, anthropic or replay:FILE",
            ));
        }
    };
    for (key, price) in [
        ("input_price", config.input_price),
        ("output_price", config.output_price),
    ] {
        if !(price.is_finite() && price >= 0.0) {
            return Err(Error::usage(format!(
                "[providers.{name}] {key} must be a number of US dollars per million tokens, 0 or more (got {price})"
            )));
        }
    }
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
                overridden_env: None,
            });
        }
    };
    let overridden_env = match (&config.base_url, nonempty(url_env)) {
        (Some(configured), Some(from_env))
            if configured.trim_end_matches('/') != from_env.trim_end_matches('/') =>
        {
            Some(url_env)
        }
        _ => None,
    };
    let base_url = config
        .base_url
        .clone()
        .or_else(|| nonempty(url_env))
        .unwrap_or_else(|| default_url.to_string())
        .trim_end_matches('/')
        .to_string();
    let key_var = key_variable(&config).unwrap_or(key_env.to_string());
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
        overridden_env,
    })
}

/// The variable a provider's key is read from (`api_key_env`, else its kind's own); none for
/// a replay.
pub fn key_variable(config: &ProviderConfig) -> Option<String> {
    let default = match config.kind {
        Kind::Openai => "OPENAI_API_KEY",
        Kind::Anthropic => "ANTHROPIC_API_KEY",
        Kind::Replay => return None,
    };
    Some(config.api_key_env.clone().unwrap_or(default.to_string()))
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Openai => "openai",
            Kind::Anthropic => "anthropic",
            Kind::Replay => "replay",
        })
    }
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
