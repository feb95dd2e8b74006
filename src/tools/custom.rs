//! Custom tools (seed 000 §11, reference §7): shell command templates registered with
//! `goclaw tools add`, global or for one agent, that appear in the registry, the policy,
//! `tools list` and agent runs like built-ins.
//!
//! A call renders the template: every `{{.key}}` whose key is an argument becomes the value,
//! shell-escaped in single quotes (`it's` → `'it'\''s'`), so quotes, `$()`, backticks and
//! newlines arrive literally. Where goclaw differs from the original: the template is rendered
//! in one pass (a value that contains `{{.other}}` is never substituted again), numbers keep
//! their JSON spelling, arrays and objects are passed as JSON and null as an empty string (the
//! original used Go's `[a b]`, `map[k:v]` and `<nil>`). The rendered command then meets all 15
//! exec deny groups (no overrides) and the protected paths, and runs like `exec` does: `sh -c`
//! in the agent's sandbox, in its own process group, with the tool's time limit (default 60 s),
//! in `working_dir` (relative to the workspace and contained in it; absolute as registered), with
//! the tool's sealed variables added to the environment.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::exec::{self, OUTPUT_LIMIT, run, sandbox};
use super::{CallContext, Review, Risk, Tool, ToolResult};
use crate::db_params;
use crate::error::{Error, Result};
use crate::secrets::SecretKey;
use crate::store::Store;
use crate::store::db::Db;
use crate::store::now_ms;

/// A definition, as `goclaw tools add` reads it (seed 000 §11's JSON, plus `env`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Definition {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "empty_schema")]
    pub parameters: Value,
    pub command: String,
    #[serde(default)]
    pub working_dir: String,
    #[serde(default = "default_timeout")]
    pub timeout_seconds: u64,
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Variables added to the command's environment; sealed at rest, never listed.
    #[serde(default, skip_serializing)]
    pub env: BTreeMap<String, String>,
    /// Only for this agent (default: every agent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
}

fn empty_schema() -> Value {
    json!({"type":"object","properties":{}})
}
fn default_timeout() -> u64 {
    60
}
fn yes() -> bool {
    true
}

/// A registered tool as listed: the definition without its values, and the names of its
/// variables.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Listed {
    #[serde(flatten)]
    pub definition: Definition,
    pub env_keys: Vec<String>,
}

/// Checks a definition before it is stored.
/// The denial the command meets as written, before any argument is put in (placeholders left
/// as they are): a definition that meets one is refused at every call whose arguments do not
/// change what matched, which is almost every call (`dig {{.domain}}`).
pub fn denied_as_written(d: &Definition) -> Option<exec::Denial> {
    let command = render(&d.command, &Map::new());
    exec::denial(&exec::deny_texts(&command), &BTreeMap::new(), &[])
}

pub fn validate(d: &Definition, builtin: &[String]) -> Result<()> {
    if !super::valid_tool_name(&d.name) {
        return Err(Error::usage(format!(
            "tool name {:?}: use 1 to 64 letters, digits, _ or - (what LLM APIs accept)",
            d.name
        )));
    }
    if builtin.iter().any(|b| b == &d.name) {
        return Err(Error::conflict(format!(
            "{} is a built-in tool; a custom tool cannot replace it",
            d.name
        )));
    }
    if d.command.trim().is_empty() {
        return Err(Error::usage("command is empty"));
    }
    if d.parameters.get("type").and_then(Value::as_str) != Some("object") {
        return Err(Error::usage(
            "parameters must be a JSON schema of type \"object\"",
        ));
    }
    // A schema that does not compile would refuse every call; refused here instead.
    super::schema::validator(&d.parameters)
        .map_err(|e| Error::usage(format!("parameters are not a usable JSON Schema: {e}")))?;
    quoting_is_safe(&d.command).map_err(Error::usage)
}

/// A placeholder becomes its value in single quotes, which is safe only where the shell reads
/// a plain word: not inside double quotes (`"hello {{.who}}"` would run `$(…)` from the value),
/// single quotes (the value's quotes would close them), backticks or `$(…)`. Such a template is
/// refused; write the placeholder outside the quotes (`echo hello {{.who}}`).
pub fn quoting_is_safe(template: &str) -> std::result::Result<(), String> {
    let Some(re) = PLACEHOLDER.as_ref() else {
        return Err("the placeholder pattern did not compile".into());
    };
    let bytes = template.as_bytes();
    for m in re.find_iter(template) {
        let (mut single, mut double, mut back, mut subst) = (false, false, false, 0usize);
        let mut i = 0;
        while i < m.start() {
            match bytes[i] {
                b'\\' if !single => i += 1,
                b'\'' if !double => single = !single,
                b'"' if !single => double = !double,
                b'`' if !single => back = !back,
                b'$' if !single && bytes.get(i + 1) == Some(&b'(') => {
                    subst += 1;
                    i += 1;
                }
                b')' if !single && !double && subst > 0 => subst -= 1,
                _ => {}
            }
            i += 1;
        }
        if single || double || back || subst > 0 {
            return Err(format!(
                "command template: the placeholder {} stands inside quotes, backticks or $(…), where its value cannot be quoted safely; put it outside them (e.g. echo hello {})",
                m.as_str(),
                m.as_str()
            ));
        }
    }
    Ok(())
}

