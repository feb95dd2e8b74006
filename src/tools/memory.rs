//! `memory_search` and `memory_get` (§15.2): the agent's memory documents in the store
//! (`MEMORY.md`, `memory/…`, written with `write_file`), the caller's own before the global ones.
//! Search is SQLite FTS5 with BM25 ranking (the original's SQLite edition used LIKE); there are
//! no embeddings yet.

use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::memory::files;
use crate::store::Store;

/// `memory_search`.
pub struct MemorySearch;

impl Tool for MemorySearch {
    fn name(&self) -> &str {
        "memory_search"
    }
    fn description(&self) -> &str {
        "Search your memory (MEMORY.md and memory/*.md) for earlier work, decisions and preferences. Returns the best-matching passages with their path and lines."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "query":{"type":"string","description":"What to look for"},
            "maxResults":{"type":"integer","minimum":1,"description":"At most this many results (default 6)"},
            "minScore":{"type":"number","minimum":0,"maximum":1,"description":"Drop results scoring below this (0..1)"}},
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
        let max = args
            .get("maxResults")
            .and_then(Value::as_u64)
            .unwrap_or(6)
            .clamp(1, 50) as usize;
        let min = args.get("minScore").and_then(Value::as_f64).unwrap_or(0.0);
        let found = files::search(
            store.db(),
            &ctx.files_owner(),
            query,
            max,
            min,
            ctx.embedder.as_ref(),
        );
        match found {
            Err(e) => ToolResult::from_error(&e),
            Ok(hits) if hits.is_empty() => {
                ToolResult::text(format!("No memory results found for query: {query}"))
            }
            Ok(hits) => ToolResult::text(
                serde_json::to_string_pretty(&json!({"results": hits, "count": hits.len()}))
                    .unwrap_or_default(),
            ),
        }
    }
}

/// `memory_get`.
pub struct MemoryGet;

impl Tool for MemoryGet {
    fn name(&self) -> &str {
        "memory_get"
    }
    fn description(&self) -> &str {
        "Read a memory document (MEMORY.md or memory/…), or some of its lines."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "path":{"type":"string"},
            "from":{"type":"integer","description":"First line, 1-based"},
            "lines":{"type":"integer","description":"How many lines"}},
            "required":["path"]})
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
        let path = args.get("path").and_then(Value::as_str).unwrap_or("");
        let Some(files::Routed::Memory(doc)) = files::route(path) else {
            return ToolResult::error(format!(
                "{path} is not a memory document (MEMORY.md or memory/…)"
            ));
        };
        let content = files::read_memory(store.db(), &ctx.files_owner(), &doc);
        let content = match content {
            Err(e) => return ToolResult::from_error(&e),
            Ok(c) => c.unwrap_or_default(),
        };
        let from = args.get("from").and_then(Value::as_i64).unwrap_or(0);
        let count = args.get("lines").and_then(Value::as_i64).unwrap_or(0);
        let text = if from <= 0 && count <= 0 {
            content
        } else {
            let lines: Vec<&str> = content.split('\n').collect();
            let start = (from.max(1) - 1) as usize;
            if start >= lines.len() {
                String::new()
            } else {
                let end = if count > 0 {
                    (start + count as usize).min(lines.len())
                } else {
                    lines.len()
                };
                lines[start..end].join("\n")
            }
        };
        if text.is_empty() {
            return ToolResult::text(format!(
                "File {path} is empty or the specified range has no content."
            ));
        }
        ToolResult::text(
            serde_json::to_string_pretty(&json!({"path": path, "text": text})).unwrap_or_default(),
        )
    }
}
