//! The LLM output cleaner (reference §16.2, `SanitizeAssistantContent`): eight steps in order and
//! a final trim, plus the silent-reply detection of §16.3 (`NO_REPLY`). Pure: bytes in, bytes out.
//!
//! Works on bytes so that nothing outside what a step removes is changed, even in text that is
//! not valid UTF-8. The regexes match as Go's do: `[^>]*` and `.*?` are written as byte classes
//! (`(?-u:…)`) so they step over invalid bytes as Go steps over U+FFFD; under `*` that is the
//! same language. "Trim" is Go's `strings.TrimSpace`.

use std::sync::LazyLock;

use regex::bytes::Regex;

use super::{go_regex, trim_go};

struct Patterns {
    tool_xml: Regex,
    thinking: Vec<Regex>,
    final_tag: Regex,
    media: Regex,
    leading_blank: Regex,
}

static PATTERNS: LazyLock<Result<Patterns, String>> = LazyLock::new(|| {
    Ok(Patterns {
        tool_xml: go_regex(
            r"(?s)</?(?:function_calls?|functioninvoke|invoke|invfunction_calls|tool_call|tool_use|parameter|minimax:tool_call)(?-u:[^>])*>",
        )?,
        thinking: [
            r"(?is)<think>(?-u:.)*?</think>",
            r"(?is)<thinking>(?-u:.)*?</thinking>",
            r"(?is)<thought>(?-u:.)*?</thought>",
            r"(?is)<antThinking>(?-u:.)*?</antThinking>",
            r"(?is)<antthinking>(?-u:.)*?</antthinking>",
        ]
        .into_iter()
        .map(go_regex)
        .collect::<Result<_, _>>()?,
        final_tag: go_regex(r"(?i)<\s*/?\s*final\s*>")?,
        media: go_regex(r"MEDIA:\S+")?,
        leading_blank: go_regex(r"^(?:[ \t]*\r?\n)+")?,
    })
});

const TOOL_XML_MARKERS: [&[u8]; 8] = [
    b"invfunction_calls",
    b"functioninvoke",
    b"<parameter name=",
    b"</parameter",
    b"<function_call",
    b"<tool_call",
    b"<tool_use",
    b"<minimax:tool_call",
];
const DOWNGRADED_MARKERS: [&[u8]; 3] = [b"[Tool Call:", b"[Tool Result", b"[Historical context:"];
const THINKING_MARKERS: [&[u8]; 3] = [b"<think", b"<thought", b"<antthinking"];
const SYSTEM_MESSAGE: &[u8] = b"[System Message]";
const SILENT: &[u8] = b"NO_REPLY";

/// Cleans assistant output. Returns the cleaned text (possibly empty).
pub fn sanitize(text: &[u8]) -> Result<Vec<u8>, String> {
    let p = PATTERNS.as_ref().map_err(Clone::clone)?;
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let mut text = text.to_vec();

    // 1. Garbled tool-call XML: drop the tags, keep their inner text.
    if contains_any(&go_lower(&text), &TOOL_XML_MARKERS) {
        text = trim_go(&p.tool_xml.replace_all(&text, &b""[..])).to_vec();
        if text.is_empty() {
            return Ok(text);
        }
    }
    // 2. Tool calls downgraded to text.
    if DOWNGRADED_MARKERS.iter().any(|m| contains(&text, m)) {
        text = strip_downgraded(&text);
    }
    // 3. Thinking blocks.
    if contains_any(&go_lower(&text), &THINKING_MARKERS) {
        for re in &p.thinking {
            text = re.replace_all(&text, &b""[..]).into_owned();
        }
        text = trim_go(&text).to_vec();
    }
    // 4. <final> tags.
    if contains(&go_lower(&text), b"final") {
        text = p.final_tag.replace_all(&text, &b""[..]).into_owned();
    }
    // 5. Echoed system messages.
    if contains(&text, SYSTEM_MESSAGE) {
        text = strip_system_messages(&text);
    }
    // 6. Duplicate paragraphs.
    text = collapse_duplicate_blocks(&text);
    // 7. MEDIA: paths.
    if contains(&text, b"MEDIA:") {
        let kept: Vec<&[u8]> = text
            .split(|&b| b == b'\n')
            .filter(|line| {
                let t = trim_go(line);
                !(t.starts_with(b"[[audio_as_voice]]") || p.media.is_match(line))
            })
            .collect();
        text = trim_go(&kept.join(&b'\n')).to_vec();
    }
    // 8. Leading blank lines.
    text = p.leading_blank.replace(&text, &b""[..]).into_owned();
    Ok(trim_go(&text).to_vec())
}

