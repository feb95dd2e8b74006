//! `codemap` (seed 004): an outline of the source under a directory of the workspace: per
//! file its language, size in lines, top-level symbols (kind, name, line) and what it imports,
//! ctags-style: one regular expression per kind and language over each line, no parser. It
//! walks as `search` does (.gitignore honoured, hidden files skipped, denied paths never
//! entered) and reads every file through the workspace's containment. Bounded: at most
//! `max_files` files (default 200), files of at most 1 MiB, 100 symbols per file, and about
//! 200 000 characters of answer.

use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value, json};

use super::find::{beneath, walker};
use super::{Step, done, num_arg, str_arg, workspace};
use crate::store::Store;
use crate::tools::{CallContext, Risk, Tool, ToolResult};

const DEFAULT_FILES: usize = 200;
const MAX_FILES: usize = 2000;
const MAX_FILE_BYTES: u64 = 1 << 20;
const MAX_SYMBOLS: usize = 100;
/// The most an answer holds (characters of JSON); the files past it are counted, not shown.
const MAX_ANSWER: usize = 200_000;

/// A language: its name, the file extensions it has, its symbol patterns (kind, regex with the
/// name in group 1) and its import pattern (the module in group 1).
struct Lang {
    name: &'static str,
    exts: &'static [&'static str],
    symbols: &'static [(&'static str, &'static str)],
    import: &'static str,
}

const LANGS: &[Lang] = &[
    Lang {
        name: "rust",
        exts: &["rs"],
        symbols: &[
            (
                "fn",
                r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+|extern\s+\S+\s+)*fn\s+([A-Za-z_]\w*)",
            ),
            (
                "struct",
                r"^\s*(?:pub(?:\([^)]*\))?\s+)?struct\s+([A-Za-z_]\w*)",
            ),
            (
                "enum",
                r"^\s*(?:pub(?:\([^)]*\))?\s+)?enum\s+([A-Za-z_]\w*)",
            ),
            (
                "trait",
                r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?trait\s+([A-Za-z_]\w*)",
            ),
            (
                "impl",
                r"^\s*impl(?:<[^>]*>)?\s+(?:[\w:<>, ]+\s+for\s+)?([A-Za-z_][\w:]*)",
            ),
            ("mod", r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_]\w*)"),
            (
                "type",
                r"^\s*(?:pub(?:\([^)]*\))?\s+)?type\s+([A-Za-z_]\w*)",
            ),
            (
                "const",
                r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+([A-Z_][A-Z0-9_]*)\s*:",
            ),
            ("macro", r"^\s*macro_rules!\s+([A-Za-z_]\w*)"),
        ],
        import: r"^\s*(?:pub\s+)?use\s+([\w:]+)",
    },
    Lang {
        name: "python",
        exts: &["py"],
        symbols: &[
            ("def", r"^(?:async\s+)?def\s+([A-Za-z_]\w*)"),
            ("class", r"^class\s+([A-Za-z_]\w*)"),
            ("method", r"^\s+(?:async\s+)?def\s+([A-Za-z_]\w*)"),
        ],
        import: r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))",
    },
    Lang {
        name: "javascript",
        exts: &["js", "mjs", "cjs", "jsx", "ts", "tsx"],
        symbols: &[
            (
                "function",
                r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)",
            ),
            (
                "class",
                r"^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)",
            ),
            (
                "interface",
                r"^\s*(?:export\s+)?interface\s+([A-Za-z_$][\w$]*)",
            ),
            ("type", r"^\s*(?:export\s+)?type\s+([A-Za-z_$][\w$]*)\s*="),
            (
                "const",
                r"^\s*(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>",
            ),
        ],
        import: r#"^\s*(?:import\s.*?from\s+['"]([^'"]+)['"]|import\s+['"]([^'"]+)['"]|.*require\(\s*['"]([^'"]+)['"]\s*\))"#,
    },
    Lang {
        name: "go",
        exts: &["go"],
        symbols: &[
            ("func", r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)"),
            ("type", r"^type\s+([A-Za-z_]\w*)"),
        ],
        import: r#"^\s*(?:import\s+)?(?:\w+\s+)?"([^"]+)"\s*$"#,
    },
    Lang {
        name: "java",
        exts: &["java", "kt", "cs", "scala"],
        symbols: &[
            (
                "class",
                r"^\s*(?:(?:public|private|protected|internal|abstract|final|static|sealed|data|open)\s+)*(?:class|object)\s+([A-Za-z_]\w*)",
            ),
            (
                "interface",
                r"^\s*(?:(?:public|private|protected|internal)\s+)*interface\s+([A-Za-z_]\w*)",
            ),
            (
                "enum",
                r"^\s*(?:(?:public|private|protected|internal)\s+)*enum\s+(?:class\s+)?([A-Za-z_]\w*)",
            ),
        ],
        import: r"^\s*(?:import|using)\s+(?:static\s+)?([\w.]+)",
    },
    Lang {
        name: "c",
        exts: &["c", "h", "cc", "cpp", "hpp", "cxx"],
        symbols: &[
            (
                "function",
                r"^[A-Za-z_][\w\s\*&:<>,]*?\b([A-Za-z_]\w*)\s*\([^;]*$",
            ),
            (
                "struct",
                r"^\s*(?:typedef\s+)?(?:struct|class|union|enum)\s+([A-Za-z_]\w*)\s*\{?\s*$",
            ),
            ("define", r"^\s*#\s*define\s+([A-Za-z_]\w*)"),
        ],
        import: r#"^\s*#\s*include\s+[<"]([^>"]+)[>"]"#,
    },
    Lang {
        name: "ruby",
        exts: &["rb"],
        symbols: &[
            ("def", r"^\s*def\s+(?:self\.)?([A-Za-z_]\w*[?!=]?)"),
            ("class", r"^\s*class\s+([A-Z]\w*)"),
            ("module", r"^\s*module\s+([A-Z]\w*)"),
        ],
        import: r#"^\s*require(?:_relative)?\s+['"]([^'"]+)['"]"#,
    },
    Lang {
        name: "shell",
        exts: &["sh", "bash", "zsh"],
        symbols: &[(
            "function",
            r"^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{?",
        )],
        import: r#"^\s*(?:source|\.)\s+['"]?([^'"\s]+)"#,
    },
];

