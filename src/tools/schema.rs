//! Argument checks against a tool's JSON schema, for built-in, custom and MCP tools alike. The
//! top level is checked first with messages made for a model (`missing required field
//! `path``, `unknown field `x` (expected one of: …)`); then the whole schema with the
//! `jsonschema` crate (nested `required`, `items`, `pattern`, `maxLength`, `oneOf` …), its
//! first violation named by its place. Patterns run on the `regex` crate (linear time), so a
//! hostile MCP server's schema cannot make a check take exponential time.

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
        // Whole numbers beyond i64 (a u64) compare too.
        let whole = value
            .as_i64()
            .map(i128::from)
            .or_else(|| value.as_u64().map(i128::from));
        if let (Some(min), Some(n)) = (spec.get("minimum").and_then(Value::as_i64), whole)
            && n < i128::from(min)
        {
            return Err(format!("field `{key}` must be at least {min}"));
        }
        if let (Some(max), Some(n)) = (spec.get("maximum").and_then(Value::as_i64), whole)
            && n > i128::from(max)
        {
            return Err(format!("field `{key}` must be at most {max}"));
        }
    }
    // Everything else the schema says. A schema that does not compile (an MCP server's) keeps
    // the top-level checks above; one that says nothing more than they checked is done (the
    // first `jsonschema` validator of a process costs milliseconds: it compiles the
    // meta-schema).
    if said_by_top_level(schema) {
        return Ok(());
    }
    let Ok(validator) = validator(schema) else {
        return Ok(());
    };
    let doc = Value::Object(args.clone());
    match validator.iter_errors(&doc).next() {
        None => Ok(()),
        Some(e) => {
            let at = e.instance_path.to_string();
            let at = at.trim_start_matches('/').replace('/', ".");
            Err(if at.is_empty() {
                format!("arguments: {e}")
            } else {
                format!("field `{at}`: {e}")
            })
        }
    }
}

/// Whether the checks of [`validate`] above the `jsonschema` validator are all `schema` says:
/// an object whose properties name at most a plain type, string choices of a string, and
/// integer bounds of an integer (annotations aside). `validate` treats every such property
/// list as closed, so `additionalProperties: false` adds nothing either.
fn said_by_top_level(schema: &Value) -> bool {
    const TYPES: [&str; 6] = ["string", "integer", "number", "boolean", "array", "object"];
    const NOTES: [&str; 4] = ["description", "title", "default", "examples"];
    let Some(top) = schema.as_object() else {
        return false;
    };
    let top_ok = top.iter().all(|(key, value)| match key.as_str() {
        "type" => value == "object",
        "properties" => value.is_object(),
        "required" => value
            .as_array()
            .is_some_and(|r| r.iter().all(Value::is_string)),
        "additionalProperties" => value == false,
        "$schema" | "description" | "title" => true,
        _ => false,
    });
    let Some(props) = top.get("properties").and_then(Value::as_object) else {
        return top_ok;
    };
    top_ok
        && props.values().all(|spec| {
            let Some(spec) = spec.as_object() else {
                return false;
            };
            let ty = spec.get("type").and_then(Value::as_str);
            spec.iter().all(|(key, value)| match key.as_str() {
                "type" => ty.is_some_and(|t| TYPES.contains(&t)),
                "enum" => {
                    ty == Some("string")
                        && value
                            .as_array()
                            .is_some_and(|c| c.iter().all(Value::is_string))
                }
                "minimum" | "maximum" => ty == Some("integer") && value.as_i64().is_some(),
                key => NOTES.contains(&key),
            })
        })
}

/// A validator for `schema`, its patterns on the `regex` crate (linear time, at most 1 MiB
/// compiled each) whatever the schema asks for; no remote reference is fetched.
pub fn validator(schema: &Value) -> Result<jsonschema::Validator, String> {
    bounded(schema)?;
    jsonschema::options()
        .with_pattern_options(jsonschema::PatternOptions::regex().size_limit(1 << 20))
        .build(schema)
        .map_err(|e| e.to_string())
}

/// The most nodes a schema may stand for once its `$ref`s are followed.
const MAX_EXPANDED: usize = 20_000;

