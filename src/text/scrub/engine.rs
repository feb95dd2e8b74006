//! The [`Scrubber`]: the static stages plus the credential and dynamic values it was given. It
//! owns the sequential semantics over one region ([`Scrubber::scrub_region`]), the fast path over
//! a chunk cut at safe cuts (probes, then the slow path only around a possible match), the
//! search for safe cuts, and the byte-level probes (hex runs, invalid UTF-8) they rely on.

use aho_corasick::AhoCorasick;
use memchr::memmem;
use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};

use super::go::{Mark, View, match_origins, render, replace, whole};
use super::hex::{has_hex_run, hex_runs, lower_and_find_runs};
use super::patterns::{
    CREDENTIAL_VALUE, REDACTED, SERVER_IP, SERVER_IP_MARK, STAGE_LITERALS, STAGE_SEARCHES,
    STAGE_SEPARATORS, STAGES, STATIC_PATTERNS, StageSearch,
};
use super::probe::{LITERAL_PROBE, StageSet, holds_key_word, join_span, literal_stages};
use super::stream::ScrubStream;
use super::{MIN_VALUE_LEN, Report, Sink};
use crate::text::is_go_space;

/// Space a stream reuses from chunk to chunk: the chunk with its ASCII letters lowered (what the
/// literal probe searches), and a scrubbed region.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    lower: Vec<u8>,
    region: Vec<u8>,
}

/// What probes know of a region: a chunk's probes tell it of each region in the chunk.
#[derive(Debug, Clone, Copy)]
struct Known {
    /// The stages whose literals occur in it.
    found: StageSet,
    /// Whether it holds a run of 64 hex digits.
    hex_run: bool,
}

impl Known {
    /// Probes `region` on its own.
    fn of(region: &[u8]) -> Known {
        Known {
            found: literal_stages(region),
            hex_run: has_hex_run(region),
        }
    }
}

/// A scrubber: the static stages plus the credential and dynamic values it was given.
///
/// The stage regexes are constants, compiled on first use and checked by a unit test. Were
/// compiling ever to fail, the scrubber fails closed: a region that needed them is replaced
/// whole by `[REDACTED]`.
#[derive(Debug)]
pub struct Scrubber {
    pub(super) values: Vec<Vec<u8>>,
    pub(super) dynamic: Vec<Vec<u8>>,
    /// All values at once, only to find where one may occur.
    value_probe: Option<AhoCorasick>,
    /// White-space bytes that occur in no value: where a cut may go.
    cut_byte: [bool; 256],
}

impl Scrubber {
    /// Builds a scrubber. Credential values shorter than [`MIN_VALUE_LEN`] bytes and empty
    /// dynamic values are ignored; duplicates are dropped, first occurrence kept.
    pub fn new(values: &[Vec<u8>], dynamic: &[Vec<u8>]) -> Result<Scrubber, String> {
        let values = dedup(values.iter().filter(|v| v.len() >= MIN_VALUE_LEN));
        let dynamic = dedup(dynamic.iter().filter(|v| !v.is_empty()));
        let all: Vec<&Vec<u8>> = values.iter().chain(dynamic.iter()).collect();
        let value_probe = if all.is_empty() {
            None
        } else {
            Some(AhoCorasick::new(&all).map_err(|e| format!("credential values: {e}"))?)
        };
        let mut cut_byte = [false; 256];
        for b in [b'\t', b'\n', b'\x0c', b'\r', b' '] {
            cut_byte[b as usize] = !all.iter().any(|v| v.contains(&b));
        }
        Ok(Scrubber {
            values,
            dynamic,
            value_probe,
            cut_byte,
        })
    }

    /// This scrubber plus more credential values (e.g. the secrets an MCP server was given).
    pub fn with_more_values(&self, more: &[Vec<u8>]) -> Result<Scrubber, String> {
        // A value a tool was given also comes back as JSON writes it (quotes, backslashes and
        // newlines escaped) from a server or command that answers in JSON.
        let escaped = more.iter().filter_map(|v| {
            let text = std::str::from_utf8(v).ok()?;
            let json = serde_json::to_string(text).ok()?;
            let inner = json.get(1..json.len() - 1)?;
            (inner != text).then(|| inner.as_bytes().to_vec())
        });
        let values: Vec<Vec<u8>> = self
            .values
            .iter()
            .cloned()
            .chain(more.iter().cloned())
            .chain(escaped)
            .collect();
        Scrubber::new(&values, &self.dynamic)
    }

