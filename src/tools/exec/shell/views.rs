//! The tolerant reading (`deny_views`): where the strict reading gives up, `Lax` records why
//! and goes on, and gathers the scripts nested in the command to be read on their own. One
//! reading gives what the deny groups and the deny entries need: the normalised texts of what
//! runs, the programs that cannot be known, and every simple command found.

use super::lex::split;
use super::wrappers::unwrap;
use super::{Simple, program_name};

/// What the tolerant reading (for the deny groups) gathers instead of giving up: scripts
/// nested in the command (substitutions, `eval`, `sh -c`, `trap`), the separator after each
/// simple command, and why a command's program cannot be known.
#[derive(Debug, Default)]
pub(super) struct Lax {
    /// Tolerant: record and go on where the strict reading gives up.
    pub(super) on: bool,
    pub(super) inner: Vec<String>,
    pub(super) hidden: Vec<String>,
    pub(super) seps: Vec<(usize, &'static str)>,
}

impl Lax {
    /// Strictly: the reason as an error. Tolerantly: `Ok`, and the caller recovers.
    pub(super) fn give_up(&mut self, reason: impl Into<String>) -> Result<(), String> {
        if self.on { Ok(()) } else { Err(reason.into()) }
    }
}

/// What the tolerant reading of a command finds: what the deny groups look at and what they
/// cannot see, and what deny entries are checked against.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Views {
    /// The raw command, then texts of what it runs: each simple command normalised (quotes
    /// removed, wrappers unwrapped, the program by its base name), the same with short-flag
    /// clusters split (`-rfv` → `-r -f -v`), the whole chain so normalised with its separators
    /// (`curl x | sh`), and the same for every script nested in it (substitutions, `eval`,
    /// `sh -c`, `$IFS` read as a space).
    pub texts: Vec<String>,
    /// Why some program it runs cannot be known (a name from an expansion, a shell reading a
    /// pipe, `eval` of an expansion): such a command is never run without approval.
    pub hidden: Vec<String>,
    /// Every simple command found, wrappers unwrapped, the scripts nested in it included (not
    /// code read out of an argument, which may be data): what a deny entry is checked against
    /// whether or not the strict reading can follow the rest of the command.
    pub commands: Vec<Simple>,
}

/// The deny views of a command string: a tolerant reading that never gives up, so an opaque
/// part never drops the checks of the parts around it.
pub fn deny_views(command: &str) -> Views {
    let mut views = Views::default();
    // (script, depth, judged): a script read out of an argument (`git -c core.pager='…'`,
    // `awk 'BEGIN{system("…")}'`) may be code or data, so it gives texts to the patterns but
    // no hidden-program verdicts.
    let mut work: Vec<(String, usize, bool)> = vec![(command.to_string(), 0, true)];
    let ifs = command.replace("${IFS}", " ").replace("$IFS", " ");
    if ifs != command {
        work.push((ifs, 0, true));
    }
    let mut scripts = 0;
    // Scripts of the command itself before code read out of arguments: padding a command with
    // arguments must not push what it runs past the bound below.
    while let Some(at) = work
        .iter()
        .rposition(|w| w.2)
        .or_else(|| work.len().checked_sub(1))
    {
        let (script, depth, judged) = work.remove(at);
        scripts += 1;
        if scripts > 256 || depth > 8 {
            views
                .hidden
                .push("scripts nested too deep to follow".into());
            break;
        }
        if !views.texts.contains(&script) {
            views.texts.push(script.clone());
        }
        let mut lax = Lax {
            on: true,
            ..Lax::default()
        };
        let simples = split(&script, &mut lax).unwrap_or_default();
        let seps = std::mem::take(&mut lax.seps);
        let mut chain = String::new();
        let mut written: Vec<String> = Vec::new();
        let mut after_pipe = false;
        // Where this script is, for the path views: its start (`.`), then where each literal
        // `cd` moved; unknown after a `cd` to an expansion.
        let mut cwd: Option<String> = Some(".".into());
        for (idx, simple) in simples.into_iter().enumerate() {
            let sep = seps
                .iter()
                .find(|(i, _)| *i == idx)
                .map_or(";", |(_, s)| *s);
            for s in unwrap(simple, 0, &mut lax).unwrap_or_default() {
                if judged {
                    if let Some(why) = unjudgeable(&s, &written, after_pipe) {
                        views.hidden.push(why);
                    }
                    views.commands.push(s.clone());
                }
                work.extend(
                    carried_by_variables(&s)
                        .into_iter()
                        .map(|c| (c, depth + 1, judged)),
                );
                if depth < 3 {
                    work.extend(
                        s.argv
                            .iter()
                            .skip(1)
                            .flat_map(|a| embedded_code(a))
                            .map(|c| (c, depth + 1, false)),
                    );
                    work.extend(
                        commands_in_arguments(&s)
                            .into_iter()
                            .map(|c| (c, depth + 1, false)),
                    );
                }
                written.extend(files_written(&s));
                let line = normal_line(&s);
                chain.push_str(&line);
                chain.push(' ');
                chain.push_str(sep);
                chain.push(' ');
                let split_flags = flags_split(&line);
                let paths = path_view(&s, cwd.as_deref()).filter(|p| *p != line);
                views.texts.push(line);
                views.texts.extend(split_flags);
                views.texts.extend(paths);
                if program_name(s.argv.first().map_or("", String::as_str)) == "cd" {
                    cwd = moved_to(&s, cwd.as_deref());
                }
            }
            after_pipe = sep == "|";
        }
        views.texts.push(chain.trim_end().to_string());
        if judged {
            views.hidden.append(&mut lax.hidden);
        }
        work.extend(lax.inner.into_iter().map(|s| (s, depth + 1, judged)));
    }
    views.texts.dedup();
    views
}

