//! The file tools, group `fs`: GoClaw's `read_file`, `write_file`, `edit`, `list_files` with
//! seed 004's richer behaviour, plus `search` (ripgrep's libraries), `glob` (globset),
//! `delete_file` and `move_file`. Every path goes through [`Workspace`], so nothing here can
//! reach outside the workspace or into a denied prefix.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{Map, Value, json};

use super::workspace::{FsError, Workspace, list_dir};
use super::{CallContext, Risk, Tool, ToolResult};

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
/// Extensions `read_file` refuses (GoClaw's list).
const BINARY_EXTENSIONS: &[&str] = &[
    "jpg", "jpeg", "png", "gif", "webp", "bmp", "ico", "tiff", "tif", "mp3", "wav", "ogg", "flac",
    "aac", "m4a", "mp4", "avi", "mov", "mkv", "webm", "zip", "tar", "gz", "bz2", "7z", "rar",
    "pdf", "docx", "xlsx", "pptx", "exe", "dll", "so", "dylib",
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

/// `read_file`.
pub struct ReadFile;

impl Tool for ReadFile {
    fn name(&self) -> &'static str {
        "read_file"
    }
    fn description(&self) -> &'static str {
        "Read a text file in the workspace. Lines are numbered like `cat -n`; use offset (0-based line) and limit (line count) to read part of a large file."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "path":{"type":"string","description":"File path, relative to the workspace"},
            "offset":{"type":"integer","minimum":0,"description":"First line to show, 0-based"},
            "limit":{"type":"integer","minimum":1,"description":"Number of lines to show"}},
            "required":["path"]})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        done(read_file(ctx, args))
    }
}

/// `read_file` of a context file or memory document: from the store (the interceptor).
fn read_routed(
    ctx: &CallContext,
    routed: crate::memory::files::Routed,
    path: &str,
    args: &Map<String, Value>,
) -> Step {
    use crate::memory::files::{self, Routed};
    let store = crate::store::Store::open(&ctx.store_path, crate::store::BUSY_TIMEOUT)?;
    let owner = ctx.files_owner();
    let content = match &routed {
        Routed::Context(name) => files::read_context(store.conn(), &owner, name)?,
        Routed::Memory(p) => files::read_memory(store.conn(), &owner, p)?,
    };
    let Some(content) = content else {
        return Err(ToolResult::error(format!(
            "failed to read file: {path} does not exist"
        )));
    };
    let offset = num_arg(args, "offset").unwrap_or(0).max(0) as usize;
    let limit = num_arg(args, "limit")
        .filter(|&n| n > 0)
        .map(|n| n as usize);
    Ok(read_lines(
        std::io::Cursor::new(content.into_bytes()),
        path,
        offset,
        limit,
    ))
}

/// `write_file` of a context file or memory document: to the store.
fn write_routed(
    ctx: &CallContext,
    routed: crate::memory::files::Routed,
    path: &str,
    content: &str,
    append: bool,
) -> Step {
    use crate::memory::files::{self, Routed};
    let mut store = crate::store::Store::open(&ctx.store_path, crate::store::BUSY_TIMEOUT)?;
    let owner = ctx.files_owner();
    let old = match &routed {
        Routed::Context(name) => files::read_context(store.conn(), &owner, name)?,
        Routed::Memory(p) => files::read_memory(store.conn(), &owner, p)?,
    };
    let new = match (append, old) {
        (true, Some(old)) if !old.is_empty() => format!("{old}{content}"),
        _ => content.to_string(),
    };
    let warning = match &routed {
        Routed::Context(name) => {
            files::write_context(store.conn(), &owner, name, &new)?;
            None
        }
        Routed::Memory(p) => {
            files::write_memory(store.conn_mut(), &owner, p, &new, ctx.embedder.as_ref())?
        }
    };
    let verb = if append { "appended" } else { "written" };
    let mut text = format!("File {verb}: {path} ({} bytes)", content.len());
    if let Some(w) = warning {
        text.push_str(&format!(" ({w})"));
    }
    Ok(ToolResult::silent(text))
}

