//! The probes that say where and which stages may match: [`LiteralProbe`], the search for the
//! stages' literals over a whole chunk at once, which also tells the stages each hit allows
//! ([`StageSet`]), so a region needs no second search for them; [`literal_stages`], the same
//! question asked of one text; and [`holds_key_word`], the key names a safe cut must not follow.

use regex::bytes::Regex;

use super::patterns::{KEY_WORDS, STAGE_LITERALS, STAGE_PROBE};

/// A set of the literal stages (patterns 1–13), one bit each.
pub(super) type StageSet = u16;

/// The search for the stages' literals in ASCII-lowered text: Teddy with 16 buckets where the
/// CPU has AVX2 (on the 200 MB log corpus it scans at ~10 GB/s; the 8-bucket Teddy the regex
/// crate picks for these 23 literals, ~3 GB/s, was 40 % of a scrub: three-byte fingerprints
/// shared by 3 literals a bucket match ordinary words), else the same literals as a regex.
/// Both report leftmost-first matches.
#[derive(Debug)]
pub(super) enum LiteralProbe {
    /// The searcher, and for each of its literals the stages a hit on it allows.
    Teddy(aho_corasick::packed::Searcher, Vec<StageSet>),
    Regex(Regex),
}

/// The stages' literal probe, built on first use: a scrub that is given no input never builds
/// it (the Teddy build and the CPU feature check it makes were about 0.1 ms of every `goclaw
/// scrub` start), and a process that scrubs many texts builds it once.
pub(super) static LITERAL_PROBE: std::sync::LazyLock<Result<LiteralProbe, String>> =
    std::sync::LazyLock::new(LiteralProbe::new);

impl LiteralProbe {
    pub(super) fn new() -> Result<LiteralProbe, String> {
        let mut literals: Vec<&str> = STAGE_LITERALS
            .iter()
            .flat_map(|l| l.iter().copied())
            .collect();
        literals.dedup();
        LiteralProbe::of(&literals)
    }

    pub(super) fn of(literals: &[&str]) -> Result<LiteralProbe, String> {
        let teddy = aho_corasick::packed::Config::new()
            .only_teddy_fat(Some(true))
            .builder()
            .extend(literals)
            .build();
        if let Some(searcher) = teddy {
            let allows = literals.iter().map(|l| stages_a_hit_allows(l)).collect();
            return Ok(LiteralProbe::Teddy(searcher, allows));
        }
        let alternation: Vec<String> = literals.iter().map(|l| regex::escape(l)).collect();
        Regex::new(&alternation.join("|"))
            .map(LiteralProbe::Regex)
            .map_err(|e| format!("scrub probe: {e}"))
    }

    /// Calls `each` with the span of every match in `lower`, in order, and the stages it
    /// allows; `false` when this probe cannot tell the stages (it then says every stage).
    pub(super) fn find_each(
        &self,
        lower: &[u8],
        mut each: impl FnMut((usize, usize), StageSet),
    ) -> bool {
        match self {
            LiteralProbe::Teddy(s, allows) => {
                for m in s.find_iter(lower) {
                    each((m.start(), m.end()), allows[m.pattern().as_usize()]);
                }
                true
            }
            LiteralProbe::Regex(r) => {
                for m in r.find_iter(lower) {
                    each((m.start(), m.end()), StageSet::MAX);
                }
                false
            }
        }
    }
}

/// A span that begins at most this many bytes after the last one ends joins it.
const JOIN_GAP: usize = 64;

/// Adds `span` to `spans`, a probe's spans in order, joining it to the last one when it begins
/// within [`JOIN_GAP`] bytes of its end (`true`). A chunk then holds at most one span per 64
/// bytes, whatever it holds (16 MiB of `key` made 5.6 million, 180 MB with their hits). Both
/// end up in one region, which is exact: a region is scrubbed from a safe cut to a safe cut,
/// and any stretch between two scrubs as its parts do. A span that begins before the last one
/// (another probe's, in the same vector) is added as it is.
pub(super) fn join_span(spans: &mut Vec<(usize, usize)>, span: (usize, usize)) -> bool {
    match spans.last_mut() {
        Some(last) if last.0 <= span.0 && span.0 <= last.1 + JOIN_GAP => {
            last.1 = last.1.max(span.1);
            true
        }
        _ => {
            spans.push(span);
            false
        }
    }
}

