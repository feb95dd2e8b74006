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
    let mut lax = Lax::default();
    match split(command, &mut lax) {
        Ok(list) => {
            let mut out = Vec::new();
            for s in list {
                match unwrap(s, 0, &mut lax) {
                    Ok(mut v) => out.append(&mut v),
                    Err(reason) => return Parsed::Opaque(reason),
                }
            }
            Parsed::Commands(out)
        }
        Err(reason) => Parsed::Opaque(reason),
    }
}

/// What the tolerant reading (for the deny groups) gathers instead of giving up: scripts
/// nested in the command (substitutions, `eval`, `sh -c`, `trap`), the separator after each
/// simple command, and why a command's program cannot be known.
#[derive(Debug, Default)]
struct Lax {
    /// Tolerant: record and go on where the strict reading gives up.
    on: bool,
    inner: Vec<String>,
    hidden: Vec<String>,
    seps: Vec<(usize, &'static str)>,
}

impl Lax {
    /// Strictly: the reason as an error. Tolerantly: `Ok`, and the caller recovers.
    fn give_up(&mut self, reason: impl Into<String>) -> Result<(), String> {
        if self.on { Ok(()) } else { Err(reason.into()) }
    }
}

/// The index of the `close` that ends a group opened just before `from` (nested pairs and
/// quotes skipped), or the end.
fn matching(chars: &[char], from: usize, open: char, close: char) -> usize {
    let mut depth = 1;
    let mut i = from;
    let mut quote: Option<char> = None;
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\\' => i += 1,
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == open => depth += 1,
            None if c == close => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            None => {}
        }
        i += 1;
    }
    chars.len()
}

/// bash's `$'…'` (ANSI-C quoting) starting at the quote `chars[i]`: the decoded text and the
/// index of the closing quote.
fn ansi_c(chars: &[char], i: usize) -> (String, usize) {
    let mut out = String::new();
    let mut j = i + 1;
    while j < chars.len() && chars[j] != '\'' {
        if chars[j] == '\\' && j + 1 < chars.len() {
            let e = chars[j + 1];
            j += 2;
            let digits = |j: &mut usize, radix: u32, max: usize| {
                let start = *j;
                while *j < chars.len() && *j - start < max && chars[*j].is_digit(radix) {
                    *j += 1;
                }
                let text: String = chars[start..*j].iter().collect();
                u32::from_str_radix(&text, radix)
                    .ok()
                    .and_then(char::from_u32)
            };
            let c = match e {
                'n' => Some('\n'),
                't' => Some('\t'),
                'r' => Some('\r'),
                'e' | 'E' => Some('\u{1b}'),
                'a' => Some('\u{7}'),
                'b' => Some('\u{8}'),
                'x' => digits(&mut j, 16, 2),
                'u' => digits(&mut j, 16, 4),
                'U' => digits(&mut j, 16, 8),
                '0'..='7' => {
                    j -= 1;
                    digits(&mut j, 8, 3)
                }
                other => Some(other),
            };
            out.extend(c);
            continue;
        }
        out.push(chars[j]);
        j += 1;
    }
    (out, j)
}