    /// Scrubs a whole input at once.
    pub fn scrub(&self, input: &[u8], report: Option<&mut Report>) -> Vec<u8> {
        let mut out = Vec::with_capacity(input.len());
        let mut stream = self.stream(report.is_some());
        stream.push(input, &mut out);
        stream.finish(&mut out);
        if let Some(r) = report {
            r.merge(&stream.take_report());
        }
        out
    }

    /// The sequential semantics written the obvious way: each stage's `replace_all` over the
    /// whole input, in order. Exact for valid UTF-8 input (it reads invalid bytes differently
    /// from Go) and slow; tests and the benchmark use it to check the fast path.
    pub fn scrub_naive(&self, input: &[u8]) -> Vec<u8> {
        let mut text = input.to_vec();
        let Ok(stages) = &*STAGES else {
            return REDACTED.to_vec();
        };
        for re in stages {
            let mut out = Vec::with_capacity(text.len());
            let mut last = 0;
            for m in re.find_iter(&text) {
                out.extend_from_slice(&text[last..m.start()]);
                out.extend_from_slice(REDACTED);
                last = m.end();
            }
            out.extend_from_slice(&text[last..]);
            text = out;
        }
        for (vals, mark) in [(&self.values, REDACTED), (&self.dynamic, SERVER_IP_MARK)] {
            for v in vals {
                let mut out = Vec::with_capacity(text.len());
                let mut last = 0;
                for s in memmem::find_iter(&text, v) {
                    let whole = mark != SERVER_IP_MARK || whole_address(&text, s, s + v.len());
                    if s < last || !whole {
                        continue;
                    }
                    out.extend_from_slice(&text[last..s]);
                    out.extend_from_slice(mark);
                    last = s + v.len();
                }
                out.extend_from_slice(&text[last..]);
                text = out;
            }
        }
        text
    }

    /// The static patterns in the `regex` crate's syntax (Go's `\s` made explicit), e.g. for
    /// running the same search with ripgrep.
    pub fn rust_patterns() -> Vec<String> {
        STATIC_PATTERNS
            .iter()
            .filter_map(|p| crate::text::translate_go(p.go).ok())
            .collect()
    }

    /// Scrubs a string (e.g. one JSON string value).
    pub fn scrub_str(&self, input: &str, report: Option<&mut Report>) -> String {
        let out = self.scrub(input.as_bytes(), report);
        // Replacements are ASCII and cut nothing but whole matches of valid UTF-8 text.
        String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
    }

    /// Scrubs every string in a JSON value, keys excepted (audit rows, events, stored messages).
    pub fn scrub_json(&self, v: &mut serde_json::Value) {
        use serde_json::Value;
        match v {
            Value::String(s) => *s = self.scrub_str(s, None),
            Value::Array(a) => a.iter_mut().for_each(|x| self.scrub_json(x)),
            Value::Object(o) => o.iter_mut().for_each(|(_, x)| self.scrub_json(x)),
            _ => {}
        }
    }

