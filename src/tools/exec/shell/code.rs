//! Code in arguments that the shell reader cannot follow exactly: an awk program that runs
//! commands (`system()`, a pipe to or from one), a sed script with `e`, `make --eval`, an
//! editor given `:!…`. Each reader says why the command is opaque, or `None`; read loosely, so
//! doubt makes it opaque.

use super::options::Options;
use super::views::reads_stdin;

/// `make --eval TEXT` and a makefile read from the input run recipes the command line holds.
pub(super) fn make(argv: &[String]) -> Option<String> {
    let mut opaque = None;
    for (i, a) in argv.iter().enumerate().skip(1) {
        // A makefile read from standard input: `-f -`, `-f-`, `--file=-`, `-f /dev/./stdin`.
        let attached = a
            .strip_prefix("--file=")
            .or_else(|| a.strip_prefix("--makefile="))
            .or_else(|| a.strip_prefix("-f").filter(|v| !v.is_empty()));
        let stdin = attached.is_some_and(reads_stdin)
            || (matches!(a.as_str(), "-f" | "--file" | "--makefile")
                && argv.get(i + 1).is_some_and(|f| reads_stdin(f)));
        let shell = a.starts_with("SHELL=") || a.starts_with(".SHELLFLAGS=");
        if stdin || a.starts_with("--eval") || a == "-E" || shell {
            opaque = Some(format!("`make {a}` runs recipes the reader cannot follow"));
        }
    }
    opaque
}

/// awk: a program that runs commands (`system()`, a pipe to or from a command). Its options
/// are read as gawk's; one it does not know makes the command opaque.
pub(super) fn awk(argv: &[String]) -> Option<String> {
    const AWK: Options = Options {
        flags: "bcCdhMNOPrstVSgp",
        valued: "FvfeiElLo",
        optional: "",
        long_flags: &[
            "characters-as-bytes",
            "traditional",
            "copyright",
            "debug",
            "help",
            "bignum",
            "use-lc-numeric",
            "optimize",
            "posix",
            "re-interval",
            "no-optimize",
            "sandbox",
            "lint-old",
            "version",
            "gen-pot",
            "dump-variables",
            "pretty-print",
            "profile",
            "lint",
        ],
        long_valued: &[
            "field-separator",
            "assign",
            "file",
            "source",
            "include",
            "exec",
            "load",
        ],
    };
    let read = match AWK.read(argv, 1) {
        Ok(read) => read,
        Err(why) => return Some(format!("awk: {why}")),
    };
    let mut programs: Vec<String> = read
        .given
        .iter()
        .filter(|(o, _)| matches!(o.as_str(), "-e" | "--source"))
        .filter_map(|(_, v)| v.clone())
        .collect();
    let from_file = read.given.iter().any(|(o, _)| {
        matches!(
            o.as_str(),
            "-f" | "--file" | "-E" | "--exec" | "-i" | "--include"
        )
    });
    if read.given.iter().any(|(o, v)| {
        matches!(o.as_str(), "-f" | "--file" | "-E" | "--exec")
            && v.as_deref().is_some_and(reads_stdin)
    }) {
        return Some("an awk program read from standard input".into());
    }
    if !from_file && programs.is_empty() {
        programs.extend(argv.get(read.next).cloned());
    }
    let runs = programs.iter().any(|p| awk_runs(p));
    runs.then(|| "an awk program that runs commands (`system`, a pipe)".to_string())
}

/// Whether awk code runs a command: `system(`, a command piped into `getline` (`"cmd" |
/// getline`), or a `print`/`printf` statement with a pipe (`print x | "cmd"`, `|&`). Strings
/// are left in: a statement is what lies between `;`, braces and line ends, quotes and all.
fn awk_runs(code: &str) -> bool {
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    if code
        .split("system")
        .skip(1)
        .any(|after| after.trim_start().starts_with('('))
        && words.contains(&"system")
    {
        return true;
    }
    let pipe = |s: &str| s.replace("||", "").contains('|');
    code.split(['{', '}', ';', '\n']).any(|statement| {
        let words: Vec<&str> = statement
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .collect();
        pipe(statement)
            && (words.contains(&"getline") || words.contains(&"print") || words.contains(&"printf"))
    })
}

