//! `read_file`: numbered lines of a text file in the workspace, in ranges for large files, with
//! binary files refused; context files and memory documents are read from the store instead.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde_json::{Map, Value, json};

use super::{
    MAX_LINE_CHARS, MAX_READ_BYTES, MAX_READ_CHARS, Step, cut_chars, done, num_arg, required_path,
    workspace,
};
use crate::store::Store;
use crate::tools::{CallContext, Risk, Tool, ToolResult};

/// Extensions `read_file` refuses (GoClaw's list).
const BINARY_EXTENSIONS: &[&str] = &[
    "jpg", "jpeg", "png", "gif", "webp", "bmp", "ico", "tiff", "tif", "mp3", "wav", "ogg", "flac",
    "aac", "m4a", "mp4", "avi", "mov", "mkv", "webm", "zip", "tar", "gz", "bz2", "7z", "rar",
    "pdf", "docx", "xlsx", "pptx", "exe", "dll", "so", "dylib",
];

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
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        done(read_file(ctx, args, store))
    }
}

/// `read_file` of a context file or memory document: from the store (the interceptor).
fn read_routed(
    ctx: &CallContext,
    store: &Store,
    routed: crate::memory::files::Routed,
    path: &str,
    args: &Map<String, Value>,
) -> Step {
    use crate::memory::files::{self, Routed};
    let owner = ctx.files_owner();
    let content = match &routed {
        Routed::Context(name) => files::read_context(store.db(), &owner, name)?,
        Routed::Memory(p) => files::read_memory(store.db(), &owner, p)?,
    };
    let Some(content) = content else {
        let mut r = ToolResult::error(format!("failed to read file: {path} does not exist"));
        r.error_kind = Some(crate::error::ErrorKind::NotFound);
        return Err(r);
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

/// The body of `read_file`.
fn read_file(ctx: &CallContext, args: &Map<String, Value>, store: &Store) -> Step {
    let path = required_path(args)?;
    if let Some(routed) = crate::memory::files::route(path) {
        return read_routed(ctx, store, routed, path, args);
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
            return Err(super::failed_as(
                format!("failed to read file: {}", e.message),
                &e,
            ));
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
