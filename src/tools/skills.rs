//! `skill_search`, `use_skill` and `publish_skill` over [`crate::skills`].
//!
//! `skill_search` answers as §15.1 (pretty JSON of the hits, then ACTION REQUIRED). One
//! deviation: `use_skill` returns the skill's SKILL.md itself, so a skill outside the workspace
//! needs no widening of `read_file`'s containment; the call is recorded in the audit trail and
//! the run's trace like every tool call, which is the marker.

use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::error::Result;
use crate::skills::{self, Skill};
use crate::store::Store;

fn discover(ctx: &CallContext, store: &Store) -> Result<Vec<Skill>> {
    skills::discover(&ctx.skill_roots, store.db(), ctx.agent.as_deref())
}

/// `skill_search`.
pub struct SkillSearch;

impl Tool for SkillSearch {
    fn name(&self) -> &str {
        "skill_search"
    }
    fn description(&self) -> &str {
        "Search the available skills (packaged instructions for particular tasks) by what you need to do."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "query":{"type":"string","description":"What you need to do"},
            "max_results":{"type":"integer","description":"At most this many (default 5)"}},
            "required":["query"]})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        let query = super::trimmed_arg(args, "query");
        if query.is_empty() {
            return ToolResult::bad_args("query parameter is required");
        }
        let max = args.get("max_results").and_then(Value::as_i64).unwrap_or(5);
        let all = match discover(ctx, store) {
            Ok(a) => a,
            Err(e) => return ToolResult::from_error(&e),
        };
        let hits = skills::search(&all, query, max);
        let Some(top) = hits.first() else {
            return ToolResult::text(format!("No skills found matching: {query}"));
        };
        let doc = json!({"results": hits, "count": hits.len()});
        ToolResult::text(format!(
            "{}\n\nACTION REQUIRED: Call use_skill with name \"{}\" to load the skill instructions, then follow them.",
            serde_json::to_string_pretty(&doc).unwrap_or_default(),
            top.skill.name
        ))
    }
}

/// `use_skill`.
pub struct UseSkill;

impl Tool for UseSkill {
    fn name(&self) -> &str {
        "use_skill"
    }
    fn description(&self) -> &str {
        "Load a skill by name: returns its instructions (SKILL.md) and base directory. Follow them."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "name":{"type":"string","description":"The skill's name, as skill_search gave it"}},
            "required":["name"]})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        let name = super::trimmed_arg(args, "name");
        let all = match discover(ctx, store) {
            Ok(a) => a,
            Err(e) => return ToolResult::from_error(&e),
        };
        let Some(skill) = all.iter().find(|s| s.name == name) else {
            return ToolResult::error(format!(
                "skill not found: {name} (skill_search lists the available ones)"
            ));
        };
        match skills::read_skill_md(&skill.location) {
            Ok(text) => ToolResult::text(format!(
                "Using skill {} (base directory: {}).\n\n{text}",
                skill.name,
                skill.base_dir.display()
            )),
            Err(e) => ToolResult::error(format!("cannot read {}: {e}", skill.location.display())),
        }
    }
}

/// `publish_skill`.
pub struct PublishSkill;

impl Tool for PublishSkill {
    fn name(&self) -> &str {
        "publish_skill"
    }
    fn description(&self) -> &str {
        "Publish a skill you wrote: a directory in the workspace with a SKILL.md (front matter with name and description). It becomes findable with skill_search for you."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "path":{"type":"string","description":"The skill's directory, inside the workspace"}},
            "required":["path"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        let path = args.get("path").and_then(Value::as_str).unwrap_or_default();
        // The directory must be inside the workspace, by the file tools' containment.
        let dir = match super::exec::contained_dir(ctx, path) {
            Ok(d) => d,
            Err(e) => return ToolResult::error(e),
        };
        let published = skills::publish(store.db(), &dir, ctx.agent.as_deref().unwrap_or(""));
        match published {
            Ok(s) => ToolResult::text(
                serde_json::to_string_pretty(&json!({"published": s})).unwrap_or_default(),
            ),
            Err(e) => ToolResult::from_error(&e),
        }
    }
}
