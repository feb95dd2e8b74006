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

/// [`printable`] as a writer, for output that is written in pieces (a human rendering): a
/// character split between two writes is judged whole, bytes that are not UTF-8 are shown as
/// U+FFFD, and a line that ends in CRLF keeps it (a lone CR, which could overwrite the line,
/// does not). Whatever is held back is written by `flush`.
pub struct PrintableWriter<W: std::io::Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: std::io::Write> PrintableWriter<W> {
    pub fn new(inner: W) -> PrintableWriter<W> {
        PrintableWriter {
            inner,
            pending: Vec::new(),
        }
    }

    /// The printable text of what is pending; at the end, all of it, else up to a character
    /// or CRLF that may continue in the next write.
    fn drain(&mut self, at_end: bool) -> String {
        let mut out = String::new();
        let mut start = 0;
        let bytes = std::mem::take(&mut self.pending);
        let mut keep = bytes.len();
        while start < bytes.len() {
            let (valid, bad) = match std::str::from_utf8(&bytes[start..]) {
                Ok(_) => (bytes.len() - start, None),
                Err(e) => (e.valid_up_to(), e.error_len()),
            };
            let text = std::str::from_utf8(&bytes[start..start + valid]).unwrap_or_default();
            let held_cr = !at_end && bad.is_none() && text.ends_with('\r');
            let text = if held_cr {
                &text[..text.len() - 1]
            } else {
                text
            };
            for (i, line) in text.split("\r\n").enumerate() {
                if i > 0 {
                    out.push_str("\r\n");
                }
                out.push_str(&printable(line));
            }
            start += valid;
            match bad {
                Some(n) => {
                    out.push('\u{FFFD}');
                    start += n;
                }
                None if at_end && start < bytes.len() => {
                    out.push('\u{FFFD}');
                    start = bytes.len();
                }
                None => {
                    keep = start - usize::from(held_cr);
                    break;
                }
            }
        }
        if keep < bytes.len() {
            self.pending = bytes[keep..].to_vec();
        }
        out
    }
}

impl<W: std::io::Write> std::io::Write for PrintableWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        let text = self.drain(false);
        self.inner.write_all(text.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let text = self.drain(true);
        self.inner.write_all(text.as_bytes())?;
        self.inner.flush()
    }
}

/// Not a control character other than newline and tab, nor one of the characters that change
/// how the text around them shows, show as nothing or break a line where a reader may split
/// it: bidirectional marks and overrides, zero-width and other format characters, soft
/// hyphens, the Hangul fillers, the tag characters (invisible ASCII), line and paragraph
/// separators.
/// Whether `c` is shown as it is on one line: not a control character (a line break, a tab
/// included) nor one that reorders or hides text. A name (a team's) must be made of these, so
/// two names that look the same are the same.
pub fn shown_on_one_line(c: char) -> bool {
    shown_as_is(c) && c != '\n' && c != '\t'
}

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
    fn the_writer_judges_characters_whole_across_writes() {
        use std::io::Write;
        let whole = "a\x1b[2Jb\u{202E}é\r\nline\rover\u{1F600}\r";
        let want = "a\u{FFFD}[2Jb\u{FFFD}é\r\nline\u{FFFD}over\u{1F600}\u{FFFD}";
        let bytes = whole.as_bytes();
        for cut in 0..=bytes.len() {
            for cut2 in cut..=bytes.len() {
                let mut w = PrintableWriter::new(Vec::new());
                w.write_all(&bytes[..cut]).unwrap();
                w.write_all(&bytes[cut..cut2]).unwrap();
                w.write_all(&bytes[cut2..]).unwrap();
                w.flush().unwrap();
                assert_eq!(String::from_utf8(w.inner).unwrap(), want, "{cut} {cut2}");
            }
        }
        let mut w = PrintableWriter::new(Vec::new());
        w.write_all(b"ok\xff\xe2\x82").unwrap();
        w.flush().unwrap();
        assert_eq!(String::from_utf8(w.inner).unwrap(), "ok\u{FFFD}\u{FFFD}");
    }

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