/// The body of `read_file`.
fn read_file(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let path = required_path(args)?;
    if let Some(routed) = crate::memory::files::route(path) {
        return read_routed(ctx, routed, path, args);
    }
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if let Some(ext) = ext.filter(|e| BINARY_EXTENSIONS.contains(&e.as_str())) {
        return Err(ToolResult::error(format!(
            "cannot read binary file (.{ext}). Use the appropriate tool: read_image for images, read_document for documents, read_audio for audio, read_video for video."
        )));
    }
    let ws = workspace(ctx)?;
    let (file, _) = match ws.open_file(path) {
        Ok(f) => f,
        Err(e) => {
            return Err(ToolResult::error(format!(
                "failed to read file: {}",
                e.message
            )));
        }
    };
    let offset = num_arg(args, "offset").unwrap_or(0).max(0) as usize;
    let limit = num_arg(args, "limit")
        .filter(|&n| n > 0)
        .map(|n| n as usize);
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size > MAX_READ_BYTES && offset == 0 && limit.is_none() {
        return Err(ToolResult::error(format!(
            "file is {size} bytes, over the {} MB read limit; read part of it with offset and limit",
            MAX_READ_BYTES >> 20
        )));
    }
    Ok(read_lines(file, path, offset, limit))
}

fn read_lines(file: impl Read, path: &str, offset: usize, limit: Option<usize>) -> ToolResult {
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    let mut head = Vec::new();
    if reader.by_ref().take(8000).read_to_end(&mut head).is_err() {
        return ToolResult::error(format!("failed to read file: {path}"));
    }
    if head.contains(&0) {
        return ToolResult::error(format!(
            "cannot read binary file: {path} contains NUL bytes"
        ));
    }
    let mut all = std::io::Cursor::new(head).chain(reader);
    let mut out = String::new();
    let mut out_chars = 0;
    let mut line = Vec::new();
    let (mut total, mut shown, mut first, mut last, mut capped) =
        (0usize, 0usize, None, 0usize, false);
    loop {
        line.clear();
        match all.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return ToolResult::error(format!("failed to read file: {e}")),
        }
        let index = total;
        total += 1;
        // Lines outside the range are only counted.
        if index < offset || capped || limit.is_some_and(|l| shown >= l) {
            continue;
        }
        let text = String::from_utf8_lossy(line.strip_suffix(b"\n").unwrap_or(&line));
        let text = text.strip_suffix('\r').unwrap_or(&text);
        let rendered = format!("{:>6}\t{}\n", index + 1, cut_chars(text, MAX_LINE_CHARS));
        let chars = rendered.chars().count();
        if out_chars + chars > MAX_READ_CHARS && shown > 0 {
            capped = true;
            continue;
        }
        out.push_str(&rendered);
        out_chars += chars;
        first.get_or_insert(index + 1);
        last = index + 1;
        shown += 1;
    }
    if total == 0 {
        return ToolResult::silent("(empty file)");
    }
    if offset >= total {
        return ToolResult::silent(format!(
            "(offset {offset} exceeds file length of {total} lines)"
        ));
    }
    let first = first.unwrap_or(offset + 1);
    if capped {
        out.push_str(&format!(
            "\n[Output capped. File has {total} lines, showed {shown} (lines {first}-{last}). Use offset={last} to continue reading.]"
        ));
    } else if first > 1 || last < total {
        out.push_str(&format!(
            "\n[Showing lines {first}-{last} of {total} total]"
        ));
    }
    ToolResult::silent(out)
}

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

/// `write_file`.
pub struct WriteFile;

impl Tool for WriteFile {
    fn name(&self) -> &'static str {
        "write_file"
    }
    fn description(&self) -> &'static str {
        "Write a file in the workspace (atomically; the previous content is backed up). Parent directories are created. With append, add to the end instead."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "path":{"type":"string"},"content":{"type":"string"},
            "append":{"type":"boolean","description":"Append instead of replacing"}},
            "required":["path","content"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        done(write_file(ctx, args))
    }
}

/// The body of `write_file`.
fn write_file(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let path = required_path(args)?;
    let content = str_arg(args, "content").unwrap_or_default();
    if let Some(routed) = crate::memory::files::route(path) {
        return write_routed(ctx, routed, path, content, bool_arg(args, "append"));
    }
    let ws = workspace(ctx)?;
    let target = ws.target(path, true)?;
    Ok(if bool_arg(args, "append") {
        ws.append(&target, content.as_bytes())?;
        ToolResult::silent(format!("File appended: {path} ({} bytes)", content.len()))
    } else {
        ws.write_atomic(&target, content.as_bytes())?;
        ToolResult::silent(format!("File written: {path} ({} bytes)", content.len()))
    })
}

