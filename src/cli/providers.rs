//! `goclaw providers`: the LLM providers of the configuration (`[providers]`, plus `openai` and
//! `anthropic` when the environment configures them), whether they answer, and one request to
//! an endpoint of an OpenAI-compatible one. `call` is the `openai_compat_call` tool through
//! the gate (policy, audit, scrubbing), as `goclaw tools exec openai_compat_call` is.

use clap::{Args, Subcommand};
use serde::Serialize;
use serde_json::{Value, json};

use super::input::Input;
use super::shared::CallerArgs;
use super::{Context, Status, table};
use crate::error::{Error, ErrorKind, Result};
use crate::ops::doctor::{self, Health};
use crate::providers;
use crate::store::page::Page;

// LLM providers: list, probe, call an endpoint
#[derive(Debug, Args)]
pub struct ProvidersArgs {
    #[command(subcommand)]
    pub command: ProvidersCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum ProvidersCommand {
    /// The providers: kind, base URL, model, and whether their key is set (never its value)
    List,
    /// Ask providers for their models: reachable, key accepted (exit 8 when one is not)
    Probe {
        /// The providers to ask [default: every one]
        names: Vec<String>,
    },
    /// One request to an endpoint of an OpenAI-compatible provider, through the gate
    #[command(after_help = "Examples:\n  \
        goclaw providers call local /chat/completions @request.json\n  \
        goclaw providers call local /embeddings '{\"model\":\"m\",\"input\":\"hi\"}'   # exit 1 if it has none\n\n\
        The body is a JSON object, @FILE or - (stdin); with one it is a POST, without a GET (e.g.\n\
        /models). The path stays under the provider's base URL. Exit codes:\n\
        0 a 2xx answer, 1 any other answer or no answer, 3 denied by policy, 5 unknown provider.")]
    Call(CallArgs),
}

#[derive(Debug, Args)]
pub struct CallArgs {
    /// A provider of [providers], or openai
    pub name: String,
    /// The endpoint under its base URL, e.g. /embeddings
    pub path: String,
    /// The JSON body: a JSON object, @FILE, or - for stdin (none: a GET)
    pub body: Option<String>,
    #[command(flatten)]
    pub caller: CallerArgs,
}

#[derive(Serialize)]
struct Row {
    name: String,
    kind: Option<providers::Kind>,
    base_url: Option<String>,
    model: Option<String>,
    /// The variable the key is read from.
    key_env: Option<String>,
    key_set: bool,
    /// Why it cannot be used, when it cannot.
    problem: Option<String>,
}

pub fn run(ctx: &Context, args: ProvidersArgs) -> Result<Status> {
    let settings = ctx.settings()?;
    match args.command {
        ProvidersCommand::List => {
            let rows: Vec<Row> = names(&settings.config.providers)
                .into_iter()
                .map(|name| row(&settings.config.providers, name))
                .collect();
            table::page(
                ctx,
                &Page::whole(rows),
                &["PROVIDER", "KIND", "BASE URL", "MODEL", "KEY"],
                |r| {
                    [
                        r.name.clone(),
                        r.kind.map(|k| k.to_string()).unwrap_or_default(),
                        r.base_url.clone().unwrap_or_default(),
                        r.model.clone().unwrap_or_default(),
                        match (&r.problem, r.key_set) {
                            (Some(p), _) => p.clone(),
                            (None, true) => {
                                format!("{} (set)", r.key_env.clone().unwrap_or_default())
                            }
                            (None, false) => "none".into(),
                        },
                    ]
                },
            )?;
            Ok(Status::Ok)
        }
        ProvidersCommand::Probe { names: asked } => {
            let names = if asked.is_empty() {
                names(&settings.config.providers)
            } else {
                asked
            };
            // A name no provider has is a mistake in the command line (exit 5), as for
            // `providers call`, not a provider that failed its probe.
            for name in &names {
                let env = |k: &str| std::env::var(k).ok();
                match crate::providers::resolve(&settings.config.providers, name, &env) {
                    Err(e) if e.kind == ErrorKind::NotFound => return Err(e),
                    _ => {}
                }
            }
            let verdicts = doctor::probe_providers(settings, &names);
            let failed: Vec<String> = names
                .iter()
                .zip(&verdicts)
                .filter(|(_, (h, _))| *h == Health::Fail)
                .map(|(n, (_, d))| format!("{n}: {d}"))
                .collect();
            let rows: Vec<Value> = names
                .iter()
                .zip(&verdicts)
                .map(|(n, (h, d))| json!({"name": n, "status": h, "detail": d}))
                .collect();
            if !failed.is_empty() {
                return Err(Error::new(ErrorKind::Upstream, failed.join("; "))
                    .with_details(json!({ "items": rows })));
            }
            table::page(
                ctx,
                &Page::whole(rows),
                &["PROVIDER", "STATUS", "DETAIL"],
                |r| {
                    [
                        r["name"].as_str().unwrap_or_default().to_string(),
                        r["status"].as_str().unwrap_or_default().to_string(),
                        r["detail"].as_str().unwrap_or_default().to_string(),
                    ]
                },
            )?;
            Ok(Status::Ok)
        }
        ProvidersCommand::Call(a) => {
            let mut call = json!({"provider": a.name, "path": a.path});
            if let Some(body) = &a.body {
                call["body"] = Input::parse(Some(body)).read_json(ctx)?;
            }
            super::tool_call::exec_call(ctx, "openai_compat_call", &call, a.caller)
        }
    }
}

/// The configured providers, or the built-in one the environment configures.
fn names(
    configured: &std::collections::BTreeMap<String, providers::ProviderConfig>,
) -> Vec<String> {
    if !configured.is_empty() {
        return configured.keys().cloned().collect();
    }
    let env = |k: &str| std::env::var(k).ok();
    providers::default_name(configured, &env)
        .into_iter()
        .collect()
}

fn row(
    configured: &std::collections::BTreeMap<String, providers::ProviderConfig>,
    name: String,
) -> Row {
    let env = |k: &str| std::env::var(k).ok();
    match providers::resolve(configured, &name, &env) {
        Ok(r) => Row {
            kind: Some(r.config.kind),
            base_url: (!r.base_url.is_empty()).then(|| r.base_url.clone()),
            model: r.config.model.clone(),
            key_env: providers::key_variable(&r.config),
            key_set: r.api_key.is_some(),
            problem: None,
            name,
        },
        Err(e) => Row {
            kind: configured.get(&name).map(|c| c.kind),
            base_url: configured.get(&name).and_then(|c| c.base_url.clone()),
            model: configured.get(&name).and_then(|c| c.model.clone()),
            key_env: configured.get(&name).and_then(providers::key_variable),
            key_set: false,
            problem: Some(e.message),
            name,
        },
    }
}
