//! Credential scrubbing (reference §2): GoClaw's 14 static patterns in order, each applied to
//! the output of the one before and replacing every match with `[REDACTED]`; then exact
//! credential values (`[REDACTED]`); then dynamic values such as server addresses
//! (`[SERVER_IP]`). Pure: bytes in, bytes out, plus an optional report of what was found
//! (pattern names and line numbers, never the secret).
//!
//! # Semantics
//! The result is defined as the original code computes it over one whole string: Go `regexp`
//! (leftmost-first; ASCII `\s`; Unicode simple case folding), where a byte that is not valid
//! UTF-8 reads as one U+FFFD rune but is copied to the output unchanged. Every byte that no
//! stage replaces passes through untouched: CR, NUL, invalid UTF-8, lines of any length.
//!
//! # How it stays fast and streams
//! [`Scrubber::scrub_region`] is the sequential semantics, run over a *piece map* of the input
//! (runs of original bytes, single invalid bytes, inserted placeholders), so invalid UTF-8 keeps
//! Go's rune counting and line numbers map back to the input. It is only run where something can
//! match. A *safe cut* is a position no match of any stage can cross, at any stage: the byte
//! before it is white space that occurs in no credential value, and the text before that white
//! space cannot end a key name or a `:`/`=` separator. (Only patterns 9 and 11–13 can contain
//! white space, and only around their separator; earlier replacements only ever turn a key
//! name's tail into `]`, so a cut safe in the input stays safe at every stage.) A chunk cut at
//! safe cuts scrubs to the same bytes alone as inside the whole, so [`ScrubStream`] holds only
//! the text since the last safe cut, and within a chunk only the regions around a possible match
//! (found by one union regex, a hex-run probe, an Aho-Corasick pass over the values, and UTF-8
//! validation) take the slow path. Memory is bounded by the chunk size plus the longest stretch
//! no cut can split: a token without white space, or white space after a key name.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use memchr::memmem;
use regex::bytes::Regex;
use serde::Serialize;

use super::{go_regex, is_go_space};

/// One static pattern: a stable name (used in reports) and its Go source, exactly as GoClaw's.
#[derive(Debug, Clone, Copy)]
pub struct StaticPattern {
    pub name: &'static str,
    pub go: &'static str,
}

/// The 14 static patterns, in the order they are applied.
pub const STATIC_PATTERNS: [StaticPattern; 14] = [
    StaticPattern {
        name: "openai_key",
        go: r"sk-[a-zA-Z0-9]{20,}",
    },
    StaticPattern {
        name: "anthropic_key",
        go: r"sk-ant-[a-zA-Z0-9-]{20,}",
    },
    StaticPattern {
        name: "github_pat",
        go: r"ghp_[a-zA-Z0-9]{36}",
    },
    StaticPattern {
        name: "github_oauth",
        go: r"gho_[a-zA-Z0-9]{36}",
    },
    StaticPattern {
        name: "github_user_token",
        go: r"ghu_[a-zA-Z0-9]{36}",
    },
    StaticPattern {
        name: "github_server_token",
        go: r"ghs_[a-zA-Z0-9]{36}",
    },
    StaticPattern {
        name: "github_refresh_token",
        go: r"ghr_[a-zA-Z0-9]{36}",
    },
    StaticPattern {
        name: "aws_access_key",
        go: r"AKIA[A-Z0-9]{16}",
    },
    StaticPattern {
        name: "secret_assignment",
        go: r#"(?i)(api[_-]?key|token|secret|password|bearer|authorization)\s*[:=]\s*["']?\S{8,}["']?"#,
    },
    StaticPattern {
        name: "database_url",
        go: r#"(?i)(postgres|postgresql|mysql|mongodb|redis|amqp)://[^\s"']+"#,
    },
    StaticPattern {
        name: "env_secret",
        go: r"(?i)[A-Z_]*(KEY|SECRET|CREDENTIAL|PRIVATE)[A-Z_]*\s*=\s*[^\[\s]{8,}",
    },
    StaticPattern {
        name: "env_dsn",
        go: r"(?i)(DSN|DATABASE_URL|REDIS_URL|MONGO_URI)\s*=\s*[^\[\s]{8,}",
    },
    StaticPattern {
        name: "env_virtual",
        go: r"(?i)VIRTUAL_[A-Z_]+\s*=\s*[^\[\s]{4,}",
    },
    StaticPattern {
        name: "hex_secret",
        go: r"[a-fA-F0-9]{64,}",
    },
];