/// `edit`.
pub struct Edit;

impl Tool for Edit {
    fn name(&self) -> &'static str {
        "edit"
    }
    fn description(&self) -> &'static str {
        "Replace an exact string in a file. More than one match is an error unless replace_all (or allow_multiple) is true. Atomic, with a backup."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "path":{"type":"string"},"old_string":{"type":"string"},"new_string":{"type":"string"},
            "replace_all":{"type":"boolean"},"allow_multiple":{"type":"boolean","description":"Same as replace_all"}},
            "required":["path","old_string","new_string"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        done(edit(ctx, args))
    }
}

/// The body of `edit`.
fn edit(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let path = required_path(args)?;
    let old = str_arg(args, "old_string").unwrap_or_default();
    let new = str_arg(args, "new_string").unwrap_or_default();
    if old.is_empty() {
        return Err(ToolResult::error("old_string is required"));
    }
    if old == new {
        return Err(ToolResult::error("old_string and new_string are identical"));
    }
    let all = bool_arg(args, "replace_all") || bool_arg(args, "allow_multiple");
    let ws = workspace(ctx)?;
    let target = ws.target(path, false)?;
    let bytes = ws.read_target(&target)?;
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(ToolResult::error(format!(
            "{path} is not UTF-8 text; edit works on text files"
        )));
    };
    let count = text.matches(old).count();
    if count == 0 {
        return Err(ToolResult::error("old_string not found in file"));
    }
    if count > 1 && !all {
        return Err(ToolResult::error(format!(
            "old_string found {count} times — use replace_all=true or provide a more specific match"
        )));
    }
    let (edited, n) = if all {
        (text.replace(old, new), count)
    } else {
        (text.replacen(old, new, 1), 1)
    };
    ws.write_atomic(&target, edited.as_bytes())?;
    Ok(ToolResult::silent(format!(
        "File edited: {path} ({n} replacement(s))"
    )))
}

/// `list_files`.
pub struct ListFiles;

impl Tool for ListFiles {
    fn name(&self) -> &'static str {
        "list_files"
    }
    fn description(&self) -> &'static str {
        "List a directory in the workspace: [DIR] and [FILE] entries with sizes."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{"path":{"type":"string","description":"Directory, default ."}}})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        done(list_files(ctx, args))
    }
}

/// The body of `list_files`.
fn list_files(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let path = str_arg(args, "path")
        .filter(|p| !p.is_empty())
        .unwrap_or(".");
    let ws = workspace(ctx)?;
    let (fd, real) = match ws.open_dir(path) {
        Ok(d) => d,
        Err(e) if e.not_found => {
            return Err(ToolResult::silent(format!(
                "Directory does not exist: {path}"
            )));
        }
        Err(e) => return Err(fail(e)),
    };
    let entries = list_dir(&fd)?;
    let mut out = String::new();
    for (name, meta) in entries {
        if ws.denied_rule(&real.join(&name)).is_some() {
            continue;
        }
        if meta.is_dir() {
            out.push_str(&format!("[DIR]  {name}/\n"));
        } else {
            out.push_str(&format!("[FILE] {name} ({} bytes)\n", meta.len()));
        }
    }
    Ok(ToolResult::silent(out))
}

/// How a tree is walked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    /// `glob`: every file, but never into [`SKIP_DIRS`] (seed 004).
    Glob,
    /// `search`: as ripgrep does, honouring .gitignore and skipping hidden files.
    Search,
}

/// Walks files under `start` (a workspace-relative directory), never into denied prefixes.
fn walker(ws: &Workspace, start: &Path, walk: Walk) -> ignore::WalkBuilder {
    let mut b = ignore::WalkBuilder::new(ws.absolute(start));
    let rg = walk == Walk::Search;
    b.standard_filters(rg)
        .hidden(rg)
        .follow_links(false)
        .require_git(false);
    let root = ws.root().to_path_buf();
    let ws_denied = ws.denied().to_vec();
    b.filter_entry(move |e| {
        let name = e.file_name().to_string_lossy();
        if walk == Walk::Glob
            && e.file_type().is_some_and(|t| t.is_dir())
            && e.depth() > 0
            && SKIP_DIRS.contains(&name.as_ref())
        {
            return false;
        }
        let rel = e.path().strip_prefix(&root).unwrap_or(e.path());
        !ws_denied.iter().any(|d| rel.starts_with(d))
    });
    b
}

