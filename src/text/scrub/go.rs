//! Go's view of the text: a *piece map* of the input (stretches of input bytes and inserted
//! placeholders), rendered either as Go's regexp sees it or as the bytes it stands for, with
//! rendered offsets mapped back to input positions and matches replaced by a placeholder.
//!
//! Go reads each byte that is not valid UTF-8 as one U+FFFD. The regexp view writes
//! [`STAND_IN`] for it instead: one byte, one character, that every stage's pattern treats as it
//! treats U+FFFD (a test in `scrub::tests` checks each pattern's classes and literals). So both
//! views give a piece the same length and offsets are shared. Which bytes are invalid is found
//! again when a stretch is rendered, not kept: a stretch starts and ends on character
//! boundaries (a match never splits a character), so it decodes alone as it does in place, and
//! the map holds pieces for matches only, whatever the bytes (`a\xff` repeated made one piece
//! per byte).

use super::patterns::{REDACTED, SERVER_IP_MARK};

/// What the regexp view writes for each byte Go reads as U+FFFD: DEL, which like U+FFFD is
/// neither white space, a letter, a digit, nor in any stage's literals.
pub(super) const STAND_IN: u8 = 0x7f;

/// A placeholder put in place of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
    Redacted,
    ServerIp,
}

impl Mark {
    pub(super) fn text(self) -> &'static [u8] {
        match self {
            Mark::Redacted => REDACTED,
            Mark::ServerIp => SERVER_IP_MARK,
        }
    }
}

/// A piece of the text a stage sees: 24 bytes, so a region dense with matches stays small.
#[derive(Debug, Clone, Copy)]
pub(super) enum Piece {
    /// Input bytes `start..end`, valid UTF-8 or not.
    Original { start: usize, end: usize },
    /// `mark.text()[from..to]` put in place of the input starting at `at`.
    Inserted {
        mark: Mark,
        from: u8,
        to: u8,
        at: usize,
    },
}

/// How pieces are rendered: as Go's regexp sees them, or as the bytes they stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum View {
    Runes,
    Bytes,
}

impl Piece {
    /// Its length, the same in both views.
    fn len(self) -> usize {
        match self {
            Piece::Original { start, end } => end - start,
            Piece::Inserted { from, to, .. } => usize::from(to - from),
        }
    }

    /// The part of this piece between offsets `lo..hi` of its own rendering.
    fn slice(self, lo: usize, hi: usize) -> Option<Piece> {
        if lo >= hi {
            return None;
        }
        Some(match self {
            Piece::Original { start, .. } => Piece::Original {
                start: start + lo,
                end: start + hi,
            },
            // Offsets within a mark fit in a byte: a mark is at most 11 bytes.
            Piece::Inserted { mark, from, at, .. } => Piece::Inserted {
                mark,
                from: from + lo as u8,
                to: from + hi as u8,
                at,
            },
        })
    }

    /// Input position of offset `off` of this piece.
    fn origin(self, off: usize) -> usize {
        match self {
            Piece::Original { start, .. } => start + off,
            Piece::Inserted { at, .. } => at,
        }
    }
}

/// The piece map of an input no stage has changed: the input, whole.
pub(super) fn whole(input: &[u8]) -> Vec<Piece> {
    if input.is_empty() {
        return Vec::new();
    }
    vec![Piece::Original {
        start: 0,
        end: input.len(),
    }]
}

