//! A conservative reader of `sh -c` command strings, so approvals are decided on the commands
//! that will actually run (the original's advisories #1200/#1203/#1206/#1216 all came from
//! approving a first token while running the whole string). It splits a command into simple
//! commands at `;`, `&&`, `||`, `|`, `&` and newlines, removes quotes and escapes as `sh`
//! does, records redirections, and unwraps wrappers that run another command (`env`, `nice`,
//! `timeout`, `nohup`, `stdbuf`, `time`, `command`, `exec`, `setsid`, `xargs`, and `sh`/`bash -c`).
//! Whatever it cannot account for exactly (command substitution, subshells, here-documents,
//! control keywords, expansions or globs in the command name, `eval`/`source`) makes the
//! command *opaque*: never approved automatically. Pure.

use std::path::Path;

/// One simple command after parsing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simple {
    /// Words after quote removal; `argv[0]` is the program.
    pub argv: Vec<String>,
    /// `NAME=value` words before the program.
    pub assignments: Vec<String>,
    /// Redirection targets (files written or read).
    pub redirects: Vec<String>,
    /// Word indexes that contain an unquoted or double-quoted `$` expansion.
    pub expanded: Vec<usize>,
}

/// The parse of a whole command string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// Every simple command that would run, wrappers unwrapped.
    Commands(Vec<Simple>),
    /// Something the reader does not follow exactly; the reason says what.
    Opaque(String),
}

/// Shell builtins that run no other program and change nothing outside the shell.
pub const HARMLESS_BUILTINS: &[&str] = &[
    "cd", "pwd", "true", "false", ":", "echo", "printf", "test", "[", "exit",
];
/// Builtins (and keywords) that can run code or change how later commands run.
const OPAQUE_WORDS: &[&str] = &[
    "eval", "source", ".", "trap", "alias", "function", "if", "then", "else", "elif", "fi", "for",
    "while", "until", "do", "done", "case", "esac", "select", "{", "}", "!", "[[", "]]", "coproc",
    "builtin", "enable", "hash", "read", "set", "unset", "export", "readonly", "declare",
    "typeset", "local", "shopt", "ulimit", "umask", "fc", "history",
];

struct Word {
    text: String,
    started: bool,
    expanded: bool,
    glob: bool,
}

impl Word {
    fn new() -> Word {
        Word {
            text: String::new(),
            started: false,
            expanded: false,
            glob: false,
        }
    }
}

/// Parses a command string.
pub fn parse(command: &str) -> Parsed {
    match split(command) {
        Ok(list) => {
            let mut out = Vec::new();
            for s in list {
                match unwrap(s, 0) {
                    Ok(mut v) => out.append(&mut v),
                    Err(reason) => return Parsed::Opaque(reason),
                }
            }
            Parsed::Commands(out)
        }
        Err(reason) => Parsed::Opaque(reason),
    }
}

