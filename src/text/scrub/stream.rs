//! [`ScrubStream`]: input fed in pieces, held back only since the last safe cut, each chunk
//! handed to the [`Scrubber`] whole; and the forced cut that keeps memory bounded when no safe
//! cut comes.

use super::engine::Scrubber;
use super::{DEFAULT_CHUNK, MAX_PENDING, Report};
use crate::text::is_go_space;

/// Streams input through a [`Scrubber`]: feed bytes with [`ScrubStream::push`], end with
/// [`ScrubStream::finish`]; the output equals [`Scrubber::scrub`] of the whole input, except
/// that a stretch of more than [`MAX_PENDING`] bytes with no safe cut (a 16 MiB token) is cut
/// anyway, so memory stays bounded; a pattern that would have matched across that forced cut
/// is then matched on each side of it (a 40 MB hex run becomes several `[REDACTED]`). Time is
/// linear in the input: no scan goes back over text already judged.
#[derive(Debug)]
pub struct ScrubStream<'s> {
    scrubber: &'s Scrubber,
    pending: Vec<u8>,
    line_base: u64,
    report: Option<Report>,
    chunk: usize,
    lower: Vec<u8>,
    /// `pending[..searched]` holds no safe cut (searched before; appending cannot add one).
    searched: usize,
}

impl<'s> ScrubStream<'s> {
    /// A stream through `scrubber` (see [`Scrubber::stream`]).
    pub(super) fn new(scrubber: &'s Scrubber, with_report: bool) -> Self {
        ScrubStream {
            scrubber,
            pending: Vec::new(),
            line_base: 1,
            report: with_report.then(Report::default),
            chunk: DEFAULT_CHUNK,
            lower: Vec::new(),
            searched: 0,
        }
    }

    /// Sets how many bytes are gathered before a cut is looked for (tests use tiny chunks).
    pub fn with_chunk_size(mut self, bytes: usize) -> Self {
        self.chunk = bytes.max(1);
        self
    }

    /// Adds input; appends to `out` whatever is final.
    pub fn push(&mut self, data: &[u8], out: &mut Vec<u8>) {
        self.pending.extend_from_slice(data);
        if self.pending.len() < self.chunk {
            return;
        }
        if !self.flush_to_last_cut(out) {
            self.force_if_too_long(out);
        }
    }

    /// The input paused (nothing more to read for now, as under `tail -f`): appends to `out`
    /// everything up to the last safe cut, however little has gathered, so the output keeps up
    /// with live input. The output stays what scrubbing the whole input at once gives.
    pub fn flush_ready(&mut self, out: &mut Vec<u8>) {
        if !self.pending.is_empty() {
            self.flush_to_last_cut(out);
        }
    }

    /// Flushes up to the last safe cut; `false` when there is none.
    fn flush_to_last_cut(&mut self, out: &mut Vec<u8>) -> bool {
        // No white space since the last search: no new cut, and no new scan of old text.
        let fresh = &self.pending[self.searched..];
        if !fresh.iter().any(|&b| is_go_space(b)) {
            self.searched = self.pending.len();
            return false;
        }
        let cut = self
            .scrubber
            .cut_since(&self.pending, self.pending.len(), 0, self.searched);
        if cut == 0 {
            self.searched = self.pending.len();
            return false;
        }
        self.flush(cut, out);
        true
    }

    /// Memory stays bounded: past [`MAX_PENDING`] bytes without a safe cut (a huge token, a
    /// minified document), the stream is cut anyway, after the last byte that no credential
    /// pattern continues over (`,;{}[]()<>"'|` or a control byte) near the end, or at the end.
    fn force_if_too_long(&mut self, out: &mut Vec<u8>) {
        let n = self.pending.len();
        if n < MAX_PENDING {
            return;
        }
        let look = &self.pending[n.saturating_sub(64 * 1024)..];
        let back = look
            .iter()
            .rposition(|&b| b",;{}[]()<>\"'|".contains(&b) || b < 0x20)
            .map_or(0, |p| look.len() - p - 1);
        self.flush(n - back, out);
    }

    /// Ends the input; appends the rest of the output.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        let n = self.pending.len();
        self.flush(n, out);
    }

    /// Bytes held back, waiting for a safe cut.
    pub fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// The report so far (empty unless the stream was made with a report).
    pub fn take_report(&mut self) -> Report {
        self.report.take().unwrap_or_default()
    }

    fn flush(&mut self, cut: usize, out: &mut Vec<u8>) {
        let chunk = &self.pending[..cut];
        self.scrubber.scrub_chunk(
            chunk,
            self.line_base,
            self.report.as_mut(),
            &mut self.lower,
            out,
        );
        if self.report.is_some() {
            self.line_base += memchr::memchr_iter(b'\n', chunk).count() as u64;
        }
        self.pending.drain(..cut);
        self.searched = 0;
    }
}
