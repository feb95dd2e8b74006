//! The file tools that change the workspace: `write_file` (context files and memory documents
//! go to the store), `edit`, `delete_file` and `move_file`. Writes are atomic and what they
//! replace or remove is backed up.

use serde_json::{Map, Value, json};

use super::{Step, bool_arg, done, required_path, str_arg, workspace};
use crate::store::Store;
use crate::tools::{CallContext, Risk, Tool, ToolResult};

/// `write_file` of a context file or memory document: to the store.
fn write_routed(
    ctx: &CallContext,
    store: &mut Store,
    routed: crate::memory::files::Routed,
    path: &str,
    content: &str,
    append: bool,
) -> Step {
    use crate::memory::files::{self, Routed};
    let owner = ctx.files_owner();
    let old = match &routed {
        Routed::Context(name) => files::read_context(store.db(), &owner, name)?,
        Routed::Memory(p) => files::read_memory(store.db(), &owner, p)?,
    };
    let new = match (append, old) {
        (true, Some(old)) if !old.is_empty() => format!("{old}{content}"),
        _ => content.to_string(),
    };
    let warning = match &routed {
        Routed::Context(name) => {
            files::write_context(store.db(), &owner, name, &new)?;
            None
        }
        Routed::Memory(p) => {
            files::write_memory(store.db(), &owner, p, &new, ctx.embedder.as_ref())?
        }
    };
    let verb = if append { "appended" } else { "written" };
    let mut text = format!("File {verb}: {path} ({} bytes)", content.len());
    if let Some(w) = warning {
        text.push_str(&format!(" ({w})"));
    }
    Ok(ToolResult::silent(text))
}

/// `write_file`.
pub struct WriteFile;

impl Tool for WriteFile {
    fn in_call_order(&self) -> bool {
        true
    }
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
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        done(write_file(ctx, args, store))
    }
}

/// The body of `write_file`.
fn write_file(ctx: &CallContext, args: &Map<String, Value>, store: &mut Store) -> Step {
    let path = required_path(args)?;
    let content = str_arg(args, "content").unwrap_or_default();
    if let Some(routed) = crate::memory::files::route(path) {
        return write_routed(ctx, store, routed, path, content, bool_arg(args, "append"));
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
    fn in_call_order(&self) -> bool {
        true
    }
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
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        done(edit(ctx, args))
    }
}

/// The body of `edit`.
fn edit(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let path = required_path(args)?;
    let old = str_arg(args, "old_string").unwrap_or_default();
    let new = str_arg(args, "new_string").unwrap_or_default();
    if old.is_empty() {
        return Err(ToolResult::bad_args("old_string is required"));
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

/// `delete_file`.
pub struct DeleteFile;

impl Tool for DeleteFile {
    fn in_call_order(&self) -> bool {
        true
    }
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
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
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
        crate::tools::workspace::BACKUP_DIR
    )))
}

/// `move_file`.
pub struct MoveFile;

impl Tool for MoveFile {
    fn in_call_order(&self) -> bool {
        true
    }
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
    /// A move that replaces a file destroys that file (a backup is kept, but it is gone from
    /// where it was).
    fn call_risk(&self, args: &Map<String, Value>) -> Risk {
        if bool_arg(args, "overwrite") {
            Risk::Destructive
        } else {
            Risk::Medium
        }
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
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
        return Err(ToolResult::bad_args("source and destination are required"));
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
