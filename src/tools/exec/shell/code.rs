//! Code in arguments that the shell reader cannot follow exactly: an awk program that runs
//! commands (`system()`, a pipe to or from one), a sed script with `e`, `make --eval`, an
//! editor given `:!…`. Each reader says why the command is opaque, or `None`; read loosely, so
//! doubt makes it opaque.

use super::carriers::option_value;

/// `make --eval TEXT` and a makefile read from the input run recipes the command line holds.
pub(super) fn make(argv: &[String]) -> Option<String> {
    let mut opaque = None;
    for (i, a) in argv.iter().enumerate().skip(1) {
        let stdin = matches!(a.as_str(), "-f" | "--file" | "--makefile")
            && argv
                .get(i + 1)
                .is_some_and(|f| matches!(f.as_str(), "-" | "/dev/stdin"));
        if stdin || a.starts_with("--eval") || a == "-E" || a.starts_with("SHELL=") {
            opaque = Some(format!("`make {a}` runs recipes the reader cannot follow"));
        }
    }
    opaque
}

/// awk: a program that runs commands (`system()`, a pipe to or from a command).
pub(super) fn awk(argv: &[String]) -> Option<String> {
    let mut programs = Vec::new();
    let mut i = 1;
    let mut from_file = false;
    while i < argv.len() {
        let a = argv[i].as_str();
        match a {
            "-f" | "--file" => {
                from_file = true;
                i += 2;
            }
            "-e" | "--source" => {
                programs.extend(argv.get(i + 1).cloned());
                i += 2;
            }
            "-F" | "-v" | "--assign" | "--field-separator" | "-i" | "--include" | "-l"
            | "--load" => i += 2,
            "--" => {
                i += 1;
                break;
            }
            _ if a.starts_with('-') && a.len() > 1 => i += 1,
            _ => break,
        }
    }
    if !from_file && programs.is_empty() {
        programs.extend(argv.get(i).cloned());
    }
    let runs = programs.iter().any(|p| {
        p.contains("system")
            || p.contains("getline")
            || p.split(['"', '\'']).step_by(2).any(|code| {
                code.contains('|') && !code.replace("||", "").trim().is_empty() && pipes(code)
            })
    });
    runs.then(|| "an awk program that runs commands (`system`, a pipe)".to_string())
}

/// Whether awk code pipes `print` or `printf` into a command.
fn pipes(code: &str) -> bool {
    code.split(['{', '}', ';']).any(|statement| {
        let s = statement.trim_start();
        (s.starts_with("print") || s.starts_with("printf")) && s.replace("||", "").contains('|')
    })
}

/// sed: a script with the `e` command or an `s///e` (GNU sed runs the pattern space).
pub(super) fn sed(argv: &[String]) -> Option<String> {
    let mut scripts = Vec::new();
    let mut i = 1;
    let mut given = false;
    while i < argv.len() {
        let a = argv[i].as_str();
        if let Some((script, next)) = option_value(argv, i, &["-e", "--expression"]) {
            scripts.push(script);
            given = true;
            i = next;
        } else if matches!(a, "-f" | "--file" | "-l" | "--line-length") {
            given |= a.starts_with("-f") || a == "--file";
            i += 2;
        } else if a.starts_with('-') && a.len() > 1 {
            i += 1;
        } else {
            break;
        }
    }
    if !given {
        scripts.extend(argv.get(i).cloned());
    }
    let runs = scripts.iter().any(|s| sed_runs(s));
    runs.then(|| "a sed script that runs commands (`e`)".to_string())
}

/// Whether a sed script holds the `e` command or an `s` command with the `e` flag; read
/// loosely (any `e` where a command or a flag can stand), so doubt makes it opaque.
fn sed_runs(script: &str) -> bool {
    let bytes = script.as_bytes();
    let mut i = 0;
    let mut at_command = true;
    while i < bytes.len() {
        let c = bytes[i];
        if at_command && c == b's' && i + 1 < bytes.len() {
            // s<d>regex<d>replacement<d>flags
            let d = bytes[i + 1];
            let mut parts = 0;
            i += 2;
            while i < bytes.len() && parts < 2 {
                if bytes[i] == b'\\' {
                    i += 1;
                } else if bytes[i] == d {
                    parts += 1;
                }
                i += 1;
            }
            while i < bytes.len() && !matches!(bytes[i], b';' | b'\n' | b'}') {
                if bytes[i] == b'e' {
                    return true;
                }
                i += 1;
            }
            continue;
        }
        if at_command && c == b'e' {
            return true;
        }
        at_command = match c {
            b';' | b'\n' | b'{' | b'}' | b'!' | b',' | b' ' | b'\t' => true,
            b'0'..=b'9' | b'$' => true,
            b'/' => {
                // an address /regex/
                i += 1;
                while i < bytes.len() && bytes[i] != b'/' {
                    i += usize::from(bytes[i] == b'\\') + 1;
                }
                true
            }
            _ => false,
        };
        i += 1;
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
