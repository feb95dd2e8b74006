//! A record for people: `key  value` lines, keys aligned, nested objects flattened with dots
//! (`blocker_escalation.enabled`), lists inline or one item a line, `*_at` times in RFC 3339.
//! What `--human` (or a terminal) gets from record commands that have no layout of their own.

use serde_json::Value;

/// `value` as aligned lines (a bare scalar as itself).
pub fn fields(value: &Value) -> String {
    let mut rows = Vec::new();
    match value {
        Value::Object(_) => flatten("", value, &mut rows),
        other => return scalar("", other),
    }
    let width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for (key, text) in rows {
        let pad = width - key.chars().count();
        let line = format!("{key}{}  {text}", " ".repeat(pad));
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.pop();
    out
}

fn flatten(prefix: &str, value: &Value, rows: &mut Vec<(String, String)>) {
    let Value::Object(map) = value else { return };
    if map.is_empty() && !prefix.is_empty() {
        rows.push((prefix.to_string(), "(none)".into()));
    }
    for (k, v) in map {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            Value::Object(_) => flatten(&key, v, rows),
            Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
                rows.push((key.clone(), format!("{} item(s)", items.len())));
                for item in items {
                    rows.push((String::new(), format!("- {}", inline(item))));
                }
            }
            Value::Array(items) if items.is_empty() => rows.push((key, "(none)".into())),
            Value::Array(items) => {
                let parts: Vec<String> = items.iter().map(|i| scalar(k, i)).collect();
                rows.push((key, parts.join(", ")));
            }
            _ => {
                let text = scalar(k, v);
                rows.push((key, text));
            }
        }
    }
}

/// An item of a list, on one line: `k: v, k: v`.
fn inline(value: &Value) -> String {
    match value {
        Value::Object(map) => map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| format!("{k}: {}", inline_value(k, v)))
            .collect::<Vec<_>>()
            .join(", "),
        other => scalar("", other),
    }
}

fn inline_value(key: &str, value: &Value) -> String {
    match value {
        Value::Object(_) | Value::Array(_) => value.to_string(),
        other => scalar(key, other),
    }
}

/// Unix milliseconds as RFC 3339 UTC (the number itself when out of range).
pub fn time(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms).map_or_else(|_| ms.to_string(), |t| t.to_string())
}

/// A scalar as people read it: strings unquoted, null as `-`, a `*_at` millisecond time as
/// RFC 3339 UTC.
fn scalar(key: &str, value: &Value) -> String {
    match value {
        Value::Null => "-".into(),
        Value::String(s) => s.clone(),
        Value::Number(n) if key.ends_with("_at") => n.as_i64().map_or_else(|| n.to_string(), time),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::fields;

    #[test]
    fn records_read_as_aligned_lines() {
        let v = json!({
            "name": "core",
            "lock_minutes": 30,
            "blocker_escalation": {"enabled": true},
            "allow_user_ids": [],
            "tags": ["a", "b"],
            "owner": null,
            "created_at": 1_795_502_251_420i64,
            "files": [{"name": "AGENTS.md", "bytes": 12}],
        });
        let text = fields(&v);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "name                        core");
        assert!(text.contains("blocker_escalation.enabled  true"), "{text}");
        assert!(
            text.contains("allow_user_ids              (none)"),
            "{text}"
        );
        assert!(text.contains("tags                        a, b"), "{text}");
        assert!(text.contains("owner                       -"), "{text}");
        assert!(
            text.contains("created_at                  2026-11-2"),
            "{text}"
        );
        assert!(
            text.contains("files                       1 item(s)"),
            "{text}"
        );
        assert!(text.contains("- name: AGENTS.md, bytes: 12"), "{text}");
        assert_eq!(fields(&json!("isolated")), "isolated");
        assert_eq!(fields(&json!(true)), "true");
    }
}
