//! Go's view of the text: a *piece map* of the input (runs of valid UTF-8, single invalid bytes
//! that Go reads as U+FFFD, inserted placeholders), rendered either as Go's regexp sees it or as
//! the bytes it stands for, with rendered offsets mapped back to input positions and matches
//! replaced by a placeholder.

const REPLACEMENT_CHAR: &[u8] = "\u{FFFD}".as_bytes();

/// A piece of the text a stage sees.
#[derive(Debug, Clone, Copy)]
pub(super) enum Piece {
    /// Input bytes `start..end`, valid UTF-8.
    Original { start: usize, end: usize },
    /// One input byte that is not valid UTF-8; Go reads it as U+FFFD.
    Invalid { at: usize },
    /// `text[from..to]` put in place of the input starting at `at`.
    Inserted {
        text: &'static [u8],
        from: usize,
        to: usize,
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
    fn len(self, view: View) -> usize {
        match self {
            Piece::Original { start, end } => end - start,
            Piece::Invalid { .. } if view == View::Runes => REPLACEMENT_CHAR.len(),
            Piece::Invalid { .. } => 1,
            Piece::Inserted { from, to, .. } => to - from,
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
            // A match never splits U+FFFD (matches fall on character boundaries); should one
            // ever do so, the byte is kept once rather than lost or doubled.
            Piece::Invalid { .. } if lo == 0 => self,
            Piece::Invalid { .. } => return None,
            Piece::Inserted { text, from, at, .. } => Piece::Inserted {
                text,
                from: from + lo,
                to: from + hi,
                at,
            },
        })
    }

    /// Input position of offset `off` of this piece.
    fn origin(self, off: usize) -> usize {
        match self {
            Piece::Original { start, .. } => start + off,
            Piece::Invalid { at } | Piece::Inserted { at, .. } => at,
        }
    }
}

/// Splits input into valid UTF-8 runs and single invalid bytes, as Go decodes a string.
pub(super) fn decode_go(input: &[u8]) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut i = 0;
    while i < input.len() {
        match std::str::from_utf8(&input[i..]) {
            Ok(_) => {
                pieces.push(Piece::Original {
                    start: i,
                    end: input.len(),
                });
                break;
            }
            Err(e) => {
                let valid = e.valid_up_to();
                if valid > 0 {
                    pieces.push(Piece::Original {
                        start: i,
                        end: i + valid,
                    });
                }
                let bad = e.error_len().unwrap_or(input.len() - i - valid);
                for k in 0..bad {
                    pieces.push(Piece::Invalid { at: i + valid + k });
                }
                i += valid + bad;
            }
        }
    }
    pieces
}

/// Appends the rendering of `pieces` to `out`.
pub(super) fn render(pieces: &[Piece], input: &[u8], view: View, out: &mut Vec<u8>) {
    for &p in pieces {
        match p {
            Piece::Original { start, end } => out.extend_from_slice(&input[start..end]),
            Piece::Invalid { .. } if view == View::Runes => out.extend_from_slice(REPLACEMENT_CHAR),
            Piece::Invalid { at } => out.push(input[at]),
            Piece::Inserted { text, from, to, .. } => out.extend_from_slice(&text[from..to]),
        }
    }
}

/// Rendered start offset of every piece, plus the total length at the end.
fn offsets(pieces: &[Piece], view: View) -> Vec<usize> {
    let mut offs = Vec::with_capacity(pieces.len() + 1);
    let mut off = 0;
    for p in pieces {
        offs.push(off);
        off += p.len(view);
    }
    offs.push(off);
    offs
}

/// Index of the piece that holds rendered offset `pos` (`pos` < total).
fn piece_at(offs: &[usize], pos: usize) -> usize {
    offs.partition_point(|&o| o <= pos).saturating_sub(1)
}

/// Input position of rendered offset `pos`.
pub(super) fn origin(pieces: &[Piece], view: View, pos: usize) -> usize {
    let offs = offsets(pieces, view);
    if pieces.is_empty() {
        return 0;
    }
    let i = piece_at(&offs, pos).min(pieces.len() - 1);
    pieces[i].origin(pos.saturating_sub(offs[i]))
}

/// Replaces the rendered ranges `matches` (sorted, disjoint, non-empty) with `mark`.
pub(super) fn replace(
    pieces: &[Piece],
    view: View,
    matches: &[(usize, usize)],
    mark: &'static [u8],
) -> Vec<Piece> {
    let offs = offsets(pieces, view);
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
            text: mark,
            from: 0,
            to: mark.len(),
            at: pieces[i].origin(s - offs[i]),
        });
        cursor = e;
    }
    keep(cursor, total, &mut out);
    out
}