/// The stages a leftmost-first hit on `literal` stands for: those of every literal that can
/// occur starting inside the hit, so that the hits alone tell which stages' literals occur in
/// a region. A leftmost-first search reports an occurrence unless it starts inside an earlier
/// hit (at its start when one literal begins the other): it is then a part of that hit, or
/// begins with the hit's tail.
fn stages_a_hit_allows(literal: &str) -> StageSet {
    let hit = literal.as_bytes();
    let mut set = 0;
    for (stage, lits) in STAGE_LITERALS.iter().enumerate() {
        let inside = |other: &&str| {
            let other = other.as_bytes();
            (0..hit.len()).any(|p| other.starts_with(&hit[p..]) || hit[p..].starts_with(other))
        };
        if lits.iter().any(inside) {
            set |= 1 << stage;
        }
    }
    set
}

/// Which stages' literals occur in `text`, in one pass (a stage without literals is the hex
/// run's).
pub(super) fn literal_stages(text: &[u8]) -> StageSet {
    let mut found = 0;
    match &*STAGE_PROBE {
        Ok((ac, stage_of)) => {
            for m in ac.find_overlapping_iter(text) {
                found |= 1 << stage_of[m.pattern().as_usize()];
            }
        }
        // Were the probe ever unbuildable, every stage is tried.
        Err(_) => found = StageSet::MAX,
    }
    found
}

/// Whether `word` holds one of [`KEY_WORDS`], in any ASCII case. Only the positions whose
/// letter begins a key word are compared (a cut judges the word before every white space).
pub(super) fn holds_key_word(word: &[u8]) -> bool {
    /// For each byte, the key words that begin with it (either case).
    static BEGINS: [u16; 256] = {
        let mut t = [0u16; 256];
        let mut k = 0;
        while k < KEY_WORDS.len() {
            let first = KEY_WORDS[k][0];
            t[first as usize] |= 1 << k;
            t[first.to_ascii_uppercase() as usize] |= 1 << k;
            k += 1;
        }
        t
    };
    for i in 0..word.len() {
        let mut candidates = BEGINS[word[i] as usize];
        while candidates != 0 {
            let k = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let key = KEY_WORDS[k];
            if word
                .get(i..i + key.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(key))
            {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn literals() -> Vec<&'static str> {
        STAGE_LITERALS
            .iter()
            .flat_map(|l| l.iter().copied())
            .collect()
    }

    /// Every literal, alone, overlapping its neighbours, at both ends, among look-alikes.
    fn probe_text() -> String {
        let mut text = String::from("key");
        for (i, l) in literals().iter().enumerate() {
            text.push_str(["  ", "", "x", "sk", "_", "://"][i % 6]);
            text.push_str(l);
            text.push_str(" ask- wor woken tokens secretary d\u{17f} ");
        }
        text.push_str(
            "virtual_ tokey secredsn privatoken apikeyword _urivirtual_ virtual_url ghp_uri",
        );
        text
    }

    #[test]
    fn the_teddy_probe_finds_what_the_regex_probe_finds() {
        let literals = literals();
        let alternation: Vec<String> = literals.iter().map(|l| regex::escape(l)).collect();
        let regex = LiteralProbe::Regex(Regex::new(&alternation.join("|")).unwrap());
        let probe = LiteralProbe::of(&literals).unwrap();
        let lower = probe_text().to_ascii_lowercase().into_bytes();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        probe.find_each(&lower, |span, _| a.push(span));
        regex.find_each(&lower, |span, _| b.push(span));
        assert!(a.len() > literals.len(), "{a:?}");
        assert_eq!(a, b);
    }

    #[test]
    fn the_hits_of_a_text_allow_every_stage_whose_literal_it_holds() {
        let probe = LiteralProbe::new().unwrap();
        let text = probe_text();
        // Every substring of the probe text that starts and ends at a word's edge or inside
        // one: the stages its hits allow include those its own literals need.
        let words: Vec<&str> = text.split(' ').collect();
        for w in 0..words.len() {
            for n in 1..=3.min(words.len() - w) {
                let piece = words[w..w + n].join(" ");
                let lower = piece.to_ascii_lowercase().into_bytes();
                let mut hits = Vec::new();
                if !probe.find_each(&lower, |span, allows| hits.push((span.0, allows))) {
                    return; // no AVX2: the regions search for themselves
                }
                let allowed = hits.iter().fold(0, |s, h| s | h.1);
                let needed = literal_stages(piece.as_bytes());
                assert_eq!(needed & !allowed, 0, "{piece:?}: {needed:b} {allowed:b}");
            }
        }
    }

    #[test]
    fn key_words_are_found_in_any_case_anywhere_in_a_word() {
        for (word, holds) in [
            ("OPENAI_API_KEY", true),
            ("x_Authorization", true),
            ("mongo_URIx", true),
            ("Redis_Url", true),
            ("ke", false),
            ("monkeys", true),
            ("passwor", false),
            ("", false),
            ("credentia", false),
        ] {
            assert_eq!(holds_key_word(word.as_bytes()), holds, "{word}");
        }
    }
}