/// Refuses a schema whose checks could take unbounded time or memory: a `$ref` cycle, a
/// `$ref` outside the schema, or local `$ref`s that multiply (a hostile server's `a0` →
/// `a1, a1` → `a2, a2` … stands for 2^n nodes, and compiling it took 7 GB). Each `$ref`
/// target is sized once, so this check is linear in the schema's text.
fn bounded(schema: &Value) -> Result<(), String> {
    fn size(
        node: &Value,
        root: &Value,
        path: &mut Vec<String>,
        memo: &mut std::collections::HashMap<String, usize>,
    ) -> Result<usize, String> {
        let n = match node {
            Value::Object(map) => {
                let mut n = 1usize;
                for (key, value) in map {
                    n = n.saturating_add(match (key.as_str(), value) {
                        ("$ref", Value::String(r)) => target_size(r, root, path, memo)?,
                        ("$dynamicRef" | "$recursiveRef", _) => {
                            return Err(format!("{key} is not supported"));
                        }
                        _ => size(value, root, path, memo)?,
                    });
                }
                n
            }
            Value::Array(items) => {
                let mut n = 1usize;
                for item in items {
                    n = n.saturating_add(size(item, root, path, memo)?);
                }
                n
            }
            _ => 1,
        };
        if n > MAX_EXPANDED {
            return Err(format!(
                "it stands for more than {MAX_EXPANDED} nodes once its $refs are followed"
            ));
        }
        Ok(n)
    }
    fn target_size(
        r: &str,
        root: &Value,
        path: &mut Vec<String>,
        memo: &mut std::collections::HashMap<String, usize>,
    ) -> Result<usize, String> {
        if let Some(&n) = memo.get(r) {
            return Ok(n);
        }
        let Some(pointer) = r.strip_prefix('#') else {
            return Err(format!("$ref `{r}` points outside the schema"));
        };
        if path.iter().any(|p| p == r) {
            return Err(format!("$ref `{r}` is recursive"));
        }
        let target = root
            .pointer(pointer)
            .ok_or_else(|| format!("$ref `{r}` points to nothing"))?;
        path.push(r.to_string());
        let n = size(target, root, path, memo)?;
        path.pop();
        memo.insert(r.to_string(), n);
        Ok(n)
    }
    size(schema, schema, &mut Vec::new(), &mut Default::default())
        .map(|_| ())
        .map_err(|why| format!("the schema is refused: {why}"))
}

