//! The lexer: a command string read as `sh` reads it, into words (quotes and escapes removed,
//! redirections recorded, expansions and globs marked) grouped into simple commands at the
//! separators. Substitutions, here-documents and other constructs it does not follow make the
//! strict reading give up; the tolerant one keeps their scripts to be read on their own.

use super::expansions::{ansi_c, dollar, join_continuations, matching, substitution};
use super::views::Lax;
use super::{Simple, is_assignment};

/// Builtins (and keywords) that can run code or change how later commands run.
const OPAQUE_WORDS: &[&str] = &[
    "eval", "source", ".", "trap", "alias", "function", "if", "then", "else", "elif", "fi", "for",
    "while", "until", "do", "done", "case", "esac", "select", "{", "}", "!", "[[", "]]", "coproc",
    "builtin", "enable", "hash", "read", "set", "unset", "export", "readonly", "declare",
    "typeset", "local", "shopt", "ulimit", "umask", "fc", "history",
];

pub(super) struct Word {
    pub(super) text: String,
    pub(super) started: bool,
    pub(super) expanded: bool,
    pub(super) glob: bool,
    /// Where in `text` the first quoted or escaped part starts: a name quoted before its `=`
    /// (`"a"=x`) makes no assignment in sh, but a command.
    pub(super) quoted_at: Option<usize>,
}

impl Word {
    fn new() -> Word {
        Word {
            text: String::new(),
            started: false,
            expanded: false,
            glob: false,
            quoted_at: None,
        }
    }

    fn quoted_from_here(&mut self) {
        if self.quoted_at.is_none() {
            self.quoted_at = Some(self.text.len());
        }
    }

    /// Whether sh takes the word for an assignment: `NAME=…` with the name unquoted.
    fn is_assignment(&self) -> bool {
        is_assignment(&self.text)
            && self
                .text
                .find('=')
                .is_some_and(|eq| self.quoted_at.is_none_or(|q| q > eq))
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

/// The reading of one command string: the characters, where it is, the word being built, the
/// words and redirections of the command being built, and the commands so far.
struct Lexer<'a> {
    chars: Vec<char>,
    i: usize,
    w: Word,
    words: Vec<Word>,
    redirect_next: bool,
    redirects: Vec<String>,
    /// Whether the command being built has a redirection (a file's or a descriptor's).
    redirected: bool,
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
        let redirected = std::mem::take(&mut self.redirected);
        if self.words.is_empty() && self.redirects.is_empty() {
            return Ok(());
        }
        let ws = std::mem::take(&mut self.words);
        if let Some(mut s) = to_simple(ws, std::mem::take(&mut self.redirects), self.lax)? {
            s.redirected = redirected;
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
        self.redirected = true;
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
            let mut quote = None;
            while let Some(&d) = self.chars.get(self.i) {
                match (quote, d) {
                    (None, '\'' | '"') => quote = Some(d),
                    (Some(q), _) if d == q => quote = None,
                    (None, _)
                        if d.is_whitespace()
                            || matches!(d, ';' | '&' | '|' | '<' | '>' | '(' | ')') =>
                    {
                        break;
                    }
                    (None, '\\') => {}
                    _ => delimiter.push(d),
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
        if self.chars.get(self.i + 1) != Some(&'\n') {
            self.w.quoted_from_here();
        }
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
        self.w.quoted_from_here();
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
        self.w.quoted_from_here();
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
    // A line continuation joins lines before sh reads any word or operator (`<\⏎<` is `<<`,
    // `$\⏎{` is `${`): the joined text is what is read. Where joining is not sure (inside a
    // comment, or with a here-document whose body may keep it), not followed strictly, and
    // read both ways tolerantly.
    let joined;
    let command = if command.contains("\\\n") {
        match join_continuations(command) {
            Some(text) => {
                joined = text;
                joined.as_str()
            }
            None => {
                lax.give_up(
                    "a line continuation in a comment or beside a here-document is not followed",
                )?;
                lax.inner.push(command.replace("\\\n", ""));
                command
            }
        }
    } else {
        command
    };
    let mut lexer = Lexer {
        chars: command.chars().collect(),
        i: 0,
        w: Word::new(),
        words: Vec::new(),
        redirect_next: false,
        redirects: Vec::new(),
        redirected: false,
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
        if argv.is_empty() && word.is_assignment() {
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
        ..Simple::default()
    }))
}