/// `IsSilentReply`: the whole (trimmed) reply is `NO_REPLY`, or it starts or ends with it at a
/// word boundary. Case-sensitive.
pub fn is_silent(text: &[u8]) -> bool {
    let t = trim_go(text);
    if t.is_empty() {
        return false;
    }
    if t == SILENT {
        return true;
    }
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    if t.starts_with(SILENT) && !word(t[SILENT.len()]) {
        return true;
    }
    t.ends_with(SILENT) && !word(t[t.len() - SILENT.len() - 1])
}

/// Sanitizes a reply as it arrives (`goclaw sanitize` on a live stream): what [`Stream::ready`]
/// returns can be printed at once, and everything returned, [`Stream::finish`]'s part last,
/// is exactly [`sanitize`] of the whole input and the newline that ends it (none when it is
/// empty), which is what `goclaw sanitize` prints.
///
/// A paragraph printed early comes with its line's end: whatever follows a final paragraph in
/// the cleaned whole starts with a line break (paragraphs stay separated; the steps that join
/// lines keep the breaks between the lines they keep), or nothing follows and the closing
/// newline does; so a reader reading lines sees the paragraph at once, not when more comes.
/// The worst futures ([`PROBES`]) are checked for that too, and a paragraph they would not
/// follow with a break waits for its end as before.
///
/// `ready` returns the cleaned text up to the last paragraph break (`\n\n`) that nothing later
/// can change. Every step but two works line by line or paragraph by paragraph, keeps what came
/// first, or touches only the ends, so the cleaned form of a prefix ending at a paragraph break
/// is the start of the cleaned whole. The two that reach back: a tool-call marker further on
/// removes tool-call tags before it, and a thinking block closed further on removes the text
/// since its opening tag. So a prefix is printed only when the worst of those futures
/// ([`PROBES`]) would not change its cleaned form; until then it waits (a thinking block still
/// open, say), and goes out once a later break makes it safe. Past [`STREAM_MAX`] the reply is
/// held to its end (each early print cleans the prefix again, three times).
#[derive(Debug, Default)]
pub struct Stream {
    input: Vec<u8>,
    /// The end of the last prefix tried: a new try needs a paragraph break after it.
    tried: usize,
    /// The cleaned text returned so far.
    printed: Vec<u8>,
    /// A line break was returned after `printed`, ahead of the cleaned text that holds it.
    owed_break: bool,
}

/// The reply size up to which [`Stream`] prints early.
pub const STREAM_MAX: usize = 1 << 20;

/// What a reply can go on with that reaches back the furthest: a tool-call marker (every
/// tool-call tag before it goes), the closing tag of every thinking block (the text since an
/// open one goes), each way a `<final>` tag begun before a paragraph break can end after it
/// (`<\s*/?\s*final\s*>` spans white space: `<`, `</` or `<final` then goes), and a `MEDIA:`
/// path (step 7 then drops every `[[audio_as_voice]]` line before it).
const PROBES: [&[u8]; 6] = [
    b"<tool_call>",
    b"</think></thinking></thought></antthinking></antThinking>",
    b"final>",
    b"/final>",
    b">",
    b"MEDIA:/x",
];

impl Stream {
    pub fn push(&mut self, bytes: &[u8]) {
        self.input.extend_from_slice(bytes);
    }

    /// The cleaned text that can be printed now (often empty).
    pub fn ready(&mut self) -> Result<Vec<u8>, String> {
        if self.input.len() > STREAM_MAX {
            return Ok(Vec::new());
        }
        let Some(at) = memchr::memmem::rfind(&self.input[self.tried..], b"\n\n") else {
            return Ok(Vec::new());
        };
        let end = self.tried + at + 2;
        self.tried = end;
        let prefix = &self.input[..end];
        let cleaned = sanitize(prefix)?;
        let mut break_follows = true;
        for probe in PROBES {
            let future = sanitize(&[prefix, probe].concat())?;
            let Some(after) = future.strip_prefix(cleaned.as_slice()) else {
                return Ok(Vec::new());
            };
            break_follows &= after.first().is_none_or(|&b| b == b'\n');
        }
        let mut new = self.take_new(cleaned);
        if break_follows && !self.printed.is_empty() && !self.owed_break {
            new.push(b'\n');
            self.owed_break = true;
        }
        Ok(new)
    }