/// Every place where `doc` breaks the schema `validator` checks: `at /path: what`.
pub fn violations(validator: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    validator
        .iter_errors(doc)
        .map(|e| {
            let at = e.instance_path.to_string();
            format!("at {}: {e}", if at.is_empty() { "/" } else { &at })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Where the top-level checks are all a schema says, their verdict is the `jsonschema`
    /// validator's, on arguments that try every edge they check.
    #[test]
    fn top_level_checks_agree_with_the_whole_schema_where_they_are_all_it_says() {
        let covered = [
            json!({"type":"object","properties":{"path":{"type":"string","description":"p"},
                "offset":{"type":"integer","minimum":1,"maximum":10},
                "mode":{"type":"string","enum":["a","b"]},"all":{"type":"boolean"},
                "n":{"type":"number"},"list":{"type":"array"},"obj":{"type":"object"}},
                "required":["path"],"additionalProperties":false}),
            json!({"type":"object"}),
            json!({}),
        ];
        let docs = [
            json!({"path":"x"}),
            json!({"path":"x","offset":1,"mode":"b","all":true,"n":1.5,"list":[1],"obj":{}}),
            json!({}),
            json!({"path":1}),
            json!({"path":"x","offset":0}),
            json!({"path":"x","offset":11}),
            json!({"path":"x","offset":u64::MAX}),
            json!({"path":"x","offset":-9_223_372_036_854_775_808_i64}),
            json!({"path":"x","offset":2.5}),
            json!({"path":"x","mode":"c"}),
            json!({"path":"x","all":"yes"}),
            json!({"path":"x","n":"1"}),
            json!({"path":"x","list":{}}),
            json!({"path":"x","obj":[]}),
            json!({"path":"x","other":1}),
        ];
        for schema in &covered {
            assert!(said_by_top_level(schema), "{schema}");
            let whole = validator(schema).unwrap();
            for doc in &docs {
                let args = doc.as_object().unwrap();
                let closed = schema.get("properties").is_none() || whole.is_valid(doc);
                assert_eq!(validate(schema, args).is_ok(), closed, "{schema} on {doc}");
            }
        }
        for more in [
            json!({"type":"object","properties":{"p":{"type":"string","maxLength":3}}}),
            json!({"type":"object","properties":{"p":{"type":"array","items":{"type":"string"}}}}),
            json!({"type":"object","properties":{"p":{"type":"number","minimum":0.5}}}),
            json!({"type":"object","properties":{"p":{"type":["string","null"]}}}),
            json!({"type":"object","properties":{"p":{"enum":[1,2]}}}),
            json!({"type":"object","properties":{"p":{"$ref":"#/$defs/x"}},"$defs":{"x":{}}}),
            json!({"type":"object","additionalProperties":{"type":"string"}}),
            json!({"type":"object","minProperties":1}),
        ] {
            assert!(!said_by_top_level(&more), "{more}");
        }
    }

    /// A call of a built-in tool compiles no `jsonschema` validator (the first costs a process
    /// about 7 ms) unless the tool's schema says more than the top-level checks do.
    #[test]
    fn built_in_tools_are_checked_without_compiling_a_validator() {
        let registry = crate::tools::Registry::builtin();
        let nested: Vec<String> = registry
            .names()
            .into_iter()
            .filter(|name| {
                let tool = registry.get(name).unwrap();
                !said_by_top_level(&tool.parameters())
            })
            .collect();
        assert_eq!(nested, ["memory_search", "todo", "ask_user"]);
    }

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

    #[test]
    fn nested_rules_are_checked_and_named_by_their_place() {
        let schema = json!({"type":"object","properties":{
            "files":{"type":"array","items":{"type":"object","required":["path"],
                "properties":{"path":{"type":"string","maxLength":5,"pattern":"^[a-z.]+$"}}}},
            "mode":{"oneOf":[{"const":"fast"},{"const":"slow"}]}}});
        let args = |v: Value| v.as_object().cloned().unwrap();
        assert!(
            validate(
                &schema,
                &args(json!({"files":[{"path":"a.rs"}],"mode":"fast"}))
            )
            .is_ok()
        );
        for (bad, place) in [
            (json!({"files":[{"path":"a.rs"},{}]}), "field `files.1`"),
            (
                json!({"files":[{"path":"toolong.rs"}]}),
                "field `files.0.path`",
            ),
            (json!({"files":[{"path":"A.RS"}]}), "field `files.0.path`"),
            (json!({"mode":"medium"}), "field `mode`"),
        ] {
            let e = validate(&schema, &args(bad.clone())).unwrap_err();
            assert!(e.starts_with(place), "{bad}: {e}");
        }
    }

    #[test]
    fn schemas_that_multiply_or_recurse_are_refused_at_once() {
        // a0 -> a1, a1 -> a2, a2 … : 2^40 nodes once expanded.
        let mut defs = serde_json::Map::new();
        for i in 0..40 {
            let next = json!({"$ref": format!("#/$defs/a{}", i + 1)});
            defs.insert(format!("a{i}"), json!({"allOf": [next.clone(), next]}));
        }
        defs.insert("a40".into(), json!({"type": "string"}));
        let dag = json!({"$defs": defs, "$ref": "#/$defs/a0"});
        let t = std::time::Instant::now();
        let e = validator(&dag).unwrap_err();
        assert!(e.contains("nodes"), "{e}");
        assert!(t.elapsed() < std::time::Duration::from_secs(1));
        let cycle =
            json!({"$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"});
        assert!(validator(&cycle).unwrap_err().contains("recursive"));
        let remote = json!({"$ref": "http://127.0.0.1:1/schema.json"});
        assert!(validator(&remote).unwrap_err().contains("outside"));
        // Shared definitions used a few times are fine.
        let shared = json!({"$defs": {"p": {"type": "string"}}, "type": "object",
            "properties": {"a": {"$ref": "#/$defs/p"}, "b": {"$ref": "#/$defs/p"}}});
        assert!(validator(&shared).is_ok());
        // A tool with such a schema keeps its top-level checks and answers at once.
        let args = json!({"x": 1});
        assert!(validate(&dag, args.as_object().unwrap()).is_ok());
    }

    #[test]
    fn a_hostile_pattern_takes_linear_time() {
        // Catastrophic for a backtracking engine: (a+)+$ against a's ending in b.
        let schema =
            json!({"type":"object","properties":{"x":{"type":"string","pattern":"^(a+)+$"}}});
        let args = json!({"x": format!("{}b", "a".repeat(50_000))});
        let t = std::time::Instant::now();
        assert!(validate(&schema, args.as_object().unwrap()).is_err());
        assert!(
            t.elapsed() < std::time::Duration::from_secs(2),
            "{:?}",
            t.elapsed()
        );
    }
}