/// Calls `found(start, end)` for each maximal run of bytes that begin no valid UTF-8 sequence
/// (each of which Go reads as U+FFFD), in order. Long valid stretches are checked by the
/// standard library at its speed; around invalid bytes, characters are decoded one by one, so
/// text that is invalid every few bytes (binary data) costs no call per byte.
pub(super) fn invalid_runs(text: &[u8], mut found: impl FnMut(usize, usize)) {
    /// Valid characters decoded one by one before the standard library takes over again.
    const SETTLED: usize = 16;
    let mut i = 0;
    while i < text.len() {
        match std::str::from_utf8(&text[i..]) {
            Ok(_) => return,
            Err(e) => i += e.valid_up_to(),
        }
        let mut run: Option<usize> = None;
        let mut valid_in_a_row = 0;
        while i < text.len() && valid_in_a_row < SETTLED {
            match char_len(&text[i..]) {
                Some(n) => {
                    if let Some(start) = run.take() {
                        found(start, i);
                    }
                    i += n;
                    valid_in_a_row += 1;
                }
                None => {
                    run.get_or_insert(i);
                    i += 1;
                    valid_in_a_row = 0;
                }
            }
        }
        if let Some(start) = run {
            found(start, i);
        }
    }
}

/// The length of the valid UTF-8 sequence `bytes` begins with, if it begins one.
fn char_len(bytes: &[u8]) -> Option<usize> {
    let cont = |k: usize| bytes.get(k).is_some_and(|&b| b & 0xc0 == 0x80);
    let second_in = |lo: u8, hi: u8| bytes.get(1).is_some_and(|&b| (lo..=hi).contains(&b));
    let first = *bytes.first()?;
    let ok = match first {
        0x00..=0x7f => return Some(1),
        0xc2..=0xdf => return cont(1).then_some(2),
        0xe0 => second_in(0xa0, 0xbf) && cont(2),
        0xed => second_in(0x80, 0x9f) && cont(2),
        0xe1..=0xef => cont(1) && cont(2),
        0xf0 => second_in(0x90, 0xbf) && cont(2) && cont(3),
        0xf4 => second_in(0x80, 0x8f) && cont(2) && cont(3),
        0xf1..=0xf3 => cont(1) && cont(2) && cont(3),
        _ => false,
    };
    ok.then_some(if first >= 0xf0 { 4 } else { 3 })
}

/// Appends the rendering of `pieces` to `out`.
pub(super) fn render(pieces: &[Piece], input: &[u8], view: View, out: &mut Vec<u8>) {
    for &p in pieces {
        match p {
            Piece::Original { start, end } => {
                let bytes = &input[start..end];
                let at = out.len();
                out.extend_from_slice(bytes);
                if view == View::Runes && simdutf8::basic::from_utf8(bytes).is_err() {
                    invalid_runs(bytes, |from, to| out[at + from..at + to].fill(STAND_IN));
                }
            }
            Piece::Inserted { mark, from, to, .. } => {
                out.extend_from_slice(&mark.text()[usize::from(from)..usize::from(to)]);
            }
        }
    }
}

/// Rendered start offset of every piece, plus the total length at the end.
fn offsets(pieces: &[Piece]) -> Vec<usize> {
    let mut offs = Vec::with_capacity(pieces.len() + 1);
    let mut off = 0;
    for p in pieces {
        offs.push(off);
        off += p.len();
    }
    offs.push(off);
    offs
}

/// Index of the piece that holds rendered offset `pos` (`pos` < total).
fn piece_at(offs: &[usize], pos: usize) -> usize {
    offs.partition_point(|&o| o <= pos).saturating_sub(1)
}

/// The input position where each of `matches` (rendered ranges, sorted) starts, in order.
pub(super) fn match_origins(pieces: &[Piece], matches: &[(usize, usize)]) -> Vec<usize> {
    let offs = offsets(pieces);
    matches
        .iter()
        .map(|&(s, _)| {
            let i = piece_at(&offs, s);
            pieces.get(i).map_or(0, |p| p.origin(s - offs[i]))
        })
        .collect()
}