/// Simple commands as the shell groups them (no unwrapping).
fn split(command: &str, lax: &mut Lax) -> Result<Vec<Simple>, String> {
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
                       commands: &mut Vec<Simple>,
                       lax: &mut Lax,
                       sep: &'static str|
     -> Result<(), String> {
        if words.is_empty() && redirects.is_empty() {
            return Ok(());
        }
        let ws = std::mem::take(words);
        if let Some(s) = to_simple(ws, std::mem::take(redirects), lax)? {
            commands.push(s);
            lax.seps.push((commands.len() - 1, sep));
        }
        Ok(())
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' => finish_word(&mut w, &mut words, &mut redirect_next, &mut redirects),
            '\n' | ';' => {
                finish_word(&mut w, &mut words, &mut redirect_next, &mut redirects);
                if redirect_next {
                    lax.give_up("a redirection without a target")?;
                    redirect_next = false;
                }
                end_command(&mut words, &mut redirects, &mut commands, lax, ";")?;
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
                    lax.give_up("a redirection without a target")?;
                    redirect_next = false;
                }
                let doubled = chars.get(i + 1) == Some(&c);
                let sep = match (c, doubled) {
                    ('|', false) => "|",
                    ('|', true) => "||",
                    ('&', true) => "&&",
                    _ => "&",
                };
                end_command(&mut words, &mut redirects, &mut commands, lax, sep)?;
                if doubled || (c == '|' && chars.get(i + 1) == Some(&'&')) {
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
                    lax.give_up("here-documents are not followed")?;
                    // The body is read as commands: more to check, never less.
                    i += 2;
                    while matches!(chars.get(i), Some('<' | '-')) {
                        i += 1;
                    }
                    redirect_next = true;
                    continue;
                }
                if next == Some('(') {
                    lax.give_up("process substitution is not followed")?;
                    let close = matching(&chars, i + 2, '(', ')');
                    lax.inner.push(chars[i + 2..close].iter().collect());
                    w.text.push_str("/dev/fd/63");
                    w.started = true;
                    i = close + 1;
                    continue;
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
            '(' | ')' => {
                lax.give_up("subshells and grouping are not followed")?;
                finish_word(&mut w, &mut words, &mut redirect_next, &mut redirects);
                end_command(&mut words, &mut redirects, &mut commands, lax, ";")?;
            }
            '`' => {
                lax.give_up("command substitution is not followed")?;
                i = substitution(&chars, i + 1, '`', &mut w, lax);
            }
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
                    None => lax.give_up("a trailing backslash")?,
                }
                i += 2;
                continue;
            }
            '\'' => {
                let close = match chars[i + 1..].iter().position(|&x| x == '\'') {
                    Some(c) => i + 1 + c,
                    None => {
                        lax.give_up("an unterminated single quote")?;
                        chars.len()
                    }
                };
                w.text.extend(&chars[i + 1..close]);
                w.started = true;
                i = close + 1;
                continue;
            }
            '"' => {
                w.started = true;
                i += 1;
                loop {
                    let Some(&d) = chars.get(i) else {
                        lax.give_up("an unterminated double quote")?;
                        break;
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
                        '`' => {
                            lax.give_up("command substitution is not followed")?;
                            i = substitution(&chars, i + 1, '`', &mut w, lax) + 1;
                            continue;
                        }
                        '$' => {
                            i = dollar(&chars, i, &mut w, lax)?;
                        }
                        _ => w.text.push(d),
                    }
                    i += 1;
                }
            }
            '$' if chars.get(i + 1) == Some(&'\'') => {
                // `$'…'`: bash decodes it, dash does not; the word is not what it looks like.
                let (text, close) = ansi_c(&chars, i + 1);
                w.text.push_str(&text);
                w.started = true;
                w.expanded = true;
                i = close + 1;
                continue;
            }
            '$' => i = dollar(&chars, i, &mut w, lax)?,
            '*' | '?' | '[' => {
                w.glob = true;
                w.text.push(c);
                w.started = true;
            }
            // bash's brace expansion (`{rm,-rf,/}`, `rm -{r,f}`): not what it looks like.
            '{' if chars
                .get(i + 1)
                .is_some_and(|n| !n.is_whitespace() && *n != '}') =>
            {
                w.expanded = true;
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
        lax.give_up("a redirection without a target")?;
    }
    end_command(&mut words, &mut redirects, &mut commands, lax, ";")?;
    Ok(commands)
}

/// A substitution whose text starts at `from` and ends at `close` (or the matching `)` for
/// `$(`): its script is kept to be read on its own, and the word it stands in is marked as
/// coming from an expansion. Returns the index of its end.
fn substitution(chars: &[char], from: usize, close: char, w: &mut Word, lax: &mut Lax) -> usize {
    let end = if close == ')' {
        matching(chars, from, '(', ')')
    } else {
        chars[from..]
            .iter()
            .position(|&c| c == close)
            .map_or(chars.len(), |p| from + p)
    };
    lax.inner
        .push(chars[from..end.min(chars.len())].iter().collect());
    w.text.push_str("__substitution__");
    w.started = true;
    w.expanded = true;
    end
}

