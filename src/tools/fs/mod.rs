//! The file tools, group `fs`: GoClaw's `read_file`, `write_file`, `edit`, `list_files` with
//! seed 004's richer behaviour, plus `search` (ripgrep's libraries), `glob` (globset),
//! `delete_file`, `move_file` and `codemap` (an outline of the source). Every path goes through
//! [`Workspace`], so nothing here can reach outside the workspace or into a denied prefix.
//!
//! This file holds what the tools share: the limits, the argument helpers, the body type
//! (`Step`) and [`tools`]. `read` has `read_file`; `write` the tools that change files
//! (`write_file`, `edit`, `delete_file`, `move_file`); `find` the ones that look (`list_files`,
//! `search`); `glob` the files a pattern names, with its own walk; `codemap` the outline.

mod codemap;
mod find;
mod glob;
mod read;
mod write;

pub use find::{ListFiles, Search};
pub use glob::Glob;
pub use read::ReadFile;
pub use write::{DeleteFile, Edit, MoveFile, WriteFile};

use serde_json::{Map, Value};

use super::workspace::{FsError, Workspace};
use super::{CallContext, Tool, ToolResult};

/// Files larger than this are read only in ranges (`offset`/`limit`).
pub const MAX_READ_BYTES: u64 = 5 * 1024 * 1024;
/// Lines longer than this many characters are cut in `read_file` output.
pub const MAX_LINE_CHARS: usize = 2000;
/// `read_file` output cap, in characters.
pub const MAX_READ_CHARS: usize = 50_000;
/// Default result counts.
pub const SEARCH_MAX_RESULTS: usize = 100;
pub const GLOB_MAX_RESULTS: usize = 1000;
/// Directories `glob` never descends into (`search` follows .gitignore instead, as ripgrep).
pub const SKIP_DIRS: &[&str] = &[
    "node_modules",
    "vendor",
    ".next",
    "dist",
    "build",
    "target",
    ".venv",
    "__pycache__",
    ".git",
];

/// Every file tool.
pub fn tools() -> Vec<Box<dyn Tool>> {
    vec![
        Box::new(ReadFile),
        Box::new(WriteFile),
        Box::new(Edit),
        Box::new(ListFiles),
        Box::new(Search),
        Box::new(Glob),
        Box::new(DeleteFile),
        Box::new(MoveFile),
        Box::new(codemap::Codemap),
    ]
}

fn workspace(ctx: &CallContext) -> Result<Workspace, ToolResult> {
    Workspace::open(&ctx.workspace, &ctx.denied_paths).map_err(|e| ToolResult::error(e.message))
}

/// A tool body: `?` ends the call with its error result.
type Step = Result<ToolResult, ToolResult>;

fn done(step: Step) -> ToolResult {
    step.unwrap_or_else(|r| r)
}

impl From<FsError> for ToolResult {
    fn from(e: FsError) -> ToolResult {
        fail(e)
    }
}

/// The `path` argument, which the tool cannot do without.
fn required_path(args: &Map<String, Value>) -> Result<&str, ToolResult> {
    str_arg(args, "path")
        .filter(|p| !p.is_empty())
        .ok_or_else(|| ToolResult::error("path is required"))
}

fn fail(e: FsError) -> ToolResult {
    ToolResult::error(e.message)
}

fn str_arg<'a>(args: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

/// JSON numbers are read as numbers and truncated toward zero; strings are ignored (§22.5).
fn num_arg(args: &Map<String, Value>, key: &str) -> Option<i64> {
    args.get(key)
        .and_then(|v| v.as_i64().or_else(|| v.as_f64().map(|f| f.trunc() as i64)))
}

fn bool_arg(args: &Map<String, Value>, key: &str) -> bool {
    args.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// `text` cut after `max` characters, saying how long the line was.
fn cut_chars(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => text.into(),
        Some((at, _)) => format!(
            "{}… [line truncated: {} characters]",
            &text[..at],
            text.chars().count()
        )
        .into(),
    }
}