/// Simple commands as the shell groups them (no unwrapping).
fn split(command: &str) -> Result<Vec<Simple>, String> {
    let chars: Vec<char> = command.chars().collect();
    let mut commands = Vec::new();
    let mut words: Vec<Word> = Vec::new();
    let mut redirect_next = false;
    let mut redirects = Vec::new();
    let mut w = Word::new();
    let mut i = 0;
    let finish_word = |w: &mut Word,
                       words: &mut Vec<Word>,
                       redirect_next: &mut bool,
                       redirects: &mut Vec<String>| {
        if w.started {
            let word = std::mem::replace(w, Word::new());
            if *redirect_next {
                redirects.push(word.text);
                *redirect_next = false;
            } else {
                words.push(word);
            }
        }
    };
    let end_command = |words: &mut Vec<Word>,
                       redirects: &mut Vec<String>,
                       commands: &mut Vec<Simple>|
     -> Result<(), String> {
        if words.is_empty() && redirects.is_empty() {
            return Ok(());
        }
        let ws = std::mem::take(words);
        commands.push(to_simple(ws, std::mem::take(redirects))?);
        Ok(())
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' => finish_word(&mut w, &mut words, &mut redirect_next, &mut redirects),
            '\n' | ';' => {
                finish_word(&mut w, &mut words, &mut redirect_next, &mut redirects);
                if redirect_next {
                    return Err("a redirection without a target".into());
                }
                end_command(&mut words, &mut redirects, &mut commands)?;
            }
            '&' | '|' => {
                // `&>` and `>&` are redirections; `|&`, `||`, `&&`, `|` and `&` separate commands.
                if c == '&' && chars.get(i + 1) == Some(&'>') {
                    finish_word(&mut w, &mut words, &mut redirect_next, &mut redirects);
                    i += 2;
                    if chars.get(i) == Some(&'>') {
                        i += 1;
                    }
                    redirect_next = true;
                    continue;
                }
                finish_word(&mut w, &mut words, &mut redirect_next, &mut redirects);
                if redirect_next {
                    return Err("a redirection without a target".into());
                }
                end_command(&mut words, &mut redirects, &mut commands)?;
                if chars.get(i + 1) == Some(&c) || (c == '|' && chars.get(i + 1) == Some(&'&')) {
                    i += 1;
                }
            }
            '<' | '>' => {
                // A word of digits right before is a file-descriptor number.
                if w.started
                    && !w.text.is_empty()
                    && w.text.chars().all(|d| d.is_ascii_digit())
                    && !w.expanded
                {
                    w = Word::new();
                } else {
                    finish_word(&mut w, &mut words, &mut redirect_next, &mut redirects);
                }
                let next = chars.get(i + 1).copied();
                if c == '<' && next == Some('<') {
                    return Err("here-documents are not followed".into());
                }
                if next == Some('(') {
                    return Err("process substitution is not followed".into());
                }
                if next == Some('&') {
                    // `>&2`, `<&0`: duplicate a descriptor; the target is a number or `-`.
                    i += 2;
                    let start = i;
                    while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '-') {
                        i += 1;
                    }
                    if i == start {
                        redirect_next = true;
                    }
                    continue;
                }
                if next == Some('>')
                    || (c == '<' && next == Some('>'))
                    || (c == '>' && next == Some('|'))
                {
                    i += 1;
                }
                redirect_next = true;
            }
            '(' | ')' => return Err("subshells and grouping are not followed".into()),
            '`' => return Err("command substitution is not followed".into()),
            '#' if !w.started => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '\\' => {
                match chars.get(i + 1) {
                    Some('\n') => {}
                    Some(&n) => {
                        w.text.push(n);
                        w.started = true;
                    }
                    None => return Err("a trailing backslash".into()),
                }
                i += 2;
                continue;
            }
            '\'' => {
                let close = chars[i + 1..]
                    .iter()
                    .position(|&x| x == '\'')
                    .ok_or("an unterminated single quote")?;
                w.text.extend(&chars[i + 1..i + 1 + close]);
                w.started = true;
                i += close + 2;
                continue;
            }
            '"' => {
                w.started = true;
                i += 1;
                loop {
                    let Some(&d) = chars.get(i) else {
                        return Err("an unterminated double quote".into());
                    };
                    match d {
                        '"' => break,
                        '\\' if matches!(chars.get(i + 1), Some('$' | '`' | '"' | '\\' | '\n')) => {
                            if chars[i + 1] != '\n' {
                                w.text.push(chars[i + 1]);
                            }
                            i += 2;
                            continue;
                        }
                        '`' => return Err("command substitution is not followed".into()),
                        '$' => {
                            dollar(&chars, i, &mut w)?;
                        }
                        _ => w.text.push(d),
                    }
                    i += 1;
                }
            }
            '$' => dollar(&chars, i, &mut w)?,
            '*' | '?' | '[' => {
                w.glob = true;
                w.text.push(c);
                w.started = true;
            }
            _ => {
                w.text.push(c);
                w.started = true;
            }
        }
        i += 1;
    }
    finish_word(&mut w, &mut words, &mut redirect_next, &mut redirects);
    if redirect_next {
        return Err("a redirection without a target".into());
    }
    end_command(&mut words, &mut redirects, &mut commands)?;
    Ok(commands)
}

