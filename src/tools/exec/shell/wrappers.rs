//! Wrappers: commands that run another command (`env`, `nice`, `timeout`, `nohup`, `setsid`,
//! `exec`, `time`, `command`, `stdbuf`, `xargs`, and `sh`/`bash -c`), unwrapped to the commands
//! that actually run. Each wrapper's options are read by a function of its own, telling where
//! the command it runs starts.

use super::views::{DANGEROUS_PROGRAMS, Lax};
use super::{Parsed, Simple, is_assignment, parse, program_name};

/// Unwraps wrapper commands, returning what actually runs.
pub(super) fn unwrap(mut s: Simple, depth: usize, lax: &mut Lax) -> Result<Vec<Simple>, String> {
    if depth > 8 {
        lax.give_up("wrappers nested too deep")?;
        return Ok(vec![s]);
    }
    let Some(first) = s.argv.first().cloned() else {
        return Ok(if s.assignments.is_empty() && s.redirects.is_empty() {
            vec![]
        } else {
            vec![s]
        });
    };
    let name = program_name(&first);
    let rest = |skip: usize, s: &Simple| -> Simple {
        Simple {
            argv: s.argv[skip.min(s.argv.len())..].to_vec(),
            assignments: s.assignments.clone(),
            redirects: s.redirects.clone(),
            expanded: s
                .expanded
                .iter()
                .filter(|&&i| i >= skip)
                .map(|i| i - skip)
                .collect(),
        }
    };
    let skip = match name {
        "env" => match skip_env(&mut s, lax)? {
            Some(i) => i,
            None => return Ok(vec![s]),
        },
        "nice" => skip_nice(&s.argv),
        "timeout" => skip_timeout(&s.argv),
        "nohup" | "setsid" | "exec" => skip_flags(&s.argv),
        "time" => skip_flags(&s.argv),
        "command" => {
            if s.argv.get(1).is_some_and(|a| a == "-v" || a == "-V") {
                return Ok(vec![s]); // only looks a name up
            }
            if s.argv.get(1).is_some_and(|a| a == "-p") {
                2
            } else {
                1
            }
        }
        "stdbuf" => skip_stdbuf(&s.argv),
        "xargs" => match skip_xargs(&s.argv, lax) {
            Some(i) => i,
            None => {
                return Ok(vec![Simple {
                    argv: vec!["echo".into()],
                    ..s
                }]);
            }
        },
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash" => return shell_c(s, name, lax),
        _ => return super::carriers::unwrap_carried(s, depth, lax),
    };
    let inner = rest(skip, &s);
    if inner.argv.is_empty() {
        lax.give_up(format!("`{name}` without a command"))?;
        return Ok(vec![s]);
    }
    if inner.expanded.contains(&0) {
        let why = format!("the command run by `{name}` comes from an expansion");
        lax.give_up(why.clone())?;
        lax.hidden.push(why);
    }
    unwrap(inner, depth + 1, lax)
}

/// `env`: where the command starts after its options, its assignments joining the command's
/// (`s.assignments`). `None` when the answer is `s` itself: plain `env` (it prints the
/// environment), or `env -S` (its string is read on its own when tolerant).
fn skip_env(s: &mut Simple, lax: &mut Lax) -> Result<Option<usize>, String> {
    let mut i = 1;
    while i < s.argv.len() {
        let a = &s.argv[i];
        if a == "-i" || a == "--ignore-environment" || a == "-0" || a == "--null" || a == "-" {
            i += 1;
        } else if a == "-u" || a == "--unset" || a == "-C" || a == "--chdir" {
            i += 2;
        } else if a.starts_with("--unset=")
            || a.starts_with("--chdir=")
            || (a.starts_with("-u") && a.len() > 2)
        {
            i += 1;
        } else if a.starts_with("-S") || a.starts_with("--split-string") {
            lax.give_up("`env -S` splits a string into a command; not followed")?;
            let a = a.clone();
            let text = a
                .trim_start_matches("--split-string")
                .trim_start_matches("-S");
            let text = text.trim_start_matches('=');
            let mut code = if text.is_empty() {
                vec![]
            } else {
                vec![text.to_string()]
            };
            code.extend(s.argv[i + 1..].iter().cloned());
            lax.inner.push(code.join(" "));
            return Ok(None);
        } else if is_assignment(a) {
            s.assignments.push(a.clone());
            i += 1;
        } else {
            break;
        }
    }
    if i >= s.argv.len() {
        return Ok(None); // plain `env`: prints the environment
    }
    Ok(Some(i))
}