    /// A streaming scrubber; `with_report` makes it count what it finds.
    pub fn stream(&self, with_report: bool) -> ScrubStream<'_> {
        ScrubStream::new(self, with_report)
    }

    /// The reference semantics over one region: every stage in order, over a piece map.
    /// `line_base` is the input line the region starts on.
    pub fn scrub_region(
        &self,
        input: &[u8],
        line_base: u64,
        report: Option<&mut Report>,
        out: &mut Vec<u8>,
    ) {
        if !self.scrub_region_with(input, line_base, report, out, Known::of(input)) {
            out.extend_from_slice(input);
        }
    }

    /// [`Scrubber::scrub_region`], told what probes know of `input`. A stage whose literals are
    /// absent cannot match; once a stage has replaced something, the later stages' literals are
    /// looked for again in the text as it now is (a replacement can take one away, never add
    /// one). Writes to `out` only when the region changed (`true`): a region that did not is
    /// `input` as it is, which the caller passes on uncopied.
    fn scrub_region_with(
        &self,
        input: &[u8],
        line_base: u64,
        mut report: Option<&mut Report>,
        out: &mut Vec<u8>,
        known: Known,
    ) -> bool {
        // The last stage (hex secrets) has no literal: it may match where a long hex run is.
        let Known { mut found, hex_run } = known;
        // The stages are compiled only for a region one of them may match (~2 ms: a tool
        // call's audit record and result seldom need them).
        let stages: &[Regex] = if found == 0 && !hex_run {
            &[]
        } else if let Ok(stages) = &*STAGES {
            stages
        } else {
            out.extend_from_slice(REDACTED);
            return true;
        };
        // Nothing can match (binary data is a region for its invalid bytes): no piece map.
        if stages.is_empty() && self.values.is_empty() && self.dynamic.is_empty() {
            return false;
        }
        let mut pieces = whole(input);
        let valid_utf8 = simdutf8::basic::from_utf8(input).is_ok();
        let mut changed = false;
        // Only a region that changed, or is not valid UTF-8, is rendered.
        let mut view = Vec::new();
        let mut matches = Vec::new();
        let mut lines = LineCounter::new(input, line_base);

        // `found` was judged before the last replacement.
        let mut stale = false;
        for (stage, re) in stages.iter().enumerate() {
            let possible = if stage < STAGE_LITERALS.len() {
                found & (1 << stage) != 0
            } else {
                hex_run
            };
            if !possible {
                continue;
            }
            // Until a stage replaces something, valid UTF-8 is its own rendering.
            let text = if changed || !valid_utf8 {
                view.clear();
                render(&pieces, input, View::Runes, &mut view);
                &view[..]
            } else {
                input
            };
            if !still_possible(stage, text, &mut found, &mut stale) {
                continue;
            }
            stage_matches(stage, re, text, &mut matches);
            if matches.is_empty() {
                continue;
            }
            if let Some(r) = report.as_deref_mut() {
                for at in match_origins(&pieces, &matches) {
                    r.record(STATIC_PATTERNS[stage].name, lines.line_at(at));
                }
            }
            pieces = replace(&pieces, &matches, Mark::Redacted);
            changed = true;
            stale = true;
        }
        let value_stages = self
            .values
            .iter()
            .map(|v| (v, Mark::Redacted, CREDENTIAL_VALUE))
            .chain(self.dynamic.iter().map(|v| (v, Mark::ServerIp, SERVER_IP)));
        for (value, mark, name) in value_stages {
            // Unchanged pieces render as the input's own bytes.
            let text = if changed {
                view.clear();
                render(&pieces, input, View::Bytes, &mut view);
                &view[..]
            } else {
                input
            };
            value_matches(text, value, name == SERVER_IP, &mut matches);
            if matches.is_empty() {
                continue;
            }
            if let Some(r) = report.as_deref_mut() {
                for at in match_origins(&pieces, &matches) {
                    r.record(name, lines.line_at(at));
                }
            }
            pieces = replace(&pieces, &matches, mark);
            changed = true;
        }
        if changed {
            render(&pieces, input, View::Bytes, out);
        }
        changed
    }

    /// Scrubs a chunk that starts and ends at safe cuts: passes the clean stretches on as they
    /// are and runs [`Scrubber::scrub_region`] on the regions around anything that matches.
    pub(super) fn scrub_chunk<S: Sink + ?Sized>(
        &self,
        chunk: &[u8],
        mut line_base: u64,
        mut report: Option<&mut Report>,
        scratch: &mut Scratch,
        out: &mut S,
    ) {
        let Scratch { lower, region } = scratch;
        // The chunk with its ASCII letters lowered, and its hex runs, in one pass.
        let mut hex = Vec::new();
        lower_and_find_runs(chunk, lower, &mut hex);
        // Where a match may be: probe hits (most are not secrets), hex runs, credential values,
        // and bytes Go reads differently. Each is scrubbed as a region cut at safe cuts; a region
        // where no stage matches is copied as it is.
        let mut spans = Vec::new();
        let mut hits: Vec<(usize, StageSet)> = Vec::new();
        let hits_tell = literal_hits(&lower[..chunk.len()], &mut spans, &mut hits);
        release_if_large(lower);
        spans.extend_from_slice(&hex);
        if let Some(probe) = &self.value_probe {
            for m in probe.find_iter(chunk) {
                join_span(&mut spans, (m.start(), m.end()));
            }
        }
        invalid_utf8(chunk, &mut spans);
        if spans.is_empty() {
            out.put(chunk);
            return;
        }
        // Sorted runs, one per probe: a stable sort merges them.
        spans.sort();
        // `done`: what is written; `floor`: the last safe cut known (the end of the last
        // region, scrubbed or not), so no scan goes back over text already judged.
        let mut done = 0;
        let mut floor = 0;
        let mut i = 0;
        let mut next_hit = 0;
        let mut next_hex = 0;
        while i < spans.len() {
            let start = self.cut_before(chunk, spans[i].0, floor);
            let mut end = self.cut_after(chunk, spans[i].1);
            i += 1;
            while i < spans.len() && spans[i].0 < end {
                // A span that ends inside the region ends before its cut: no new scan.
                if spans[i].1 > end {
                    end = self.cut_after(chunk, spans[i].1);
                }
                i += 1;
            }
            floor = end;
            out.put(&chunk[done..start]);
            if report.is_some() {
                line_base += memchr::memchr_iter(b'\n', &chunk[done..start]).count() as u64;
            }
            // No literal crosses a safe cut: the region's literals are those of its own hits.
            let mut literals: StageSet = 0;
            while let Some(&(at, allows)) = hits.get(next_hit).filter(|h| h.0 < end) {
                if at >= start {
                    literals |= allows;
                }
                next_hit += 1;
            }
            // Nor does a hex run: the region holds those of the chunk that begin in it.
            let mut hex_run = false;
            while let Some(&(at, _)) = hex.get(next_hex).filter(|h| h.0 < end) {
                hex_run |= at >= start;
                next_hex += 1;
            }
            region.clear();
            let changed = self.scrub_region_with(
                &chunk[start..end],
                line_base,
                report.as_deref_mut(),
                region,
                Known {
                    found: if hits_tell {
                        literals
                    } else {
                        literal_stages(&chunk[start..end])
                    },
                    hex_run,
                },
            );
            out.put(if changed { region } else { &chunk[start..end] });
            if report.is_some() {
                line_base += memchr::memchr_iter(b'\n', &chunk[start..end]).count() as u64;
            }
            done = end;
        }
        out.put(&chunk[done..]);
        release_if_large(region);
    }

    /// Is the text before white space that starts at `ws` (so `text[ws]` is white space and
    /// `text[ws - 1]` is not) unable to continue a match across that white space? `floor` is a
    /// safe cut at or before `ws`.
    fn left_context_safe(text: &[u8], ws: usize, floor: usize) -> bool {
        if ws <= floor {
            return true;
        }
        let last = text[ws - 1];
        if last == b':' || last == b'=' {
            return false;
        }
        // The word before the white space: the letters and `_` a key name is made of. Of the
        // characters beyond ASCII only two fold to such letters (the Kelvin sign to k, the long
        // s to s): a word with one is never judged safe; any other (é, 中, a byte that is not
        // UTF-8) is in no key name, so the name can only be what follows it. (Text in another
        // script than Latin then has its cuts: no log of such lines is held back whole.)
        let mut start = ws;
        while start > floor {
            let b = text[start - 1];
            if b >= 0x80 {
                let before = &text[..start];
                if before.ends_with("\u{212a}".as_bytes()) || before.ends_with("\u{17f}".as_bytes())
                {
                    return false;
                }
                break;
            }
            if !is_word_byte(b) {
                break;
            }
            start -= 1;
        }
        !holds_key_word(&text[start..ws])
    }

    /// The last safe cut at or before `pos` and not before `floor` (itself a safe cut).
    pub(super) fn cut_before(&self, text: &[u8], pos: usize, floor: usize) -> usize {
        self.cut_since(text, pos, floor, floor)
    }

    /// [`Scrubber::cut_before`], judging only the white-space runs that end at or after `stop`:
    /// a run that ended before it was judged by an earlier search, and its verdict cannot
    /// change, since it depends only on the text before the run. A stream that waits for a cut
    /// thus never judges a run twice, however often it looks.
    pub(super) fn cut_since(&self, text: &[u8], pos: usize, floor: usize, stop: usize) -> usize {
        let stop = stop.max(floor);
        let mut i = pos;
        while i > stop {
            // Find the last white-space run that ends at or before `i`.
            let Some(last_ws) = (stop..i).rev().find(|&j| is_go_space(text[j])) else {
                return floor;
            };
            let mut run_start = last_ws;
            while run_start > floor && is_go_space(text[run_start - 1]) {
                run_start -= 1;
            }
            if Self::left_context_safe(text, run_start, floor)
                && let Some(p) = (run_start..=last_ws)
                    .rev()
                    .find(|&j| self.cut_byte[text[j] as usize])
            {
                return p + 1;
            }
            i = run_start;
        }
        floor
    }

    /// The first safe cut at or after `pos` (the end of the text counts as one).
    fn cut_after(&self, text: &[u8], pos: usize) -> usize {
        let n = text.len();
        let mut i = pos;
        // A white-space run that started before `pos` continues to be judged by its own start.
        if i > 0 && i < n && is_go_space(text[i - 1]) {
            while i > 0 && is_go_space(text[i - 1]) {
                i -= 1;
            }
        }
        loop {
            let Some(ws) = (i..n).find(|&j| is_go_space(text[j])) else {
                return n;
            };
            let mut run_end = ws;
            while run_end < n && is_go_space(text[run_end]) {
                run_end += 1;
            }
            if Self::left_context_safe(text, ws, 0) {
                let from = ws.max(pos.saturating_sub(1));
                if let Some(j) = (from..run_end).find(|&j| self.cut_byte[text[j] as usize]) {
                    return j + 1;
                }
            }
            if run_end >= n {
                return n;
            }
            i = run_end;
        }
    }
}