/// Stores (or replaces) a definition, its variables sealed with `key`.
pub fn add(db: Db<'_>, key: &SecretKey, d: &Definition) -> Result<()> {
    let sealed = crate::secrets::seal_map(key, &d.env)?;
    db.execute(
        "INSERT INTO custom_tools (name, description, parameters, command, working_dir,
             timeout_secs, env, env_keys, agent, enabled, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)
         ON CONFLICT (name, agent) DO UPDATE SET description = excluded.description,
             parameters = excluded.parameters, command = excluded.command,
             working_dir = excluded.working_dir, timeout_secs = excluded.timeout_secs,
             env = excluded.env, env_keys = excluded.env_keys, enabled = excluded.enabled,
             updated_at = excluded.updated_at",
        db_params![
            d.name,
            d.description,
            d.parameters.to_string(),
            d.command,
            d.working_dir,
            d.timeout_seconds as i64,
            sealed,
            crate::secrets::names_json(&d.env),
            d.agent.clone().unwrap_or_default(),
            d.enabled,
            now_ms()
        ],
    )?;
    Ok(())
}

/// Removes a tool; false when there was none.
pub fn remove(db: Db<'_>, name: &str, agent: Option<&str>) -> Result<bool> {
    db.execute(
        "DELETE FROM custom_tools WHERE name = ?1 AND agent = ?2",
        db_params![name, agent.unwrap_or("")],
    )
    .map(|n| n > 0)
}

/// One stored tool and its sealed variables.
struct Row {
    definition: Definition,
    env_keys: Vec<String>,
    sealed: Option<Vec<u8>>,
}

/// Every row (`visible_to` None), or the enabled rows `visible_to` an agent ("" for none):
/// global ones and its own.
fn rows(db: Db<'_>, visible_to: Option<&str>) -> Result<Vec<Row>> {
    db.query_map(
        "SELECT name, description, parameters, command, working_dir, timeout_secs, enabled,
                agent, env_keys, env
         FROM custom_tools
         WHERE CAST(?1 AS TEXT) IS NULL OR (enabled = 1 AND (agent = '' OR agent = ?1))
         ORDER BY name, agent",
        db_params![visible_to],
        |r| {
            let agent: String = r.get(7)?;
            Ok(Row {
                definition: Definition {
                    name: r.get(0)?,
                    description: r.get(1)?,
                    parameters: serde_json::from_str(&r.get::<String>(2)?)
                        .ok()
                        .filter(|v: &Value| v.is_object())
                        .unwrap_or_else(empty_schema),
                    command: r.get(3)?,
                    working_dir: r.get(4)?,
                    timeout_seconds: r.get::<i64>(5)?.max(0) as u64,
                    enabled: r.get(6)?,
                    env: BTreeMap::new(),
                    agent: (!agent.is_empty()).then_some(agent),
                },
                env_keys: serde_json::from_str(&r.get::<String>(8)?).unwrap_or_default(),
                sealed: r.get(9)?,
            })
        },
    )
}

/// Every registered tool.
pub fn list(db: Db<'_>) -> Result<Vec<Listed>> {
    Ok(rows(db, None)?
        .into_iter()
        .map(|r| Listed {
            definition: r.definition,
            env_keys: r.env_keys,
        })
        .collect())
}

/// The enabled tools `agent` sees: the global ones, with the agent's own replacing a global
/// one of the same name.
pub fn for_agent(db: Db<'_>, agent: Option<&str>) -> Result<Vec<CustomTool>> {
    let visible = rows(db, Some(agent.unwrap_or("")))?;
    Ok(super::own_over_global(
        visible,
        |r| &r.definition.name,
        |r| r.definition.agent.is_some(),
    )
    .into_iter()
    .map(|r| CustomTool {
        definition: r.definition,
        sealed: r.sealed,
    })
    .collect())
}

