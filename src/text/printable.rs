//! Text a model, a command or a server chose, made safe to show on a terminal: nothing in it can
//! move the cursor, redraw the screen, fake a prompt, or reorder and hide the text around it.

/// Control characters (escape sequences) and the invisible characters that reorder or hide text
/// (bidirectional overrides and isolates, zero-width characters) become U+FFFD; newlines and
/// tabs stay.
pub fn printable(s: &str) -> String {
    s.chars()
        .map(|c| if shown_as_is(c) { c } else { '\u{FFFD}' })
        .collect()
}

/// [`printable`] on one line: a line break is written `\n` (a CRLF one `\n` too), so a message
/// of several lines stays one line of a log (`error: …` on stderr).
pub fn one_line(s: &str) -> String {
    let mut line = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => line.push_str("\\n"),
            '\t' => line.push('\t'),
            c if shown_as_is(c) => line.push(c),
            _ => line.push('\u{FFFD}'),
        }
    }
    line
}

/// Not a control character other than newline and tab, nor one of the characters that change
/// how the text around them shows, show as nothing or break a line where a reader may split
/// it: bidirectional marks and overrides, zero-width and other format characters, soft
/// hyphens, the Hangul fillers, the tag characters (invisible ASCII), line and paragraph
/// separators.
fn shown_as_is(c: char) -> bool {
    !((c.is_control() && c != '\n' && c != '\t')
        || matches!(c,
            '\u{00AD}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{180E}'
            | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}' | '\u{E0000}'..='\u{E007F}'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_shown_can_steer_the_terminal() {
        assert_eq!(
            printable("a\x1b[2Jb\u{202E}c\n\td"),
            "a\u{FFFD}[2Jb\u{FFFD}c\n\td"
        );
        assert_eq!(
            one_line("line1\r\n\nSTDERR:\nline2\x1b]0;x\x07"),
            "line1\\n\\nSTDERR:\\nline2\u{FFFD}]0;x\u{FFFD}"
        );
        assert_eq!(one_line("a\rb"), "a\u{FFFD}b");
        for hidden in [
            '\u{2028}',
            '\u{2029}',
            '\u{E0041}',
            '\u{00AD}',
            '\u{3164}',
            '\u{206A}',
        ] {
            assert_eq!(
                printable(&format!("a{hidden}b")),
                "a\u{FFFD}b",
                "{hidden:?}"
            );
        }
        assert_eq!(printable("café ünïcode 日本"), "café ünïcode 日本");
    }
}
