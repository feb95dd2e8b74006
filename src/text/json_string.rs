//! JSON string literals, written fast: a long session's request carries megabytes of message
//! text every iteration, and `serde_json` escapes it one byte at a time. [`push`] looks at 8
//! bytes at a time and copies clean runs whole. Its output is byte-identical to `serde_json`'s
//! (the same short escapes, `\u00XX` for the other control characters, nothing else escaped).

/// Appends `s` to `out` as a JSON string literal, quotes included.
pub fn push(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Clean runs go 32 bytes, then 8 bytes, at a time.
        if let Some(block) = bytes.get(i..i + 32)
            && !block.chunks_exact(8).any(|w| needs_escape(word(w)))
        {
            i += 32;
            continue;
        }
        if let Some(w) = bytes.get(i..i + 8)
            && !needs_escape(word(w))
        {
            i += 8;
            continue;
        }
        let b = bytes[i];
        if let Some(escape) = escape_of(b) {
            out.extend_from_slice(&bytes[start..i]);
            match escape {
                Escape::Short(c) => out.extend_from_slice(&[b'\\', c]),
                Escape::Unicode => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    out.extend_from_slice(b"\\u00");
                    out.push(HEX[usize::from(b >> 4)]);
                    out.push(HEX[usize::from(b & 0xf)]);
                }
            }
            start = i + 1;
        }
        i += 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// The 8 bytes of `w` (exactly 8) as one word.
fn word(w: &[u8]) -> u64 {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(w);
    u64::from_le_bytes(bytes)
}

enum Escape {
    Short(u8),
    Unicode,
}

fn escape_of(b: u8) -> Option<Escape> {
    Some(match b {
        b'"' => Escape::Short(b'"'),
        b'\\' => Escape::Short(b'\\'),
        0x08 => Escape::Short(b'b'),
        0x0c => Escape::Short(b'f'),
        b'\n' => Escape::Short(b'n'),
        b'\r' => Escape::Short(b'r'),
        b'\t' => Escape::Short(b't'),
        0..0x20 => Escape::Unicode,
        _ => return None,
    })
}

/// Whether any of the 8 bytes in `w` is a control character, `"` or `\`: the classic
/// "has a byte less than n" (n ≤ 128) and "has a zero byte" word tests, exact as a whole.
fn needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    (below_space | has_zero(w ^ (ONES * u64::from(b'"'))) | has_zero(w ^ (ONES * u64::from(b'\\'))))
        != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(s: &str) -> String {
        let mut out = Vec::new();
        push(&mut out, s);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn identical_to_serde_json() {
        let mut cases: Vec<String> = vec![
            String::new(),
            "plain text of some length, more than eight bytes".into(),
            "quote \" backslash \\ newline \n tab \t cr \r".into(),
            "\u{0}\u{1}\u{7}\u{8}\u{b}\u{c}\u{1f}\u{7f} end".into(),
            "ünïcödé → 漢字 😀 and \"quotes\" inside".into(),
            "12345678\"2345678\\2345678\n".into(),
        ];
        // Every byte value below 0x80 at every position of a 17-byte string.
        for b in 0u8..0x80 {
            for pos in 0..17 {
                let mut s = vec![b'a'; 17];
                s[pos] = b;
                cases.push(String::from_utf8(s).unwrap_or_default());
            }
        }
        for s in cases {
            let expected = serde_json::to_string(&s).unwrap_or_default();
            assert_eq!(ours(&s), expected, "{s:?}");
        }
    }

    #[test]
    fn the_word_test_is_exact() {
        for b in 0u8..=255 {
            for pos in 0..8 {
                let mut w = [b'a'; 8];
                w[pos] = b;
                let expected = b < 0x20 || b == b'"' || b == b'\\';
                assert_eq!(
                    needs_escape(u64::from_le_bytes(w)),
                    expected,
                    "{b:#x} at {pos}"
                );
            }
        }
    }
}