/// Single-quotes `s` for `sh` (§7 shellEscape).
pub fn shell_escape(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// An argument as the text put into the command.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

static PLACEHOLDER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\{\{\.([A-Za-z0-9_-]+)\}\}").ok());

/// The command with every `{{.key}}` of a given argument replaced, in one pass.
pub fn render(template: &str, args: &Map<String, Value>) -> String {
    let Some(re) = PLACEHOLDER.as_ref() else {
        return template.to_string();
    };
    re.replace_all(template, |c: &regex::Captures| match args.get(&c[1]) {
        Some(v) => shell_escape(&text_of(v)),
        None => c[0].to_string(),
    })
    .into_owned()
}

/// A registered tool, ready to run.
pub struct CustomTool {
    pub definition: Definition,
    sealed: Option<Vec<u8>>,
}

impl Tool for CustomTool {
    fn name(&self) -> &str {
        &self.definition.name
    }
    fn description(&self) -> &str {
        &self.definition.description
    }
    fn parameters(&self) -> Value {
        self.definition.parameters.clone()
    }
    fn risk(&self) -> Risk {
        Risk::Dangerous
    }
    fn review(&self, ctx: &CallContext, args: &Map<String, Value>) -> Review {
        // A definition stored before templates were checked is refused the same way.
        if let Err(message) = quoting_is_safe(&self.definition.command) {
            return Review::Deny(exec::Denial {
                group: "custom_tool_template".into(),
                pattern: self.definition.command.clone(),
                message,
            });
        }
        let command = render(&self.definition.command, args);
        match exec::denial(
            &exec::deny_texts(&command),
            &BTreeMap::new(),
            &ctx.exec.denied_paths,
        ) {
            Some(d) => Review::Deny(d),
            None => Review::Allow,
        }
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        let command = render(&self.definition.command, args);
        let dir = &self.definition.working_dir;
        let cwd = if Path::new(dir).is_absolute() {
            Ok(Path::new(dir).to_path_buf())
        } else {
            exec::contained_dir(ctx, dir)
        };
        let cwd = match cwd {
            Ok(c) => c,
            Err(e) => return ToolResult::error(e),
        };
        let env = match ctx
            .secret_key()
            .and_then(|key| crate::secrets::open_map(&key, self.sealed.as_deref()))
        {
            Ok(e) => e,
            Err(e) => return ToolResult::from_error(&e),
        };
        let plan = match sandbox::plan_to_run(ctx) {
            Ok(p) => p,
            Err(e) => {
                return ToolResult::error(format!(
                    "sandbox unavailable: {e} (will not fall back to unsandboxed host execution)"
                ));
            }
        };
        let secs = match self.definition.timeout_seconds {
            0 => 60,
            s => s,
        };
        let timeout = ctx.stop.cap(Duration::from_secs(secs));
        let outcome = match run::run(
            &command,
            &cwd,
            &env,
            timeout,
            OUTPUT_LIMIT,
            &plan,
            &ctx.stop,
        ) {
            Ok(o) => o,
            Err(e) => return ToolResult::error(format!("cannot start the command: {e}")),
        };
        let mut result = outcome.into_result(timeout);
        result.secrets = env.into_values().map(String::into_bytes).collect();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_escaped_and_rendered_once() {
        let args: Map<String, Value> = serde_json::from_value(json!({
            "a": "it's $(id) `id`\nnext", "n": 5, "f": 1.5, "b": true, "z": null,
            "arr": [1, "x"], "sneaky": "{{.a}}"}))
        .unwrap();
        assert_eq!(shell_escape("it's"), r"'it'\''s'");
        assert_eq!(shell_escape(""), "''");
        assert_eq!(
            render(
                "echo {{.a}} {{.n}} {{.f}} {{.b}} {{.z}} {{.missing}}",
                &args
            ),
            "echo 'it'\\''s $(id) `id`\nnext' '5' '1.5' 'true' '' {{.missing}}"
        );
        assert_eq!(render("x {{.arr}}", &args), r#"x '[1,"x"]'"#);
        assert_eq!(render("x {{.sneaky}}", &args), "x '{{.a}}'", "one pass");
    }

    #[test]
    fn definitions_are_checked() {
        let d = |name: &str, params: Value| Definition {
            name: name.into(),
            description: String::new(),
            parameters: params,
            command: "true".into(),
            working_dir: String::new(),
            timeout_seconds: 60,
            enabled: true,
            env: BTreeMap::new(),
            agent: None,
        };
        let builtin = vec!["exec".to_string()];
        assert!(validate(&d("dns_lookup", empty_schema()), &builtin).is_ok());
        assert!(validate(&d("exec", empty_schema()), &builtin).is_err());
        assert!(validate(&d("bad name", empty_schema()), &builtin).is_err());
        assert!(validate(&d("x", json!({"type":"array"})), &builtin).is_err());
    }
}
