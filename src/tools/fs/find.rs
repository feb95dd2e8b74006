//! The file tools that look without changing anything, but for `glob` (its own file):
//! `list_files` (one directory) and `search` (file contents, ripgrep's libraries), with the
//! tree walker `search` and `codemap` share.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Map, Value, json};

use super::{
    MAX_LINE_CHARS, SEARCH_MAX_RESULTS, Step, bool_arg, cut_chars, done, fail, num_arg, shown_path,
    str_arg, workspace,
};
use crate::store::Store;
use crate::tools::workspace::{FsErrorKind, Workspace, list_dir};
use crate::tools::{CallContext, Risk, Tool, ToolResult};

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
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
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
        Err(e) if e.kind == FsErrorKind::NotFound => {
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
        let name = shown_path(Path::new(&name));
        if meta.is_dir() {
            out.push_str(&format!("[DIR]  {name}/\n"));
        } else {
            out.push_str(&format!("[FILE] {name} ({} bytes)\n", meta.len()));
        }
    }
    Ok(ToolResult::silent(out))
}

/// Walks files under `start` (a workspace-relative directory) as ripgrep does, honouring
/// .gitignore and skipping hidden files, never into denied prefixes.
pub(super) fn walker(ws: &Workspace, start: &Path) -> ignore::WalkBuilder {
    let mut b = ignore::WalkBuilder::new(ws.absolute(start));
    b.standard_filters(true)
        .hidden(true)
        .follow_links(false)
        .require_git(false);
    let root = ws.root().to_path_buf();
    let ws_denied = ws.denied().to_vec();
    b.filter_entry(move |e| {
        let rel = beneath(e.path(), &root).unwrap_or(e.path());
        !ws_denied.iter().any(|d| under(rel, d))
    });
    b
}

/// `path` relative to `root` when it lies beneath it. By bytes: a walk's paths are `root`
/// joined with names, and `Path::strip_prefix`, which compares component by component, was
/// the costliest step of a walk of every entry. Paths spelled otherwise fall back to it.
pub(super) fn beneath<'p>(path: &'p Path, root: &Path) -> Option<&'p Path> {
    let (p, r) = (path.as_os_str().as_bytes(), root.as_os_str().as_bytes());
    let fast = match p.strip_prefix(r) {
        Some(rest) if r.ends_with(b"/") => Some(rest),
        Some([]) => Some(&[][..]),
        Some([b'/', rest @ ..]) => Some(rest),
        _ => None,
    };
    match fast {
        Some(rest) => Some(Path::new(OsStr::from_bytes(rest))),
        None => path.strip_prefix(root).ok(),
    }
}

/// Whether `rel` is `prefix` or lies beneath it, by bytes (both relative to the root, as the
/// walk spells them).
fn under(rel: &Path, prefix: &Path) -> bool {
    let (r, d) = (rel.as_os_str().as_bytes(), prefix.as_os_str().as_bytes());
    match r.strip_prefix(d) {
        Some(rest) => rest.is_empty() || rest.starts_with(b"/") || d.ends_with(b"/"),
        None => false,
    }
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
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        done(search(ctx, args))
    }
}

