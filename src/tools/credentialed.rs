//! `credentialed_exec` (§6, group `runtime`): a registered CLI run directly — no shell — with
//! its credentials injected into the child's environment, and the registry behind it
//! (`goclaw secure-cli`, table `secure_cli`, env sealed with the key of [`crate::secrets`]).
//!
//! Order of a call: operators → lookup → binary resolution → deny_args → deny_verbose → env →
//! run. Where goclaw is stricter than the original (§6.4): shell operators are looked for in the
//! *raw* command, quoted or not, so `gh pr list; cat x` is refused instead of silently running
//! `gh pr list`; the first word must be the registered bare name (`./gh`, `/usr/bin/gh` never
//! match) and must resolve with `which` to the path recorded at registration, canonicalised (a
//! `gh` earlier on PATH, a `.` entry reaching a workspace file, a symlink swapped in: all
//! refused); `deny_verbose` matches each argument from its start (the original's `-v` also
//! caught `--version`). Credential values are scrubbed from everything the call returns.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::exec::{go_duration, run};
use super::{CallContext, Risk, Tool, ToolResult};
use crate::db_params;
use crate::error::{Error, Result};
use crate::secrets::SecretKey;
use crate::store::Store;
use crate::store::db::{Db, Row};
use crate::store::now_ms;

/// Output kept per stream (the original kept everything; a runaway CLI should not eat memory).
const OUTPUT_LIMIT: usize = 16 << 20;

/// A preset (§6.6): what `secure-cli add NAME --preset P` fills in.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Preset {
    pub name: &'static str,
    pub description: &'static str,
    /// Required variables.
    pub env: &'static [&'static str],
    /// Variables taken when present.
    pub optional_env: &'static [&'static str],
    /// Variables whose value is a file's path (checked when registering).
    pub file_env: &'static [&'static str],
    pub deny_args: &'static [&'static str],
    pub deny_verbose: &'static [&'static str],
    pub timeout_secs: u64,
    pub tips: &'static str,
}

/// The presets, sorted by name.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "aws",
        description: "AWS CLI",
        env: &["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
        optional_env: &["AWS_DEFAULT_REGION"],
        file_env: &[],
        deny_args: &[
            r"iam\s+",
            r"organizations\s+",
            r"sts\s+assume",
            r"ec2\s+terminate",
        ],
        deny_verbose: &["--debug"],
        timeout_secs: 60,
        tips: "Use --output json for structured output",
    },
    Preset {
        name: "gcloud",
        description: "Google Cloud CLI",
        env: &["GOOGLE_APPLICATION_CREDENTIALS"],
        optional_env: &[],
        file_env: &["GOOGLE_APPLICATION_CREDENTIALS"],
        deny_args: &[
            r"iam\s+",
            r"auth\s+",
            r"projects\s+delete",
            r"services\s+disable",
            r"kms\s+",
        ],
        deny_verbose: &["--verbosity=debug", "--log-http"],
        timeout_secs: 120,
        tips: "Use --format=json for structured output",
    },
    Preset {
        name: "gh",
        description: "GitHub CLI",
        env: &["GH_TOKEN"],
        optional_env: &[],
        file_env: &[],
        deny_args: &[
            r"auth\s+",
            "ssh-key",
            "gpg-key",
            r"repo\s+delete",
            r"secret\s+",
        ],
        deny_verbose: &["--verbose", "-v"],
        timeout_secs: 30,
        tips: "Use --json flag for structured output",
    },
    Preset {
        name: "kubectl",
        description: "Kubernetes CLI",
        env: &["KUBECONFIG"],
        optional_env: &[],
        file_env: &["KUBECONFIG"],
        deny_args: &[
            r"delete\s+namespace",
            r"delete\s+node",
            r"drain\s+",
            r"cordon\s+",
        ],
        deny_verbose: &[],
        timeout_secs: 60,
        tips: "Use -o json for structured output",
    },
    Preset {
        name: "terraform",
        description: "Terraform CLI",
        env: &[],
        optional_env: &["TF_TOKEN_app_terraform_io"],
        file_env: &[],
        deny_args: &["destroy", "force-unlock"],
        deny_verbose: &[],
        timeout_secs: 300,
        tips: "Use -json flag for structured output",
    },
];

pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// A registered CLI as listed (never with its values).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Cli {
    pub binary_name: String,
    pub binary_path: String,
    pub description: String,
    /// The names of the injected variables.
    pub env_keys: Vec<String>,
    pub deny_args: Vec<String>,
    pub deny_verbose: Vec<String>,
    pub timeout_secs: u64,
    pub tips: String,
    /// Empty: every agent (printed as `null`, as every other command prints "no agent").
    #[serde(serialize_with = "empty_as_null")]
    pub agent: String,
    pub enabled: bool,
}

fn empty_as_null<S: serde::Serializer>(s: &str, to: S) -> std::result::Result<S::Ok, S::Error> {
    if s.is_empty() {
        to.serialize_none()
    } else {
        to.serialize_str(s)
    }
}

/// Registers (or replaces) a CLI with its sealed environment.
pub fn add(db: Db<'_>, key: &SecretKey, cli: &Cli, env: &BTreeMap<String, String>) -> Result<()> {
    for p in cli.deny_args.iter().chain(&cli.deny_verbose) {
        Regex::new(p).map_err(|e| {
            let why = e.to_string();
            let why = why.lines().last().unwrap_or_default().trim().to_string();
            Error::usage(format!("bad deny pattern {p:?}: {why}"))
        })?;
    }
    let sealed = crate::secrets::seal_map(key, env)?;
    let now = now_ms();
    db.execute(
        "INSERT INTO secure_cli (binary_name, binary_path, description, env, env_keys, deny_args,
             deny_verbose, timeout_secs, tips, agent, enabled, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12)
         ON CONFLICT (binary_name, agent) DO UPDATE SET binary_path = excluded.binary_path,
             description = excluded.description, env = excluded.env, env_keys = excluded.env_keys,
             deny_args = excluded.deny_args, deny_verbose = excluded.deny_verbose,
             timeout_secs = excluded.timeout_secs, tips = excluded.tips,
             enabled = excluded.enabled, updated_at = excluded.updated_at",
        db_params![
            cli.binary_name,
            cli.binary_path,
            cli.description,
            sealed,
            crate::secrets::names_json(env),
            json!(cli.deny_args).to_string(),
            json!(cli.deny_verbose).to_string(),
            cli.timeout_secs as i64,
            cli.tips,
            cli.agent,
            cli.enabled,
            now
        ],
    )?;
    Ok(())
}

const COLUMNS: &str = "binary_name, binary_path, description, env_keys, deny_args, deny_verbose, timeout_secs, tips, agent, enabled";

fn row(r: &Row) -> Result<Cli> {
    let list = |i: usize| -> Result<Vec<String>> {
        Ok(serde_json::from_str(&r.get::<String>(i)?).unwrap_or_default())
    };
    Ok(Cli {
        binary_name: r.get(0)?,
        binary_path: r.get(1)?,
        description: r.get(2)?,
        env_keys: list(3)?,
        deny_args: list(4)?,
        deny_verbose: list(5)?,
        timeout_secs: r.get::<i64>(6)?.max(0) as u64,
        tips: r.get(7)?,
        agent: r.get(8)?,
        enabled: r.get(9)?,
    })
}

/// Every registered CLI, by name then agent.
pub fn list(db: Db<'_>) -> Result<Vec<Cli>> {
    db.query_map(
        &format!("SELECT {COLUMNS} FROM secure_cli ORDER BY binary_name, agent"),
        &[],
        row,
    )
}

/// Removes a registration; false when there was none.
pub fn remove(db: Db<'_>, name: &str, agent: &str) -> Result<bool> {
    db.execute(
        "DELETE FROM secure_cli WHERE binary_name = ?1 AND agent = ?2",
        db_params![name, agent],
    )
    .map(|n| n > 0)
}

/// Turns a registration on or off; false when there was none.
pub fn set_enabled(db: Db<'_>, name: &str, agent: &str, enabled: bool) -> Result<bool> {
    db.execute(
        "UPDATE secure_cli SET enabled = ?3, updated_at = ?4 WHERE binary_name = ?1 AND agent = ?2",
        db_params![name, agent, enabled, now_ms()],
    )
    .map(|n| n > 0)
}

