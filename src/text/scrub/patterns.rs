//! The static stages of the scrub: GoClaw's 14 patterns in the order they run, the report names
//! and placeholders of every stage, the necessary literals the fast path probes for, the key
//! names a safe cut must not follow, and the compiled stage regexes (built on first use).

use std::sync::LazyLock;

use regex_automata::meta::Regex;

use crate::text::go_automaton;

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

pub(super) const REDACTED: &[u8] = b"[REDACTED]";
pub(super) const SERVER_IP_MARK: &[u8] = b"[SERVER_IP]";
/// For each of patterns 1–13, substrings in lower case, one of which every match contains once
/// its ASCII letters are lowered. Unicode simple case folding maps exactly two non-ASCII
/// characters to ASCII letters, the Kelvin sign (k) and the long s (s), so the literals avoid `k`
/// and `s` where they can (`ecret`, `word`, `_url`) and spell the fold out where they cannot.
/// Replacements only delete text and insert `[REDACTED]`, which holds none of them, so a stage
/// whose literals are absent from a region's input cannot match anywhere in that region.
pub(super) const STAGE_LITERALS: [&[&str]; 13] = [
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

/// For each stage, the separators one of which every match holds: `[:=]` in pattern 9, `=` in
/// 11–13 (none for the others). A region without them skips the stage's regex, as a region
/// without its literals does (`using key sk-…` names a key but assigns none).
pub(super) const STAGE_SEPARATORS: [&[u8]; 14] = [
    b"", b"", b"", b"", b"", b"", b"", b"", b":=", b"", b"=", b"=", b"=", b"",
];

/// Lower-case key names whose tail, before white space, could still grow into a match of
/// patterns 9 or 11–13 across that white space.
pub(super) const KEY_WORDS: [&[u8]; 13] = [
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

/// The 14 stages, compiled on first use (most inputs never need them: compiling costs about
/// 3 ms, scanning for the probe literals almost nothing), each once, as the `regex-automata`
/// regex that also searches anchored (see [`StageSearch`]).
pub(super) static STAGES: LazyLock<Result<Vec<Regex>, String>> =
    LazyLock::new(|| STATIC_PATTERNS.iter().map(|p| go_automaton(p.go)).collect());

/// How a static stage looks for its matches in a region's text, equal to its regex's
/// `find_iter`: a pattern that begins with a case-sensitive literal (patterns 1–8) is tried only
/// where that literal occurs, anchored there (every match starts with it, so no scan back for
/// where one begins); the matches of pattern 14 are exactly the runs of 64 or more hex digits,
/// which `hex_runs` finds; the others run their regex.
#[derive(Debug)]
pub(super) enum StageSearch {
    Regex,
    AtLiteral(Box<memchr::memmem::Finder<'static>>),
    HexRuns,
}

/// Each stage's [`StageSearch`] (nothing to compile).
pub(super) static STAGE_SEARCHES: LazyLock<Vec<StageSearch>> = LazyLock::new(|| {
    STATIC_PATTERNS
        .iter()
        .map(|p| match leading_literal(p.go) {
            _ if p.name == "hex_secret" => StageSearch::HexRuns,
            Some(lit) => StageSearch::AtLiteral(Box::new(memchr::memmem::Finder::new(lit))),
            None => StageSearch::Regex,
        })
        .collect()
});

/// The literal text a Go pattern begins with (`sk-` of `sk-[a-zA-Z0-9]{20,}`), when it has one
/// and no flag, group or quantifier touches it.
pub(super) fn leading_literal(go: &'static str) -> Option<&'static str> {
    crate::text::leading::leading(go)
        .filter(|l| l.plain)
        .and_then(|l| l.words.first().copied())
}

/// All the stages' literals at once, each pattern's stage beside it: which stages may match a
/// region, in one pass over it (instead of one search per literal). Overlapping matches, so a
/// literal inside another (`token` in `access_token`) is found too.
pub(super) static STAGE_PROBE: LazyLock<Result<(aho_corasick::AhoCorasick, Vec<usize>), String>> =
    LazyLock::new(|| {
        let mut literals = Vec::new();
        let mut stage_of = Vec::new();
        for (stage, lits) in STAGE_LITERALS.iter().enumerate() {
            for l in lits.iter() {
                literals.push(*l);
                stage_of.push(stage);
            }
        }
        // ASCII case-insensitive: the same as searching the text with its ASCII letters
        // lowered, without the lowered copy.
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(&literals)
            .map(|ac| (ac, stage_of))
            .map_err(|e| format!("stage literals: {e}"))
    });
