//! `goclaw doctor`: is everything goclaw depends on in order? The config file, the store
//! (integrity and migrations), the LLM providers (configured, key present, reachable), the MCP
//! servers (they start and list their tools) and the exec sandbox's layers on this host. Each
//! check is a typed result; the command renders them. Nothing is changed: the store is opened
//! read-only and never created or migrated, no secret key is made. Providers are probed at
//! once, and MCP servers started at once, so doctor takes as long as the slowest, not the sum.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::config::{Env, PathArgs, Settings};
use crate::providers::{self, Kind};

/// How long a provider has to answer the reachability probe.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest an MCP server has to start and list its tools (less when its own
/// `timeout_secs` is shorter): a server that never answers fails the check, not doctor.
const MCP_TIMEOUT_SECS: u64 = 10;

/// A check's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Health {
    Ok,
    /// Works, but something is missing or worth knowing (exit 0).
    Warn,
    /// Broken: a command that needs it fails (exit 1).
    Fail,
}

/// One check: its area (`config`, `store`, `provider`, `mcp`, `sandbox`), what it looked at,
/// the verdict and what was found.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Check {
    pub area: &'static str,
    pub name: String,
    pub status: Health,
    pub detail: String,
}

/// Every check, and whether none failed.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Report {
    pub ok: bool,
    pub checks: Vec<Check>,
}

/// Runs every check. Fails only when the paths cannot be resolved at all (no home directory).
pub fn examine(paths: &PathArgs, env: &Env) -> crate::error::Result<Report> {
    let (settings, broken) = Settings::resolve_lenient(paths, env)?;
    let mut checks = vec![config_check(&settings, broken)];
    let store = store_checks(&settings, &mut checks);
    // The providers are asked while the MCP servers start: a slow one of each costs the
    // longer of the two, not both.
    let (providers, servers) = std::thread::scope(|scope| {
        let asked = scope.spawn(|| {
            let mut checks = Vec::new();
            provider_checks(&settings, &mut checks);
            checks
        });
        let mut servers = Vec::new();
        mcp_checks(&settings, store.as_ref().map(Examined::db), &mut servers);
        let providers = asked.join().unwrap_or_else(|_| {
            let why = "the providers' check panicked".to_string();
            vec![check("provider", "(all)", Health::Fail, why)]
        });
        (providers, servers)
    });
    checks.extend(providers);
    checks.extend(servers);
    sandbox_checks(&settings, &mut checks);
    let ok = checks.iter().all(|c| c.status != Health::Fail);
    Ok(Report { ok, checks })
}

fn check(area: &'static str, name: impl Into<String>, status: Health, detail: String) -> Check {
    Check {
        area,
        name: name.into(),
        status,
        detail,
    }
}

fn config_check(s: &Settings, broken: Option<crate::error::Error>) -> Check {
    let name = s.config_path.display().to_string();
    match broken {
        Some(e) => check("config", name, Health::Fail, e.message),
        None if s.config_exists => check("config", name, Health::Ok, "parses".into()),
        None => check(
            "config",
            name,
            Health::Warn,
            "absent: the defaults apply (`goclaw config init` writes one)".into(),
        ),
    }
}

/// A store the checks could open (read-only on SQLite), for the MCP checks to read.
enum Examined {
    Sqlite(rusqlite::Connection),
    Postgres(Box<crate::store::postgres::PgStore>),
}

impl Examined {
    fn db(&self) -> crate::store::db::Db<'_> {
        match self {
            Examined::Sqlite(c) => crate::store::db::Db::Sqlite(c),
            Examined::Postgres(pg) => pg.db(),
        }
    }
}