/// The compiled patterns of every language, in [`LANGS`]' order (a unit test keeps every
/// pattern compiling).
struct Compiled {
    symbols: Vec<(&'static str, Regex)>,
    import: Option<Regex>,
}

fn compiled() -> &'static [Compiled] {
    static C: OnceLock<Vec<Compiled>> = OnceLock::new();
    C.get_or_init(|| {
        LANGS
            .iter()
            .map(|l| Compiled {
                symbols: l
                    .symbols
                    .iter()
                    .filter_map(|(k, p)| Regex::new(p).ok().map(|r| (*k, r)))
                    .collect(),
                import: Regex::new(l.import).ok(),
            })
            .collect()
    })
}

/// The outline of one file's text.
pub fn outline(lang: usize, text: &str) -> (Vec<Value>, Vec<String>) {
    let c = &compiled()[lang];
    let mut symbols = Vec::new();
    let mut imports: Vec<String> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.len() > 1000 {
            continue;
        }
        if symbols.len() < MAX_SYMBOLS
            && let Some((kind, name)) = c.symbols.iter().find_map(|(k, r)| {
                r.captures(line)
                    .and_then(|cap| cap.get(1))
                    .map(|m| (*k, m.as_str().to_string()))
            })
        {
            symbols.push(json!({"kind": kind, "name": name, "line": n + 1}));
        }
        if let Some(cap) = c.import.as_ref().and_then(|r| r.captures(line))
            && let Some(m) = cap.iter().skip(1).flatten().next()
            && !imports.iter().any(|i| i == m.as_str())
            && imports.len() < MAX_SYMBOLS
        {
            imports.push(m.as_str().to_string());
        }
    }
    (symbols, imports)
}