/// `glob`.
pub struct Glob;

impl Tool for Glob {
    fn name(&self) -> &'static str {
        "glob"
    }
    fn description(&self) -> &'static str {
        "Find files by glob pattern (e.g. **/*.rs, src/**/*.ts), newest first. Skips node_modules, vendor, target, .venv and similar. A *.ext pattern with no match is retried as **/*.ext."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "pattern":{"type":"string"},"path":{"type":"string","description":"Directory to search, default ."},
            "max_results":{"type":"integer","minimum":1}},"required":["pattern"]})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        done(glob(ctx, args))
    }
}

/// The body of `glob`.
fn glob(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let pattern = str_arg(args, "pattern").unwrap_or_default();
    if pattern.is_empty() {
        return Err(ToolResult::error("pattern is required"));
    }
    let max = num_arg(args, "max_results")
        .filter(|&n| n > 0)
        .map_or(GLOB_MAX_RESULTS, |n| n as usize);
    let ws = workspace(ctx)?;
    let dir = str_arg(args, "path")
        .filter(|p| !p.is_empty())
        .unwrap_or(".");
    let (fd, start) = ws.open_dir(dir)?;
    drop(fd);
    let mut found = match glob_once(&ws, &start, pattern) {
        Ok(f) => f,
        Err(e) => return Err(ToolResult::error(e)),
    };
    let mut used = pattern.to_string();
    if found.is_empty() && !pattern.contains('/') && pattern.starts_with("*.") {
        used = format!("**/{pattern}");
        found = match glob_once(&ws, &start, &used) {
            Ok(f) => f,
            Err(e) => return Err(ToolResult::error(e)),
        };
    }
    if found.is_empty() {
        return Err(ToolResult::silent(format!("No files match {pattern}")));
    }
    // Newest first; ties by name.
    found.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let total = found.len();
    let mut out: String = found
        .iter()
        .take(max)
        .map(|(p, _)| format!("{}\n", p.display()))
        .collect();
    if total > max {
        out.push_str(&format!(
            "[{} more files not shown; narrow the pattern or raise max_results]\n",
            total - max
        ));
    }
    if used != pattern {
        out.push_str(&format!("(no match for {pattern}; showing {used})\n"));
    }
    Ok(ToolResult::silent(out))
}

fn glob_once(
    ws: &Workspace,
    start: &Path,
    pattern: &str,
) -> Result<Vec<(PathBuf, std::time::SystemTime)>, String> {
    let matcher = globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|e| format!("invalid glob pattern {pattern:?}: {e}"))?
        .compile_matcher();
    let base = ws.absolute(start);
    let mut found = Vec::new();
    for entry in walker(ws, start, Walk::Glob).build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(rel_to_start) = entry.path().strip_prefix(&base) else {
            continue;
        };
        if matcher.is_match(rel_to_start) {
            let mtime = entry
                .metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .unwrap_or(std::time::UNIX_EPOCH);
            let rel = entry
                .path()
                .strip_prefix(ws.root())
                .unwrap_or(entry.path())
                .to_path_buf();
            found.push((rel, mtime));
        }
    }
    Ok(found)
}

/// `search`.
pub struct Search;

impl Tool for Search {
    fn name(&self) -> &'static str {
        "search"
    }
    fn description(&self) -> &'static str {
        "Search file contents with a regular expression (ripgrep's engine; .gitignore respected). output_mode: content (path:line:text, default), files_with_matches, count. include filters files by glob."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "pattern":{"type":"string"},"path":{"type":"string"},"include":{"type":"string"},
            "output_mode":{"type":"string","enum":["content","files_with_matches","count"]},
            "context":{"type":"integer","minimum":0},"case_insensitive":{"type":"boolean"},
            "multiline":{"type":"boolean"},"max_results":{"type":"integer","minimum":1}},
            "required":["pattern"]})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        done(search(ctx, args))
    }
}