    /// The rest of the cleaned text and the newline that ends it, once the input has ended.
    pub fn finish(mut self) -> Result<Vec<u8>, String> {
        let cleaned = sanitize(&self.input)?;
        let mut new = self.take_new(cleaned);
        if !self.printed.is_empty() && !self.owed_break {
            new.push(b'\n');
        }
        Ok(new)
    }

    /// What `cleaned` adds to what was printed, less a line break returned ahead of it.
    fn take_new(&mut self, cleaned: Vec<u8>) -> Vec<u8> {
        let Some(new) = cleaned.strip_prefix(self.printed.as_slice()) else {
            // Cannot happen (see the type's comment); were it to, nothing is printed twice.
            return Vec::new();
        };
        let mut new = new.to_vec();
        if self.owed_break && !new.is_empty() {
            // What follows a final paragraph starts with a break (see the type's comment),
            // returned already.
            if new.first() == Some(&b'\n') {
                new.remove(0);
            }
            self.owed_break = false;
        }
        self.printed = cleaned;
        new
    }
}

fn strip_downgraded(text: &[u8]) -> Vec<u8> {
    let mut kept: Vec<&[u8]> = Vec::new();
    let mut skipping = false;
    for line in text.split(|&b| b == b'\n') {
        let t = trim_go(line);
        if DOWNGRADED_MARKERS.iter().any(|m| t.starts_with(m)) {
            skipping = true;
            continue;
        }
        if skipping {
            if t.is_empty()
                || t.starts_with(b"Arguments:")
                || t.starts_with(b"{")
                || t.starts_with(b"}")
            {
                continue;
            }
            skipping = false;
        }
        kept.push(line);
    }
    trim_go(&kept.join(&b'\n')).to_vec()
}

fn strip_system_messages(text: &[u8]) -> Vec<u8> {
    let mut kept: Vec<&[u8]> = Vec::new();
    let mut skipping = false;
    for line in text.split(|&b| b == b'\n') {
        let t = trim_go(line);
        if t.starts_with(SYSTEM_MESSAGE) {
            skipping = true;
            continue;
        }
        if skipping {
            if t.is_empty() {
                skipping = false;
            }
            continue;
        }
        kept.push(line);
    }
    trim_go(&kept.join(&b'\n')).to_vec()
}

fn collapse_duplicate_blocks(text: &[u8]) -> Vec<u8> {
    let blocks = split_on(text, b"\n\n");
    if blocks.len() <= 1 {
        return text.to_vec();
    }
    let mut kept: Vec<&[u8]> = Vec::new();
    for block in blocks {
        let t = trim_go(block);
        if t.is_empty() {
            continue;
        }
        if kept.last().is_some_and(|prev| trim_go(prev) == t) {
            continue;
        }
        kept.push(block);
    }
    kept.join(&b"\n\n"[..])
}

/// Go's `strings.Split` on a non-empty separator.
fn split_on<'a>(text: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut last = 0;
    for at in memchr::memmem::find_iter(text, sep) {
        if at < last {
            continue;
        }
        parts.push(&text[last..at]);
        last = at + sep.len();
    }
    parts.push(&text[last..]);
    parts
}

/// Go's `strings.ToLower`, as far as ASCII markers can tell: ASCII letters lowered, and the two
/// characters whose lower case is ASCII (U+0130 → `i`, the Kelvin sign U+212A → `k`) mapped.
fn go_lower(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i..].starts_with("\u{130}".as_bytes()) {
            out.push(b'i');
            i += 2;
        } else if text[i..].starts_with("\u{212a}".as_bytes()) {
            out.push(b'k');
            i += 3;
        } else {
            out.push(text[i].to_ascii_lowercase());
            i += 1;
        }
    }
    out
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(hay, needle).is_some()
}