/// The store's checks; the store itself when it can be opened and its schema is this
/// goclaw's.
fn store_checks(s: &Settings, checks: &mut Vec<Check>) -> Option<Examined> {
    if let Some(target) = s.pg_target() {
        let (check, pg) = postgres_check(target);
        checks.push(check);
        return pg.map(|pg| Examined::Postgres(Box::new(pg)));
    }
    let path = &s.db_path;
    let name = path.display().to_string();
    if !path.exists() {
        checks.push(check(
            "store",
            name,
            Health::Warn,
            "not created yet (the first command that uses it creates it)".into(),
        ));
        return None;
    }
    let conn = match crate::store::SqliteStore::open_read_only(path) {
        Ok(c) => c,
        Err(e) => {
            checks.push(check("store", name, Health::Fail, e.message));
            return None;
        }
    };
    let verdict = (|| {
        let m = crate::store::migration_state(&conn, path)?;
        let integrity = crate::store::integrity_check(&conn, path)?;
        // Compared once it is at this goclaw's version (pending migrations are applied by the
        // next command that writes).
        let schema = match m.schema_version {
            v if v == m.binary_version => crate::store::schema_problems(&conn, v)?,
            _ => Vec::new(),
        };
        Ok::<_, crate::error::Error>(if m.schema_version > m.binary_version {
            (
                Health::Fail,
                format!(
                    "schema version {} is newer than this goclaw's {}: upgrade goclaw",
                    m.schema_version, m.binary_version
                ),
            )
        } else if integrity != ["ok"] {
            (Health::Fail, format!("integrity: {}", integrity.join("; ")))
        } else if !schema.is_empty() {
            (
                Health::Fail,
                format!(
                    "schema: {} (`goclaw db check` lists them)",
                    schema.join("; ")
                ),
            )
        } else if !m.pending.is_empty() {
            (
                Health::Warn,
                format!(
                    "integrity ok; {} migration(s) pending (`goclaw db migrate`, or any command that writes)",
                    m.pending.len()
                ),
            )
        } else {
            (
                Health::Ok,
                format!("integrity ok, schema version {}", m.schema_version),
            )
        })
    })();
    let current = matches!(&verdict, Ok((Health::Ok, _)));
    match verdict {
        Ok((status, detail)) => checks.push(check("store", name.clone(), status, detail)),
        Err(e) => checks.push(check("store", name.clone(), Health::Fail, e.message)),
    }
    // goclaw makes its store 0600; one copied in with a wider mode lets others read the
    // sessions, the audit trail and the secrets' ciphertext (and SQLite gives its WAL the same).
    let mode = std::fs::metadata(path)
        .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()))
        .unwrap_or(0o600);
    if mode & 0o077 != 0 {
        checks.push(check(
            "store",
            format!("{name} (permissions)"),
            Health::Warn,
            format!(
                "others may read it (mode {:o}): chmod 600 {name} {name}-wal {name}-shm",
                mode & 0o777
            ),
        ));
    }
    current.then_some(Examined::Sqlite(conn))
}

fn provider_checks(s: &Settings, checks: &mut Vec<Check>) {
    let env = |k: &str| std::env::var(k).ok();
    let providers = &s.config.providers;
    let names: Vec<String> = if providers.is_empty() {
        match providers::default_name(providers, &env) {
            Ok(name) => vec![name],
            Err(e) => {
                checks.push(check(
                    "provider",
                    "(none)",
                    Health::Warn,
                    format!(
                        "{}: `goclaw run` needs one ({})",
                        e.message,
                        e.hint.unwrap_or_default()
                    ),
                ));
                return;
            }
        }
    } else {
        providers.keys().cloned().collect()
    };
    let verdicts = probe_providers(s, &names);
    for (name, (status, detail)) in names.into_iter().zip(verdicts) {
        checks.push(check("provider", name, status, detail));
    }
}

/// Each provider named, resolved and asked for its models (at once): how it went, in order.
pub fn probe_providers(s: &Settings, names: &[String]) -> Vec<(Health, String)> {
    let env = |k: &str| std::env::var(k).ok();
    let providers = &s.config.providers;
    let verdicts = names.iter().map(|name| {
        let resolved = providers::resolve(providers, name, &env);
        async move {
            let resolved = match resolved {
                Ok(r) => r,
                Err(e) => return (Health::Fail, e.message),
            };
            match resolved.config.kind {
                Kind::Replay => match &resolved.config.file {
                    Some(f) if f.is_file() => (Health::Ok, format!("replays {}", f.display())),
                    Some(f) => (
                        Health::Fail,
                        format!("recording {} does not exist", f.display()),
                    ),
                    None => (Health::Fail, "a replay without a file".into()),
                },
                kind => {
                    // A key variable named on purpose but unset is a mistake, not a local
                    // server that needs no key.
                    let unset = resolved
                        .config
                        .api_key_env
                        .as_deref()
                        .filter(|v| !v.is_empty() && resolved.api_key.is_none());
                    probe(kind, &resolved.base_url, resolved.api_key.as_deref(), unset).await
                }
            }
        }
    });
    match crate::ops::run::runtime() {
        Ok(rt) => rt.block_on(futures::future::join_all(verdicts)),
        Err(_) => vec![(Health::Fail, "cannot start the async runtime".into()); names.len()],
    }
}

/// The URL of a provider's model list, and the request for it with `key`.
fn models_request(
    client: &reqwest::Client,
    kind: Kind,
    base_url: &str,
    key: Option<&str>,
) -> (String, reqwest::RequestBuilder) {
    match kind {
        Kind::Anthropic => {
            let url = format!("{base_url}/v1/models");
            let mut r = client.get(&url).header("anthropic-version", "2023-06-01");
            if let Some(k) = key {
                r = r.header("x-api-key", k);
            }
            (url, r)
        }
        _ => {
            let url = format!("{base_url}/models");
            let mut r = client.get(&url);
            if let Some(k) = key {
                r = r.bearer_auth(k);
            }
            (url, r)
        }
    }
}