/// Report name for exact credential values.
pub const CREDENTIAL_VALUE: &str = "credential_value";
/// Report name for dynamic values (server addresses).
pub const SERVER_IP: &str = "server_ip";

const REDACTED: &[u8] = b"[REDACTED]";
const SERVER_IP_MARK: &[u8] = b"[SERVER_IP]";
const REPLACEMENT_CHAR: &[u8] = "\u{FFFD}".as_bytes();
/// Credential values shorter than this many bytes are ignored, as in the original.
pub const MIN_VALUE_LEN: usize = 6;
/// Index of the hex pattern, which the fast path probes by hand.
const HEX_PATTERN: usize = 13;
/// Line numbers kept per pattern in a report; counts stay exact beyond it.
pub const MAX_REPORTED_LINES: usize = 10_000;
/// Bytes a stream gathers before it looks for a cut.
pub const DEFAULT_CHUNK: usize = 256 * 1024;
/// The most input a stream holds back waiting for a safe cut (see `ScrubStream`).
pub const MAX_PENDING: usize = 16 << 20;

/// For each of patterns 1–13, substrings in lower case, one of which every match contains once
/// its ASCII letters are lowered. Unicode simple case folding maps exactly two non-ASCII
/// characters to ASCII letters, the Kelvin sign (k) and the long s (s), so the literals avoid `k`
/// and `s` where they can (`ecret`, `word`, `_url`) and spell the fold out where they cannot.
/// Replacements only delete text and insert `[REDACTED]`, which holds none of them, so a stage
/// whose literals are absent from a region's input cannot match anywhere in that region.
const STAGE_LITERALS: [&[&str]; 13] = [
    &["sk-"],
    &["sk-"],
    &["ghp_"],
    &["gho_"],
    &["ghu_"],
    &["ghs_"],
    &["ghr_"],
    &["akia"],
    &[
        "key",
        "\u{212a}ey",
        "token",
        "to\u{212a}en",
        "ecret",
        "word",
        "bearer",
        "thoriz",
    ],
    &["://"],
    &["key", "\u{212a}ey", "ecret", "credential", "private"],
    &["dsn", "d\u{17f}n", "_url", "_uri"],
    &["virtual_"],
];

/// Lower-case key names whose tail, before white space, could still grow into a match of
/// patterns 9 or 11–13 across that white space.
const KEY_WORDS: [&[u8]; 13] = [
    b"key",
    b"token",
    b"secret",
    b"password",
    b"bearer",
    b"authorization",
    b"credential",
    b"private",
    b"dsn",
    b"database_url",
    b"redis_url",
    b"mongo_uri",
    b"virtual_",
];

/// `[scrub]` in config.toml: values every scrub redacts, on top of the static patterns.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct ScrubConfig {
    /// Exact credential values (`[REDACTED]`).
    pub values: Vec<String>,
    /// Files with one credential value per line.
    pub values_files: Vec<std::path::PathBuf>,
    /// Server addresses (`[SERVER_IP]`).
    pub server_ips: Vec<String>,
    /// Add this host's non-loopback interface addresses to `server_ips`.
    pub detect_server_ips: bool,
}

/// What a scrub found: counts per pattern name and the (1-based) input line of each match.
#[derive(Debug, Default, Clone, Serialize, PartialEq, Eq)]
pub struct Report {
    /// Total replacements made.
    pub redactions: u64,
    /// Per pattern name, in the order the stages run.
    pub patterns: BTreeMap<&'static str, PatternHits>,
}

