//! The pure text stages: credential scrubbing, the prompt-injection guard, the LLM output
//! sanitiser, and where output may be cut without cutting a secret in two. Bytes or strings in, bytes or strings out: nothing here reads a file, touches the
//! terminal or knows about the command line.
//!
//! Every regular expression in these stages is written in Go's `regexp` syntax, as the original
//! GoClaw code has it, and translated once by [`go_regex`]: Go's `\s` is the ASCII set
//! `[\t\n\f\r ]` (no `\v`), while the Rust `regex` crate's is Unicode-aware (and its ASCII form
//! includes `\v`). Case-insensitive matching keeps Unicode simple case folding in both
//! (`(?i)k` also matches the Kelvin sign U+212A, `(?i)s` the long s U+017F), so patterns stay in
//! Unicode mode and only the whitespace classes are rewritten.

pub mod bm25;
pub mod guard;
pub mod json_string;
pub mod json_values;
pub mod leading;
pub mod printable;
pub mod sanitize;
pub mod scrub;
pub mod url;
pub mod words;

use regex::bytes::{Regex, RegexBuilder};

/// Go's `\s`: ASCII tab, line feed, form feed, carriage return and space. Not vertical tab.
pub(crate) const GO_SPACE: &str = r"\t\n\f\r ";

/// Is `b` one of Go's `\s` bytes?
pub(crate) fn is_go_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Rewrites a Go regular expression so the Rust `regex` crate reads it with Go's meaning of
/// `\s` and `\S`. Outside a class `\s` becomes `[\t\n\f\r ]` and `\S` `[^\t\n\f\r ]`; inside a
/// class `\s` becomes its members. `\S` inside a class has no such expansion and is refused (none
/// of GoClaw's patterns uses it).
pub(crate) fn translate_go(pattern: &str) -> Result<String, String> {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut in_class = false;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    return Err(format!("pattern {pattern:?} ends with a lone backslash"));
                };
                match (next, in_class) {
                    ('s', false) => out.push_str(&format!("[{GO_SPACE}]")),
                    ('S', false) => out.push_str(&format!("[^{GO_SPACE}]")),
                    ('s', true) => out.push_str(GO_SPACE),
                    ('S', true) => {
                        return Err(format!("pattern {pattern:?} uses \\S inside a class"));
                    }
                    ('d' | 'w' | 'b' | 'D' | 'W' | 'B', _) => {
                        // Go's are ASCII; say so explicitly.
                        out.push_str("(?-u:\\");
                        out.push(next);
                        out.push(')');
                        if in_class {
                            return Err(format!(
                                "pattern {pattern:?} uses \\{next} inside a class"
                            ));
                        }
                    }
                    _ => {
                        out.push('\\');
                        out.push(next);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                // A leading `^` and a leading `]` belong to the class syntax.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            '[' => out.push_str("\\["),
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}

/// What compiling one Go pattern may take: its NFA, and the lazy DFA's cache.
const GO_NFA_LIMIT: usize = 64 << 20;
const GO_DFA_LIMIT: usize = 16 << 20;

fn compile_error(pattern: &str, e: impl std::fmt::Display) -> String {
    format!("pattern {pattern:?} does not compile: {e}")
}

/// Compiles a Go pattern (see [`translate_go`]) for matching over bytes.
pub(crate) fn go_regex(pattern: &str) -> Result<Regex, String> {
    let translated = translate_go(pattern)?;
    RegexBuilder::new(&translated)
        .size_limit(GO_NFA_LIMIT)
        .dfa_size_limit(GO_DFA_LIMIT)
        .build()
        .map_err(|e| compile_error(pattern, e))
}

/// The same pattern as the `regex-automata` regex a [`go_regex`] wraps (compiled the same way),
/// for a caller that also searches anchored at a position.
pub(crate) fn go_automaton(pattern: &str) -> Result<regex_automata::meta::Regex, String> {
    use regex_automata::meta::Regex as Automaton;
    let translated = translate_go(pattern)?;
    Automaton::builder()
        .syntax(regex_automata::util::syntax::Config::new().utf8(false))
        .configure(
            Automaton::config()
                .utf8_empty(false)
                .nfa_size_limit(Some(GO_NFA_LIMIT))
                .hybrid_cache_capacity(GO_DFA_LIMIT),
        )
        .build(&translated)
        .map_err(|e| compile_error(pattern, e))
}

/// Go's `strings.TrimSpace` over bytes: strips Unicode white space (the same set as Rust's
/// `char::is_whitespace`) from both ends. Bytes that are not valid UTF-8 are never white space.
pub(crate) fn trim_go(text: &[u8]) -> &[u8] {
    let mut start = 0;
    while start < text.len() {
        match space_len_at(text, start) {
            Some(n) => start += n,
            None => break,
        }
    }
    let mut end = text.len();
    while end > start {
        match space_len_before(text, end) {
            Some(n) => end -= n,
            None => break,
        }
    }
    &text[start..end]
}

fn utf8_width(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => 1,
    }
}

