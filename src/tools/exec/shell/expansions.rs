//! The parts of a word the shell expands or groups, for the reader in `lex`: `$…` (parameters,
//! substitutions, arithmetic), `$'…'`, the end of a nested group, and line continuations.

use super::lex::Word;
use super::views::Lax;

/// The index of the `close` that ends a group opened just before `from` (nested pairs and
/// quotes skipped), or the end.
pub(super) fn matching(chars: &[char], from: usize, open: char, close: char) -> usize {
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
pub(super) fn ansi_c(chars: &[char], i: usize) -> (String, usize) {
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

/// `command` with its line continuations (`\` at a line's end, outside single quotes) removed,
/// as sh removes them before reading; `None` when one is in a comment or the command has a
/// here-document.
pub(super) fn join_continuations(command: &str) -> Option<String> {
    if command.contains("<<") {
        return None;
    }
    let chars: Vec<char> = command.chars().collect();
    let mut out = String::new();
    let (mut single, mut double, mut comment) = (false, false, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if comment {
            if c == '\\' && chars.get(i + 1) == Some(&'\n') {
                return None;
            }
            comment = c != '\n';
        } else if single {
            single = c != '\'';
        } else if c == '\\' {
            if chars.get(i + 1) == Some(&'\n') {
                i += 2;
                continue;
            }
            out.push(c);
            if let Some(&n) = chars.get(i + 1) {
                out.push(n);
            }
            i += 2;
            continue;
        } else if c == '"' {
            double = !double;
        } else if c == '\'' && !double {
            single = true;
        } else if c == '#'
            && !double
            && out
                .chars()
                .last()
                .is_none_or(|p| p.is_whitespace() || matches!(p, ';' | '&' | '|' | '(' | ')'))
        {
            comment = true;
        }
        out.push(c);
        i += 1;
    }
    Some(out)
}

/// A substitution whose text starts at `from` and ends at `close` (or the matching `)` for
/// `$(`): its script is kept to be read on its own, and the word it stands in is marked as
/// coming from an expansion. Returns the index of its end.
pub(super) fn substitution(
    chars: &[char],
    from: usize,
    close: char,
    w: &mut Word,
    lax: &mut Lax,
) -> usize {
    let end = if close == ')' {
        matching(chars, from, '(', ')')
    } else {
        chars[from..]
            .iter()
            .position(|&c| c == close)
            .map_or(chars.len(), |p| from + p)
    };
    let inner: String = chars[from..end.min(chars.len())].iter().collect();
    // Where the substitution ends is not known here when something in it can hold its closing
    // character: `case … in x)`, a comment, a here-document (`$(…)`), an escaped backtick.
    let words = || inner.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    let unknown_end = if close == ')' {
        words().any(|w| w == "case")
            || inner.contains("<<")
            || inner.starts_with('#')
            || inner.contains(" #")
            || inner.contains("\t#")
            || inner.contains("\n#")
    } else {
        inner.ends_with('\\')
    };
    if unknown_end {
        lax.hidden
            .push("a substitution whose end the reader cannot find (`case`, a comment, a here-document or an escaped quote in it)".into());
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
pub(super) fn dollar(
    chars: &[char],
    i: usize,
    w: &mut Word,
    lax: &mut Lax,
) -> Result<usize, String> {
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
            if chars[i + 2..close].iter().any(|c| {
                c.is_whitespace()
                    || matches!(
                        c,
                        '"' | '\''
                            | '`'
                            | '$'
                            | '\\'
                            | ';'
                            | '&'
                            | '|'
                            | '<'
                            | '>'
                            | '('
                            | ')'
                            | '{'
                    )
            }) {
                let why = "quotes, blanks or substitutions inside `${…}` are not followed";
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