/// The enabled CLI named exactly `name` for `agent` (its own row first, then the global one),
/// with its sealed environment.
pub fn lookup(
    db: Db<'_>,
    name: &str,
    agent: Option<&str>,
) -> Result<Option<(Cli, Option<Vec<u8>>)>> {
    db.query_opt(
        &format!(
            "SELECT {COLUMNS}, env FROM secure_cli
             WHERE binary_name = ?1 AND enabled = 1 AND (agent = '' OR agent = ?2)
             ORDER BY agent = '' LIMIT 1"
        ),
        db_params![name, agent.unwrap_or("")],
        |r| Ok((row(r)?, r.get(10)?)),
    )
}

/// Every enabled CLI an agent can use (its own rows over global ones of the same name).
pub fn usable(db: Db<'_>, agent: Option<&str>) -> Result<Vec<Cli>> {
    let visible = list(db)?
        .into_iter()
        .filter(|c| c.enabled && (c.agent.is_empty() || Some(c.agent.as_str()) == agent))
        .collect();
    Ok(super::own_over_global(
        visible,
        |c| &c.binary_name,
        |c| !c.agent.is_empty(),
    ))
}

static OPERATORS: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[;|&<>\n\r`]|\$\(|\$\{").ok());

/// The shell operators in `raw`, quoted or not, each once in first-seen order (§6.3).
pub fn operators(raw: &str) -> Vec<String> {
    let Some(re) = OPERATORS.as_ref() else {
        // Fail closed: without the pattern every command counts as having an operator.
        return vec!["?".into()];
    };
    let mut seen: Vec<String> = Vec::new();
    for m in re.find_iter(raw) {
        let op = match m.as_str() {
            "\n" => "\\n".to_string(),
            "\r" => "\\r".to_string(),
            other => other.to_string(),
        };
        if !seen.contains(&op) {
            seen.push(op);
        }
    }
    seen
}

/// The first deny pattern matching: `deny_args` over the arguments joined by spaces
/// (unanchored), `deny_verbose` against each argument from its start.
pub fn denied_by(cli: &Cli, args: &[String]) -> Option<String> {
    let joined = args.join(" ");
    let hit = cli
        .deny_args
        .iter()
        .find(|p| Regex::new(p).is_ok_and(|re| re.is_match(&joined)));
    if let Some(p) = hit {
        return Some(p.clone());
    }
    cli.deny_verbose
        .iter()
        .find(|p| {
            Regex::new(&format!("^(?:{p})")).is_ok_and(|re| args.iter().any(|a| re.is_match(a)))
        })
        .cloned()
}

/// The binary `name` resolves to on `path` (canonical), if any.
pub fn resolve(name: &str, path_var: &str, cwd: &Path) -> Option<PathBuf> {
    which::which_in(name, Some(path_var), cwd)
        .ok()
        .and_then(|p| std::fs::canonicalize(p).ok())
}

/// §6.7: the prompt's block on the CLIs an agent can use ("" when none).
pub fn prompt_context(clis: &[Cli]) -> String {
    if clis.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "## Credentialed CLI Tools\n\nThese CLIs are run with credentials injected automatically; call them with credentialed_exec, never with exec, and never ask for or print their credentials.\n\nDIRECT EXEC MODE: the command runs without a shell. No ;  &&  ||  |  >  >>  <  $()  `` and no $VAR or ${VAR}; one command per call; prefer JSON output and filter it yourself instead of piping to jq.\n\n",
    );
    for c in clis {
        out.push_str(&format!("**{}** — {}\n", c.binary_name, c.description));
        let blocked: Vec<String> = c
            .deny_args
            .iter()
            .map(|p| {
                p.replace(r"\s+", " ")
                    .replace(r"\s*", " ")
                    .replace(r"\b", "")
                    .replace(r"\w+", "*")
                    .trim()
                    .to_string()
            })
            .collect();
        if !blocked.is_empty() {
            out.push_str(&format!("  Blocked: {}\n", blocked.join(", ")));
        }
        if !c.tips.is_empty() {
            out.push_str(&format!("  Tip: {}\n", c.tips));
        }
    }
    out.push_str("\nWhen a command is blocked, do not try another way around the block: tell the user what you wanted to run and why, and let them run it or change the policy.\n");
    out
}

/// `credentialed_exec`.
pub struct CredentialedExec;

fn refused(for_llm: String, for_user: String) -> ToolResult {
    ToolResult {
        for_llm,
        for_user: Some(for_user),
        is_error: true,
        ..ToolResult::default()
    }
}

impl Tool for CredentialedExec {
    fn name(&self) -> &str {
        "credentialed_exec"
    }
    fn description(&self) -> &str {
        "Run a registered CLI (gh, aws, kubectl, …) with its credentials injected. Direct exec: no shell, no operators, one command per call."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "command":{"type":"string","description":"The CLI and its arguments, e.g. gh pr list --json title"}},
            "required":["command"]})
    }
    fn risk(&self) -> Risk {
        Risk::Dangerous
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        let raw = super::trimmed_arg(args, "command");
        if raw.is_empty() {
            return ToolResult::bad_args("command is required");
        }
        let ops = operators(raw);
        if !ops.is_empty() {
            return refused(
                format!(
                    "[CREDENTIALED EXEC] Shell operators not supported.\nDetected: {}\nThis CLI runs in Direct Exec Mode — no shell operators (;  &&  ||  |  >  <  $()  ``).\nRun the command without operators. Use --json or --format=json for structured output.",
                    ops.join(", ")
                ),
                "Command contains shell operators not supported in credentialed mode.".into(),
            );
        }
        let Some(words) = shlex::split(raw).filter(|w| !w.is_empty()) else {
            return ToolResult::error(
                "[CREDENTIALED EXEC] The command could not be parsed (an unclosed quote?).",
            );
        };
        let (binary, argv) = (&words[0], &words[1..]);
        match execute(ctx, store, binary, argv) {
            Ok(r) => r,
            Err(e) => ToolResult::from_error(&e),
        }
    }
}

fn execute(ctx: &CallContext, store: &Store, binary: &str, argv: &[String]) -> Result<ToolResult> {
    let Some((cli, sealed)) = lookup(store.db(), binary, ctx.agent.as_deref())? else {
        return Ok(ToolResult::error(format!(
            "[CREDENTIALED EXEC] {binary:?} is not a registered CLI. `goclaw secure-cli list` shows the registered ones; anything else runs with exec."
        )));
    };
    let path_var = std::env::var("PATH").unwrap_or_else(|_| "/usr/local/bin:/usr/bin:/bin".into());
    let resolved = resolve(binary, &path_var, &ctx.workspace);
    let problem = match &resolved {
        None => Some(format!("executable file not found in $PATH: {binary}")),
        Some(p) if p != Path::new(&cli.binary_path) => Some(format!(
            "binary path mismatch: resolved \"{}\" but config expects \"{}\"",
            p.display(),
            cli.binary_path
        )),
        Some(_) => None,
    };
    if let Some(err) = problem {
        return Ok(refused(
            format!(
                "[CREDENTIALED EXEC] Binary resolution failed.\nBinary: {binary}\nError: {err}\nThe binary may not be installed or the path doesn't match the configured path."
            ),
            format!("CLI binary \"{binary}\" not found or path mismatch."),
        ));
    }
    let args_text = argv.join(" ");
    if let Some(p) = denied_by(&cli, argv) {
        return Ok(refused(
            format!(
                "[CREDENTIALED EXEC] Command blocked by security policy.\nBinary: {binary}\nArgs: {args_text}\nMatched deny pattern: {p}\nThis operation requires admin approval and cannot be performed automatically."
            ),
            format!("Operation '{binary} {args_text}' is blocked by security policy."),
        ));
    }
    let env = crate::secrets::open_map(&ctx.secret_key()?, sealed.as_deref())?;
    let timeout = Duration::from_secs(if cli.timeout_secs == 0 {
        30
    } else {
        cli.timeout_secs
    });
    let var = |k: &str, default: &str| std::env::var(k).unwrap_or_else(|_| default.to_string());
    let mut cmd = std::process::Command::new(&cli.binary_path);
    cmd.args(argv)
        .current_dir(&ctx.workspace)
        .env_clear()
        .env("PATH", &path_var)
        .env("HOME", var("HOME", "/tmp"))
        .env("LANG", var("LANG", "en_US.UTF-8"))
        .env("USER", var("USER", "goclaw"))
        .envs(&env);
    let timeout = ctx.stop.cap(timeout);
    let outcome = run::run_command(cmd, timeout, OUTPUT_LIMIT, &ctx.stop)
        .map_err(|e| Error::failed(format!("cannot start {}: {e}", cli.binary_path)))?;
    if outcome.stopped.is_some() {
        return Ok(outcome.into_result(timeout));
    }
    if outcome.timed_out {
        let mut r = ToolResult::error(format!(
            "[CREDENTIALED EXEC] Command timed out after {}.\nBinary: {}",
            go_duration(timeout),
            cli.binary_path
        ));
        r.error_kind = Some(crate::error::ErrorKind::Timeout);
        return Ok(r);
    }
    let text = outcome.combined_text();
    let mut result = match outcome.code {
        Some(0) if text.is_empty() => ToolResult::silent("(command completed with no output)"),
        Some(0) => ToolResult::silent(text),
        code => {
            let code = code.unwrap_or(-1);
            refused(
                format!(
                    "[CREDENTIALED EXEC] Command failed (exit code {code}).\nBinary: {}\nArgs: {args_text}\nNote: This runs in Direct Exec Mode — shell operators are NOT supported.\nIf you used shell operators, remove them and try again.\n\n{text}",
                    cli.binary_path
                ),
                format!("Command failed with exit code {code}."),
            )
        }
    };
    result.secrets = env.into_values().map(String::into_bytes).collect();
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operator_is_found_quoted_or_not_once_each() {
        assert_eq!(operators("gh pr list; cat x"), vec![";"]);
        assert_eq!(operators("gh api x --jq '.[0] | .name'"), vec!["|"]);
        assert_eq!(operators("a && b || c & d"), vec!["&", "|"]);
        assert_eq!(
            operators("gh \"$(id)\" `id` ${HOME}"),
            vec!["$(", "`", "${"]
        );
        assert_eq!(operators("gh x > out < in"), vec![">", "<"]);
        assert_eq!(operators("gh x\nrm -rf /"), vec!["\\n"]);
        assert!(operators("gh pr list --json title,url").is_empty());
    }

    fn gh() -> Cli {
        let p = preset("gh").unwrap();
        Cli {
            binary_name: "gh".into(),
            binary_path: "/usr/bin/gh".into(),
            description: p.description.into(),
            env_keys: vec!["GH_TOKEN".into()],
            deny_args: p.deny_args.iter().map(|s| s.to_string()).collect(),
            deny_verbose: p.deny_verbose.iter().map(|s| s.to_string()).collect(),
            timeout_secs: p.timeout_secs,
            tips: p.tips.into(),
            agent: String::new(),
            enabled: true,
        }
    }

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn deny_patterns_match_as_documented() {
        let g = gh();
        assert_eq!(denied_by(&g, &words("auth token")), Some(r"auth\s+".into()));
        assert_eq!(
            denied_by(&g, &words("repo delete me/x")),
            Some(r"repo\s+delete".into())
        );
        assert_eq!(denied_by(&g, &words("pr list -v")), Some("-v".into()));
        assert_eq!(denied_by(&g, &words("pr list -vv")), Some("-v".into()));
        assert_eq!(
            denied_by(&g, &words("pr list --verbose")),
            Some("--verbose".into())
        );
        assert_eq!(denied_by(&g, &words("--version")), None, "not a -v");
        assert_eq!(denied_by(&g, &words("pr list --json title")), None);
    }

    #[test]
    fn the_prompt_block_summarises_deny_patterns() {
        let text = prompt_context(&[gh()]);
        assert!(text.starts_with("## Credentialed CLI Tools\n"));
        assert!(text.contains("**gh** — GitHub CLI\n  Blocked: auth, ssh-key, gpg-key, repo delete, secret\n  Tip: Use --json flag for structured output\n"), "{text}");
        assert_eq!(prompt_context(&[]), "");
    }
}