/// The body of `search`.
fn search(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let pattern = str_arg(args, "pattern").unwrap_or_default();
    if pattern.is_empty() {
        return Err(ToolResult::error("pattern is required"));
    }
    let mode = str_arg(args, "output_mode").unwrap_or("content");
    let max = num_arg(args, "max_results")
        .filter(|&n| n > 0)
        .map_or(SEARCH_MAX_RESULTS, |n| n as usize);
    let context = num_arg(args, "context").unwrap_or(0).clamp(0, 100) as usize;
    let ws = workspace(ctx)?;
    let dir = str_arg(args, "path")
        .filter(|p| !p.is_empty())
        .unwrap_or(".");
    let start = match ws.open_dir(dir) {
        Ok((_, start)) => start,
        Err(e) if e.message.starts_with("not a directory") => match ws.open_file(dir) {
            Ok((_, rel)) => rel,
            Err(e) => return Err(fail(e)),
        },
        Err(e) => return Err(fail(e)),
    };
    let matcher = match grep_regex::RegexMatcherBuilder::new()
        .case_insensitive(bool_arg(args, "case_insensitive"))
        .multi_line(bool_arg(args, "multiline"))
        .dot_matches_new_line(bool_arg(args, "multiline"))
        .build(pattern)
    {
        Ok(m) => m,
        Err(e) => return Err(ToolResult::error(format!("invalid regex: {e}"))),
    };
    let include = match str_arg(args, "include") {
        Some(g) => match globset::Glob::new(g) {
            Ok(g) => Some(g.compile_matcher()),
            Err(e) => {
                return Err(ToolResult::error(format!("invalid include glob: {e}")));
            }
        },
        None => None,
    };
    let results: Mutex<Vec<FileHits>> = Mutex::new(Vec::new());
    let multiline = bool_arg(args, "multiline");
    walker(&ws, &start, Walk::Search).build_parallel().run(|| {
        let (ws, matcher, include, results) = (&ws, &matcher, &include, &results);
        let mut searcher = grep_searcher::SearcherBuilder::new()
            .line_number(true)
            .before_context(context)
            .after_context(context)
            .multi_line(multiline)
            .binary_detection(grep_searcher::BinaryDetection::quit(0))
            .build();
        Box::new(move |entry| {
            let Ok(entry) = entry else {
                return ignore::WalkState::Continue;
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return ignore::WalkState::Continue;
            }
            let rel = entry
                .path()
                .strip_prefix(ws.root())
                .unwrap_or(entry.path())
                .to_path_buf();
            if let Some(inc) = include {
                let name_ok = entry.path().file_name().is_some_and(|n| inc.is_match(n));
                if !name_ok && !inc.is_match(&rel) {
                    return ignore::WalkState::Continue;
                }
            }
            // Contents are read only through the workspace: contained even if the tree changes.
            let Ok((file, _)) = ws.open_file(&rel.to_string_lossy()) else {
                return ignore::WalkState::Continue;
            };
            let mut sink = HitSink {
                lines: Vec::new(),
                matches: 0,
            };
            if searcher.search_file(matcher, &file, &mut sink).is_ok()
                && sink.matches > 0
                && let Ok(mut r) = results.lock()
            {
                r.push(FileHits {
                    path: rel,
                    lines: sink.lines,
                    matches: sink.matches,
                });
            }
            ignore::WalkState::Continue
        })
    });
    let mut files = results.into_inner().unwrap_or_default();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(render_search(files, mode, max, pattern))
}

struct FileHits {
    path: PathBuf,
    /// (line number, is a match, text)
    lines: Vec<(u64, bool, String)>,
    matches: usize,
}

struct HitSink {
    lines: Vec<(u64, bool, String)>,
    matches: usize,
}

impl grep_searcher::Sink for HitSink {
    type Error = std::io::Error;
    fn matched(
        &mut self,
        _: &grep_searcher::Searcher,
        m: &grep_searcher::SinkMatch<'_>,
    ) -> Result<bool, Self::Error> {
        self.matches += 1;
        let first = m.line_number().unwrap_or(0);
        for (i, line) in m.lines().enumerate() {
            self.lines.push((first + i as u64, true, line_text(line)));
        }
        Ok(true)
    }
    fn context(
        &mut self,
        _: &grep_searcher::Searcher,
        c: &grep_searcher::SinkContext<'_>,
    ) -> Result<bool, Self::Error> {
        self.lines
            .push((c.line_number().unwrap_or(0), false, line_text(c.bytes())));
        Ok(true)
    }
}

