//! Tool-loop detection of §16.8 (pure): the last 30 calls, each as a hash of its name and
//! canonical arguments and a hash of its result. Three rules, each with a warning and a stop
//! level: the same call with the same result (3 / 5), a streak of read-only calls (8 / 12; exec
//! neutral), the same tool returning the same result whatever its arguments (4 / 6).

use std::collections::VecDeque;

use serde_json::Value;

const WINDOW: usize = 30;
const MUTATING: &[&str] = &[
    "write_file",
    "edit",
    "edit_file",
    "spawn",
    "team_tasks",
    "message",
    "team_message",
    "create_image",
    "create_video",
    "create_audio",
    "tts",
    "cron",
    "publish_skill",
    "sessions_send",
    "delete_file",
    "move_file",
];
const NEUTRAL: &[&str] = &["exec", "bash"];

/// What the detector says after a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Fine,
    /// Tell the model (a user message).
    Warn(String),
    /// End the run with this final text.
    Stop(String),
}

#[derive(Default)]
pub struct LoopDetector {
    calls: VecDeque<(String, String, String)>, // (tool, args hash, result hash)
    read_only_streak: u32,
}

fn hash(text: &str) -> String {
    // sha256 is what the original uses; any stable hash serves the comparison.
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    format!("{:016x}", h.finish())
}

/// Canonical JSON: object keys sorted at every level.
fn canonical(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let inner: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::String((*k).clone()), canonical(&m[*k])))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

impl LoopDetector {
    /// Records a finished call and judges the run so far.
    pub fn record(&mut self, tool: &str, args: &Value, result: &str) -> Verdict {
        let args_hash = hash(&format!("{tool}:{}", canonical(args)));
        let result_hash = hash(result);
        if self.calls.len() == WINDOW {
            self.calls.pop_front();
        }
        self.calls
            .push_back((tool.to_string(), args_hash.clone(), result_hash.clone()));
        if MUTATING.contains(&tool) {
            self.read_only_streak = 0;
        } else if !NEUTRAL.contains(&tool) {
            self.read_only_streak += 1;
        }
        let same = self
            .calls
            .iter()
            .filter(|(_, a, r)| *a == args_hash && *r == result_hash)
            .count();
        let same_result = self
            .calls
            .iter()
            .filter(|(t, _, r)| t == tool && *r == result_hash)
            .count();
        let stuck = format!(
            "I was unable to complete this task — I got stuck repeatedly calling {tool} without making progress. Please try rephrasing your request."
        );
        if same >= 5 || same_result >= 6 || self.read_only_streak >= 12 {
            return Verdict::Stop(stuck);
        }
        if same >= 3 {
            return Verdict::Warn(format!(
                "[System: WARNING — {tool} has been called {same} times with the same arguments and identical results. You are not making progress: change your approach or respond to the user.]"
            ));
        }
        if same_result >= 4 {
            return Verdict::Warn(format!(
                "[System: WARNING — {tool} has returned the same result {same_result} times. You are not making progress: change your approach or respond to the user.]"
            ));
        }
        if self.read_only_streak >= 8 {
            return Verdict::Warn(format!(
                "[System: WARNING — {} read-only tool calls in a row without changing anything. Act on what you have found or respond to the user.]",
                self.read_only_streak
            ));
        }
        Verdict::Fine
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn same_call_same_result_warns_then_stops() {
        let mut d = LoopDetector::default();
        let v: Vec<Verdict> = (0..5)
            .map(|_| d.record("read_file", &json!({"b": 1, "a": 2}), "x"))
            .collect();
        assert_eq!(v[1], Verdict::Fine);
        assert!(matches!(v[2], Verdict::Warn(_)));
        assert!(
            matches!(&v[4], Verdict::Stop(s) if s.contains("stuck repeatedly calling read_file"))
        );
    }

    #[test]
    fn key_order_does_not_matter_and_writes_reset_the_streak() {
        assert_eq!(
            canonical(&json!({"b":1,"a":[{"d":1,"c":2}]})),
            canonical(&json!({"a":[{"c":2,"d":1}],"b":1}))
        );
        let mut d = LoopDetector::default();
        for i in 0..7 {
            assert_eq!(
                d.record("search", &json!({"q": i}), &format!("r{i}")),
                Verdict::Fine
            );
        }
        assert_eq!(d.record("write_file", &json!({}), "ok"), Verdict::Fine);
        for i in 0..7 {
            assert_eq!(
                d.record("glob", &json!({"q": i}), &format!("g{i}")),
                Verdict::Fine
            );
        }
        assert!(matches!(
            d.record("glob", &json!({"q": 99}), "g99"),
            Verdict::Warn(_)
        ));
    }
}
