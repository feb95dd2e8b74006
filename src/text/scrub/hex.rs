//! Runs of 64 or more hex digits (pattern 14, a hex secret), found without its regex: each
//! 64-byte block of the text becomes a mask of its hex digits (SSE2 on x86_64, sixteen bytes an
//! instruction), and a run is measured across blocks from the masks alone. A chunk's pass also
//! lowers its ASCII letters for the literal probe ([`lower_and_find_runs`]): one read of the
//! chunk for both.

/// Adds the span of every run of 64 or more hex digits in `text`.
pub(super) fn hex_runs(text: &[u8], spans: &mut Vec<(usize, usize)>) {
    find_runs(text, spans, |_, block| hex_mask(block));
}

/// [`hex_runs`] of `chunk`, which also writes `chunk` with its ASCII letters lowered to
/// `lower[..chunk.len()]` (`lower` grows to fit, and is never shrunk or cleared).
pub(super) fn lower_and_find_runs(
    chunk: &[u8],
    lower: &mut Vec<u8>,
    spans: &mut Vec<(usize, usize)>,
) {
    if lower.len() < chunk.len() {
        lower.resize(chunk.len(), 0);
    }
    let lower = &mut lower[..chunk.len()];
    find_runs(chunk, spans, |at, block| {
        match <&mut [u8; 64]>::try_from(&mut lower[at..at + 64]) {
            Ok(out) => lower_block(block, out),
            Err(_) => 0,
        }
    });
    let tail = chunk.len() - chunk.len() % 64;
    for (out, b) in lower[tail..].iter_mut().zip(&chunk[tail..]) {
        *out = b.to_ascii_lowercase();
    }
}

/// Adds the runs of 64 or more hex digits in `text`, measured block by block from the mask
/// `mask_of` gives of each whole 64-byte block (told where it begins), then byte by byte in
/// the tail.
fn find_runs(
    text: &[u8],
    spans: &mut Vec<(usize, usize)>,
    mut mask_of: impl FnMut(usize, &[u8; 64]) -> u64,
) {
    // `run`: the hex digits that end at `at`.
    let mut run = 0;
    let mut at = 0;
    let mut blocks = text.chunks_exact(64);
    for block in &mut blocks {
        let mask = block.try_into().map_or(0, |block| mask_of(at, block));
        if mask == u64::MAX {
            run += 64;
        } else {
            // A block with a byte that is no digit holds no run of 64 of its own: a run is
            // the one that reaches into it, and the one it ends with carries on.
            let into = mask.trailing_ones() as usize;
            if run + into >= 64 {
                spans.push((at - run, at + into));
            }
            run = mask.leading_ones() as usize;
        }
        at += 64;
    }
    // A space after the text ends the last run.
    for &b in blocks.remainder().iter().chain([&b' ']) {
        if b.is_ascii_hexdigit() {
            run += 1;
        } else {
            if run >= 64 {
                spans.push((at - run, at));
            }
            run = 0;
        }
        at += 1;
    }
}

/// Whether `text` holds a run of 64 or more hex digits.
pub(super) fn has_hex_run(text: &[u8]) -> bool {
    let mut spans = Vec::new();
    hex_runs(text, &mut spans);
    !spans.is_empty()
}

/// Bit `i` is set when `block[i]` is a hex digit.
fn hex_mask(block: &[u8; 64]) -> u64 {
    lower_block(block, &mut [0; 64])
}