#[derive(Debug, Default, Clone, Serialize, PartialEq, Eq)]
pub struct PatternHits {
    pub count: u64,
    /// Input lines where a match starts (the first [`MAX_REPORTED_LINES`]).
    pub lines: Vec<u64>,
    /// True when more lines matched than `lines` holds.
    pub lines_truncated: bool,
}

impl Report {
    fn record(&mut self, name: &'static str, line: u64) {
        self.redactions += 1;
        let hits = self.patterns.entry(name).or_default();
        hits.count += 1;
        if hits.lines.len() < MAX_REPORTED_LINES {
            hits.lines.push(line);
        } else {
            hits.lines_truncated = true;
        }
    }

    /// Adds another report's counts into this one, every match placed on `line` (used where a
    /// "line" is a JSON document's ordinal).
    pub fn merge_at_line(&mut self, other: &Report, line: u64) {
        for (name, hits) in &other.patterns {
            for _ in 0..hits.count {
                self.record(name, line);
            }
        }
    }

    /// Adds another report (e.g. of the next file) into this one.
    pub fn merge(&mut self, other: &Report) {
        self.redactions += other.redactions;
        for (name, hits) in &other.patterns {
            let mine = self.patterns.entry(name).or_default();
            mine.count += hits.count;
            let room = MAX_REPORTED_LINES.saturating_sub(mine.lines.len());
            mine.lines.extend(hits.lines.iter().take(room));
            mine.lines_truncated |= hits.lines_truncated || hits.lines.len() > room;
        }
    }
}

/// The 14 stages, compiled on first use (most inputs never need them: compiling costs about
/// 3 ms, scanning for the probe literals almost nothing).
static STAGES: LazyLock<Result<Vec<Regex>, String>> =
    LazyLock::new(|| STATIC_PATTERNS.iter().map(|p| go_regex(p.go)).collect());

/// Union of patterns 1–13: does a region hold a match at all? Compiled on first use.
static UNION: LazyLock<Result<Regex, String>> = LazyLock::new(|| {
    let union = STATIC_PATTERNS[..HEX_PATTERN]
        .iter()
        .map(|p| format!("(?:{})", p.go))
        .collect::<Vec<_>>()
        .join("|");
    go_regex(&union)
});

/// A scrubber: the static stages plus the credential and dynamic values it was given.
///
/// The stage regexes are constants, compiled on first use and checked by a unit test. Were
/// compiling ever to fail, the scrubber fails closed: a region that needed them is replaced
/// whole by `[REDACTED]`.
#[derive(Debug)]
pub struct Scrubber {
    /// Necessary literals of patterns 1–13 over ASCII-lowercased text: where may one start?
    probe: Regex,
    values: Vec<Vec<u8>>,
    dynamic: Vec<Vec<u8>>,
    /// All values at once, only to find where one may occur.
    value_probe: Option<AhoCorasick>,
    /// White-space bytes that occur in no value: where a cut may go.
    cut_byte: [bool; 256],
}