fn contains_any(hay: &[u8], needles: &[&[u8]]) -> bool {
    needles.iter().any(|n| contains(hay, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(s: &str) -> String {
        String::from_utf8(sanitize(s.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn empty_and_plain() {
        assert_eq!(clean(""), "");
        assert_eq!(clean("  Hello there.  \n"), "Hello there.");
    }

    /// The cleaned text of `text` fed to a [`Stream`] in `cuts` pieces, `ready` after each.
    fn streamed(text: &[u8], cuts: &[usize]) -> Vec<u8> {
        let mut s = Stream::default();
        let mut out = Vec::new();
        let mut from = 0;
        for &cut in cuts.iter().chain(&[text.len()]) {
            s.push(&text[from..cut]);
            out.extend(s.ready().unwrap());
            from = cut;
        }
        out.extend(s.finish().unwrap());
        out
    }

    /// What `goclaw sanitize` prints for `text`: the cleaned text and a newline.
    fn printed(text: &[u8]) -> Vec<u8> {
        let mut whole = sanitize(text).unwrap();
        if !whole.is_empty() {
            whole.push(b'\n');
        }
        whole
    }

    #[test]
    fn a_stream_prints_what_the_whole_would_however_it_arrives() {
        let texts: [&str; 19] = [
            "Hello.\n\nSecond para.\n\nThird.",
            "Here it is.\n\n[[audio_as_voice]]\n\nMEDIA:/tmp/a.ogg\n",
            "Answer <\n\nfinal>rest",
            "A <final\n\n>B\n\nSee </\n\nfinal> C",
            "See <\n\n final> MEDIA:/x",
            "A.\n\n[Tool Call: x]\n\n{\n\n}\n\nB.\n\nMEDIA:/x.png\n\n",
            "A.\n\n[System Message] x\ny\n\n[System Message] z\n\nB",
            "A.\n\n<tool_call>\n\n</tool_call>\n\nB\n\nA.\n\n",
            "A.\n\nMEDIA:/x\nB\n\n[[audio_as_voice]]\n\n  \n\nC",
            "NO_REPLY\n\nA.\n\n<final>\n\n</final>",
            "<think>plan\n\nmore plan</think>Answer one.\n\nAnswer two.\n",
            "First <invoke name=\"x\">\n\nthen a marker <tool_call>y</tool_call>\n\nend",
            "Dup.\n\nDup.\n\nDup.\n\nOther.\n\nDup.",
            "\n\n  \n\nLeading blanks.\n\n[System Message] echoed\nstill\n\nkept\n\n",
            "[Tool Call: x]\n\nArguments: {}\n\n{\n}\n\nafter\n\nMEDIA:/tmp/a.png\n\nlast",
            "<final>done</final>\n\n< final >again\n\nfinal words",
            "a < b and <b>bold</b>\n\n<thought>x</thought>\n\n<THINK>open\n\nstill open",
            "NO_REPLY\n\n",
            "x\n\n\n\n\ny\n\n\nz",
        ];
        for text in texts {
            let t = text.as_bytes();
            let whole = printed(t);
            for a in 0..=t.len() {
                assert_eq!(streamed(t, &[a]), whole, "{text:?} cut at {a}");
                for b in (a..=t.len()).step_by(3) {
                    assert_eq!(streamed(t, &[a, b]), whole, "{text:?} cut at {a}, {b}");
                }
            }
        }
    }

    /// Replies made of the pieces every step reacts to, in a deterministic pseudo-random mix,
    /// each fed in random cuts: the stream prints what the whole would.
    #[test]
    fn a_stream_of_random_replies_prints_what_the_whole_would() {
        const PIECES: [&str; 24] = [
            "text",
            "Dup.",
            "\n",
            "\n\n",
            " ",
            "<",
            "</",
            "final",
            ">",
            "<final>",
            "<think>",
            "</think>",
            "<tool_call>",
            "</tool_call>",
            "[Tool Call: x]",
            "Arguments: {}",
            "[System Message] s",
            "MEDIA:/a.png",
            "[[audio_as_voice]]",
            "NO_REPLY",
            "\r\n",
            "<invoke name=\"x\">",
            "{",
            "}",
        ];
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..400 {
            let text: String = (0..next(14) + 1)
                .map(|_| PIECES[next(PIECES.len())])
                .collect();
            let t = text.as_bytes();
            let cuts: Vec<usize> = {
                let mut c: Vec<usize> = (0..next(4)).map(|_| next(t.len() + 1)).collect();
                c.sort_unstable();
                c
            };
            assert_eq!(streamed(t, &cuts), printed(t), "{text:?} cut at {cuts:?}");
        }
    }

    #[test]
    fn a_stream_prints_each_paragraph_once_it_is_final() {
        let mut s = Stream::default();
        s.push(b"<think>plan</think>First.\n\n");
        // With its line's end: a reader of lines has it now.
        assert_eq!(s.ready().unwrap(), b"First.\n");
        s.push(b"<think>still ");
        assert_eq!(s.ready().unwrap(), b"");
        s.push(b"thinking\n\n");
        assert_eq!(s.ready().unwrap(), b"", "an open thinking block waits");
        s.push(b"done</think>Second.\n\n");
        assert_eq!(s.ready().unwrap(), b"\nSecond.\n");
        s.push(b"Third");
        assert_eq!(s.finish().unwrap(), b"\nThird\n");
    }

    #[test]
    fn step1_garbled_tool_xml_keeps_inner_text() {
        assert_eq!(
            clean("Sure <tool_call name=\"x\">inner</tool_call> done"),
            "Sure inner done"
        );
        assert_eq!(
            clean("<function_calls><invoke name=\"a\"></invoke></function_calls>"),
            ""
        );
        // The gate is case-insensitive, the deletion is not.
        assert_eq!(clean("  <TOOL_CALL>x  "), "<TOOL_CALL>x");
    }

    #[test]
    fn step2_downgraded_tool_text() {
        let text = "Before\n[Tool Call: read_file]\nArguments:\n{\n\"path\": \"a\"\n}\nAfter\nEnd";
        assert_eq!(clean(text), "Before\n\"path\": \"a\"\n}\nAfter\nEnd");
        let text = "Before\n[Tool Result: ok]\n\n{ }\nAfter";
        assert_eq!(clean(text), "Before\nAfter");
    }

    #[test]
    fn step3_thinking() {
        assert_eq!(clean("<think>hmm\nyes</think>Answer"), "Answer");
        assert_eq!(clean("<THINKING>x</THINKING> A"), "A");
        assert_eq!(clean("<antThinking>x</antThinking>B"), "B");
        // Tags with attributes stay, as in the original.
        assert_eq!(
            clean("<think lang=\"x\">a</think>B"),
            "<think lang=\"x\">a</think>B"
        );
    }

    #[test]
    fn step4_final_tags() {
        assert_eq!(clean("<final>Answer</ final >"), "Answer");
        assert_eq!(clean("< FINAL >x"), "x");
    }

    #[test]
    fn step5_system_messages() {
        let text = "Hi\n[System Message] ignore\nstill system\n\nReal";
        assert_eq!(clean(text), "Hi\nReal");
    }

    #[test]
    fn step6_duplicate_blocks() {
        assert_eq!(
            clean("Para A\n\nPara A\n\n  \n\nPara B\n\nPara A"),
            "Para A\n\nPara B\n\nPara A"
        );
    }

    #[test]
    fn step7_media() {
        let text = "See\nMEDIA:/tmp/a.png\n[[audio_as_voice]]\nDone MEDIA:x";
        assert_eq!(clean(text), "See");
        assert_eq!(clean("MEDIA: spaced"), "MEDIA: spaced");
    }

    #[test]
    fn step8_leading_blank_lines() {
        // Step 8 removes blank lines at the very start; the final trim would too.
        assert_eq!(clean(" \t\n\r\nText"), "Text");
    }

    #[test]
    fn invalid_utf8_survives() {
        assert_eq!(sanitize(b"<think>\xff</think>ok \xfe").unwrap(), b"ok \xfe");
    }

    #[test]
    fn silent_reply() {
        assert!(is_silent(b"NO_REPLY"));
        assert!(is_silent(b"  NO_REPLY\n"));
        assert!(is_silent(b"NO_REPLY - nothing to add"));
        assert!(is_silent(b"Nothing to add. NO_REPLY"));
        assert!(!is_silent(b"NO_REPLYING"));
        assert!(!is_silent(b"XNO_REPLY"));
        assert!(!is_silent(b"no_reply"));
        assert!(!is_silent(b""));
        assert!(!is_silent(b"say NO_REPLY now"));
    }
}