/// Writes `block` with its ASCII letters lowered to `out`; returns the mask of its hex digits
/// (bit `i` for `block[i]`).
#[cfg(target_arch = "x86_64")]
fn lower_block(block: &[u8; 64], out: &mut [u8; 64]) -> u64 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_and_si128, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8, _mm_storeu_si128,
    };
    let mut mask = 0;
    for (k, (lane, out)) in block
        .chunks_exact(16)
        .zip(out.chunks_exact_mut(16))
        .enumerate()
    {
        // SAFETY: SSE2 is part of x86_64's baseline; the load reads the 16 bytes of `lane`, the
        // store writes the 16 bytes of `out`.
        let bits = unsafe {
            let v = _mm_loadu_si128(lane.as_ptr().cast::<__m128i>());
            // A byte is one of the `n` bytes from `lo` when `b + (0x80 - lo)`, read as a
            // signed byte, is below `-128 + n`. Hex letters are judged lowered ('0'..='9' have
            // the case bit already).
            let upper = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x3f)), _mm_set1_epi8(-102));
            let lower = _mm_or_si128(v, _mm_and_si128(upper, _mm_set1_epi8(0x20)));
            _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), lower);
            let digit = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x50)), _mm_set1_epi8(-118));
            let letter = _mm_cmplt_epi8(
                _mm_add_epi8(lower, _mm_set1_epi8(0x1f)),
                _mm_set1_epi8(-122),
            );
            _mm_movemask_epi8(_mm_or_si128(digit, letter)) as u16
        };
        mask |= u64::from(bits) << (16 * k);
    }
    mask
}

#[cfg(not(target_arch = "x86_64"))]
fn lower_block(block: &[u8; 64], out: &mut [u8; 64]) -> u64 {
    for (o, b) in out.iter_mut().zip(block) {
        *o = b.to_ascii_lowercase();
    }
    hex_mask_bytewise(block)
}

/// [`hex_mask`] a byte at a time: elsewhere than x86_64, and what tests check it against.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn hex_mask_bytewise(block: &[u8; 64]) -> u64 {
    block
        .iter()
        .enumerate()
        .fold(0, |m, (i, b)| m | (u64::from(b.is_ascii_hexdigit()) << i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mask_says_which_bytes_are_hex_digits_for_every_byte() {
        for first in (0..=255u8).step_by(64) {
            let block: [u8; 64] = std::array::from_fn(|i| first.wrapping_add(i as u8));
            assert_eq!(
                hex_mask(&block),
                hex_mask_bytewise(&block),
                "bytes from {first}"
            );
        }
    }

    #[test]
    fn runs_are_measured_across_blocks() {
        // Deterministic mixtures of hex digits with an occasional other byte, at every length
        // and offset a block boundary can split.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for trial in 0..3000usize {
            let len = trial % 400;
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    if x.is_multiple_of(90) {
                        b"g \xff/"[(x >> 9) as usize % 4]
                    } else {
                        b"0123456789abcdefABCDEF"[(x >> 8) as usize % 22]
                    }
                })
                .collect();
            let mut spans = Vec::new();
            hex_runs(&text, &mut spans);
            assert_eq!(spans, runs_bytewise(&text), "trial {trial}");
        }
    }

    #[test]
    fn the_chunk_pass_lowers_every_byte_and_finds_the_same_runs() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut lower = Vec::new();
        for len in (0..700).step_by(7) {
            let text: Vec<u8> = (0..len)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Every byte value, and long stretches of hex digits.
                    if (i / 90) % 2 == 0 {
                        (x >> 11) as u8
                    } else {
                        b"0123456789abcdefABCDEF"[(x >> 8) as usize % 22]
                    }
                })
                .collect();
            let mut spans = Vec::new();
            lower_and_find_runs(&text, &mut lower, &mut spans);
            assert_eq!(&lower[..len], &text.to_ascii_lowercase()[..], "len {len}");
            assert_eq!(spans, runs_bytewise(&text), "len {len}");
        }
    }

    fn runs_bytewise(text: &[u8]) -> Vec<(usize, usize)> {
        let mut spans = Vec::new();
        let mut start = None;
        for (i, b) in text.iter().chain(std::iter::once(&b' ')).enumerate() {
            match (b.is_ascii_hexdigit(), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    if i - s >= 64 {
                        spans.push((s, i));
                    }
                    start = None;
                }
                _ => {}
            }
        }
        spans
    }
}
