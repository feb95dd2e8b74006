//! A call as the gate receives it: the tool, its arguments (in either shape seed 004 allows,
//! normalised here), who calls and for what, and the limits it runs under.

use serde_json::{Map, Value};

/// Most parameters one call may carry (seed 004).
pub const MAX_PARAMS: usize = 1000;
/// What to do when an approval is needed and nobody can be asked at a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnAsk {
    /// Refuse the call (exit 3).
    #[default]
    Deny,
    /// Return a tool error saying approval was required (exit 1).
    Fail,
    /// Run it.
    Allow,
    /// Park the request in the store and wait for `goclaw approvals answer` (for the given time,
    /// else `[tools.exec] approval_timeout_secs`); denied when nobody answers in time.
    Wait(Option<std::time::Duration>),
}

impl OnAsk {
    /// `deny`, `fail`, `allow`, `wait` or `wait:DUR` (90s, 5m, 1h…), as `--on-ask` takes it.
    pub fn parse(text: &str) -> Result<OnAsk, String> {
        match text.trim() {
            "deny" => Ok(OnAsk::Deny),
            "fail" => Ok(OnAsk::Fail),
            "allow" => Ok(OnAsk::Allow),
            "wait" => Ok(OnAsk::Wait(None)),
            other => match other.strip_prefix("wait:") {
                Some(d) => humantime::parse_duration(d.trim())
                    .ok()
                    .filter(|d| !d.is_zero() && d.as_secs() < 10 * 365 * 86_400)
                    .map(|d| OnAsk::Wait(Some(d)))
                    .ok_or_else(|| format!("`{d}` is not a duration (90s, 5m, 1h)")),
                None => Err(format!(
                    "`{other}`: expected deny, fail, allow, wait or wait:DURATION"
                )),
            },
        }
    }

    /// As `--on-ask` takes it (for a child goclaw).
    pub fn arg(self) -> String {
        match self {
            OnAsk::Wait(Some(d)) => format!("wait:{}ms", d.as_millis()),
            other => other.name().to_string(),
        }
    }

    /// Its name in a decision record.
    pub fn name(self) -> &'static str {
        match self {
            OnAsk::Deny => "deny",
            OnAsk::Fail => "fail",
            OnAsk::Allow => "allow",
            OnAsk::Wait(_) => "wait",
        }
    }
}

/// One call.
#[derive(Debug, Clone, Default)]
pub struct CallRequest {
    pub tool: String,
    pub args: Value,
    pub agent: Option<String>,
    pub user: Option<String>,
    pub session_key: Option<String>,
    pub channel: Option<String>,
    pub chat_id: Option<String>,
    pub peer_kind: Option<String>,
    pub provider: Option<String>,
    pub dry_run: bool,
    pub on_ask: OnAsk,
    /// When the call must stop early (the caller's deadline, a signal).
    pub stop: crate::tools::StopWhen,
    /// Further limits on the caller's tool list (a chat group's, a subagent's).
    pub scope: Scope,
    /// The run the call is made in, when an agent run makes it.
    pub run: Option<RunLink>,
}

/// Where a run's events go beyond its own sink: the lines of its children's `--events`, relayed
/// as they come (set when the run itself shows events).
pub trait Relay: Send + Sync + std::fmt::Debug {
    /// One JSON line of a child's events.
    fn line(&self, line: &str);
    /// A child's stream opened (`true`) or ended (`false`).
    fn stream(&self, open: bool);
    /// Waits (at most `timeout`) until every child's stream has ended, so a parent's last
    /// event comes after its children's.
    fn drain(&self, timeout: std::time::Duration);
}

/// A relay shared with the tool threads that start children.
pub type SharedRelay = std::sync::Arc<dyn Relay>;

/// The run a call is made in: what a tool that starts other runs (`spawn`) needs of it.
#[derive(Debug, Clone, Default)]
pub struct RunLink {
    pub run_id: String,
    /// The run that started this one, for a subagent.
    pub parent_run_id: Option<String>,
    /// 0 for a top-level run, 1 for its children, …
    pub depth: u32,
    /// The provider and model the run uses (a child uses the same unless told otherwise).
    pub provider: String,
    pub model: String,
    /// The run's iteration budget.
    pub max_iterations: u32,
    /// Where its children's events go, when the run shows events.
    pub relay: Option<SharedRelay>,
    /// Its children outlive it (`run --detach-children`): it neither waits for them nor
    /// cancels them, and they do not end with its process.
    pub detach_children: bool,
    /// The team the run works for, and the id of the task it works on: the team tools' default
    /// team and task.
    pub team: Option<String>,
    pub task_id: Option<String>,
}

/// The policy inputs of a call beyond its agent and provider: the chat group's and the
/// request's allow lists (step 7) and the subagent and leaf deny lists (steps 12–13).
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub group_allow: Vec<String>,
    pub request_allow: Vec<String>,
    pub subagent: bool,
    pub leaf: bool,
}

/// Accepts both argument shapes of seed 004: `{"name": T, "params": {…}}` and flat (where a
/// `name` equal to the tool's is dropped). More than [`MAX_PARAMS`] parameters are refused.
pub fn normalise(tool: &str, args: &Value) -> std::result::Result<Map<String, Value>, String> {
    let obj = match args {
        Value::Null => return Ok(Map::new()),
        Value::Object(o) => o,
        other => {
            return Err(format!(
                "arguments must be a JSON object, not {}",
                json_type(other)
            ));
        }
    };
    let inner = match (obj.get("name"), obj.get("params")) {
        (Some(Value::String(n)), Some(Value::Object(p))) if obj.len() == 2 => {
            if crate::policy::canonical(n) != crate::policy::canonical(tool)
                && !n.eq_ignore_ascii_case(tool)
            {
                return Err(format!(
                    "the arguments name tool `{n}` but the call is for `{tool}`"
                ));
            }
            p.clone()
        }
        (Some(Value::String(n)), _) if n == tool => {
            let mut o = obj.clone();
            o.remove("name");
            o
        }
        _ => obj.clone(),
    };
    if inner.len() > MAX_PARAMS {
        return Err(format!(
            "too many parameters: {} (at most {MAX_PARAMS})",
            inner.len()
        ));
    }
    Ok(inner)
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_argument_shapes() {
        let flat = normalise("exec", &json!({"command": "ls"})).unwrap();
        let nested = normalise(
            "exec",
            &json!({"name": "exec", "params": {"command": "ls"}}),
        )
        .unwrap();
        let named = normalise("exec", &json!({"name": "exec", "command": "ls"})).unwrap();
        let alias = normalise(
            "exec",
            &json!({"name": "bash", "params": {"command": "ls"}}),
        )
        .unwrap();
        assert_eq!(flat, nested);
        assert_eq!(flat, named);
        assert_eq!(flat, alias);
        assert!(normalise("exec", &json!({"name": "read_file", "params": {}})).is_err());
        assert!(normalise("exec", &json!([1])).is_err());
        let many: Map<String, Value> = (0..1001).map(|i| (format!("k{i}"), json!(i))).collect();
        assert!(
            normalise("exec", &Value::Object(many))
                .unwrap_err()
                .contains("too many")
        );
    }
}