/// The body of `search`.
fn search(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let pattern = str_arg(args, "pattern").unwrap_or_default();
    if pattern.is_empty() {
        return Err(ToolResult::bad_args("pattern is required"));
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
        Err(e) if e.kind == FsErrorKind::NotADirectory => match ws.open_file(dir) {
            Ok((_, rel)) => rel,
            Err(e) => return Err(fail(e)),
        },
        Err(e) => return Err(fail(e)),
    };
    let (matcher, include) = search_matchers(args, pattern)?;
    let results: Mutex<Vec<FileHits>> = Mutex::new(Vec::new());
    let multiline = bool_arg(args, "multiline");
    // The search stops once one more than `max` results were found (matches, or files in the
    // files modes): enough to show `max` and say there are more.
    let found = AtomicUsize::new(0);
    let per_file = mode == "content";
    walker(&ws, &start).build_parallel().run(|| {
        let (ws, matcher, include, results, found) = (&ws, &matcher, &include, &results, &found);
        let mut searcher = grep_searcher::SearcherBuilder::new()
            .line_number(true)
            .before_context(context)
            .after_context(context)
            .multi_line(multiline)
            .binary_detection(grep_searcher::BinaryDetection::quit(0))
            .build();
        Box::new(move |entry| {
            if found.load(Ordering::Relaxed) > max {
                return ignore::WalkState::Quit;
            }
            let Ok(entry) = entry else {
                return ignore::WalkState::Continue;
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return ignore::WalkState::Continue;
            }
            let rel = beneath(entry.path(), ws.root())
                .unwrap_or(entry.path())
                .to_path_buf();
            if let Some(inc) = include {
                let name_ok = entry.path().file_name().is_some_and(|n| inc.is_match(n));
                if !name_ok && !inc.is_match(&rel) {
                    return ignore::WalkState::Continue;
                }
            }
            // Contents are read only through the workspace: contained even if the tree changes.
            let Ok(file) = ws.open_walked_file(&rel) else {
                return ignore::WalkState::Continue;
            };
            let mut sink = HitSink {
                lines: Vec::new(),
                matches: 0,
                found: per_file.then_some((found, max)),
            };
            if searcher.search_file(matcher, &file, &mut sink).is_ok()
                && sink.matches > 0
                && let Ok(mut r) = results.lock()
            {
                if !per_file {
                    found.fetch_add(1, Ordering::Relaxed);
                }
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
    let stopped = found.into_inner() > max;
    Ok(render_search(files, mode, max, pattern, stopped))
}

/// The regex of a search and its `include` glob.
fn search_matchers(
    args: &Map<String, Value>,
    pattern: &str,
) -> Result<(grep_regex::RegexMatcher, Option<globset::GlobMatcher>), ToolResult> {
    let matcher = grep_regex::RegexMatcherBuilder::new()
        .case_insensitive(bool_arg(args, "case_insensitive"))
        .multi_line(bool_arg(args, "multiline"))
        .dot_matches_new_line(bool_arg(args, "multiline"))
        .build(pattern)
        .map_err(|e| ToolResult::bad_args(&format!("invalid regex: {e}")))?;
    let include = match str_arg(args, "include") {
        Some(g) => Some(
            globset::Glob::new(g)
                .map_err(|e| ToolResult::bad_args(&format!("invalid include glob: {e}")))?
                .compile_matcher(),
        ),
        None => None,
    };
    Ok((matcher, include))
}

struct FileHits {
    path: PathBuf,
    /// (line number, is a match, text)
    lines: Vec<(u64, bool, String)>,
    matches: usize,
}

struct HitSink<'f> {
    lines: Vec<(u64, bool, String)>,
    matches: usize,
    /// The search's count of matches and its limit: a file's search stops once past it.
    found: Option<(&'f AtomicUsize, usize)>,
}

impl grep_searcher::Sink for HitSink<'_> {
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
        Ok(match self.found {
            Some((found, max)) => found.fetch_add(1, Ordering::Relaxed) < max,
            None => true,
        })
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

/// The results, sorted by path. When the search stopped at its limit (`stopped`), they are
/// the first found (the walk is parallel), and the note says there are more.
fn render_search(
    files: Vec<FileHits>,
    mode: &str,
    max: usize,
    pattern: &str,
    stopped: bool,
) -> ToolResult {
    if files.is_empty() {
        return ToolResult::silent(format!("No matches for {pattern}"));
    }
    let mut out = String::new();
    let (mut shown, mut total) = (0usize, 0usize);
    match mode {
        "files_with_matches" => {
            total = files.len();
            for f in files.iter().take(max) {
                out.push_str(&format!("{}\n", shown_path(&f.path)));
                shown += 1;
            }
        }
        "count" => {
            total = files.len();
            for f in files.iter().take(max) {
                out.push_str(&format!("{}:{}\n", shown_path(&f.path), f.matches));
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
                        out.push_str(&format!("{}:{n}:{text}\n", shown_path(&f.path)));
                    } else if shown < max {
                        out.push_str(&format!("{}-{n}-{text}\n", shown_path(&f.path)));
                    }
                }
            }
        }
    }
    if stopped {
        out.push_str(&format!(
            "[more results not shown: the search stopped at max_results ({max}); narrow the pattern or raise max_results]\n"
        ));
    } else if total > shown {
        out.push_str(&format!(
            "[{} more results not shown ({total} in all); narrow the pattern or raise max_results]\n",
            total - shown
        ));
    }
    ToolResult::silent(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beneath_and_under_by_bytes() {
        let p = Path::new;
        assert_eq!(beneath(p("/w/a/b.rs"), p("/w")), Some(p("a/b.rs")));
        assert_eq!(beneath(p("/w/a/b.rs"), p("/w/")), Some(p("a/b.rs")));
        assert_eq!(beneath(p("/w"), p("/w")), Some(p("")));
        assert_eq!(beneath(p("/wx/a"), p("/w")), None);
        assert!(under(p(".goclaw"), p(".goclaw")));
        assert!(under(p(".goclaw/x"), p(".goclaw")));
        assert!(!under(p(".goclawx"), p(".goclaw")));
        assert!(!under(p("a/.goclaw"), p(".goclaw")));
        assert!(under(p("a/b/c"), p("a/b")));
    }
}