/// Replaces the rendered ranges `matches` (sorted, disjoint, non-empty) with `mark`.
pub(super) fn replace(pieces: &[Piece], matches: &[(usize, usize)], mark: Mark) -> Vec<Piece> {
    let offs = offsets(pieces);
    let total = offs[pieces.len()];
    let mut out = Vec::with_capacity(pieces.len() + 2 * matches.len());
    let keep = |from: usize, to: usize, out: &mut Vec<Piece>| {
        if from >= to {
            return;
        }
        let mut i = piece_at(&offs, from);
        while i < pieces.len() && offs[i] < to {
            let (ps, pe) = (offs[i], offs[i + 1]);
            let lo = from.max(ps) - ps;
            let hi = to.min(pe) - ps;
            if let Some(part) = pieces[i].slice(lo, hi) {
                out.push(part);
            }
            i += 1;
        }
    };
    let mut cursor = 0;
    for &(s, e) in matches {
        keep(cursor, s, &mut out);
        let i = piece_at(&offs, s);
        out.push(Piece::Inserted {
            mark,
            from: 0,
            to: mark.text().len() as u8,
            at: pieces[i].origin(s - offs[i]),
        });
        cursor = e;
    }
    keep(cursor, total, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_is_small() {
        assert!(std::mem::size_of::<Piece>() <= 24);
    }

    #[test]
    fn invalid_bytes_render_one_stand_in_each_and_cost_no_piece() {
        let input = b"ab\xff\xfe\xe2\x82cd\xff";
        let pieces = whole(input);
        assert_eq!(pieces.len(), 1, "{pieces:?}");
        let mut runes = Vec::new();
        render(&pieces, input, View::Runes, &mut runes);
        assert_eq!(runes, b"ab\x7f\x7f\x7f\x7fcd\x7f");
        let mut bytes = Vec::new();
        render(&pieces, input, View::Bytes, &mut bytes);
        assert_eq!(bytes, input);
        // A match over part of the run keeps the rest of it and maps back to its own byte.
        let replaced = replace(&pieces, &[(3, 7)], Mark::Redacted);
        let mut out = Vec::new();
        render(&replaced, input, View::Bytes, &mut out);
        assert_eq!(out, b"ab\xff[REDACTED]d\xff");
        runes.clear();
        render(&replaced, input, View::Runes, &mut runes);
        assert_eq!(runes, b"ab\x7f[REDACTED]d\x7f");
        assert_eq!(match_origins(&pieces, &[(3, 7), (8, 9)]), [3, 8]);
    }

    /// The runs equal Go's byte-by-byte decoding (the standard library's, one error at a time)
    /// on every short sequence of interesting bytes, and on long mixed stretches.
    #[test]
    fn invalid_runs_are_those_the_standard_library_finds() {
        fn reference(text: &[u8]) -> Vec<(usize, usize)> {
            let mut runs: Vec<(usize, usize)> = Vec::new();
            let mut i = 0;
            while i < text.len() {
                match std::str::from_utf8(&text[i..]) {
                    Ok(_) => break,
                    Err(e) => {
                        let at = i + e.valid_up_to();
                        let end = at + e.error_len().unwrap_or(text.len() - at);
                        match runs.last_mut() {
                            Some(last) if last.1 == at => last.1 = end,
                            _ => runs.push((at, end)),
                        }
                        i = end;
                    }
                }
            }
            runs
        }
        fn ours(text: &[u8]) -> Vec<(usize, usize)> {
            let mut runs = Vec::new();
            invalid_runs(text, |s, e| runs.push((s, e)));
            runs
        }
        let bytes = [
            0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0,
            0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
        ];
        for a in bytes {
            for b in bytes {
                for c in bytes {
                    for d in [0x80, 0xbf, 0x41, 0xff] {
                        let text = [a, b, c, d, a];
                        assert_eq!(ours(&text), reference(&text), "{text:x?}");
                    }
                }
            }
        }
        // Long stretches: pseudo-random bytes, mostly text with bursts of binary.
        let mut x: u32 = 1;
        let mut text = Vec::new();
        for k in 0..200_000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let byte = (x >> 16) as u8;
            text.push(if (k / 300) % 3 == 0 {
                byte
            } else {
                byte & 0x7f
            });
            if k % 1000 == 7 {
                text.extend_from_slice("é€😀".as_bytes());
            }
        }
        assert_eq!(ours(&text), reference(&text));
    }
}
