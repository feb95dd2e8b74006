//! The history pipeline of §16.6 (pure): `limit_history_turns`, then `sanitize_history`, which
//! repairs tool-call pairing (orphan results dropped, duplicate ids renamed, missing results
//! synthesized), and `uniquify_tool_call_ids` for each model response. Context pruning (§16.5)
//! is off unless mode `cache-ttl`, which goclaw does not configure, so it is not applied.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::providers::{Message, Role, ToolCall};

/// The placeholder for a tool result the history lost.
pub const MISSING_RESULT: &str = "[Tool result missing — session was compacted]";

/// Keeps the last `limit` user turns (from the limit-th last user message on); `limit` 0 keeps
/// everything.
pub fn limit_history_turns(mut msgs: Vec<Message>, limit: usize) -> Vec<Message> {
    if limit == 0 || msgs.is_empty() {
        return msgs;
    }
    let mut users = 0;
    for i in (0..msgs.len()).rev() {
        if msgs[i].role == Role::User {
            users += 1;
            if users == limit {
                return msgs.split_off(i);
            }
        }
    }
    msgs
}

/// Repairs tool-call pairing; returns the messages and how many changes were made (drops and
/// synthesized results; renames are not counted, as in the original).
pub fn sanitize_history(msgs: Vec<Message>) -> (Vec<Message>, usize) {
    let mut changed = 0;
    let mut out = Vec::with_capacity(msgs.len());
    let mut seen: HashSet<String> = HashSet::new();
    let mut msgs = msgs.into_iter().peekable();
    while msgs.peek().is_some_and(|m| m.role == Role::Tool) {
        msgs.next();
        changed += 1;
    }
    while let Some(m) = msgs.next() {
        if m.role == Role::Tool {
            changed += 1; // a result with no call before it
            continue;
        }
        if m.role != Role::Assistant || m.tool_calls.is_empty() {
            out.push(m);
            continue;
        }
        let mut assistant = m;
        let mut queues: HashMap<String, VecDeque<String>> = HashMap::new();
        let mut pending: Vec<(String, String)> = Vec::new(); // (new id, tool name)
        for (j, call) in assistant.tool_calls.iter_mut().enumerate() {
            let original = call.id.clone();
            if seen.contains(&original) {
                call.id = format!("{original}_dedup_{j}");
            }
            seen.insert(call.id.clone());
            queues
                .entry(original)
                .or_default()
                .push_back(call.id.clone());
            pending.push((call.id.clone(), call.name.clone()));
        }
        out.push(assistant);
        while let Some(mut result) = msgs.next_if(|m| m.role == Role::Tool) {
            let key = result.tool_call_id.clone().unwrap_or_default();
            match queues.get_mut(&key).and_then(VecDeque::pop_front) {
                Some(new_id) => {
                    pending.retain(|(id, _)| *id != new_id);
                    result.tool_call_id = Some(new_id);
                    out.push(result);
                }
                None => changed += 1,
            }
        }
        for (id, name) in pending {
            let call = ToolCall {
                id,
                name,
                arguments: serde_json::Value::Null,
            };
            out.push(Message::tool_result(&call, MISSING_RESULT));
            changed += 1;
        }
    }
    (out, changed)
}

/// Makes a response's call ids unique to this run and iteration (§16.6).
pub fn uniquify_tool_call_ids(calls: &mut [ToolCall], run_id: &str, iteration: u32) {
    let short: String = run_id.chars().take(8).collect();
    for (i, call) in calls.iter_mut().enumerate() {
        call.id = if call.id.is_empty() {
            format!("call_{short}_{iteration}_{i}")
        } else {
            format!("{}_{short}_{iteration}_{i}", call.id)
        };
    }
}

/// The token estimate of §16.6: runes / 3 per message.
pub fn estimate_tokens(msgs: &[Message]) -> u64 {
    msgs.iter()
        .map(|m| (m.content.chars().count() / 3) as u64)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(s: &str) -> Message {
        Message::new(Role::User, s)
    }
    fn call(id: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: "t".into(),
            arguments: serde_json::json!({}),
        }
    }
    fn asking(ids: &[&str]) -> Message {
        Message::asking("", ids.iter().map(|i| call(i)).collect())
    }

    #[test]
    fn limits_user_turns() {
        let msgs = vec![
            Message::new(Role::Assistant, "lead"),
            user("1"),
            Message::new(Role::Assistant, "a1"),
            user("2"),
            Message::new(Role::Assistant, "a2"),
        ];
        assert_eq!(limit_history_turns(msgs.clone(), 1)[0].content, "2");
        assert_eq!(limit_history_turns(msgs.clone(), 2)[0].content, "1");
        assert_eq!(limit_history_turns(msgs.clone(), 5).len(), 5);
        assert_eq!(limit_history_turns(msgs.clone(), 0).len(), 5);
    }

    #[test]
    fn repairs_pairing() {
        let msgs = vec![
            Message::tool_result(&call("x"), "orphan at the start"),
            user("hi"),
            asking(&["a", "b"]),
            Message::tool_result(&call("a"), "ra"),
            Message::tool_result(&call("zzz"), "answers nothing"),
            user("again"),
            asking(&["a"]),
            Message::tool_result(&call("a"), "ra2"),
            Message::tool_result(&call("q"), "stray"),
        ];
        let (out, changed) = sanitize_history(msgs);
        // dropped: leading orphan, "zzz", "q"; synthesized: b
        assert_eq!(changed, 4);
        assert_eq!(out[0].content, "hi");
        assert_eq!(out[3].tool_call_id.as_deref(), Some("b"));
        assert_eq!(out[3].content, MISSING_RESULT);
        assert_eq!(out[5].tool_calls[0].id, "a_dedup_0");
        assert_eq!(out[6].tool_call_id.as_deref(), Some("a_dedup_0"));
        assert_eq!(out.len(), 7);
        let (again, n) = sanitize_history(out.clone());
        assert_eq!(n, 0);
        assert_eq!(again, out);
    }

    #[test]
    fn ids_made_unique() {
        let mut calls = vec![call(""), call("toolu_1")];
        uniquify_tool_call_ids(&mut calls, "0193abcd-ef", 3);
        assert_eq!(calls[0].id, "call_0193abcd_3_0");
        assert_eq!(calls[1].id, "toolu_1_0193abcd_3_1");
    }
}
