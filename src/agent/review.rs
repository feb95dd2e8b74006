//! The reviewer protocol of quality gates and the evaluate-optimize loop (seed 001 §9, §11): a
//! reviewer answers `APPROVED` or `REJECTED: feedback`. Used by the agent's gates and by the team
//! dispatcher's reviews.

/// A reviewer's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Review {
    Approved,
    Rejected(String),
}

/// A reviewer's answer, by the seed's protocol: `APPROVED` (a case-insensitive prefix of the
/// trimmed text) passes; `REJECTED: feedback` gives the feedback; anything else is a rejection
/// with the whole text as feedback.
pub fn parse_review(text: &str) -> Review {
    let text = text.trim();
    let starts = |word: &str| {
        text.get(..word.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(word))
    };
    if starts("APPROVED") {
        return Review::Approved;
    }
    if starts("REJECTED") {
        let rest = text["REJECTED".len()..].trim_start();
        let rest = rest.strip_prefix(':').unwrap_or(rest).trim();
        if !rest.is_empty() {
            return Review::Rejected(rest.to_string());
        }
    }
    Review::Rejected(text.to_string())
}