/// `codemap {path?, max_files?}`.
pub struct Codemap;

impl Tool for Codemap {
    fn name(&self) -> &'static str {
        "codemap"
    }
    fn description(&self) -> &'static str {
        "Outline the source code under a directory: per file its language, lines, top-level symbols with their line numbers, and its imports"
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "path":{"type":"string","description":"Directory in the workspace, default ."},
            "max_files":{"type":"integer","minimum":1,"maximum":MAX_FILES,"description":"At most this many files (default 200)"}}})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>, _: &mut Store) -> ToolResult {
        done(codemap(ctx, args))
    }
}

fn language(path: &Path) -> Option<usize> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    LANGS.iter().position(|l| l.exts.contains(&ext.as_str()))
}

fn codemap(ctx: &CallContext, args: &Map<String, Value>) -> Step {
    let ws = workspace(ctx)?;
    let dir = str_arg(args, "path")
        .filter(|p| !p.is_empty())
        .unwrap_or(".");
    let max = num_arg(args, "max_files")
        .filter(|&n| n > 0)
        .map_or(DEFAULT_FILES, |n| (n as usize).min(MAX_FILES));
    let (fd, start) = ws.open_dir(dir)?;
    drop(fd);
    let mut files: Vec<(std::path::PathBuf, usize)> = walker(&ws, &start)
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| {
            let rel = beneath(e.path(), ws.root())?.to_path_buf();
            language(&rel).map(|l| (rel, l))
        })
        .collect();
    files.sort();
    let total = files.len();
    let mut out = Vec::new();
    let (mut size, mut shown) = (0, 0);
    for (rel, lang) in files.into_iter().take(max) {
        if size > MAX_ANSWER {
            break;
        }
        shown += 1;
        let Ok(file) = ws.open_walked_file(&rel) else {
            continue;
        };
        let mut bytes = Vec::new();
        if file
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .is_err()
            || bytes.len() as u64 > MAX_FILE_BYTES
        {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        let (symbols, imports) = outline(lang, &text);
        let entry = json!({
            "path": rel.display().to_string(),
            "language": LANGS[lang].name,
            "lines": text.lines().count(),
            "symbols": symbols,
            "imports": imports,
        });
        size += entry.to_string().len();
        out.push(entry);
    }
    let mut doc = json!({"files": out, "count": out.len()});
    if total > shown {
        doc["more"] = format!(
            "{} more source files not shown: narrow path or raise max_files (an answer holds about {MAX_ANSWER} characters)",
            total - shown
        )
        .into();
    }
    Ok(ToolResult::text(doc.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        for l in LANGS {
            for (_, p) in l.symbols {
                assert!(Regex::new(p).is_ok(), "{p}");
            }
            assert!(Regex::new(l.import).is_ok(), "{}", l.import);
        }
    }

    #[test]
    fn outlines_rust_and_python() {
        let rust = "use std::io;\npub struct Config {\n}\nimpl Config {\n    pub fn load() {}\n}\nasync fn run() {}\npub const LIMIT: usize = 3;\n";
        let (symbols, imports) = outline(0, rust);
        let names: Vec<(&str, &str)> = symbols
            .iter()
            .map(|s| (s["kind"].as_str().unwrap(), s["name"].as_str().unwrap()))
            .collect();
        assert_eq!(
            names,
            [
                ("struct", "Config"),
                ("impl", "Config"),
                ("fn", "load"),
                ("fn", "run"),
                ("const", "LIMIT")
            ]
        );
        assert_eq!(imports, ["std::io"]);
        let py = "import os\nfrom a.b import c\nclass A:\n    def m(self):\n        pass\ndef f():\n    pass\n";
        let (symbols, imports) = outline(1, py);
        assert_eq!(symbols.len(), 3);
        assert_eq!(symbols[1]["kind"], "method");
        assert_eq!(imports, ["os", "a.b"]);
    }
}
