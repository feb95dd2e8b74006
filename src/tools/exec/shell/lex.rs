//! The lexer: a command string read as `sh` reads it, into words (quotes and escapes removed,
//! redirections recorded, expansions and globs marked) grouped into simple commands at the
//! separators. Substitutions, here-documents and other constructs it does not follow make the
//! strict reading give up; the tolerant one keeps their scripts to be read on their own.

use super::views::Lax;
use super::{Simple, is_assignment};

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

/// Where the builtin of a simple command is, past `command` (with `-p` or `--`) and `builtin`,
/// which run it as it is.
fn builtin_at(argv: &[String]) -> usize {
    let mut i = 0;
    while let Some(word) = argv.get(i) {
        match word.as_str() {
            "builtin" => i += 1,
            "command" => {
                i += 1;
                while argv.get(i).is_some_and(|w| w == "-p" || w == "--") {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    i
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

/// The reading of one command string: the characters, where it is, the word being built, the
/// words and redirections of the command being built, and the commands so far.
struct Lexer<'a> {
    chars: Vec<char>,
    i: usize,
    w: Word,
    words: Vec<Word>,
    redirect_next: bool,
    redirects: Vec<String>,
    commands: Vec<Simple>,
    lax: &'a mut Lax,
    /// Here-documents whose bodies start at the next line: delimiter, and whether `<<-`.
    heredocs: Vec<(String, bool)>,
}

impl Lexer<'_> {
    /// At the end of a line, the bodies of the here-documents it opened: each read as a script
    /// of its own (a shell may run it: `sh <<E`), then passed over, so a quote in a body
    /// never swallows the commands after it.
    fn heredoc_bodies(&mut self) {
        for (delimiter, strip_tabs) in std::mem::take(&mut self.heredocs) {
            let mut body = String::new();
            let mut at = self.i + 1;
            loop {
                if at >= self.chars.len() {
                    break;
                }
                let end = self.chars[at..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(self.chars.len(), |p| at + p);
                let line: String = self.chars[at..end].iter().collect();
                let text = if strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    &line
                };
                at = end;
                if text == delimiter {
                    break;
                }
                body.push_str(text);
                body.push('\n');
                at += 1;
            }
            self.lax.inner.push(body);
            self.i = at.min(self.chars.len());
        }
    }

    /// Ends the word being built: a redirection's target if one is awaited, else a word.
    fn finish_word(&mut self) {
        if self.w.started {
            let word = std::mem::replace(&mut self.w, Word::new());
            if self.redirect_next {
                self.redirects.push(word.text);
                self.redirect_next = false;
            } else {
                self.words.push(word);
            }
        }
    }

    /// Ends the command being built, followed by the separator `sep`.
    fn end_command(&mut self, sep: &'static str) -> Result<(), String> {
        if self.words.is_empty() && self.redirects.is_empty() {
            return Ok(());
        }
        let ws = std::mem::take(&mut self.words);
        if let Some(s) = to_simple(ws, std::mem::take(&mut self.redirects), self.lax)? {
            self.commands.push(s);
            self.lax.seps.push((self.commands.len() - 1, sep));
        }
        Ok(())
    }

    /// A separator while a redirection still awaits its target.
    fn targetless_redirection(&mut self) -> Result<(), String> {
        if self.redirect_next {
            self.lax.give_up("a redirection without a target")?;
            self.redirect_next = false;
        }
        Ok(())
    }

    /// Reads the character `c` at `i`. Returns whether the reading goes on with the next one
    /// (`false`: `i` is already where it goes on).
    fn step(&mut self, c: char) -> Result<bool, String> {
        match c {
            ' ' | '\t' => self.finish_word(),
            '\n' | ';' => {
                self.finish_word();
                self.targetless_redirection()?;
                self.end_command(";")?;
                if c == '\n' && !self.heredocs.is_empty() {
                    self.heredoc_bodies();
                }
            }
            '&' | '|' => return self.control(c),
            '<' | '>' => return self.redirection(c),
            '(' | ')' => {
                self.lax
                    .give_up("subshells and grouping are not followed")?;
                self.finish_word();
                self.end_command(";")?;
            }
            '`' => {
                self.lax.give_up("command substitution is not followed")?;
                self.i = substitution(&self.chars, self.i + 1, '`', &mut self.w, self.lax);
            }
            '#' if !self.w.started => {
                self.comment();
                return Ok(false);
            }
            '\\' => {
                self.backslash()?;
                return Ok(false);
            }
            '\'' => {
                self.single_quote()?;
                return Ok(false);
            }
            '"' => self.double_quote()?,
            '$' if self.chars.get(self.i + 1) == Some(&'\'') => {
                self.ansi_c_quote()?;
                return Ok(false);
            }
            '$' => self.i = dollar(&self.chars, self.i, &mut self.w, self.lax)?,
            '*' | '?' | '[' => {
                self.w.glob = true;
                self.w.text.push(c);
                self.w.started = true;
            }
            // bash's brace expansion (`{rm,-rf,/}`, `rm -{r,f}`): not what it looks like.
            '{' if self
                .chars
                .get(self.i + 1)
                .is_some_and(|n| !n.is_whitespace() && *n != '}') =>
            {
                self.w.expanded = true;
                self.w.text.push(c);
                self.w.started = true;
            }
            _ => {
                self.w.text.push(c);
                self.w.started = true;
            }
        }
        Ok(true)
    }

    /// `&` or `|` at `i`. Returns whether the reading goes on with the next character.
    fn control(&mut self, c: char) -> Result<bool, String> {
        // `&>` and `>&` are redirections; `|&`, `||`, `&&`, `|` and `&` separate commands.
        if c == '&' && self.chars.get(self.i + 1) == Some(&'>') {
            self.lax.give_up(
                "`&>` is a redirection to bash and a command sent to the background to sh (dash), which runs it",
            )?;
            self.finish_word();
            self.i += 2;
            if self.chars.get(self.i) == Some(&'>') {
                self.i += 1;
            }
            self.redirect_next = true;
            return Ok(false);
        }
        self.finish_word();
        self.targetless_redirection()?;
        let doubled = self.chars.get(self.i + 1) == Some(&c);
        let sep = match (c, doubled) {
            ('|', false) => "|",
            ('|', true) => "||",
            ('&', true) => "&&",
            _ => "&",
        };
        self.end_command(sep)?;
        if doubled || (c == '|' && self.chars.get(self.i + 1) == Some(&'&')) {
            self.i += 1;
        }
        Ok(true)
    }

    /// `<` or `>` at `i`. Returns whether the reading goes on with the next character.
    fn redirection(&mut self, c: char) -> Result<bool, String> {
        // A word of digits right before is a file-descriptor number.
        if self.w.started
            && !self.w.text.is_empty()
            && self.w.text.chars().all(|d| d.is_ascii_digit())
            && !self.w.expanded
        {
            self.w = Word::new();
        } else {
            self.finish_word();
        }
        let next = self.chars.get(self.i + 1).copied();
        if c == '<' && next == Some('<') {
            self.lax.give_up("here-documents are not followed")?;
            self.i += 2;
            // `<<<` is a here-string: its word is data.
            if self.chars.get(self.i) == Some(&'<') {
                self.i += 1;
                self.redirect_next = true;
                return Ok(false);
            }
            let strip_tabs = self.chars.get(self.i) == Some(&'-');
            if strip_tabs {
                self.i += 1;
            }
            while matches!(self.chars.get(self.i), Some(' ' | '\t')) {
                self.i += 1;
            }
            // The delimiter, its quotes removed (quoted or not, the body is read as commands:
            // more to check, never less).
            let mut delimiter = String::new();
            while let Some(&d) = self.chars.get(self.i) {
                if d.is_whitespace() || matches!(d, ';' | '&' | '|' | '<' | '>' | '(' | ')') {
                    break;
                }
                if !matches!(d, '\'' | '"' | '\\') {
                    delimiter.push(d);
                }
                self.i += 1;
            }
            self.redirects.push(delimiter.clone());
            self.heredocs.push((delimiter, strip_tabs));
            return Ok(false);
        }
        if next == Some('(') {
            self.lax.give_up("process substitution is not followed")?;
            let close = matching(&self.chars, self.i + 2, '(', ')');
            self.lax
                .inner
                .push(self.chars[self.i + 2..close].iter().collect());
            self.w.text.push_str("/dev/fd/63");
            self.w.started = true;
            self.i = close + 1;
            return Ok(false);
        }
        if next == Some('&') {
            // `>&2`, `<&0`: duplicate a descriptor; the target is a number or `-`.
            self.i += 2;
            let start = self.i;
            while self.i < self.chars.len()
                && (self.chars[self.i].is_ascii_digit() || self.chars[self.i] == '-')
            {
                self.i += 1;
            }
            if self.i == start {
                self.redirect_next = true;
            }
            return Ok(false);
        }
        if next == Some('>') || (c == '<' && next == Some('>')) || (c == '>' && next == Some('|')) {
            self.i += 1;
        }
        self.redirect_next = true;
        Ok(true)
    }

    /// A `#` starting a word: the rest of the line is a comment; `i` goes to its end.
    fn comment(&mut self) {
        while self.i < self.chars.len() && self.chars[self.i] != '\n' {
            self.i += 1;
        }
    }

    /// A `\` outside quotes: the next character as it is (a newline: nothing); `i` goes past it.
    fn backslash(&mut self) -> Result<(), String> {
        match self.chars.get(self.i + 1) {
            Some('\n') => {}
            Some(&n) => {
                self.w.text.push(n);
                self.w.started = true;
            }
            None => self.lax.give_up("a trailing backslash")?,
        }
        self.i += 2;
        Ok(())
    }

    /// A `'` at `i`: the text up to the closing quote as it is; `i` goes past that quote.
    fn single_quote(&mut self) -> Result<(), String> {
        let i = self.i;
        let close = match self.chars[i + 1..].iter().position(|&x| x == '\'') {
            Some(c) => i + 1 + c,
            None => {
                self.lax.give_up("an unterminated single quote")?;
                self.chars.len()
            }
        };
        self.w.text.extend(&self.chars[i + 1..close]);
        self.w.started = true;
        self.i = close + 1;
        Ok(())
    }

    /// A `"` at `i`: the text up to the closing quote, its escapes removed and its expansions
    /// read; `i` ends at that quote.
    fn double_quote(&mut self) -> Result<(), String> {
        self.w.started = true;
        self.i += 1;
        loop {
            let Some(&d) = self.chars.get(self.i) else {
                self.lax.give_up("an unterminated double quote")?;
                break;
            };
            match d {
                '"' => break,
                '\\' if matches!(
                    self.chars.get(self.i + 1),
                    Some('$' | '`' | '"' | '\\' | '\n')
                ) =>
                {
                    if self.chars[self.i + 1] != '\n' {
                        self.w.text.push(self.chars[self.i + 1]);
                    }
                    self.i += 2;
                    continue;
                }
                '`' => {
                    self.lax.give_up("command substitution is not followed")?;
                    self.i = substitution(&self.chars, self.i + 1, '`', &mut self.w, self.lax) + 1;
                    continue;
                }
                '$' => {
                    self.i = dollar(&self.chars, self.i, &mut self.w, self.lax)?;
                }
                _ => self.w.text.push(d),
            }
            self.i += 1;
        }
        Ok(())
    }

    /// `$'…'` at `i`: bash decodes it, dash does not; the word is not what it looks like. `i`
    /// goes past the closing quote.
    fn ansi_c_quote(&mut self) -> Result<(), String> {
        self.lax.give_up(
            "`$'…'` is read one way by sh (dash), which runs the command, and another by bash",
        )?;
        let (text, close) = ansi_c(&self.chars, self.i + 1);
        self.w.text.push_str(&text);
        self.w.started = true;
        self.w.expanded = true;
        self.i = close + 1;
        Ok(())
    }
}

/// Simple commands as the shell groups them (no unwrapping).
pub(super) fn split(command: &str, lax: &mut Lax) -> Result<Vec<Simple>, String> {
    // Where sh (dash), which runs the command, reads it otherwise than bash, its reading is
    // checked too: `$'…'` is `$` and a quoted string, `&>` is `&` then `>`.
    if lax.on {
        for (bash, dash) in [("$'", "'"), ("&>", "& >")] {
            if command.contains(bash) {
                lax.inner.push(command.replace(bash, dash));
            }
        }
    }
    let mut lexer = Lexer {
        chars: command.chars().collect(),
        i: 0,
        w: Word::new(),
        words: Vec::new(),
        redirect_next: false,
        redirects: Vec::new(),
        commands: Vec::new(),
        lax,
        heredocs: Vec::new(),
    };
    while lexer.i < lexer.chars.len() {
        let c = lexer.chars[lexer.i];
        if lexer.step(c)? {
            lexer.i += 1;
        }
    }
    lexer.finish_word();
    if lexer.redirect_next {
        lexer.lax.give_up("a redirection without a target")?;
    }
    lexer.end_command(";")?;
    Ok(lexer.commands)
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
    let inner: String = chars[from..end.min(chars.len())].iter().collect();
    // `case … in x) …` inside `$(…)`: its `)` ends nothing, so where the substitution ends is
    // not known here.
    if close == ')'
        && inner
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == "case")
    {
        lax.hidden
            .push("`case` inside `$(…)` is not followed".into());
    }
    lax.inner.push(inner);
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
                // Arithmetic: its value is not known, and what it substitutes runs
                // (`$(( $(cmd | wc -c) ))`), so it is read on its own when tolerant.
                let end = matching(chars, i + 3, '(', ')');
                lax.inner.push(
                    chars[(i + 3).min(end)..end.min(chars.len())]
                        .iter()
                        .collect(),
                );
                w.text.push_str("__arithmetic__");
                w.expanded = true;
                return Ok((end + 1).min(chars.len()));
            }
            Ok(substitution(chars, i + 2, ')', w, lax))
        }
        Some('{') => {
            // Quotes or substitutions inside `${…}` nest in sh: not followed
            // (`"${x+"'"}"` is one word there).
            let close = chars[i + 2..]
                .iter()
                .position(|&c| c == '}')
                .map_or(chars.len(), |p| i + 2 + p);
            if chars[i + 2..close]
                .iter()
                .any(|c| matches!(c, '"' | '\'' | '`' | '$'))
            {
                let why = "quotes or substitutions inside `${…}` are not followed";
                lax.give_up(why)?;
                lax.hidden.push(why.into());
            }
            w.expanded = true;
            w.text.push('$');
            Ok(i)
        }
        Some(c)
            if c.is_ascii_alphanumeric()
                || matches!(c, '_' | '?' | '@' | '*' | '#' | '!' | '$' | '-') =>
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
    // Builtins that give a program another name: a later command run by that name is one the
    // deny groups cannot see (dash expands an alias from the next line on, or inside `eval`).
    // Both judged past `command` and `builtin` (`command alias x=rm` is `alias x=rm`).
    let at = builtin_at(&argv);
    if lax.on && argv.len() > at + 1 {
        let args = &argv[at + 1..];
        let renames = match argv[at].as_str() {
            "alias" => args.iter().any(|a| a.contains('=')),
            "hash" => args.iter().any(|a| a.starts_with("-p")),
            "enable" => true,
            _ => false,
        };
        if renames {
            lax.hidden.push(format!(
                "`{}` gives a command another name, so the commands after it cannot be judged",
                argv[at]
            ));
        }
    }
    // Code given to a builtin is read on its own; code that is not literal hides itself.
    if lax.on
        && let Some(builtin @ ("eval" | "source" | "." | "trap" | "alias")) =
            argv.get(at).map(String::as_str)
    {
        if expanded.iter().any(|&i| i > at) {
            lax.hidden
                .push(format!("`{builtin}` runs code from an expansion"));
        }
        let code = argv[at + 1..].join(" ");
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