/// A `$` at `chars[i]`: command substitution and arithmetic are refused; parameter expansions
/// are kept as text and mark the word.
fn dollar(chars: &[char], i: usize, w: &mut Word) -> Result<(), String> {
    w.started = true;
    match chars.get(i + 1) {
        Some('(') => Err("command substitution is not followed".into()),
        Some(c)
            if c.is_ascii_alphanumeric()
                || matches!(c, '_' | '{' | '?' | '@' | '*' | '#' | '!' | '$' | '-') =>
        {
            w.expanded = true;
            w.text.push('$');
            Ok(())
        }
        _ => {
            w.text.push('$');
            Ok(())
        }
    }
}

fn to_simple(words: Vec<Word>, redirects: Vec<String>) -> Result<Simple, String> {
    let mut assignments = Vec::new();
    let mut argv = Vec::new();
    let mut expanded = Vec::new();
    for word in words {
        if argv.is_empty() && is_assignment(&word.text) {
            assignments.push(word.text);
            continue;
        }
        if argv.is_empty() {
            if word.expanded {
                return Err(format!(
                    "the command name `{}` comes from an expansion",
                    word.text
                ));
            }
            if word.glob {
                return Err(format!("the command name `{}` is a glob", word.text));
            }
            if OPAQUE_WORDS.contains(&word.text.as_str()) {
                return Err(format!(
                    "`{}` is shell syntax or a builtin that can run other code",
                    word.text
                ));
            }
        }
        if word.expanded {
            expanded.push(argv.len());
        }
        argv.push(word.text);
    }
    Ok(Simple {
        argv,
        assignments,
        redirects,
        expanded,
    })
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        None => false,
    }
}

fn program_name(argv0: &str) -> &str {
    Path::new(argv0)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(argv0)
}