fn line_text(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let s = s.trim_end_matches(['\n', '\r']);
    cut_chars(s, MAX_LINE_CHARS).into_owned()
}

fn render_search(files: Vec<FileHits>, mode: &str, max: usize, pattern: &str) -> ToolResult {
    if files.is_empty() {
        return ToolResult::silent(format!("No matches for {pattern}"));
    }
    let mut out = String::new();
    let (mut shown, mut total) = (0usize, 0usize);
    match mode {
        "files_with_matches" => {
            total = files.len();
            for f in files.iter().take(max) {
                out.push_str(&format!("{}\n", f.path.display()));
                shown += 1;
            }
        }
        "count" => {
            total = files.len();
            for f in files.iter().take(max) {
                out.push_str(&format!("{}:{}\n", f.path.display(), f.matches));
                shown += 1;
            }
        }
        _ => {
            for f in &files {
                for (n, is_match, text) in &f.lines {
                    if *is_match {
                        total += 1;
                        if shown >= max {
                            continue;
                        }
                        shown += 1;
                        out.push_str(&format!("{}:{n}:{text}\n", f.path.display()));
                    } else if shown < max {
                        out.push_str(&format!("{}-{n}-{text}\n", f.path.display()));
                    }
                }
            }
        }
    }
    if total > shown {
        out.push_str(&format!(
            "[{} more results not shown ({total} in all); narrow the pattern or raise max_results]\n",
            total - shown
        ));
    }
    ToolResult::silent(out)
}

/// `delete_file`.
pub struct DeleteFile;

impl Tool for DeleteFile {
    fn name(&self) -> &'static str {
        "delete_file"
    }
    fn description(&self) -> &'static str {
        "Delete a file in the workspace; a backup is kept in .goclaw/backups."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]})
    }
    fn risk(&self) -> Risk {
        Risk::Destructive
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        done(delete_file(ctx, args))
    }
}

/// The body of `delete_file`.
fn delete_file(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let path = required_path(args)?;
    let ws = workspace(ctx)?;
    ws.target(path, false).and_then(|t| ws.remove(&t))?;
    Ok(ToolResult::silent(format!(
        "File deleted: {path} (backup in {})",
        super::workspace::BACKUP_DIR
    )))
}

/// `move_file`.
pub struct MoveFile;

impl Tool for MoveFile {
    fn name(&self) -> &'static str {
        "move_file"
    }
    fn description(&self) -> &'static str {
        "Move or rename a file inside the workspace. An existing destination is refused unless overwrite is true."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "source":{"type":"string"},"destination":{"type":"string"},"overwrite":{"type":"boolean"}},
            "required":["source","destination"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>) -> ToolResult {
        done(move_file(ctx, args))
    }
}

/// The body of `move_file`.
fn move_file(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let (src, dst) = (
        str_arg(args, "source").unwrap_or_default(),
        str_arg(args, "destination").unwrap_or_default(),
    );
    if src.is_empty() || dst.is_empty() {
        return Err(ToolResult::error("source and destination are required"));
    }
    let ws = workspace(ctx)?;
    let from = ws.target(src, false)?;
    if ws.stat_in(&from)?.is_none() {
        return Err(ToolResult::error(format!("no such file: {src}")));
    }
    let to = ws.target(dst, true)?;
    match ws.stat_in(&to)? {
        Some(_) if !bool_arg(args, "overwrite") => {
            return Err(ToolResult::error(format!(
                "{dst} already exists; pass overwrite=true to replace it"
            )));
        }
        Some(m) if m.is_dir => {
            return Err(ToolResult::error(format!("{dst} is a directory")));
        }
        // Keep what the overwrite replaces.
        Some(_) => ws.backup(&to)?,
        None => {}
    }
    ws.rename(&from, &to)?;
    Ok(ToolResult::silent(format!("File moved: {src} -> {dst}")))
}