/// A `$` at `chars[i]`: command substitution and arithmetic are refused (read on their own
/// when tolerant); parameter expansions are kept as text and mark the word. Returns the index
/// of the last character used.
fn dollar(chars: &[char], i: usize, w: &mut Word, lax: &mut Lax) -> Result<usize, String> {
    w.started = true;
    match chars.get(i + 1) {
        Some('(') => {
            lax.give_up("command substitution is not followed")?;
            if chars.get(i + 2) == Some(&'(') {
                // Arithmetic: no command in it, but its value is not known.
                let end = matching(chars, i + 3, '(', ')');
                w.text.push_str("__arithmetic__");
                w.expanded = true;
                return Ok((end + 1).min(chars.len()));
            }
            Ok(substitution(chars, i + 2, ')', w, lax))
        }
        Some(c)
            if c.is_ascii_alphanumeric()
                || matches!(c, '_' | '{' | '?' | '@' | '*' | '#' | '!' | '$' | '-') =>
        {
            w.expanded = true;
            w.text.push('$');
            Ok(i)
        }
        _ => {
            w.text.push('$');
            Ok(i)
        }
    }
}

/// Keywords that only group or repeat commands: tolerantly, the words after them are read as
/// the command.
const CONTROL_WORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "select", "{", "}", "!", "[[", "]]", "coproc", "function", "time",
];

fn to_simple(
    words: Vec<Word>,
    redirects: Vec<String>,
    lax: &mut Lax,
) -> Result<Option<Simple>, String> {
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
                lax.give_up(format!(
                    "the command name `{}` comes from an expansion",
                    word.text
                ))?;
                lax.hidden.push(format!(
                    "the command name `{}` comes from an expansion",
                    word.text
                ));
            } else if word.glob {
                lax.give_up(format!("the command name `{}` is a glob", word.text))?;
                lax.hidden
                    .push(format!("the command name `{}` is a glob", word.text));
            } else if OPAQUE_WORDS.contains(&word.text.as_str()) {
                lax.give_up(format!(
                    "`{}` is shell syntax or a builtin that can run other code",
                    word.text
                ))?;
                if CONTROL_WORDS.contains(&word.text.as_str()) {
                    continue;
                }
            }
        }
        if word.expanded {
            expanded.push(argv.len());
        }
        argv.push(word.text);
    }
    // Code given to a builtin is read on its own; code that is not literal hides itself.
    if lax.on
        && let Some(builtin @ ("eval" | "source" | "." | "trap" | "alias")) =
            argv.first().map(String::as_str)
    {
        if expanded.iter().any(|&i| i > 0) {
            lax.hidden
                .push(format!("`{builtin}` runs code from an expansion"));
        }
        let code = argv[1..].join(" ");
        lax.inner.push(match code.split_once('=') {
            Some((_, v)) if builtin == "alias" => v.to_string(),
            _ => code,
        });
    }
    if argv.is_empty() && assignments.is_empty() && redirects.is_empty() {
        return Ok(None);
    }
    Ok(Some(Simple {
        argv,
        assignments,
        redirects,
        expanded,
    }))
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
fn unwrap(mut s: Simple, depth: usize, lax: &mut Lax) -> Result<Vec<Simple>, String> {
    if depth > 8 {
        lax.give_up("wrappers nested too deep")?;
        return Ok(vec![s]);
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
                    lax.give_up("`env -S` splits a string into a command; not followed")?;
                    let a = a.clone();
                    let text = a
                        .trim_start_matches("--split-string")
                        .trim_start_matches("-S");
                    let text = text.trim_start_matches('=');
                    let mut code = if text.is_empty() {
                        vec![]
                    } else {
                        vec![text.to_string()]
                    };
                    code.extend(s.argv[i + 1..].iter().cloned());
                    lax.inner.push(code.join(" "));
                    return Ok(vec![s]);
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
            if lax.on && DANGEROUS_PROGRAMS.contains(&program_name(&s.argv[i])) {
                lax.hidden.push(format!(
                    "`xargs {}` takes its arguments from its input",
                    s.argv[i]
                ));
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
                    if lax.on && s.expanded.contains(&(i + 1)) {
                        lax.hidden
                            .push(format!("the script of `{name} -c` comes from an expansion"));
                    }
                    break;
                }
                i += 1;
            }
            return match script {
                Some(text) if lax.on => {
                    lax.inner.push(text);
                    Ok(vec![])
                }
                Some(text) => match parse(&text) {
                    Parsed::Commands(v) => Ok(v),
                    Parsed::Opaque(r) => Err(format!("inside `{name} -c`: {r}")),
                },
                None if s.argv.len() > i => Ok(vec![s]), // runs a script file: the shell is the program
                None => {
                    let why =
                        format!("`{name}` reading commands from standard input is not followed");
                    lax.give_up(why.clone())?;
                    lax.hidden
                        .push(format!("{why} (what it runs cannot be seen)"));
                    Ok(vec![s])
                }
            };
        }
        _ => return Ok(vec![s]),
    };
    let inner = rest(skip, &s);
    if inner.argv.is_empty() {
        lax.give_up(format!("`{name}` without a command"))?;
        return Ok(vec![s]);
    }
    if inner.expanded.contains(&0) {
        let why = format!("the command run by `{name}` comes from an expansion");
        lax.give_up(why.clone())?;
        lax.hidden.push(why);
    }
    unwrap(inner, depth + 1, lax)
}