/// Sets `matches` to what `re`, the regex of `stage`, finds in `text` (see [`StageSearch`]).
pub(super) fn stage_matches(
    stage: usize,
    re: &Regex,
    text: &[u8],
    matches: &mut Vec<(usize, usize)>,
) {
    matches.clear();
    match STAGE_SEARCHES.get(stage) {
        Some(StageSearch::AtLiteral(literal)) => {
            let mut last_end = 0;
            for at in literal.find_iter(text) {
                if at < last_end {
                    continue;
                }
                let from_here = Input::new(text).range(at..).anchored(Anchored::Yes);
                if let Some(m) = re.search(&from_here) {
                    matches.push((m.start(), m.end()));
                    last_end = m.end();
                }
            }
        }
        Some(StageSearch::HexRuns) => hex_runs(text, matches),
        _ => matches.extend(re.find_iter(text).map(|m| (m.start(), m.end()))),
    }
}

/// Whether `text`, as a static stage is about to see it, may still hold a match of `stage` once
/// its literals said it may: it needs one of the stage's separators, and after a replacement
/// (`stale`) its literals again, which `found` then keeps for the stages after it.
fn still_possible(stage: usize, text: &[u8], found: &mut StageSet, stale: &mut bool) -> bool {
    if !holds_separator(text, STAGE_SEPARATORS[stage]) {
        return false;
    }
    if *stale && stage < STAGE_LITERALS.len() {
        *found &= literal_stages(text);
        *stale = false;
        return *found & (1 << stage) != 0;
    }
    true
}