/// Asks the provider for its models: any answer proves it reachable; 401/403 say the key was
/// refused.
/// `unset`: the variable `api_key_env` names when it holds nothing (no key is sent then).
async fn probe(
    kind: Kind,
    base_url: &str,
    key: Option<&str>,
    unset: Option<&str>,
) -> (Health, String) {
    let client = match crate::providers::http::client_builder()
        .timeout(PROBE_TIMEOUT)
        .build()
    {
        Ok(c) => c,
        Err(e) => return (Health::Fail, format!("HTTP client: {e}")),
    };
    let (url, request) = models_request(&client, kind, base_url, key);
    let keyed = match (key, unset) {
        (Some(_), _) => "key present".to_string(),
        (None, Some(var)) => format!("no key: api_key_env names {var}, which is unset or empty"),
        (None, None) => "no key (a local server needs none)".to_string(),
    };
    let started = Instant::now();
    match request.send().await {
        Ok(resp) => {
            let ms = started.elapsed().as_millis();
            let code = resp.status();
            // Reachable without the key its config names: a warning at best.
            let ok = if unset.is_some() {
                Health::Warn
            } else {
                Health::Ok
            };
            if code.is_success() {
                (ok, format!("reachable ({ms} ms), {keyed}"))
            } else if let Some(said) =
                crate::providers::http::unfollowed_redirect(code, resp.headers())
            {
                // Where it points may hold the key it was sent (`?key=…`).
                let said = crate::text::redact_then_cut(&said, &Vec::from_iter(key), usize::MAX);
                (
                    Health::Fail,
                    format!(
                        "GET {url} answered HTTP {}, {said}; if you trust where it points, make that the provider's base_url",
                        code.as_u16()
                    ),
                )
            } else if (code.as_u16() == 401 || code.as_u16() == 403) && key.is_none() {
                (
                    Health::Fail,
                    format!(
                        "reachable, but it wants a key (HTTP {}) at {url}, and none was sent: {keyed}",
                        code.as_u16()
                    ),
                )
            } else if code.as_u16() == 401 || code.as_u16() == 403 {
                (
                    Health::Fail,
                    format!(
                        "reachable, but the key was refused (HTTP {}) at {url}",
                        code.as_u16()
                    ),
                )
            } else if code.is_server_error() {
                (
                    Health::Warn,
                    format!(
                        "reachable ({ms} ms), {keyed}; but GET {url} answered HTTP {}",
                        code.as_u16()
                    ),
                )
            } else {
                // Many compatible servers have no model list: any answer proves the address.
                (
                    ok,
                    format!(
                        "reachable ({ms} ms), {keyed} (GET {url}: HTTP {})",
                        code.as_u16()
                    ),
                )
            }
        }
        Err(e) => (
            Health::Fail,
            format!("unreachable at {url}: {}", crate::error::with_causes(&e)),
        ),
    }
}

/// The MCP servers of config, and of the store when it is there and current (without it, only
/// config's are checked: the store's cannot be read).
fn mcp_checks(s: &Settings, conn: Option<crate::store::db::Db<'_>>, checks: &mut Vec<Check>) {
    let config = &s.config.mcp;
    let servers = match conn {
        Some(conn) => match crate::mcp::list(conn, config) {
            Ok(list) => list,
            Err(e) => {
                checks.push(check("mcp", "(servers)", Health::Fail, e.message));
                return;
            }
        },
        None => crate::mcp::config_servers(config),
    };
    // Secrets are read here (the store's connection stays on this thread); the servers start
    // at once, each on its own thread.
    let hidden = s.hidden_from_servers();
    let started: Vec<(String, crate::error::Result<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = servers
            .into_iter()
            .map(|mut server| {
                server.timeout_secs = server.timeout_secs.min(MCP_TIMEOUT_SECS);
                let secrets = match conn {
                    Some(conn) if server.enabled => {
                        crate::mcp::bridge::server_secrets(conn, config, &s.store_dir(), &server)
                    }
                    _ => crate::mcp::bridge::server_secrets_of_config(config, &server),
                };
                let name = server.name.clone();
                let hidden = hidden.clone();
                let handle = scope.spawn(move || {
                    if !server.enabled {
                        return Ok("disabled".to_string());
                    }
                    let secrets = secrets?;
                    let pool = crate::mcp::pool::Pool::new(hidden);
                    let started = Instant::now();
                    let tools = pool.link(&server, secrets)?.list_tools()?;
                    Ok(format!(
                        "started and listed {} tools in {} ms",
                        tools.len(),
                        started.elapsed().as_millis()
                    ))
                });
                (name, handle)
            })
            .collect();
        handles
            .into_iter()
            .map(|(name, h)| {
                let verdict = h
                    .join()
                    .unwrap_or_else(|_| Err(crate::error::Error::internal("the check panicked")));
                (name, verdict)
            })
            .collect()
    });
    for (name, verdict) in started {
        match verdict {
            Ok(detail) => checks.push(check("mcp", name, Health::Ok, detail)),
            Err(e) => checks.push(check("mcp", name, Health::Fail, e.message)),
        }
    }
}