impl Scrubber {
    /// Builds a scrubber. Credential values shorter than [`MIN_VALUE_LEN`] bytes and empty
    /// dynamic values are ignored; duplicates are dropped, first occurrence kept.
    pub fn new(values: &[Vec<u8>], dynamic: &[Vec<u8>]) -> Result<Scrubber, String> {
        let mut literals: Vec<String> = STAGE_LITERALS
            .iter()
            .flat_map(|l| l.iter().map(|s| regex::escape(s)))
            .collect();
        literals.dedup();
        let probe = Regex::new(&literals.join("|")).map_err(|e| format!("scrub probe: {e}"))?;
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
            probe,
            values,
            dynamic,
            value_probe,
            cut_byte,
        })
    }

    /// This scrubber plus more credential values (e.g. the secrets an MCP server was given).
    pub fn with_more_values(&self, more: &[Vec<u8>]) -> Result<Scrubber, String> {
        let values: Vec<Vec<u8>> = self
            .values
            .iter()
            .cloned()
            .chain(more.iter().cloned())
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
            text = re.replace_all(&text, REDACTED).into_owned();
        }
        for (vals, mark) in [(&self.values, REDACTED), (&self.dynamic, SERVER_IP_MARK)] {
            for v in vals {
                let mut out = Vec::with_capacity(text.len());
                let mut last = 0;
                for s in memmem::find_iter(&text, v) {
                    if s < last {
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
            .filter_map(|p| super::translate_go(p.go).ok())
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
        ScrubStream {
            scrubber: self,
            pending: Vec::new(),
            line_base: 1,
            report: with_report.then(Report::default),
            chunk: DEFAULT_CHUNK,
            lower: Vec::new(),
            searched: 0,
        }
    }

    /// The reference semantics over one region: every stage in order, over a piece map.
    /// `line_base` is the input line the region starts on.
    pub fn scrub_region(
        &self,
        input: &[u8],
        line_base: u64,
        mut report: Option<&mut Report>,
        out: &mut Vec<u8>,
    ) {
        let Ok(stages) = &*STAGES else {
            out.extend_from_slice(REDACTED);
            return;
        };
        let lower = ascii_lower(input);
        let mut pieces = decode_go(input);
        let mut changed = false;
        let mut view = Vec::with_capacity(input.len() + 16);
        let mut matches = Vec::new();
        let line_of =
            |pos: usize| line_base + memchr::memchr_iter(b'\n', &input[..pos]).count() as u64;

        for (stage, re) in stages.iter().enumerate() {
            let possible = match STAGE_LITERALS.get(stage) {
                Some(literals) => literals
                    .iter()
                    .any(|l| memmem::find(&lower, l.as_bytes()).is_some()),
                None => has_hex_run(input),
            };
            if !possible {
                continue;
            }
            view.clear();
            render(&pieces, input, View::Runes, &mut view);
            matches.clear();
            matches.extend(re.find_iter(&view).map(|m| (m.start(), m.end())));
            if matches.is_empty() {
                continue;
            }
            if let Some(r) = report.as_deref_mut() {
                for &(s, _) in &matches {
                    r.record(
                        STATIC_PATTERNS[stage].name,
                        line_of(origin(&pieces, View::Runes, s)),
                    );
                }
            }
            pieces = replace(&pieces, View::Runes, &matches, REDACTED);
            changed = true;
        }
        let value_stages = self
            .values
            .iter()
            .map(|v| (v, REDACTED, CREDENTIAL_VALUE))
            .chain(self.dynamic.iter().map(|v| (v, SERVER_IP_MARK, SERVER_IP)));
        for (value, mark, name) in value_stages {
            view.clear();
            render(&pieces, input, View::Bytes, &mut view);
            matches.clear();
            matches.extend(memmem::find_iter(&view, value).map(|s| (s, s + value.len())));
            // memmem reports overlapping occurrences; Go's ReplaceAll takes them left to right.
            let mut last_end = 0;
            matches.retain(|&(s, e)| {
                let keep = s >= last_end;
                if keep {
                    last_end = e;
                }
                keep
            });
            if matches.is_empty() {
                continue;
            }
            if let Some(r) = report.as_deref_mut() {
                for &(s, _) in &matches {
                    r.record(name, line_of(origin(&pieces, View::Bytes, s)));
                }
            }
            pieces = replace(&pieces, View::Bytes, &matches, mark);
            changed = true;
        }
        if changed {
            render(&pieces, input, View::Bytes, out);
        } else {
            out.extend_from_slice(input);
        }
    }

    /// Scrubs a chunk that starts and ends at safe cuts: copies the clean stretches and runs
    /// [`Scrubber::scrub_region`] on the regions around anything that matches. `lower` is
    /// scratch space.
    fn scrub_chunk(
        &self,
        chunk: &[u8],
        mut line_base: u64,
        mut report: Option<&mut Report>,
        lower: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) {
        lower.clear();
        lower.extend(
            chunk
                .iter()
                .map(|&b| b | (u8::from(b.wrapping_sub(b'A') < 26) << 5)),
        );
        // (start, end, certain): uncertain spans only hint that their region may match.
        let mut spans: Vec<(usize, usize, bool)> = self
            .probe
            .find_iter(lower)
            .map(|m| (m.start(), m.end(), false))
            .collect();
        let mut certain = Vec::new();
        hex_runs(chunk, &mut certain);
        if let Some(probe) = &self.value_probe {
            certain.extend(probe.find_iter(chunk).map(|m| (m.start(), m.end())));
        }
        invalid_utf8(chunk, &mut certain);
        if spans.is_empty() && certain.is_empty() {
            out.extend_from_slice(chunk);
            return;
        }
        spans.extend(certain.into_iter().map(|(s, e)| (s, e, true)));
        spans.sort_unstable();
        // `done`: what is written; `floor`: the last safe cut known (the end of the last
        // region, scrubbed or not), so no scan goes back over text already judged.
        let mut done = 0;
        let mut floor = 0;
        let mut i = 0;
        while i < spans.len() {
            let start = self.cut_before(chunk, spans[i].0, floor);
            let mut end = self.cut_after(chunk, spans[i].1);
            let mut sure = spans[i].2;
            i += 1;
            while i < spans.len() && spans[i].0 < end {
                // A span that ends inside the region ends before its cut: no new scan.
                if spans[i].1 > end {
                    end = self.cut_after(chunk, spans[i].1);
                }
                sure |= spans[i].2;
                i += 1;
            }
            floor = end;
            let may_match = || {
                UNION
                    .as_ref()
                    .map_or(true, |u| u.is_match(&chunk[start..end]))
            };
            if !sure && !may_match() {
                continue;
            }
            out.extend_from_slice(&chunk[done..start]);
            if report.is_some() {
                line_base += memchr::memchr_iter(b'\n', &chunk[done..start]).count() as u64;
            }
            self.scrub_region(&chunk[start..end], line_base, report.as_deref_mut(), out);
            if report.is_some() {
                line_base += memchr::memchr_iter(b'\n', &chunk[start..end]).count() as u64;
            }
            done = end;
        }
        out.extend_from_slice(&chunk[done..]);
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
        let mut start = ws;
        while start > floor && is_word_byte(text[start - 1]) {
            start -= 1;
        }
        let word = &text[start..ws];
        if word.iter().any(|&b| b >= 0x80) {
            return false;
        }
        !KEY_WORDS
            .iter()
            .any(|k| contains_ignore_ascii_case(word, k))
    }

    /// The last safe cut at or before `pos` and not before `floor` (itself a safe cut).
    fn cut_before(&self, text: &[u8], pos: usize, floor: usize) -> usize {
        let mut i = pos;
        while i > floor {
            // Find the last white-space run that ends at or before `i`.
            let Some(last_ws) = (floor..i).rev().find(|&j| is_go_space(text[j])) else {
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

impl ScrubStream<'_> {
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
        // No white space since the last search: no new cut, and no new scan of old text.
        let fresh = &self.pending[self.searched..];
        if !fresh.iter().any(|&b| is_go_space(b)) {
            self.searched = self.pending.len();
            return self.force_if_too_long(out);
        }
        let cut = self
            .scrubber
            .cut_before(&self.pending, self.pending.len(), 0);
        if cut == 0 {
            self.searched = self.pending.len();
            return self.force_if_too_long(out);
        }
        self.flush(cut, out);
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

/// A piece of the text a stage sees.
#[derive(Debug, Clone, Copy)]
enum Piece {
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
enum View {
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
fn decode_go(input: &[u8]) -> Vec<Piece> {
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
fn render(pieces: &[Piece], input: &[u8], view: View, out: &mut Vec<u8>) {
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
fn origin(pieces: &[Piece], view: View, pos: usize) -> usize {
    let offs = offsets(pieces, view);
    if pieces.is_empty() {
        return 0;
    }
    let i = piece_at(&offs, pos).min(pieces.len() - 1);
    pieces[i].origin(pos.saturating_sub(offs[i]))
}

/// Replaces the rendered ranges `matches` (sorted, disjoint, non-empty) with `mark`.
fn replace(
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

/// ASCII letters lowered, every other byte kept (vectorises well).
fn lower_byte(b: u8) -> u8 {
    b | (u8::from(b.wrapping_sub(b'A') < 26) << 5)
}

fn ascii_lower(text: &[u8]) -> Vec<u8> {
    text.iter().map(|&b| lower_byte(b)).collect()
}

fn has_hex_run(text: &[u8]) -> bool {
    let mut spans = Vec::new();
    hex_runs(text, &mut spans);
    !spans.is_empty()
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

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn contains_ignore_ascii_case(hay: &[u8], needle: &[u8]) -> bool {
    hay.len() >= needle.len()
        && hay
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
}

fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

/// Adds every run of 64 or more hex digits (pattern 14). Such a run covers two consecutive
/// multiples of 32, and everything between them: only where both probes and the bytes between
/// are hex is the run measured.
fn hex_runs(text: &[u8], spans: &mut Vec<(usize, usize)>) {
    const STRIDE: usize = 32;
    let n = text.len();
    let mut i = 0;
    while i + STRIDE < n {
        if is_hex(text[i])
            && is_hex(text[i + STRIDE])
            && text[i + 1..i + STRIDE].iter().all(|&b| is_hex(b))
        {
            let mut lo = i;
            while lo > 0 && is_hex(text[lo - 1]) {
                lo -= 1;
            }
            let mut hi = i + STRIDE + 1;
            while hi < n && is_hex(text[hi]) {
                hi += 1;
            }
            if hi - lo >= 64 {
                spans.push((lo, hi));
            }
            i = hi.next_multiple_of(STRIDE);
        } else {
            i += STRIDE;
        }
    }
}

/// Adds every stretch of bytes that is not valid UTF-8 (Go reads them differently).
fn invalid_utf8(text: &[u8], spans: &mut Vec<(usize, usize)>) {
    let mut i = 0;
    while i < text.len() {
        match std::str::from_utf8(&text[i..]) {
            Ok(_) => return,
            Err(e) => {
                let at = i + e.valid_up_to();
                let bad = e.error_len().unwrap_or(text.len() - at);
                spans.push((at, at + bad));
                i = at + bad;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scrub(s: &str) -> String {
        let sc = Scrubber::new(&[], &[]).unwrap();
        String::from_utf8(sc.scrub(s.as_bytes(), None)).unwrap()
    }

    #[test]
    fn every_pattern_compiles() {
        assert_eq!(STAGES.as_ref().map(Vec::len), Ok(14));
        assert!(UNION.is_ok());
    }

    #[test]
    fn reference_examples() {
        let ghp = format!("ghp_{}", "a".repeat(36));
        assert_eq!(scrub(&format!("token: {ghp}")), "[REDACTED]");
        assert_eq!(scrub(&format!("token {ghp} done")), "token [REDACTED] done");
        assert_eq!(scrub("api_key=supersecretvalue123"), "[REDACTED]");
        assert_eq!(
            scrub("key=sk-ant-abc123-def456-ghi789-jkl012"),
            "key=[REDACTED]"
        );
        assert_eq!(scrub("sk-abcdefghijklmnopqrstu"), "[REDACTED]");
        assert_eq!(scrub("AKIAABCDEFGHIJKLMNOP x"), "[REDACTED] x");
        assert_eq!(scrub("url postgres://u:p@db/x next"), "url [REDACTED] next");
        assert_eq!(scrub("MY_PRIVATE_THING = abcdefgh1"), "[REDACTED]");
        assert_eq!(scrub("DATABASE_URL=abcdefgh"), "[REDACTED]");
        assert_eq!(scrub("VIRTUAL_ENV=/venv"), "[REDACTED]");
        assert_eq!(scrub(&"ab".repeat(32)), "[REDACTED]");
        assert_eq!(scrub(&"ab".repeat(31)), "ab".repeat(31));
        // Patterns 11-13 do not re-match an earlier placeholder.
        assert_eq!(scrub("SECRET_X=[REDACTED]"), "SECRET_X=[REDACTED]");
        // Pattern 9 spans line breaks, as Go's \s does.
        assert_eq!(
            scrub("password:\n\n  hunter2hunter2\nnext"),
            "[REDACTED]\nnext"
        );
        // Vertical tab is not white space in Go.
        assert_eq!(scrub("token:\x0bhunter2hunter2"), "[REDACTED]");
        assert_eq!(
            scrub("token \x0b: hunter2hunter2"),
            "token \x0b: hunter2hunter2"
        );
        // Unicode case folding: the Kelvin sign and the long s.
        assert_eq!(scrub("api_\u{212a}ey=supersecretvalue"), "[REDACTED]");
        assert_eq!(scrub("\u{17f}ecret: abcdefgh"), "[REDACTED]");
    }

    #[test]
    fn invalid_utf8_counts_as_one_rune_and_passes_through() {
        let sc = Scrubber::new(&[], &[]).unwrap();
        // Eight runes, one of them an invalid byte: Go matches \S{8,}.
        assert_eq!(sc.scrub(b"token: abcdef\xffg end", None), b"[REDACTED] end");
        // Four two-byte runes are eight bytes but only four runes: no match.
        let four = "token: \u{e9}\u{e9}\u{e9}\u{e9}";
        assert_eq!(sc.scrub(four.as_bytes(), None), four.as_bytes());
        // Bytes around a match survive exactly.
        assert_eq!(
            sc.scrub(b"\xfe\xff sk-abcdefghijklmnopqrstu \xc3\x28\r\n\0", None),
            b"\xfe\xff [REDACTED] \xc3\x28\r\n\0"
        );
    }

    #[test]
    fn values_and_dynamic_values() {
        let sc = Scrubber::new(
            &[
                b"hunter2-secret".to_vec(),
                b"short".to_vec(),
                b"hunter2-secret".to_vec(),
            ],
            &[b"10.1.2.3".to_vec(), Vec::new()],
        )
        .unwrap();
        assert_eq!(sc.values.len(), 1);
        assert_eq!(sc.dynamic.len(), 1);
        let mut report = Report::default();
        let out = sc.scrub(
            b"pw hunter2-secret on 10.1.2.3\nshort stays\n",
            Some(&mut report),
        );
        assert_eq!(out, b"pw [REDACTED] on [SERVER_IP]\nshort stays\n");
        assert_eq!(report.redactions, 2);
        assert_eq!(report.patterns[CREDENTIAL_VALUE].lines, vec![1]);
        assert_eq!(report.patterns[SERVER_IP].lines, vec![1]);
    }

    #[test]
    fn report_lines_refer_to_the_input() {
        let sc = Scrubber::new(&[], &[]).unwrap();
        let input = "a\ntoken:\n\n xxxxxxxxxx\nsk-abcdefghijklmnopqrstu\nz\n";
        let mut report = Report::default();
        let out = sc.scrub(input.as_bytes(), Some(&mut report));
        assert_eq!(out, b"a\n[REDACTED]\n[REDACTED]\nz\n");
        assert_eq!(report.patterns["secret_assignment"].lines, vec![2]);
        assert_eq!(report.patterns["openai_key"].lines, vec![5]);
    }

    /// Deterministic inputs made of tokens that stress every pattern and every cut rule.
    fn corpus(seed: u64, tokens: usize) -> Vec<u8> {
        const TOKENS: &[&str] = &[
            " ",
            " ",
            "\n",
            "\r\n",
            "\t",
            "\x0b",
            "\x0c",
            "  \n\n ",
            "token",
            "Token",
            ":",
            "=",
            " = ",
            "api_key",
            "api-key",
            "apikey",
            "password",
            "bearer",
            "Authorization",
            "SECRET",
            "MY_KEY",
            "CREDENTIAL",
            "private",
            "DSN",
            "DATABASE_URL",
            "REDIS_URL",
            "MONGO_URI",
            "VIRTUAL_ENV",
            "sk-",
            "sk-ant-",
            "ghp_",
            "gho_",
            "AKIA",
            "postgres://",
            "redis://",
            "[REDACTED]",
            "\"",
            "'",
            "abcdefgh",
            "ABCDEFGHIJ",
            "0123456789",
            "deadbeef",
            "cafebabe00112233",
            "x",
            "y_z",
            "\u{e9}",
            "\u{212a}",
            "\u{17f}",
            "-",
            "]",
            "[",
            "10.0.0.1",
            "hunter2pass",
            "hunter2",
        ];
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut out = Vec::new();
        for _ in 0..tokens {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let t = TOKENS[(state % TOKENS.len() as u64) as usize];
            if t == "ghp_" || t == "sk-" || t == "AKIA" {
                out.extend_from_slice(t.as_bytes());
                let n = if state.is_multiple_of(3) { 36 } else { 20 };
                out.extend(std::iter::repeat_n(b'A' + (state % 26) as u8, n));
            } else if t == "deadbeef" && state.is_multiple_of(5) {
                out.extend(std::iter::repeat_n(b'f', 64 + (state % 10) as usize));
            } else {
                out.extend_from_slice(t.as_bytes());
            }
        }
        out
    }

    #[test]
    fn hex_runs_are_found_wherever_they_lie() {
        for len in [63, 64, 65, 100, 129] {
            for offset in 0..70 {
                let mut text = vec![b'x'; offset];
                text.extend(std::iter::repeat_n(b'a', len));
                text.extend_from_slice(b"zz 0123");
                let mut spans = Vec::new();
                hex_runs(&text, &mut spans);
                let expected = if len >= 64 {
                    vec![(offset, offset + len)]
                } else {
                    vec![]
                };
                assert_eq!(spans, expected, "len {len} offset {offset}");
            }
        }
    }

    #[test]
    fn streaming_equals_whole_input_semantics() {
        let sc = Scrubber::new(&[b"hunter2pass".to_vec()], &[b"10.0.0.1".to_vec()]).unwrap();
        for seed in 0..300 {
            let input = corpus(seed, 400);
            let expected = sc.scrub_naive(&input);
            for chunk in [1, 7, 64, 1000, 1 << 20] {
                let mut out = Vec::new();
                let mut stream = sc.stream(false).with_chunk_size(chunk);
                for piece in input.chunks(13) {
                    stream.push(piece, &mut out);
                }
                stream.finish(&mut out);
                assert_eq!(
                    String::from_utf8_lossy(&out),
                    String::from_utf8_lossy(&expected),
                    "seed {seed}, chunk {chunk}, input {:?}",
                    String::from_utf8_lossy(&input)
                );
            }
        }
    }

    #[test]
    fn region_semantics_equals_oracle() {
        let sc = Scrubber::new(&[b"hunter2pass".to_vec()], &[b"10.0.0.1".to_vec()]).unwrap();
        for seed in 1000..1300 {
            let input = corpus(seed, 200);
            let mut out = Vec::new();
            sc.scrub_region(&input, 1, None, &mut out);
            assert_eq!(out, sc.scrub_naive(&input), "seed {seed}");
        }
    }

    #[test]
    fn a_stream_holds_back_only_what_a_match_could_still_span() {
        let sc = Scrubber::new(&[], &[]).unwrap();
        let mut stream = sc.stream(false).with_chunk_size(16);
        let mut out = Vec::new();
        stream.push(b"plain words here and more words\n", &mut out);
        assert!(stream.pending_len() <= 1, "held {}", stream.pending_len());
        stream.push(b"then a token\n\n", &mut out);
        // "token" followed by white space may still become a match: held back.
        assert!(stream.pending_len() >= 7);
        stream.push(b": abcdefghij\n", &mut out);
        stream.finish(&mut out);
        assert_eq!(out, b"plain words here and more words\nthen a [REDACTED]\n");
    }
}