/// Sets `matches` to the occurrences of `value` in `text` that Go's `ReplaceAll` replaces:
/// left to right, none overlapping (memmem reports overlapping ones); a server address
/// (`address`) only where it stands alone.
fn value_matches(text: &[u8], value: &[u8], address: bool, matches: &mut Vec<(usize, usize)>) {
    matches.clear();
    matches.extend(
        memmem::find_iter(text, value)
            .map(|s| (s, s + value.len()))
            .filter(|&(s, e)| !address || whole_address(text, s, e)),
    );
    let mut last_end = 0;
    matches.retain(|&(s, e)| {
        let keep = s >= last_end;
        if keep {
            last_end = e;
        }
        keep
    });
}

/// Whether `text` holds one of `separators` (an empty set: no separator is needed).
fn holds_separator(text: &[u8], separators: &[u8]) -> bool {
    match *separators {
        [] => true,
        [a] => memchr::memchr(a, text).is_some(),
        [a, b] => memchr::memchr2(a, b, text).is_some(),
        _ => text.iter().any(|b| separators.contains(b)),
    }
}

fn dedup<'a>(values: impl Iterator<Item = &'a Vec<u8>>) -> Vec<Vec<u8>> {
    let mut seen = Vec::<Vec<u8>>::new();
    for v in values {
        if !seen.contains(v) {
            seen.push(v.clone());
        }
    }
    seen
}