/// sed: a script with the `e` command or an `s///e` (GNU sed runs the pattern space). Its
/// options are read as GNU sed's; one it does not know makes the command opaque.
pub(super) fn sed(argv: &[String]) -> Option<String> {
    const SED: Options = Options {
        flags: "nrEsuz",
        valued: "efl",
        optional: "i",
        long_flags: &[
            "quiet",
            "silent",
            "debug",
            "follow-symlinks",
            "in-place",
            "posix",
            "regexp-extended",
            "separate",
            "sandbox",
            "unbuffered",
            "null-data",
            "zero-terminated",
            "binary",
            "help",
            "version",
        ],
        long_valued: &["expression", "file", "line-length"],
    };
    let read = match SED.read(argv, 1) {
        Ok(read) => read,
        Err(why) => return Some(format!("sed: {why}")),
    };
    // `--sandbox` refuses `e`, `r` and `w`.
    if read.given.iter().any(|(o, _)| o == "--sandbox") {
        return None;
    }
    let mut scripts: Vec<String> = read
        .given
        .iter()
        .filter(|(o, _)| matches!(o.as_str(), "-e" | "--expression"))
        .filter_map(|(_, v)| v.clone())
        .collect();
    let from_file = read
        .given
        .iter()
        .any(|(o, _)| matches!(o.as_str(), "-f" | "--file"));
    if read.given.iter().any(|(o, v)| {
        matches!(o.as_str(), "-f" | "--file") && v.as_deref().is_some_and(reads_stdin)
    }) {
        return Some("a sed script read from standard input".into());
    }
    if scripts.is_empty() && !from_file {
        scripts.extend(argv.get(read.next).cloned());
    }
    let runs = scripts.iter().any(|s| sed_runs(s));
    runs.then(|| "a sed script that runs commands (`e`)".to_string())
}

/// Whether a sed script holds the `e` command or an `s` command with the `e` flag, read command
/// by command: addresses (numbers, `$`, `/re/` or `\cREc` with `I`/`M`, ranges, `!`), then one
/// command and what belongs to it (the parts of `s` and `y`, the text of `a`/`i`/`c`, a file or
/// label name to the end of the line).
fn sed_runs(script: &str) -> bool {
    let b = script.as_bytes();
    let mut i = 0;
    // The end of a delimited part starting at `i` (after its opening `d`): past its closing `d`.
    let part = |mut i: usize, d: u8| {
        while i < b.len() && b[i] != d {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        i + 1
    };
    let line_end = |i: usize| {
        b[i.min(b.len())..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |p| i + p)
    };
    while i < b.len() {
        // Separators and addresses.
        match b[i] {
            b' ' | b'\t' | b'\n' | b';' | b'{' | b'}' | b'!' | b',' | b'+' | b'~' | b'$' => {
                i += 1;
                continue;
            }
            b'0'..=b'9' => {
                i += 1;
                continue;
            }
            b'/' => {
                i = part(i + 1, b'/');
                while i < b.len() && matches!(b[i], b'I' | b'M') {
                    i += 1;
                }
                continue;
            }
            b'\\' if i + 1 < b.len() => {
                i = part(i + 2, b[i + 1]);
                while i < b.len() && matches!(b[i], b'I' | b'M') {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        let command = b[i];
        i += 1;
        match command {
            b'e' => return true,
            b's' if i < b.len() => {
                let d = b[i];
                i = part(part(i + 1, d), d);
                let flags_end = b[i.min(b.len())..]
                    .iter()
                    .position(|&c| matches!(c, b';' | b'\n' | b'}'))
                    .map_or(b.len(), |p| i + p);
                let flags = &b[i.min(b.len())..flags_end];
                // The `w FILE` flag takes the rest of the line.
                let before_w = flags
                    .iter()
                    .position(|&c| c == b'w')
                    .map_or(flags, |w| &flags[..w]);
                if before_w.contains(&b'e') {
                    return true;
                }
                i = if flags.contains(&b'w') {
                    line_end(i)
                } else {
                    flags_end
                };
            }
            b'y' if i < b.len() => {
                let d = b[i];
                i = part(part(i + 1, d), d);
            }
            b'a' | b'i' | b'c' | b'r' | b'R' | b'w' | b'W' | b'#' => i = line_end(i),
            // A label ends at `;` too (`:a;N;$!ba`).
            b'b' | b't' | b'T' | b':' => {
                while i < b.len() && !matches!(b[i], b';' | b'\n') {
                    i += 1;
                }
            }
            _ => {}
        }
    }
    false
}

/// vi and its kin: `-c CMD`, `+CMD` or `--cmd CMD` with a `!` (a shell command) or `system(`.
pub(super) fn vim(argv: &[String]) -> Option<String> {
    let runs = argv.iter().enumerate().skip(1).any(|(i, a)| {
        let command = if a == "-c" || a == "--cmd" || a == "-S" {
            argv.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix('+')
        };
        command.is_some_and(|c| c.contains('!') || c.contains("system(") || c.contains("py"))
            || a == "-S"
    });
    runs.then(|| "an editor given commands that run programs".to_string())
}