/// A program named among a command's arguments, with the arguments after it, quoted: the
/// command may run it (`flock f sh -c …`, `find . -exec rm … \;`, `strace env`).
fn commands_in_arguments(s: &Simple) -> Vec<String> {
    (1..s.argv.len())
        .filter(|&k| {
            let name = program_name(&s.argv[k]);
            INTERPRETERS.contains(&name)
                || DANGEROUS_PROGRAMS.contains(&name)
                || matches!(name, "env" | "printenv")
        })
        .map(|k| {
            let quoted: Vec<String> = s.argv[k..]
                .iter()
                .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
                .collect();
            quoted.join(" ")
        })
        .collect()
}

/// What a command's assignments give a program to run: a command (`PAGER=…`, `GIT_SSH_COMMAND=…`,
/// LESSOPEN's `|…`), or options of the program that may name one (`TAR_OPTIONS=--to-command=…`
/// is read as `tar --to-command=…`).
fn carried_by_variables(s: &Simple) -> Vec<String> {
    const COMMANDS: &[&str] = &[
        "GIT_CONFIG_PARAMETERS",
        "PAGER",
        "MANPAGER",
        "GIT_PAGER",
        "EDITOR",
        "VISUAL",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_SSH_COMMAND",
        "GIT_SSH",
        "GIT_PROXY_COMMAND",
        "RSYNC_CONNECT_PROG",
        "GIT_EXTERNAL_DIFF",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "BROWSER",
        "RSYNC_RSH",
        "LESSOPEN",
        "LESSCLOSE",
        "PROMPT_COMMAND",
        "SHELL",
    ];
    const OPTIONS: &[(&str, &str)] = &[
        ("TAR_OPTIONS", "tar"),
        ("MANOPT", "man"),
        ("GZIP", "gzip"),
        ("XZ_OPT", "xz"),
    ];
    // Set before the program, or by a builtin that exports or sets them for what follows
    // (`export GIT_SSH_COMMAND=…; git …`; a variable the environment gave is exported when set).
    let set_by_builtin = match s.argv.first().map(|p| program_name(p)) {
        Some("export" | "declare" | "typeset" | "local" | "readonly") => &s.argv[1..],
        Some(_) => &[][..],
        None => &[][..],
    };
    s.assignments
        .iter()
        .chain(set_by_builtin.iter().filter(|a| !a.starts_with('-')))
        .filter_map(|a| a.split_once('='))
        .filter_map(|(name, value)| {
            if name == "GIT_CONFIG_PARAMETERS" || name.starts_with("GIT_CONFIG_VALUE_") {
                // `'alias.x'='!cmd'`: the values git may run, as `git -c` would give them.
                let value = value.rsplit('=').next().unwrap_or(value);
                Some(
                    value
                        .trim_matches(['\'', '"', ' '])
                        .trim_start_matches('!')
                        .to_string(),
                )
            } else if COMMANDS.contains(&name) {
                Some(value.trim_start_matches('|').to_string())
            } else {
                OPTIONS
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, program)| format!("{program} {value}"))
            }
        })
        .filter(|c| !c.trim().is_empty())
        .collect()
}

/// Code an argument may carry for another program to run: the argument itself when it has
/// white space, the value after `=` (`core.pager=…`, `--checkpoint-action=exec=…`), what follows
/// `!` (`:!sh`, git aliases), and quoted strings inside it (`system("…")`, `os.system('…')`).
fn embedded_code(arg: &str) -> Vec<String> {
    let mut out = Vec::new();
    if arg.contains(char::is_whitespace) {
        out.push(arg.to_string());
    }
    let mut rest = arg;
    while let Some((_, v)) = rest.split_once('=') {
        if !v.is_empty() {
            out.push(v.to_string());
        }
        rest = v;
    }
    if let Some((_, v)) = arg.split_once('!')
        && !v.is_empty()
    {
        out.push(v.to_string());
    }
    for q in ['"', '\'', '`'] {
        let mut parts = arg.split(q);
        parts.next();
        while let Some(inside) = parts.next() {
            if !inside.is_empty() {
                out.push(inside.to_string());
            }
            parts.next();
        }
    }
    out.retain(|c| c != arg || arg.contains(char::is_whitespace));
    out.dedup();
    out
}