/// An ASCII byte a key name may hold.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

/// Adds every stretch of bytes that is not valid UTF-8 (Go reads them differently).
fn invalid_utf8(text: &[u8], spans: &mut Vec<(usize, usize)>) {
    // Almost every chunk is valid: one fast check first.
    if simdutf8::basic::from_utf8(text).is_ok() {
        return;
    }
    super::go::invalid_runs(text, |start, end| {
        join_span(spans, (start, end));
    });
}

/// Adds the literal probe's spans over `lower` (a chunk, ASCII letters lowered) to `spans`, and
/// its hits to `hits` with the stages each allows (hits whose spans join are one hit, allowing
/// what each allows); `false` when the hits cannot tell the stages.
fn literal_hits(
    lower: &[u8],
    spans: &mut Vec<(usize, usize)>,
    hits: &mut Vec<(usize, StageSet)>,
) -> bool {
    match &*LITERAL_PROBE {
        Ok(probe) => probe.find_each(lower, |span, allows| {
            match (join_span(spans, span), hits.last_mut()) {
                (true, Some(last)) => last.1 |= allows,
                _ => hits.push((span.0, allows)),
            }
        }),
        // No probe (it cannot fail to build; were it to): the whole chunk is one region, whose
        // literals are looked for in it.
        Err(_) => {
            spans.push((0, lower.len()));
            false
        }
    }
}

/// Frees scratch space a forced cut's chunk (megabytes without a safe cut) made large, so it is
/// not held while the next region is scrubbed, nor after; ordinary chunks keep theirs.
fn release_if_large(scratch: &mut Vec<u8>) {
    if scratch.capacity() > 4 * super::DEFAULT_CHUNK {
        *scratch = Vec::new();
    }
}

/// Line numbers of input positions asked in order (each stage's matches are): counts each
/// newline once per stage, however many matches a region holds.
struct LineCounter<'a> {
    input: &'a [u8],
    base: u64,
    pos: usize,
    line: u64,
}

impl<'a> LineCounter<'a> {
    fn new(input: &'a [u8], base: u64) -> Self {
        LineCounter {
            input,
            base,
            pos: 0,
            line: base,
        }
    }

    /// The line of input position `at`.
    fn line_at(&mut self, at: usize) -> u64 {
        let at = at.min(self.input.len());
        if at < self.pos {
            // A later stage starts again from the top.
            self.pos = 0;
            self.line = self.base;
        }
        self.line += memchr::memchr_iter(b'\n', &self.input[self.pos..at]).count() as u64;
        self.pos = at;
        self.line
    }
}

/// Whether a server address found at `s..e` of `text` stands alone, not inside a longer number
/// or address: `10.0.0.1` is not in `110.0.0.12` or `10.0.0.1.5`, `::1` is not in `fe80::1`.
/// (GoClaw replaces every occurrence; the address's neighbours then leak what it hid and a
/// longer address is half redacted.) A port after an IPv4 address (`10.0.0.1:8080`) or brackets
/// around an IPv6 one (`[::1]:80`) leave it alone.
pub(super) fn whole_address(text: &[u8], s: usize, e: usize) -> bool {
    let v6 = text[s..e].contains(&b':');
    let part = |b: u8| {
        if v6 {
            b.is_ascii_hexdigit() || b == b':'
        } else {
            b.is_ascii_digit()
        }
    };
    // A neighbour joins the address when it is one of its characters, or a dot before a digit
    // (`1.10.0.0.1`, `10.0.0.1.5`).
    let joins = |next: Option<u8>, beyond: Option<u8>| match next {
        Some(b) if part(b) => true,
        Some(b'.') => beyond.is_some_and(|c| c.is_ascii_digit()),
        _ => false,
    };
    let before = |k: usize| s.checked_sub(k).map(|i| text[i]);
    !joins(before(1), before(2)) && !joins(text.get(e).copied(), text.get(e + 1).copied())
}