/// What the deny groups look at, and what they cannot see.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Views {
    /// The raw command, then texts of what it runs: each simple command normalised (quotes
    /// removed, wrappers unwrapped, the program by its base name), the same with short-flag
    /// clusters split (`-rfv` → `-r -f -v`), the whole chain so normalised with its separators
    /// (`curl x | sh`), and the same for every script nested in it (substitutions, `eval`,
    /// `sh -c`, `$IFS` read as a space).
    pub texts: Vec<String>,
    /// Why some program it runs cannot be known (a name from an expansion, a shell reading a
    /// pipe, `eval` of an expansion): such a command is never run without approval.
    pub hidden: Vec<String>,
}

/// The deny views of a command string: a tolerant reading that never gives up, so an opaque
/// part never drops the checks of the parts around it.
pub fn deny_views(command: &str) -> Views {
    let mut views = Views::default();
    // (script, depth, judged): a script read out of an argument (`git -c core.pager='…'`,
    // `awk 'BEGIN{system("…")}'`) may be code or data, so it gives texts to the patterns but
    // no hidden-program verdicts.
    let mut work: Vec<(String, usize, bool)> = vec![(command.to_string(), 0, true)];
    let ifs = command.replace("${IFS}", " ").replace("$IFS", " ");
    if ifs != command {
        work.push((ifs, 0, true));
    }
    let mut scripts = 0;
    while let Some((script, depth, judged)) = work.pop() {
        scripts += 1;
        if scripts > 256 || depth > 8 {
            views
                .hidden
                .push("scripts nested too deep to follow".into());
            break;
        }
        if !views.texts.contains(&script) {
            views.texts.push(script.clone());
        }
        let mut lax = Lax {
            on: true,
            ..Lax::default()
        };
        let simples = split(&script, &mut lax).unwrap_or_default();
        let seps = std::mem::take(&mut lax.seps);
        let mut chain = String::new();
        let mut written: Vec<String> = Vec::new();
        let mut after_pipe = false;
        for (idx, simple) in simples.into_iter().enumerate() {
            let sep = seps
                .iter()
                .find(|(i, _)| *i == idx)
                .map_or(";", |(_, s)| *s);
            for s in unwrap(simple, 0, &mut lax).unwrap_or_default() {
                if let Some(why) = unjudgeable(&s, &written, after_pipe)
                    && judged
                {
                    views.hidden.push(why);
                }
                if depth < 3 {
                    work.extend(
                        s.argv
                            .iter()
                            .skip(1)
                            .flat_map(|a| embedded_code(a))
                            .map(|c| (c, depth + 1, false)),
                    );
                    // A program named among the arguments is run by the command
                    // (`flock f sh -c …`, `find . -exec rm … \;`, `strace env`).
                    for k in 1..s.argv.len() {
                        let name = program_name(&s.argv[k]);
                        if INTERPRETERS.contains(&name)
                            || DANGEROUS_PROGRAMS.contains(&name)
                            || matches!(name, "env" | "printenv")
                        {
                            let quoted: Vec<String> = s.argv[k..]
                                .iter()
                                .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
                                .collect();
                            work.push((quoted.join(" "), depth + 1, false));
                        }
                    }
                }
                written.extend(s.redirects.iter().map(|r| plain_path(r)));
                // `curl -o f`, `wget -O f`: a download is a written file too.
                written.extend(
                    s.argv
                        .windows(2)
                        .filter(|w| {
                            matches!(
                                w[0].as_str(),
                                "-o" | "-O" | "--output" | "--output-document"
                            )
                        })
                        .map(|w| plain_path(&w[1])),
                );
                let line = normal_line(&s);
                chain.push_str(&line);
                chain.push(' ');
                chain.push_str(sep);
                chain.push(' ');
                let split_flags = flags_split(&line);
                views.texts.push(line);
                views.texts.extend(split_flags);
            }
            after_pipe = sep == "|";
        }
        views.texts.push(chain.trim_end().to_string());
        if judged {
            views.hidden.append(&mut lax.hidden);
        }
        work.extend(lax.inner.into_iter().map(|s| (s, depth + 1, judged)));
    }
    views.texts.dedup();
    views
}