/// Unwraps wrapper commands, returning what actually runs.
fn unwrap(mut s: Simple, depth: usize) -> Result<Vec<Simple>, String> {
    if depth > 8 {
        return Err("wrappers nested too deep".into());
    }
    let Some(first) = s.argv.first().cloned() else {
        return Ok(if s.assignments.is_empty() && s.redirects.is_empty() {
            vec![]
        } else {
            vec![s]
        });
    };
    let name = program_name(&first);
    let rest = |skip: usize, s: &Simple| -> Simple {
        Simple {
            argv: s.argv[skip.min(s.argv.len())..].to_vec(),
            assignments: s.assignments.clone(),
            redirects: s.redirects.clone(),
            expanded: s
                .expanded
                .iter()
                .filter(|&&i| i >= skip)
                .map(|i| i - skip)
                .collect(),
        }
    };
    let skip = match name {
        "env" => {
            let mut i = 1;
            while i < s.argv.len() {
                let a = &s.argv[i];
                if a == "-i"
                    || a == "--ignore-environment"
                    || a == "-0"
                    || a == "--null"
                    || a == "-"
                {
                    i += 1;
                } else if a == "-u" || a == "--unset" || a == "-C" || a == "--chdir" {
                    i += 2;
                } else if a.starts_with("--unset=")
                    || a.starts_with("--chdir=")
                    || (a.starts_with("-u") && a.len() > 2)
                {
                    i += 1;
                } else if a.starts_with("-S") || a.starts_with("--split-string") {
                    return Err("`env -S` splits a string into a command; not followed".into());
                } else if is_assignment(a) {
                    s.assignments.push(a.clone());
                    i += 1;
                } else {
                    break;
                }
            }
            if i >= s.argv.len() {
                return Ok(vec![s]); // plain `env`: prints the environment
            }
            i
        }
        "nice" => {
            let mut i = 1;
            while i < s.argv.len() {
                let a = &s.argv[i];
                if a == "-n" || a == "--adjustment" {
                    i += 2;
                } else if a.starts_with("--adjustment=")
                    || (a.starts_with('-')
                        && a[1..].chars().all(|c| c.is_ascii_digit())
                        && a.len() > 1)
                    || (a.starts_with("-n") && a.len() > 2)
                {
                    i += 1;
                } else {
                    break;
                }
            }
            i
        }
        "timeout" => {
            let mut i = 1;
            while i < s.argv.len() {
                let a = &s.argv[i];
                if a == "-s" || a == "--signal" || a == "-k" || a == "--kill-after" {
                    i += 2;
                } else if a.starts_with('-') && a.len() > 1 {
                    i += 1;
                } else {
                    break;
                }
            }
            i + 1 // the duration
        }
        "nohup" | "setsid" | "exec" => {
            let mut i = 1;
            while i < s.argv.len() && s.argv[i].starts_with('-') {
                i += 1;
            }
            i
        }
        "time" => {
            let mut i = 1;
            while i < s.argv.len() && s.argv[i].starts_with('-') {
                i += 1;
            }
            i
        }
        "command" => {
            if s.argv.get(1).is_some_and(|a| a == "-v" || a == "-V") {
                return Ok(vec![s]); // only looks a name up
            }
            if s.argv.get(1).is_some_and(|a| a == "-p") {
                2
            } else {
                1
            }
        }
        "stdbuf" => {
            let mut i = 1;
            while i < s.argv.len() && s.argv[i].starts_with('-') {
                let a = &s.argv[i];
                i += if a.len() == 2 { 2 } else { 1 };
            }
            i
        }
        "xargs" => {
            let mut i = 1;
            while i < s.argv.len() && s.argv[i].starts_with('-') {
                let a = &s.argv[i];
                let takes_value = matches!(
                    a.as_str(),
                    "-I" | "-n"
                        | "-P"
                        | "-d"
                        | "-L"
                        | "-s"
                        | "-E"
                        | "-a"
                        | "--arg-file"
                        | "--delimiter"
                        | "--max-args"
                        | "--max-procs"
                );
                i += if takes_value { 2 } else { 1 };
            }
            if i >= s.argv.len() {
                return Ok(vec![Simple {
                    argv: vec!["echo".into()],
                    ..s
                }]);
            }
            i
        }
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash" => {
            // `sh -c STRING`, with -c possibly combined (`-lc`, `-ec`).
            let mut i = 1;
            let mut script = None;
            while i < s.argv.len() && s.argv[i].starts_with('-') {
                let a = &s.argv[i];
                if a == "-o" || a == "+o" {
                    i += 2;
                    continue;
                }
                if !a.starts_with("--") && a.contains('c') {
                    script = s.argv.get(i + 1).cloned();
                    break;
                }
                i += 1;
            }
            return match script {
                Some(text) => match parse(&text) {
                    Parsed::Commands(v) => Ok(v),
                    Parsed::Opaque(r) => Err(format!("inside `{name} -c`: {r}")),
                },
                None if s.argv.len() > i => Ok(vec![s]), // runs a script file: the shell is the program
                None => Err(format!(
                    "`{name}` reading commands from standard input is not followed"
                )),
            };
        }
        _ => return Ok(vec![s]),
    };
    let inner = rest(skip, &s);
    if inner.argv.is_empty() {
        return Err(format!("`{name}` without a command"));
    }
    if inner.expanded.contains(&0) {
        return Err(format!(
            "the command run by `{name}` comes from an expansion"
        ));
    }
    unwrap(inner, depth + 1)
}