/// Length of the white-space character starting at `at`, if there is one.
fn space_len_at(text: &[u8], at: usize) -> Option<usize> {
    let w = utf8_width(text[at]);
    let bytes = text.get(at..at + w)?;
    let s = std::str::from_utf8(bytes).ok()?;
    s.chars().next().filter(|c| c.is_whitespace()).map(|_| w)
}

/// Length of the white-space character ending at `end`, if there is one.
fn space_len_before(text: &[u8], end: usize) -> Option<usize> {
    for w in 1..=4.min(end) {
        let bytes = &text[end - w..end];
        if let Ok(s) = std::str::from_utf8(bytes) {
            return s.chars().next().filter(|c| c.is_whitespace()).map(|_| w);
        }
    }
    None
}

/// Whether `c` belongs to a word for full-text search, as SQLite's FTS5 (unicode61) takes it:
/// a letter, a digit, or a combining mark (the accent of a decomposed `é`, which the index
/// folds away); anything else separates words.
pub fn word_char(c: char) -> bool {
    c.is_alphanumeric() || ('\u{300}'..='\u{36f}').contains(&c)
}

/// The first `max` different words of a search query, split at what is not part of a word
/// ([`word_char`]): user text never reaches a full-text query's syntax.
pub fn query_words(query: &str, max: usize) -> Vec<&str> {
    let mut words: Vec<&str> = Vec::new();
    for w in query
        .split(|c: char| !word_char(c))
        .filter(|w| !w.is_empty())
    {
        if words.len() == max {
            break;
        }
        if !words.contains(&w) {
            words.push(w);
        }
    }
    words
}

/// `text` with every value replaced, then cut to `cap` bytes (at a character), with a cut value's
/// start at the end dropped too, so no part of a secret stays.
pub fn redact_then_cut(text: &str, values: &[&str], cap: usize) -> String {
    // Longest first: a value inside a longer one must not cut that one in two.
    let mut values: Vec<&str> = values.iter().copied().filter(|v| v.len() >= 4).collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    let mut out = text.to_string();
    for v in &values {
        out = out.replace(*v, "[REDACTED]");
    }
    if out.len() > cap {
        let mut end = cap;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        for v in &values {
            for k in (4..v.len()).rev() {
                if v.is_char_boundary(k) && out.ends_with(&v[..k]) {
                    out.truncate(out.len() - k);
                    break;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translates_whitespace_classes() {
        assert_eq!(translate_go(r"a\s*b").unwrap(), r"a[\t\n\f\r ]*b");
        assert_eq!(translate_go(r"\S{8,}").unwrap(), r"[^\t\n\f\r ]{8,}");
        assert_eq!(translate_go(r"[^\[\s]{4,}").unwrap(), r"[^\[\t\n\f\r ]{4,}");
        assert_eq!(translate_go(r#"[^\s"']+"#).unwrap(), r#"[^\t\n\f\r "']+"#);
        assert!(translate_go(r"[\S]").is_err());
    }

    #[test]
    fn go_space_excludes_vertical_tab() {
        let re = go_regex(r"a\sb").unwrap();
        assert!(re.is_match(b"a b"));
        assert!(re.is_match(b"a\x0cb"));
        assert!(!re.is_match(b"a\x0bb"));
        assert!(!re.is_match("a\u{a0}b".as_bytes()));
    }

    #[test]
    fn case_folding_is_unicode_simple_folding() {
        let re = go_regex(r"(?i)token").unwrap();
        assert!(re.is_match("TO\u{212a}EN".as_bytes()));
        let re = go_regex(r"(?i)secret").unwrap();
        assert!(re.is_match("\u{17f}ecret".as_bytes()));
    }

    #[test]
    fn trims_like_go() {
        assert_eq!(trim_go(b"  \t hi \n"), b"hi");
        assert_eq!(trim_go("\u{a0}\u{3000}x\u{2028}".as_bytes()), b"x");
        assert_eq!(trim_go(b"\xff x \xfe"), b"\xff x \xfe");
        assert_eq!(trim_go(b"   "), b"");
        assert_eq!(trim_go(b"\x0bx\x0b"), b"x");
    }
}