/// Code an argument may carry for another program to run: the argument itself when it has
/// white space, the value after `=` (`core.pager=…`, `--checkpoint-action=exec=…`), what follows
/// `!` (`:!sh`, git aliases), and quoted strings inside it (`system("…")`, `os.system('…')`).
fn embedded_code(arg: &str) -> Vec<String> {
    let mut out = Vec::new();
    if arg.contains(char::is_whitespace) {
        out.push(arg.to_string());
    }
    let mut rest = arg;
    while let Some((_, v)) = rest.split_once('=') {
        if !v.is_empty() {
            out.push(v.to_string());
        }
        rest = v;
    }
    if let Some((_, v)) = arg.split_once('!')
        && !v.is_empty()
    {
        out.push(v.to_string());
    }
    for q in ['"', '\'', '`'] {
        let mut parts = arg.split(q);
        parts.next();
        while let Some(inside) = parts.next() {
            if !inside.is_empty() {
                out.push(inside.to_string());
            }
            parts.next();
        }
    }
    out.retain(|c| c != arg || arg.contains(char::is_whitespace));
    out.dedup();
    out
}

/// Programs whose deny patterns judge their flags and operands: when one of those comes from
/// an expansion (`rm $x /`, `rm -$(echo r) /`) or from input (`… | xargs rm`), nothing can
/// judge the command.
const DANGEROUS_PROGRAMS: &[&str] = &[
    "rm", "chmod", "chown", "chgrp", "kill", "dd", "shred", "mkfs", "mv", "truncate", "wipefs",
    "crontab", "setfacl", "mount", "umount", "nsenter", "unshare", "sudo", "su", "doas",
];

/// Interpreters that run a script read from their input when given none.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "yash", "csh", "tcsh", "fish", "busybox",
    "python", "python2", "python3", "perl", "ruby", "node", "nodejs", "php", "lua", "tclsh", "awk",
    "gawk",
];

/// A path as written, without a leading `./`.
fn plain_path(p: &str) -> String {
    p.trim_start_matches("./").to_string()
}

