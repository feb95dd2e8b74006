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
//! (stretches of input bytes and inserted placeholders; the regexes see each byte that is not
//! UTF-8 as one stand-in character), so invalid UTF-8 keeps Go's rune counting and line numbers
//! map back to the input. It is only run where something can
//! match. A *safe cut* is a position no match of any stage can cross, at any stage: the byte
//! before it is white space that occurs in no credential value, and the text before that white
//! space cannot end a key name or a `:`/`=` separator. (Only patterns 9 and 11–13 can contain
//! white space, and only around their separator; earlier replacements only ever turn a key
//! name's tail into `]`, so a cut safe in the input stays safe at every stage.) A chunk cut at
//! safe cuts scrubs to the same bytes alone as inside the whole, so [`ScrubStream`] holds only
//! the text since the last safe cut, and within a chunk only the regions around a possible match
//! (found by a probe for the stages' necessary literals, a hex-run probe, an Aho-Corasick pass
//! over the values, and UTF-8 validation) take the slow path, which copies a region where no
//! stage matches as it is. Memory is bounded by the chunk size plus the longest stretch
//! no cut can split: a token without white space, or white space after a key name.

mod engine;
mod go;
mod hex;
mod patterns;
mod probe;
mod stream;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde::Serialize;

pub use engine::Scrubber;
pub use patterns::{CREDENTIAL_VALUE, SERVER_IP, STATIC_PATTERNS, StaticPattern};
pub use stream::ScrubStream;

/// Where scrubbed text goes. Unchanged input reaches it as long slices of the input itself, so
/// a sink that writes them out as they come (`goclaw scrub`) copies nothing; a `Vec` gathers.
pub trait Sink {
    /// Takes the next bytes of output.
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Credential values shorter than this many bytes are ignored, as in the original.
pub const MIN_VALUE_LEN: usize = 6;
/// Line numbers kept per pattern in a report; counts stay exact beyond it.
pub const MAX_REPORTED_LINES: usize = 10_000;
/// Bytes a stream gathers before it looks for a cut.
pub const DEFAULT_CHUNK: usize = 256 * 1024;
/// The most input a stream holds back waiting for a safe cut (see `ScrubStream`): 8 MiB, so
/// the slow path over a stretch that is all matches stays within 64 MiB.
pub const MAX_PENDING: usize = 8 << 20;

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