fn sandbox_checks(s: &Settings, checks: &mut Vec<Check>) {
    use crate::tools::exec::sandbox;
    let abi = sandbox::landlock_abi();
    checks.push(if abi >= 1 {
        check("sandbox", "landlock", Health::Ok, format!("ABI {abi}"))
    } else {
        check(
            "sandbox",
            "landlock",
            Health::Warn,
            "this kernel does not enforce Landlock".into(),
        )
    });
    // A program a sandbox layer runs: where it is, or what its absence means.
    let program = |name: &str, missing: Health, why: &str| match which::which(name) {
        Ok(p) => check("sandbox", name, Health::Ok, p.display().to_string()),
        Err(_) => check("sandbox", name, missing, why.to_string()),
    };
    checks.push(program(
        "bwrap",
        Health::Warn,
        "bubblewrap is not installed (apt-get install bubblewrap)",
    ));
    // Found is not running: its engine is asked (`docker info`, slow) only when exec uses it,
    // by the check of the sandbox mode below.
    checks.push(match which::which("docker") {
        Ok(p) => check(
            "sandbox",
            "docker",
            Health::Ok,
            format!(
                "{} (its engine is checked only with sandbox = \"docker\")",
                p.display()
            ),
        ),
        Err(_) => check(
            "sandbox",
            "docker",
            Health::Ok,
            "not installed (needed only for sandbox = \"docker\")".into(),
        ),
    });
    let mode = s.config.tools.exec.sandbox;
    let name = format!("[tools.exec] sandbox = {}", mode_name(mode));
    checks.push(match sandbox::layers_for(mode) {
        Ok((layers, None)) => check(
            "sandbox",
            name,
            Health::Ok,
            format!("commands run in {layers}"),
        ),
        Ok((layers, Some(note))) => check(
            "sandbox",
            name,
            if layers == "none (host)" {
                Health::Warn
            } else {
                Health::Ok
            },
            format!("commands run in {layers}: {note}"),
        ),
        Err(why) => check(
            "sandbox",
            name,
            Health::Fail,
            format!("exec cannot run: {why}"),
        ),
    });
}

fn mode_name(mode: crate::tools::exec::SandboxMode) -> String {
    serde_json::to_value(mode)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// A PostgreSQL store: the server answers, and its schema is this goclaw's.
fn postgres_check(
    mut target: crate::store::db::PgConnect,
) -> (Check, Option<crate::store::postgres::PgStore>) {
    // Doctor waits on no server for long.
    target.connect_timeout = target
        .connect_timeout
        .min(std::time::Duration::from_secs(5));
    let url = &target.url;
    let verdict = crate::store::postgres::PgStore::connect(&target).and_then(|pg| {
        let version = pg.server_version()?;
        let state = pg.migration_state()?;
        Ok((version, state, pg))
    });
    let (verdict, pg) = match verdict {
        Ok((version, state, pg)) => {
            let current = state.schema_version == state.binary_version;
            (Ok((version, state)), current.then_some(pg))
        }
        Err(e) => (Err(e), None),
    };
    let check = match verdict {
        Ok((version, state)) if state.schema_version > state.binary_version => check(
            "store",
            url.to_string(),
            Health::Fail,
            format!(
                "PostgreSQL {version}, schema version {} is newer than this goclaw's {}: upgrade goclaw",
                state.schema_version, state.binary_version
            ),
        ),
        Ok((version, state)) if state.pending.is_empty() => check(
            "store",
            url.to_string(),
            Health::Ok,
            format!(
                "PostgreSQL {version}, schema version {}",
                state.schema_version
            ),
        ),
        Ok((version, state)) => check(
            "store",
            url.to_string(),
            Health::Warn,
            format!(
                "PostgreSQL {version}, schema version {}: {} migration(s) pending (`goclaw db migrate`)",
                state.schema_version,
                state.pending.len()
            ),
        ),
        Err(e) => check("store", url.to_string(), Health::Fail, e.message),
    };
    (check, pg)
}
