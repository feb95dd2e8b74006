//! [`ScrubStream`]: input fed in pieces, held back only since the last safe cut, each chunk
//! handed to the [`Scrubber`] whole; and the forced cut that keeps memory bounded when no safe
//! cut comes.

use super::engine::{Scratch, Scrubber};
use super::{DEFAULT_CHUNK, MAX_PENDING, Report, Sink};
use crate::text::is_go_space;

/// Streams input through a [`Scrubber`]: feed bytes with [`ScrubStream::push`], end with
/// [`ScrubStream::finish`]; the output equals [`Scrubber::scrub`] of the whole input, except
/// that a stretch of more than [`MAX_PENDING`] bytes with no safe cut (an 8 MiB token) is cut
/// anyway, so memory stays bounded; a pattern that would have matched across that forced cut
/// is then matched on each side of it (a 40 MB hex run becomes several `[REDACTED]`). Time is
/// linear in the input: no scan goes back over text already judged.
#[derive(Debug)]
pub struct ScrubStream<'s> {
    scrubber: &'s Scrubber,
    /// Input held back since the last safe cut: `pending[..filled]`; the rest is space the next
    /// read fills in place ([`ScrubStream::read_space`]: it doubles when too small).
    pending: Vec<u8>,
    filled: usize,
    line_base: u64,
    report: Option<Report>,
    chunk: usize,
    scratch: Scratch,
    /// `pending[..searched]` holds no safe cut (searched before; appending cannot add one).
    searched: usize,
}

impl<'s> ScrubStream<'s> {
    /// A stream through `scrubber` (see [`Scrubber::stream`]).
    pub(super) fn new(scrubber: &'s Scrubber, with_report: bool) -> Self {
        ScrubStream {
            scrubber,
            pending: Vec::new(),
            filled: 0,
            line_base: 1,
            report: with_report.then(Report::default),
            chunk: DEFAULT_CHUNK,
            scratch: Scratch::default(),
            searched: 0,
        }
    }

    /// Sets how many bytes are gathered before a cut is looked for (tests use tiny chunks).
    pub fn with_chunk_size(mut self, bytes: usize) -> Self {
        self.chunk = bytes.max(1);
        self
    }

    /// Adds input; appends to `out` whatever is final.
    pub fn push<S: Sink + ?Sized>(&mut self, data: &[u8], out: &mut S) {
        self.read_space(data.len()).copy_from_slice(data);
        self.pushed(data.len(), out);
    }

    /// Space for up to `len` bytes of input, where a read can put them without a copy; then
    /// [`ScrubStream::pushed`] says how many it put there.
    pub fn read_space(&mut self, len: usize) -> &mut [u8] {
        let end = self.filled + len;
        if self.pending.len() < end {
            // A new buffer comes zeroed from the allocator, its pages untouched until a read
            // fills them (`resize` would write every byte: `scrub </dev/null` paid 64 faults).
            let mut grown = vec![0; end.max(2 * self.pending.len())];
            grown[..self.filled].copy_from_slice(&self.pending[..self.filled]);
            self.pending = grown;
        }
        &mut self.pending[self.filled..end]
    }

    /// Adds the first `n` bytes of the last [`ScrubStream::read_space`] as input; appends to
    /// `out` whatever is final.
    pub fn pushed<S: Sink + ?Sized>(&mut self, n: usize, out: &mut S) {
        self.filled = (self.filled + n).min(self.pending.len());
        if self.filled < self.chunk {
            return;
        }
        if !self.flush_to_last_cut(out) {
            self.force_if_too_long(out);
        }
    }

    /// The input paused (nothing more to read for now, as under `tail -f`): appends to `out`
    /// everything up to the last safe cut, however little has gathered, so the output keeps up
    /// with live input. The output stays what scrubbing the whole input at once gives.
    pub fn flush_ready<S: Sink + ?Sized>(&mut self, out: &mut S) {
        if self.filled > 0 {
            self.flush_to_last_cut(out);
        }
    }

    /// Flushes up to the last safe cut; `false` when there is none.
    fn flush_to_last_cut<S: Sink + ?Sized>(&mut self, out: &mut S) -> bool {
        // No white space since the last search: no new cut, and no new scan of old text.
        let held = &self.pending[..self.filled];
        if !held[self.searched..].iter().any(|&b| is_go_space(b)) {
            self.searched = self.filled;
            return false;
        }
        let cut = self.scrubber.cut_since(held, held.len(), 0, self.searched);
        if cut == 0 {
            self.searched = self.filled;
            return false;
        }
        self.flush(cut, out);
        true
    }

    /// Memory stays bounded: past [`MAX_PENDING`] bytes without a safe cut (a huge token, a
    /// minified document), the stream is cut anyway, after the last byte that no credential
    /// pattern but `\S`'s continues over (`,;{}[]()<>"'|` or a control byte) near the end, or at
    /// the end.
    fn force_if_too_long<S: Sink + ?Sized>(&mut self, out: &mut S) {
        let n = self.filled;
        if n < MAX_PENDING {
            return;
        }
        let look = &self.pending[n.saturating_sub(64 * 1024)..n];
        let back = look
            .iter()
            .rposition(|&b| b",;{}[]()<>\"'|".contains(&b) || b < 0x20 || b == 0x7f)
            .map_or(0, |p| look.len() - p - 1);
        self.flush(n - back, out);
    }

    /// Ends the input; appends the rest of the output.
    pub fn finish<S: Sink + ?Sized>(&mut self, out: &mut S) {
        self.flush(self.filled, out);
    }

    /// Bytes held back, waiting for a safe cut.
    pub fn pending_len(&self) -> usize {
        self.filled
    }

    /// The report so far (empty unless the stream was made with a report).
    pub fn take_report(&mut self) -> Report {
        self.report.take().unwrap_or_default()
    }

    fn flush<S: Sink + ?Sized>(&mut self, cut: usize, out: &mut S) {
        let chunk = &self.pending[..cut];
        self.scrubber.scrub_chunk(
            chunk,
            self.line_base,
            self.report.as_mut(),
            &mut self.scratch,
            out,
        );
        if self.report.is_some() {
            self.line_base += memchr::memchr_iter(b'\n', chunk).count() as u64;
        }
        self.pending.copy_within(cut..self.filled, 0);
        self.filled -= cut;
        self.searched = 0;
    }
}