/// Programs whose deny patterns judge their flags and operands: when one of those comes from
/// an expansion (`rm $x /`, `rm -$(echo r) /`) or from input (`… | xargs rm`), nothing can
/// judge the command.
pub(super) const DANGEROUS_PROGRAMS: &[&str] = &[
    "rm", "chmod", "chown", "chgrp", "kill", "dd", "shred", "mkfs", "mv", "truncate", "wipefs",
    "crontab", "setfacl", "mount", "umount", "nsenter", "unshare", "sudo", "su", "doas",
];

/// Interpreters that run a script read from their input when given none.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "yash", "csh", "tcsh", "fish", "busybox",
    "python", "python2", "python3", "perl", "ruby", "node", "nodejs", "php", "lua", "tclsh", "awk",
    "gawk",
];

/// Whether a file argument is standard input however it is spelt (`-`, `/dev/stdin`,
/// `/dev/./stdin`, `/proc/self/fd/0`, `/dev/fd/0`, `/proc/PID/fd/0`).
pub(super) fn reads_stdin(path: &str) -> bool {
    if path == "-" {
        return true;
    }
    let p = lexical(path);
    let p = p
        .strip_prefix("/dev/fd/")
        .map_or(p.clone(), |r| format!("/proc/self/fd/{r}"));
    p == "/dev/stdin"
        || p.strip_prefix("/proc/")
            .and_then(|r| r.split_once('/'))
            .is_some_and(|(who, rest)| {
                rest == "fd/0"
                    && (who == "self"
                        || who == "thread-self"
                        || who.bytes().all(|b| b.is_ascii_digit()))
            })
}

/// A path as written, without a leading `./`.
fn plain_path(p: &str) -> String {
    p.trim_start_matches("./").to_string()
}

/// Why `s` cannot be judged by the deny patterns, if it cannot: a dangerous program with an
/// operand from an expansion, a script the same command wrote (`printf … > s; sh s`), an
/// interpreter reading its script from a pipe or from standard input.
fn unjudgeable(s: &Simple, written: &[String], after_pipe: bool) -> Option<String> {
    let first = s.argv.first()?;
    let name = program_name(first);
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    // After `--` an expansion is an operand, never a flag (`rm -- "$f"` is judged).
    let end_of_flags = s.argv.iter().position(|a| a == "--").unwrap_or(usize::MAX);
    if DANGEROUS_PROGRAMS.contains(&name) && s.expanded.iter().any(|&i| i < end_of_flags) {
        return Some(format!(
            "a flag or operand of `{name}` comes from an expansion (after `--` it could only be an operand): `{}`",
            s.argv.join(" ")
        ));
    }
    let runs_written = |w: &str| written.iter().any(|f| *f == plain_path(w));
    if runs_written(first) {
        return Some(format!("`{first}` runs a file the command itself wrote"));
    }
    let script = s.argv[1..].iter().find(|a| !a.starts_with('-'));
    if INTERPRETERS.contains(&base) || matches!(name, "source" | ".") {
        if let Some(f) = script
            && runs_written(f)
        {
            return Some(format!("`{name} {f}` runs a file the command itself wrote"));
        }
        if script.is_some_and(|f| reads_stdin(f))
            || (after_pipe && script.is_none() && s.argv.len() == 1)
        {
            return Some(format!("`{name}` runs a script read from its input"));
        }
    }
    None
}

/// One simple command as a line: assignments, the program by its base name, the arguments,
/// the redirections as `> target`.
fn normal_line(s: &Simple) -> String {
    let mut parts: Vec<String> = s.assignments.clone();
    if let Some((first, rest)) = s.argv.split_first() {
        parts.push(program_name(first).to_string());
        parts.extend(rest.iter().cloned());
    }
    parts.extend(s.redirects.iter().map(|r| format!("> {r}")));
    parts.join(" ")
}

