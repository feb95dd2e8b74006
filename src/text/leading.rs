//! What every match of a Go pattern begins with, read off the pattern's source without
//! compiling it: a text that holds none of those words cannot match, so a caller with many
//! patterns and a short text compiles only the patterns that might (the `exec` deny list), or
//! searches from where the word is (`scrub`'s stages).

/// The words a match begins with: one of [`Leading::words`], as written or, after a leading
/// `(?i)`, with its ASCII letters in either case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leading<'a> {
    pub words: Vec<&'a str>,
    pub case_insensitive: bool,
    /// The pattern is the word itself and what follows: no `(?i)`, no `\b`, no group.
    pub plain: bool,
}

impl Leading<'_> {
    /// Whether `text` holds one of the words, so a match may be in it. Case-insensitive words
    /// are compared by their ASCII letters: right for a pattern compiled without Unicode (the
    /// `exec` deny list), not for one whose `(?i)` also folds `k` to the Kelvin sign.
    pub fn may_match(&self, text: &[u8]) -> bool {
        self.words.iter().any(|w| {
            let w = w.as_bytes();
            if w.is_empty() {
                true
            } else if self.case_insensitive {
                text.windows(w.len()).any(|t| t.eq_ignore_ascii_case(w))
            } else {
                memchr::memmem::find(text, w).is_some()
            }
        })
    }
}

/// Characters of a word: the ones no Go pattern gives a meaning to.
fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

/// Whether the byte at `at` quantifies what precedes it.
fn quantifier_at(go: &[u8], at: usize) -> bool {
    matches!(go.get(at), Some(b'*' | b'+' | b'?' | b'{'))
}

/// What every match of Go pattern `go` begins with: after a leading `(?i)` and `\b`, a word
/// (`sk-` of `sk-[a-zA-Z0-9]{20,}`, `rm` of `\brm\s+-rf`) or a group of words (`curl` or `wget`
/// of `\b(curl|wget)\b.*\|`). A word a quantifier follows loses its last character (`ab*c`:
/// `a`); a group a quantifier follows, or a pattern with `|` at its top level (a match of
/// `a|b` need not begin with `a`), gives `None`, as does any other start.
pub fn leading(go: &str) -> Option<Leading<'_>> {
    if alternates_at_top(go) {
        return None;
    }
    let (case_insensitive, rest) = match go.strip_prefix("(?i)") {
        Some(rest) => (true, rest),
        None => (false, go),
    };
    let (boundary, rest) = match rest.strip_prefix(r"\b") {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    let bytes = rest.as_bytes();
    if let Some(group) = rest.strip_prefix('(') {
        let close = group.find(')')?;
        let words: Vec<&str> = group[..close].split('|').collect();
        let all_words = words
            .iter()
            .all(|w| !w.is_empty() && w.bytes().all(is_word));
        // `(a|b)?` or `(a|b){0,1}` need not be there at all.
        if !all_words || matches!(bytes.get(close + 2), Some(b'*' | b'?' | b'{')) {
            return None;
        }
        return Some(Leading {
            words,
            case_insensitive,
            plain: false,
        });
    }
    let mut end = bytes
        .iter()
        .position(|&c| !is_word(c))
        .unwrap_or(bytes.len());
    if quantifier_at(bytes, end) {
        end = end.saturating_sub(1);
    }
    (end > 0).then(|| Leading {
        words: vec![&rest[..end]],
        case_insensitive,
        plain: !case_insensitive && !boundary,
    })
}

/// Whether `go` has a `|` outside every group and class.
fn alternates_at_top(go: &str) -> bool {
    let bytes = go.as_bytes();
    let (mut depth, mut in_class, mut i) = (0usize, false, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b']' if in_class => in_class = false,
            _ if in_class => {}
            b'[' => {
                in_class = true;
                // A `]` first (after a `^`) is a member, not the end.
                if bytes.get(i + 1) == Some(&b'^') {
                    i += 1;
                }
                if bytes.get(i + 1) == Some(&b']') {
                    i += 1;
                }
            }
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b'|' if depth == 0 => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(go: &str) -> Option<(Vec<&str>, bool, bool)> {
        leading(go).map(|l| (l.words, l.case_insensitive, l.plain))
    }

    #[test]
    fn the_words_a_match_begins_with() {
        assert_eq!(words("sk-[a-z]{20,}"), Some((vec!["sk-"], false, true)));
        assert_eq!(words(r"\brm\s+-[rf]"), Some((vec!["rm"], false, false)));
        assert_eq!(
            words(r"(?i)\bstrings\b.*"),
            Some((vec!["strings"], true, false))
        );
        assert_eq!(words("ab*c"), Some((vec!["a"], false, true)));
        assert_eq!(words("a?b"), None);
        assert_eq!(
            words(r"\b(curl|wget)\b.*\|"),
            Some((vec!["curl", "wget"], false, false))
        );
        assert_eq!(words(r"\b(ba|da)?sh\b"), None);
        assert_eq!(words(r"\b(shutil\.rmtree|rmtree)"), None);
        assert_eq!(
            words(r"\bsource\s+<\(|\.\s+<\("),
            None,
            "top-level alternation"
        );
        assert_eq!(words(r"\b(mkfs|diskpart)\b|\bformat\s"), None);
        assert_eq!(words(r"\bkill\s+[|]"), Some((vec!["kill"], false, false)));
        assert_eq!(
            words(r"\bx[]|]y"),
            Some((vec!["x"], false, false)),
            "`|` in a class"
        );
        assert_eq!(
            words(r"\bx\|y"),
            Some((vec!["x"], false, false)),
            "`\\|` is a bar"
        );
        assert_eq!(words(r"^\s*env"), None);
        assert_eq!(words(r"/dev/tcp/"), None);
    }

    #[test]
    fn a_text_may_match_only_when_it_holds_a_word() {
        let l = leading(r"(?i)\becho\b").unwrap();
        assert!(l.may_match(b"x; ECHO $GOCLAW_TOKEN"));
        assert!(!l.may_match(b"ech o"));
        let l = leading(r"\b(curl|wget)\b").unwrap();
        assert!(l.may_match(b"wget -O- x"));
        assert!(!l.may_match(b"WGET"));
        assert!(!l.may_match(b""));
    }
}
