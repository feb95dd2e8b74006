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

use std::borrow::Cow;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

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
        .ok_or_else(|| ToolResult::bad_args("path is required"))
}

fn fail(e: FsError) -> ToolResult {
    failed_as(e.message.clone(), &e)
}

/// A tool error saying `message` about `e`: a path that does not exist is exit 5 (not found),
/// as the exit code table says of a file; any other failure exit 1.
fn failed_as(message: String, e: &FsError) -> ToolResult {
    let mut r = ToolResult::error(message);
    if e.kind == crate::tools::workspace::FsErrorKind::NotFound {
        r.error_kind = Some(crate::error::ErrorKind::NotFound);
    }
    r
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

/// A path as the file tools print it, one per line: as it is, unless it holds a control
/// character (a newline would make one name read as two, `x⏎/etc/shadow` as `/etc/shadow`) or
/// bytes that are not UTF-8 (replacing them would make two names look alike). Such a path is
/// shown in double quotes with escapes: `"x\n/etc/shadow"`, `"bad\xff.rs"`, `\"` and `\\`
/// for a quote and a backslash; so is a path that begins with a quote, which could otherwise
/// pass for another one quoted.
pub fn shown_path(path: &Path) -> Cow<'_, str> {
    let bytes = path.as_os_str().as_bytes();
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.chars().any(char::is_control) && !text.starts_with('"') => {
            Cow::Borrowed(text)
        }
        _ => Cow::Owned(quoted(bytes)),
    }
}

fn quoted(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

/// `text` cut after `max` characters (or at the start of the word there, so no secret is cut
/// in two: `text::words`), saying how long the line was.
fn cut_chars(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => text.into(),
        Some((at, _)) => format!(
            "{}… [line truncated: {} characters]",
            &text[..crate::text::words::cut_at(text.as_bytes(), at)],
            text.chars().count()
        )
        .into(),
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::*;

    #[test]
    fn each_path_is_one_line_and_unlike_any_other() {
        let p = |b: &[u8]| shown_path(Path::new(OsStr::from_bytes(b))).into_owned();
        assert_eq!(p(b"src/a.rs"), "src/a.rs");
        assert_eq!(p("dir/\u{e9} x.rs".as_bytes()), "dir/\u{e9} x.rs");
        assert_eq!(p(b"x\n/etc/shadow"), r#""x\n/etc/shadow""#);
        assert_eq!(p(b"bad\xff.rs"), r#""bad\xff.rs""#);
        assert_ne!(p(b"bad\xff.rs"), p(b"bad\xfe.rs"));
        assert_eq!(p(b"esc\x1b[31m"), r#""esc\u{1b}[31m""#);
        // A name that looks quoted is quoted again, so it cannot pass for the one above.
        assert_eq!(p(br#""x\n/etc/shadow""#), r#""\"x\\n/etc/shadow\"""#);
    }
}
