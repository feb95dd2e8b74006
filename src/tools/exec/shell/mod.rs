//! A conservative reader of `sh -c` command strings, so approvals are decided on the commands
//! that will actually run (the original's advisories #1200/#1203/#1206/#1216 all came from
//! approving a first token while running the whole string). It splits a command into simple
//! commands at `;`, `&&`, `||`, `|`, `&` and newlines, removes quotes and escapes as `sh`
//! does, records redirections, and unwraps wrappers that run another command (`env`, `nice`,
//! `timeout`, `nohup`, `stdbuf`, `time`, `command`, `exec`, `setsid`, `xargs`, and `sh`/`bash -c`).
//! Whatever it cannot account for exactly (command substitution, subshells, here-documents,
//! control keywords, expansions or globs in the command name, `eval`/`source`) makes the
//! command *opaque*: never approved automatically. Pure.
//!
//! Its parts: `lex` splits the string into words and simple commands, `wrappers` unwraps the
//! commands that run another, `carriers` reads the commands a program carries in its arguments
//! (`find -exec`, `flock`, `sudo`, `git -c core.pager=…`), and `views` is the tolerant reading
//! for the deny groups.

mod carriers;
mod code;
mod expansions;
mod lex;
mod options;
mod specs;
mod views;
mod wrappers;

use std::path::Path;

use lex::split;
use views::Lax;
pub use views::{Views, deny_views};
use wrappers::unwrap;

/// One simple command after parsing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Simple {
    /// Words after quote removal; `argv[0]` is the program.
    pub argv: Vec<String>,
    /// `NAME=value` words before the program.
    pub assignments: Vec<String>,
    /// Redirection targets (files written or read).
    pub redirects: Vec<String>,
    /// Word indexes that contain an unquoted or double-quoted `$` expansion.
    pub expanded: Vec<usize>,
    /// Whether it has a redirection of any kind: of a file, or of a descriptor (`>&9`, which
    /// fails when 9 is not open, and the command does not run).
    pub redirected: bool,
    /// A `cd` of the command's own top level (not one a child shell or a wrapper runs) that the
    /// shell surely runs, in itself, before what follows (see [`parse`]). Where a later
    /// relative program is found follows only these.
    pub sure_cd: bool,
}

/// The parse of a whole command string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// Every simple command that would run, wrappers unwrapped.
    Commands(Vec<Simple>),
    /// Something the reader does not follow exactly; the reason says what.
    Opaque(String),
}

/// Shell builtins that run no other program and change nothing outside the shell.
pub const HARMLESS_BUILTINS: &[&str] = &[
    "cd", "pwd", "true", "false", ":", "echo", "printf", "test", "[", "exit",
];

/// Parses a command string.
pub fn parse(command: &str) -> Parsed {
    let mut lax = Lax::default();
    match split(command, &mut lax) {
        Ok(list) => {
            let mut sure = cd_taken(&list, &lax.seps).into_iter();
            let mut out = Vec::new();
            for s in list {
                let sure_cd = is_cd(&s) && sure.next().unwrap_or(false);
                match unwrap(s, 0, &mut lax) {
                    Ok(mut v) => {
                        // A `cd` of the top level is unwrapped to itself.
                        if let [only] = v.as_mut_slice()
                            && is_cd(only)
                        {
                            only.sure_cd = sure_cd;
                        }
                        out.append(&mut v);
                    }
                    Err(reason) => return Parsed::Opaque(reason),
                }
            }
            Parsed::Commands(out)
        }
        Err(reason) => Parsed::Opaque(reason),
    }
}

fn is_cd(s: &Simple) -> bool {
    s.argv.first().is_some_and(|p| program_name(p) == "cd")
}

/// For each `cd` among a script's simple commands (the separators after them in `seps`), in
/// order: whether the shell surely runs it, in itself, before what follows: nothing before it
/// is conditional (`&&`, `||`) or in a pipeline; it is not in a pipeline or sent to the
/// background itself (`cd d | x`, `cd d &` change nothing after them); and it has no
/// redirection, which may fail and skip it (`cd d >&9`).
fn cd_taken(simples: &[Simple], seps: &[(usize, &str)]) -> Vec<bool> {
    let mut sure = true;
    let mut out = Vec::new();
    for (i, s) in simples.iter().enumerate() {
        let after = seps.iter().find(|(k, _)| *k == i).map_or(";", |(_, s)| *s);
        if is_cd(s) {
            out.push(sure && matches!(after, ";" | "&&") && !s.redirected);
        }
        sure &= after == ";";
    }
    out
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        None => false,
    }
}

pub(super) fn program_name(argv0: &str) -> &str {
    Path::new(argv0)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(argv0)
}

#[cfg(test)]
mod tests;