/// The files `s` writes: its redirections, a download's output (`curl -o f`, `wget -O f`),
/// what `tee` writes, and what `cp`, `ln`, `mv` and `install` make: a program copied or linked
/// under another name and run in the same command (`ln -s /usr/bin/x w && ./w`, `cp
/// /usr/bin/x .; ./x`) is not the one its name says.
fn files_written(s: &Simple) -> impl Iterator<Item = String> + '_ {
    let operands = || s.argv.iter().skip(1).filter(|a| !a.starts_with('-'));
    let made: Vec<String> = match s.argv.first().map(|p| program_name(p)) {
        // The target, and each source's name in it, whether the target is a directory or not
        // (`cp /usr/bin/whoami .`); `ln -s /usr/bin/whoami` makes `whoami` here.
        Some("cp" | "ln" | "mv" | "install") => {
            let all: Vec<&String> = operands().collect();
            let into = s
                .argv
                .windows(2)
                .find(|w| w[0] == "-t")
                .map(|w| w[1].as_str())
                .or_else(|| {
                    s.argv
                        .iter()
                        .find_map(|a| a.strip_prefix("--target-directory="))
                });
            let (dir, sources) = match (into, all.split_last()) {
                (Some(dir), _) => (dir, &all[..]),
                (None, Some((last, []))) => (".", std::slice::from_ref(last)),
                (None, Some((last, sources))) => (last.as_str(), sources),
                (None, None) => (".", &[][..]),
            };
            let dir = dir.trim_end_matches('/');
            std::iter::once(dir.to_string())
                .chain(
                    sources
                        .iter()
                        .map(|src| format!("{dir}/{}", program_name(src))),
                )
                .map(|p| plain_path(&p))
                .collect()
        }
        Some("tee") => operands().map(|a| plain_path(a)).collect(),
        _ => Vec::new(),
    };
    s.redirects
        .iter()
        .map(|r| plain_path(r))
        .chain(
            s.argv
                .windows(2)
                .filter(|w| {
                    matches!(
                        w[0].as_str(),
                        "-o" | "-O" | "--output" | "--output-document"
                    )
                })
                .map(|w| plain_path(&w[1])),
        )
        .chain(made)
}

/// `s` with its path words as the kernel reads them: `//` and `/./` collapsed, `a/..`
/// resolved, and, after a literal `cd DIR` in the same script, a relative word joined to DIR
/// (`cd /proc; cat self/environ` is `cat /proc/self/environ`), if that differs from
/// [`normal_line`].
fn path_view(s: &Simple, cwd: Option<&str>) -> Option<String> {
    let (first, rest) = s.argv.split_first()?;
    let word = |w: &String| -> String {
        if w.starts_with('-') || w.contains("://") {
            return w.clone();
        }
        // `/dev/fd` is a link to `/proc/self/fd`: `/dev/fd/../environ` is the environment.
        let w = &match w.strip_prefix("/dev/fd/") {
            Some(rest) => format!("/proc/self/fd/{rest}"),
            None => w.clone(),
        };
        let joined = match cwd {
            Some(dir) if dir != "." && !w.starts_with(['/', '~', '$']) => format!("{dir}/{w}"),
            _ => w.clone(),
        };
        if joined.contains('/') {
            lexical(&joined)
        } else {
            joined
        }
    };
    let mut parts: Vec<String> = s.assignments.clone();
    parts.push(program_name(first).to_string());
    parts.extend(rest.iter().map(word));
    parts.extend(s.redirects.iter().map(|r| format!("> {}", word(r))));
    Some(parts.join(" "))
}

/// Where `cd` (the simple command `s`) moves, from `cwd`: known only for a literal directory.
fn moved_to(s: &Simple, cwd: Option<&str>) -> Option<String> {
    let mut args = s.argv.iter().skip(1).peekable();
    while args
        .next_if(|a| matches!(a.as_str(), "-P" | "-L" | "-e" | "--"))
        .is_some()
    {}
    let (Some(dir), None) = (args.next(), args.next()) else {
        return None;
    };
    if dir.contains(['*', '?', '[']) {
        return None;
    }
    if !s.expanded.is_empty() || dir.starts_with(['~', '-', '$']) {
        return None;
    }
    if dir.starts_with('/') {
        return Some(lexical(dir));
    }
    cwd.map(|c| lexical(&format!("{c}/{dir}")))
}

/// A path with `//` and `.` parts dropped and `..` taken back a part, as text (absolute stays
/// absolute; a `..` above the start stays).
fn lexical(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    if path.starts_with('/') {
        format!("/{joined}")
    } else if joined.is_empty() {
        ".".into()
    } else {
        joined
    }
}

/// `line` with every short-flag cluster split (`rm -Rfv /` → `rm -R -f -v /`), if any.
fn flags_split(line: &str) -> Option<String> {
    let mut changed = false;
    let words: Vec<String> = line
        .split(' ')
        .map(|w| match w.strip_prefix('-') {
            Some(f) if f.len() > 1 && f.bytes().all(|b| b.is_ascii_alphabetic()) => {
                changed = true;
                f.chars()
                    .map(|c| format!("-{c}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            _ => w.to_string(),
        })
        .collect();
    changed.then(|| words.join(" "))
}
