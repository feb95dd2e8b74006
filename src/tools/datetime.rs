//! `datetime` (§14): the current time in UTC and, given an IANA time zone, local time there.
//! A pretty JSON document: `utc` (RFC 3339, `Z`), `unix_ms`, and `local` (RFC 3339 with the
//! offset) and `timezone` when one was asked for.

use chrono::SecondsFormat;
use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::store::Store;

/// `datetime`.
pub struct Datetime;

/// The document for `now`, in `timezone` when given (`Err`: the message for a bad zone).
pub fn render(
    now: chrono::DateTime<chrono::Utc>,
    timezone: Option<&str>,
) -> Result<String, String> {
    let mut doc = json!({
        "utc": now.to_rfc3339_opts(SecondsFormat::Secs, true),
        "unix_ms": now.timestamp_millis(),
    });
    if let Some(name) = timezone.map(str::trim).filter(|t| !t.is_empty()) {
        let zone = crate::host::time_zone(name)?;
        let local = jiff::Timestamp::from_millisecond(now.timestamp_millis())
            .map_err(|_| "time out of range".to_string())?
            .to_zoned(zone);
        doc["local"] = Value::String(local.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string());
        doc["timezone"] = Value::String(name.to_string());
    }
    Ok(serde_json::to_string_pretty(&doc).unwrap_or_default())
}

impl Tool for Datetime {
    fn name(&self) -> &str {
        "datetime"
    }
    fn description(&self) -> &str {
        "The current date and time: UTC, Unix milliseconds, and the local time in an IANA time zone (e.g. Europe/Paris) when you give one."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "timezone":{"type":"string","description":"IANA time zone, e.g. Asia/Ho_Chi_Minh (optional)"}}})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        _ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        match render(
            chrono::Utc::now(),
            args.get("timezone").and_then(Value::as_str),
        ) {
            Ok(doc) => ToolResult::text(doc),
            Err(e) => ToolResult::error(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn utc_and_local() {
        let now = chrono::Utc
            .timestamp_millis_opt(1_795_305_600_123)
            .single()
            .unwrap_or_default();
        let doc: Value =
            serde_json::from_str(&render(now, Some("Asia/Ho_Chi_Minh")).unwrap_or_default())
                .unwrap_or_default();
        assert_eq!(doc["utc"], "2026-11-22T00:00:00Z");
        assert_eq!(doc["unix_ms"], 1_795_305_600_123i64);
        assert_eq!(doc["local"], "2026-11-22T07:00:00+07:00");
        assert_eq!(doc["timezone"], "Asia/Ho_Chi_Minh");
        let keys: Vec<&String> = doc
            .as_object()
            .map(|o| o.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["utc", "unix_ms", "local", "timezone"]);
        let plain: Value =
            serde_json::from_str(&render(now, None).unwrap_or_default()).unwrap_or_default();
        assert!(plain.get("local").is_none());
        assert_eq!(
            render(now, Some("Mars/Olympus")).unwrap_err(),
            "invalid timezone 'Mars/Olympus': use IANA names like 'Asia/Ho_Chi_Minh', 'America/New_York'"
        );
        // DST: New York in July is UTC-4.
        let july = chrono::Utc
            .with_ymd_and_hms(2026, 7, 1, 12, 0, 0)
            .single()
            .unwrap_or_default();
        let doc: Value =
            serde_json::from_str(&render(july, Some("America/New_York")).unwrap_or_default())
                .unwrap_or_default();
        assert_eq!(doc["local"], "2026-07-01T08:00:00-04:00");
    }
}
