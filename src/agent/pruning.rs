//! Context pruning (reference §16.5, seed 002 §6): before a run, old tool results in the
//! session's history are trimmed (pass 1: head and tail of each long one) and then cleared
//! (pass 2: a placeholder), while the history is above a share of the context window. Off by
//! default, as in the original (`mode = "cache-ttl"` turns it on). The protected zone is never
//! touched: everything before the first user message, and the last `keep_last_assistants`
//! assistant messages and what follows them. Only the messages sent are pruned; the session
//! keeps the whole results.

use serde::{Deserialize, Serialize};

use crate::providers::{Message, Role};

/// The placeholder of a cleared result.
pub const CLEARED: &str = "[Old tool result content cleared]";
/// Characters per token, for the ratio.
const CHARS_PER_TOKEN: u64 = 4;

/// `[agents.KEY.context_pruning]`, with the original's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PruningConfig {
    /// `off` (the default) or `cache-ttl` (on).
    pub mode: String,
    pub keep_last_assistants: usize,
    pub soft_trim_ratio: f64,
    pub hard_clear_ratio: f64,
    pub min_prunable_tool_chars: usize,
    pub soft_trim_max_chars: usize,
    pub head_chars: usize,
    pub tail_chars: usize,
    pub hard_clear: bool,
}

impl Default for PruningConfig {
    fn default() -> Self {
        PruningConfig {
            mode: "off".into(),
            keep_last_assistants: 3,
            soft_trim_ratio: 0.3,
            hard_clear_ratio: 0.5,
            min_prunable_tool_chars: 50_000,
            soft_trim_max_chars: 4000,
            head_chars: 1500,
            tail_chars: 1500,
            hard_clear: true,
        }
    }
}