/// Why `s` cannot be judged by the deny patterns, if it cannot: a dangerous program with an
/// operand from an expansion, a script the same command wrote (`printf … > s; sh s`), an
/// interpreter reading its script from a pipe or from standard input.
fn unjudgeable(s: &Simple, written: &[String], after_pipe: bool) -> Option<String> {
    let first = s.argv.first()?;
    let name = program_name(first);
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    // After `--` an expansion is an operand, never a flag (`rm -- "$f"` is judged).
    let end_of_flags = s.argv.iter().position(|a| a == "--").unwrap_or(usize::MAX);
    if DANGEROUS_PROGRAMS.contains(&name) && s.expanded.iter().any(|&i| i < end_of_flags) {
        return Some(format!(
            "a flag or operand of `{name}` comes from an expansion (after `--` it could only be an operand): `{}`",
            s.argv.join(" ")
        ));
    }
    let runs_written = |w: &str| written.iter().any(|f| *f == plain_path(w));
    if runs_written(first) {
        return Some(format!("`{first}` runs a file the command itself wrote"));
    }
    let script = s.argv[1..].iter().find(|a| !a.starts_with('-'));
    if INTERPRETERS.contains(&base) || matches!(name, "source" | ".") {
        if let Some(f) = script
            && runs_written(f)
        {
            return Some(format!("`{name} {f}` runs a file the command itself wrote"));
        }
        if script.is_some_and(|f| {
            matches!(
                f.as_str(),
                "/dev/stdin" | "/proc/self/fd/0" | "/dev/fd/0" | "-"
            )
        }) || (after_pipe && script.is_none() && s.argv.len() == 1)
        {
            return Some(format!("`{name}` runs a script read from its input"));
        }
    }
    None
}

/// One simple command as a line: assignments, the program by its base name, the arguments,
/// the redirections as `> target`.
fn normal_line(s: &Simple) -> String {
    let mut parts: Vec<String> = s.assignments.clone();
    if let Some((first, rest)) = s.argv.split_first() {
        parts.push(program_name(first).to_string());
        parts.extend(rest.iter().cloned());
    }
    parts.extend(s.redirects.iter().map(|r| format!("> {r}")));
    parts.join(" ")
}

/// `line` with every short-flag cluster split (`rm -Rfv /` → `rm -R -f -v /`), if any.
fn flags_split(line: &str) -> Option<String> {
    let mut changed = false;
    let words: Vec<String> = line
        .split(' ')
        .map(|w| match w.strip_prefix('-') {
            Some(f) if f.len() > 1 && f.bytes().all(|b| b.is_ascii_alphabetic()) => {
                changed = true;
                f.chars()
                    .map(|c| format!("-{c}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            _ => w.to_string(),
        })
        .collect();
    changed.then(|| words.join(" "))
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
    fn deny_views_see_through_what_the_strict_reading_gives_up_on() {
        let v = deny_views(r#"env X=1 r""m -rf "/" > f"#);
        assert!(v.texts.contains(&"X=1 rm -rf / > f".to_string()), "{v:?}");
        // An opaque part keeps the parts around it.
        let v = deny_views("rm -Rfv /; eval :");
        assert!(v.texts.contains(&"rm -R -f -v /".to_string()), "{v:?}");
        // Substitutions are read on their own, and a program name from one is hidden.
        let v = deny_views("`echo rm` -rf / && echo $(id -u)");
        assert!(v.texts.contains(&"echo rm".to_string()), "{v:?}");
        assert!(v.texts.contains(&"id -u".to_string()), "{v:?}");
        assert_eq!(v.hidden.len(), 1, "{v:?}");
        // Programs by base name, chains with their separators, $IFS as a space.
        let v = deny_views("curl -s x | /bin/sh");
        assert!(v.texts.contains(&"curl -s x | sh ;".to_string()), "{v:?}");
        let v = deny_views("rm${IFS}-rf${IFS}/");
        assert!(v.texts.contains(&"rm -rf /".to_string()), "{v:?}");
        let v = deny_views(r"$'\x72m' -rf /");
        assert!(v.texts.contains(&"rm -rf /".to_string()), "{v:?}");
        assert!(!v.hidden.is_empty());
        // Everyday commands hide nothing.
        for c in [
            "ls -la",
            "echo $(date) > log",
            "for f in *.rs; do wc -l \"$f\"; done",
        ] {
            assert!(deny_views(c).hidden.is_empty(), "{c}");
        }
    }
}