/// Each simple command as one line of text (quotes removed), for the deny patterns.
pub fn normalized(parsed: &Parsed) -> Vec<String> {
    match parsed {
        Parsed::Commands(v) => v
            .iter()
            .map(|s| {
                let mut parts: Vec<String> = s.assignments.clone();
                parts.extend(s.argv.iter().cloned());
                parts.extend(s.redirects.iter().map(|r| format!("> {r}")));
                parts.join(" ")
            })
            .collect(),
        Parsed::Opaque(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argvs(cmd: &str) -> Vec<Vec<String>> {
        match parse(cmd) {
            Parsed::Commands(v) => v.into_iter().map(|s| s.argv).collect(),
            Parsed::Opaque(r) => panic!("opaque: {r}"),
        }
    }

    fn opaque(cmd: &str) -> String {
        match parse(cmd) {
            Parsed::Opaque(r) => r,
            other => panic!("not opaque: {other:?}"),
        }
    }

    fn v(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn splits_chains_and_pipes() {
        assert_eq!(
            argvs("git status; curl -s x | grep y"),
            vec![
                v(&["git", "status"]),
                v(&["curl", "-s", "x"]),
                v(&["grep", "y"])
            ]
        );
        // A shell reading a script from a pipe runs code nobody can see.
        assert!(opaque("curl -s x | sh").contains("standard input"));
        assert_eq!(
            argvs("a && b || c & d |& e"),
            vec![v(&["a"]), v(&["b"]), v(&["c"]), v(&["d"]), v(&["e"])]
        );
        assert_eq!(argvs("a\nb"), vec![v(&["a"]), v(&["b"])]);
    }

    #[test]
    fn removes_quotes_and_escapes() {
        assert_eq!(argvs(r#"r""m -rf /"#), vec![v(&["rm", "-rf", "/"])]);
        assert_eq!(argvs(r#"'r'm "-rf" \/"#), vec![v(&["rm", "-rf", "/"])]);
        assert_eq!(
            argvs(r#"echo "a \"b\" c" 'd e'"#),
            vec![v(&["echo", "a \"b\" c", "d e"])]
        );
        assert_eq!(argvs("ec\\\nho hi"), vec![v(&["echo", "hi"])]);
    }

    #[test]
    fn redirections_are_not_arguments() {
        let Parsed::Commands(c) = parse("sort -u a > out.txt 2>&1 < in") else {
            panic!()
        };
        assert_eq!(c[0].argv, v(&["sort", "-u", "a"]));
        assert_eq!(c[0].redirects, v(&["out.txt", "in"]));
        assert_eq!(argvs("cmd 2>/dev/null &> log"), vec![v(&["cmd"])]);
    }

    #[test]
    fn unwraps_wrappers() {
        assert_eq!(
            argvs("env FOO=1 -u BAR nice -n 5 timeout -s KILL 10 nohup git push"),
            vec![v(&["git", "push"])]
        );
        assert_eq!(
            argvs("bash -c 'git status; curl x | grep y'"),
            vec![v(&["git", "status"]), v(&["curl", "x"]), v(&["grep", "y"])]
        );
        assert_eq!(argvs("sh -ec \"rm -rf /\""), vec![v(&["rm", "-rf", "/"])]);
        assert_eq!(argvs("xargs -0 -n 1 rm -f"), vec![v(&["rm", "-f"])]);
        assert_eq!(
            argvs("/usr/bin/env python3 x.py"),
            vec![v(&["python3", "x.py"])]
        );
        assert_eq!(argvs("FOO=bar git log"), vec![v(&["git", "log"])]);
        assert_eq!(argvs("command -v git"), vec![v(&["command", "-v", "git"])]);
        assert_eq!(argvs("env"), vec![v(&["env"])]);
    }

    #[test]
    fn opaque_constructs() {
        assert!(opaque("echo $(curl x)").contains("substitution"));
        assert!(opaque("echo `id`").contains("substitution"));
        assert!(opaque("(cd x; rm y)").contains("subshell"));
        assert!(opaque("cat <<EOF\nx\nEOF").contains("here-doc"));
        assert!(opaque("$CMD -rf /").contains("expansion"));
        assert!(opaque("/usr/bin/r? -rf /").contains("glob"));
        assert!(opaque("eval \"$x\"").contains("eval"));
        assert!(opaque("if true; then rm x; fi").contains("if"));
        assert!(opaque("bash -c 'echo $(id)'").contains("inside `bash -c`"));
        assert!(opaque("diff <(a) <(b)").contains("process substitution"));
        assert!(opaque("echo 'unterminated").contains("unterminated"));
        assert!(opaque("env -S 'rm -rf /'").contains("env -S"));
        assert!(opaque("bash").contains("standard input"));
    }

    #[test]
    fn expansions_in_arguments_are_marked() {
        let Parsed::Commands(c) = parse("echo \"$HOME\" $x plain") else {
            panic!()
        };
        assert_eq!(c[0].expanded, vec![1, 2]);
    }

    #[test]
    fn normalized_text() {
        assert_eq!(
            normalized(&parse(r#"env X=1 r""m -rf "/" > f"#)),
            v(&["X=1 rm -rf / > f"])
        );
    }
}
