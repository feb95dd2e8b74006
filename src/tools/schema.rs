//! Argument checks against a tool's JSON schema: the subset the built-in tools use (an object
//! with typed properties, `required`, `enum`, `minimum`). Errors name the field.

use serde_json::{Map, Value};

/// Checks `args` against `schema`; `Err` names the first field that breaks it.
pub fn validate(schema: &Value, args: &Map<String, Value>) -> Result<(), String> {
    let props = schema.get("properties").and_then(Value::as_object);
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for field in required.iter().filter_map(Value::as_str) {
            if !args.contains_key(field) {
                return Err(format!("missing required field `{field}`"));
            }
        }
    }
    let Some(props) = props else { return Ok(()) };
    for (key, value) in args {
        let Some(spec) = props.get(key) else {
            return Err(format!(
                "unknown field `{key}` (expected one of: {})",
                props.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        };
        if let Some(ty) = spec.get("type").and_then(Value::as_str) {
            let ok = match ty {
                "string" => value.is_string(),
                "integer" => value.as_i64().is_some() || value.as_u64().is_some(),
                "number" => value.is_number(),
                "boolean" => value.is_boolean(),
                "array" => value.is_array(),
                "object" => value.is_object(),
                _ => true,
            };
            if !ok {
                return Err(format!(
                    "field `{key}` must be {} {ty}",
                    if ty == "integer" || ty == "array" || ty == "object" {
                        "an"
                    } else {
                        "a"
                    }
                ));
            }
        }
        let choices = spec.get("enum").and_then(Value::as_array);
        if let (Some(choices), Some(s)) = (choices, value.as_str())
            && !choices.iter().any(|c| c.as_str() == Some(s))
        {
            let list: Vec<&str> = choices.iter().filter_map(Value::as_str).collect();
            return Err(format!("field `{key}` must be one of: {}", list.join(", ")));
        }
        if let (Some(min), Some(n)) = (spec.get("minimum").and_then(Value::as_i64), value.as_i64())
            && n < min
        {
            return Err(format!("field `{key}` must be at least {min}"));
        }
        if let (Some(max), Some(n)) = (spec.get("maximum").and_then(Value::as_i64), value.as_i64())
            && n > max
        {
            return Err(format!("field `{key}` must be at most {max}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_the_field() {
        let schema = json!({"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer","minimum":1},"mode":{"type":"string","enum":["a","b"]}},"required":["path"]});
        let args = |v: Value| v.as_object().cloned().unwrap();
        assert!(validate(&schema, &args(json!({"path":"x"}))).is_ok());
        assert!(
            validate(&schema, &args(json!({})))
                .unwrap_err()
                .contains("`path`")
        );
        assert!(
            validate(&schema, &args(json!({"path":1})))
                .unwrap_err()
                .contains("`path` must be a string")
        );
        assert!(
            validate(&schema, &args(json!({"path":"x","limit":0})))
                .unwrap_err()
                .contains("at least 1")
        );
        assert!(
            validate(&schema, &args(json!({"path":"x","limit":1.5})))
                .unwrap_err()
                .contains("`limit`")
        );
        assert!(
            validate(&schema, &args(json!({"path":"x","mode":"c"})))
                .unwrap_err()
                .contains("one of: a, b")
        );
        assert!(
            validate(&schema, &args(json!({"path":"x","bogus":1})))
                .unwrap_err()
                .contains("unknown field `bogus`")
        );
    }
}
