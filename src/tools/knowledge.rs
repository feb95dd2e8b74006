//! `knowledge_graph_search` (seed 000 §2, group `knowledge`): entities of the caller's graph
//! (the agent's global graph and its user's own) found by full text, with the relations up to
//! `depth` steps away (see [`crate::knowledge`]).

use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::knowledge::{self, MAX_DEPTH, Scope};
use crate::store::Store;

/// `knowledge_graph_search`.
pub struct KnowledgeGraphSearch;

impl Tool for KnowledgeGraphSearch {
    fn name(&self) -> &str {
        "knowledge_graph_search"
    }
    fn description(&self) -> &str {
        "Search the knowledge graph: entities (people, projects, systems…) whose name, type or properties match the query, with their relations up to depth steps away (0 to 2)."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "query":{"type":"string","description":"words to look for"},
            "depth":{"type":"integer","description":"how far to follow relations (0 to 2, default 1)"},
            "maxResults":{"type":"integer","description":"entities at most (1 to 50, default 10)"}},
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
            return ToolResult::bad_args("query is required");
        }
        let depth = args
            .get("depth")
            .and_then(Value::as_u64)
            .unwrap_or(1)
            .min(u64::from(MAX_DEPTH)) as u32;
        let max = args
            .get("maxResults")
            .and_then(Value::as_u64)
            .unwrap_or(10)
            .clamp(1, 50) as usize;
        let scope = Scope {
            agent: ctx.agent.as_deref().unwrap_or(""),
            user: ctx.user.as_deref().unwrap_or(""),
        };
        match knowledge::search(store.db(), scope, query, depth, max) {
            Ok(found) if found.entities.is_empty() => ToolResult::text(format!(
                "No entities found in the knowledge graph for: {query}"
            )),
            Ok(found) => ToolResult::text(serde_json::to_string_pretty(&found).unwrap_or_default()),
            Err(e) => ToolResult::from_error(&e),
        }
    }
}
