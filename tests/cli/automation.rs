//! Time and cron tools (group `automation`).

use serde_json::Value;

use crate::util::*;

#[test]
fn datetime_reports_utc_and_a_named_zone() {
    let env = TestEnv::new();
    let o = env.run(&[
        "tools",
        "exec",
        "datetime",
        r#"{"timezone":"Europe/Paris"}"#,
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let doc: Value = serde_json::from_str(json(&o)["result"]["for_llm"].as_str().unwrap()).unwrap();
    assert!(doc["utc"].as_str().unwrap().ends_with('Z'), "{doc}");
    assert!(doc["unix_ms"].as_i64().unwrap() > 1_700_000_000_000);
    assert_eq!(doc["timezone"], "Europe/Paris");
    let local = doc["local"].as_str().unwrap();
    assert!(
        local.ends_with("+01:00") || local.ends_with("+02:00"),
        "{local}"
    );
    let o = env.run(&[
        "tools",
        "exec",
        "datetime",
        r#"{"timezone":"Nowhere/Land"}"#,
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("invalid timezone 'Nowhere/Land'"),
        "{}",
        stdout(&o)
    );
    // In the automation group, so a policy can name it that way.
    let o = env.run(&["policy", "explain", "--tool", "datetime"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}
