//! Where output may be cut without cutting a secret in two. A tool that shows only a part of
//! its output (a limit reached, a long line, a log read while it grows) cuts it before the
//! scrubber sees it: a token cut in two is two pieces neither of which matches a pattern, and
//! the piece shown would leak. So every such cut falls at a word boundary, a byte no secret
//! holds, looking back at most [`LOOK`] bytes (a "word" longer than that is cut where it is).

/// How far back a cut looks for a boundary.
pub const LOOK: usize = 4096;

/// A byte no secret holds: ASCII white space and punctuation that delimits values in text, JSON,
/// shell and markup. All ASCII, so a cut just after one is also a UTF-8 character boundary.
pub fn is_boundary(b: u8) -> bool {
    b.is_ascii_whitespace() || b"\"'`,;<>()[]{}|".contains(&b)
}

/// Where `text[..at]` may end without cutting a word in two: `at` when it is the end of the
/// text or the cut falls beside a boundary; else just after the last boundary in the
/// [`LOOK`] bytes before `at`, or `at` when there is none.
pub fn cut_at(text: &[u8], at: usize) -> usize {
    let at = at.min(text.len());
    if at == text.len() || at == 0 || is_boundary(text[at]) || is_boundary(text[at - 1]) {
        return at;
    }
    last_word_end(&text[..at]).unwrap_or(at)
}

/// At most the first `max` characters of `text`, ending where [`cut_at`] allows.
pub fn prefix_chars(text: &str, max: usize) -> &str {
    let at = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    &text[..cut_at(text.as_bytes(), at)]
}

/// At most the first `max` bytes of `text`, on a character boundary, ending where [`cut_at`]
/// allows.
pub fn prefix_bytes(text: &str, max: usize) -> &str {
    let at = text.floor_char_boundary(max.min(text.len()));
    &text[..cut_at(text.as_bytes(), at)]
}

/// The length of `text` without its last word, for text whose continuation is unknown (cut
/// already, or still being written): just after the last boundary in its last [`LOOK`] bytes,
/// `None` when they hold none.
pub fn last_word_end(text: &[u8]) -> Option<usize> {
    let from = text.len().saturating_sub(LOOK);
    text[from..]
        .iter()
        .rposition(|b| is_boundary(*b))
        .map(|i| from + i + 1)
}

/// Where `text[..end]` may end when what follows is unknown: `end`, or the start of its last
/// line when that line is a name still waiting for its value (`api_key = `, `password:` with
/// nothing after it yet, even past its line end, `"token": "`): shown without it, the value
/// would come in the next read with no name a scrubber could know it by.
pub fn before_awaited_value(text: &[u8], end: usize) -> usize {
    let end = end.min(text.len());
    let body = text[..end].trim_ascii_end();
    let start = body
        .iter()
        .rposition(|b| *b == b'\n' || *b == b'\r')
        .map_or(0, |i| i + 1);
    if end - start > LOOK {
        return end;
    }
    let line = &body[start..];
    let line = line.strip_suffix(b"\"").unwrap_or(line).trim_ascii_end();
    if line.ends_with(b":") || line.ends_with(b"=") {
        start
    } else {
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_waiting_for_its_value_waits_with_it() {
        for (t, keep) in [
            (&b"ok\napi_key = "[..], 3),
            (b"password:", 0),
            (b"ok\npassword:\n", 3),
            (b"ok\n{\"api_key\": \"", 3),
        ] {
            assert_eq!(
                before_awaited_value(t, t.len()),
                keep,
                "{:?}",
                String::from_utf8_lossy(t)
            );
        }
        for t in [
            &b"ok\nname = x "[..],
            b"done\n",
            b"50% ",
            b"Authorization: Bearer ",
        ] {
            assert_eq!(before_awaited_value(t, t.len()), t.len());
        }
    }

    #[test]
    fn a_cut_inside_a_word_moves_back_to_its_start() {
        let t = b"key: ghp_abcdefghij more";
        assert_eq!(cut_at(t, 12), 5);
        assert_eq!(&t[..cut_at(t, 12)], b"key: ");
        // Beside a boundary, or at the end: where it is.
        assert_eq!(cut_at(t, 4), 4);
        assert_eq!(cut_at(t, 5), 5);
        assert_eq!(cut_at(t, 19), 19);
        assert_eq!(cut_at(t, 99), t.len());
        assert_eq!(cut_at(b"\"tok\":\"abc\"", 8), 7);
    }

    #[test]
    fn a_word_longer_than_the_look_back_is_cut_where_it_is() {
        let t = [b"a ".as_slice(), &[b'x'; LOOK + 10]].concat();
        assert_eq!(cut_at(&t, LOOK + 5), LOOK + 5);
        assert_eq!(cut_at(&t, LOOK), 2);
    }

    #[test]
    fn prefixes_end_on_characters_and_words() {
        assert_eq!(prefix_chars("héllo wörld", 8), "héllo ");
        assert_eq!(prefix_chars("héllo wörld", 6), "héllo ");
        assert_eq!(prefix_chars("héllo", 9), "héllo");
        assert_eq!(prefix_bytes("ab é", 4), "ab ");
        assert_eq!(prefix_bytes("ab éa", 5), "ab ");
        assert_eq!(prefix_bytes("ab", 5), "ab");
    }

    #[test]
    fn the_last_word_of_unknown_continuation() {
        assert_eq!(last_word_end(b"one two"), Some(4));
        assert_eq!(last_word_end(b"one two "), Some(8));
        assert_eq!(last_word_end(b"onetwo"), None);
        assert_eq!(last_word_end(b""), None);
    }
}