/// `nice`: where the command starts after its options.
fn skip_nice(argv: &[String]) -> usize {
    let mut i = 1;
    while i < argv.len() {
        let a = &argv[i];
        if a == "-n" || a == "--adjustment" {
            i += 2;
        } else if a.starts_with("--adjustment=")
            || (a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit()) && a.len() > 1)
            || (a.starts_with("-n") && a.len() > 2)
        {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// `timeout`: where the command starts after its options and the duration.
fn skip_timeout(argv: &[String]) -> usize {
    let mut i = 1;
    while i < argv.len() {
        let a = &argv[i];
        if a == "-s" || a == "--signal" || a == "-k" || a == "--kill-after" {
            i += 2;
        } else if a.starts_with('-') && a.len() > 1 {
            i += 1;
        } else {
            break;
        }
    }
    i + 1 // the duration
}

/// `nohup`, `setsid`, `exec`, `time`: where the command starts after the flags.
fn skip_flags(argv: &[String]) -> usize {
    let mut i = 1;
    while i < argv.len() && argv[i].starts_with('-') {
        i += 1;
    }
    i
}

/// `stdbuf`: where the command starts after its options (`-o L` or `-oL`).
fn skip_stdbuf(argv: &[String]) -> usize {
    let mut i = 1;
    while i < argv.len() && argv[i].starts_with('-') {
        let a = &argv[i];
        i += if a.len() == 2 { 2 } else { 1 };
    }
    i
}

/// Programs that run a script given as an argument.
const SCRIPT_RUNNERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "ash", "busybox", "python", "python3", "perl", "ruby",
    "node", "php", "awk", "gawk", "sed", "eval",
];

/// `xargs`: where the command starts after its options, `None` when it names none (it runs
/// `echo`). Tolerantly, a dangerous program taking its arguments from the input is hidden.
fn skip_xargs(argv: &[String], lax: &mut Lax) -> Option<usize> {
    let mut i = 1;
    while i < argv.len() && argv[i].starts_with('-') {
        let a = &argv[i];
        let takes_value = matches!(
            a.as_str(),
            "-I" | "-n"
                | "-P"
                | "-d"
                | "-L"
                | "-s"
                | "-E"
                | "-a"
                | "--arg-file"
                | "--delimiter"
                | "--max-args"
                | "--max-procs"
        );
        i += if takes_value { 2 } else { 1 };
    }
    if i >= argv.len() {
        return None;
    }
    if lax.on && DANGEROUS_PROGRAMS.contains(&program_name(&argv[i])) {
        lax.hidden.push(format!(
            "`xargs {}` takes its arguments from its input",
            argv[i]
        ));
    }
    // `xargs -I{} sh -c {}`: a script made of its input.
    let replaced = argv[1..i]
        .iter()
        .enumerate()
        .find_map(|(k, a)| match a.as_str() {
            "-I" => argv.get(k + 2).cloned(),
            "-i" | "--replace" => Some("{}".to_string()),
            _ => a
                .strip_prefix("-I")
                .or_else(|| a.strip_prefix("--replace="))
                .or_else(|| a.strip_prefix("-i"))
                .map(str::to_string),
        });
    if lax.on
        && let Some(token) = replaced.filter(|t| !t.is_empty())
        && argv[i + 1..].iter().any(|a| a.contains(token.as_str()))
        && SCRIPT_RUNNERS.contains(&program_name(&argv[i]))
    {
        lax.hidden.push(format!(
            "`xargs {}` runs a script made of its input",
            argv[i]
        ));
    }
    Some(i)
}

/// A shell (`name`): `sh -c STRING`, with -c possibly combined (`-lc`, `-ec`), runs the commands
/// of the string (tolerantly, read on its own); otherwise it runs a script file, or reads its
/// commands from standard input.
fn shell_c(s: Simple, name: &str, lax: &mut Lax) -> Result<Vec<Simple>, String> {
    let mut i = 1;
    let mut script = None;
    while i < s.argv.len() && s.argv[i].starts_with('-') {
        let a = &s.argv[i];
        if a == "-o" || a == "+o" {
            i += 2;
            continue;
        }
        if !a.starts_with("--") && a.contains('c') {
            script = s.argv.get(i + 1).cloned();
            if lax.on && s.expanded.contains(&(i + 1)) {
                lax.hidden
                    .push(format!("the script of `{name} -c` comes from an expansion"));
            }
            break;
        }
        i += 1;
    }
    match script {
        Some(text) if lax.on => {
            lax.inner.push(text);
            Ok(vec![])
        }
        Some(text) => match parse(&text) {
            Parsed::Commands(v) => Ok(v),
            Parsed::Opaque(r) => Err(format!("inside `{name} -c`: {r}")),
        },
        None if s.argv.len() > i => Ok(vec![s]), // runs a script file: the shell is the program
        None => {
            let why = format!("`{name}` reading commands from standard input is not followed");
            lax.give_up(why.clone())?;
            lax.hidden
                .push(format!("{why} (what it runs cannot be seen)"));
            Ok(vec![s])
        }
    }
}