impl PruningConfig {
    /// Why the settings cannot work, if they cannot.
    pub fn problem(&self) -> Option<String> {
        if !["off", "cache-ttl"].contains(&self.mode.as_str()) {
            return Some(format!(
                "context_pruning.mode `{}`: expected off or cache-ttl",
                self.mode
            ));
        }
        let ratio = |r: f64| r > 0.0 && r <= 1.0;
        if !ratio(self.soft_trim_ratio) || !ratio(self.hard_clear_ratio) {
            return Some("context_pruning ratios must be above 0 and at most 1".into());
        }
        if self.head_chars + self.tail_chars >= self.soft_trim_max_chars {
            return Some(
                "context_pruning: head_chars + tail_chars must be less than soft_trim_max_chars (a trim must make a result shorter)".into(),
            );
        }
        None
    }
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// `msgs` (history only) pruned for a context window of `window` tokens; how many results
/// were trimmed and cleared.
pub fn prune(msgs: &mut [Message], window: u64, c: &PruningConfig) -> (usize, usize) {
    if c.mode != "cache-ttl" || window == 0 || msgs.is_empty() {
        return (0, 0);
    }
    let char_window = (window * CHARS_PER_TOKEN) as f64;
    let cutoff = if c.keep_last_assistants == 0 {
        msgs.len()
    } else {
        let assistants: Vec<usize> = msgs
            .iter()
            .enumerate()
            .filter(|(_, m)| m.role == Role::Assistant)
            .map(|(i, _)| i)
            .collect();
        match assistants.len().checked_sub(c.keep_last_assistants) {
            Some(k) => assistants[k],
            None => return (0, 0),
        }
    };
    let start = msgs
        .iter()
        .position(|m| m.role == Role::User)
        .unwrap_or(msgs.len());
    let mut total: usize = msgs.iter().map(|m| chars(&m.content)).sum();
    if (total as f64) / char_window < c.soft_trim_ratio {
        return (0, 0);
    }
    let prunable: Vec<usize> = (start..cutoff.max(start))
        .filter(|&i| msgs[i].role == Role::Tool && !msgs[i].content.is_empty())
        .collect();
    let mut trimmed = 0;
    for &i in &prunable {
        let len = chars(&msgs[i].content);
        if len <= c.soft_trim_max_chars {
            continue;
        }
        let head: String = msgs[i].content.chars().take(c.head_chars).collect();
        let tail: String = msgs[i]
            .content
            .chars()
            .skip(len.saturating_sub(c.tail_chars))
            .collect();
        let text = format!(
            "{head}\n...\n{tail}\n\n[Tool result trimmed: kept first {} chars and last {} chars of {len} chars.]",
            c.head_chars, c.tail_chars
        );
        total = total - len + chars(&text);
        msgs[i].content = text;
        trimmed += 1;
    }
    if (total as f64) / char_window < c.hard_clear_ratio || !c.hard_clear {
        return (trimmed, 0);
    }
    let prunable_chars: usize = prunable.iter().map(|&i| chars(&msgs[i].content)).sum();
    if prunable_chars < c.min_prunable_tool_chars {
        return (trimmed, 0);
    }
    let mut cleared = 0;
    for &i in &prunable {
        if (total as f64) / char_window < c.hard_clear_ratio {
            break;
        }
        total = total - chars(&msgs[i].content) + chars(CLEARED);
        msgs[i].content = CLEARED.to_string();
        cleared += 1;
    }
    (trimmed, cleared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(n: usize) -> Message {
        let mut m = Message::new(Role::Tool, "x".repeat(n));
        m.tool_call_id = Some("c".into());
        m
    }

    fn history() -> Vec<Message> {
        let mut v = vec![
            tool(9000), // before the first user message: protected
            Message::new(Role::User, "go"),
        ];
        for _ in 0..4 {
            v.push(Message::new(Role::Assistant, "calling"));
            v.push(tool(30_000));
        }
        v.push(Message::new(Role::Assistant, "done"));
        v
    }

    #[test]
    fn off_by_default() {
        let mut h = history();
        assert_eq!(prune(&mut h, 1000, &PruningConfig::default()), (0, 0));
        assert_eq!(h[3].content.len(), 30_000);
    }

    #[test]
    fn trims_then_clears_outside_the_protected_zone() {
        let on = PruningConfig {
            mode: "cache-ttl".into(),
            ..Default::default()
        };
        // A big window: under the soft ratio, nothing happens.
        let mut h = history();
        assert_eq!(prune(&mut h, 1_000_000, &on), (0, 0));
        // 129 000 chars in a window of 100 000 chars: both passes, when what is left to clear
        // after the trim is enough (min_prunable_tool_chars).
        let mut h = history();
        let clears = PruningConfig {
            min_prunable_tool_chars: 1000,
            ..on.clone()
        };
        let (trimmed, cleared) = prune(&mut h, 25_000, &clears);
        // The last 3 assistants and what follows them are protected: results 3 and 5 only.
        assert_eq!(trimmed, 2);
        assert_eq!(cleared, 2);
        assert_eq!(h[0].content.len(), 9000);
        assert_eq!(h[3].content, CLEARED);
        assert_eq!(h[9].content.len(), 30_000);
        assert_eq!(h[3].tool_call_id.as_deref(), Some("c"));
        // With the default minimum, the trimmed results are too small to clear.
        let mut h = history();
        assert_eq!(prune(&mut h, 25_000, &on), (2, 0));
        // Trim only, when hard clear is off.
        let soft = PruningConfig {
            hard_clear: false,
            ..on.clone()
        };
        let mut h = history();
        assert_eq!(prune(&mut h, 25_000, &soft), (2, 0));
        assert!(h[3].content.contains(
            "[Tool result trimmed: kept first 1500 chars and last 1500 chars of 30000 chars.]"
        ));
        assert!(on.problem().is_none());
        assert!(
            PruningConfig {
                mode: "always".into(),
                ..on.clone()
            }
            .problem()
            .is_some()
        );
        let longer = PruningConfig {
            head_chars: 3000,
            tail_chars: 3000,
            ..on
        };
        assert!(longer.problem().is_some());
    }
}
