//! Wrappers: commands that run another command (`env`, `nice`, `timeout`, `nohup`, `setsid`,
//! `exec`, `time`, `command`, `stdbuf`, `xargs`, and `sh`/`bash -c`), unwrapped to the commands
//! that actually run. Each wrapper's options are read by a function of its own, telling where
//! the command it runs starts.

use super::options::{Options, Read};
use super::specs::Moves;
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
            redirected: s.redirected,
            sure_cd: false,
        }
    };
    let skip = match name {
        "env" => match skip_env(&mut s, lax)? {
            Some(i) => i,
            None => return Ok(vec![s]),
        },
        "command" => {
            let read = options(&COMMAND, &s.argv, 1, name, lax)?;
            if read.given.iter().any(|(o, _)| o == "-v" || o == "-V") {
                return Ok(vec![s]); // only looks a name up
            }
            read.next
        }
        "nice" => {
            // `nice -5 -n 3 CMD`: old-style adjustments, then its options as usual.
            let from = 1 + s.argv[1..].iter().take_while(|a| is_legacy_nice(a)).count();
            options(&NICE, &s.argv, from, name, lax)?.next
        }
        "builtin" => 1,
        "timeout" => options(&TIMEOUT, &s.argv, 1, name, lax)?.next + 1, // and the duration
        "xargs" => match skip_xargs(&s.argv, lax)? {
            Some(i) => i,
            None => {
                return Ok(vec![Simple {
                    argv: vec!["echo".into()],
                    ..s
                }]);
            }
        },
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash" | "rbash" | "mksh" | "yash" | "posh"
        | "lksh" => return shell_c(s, name, lax),
        _ => match WRAPPERS.iter().find(|(n, _)| *n == name) {
            Some((_, o)) => options(o, &s.argv, 1, name, lax)?.next,
            None => return super::carriers::unwrap_carried(s, depth, lax),
        },
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

/// Wrappers whose options are read by their table alone, then the command.
const WRAPPERS: &[(&str, Options)] = &[
    (
        "nohup",
        Options {
            long_flags: &["help", "version"],
            ..NONE
        },
    ),
    (
        "setsid",
        Options {
            flags: "cfw",
            long_flags: &["ctty", "fork", "wait"],
            ..NONE
        },
    ),
    (
        "exec",
        Options {
            flags: "cl",
            valued: "a",
            ..NONE
        },
    ),
    (
        "time",
        Options {
            flags: "pvqa",
            valued: "fo",
            long_flags: &["portability", "verbose", "quiet", "append"],
            long_valued: &["format", "output"],
            ..NONE
        },
    ),
    (
        "stdbuf",
        Options {
            valued: "ioe",
            long_valued: &["input", "output", "error"],
            ..NONE
        },
    ),
];

const NONE: Options = Options::NONE;

const NICE: Options = Options {
    valued: "n",
    long_valued: &["adjustment"],
    ..NONE
};

const COMMAND: Options = Options {
    flags: "pvV",
    ..NONE
};

const TIMEOUT: Options = Options {
    flags: "v",
    valued: "sk",
    long_flags: &["foreground", "preserve-status", "verbose"],
    long_valued: &["signal", "kill-after"],
    ..NONE
};

const ENV: Options = Options {
    flags: "i0v",
    valued: "uCS",
    long_flags: &[
        "ignore-environment",
        "null",
        "debug",
        "list-signal-handling",
        "block-signal",
        "default-signal",
        "ignore-signal",
    ],
    long_valued: &["unset", "chdir", "split-string"],
    ..NONE
};

const XARGS: Options = Options {
    flags: "0oprtx",
    valued: "adEILnPs",
    optional: "eil",
    long_flags: &[
        "null",
        "open-tty",
        "interactive",
        "no-run-if-empty",
        "verbose",
        "exit",
        "show-limits",
        "eof",
        "replace",
        "max-lines",
    ],
    long_valued: &[
        "arg-file",
        "delimiter",
        "max-args",
        "max-procs",
        "max-chars",
        "process-slot-var",
    ],
};

/// `name`'s options read by `table`. One the table does not know: strictly, the command
/// cannot be followed; tolerantly, every word that starts with `-` is taken for a flag.
fn options(
    table: &Options,
    argv: &[String],
    from: usize,
    name: &str,
    lax: &mut Lax,
) -> Result<Read, String> {
    match table.read(argv, from) {
        Ok(read) => Ok(read),
        Err(why) => {
            let why = format!("`{name}`: {why}, so what it runs cannot be told");
            lax.give_up(why.clone())?;
            lax.hidden.push(why);
            let next = (from..argv.len())
                .find(|&i| !argv[i].starts_with('-'))
                .unwrap_or(argv.len());
            Ok(Read {
                next,
                given: Vec::new(),
            })
        }
    }
}

/// `nice -5` and `nice --10`: the adjustment as an option of its own (the old form).
fn is_legacy_nice(a: &str) -> bool {
    let digits = a.trim_start_matches('-');
    a.starts_with('-') && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `env`: where the command starts after its options, its assignments joining the command's
/// (`s.assignments`). `None` when the answer is `s` itself: plain `env` (it prints the
/// environment), or `env -S` (its string is read on its own when tolerant). What it takes out
/// of the environment (`-i`, `-u NAME`) counts as set: goclaw's own settings for git are
/// variables a command could remove that way.
fn skip_env(s: &mut Simple, lax: &mut Lax) -> Result<Option<usize>, String> {
    let mut from = 1;
    while s.argv.get(from).is_some_and(|a| a == "-") {
        s.assignments.push(CLEARED.into());
        from += 1;
    }
    let read = options(&ENV, &s.argv, from, "env", lax)?;
    let mut moves = false;
    for (option, value) in &read.given {
        match option.as_str() {
            "-C" | "--chdir" => moves = true,
            "-i" | "--ignore-environment" => s.assignments.push(CLEARED.into()),
            "-u" | "--unset" => s
                .assignments
                .push(format!("{}=", value.as_deref().unwrap_or(""))),
            "-S" | "--split-string" => {
                lax.give_up("`env -S` splits a string into a command; not followed")?;
                let mut code: Vec<String> = value.iter().cloned().collect();
                code.extend(s.argv[read.next..].iter().cloned());
                lax.inner.push(code.join(" "));
                return Ok(None);
            }
            _ => {}
        }
    }
    let mut i = read.next;
    while i < s.argv.len() && is_assignment(&s.argv[i]) {
        s.assignments.push(s.argv[i].clone());
        i += 1;
    }
    if i >= s.argv.len() {
        return Ok(None); // plain `env`: prints the environment
    }
    if moves {
        runs_elsewhere(&s.argv[i], Moves::Dir, "env --chdir", lax)?;
    }
    Ok(Some(i))
}

/// A program that a wrapper runs from another directory (`env -C DIR ./prog`, `sudo -D DIR
/// ./prog`: DIR's `./prog`) or under another root (`chroot DIR prog`: a file in DIR, whatever
/// its name) is not the file its name means where the command runs, which is the one an
/// approval or a deny entry was judged for (helper-38: an allowlisted `sub/prog` approved
/// `cd sub; env -C .. ./prog`). It cannot be judged: given up, and hidden when tolerant.
pub(super) fn runs_elsewhere(
    program: &str,
    moves: Moves,
    wrapper: &str,
    lax: &mut Lax,
) -> Result<(), String> {
    let why = match moves {
        Moves::Dir if program.contains('/') && !program.starts_with('/') => {
            format!("`{wrapper}` runs `{program}` from another directory")
        }
        Moves::Dir => return Ok(()),
        Moves::Root => format!("`{wrapper}` runs `{program}` under another root"),
    };
    lax.give_up(why.clone())?;
    lax.hidden.push(why);
    Ok(())
}

/// What `env -i` stands for among a command's assignments: every variable cleared, goclaw's
/// git settings (`GIT_CONFIG_COUNT`, see the exec sandbox's environment) among them.
const CLEARED: &str = "GIT_CONFIG_COUNT=";

/// `xargs`: where the command starts after its options, `None` when it names none (it runs
/// `echo`). Tolerantly, a dangerous program taking its arguments from the input is hidden.
fn skip_xargs(argv: &[String], lax: &mut Lax) -> Result<Option<usize>, String> {
    let read = options(&XARGS, argv, 1, "xargs", lax)?;
    let i = read.next;
    if i >= argv.len() {
        return Ok(None);
    }
    // The replacement string (`-I%`, `-i` for `{}`), which the input's words take the place of.
    let token = read
        .given
        .iter()
        .find_map(|(o, v)| match o.as_str() {
            "-I" => v.clone(),
            "-i" | "--replace" => Some(v.clone().unwrap_or_else(|| "{}".into())),
            _ => None,
        })
        .filter(|t| !t.is_empty());
    if lax.on && DANGEROUS_PROGRAMS.contains(&program_name(&argv[i])) {
        lax.hidden.push(format!(
            "`xargs {}` takes its arguments from its input",
            argv[i]
        ));
    }
    // `echo cmd | xargs nice`: a wrapper or carrier given no command by the words here runs
    // one made of the input; so does a program named by the replacement string
    // (`xargs -I% find . -exec % \;`), found once what xargs runs is unwrapped.
    if lax.on {
        let mut probe = Lax {
            on: true,
            ..Lax::default()
        };
        let run = Simple {
            argv: argv[i..].to_vec(),
            ..Simple::default()
        };
        let unwrapped = unwrap(run, 1, &mut probe).unwrap_or_default();
        // A lone wrapper left: it had no command of its own.
        let lone_wrapper = match unwrapped.as_slice() {
            [only] => only
                .argv
                .first()
                .is_some_and(|p| runs_a_command(program_name(p))),
            _ => false,
        };
        let named_by_token = token.as_deref().is_some_and(|t| {
            unwrapped
                .iter()
                .any(|s| s.argv.first().is_some_and(|p| p.contains(t)))
        });
        if lone_wrapper || named_by_token {
            lax.hidden.push(format!(
                "`xargs {}` runs a command made of its input",
                argv[i..].join(" ")
            ));
        }
    }
    // `xargs -I{} sh -c {}`: a script made of its input.
    if lax.on
        && let Some(token) = token
        && argv[i + 1..].iter().any(|a| a.contains(token.as_str()))
        && SCRIPT_RUNNERS.contains(&program_name(&argv[i]))
    {
        lax.hidden.push(format!(
            "`xargs {}` runs a script made of its input",
            argv[i]
        ));
    }
    Ok(Some(i))
}

/// Whether `name` is a wrapper or carrier of the tables here and in `specs`: given no command
/// of its own, it runs one xargs makes of its input.
fn runs_a_command(name: &str) -> bool {
    matches!(
        name,
        "env" | "nice" | "timeout" | "command" | "builtin" | "xargs" | "watch"
    ) || WRAPPERS.iter().any(|(n, _)| *n == name)
        || super::specs::SPECS.iter().any(|s| s.names.contains(&name))
}

/// Programs that run a script given as an argument.
const SCRIPT_RUNNERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "ash", "busybox", "python", "python3", "perl", "ruby",
    "node", "php", "awk", "gawk", "sed", "eval",
];

/// A shell (`name`): `sh -c STRING`, with -c possibly combined (`-lc`, `-ec`), runs the commands
/// of the string (tolerantly, read on its own); otherwise it runs a script file, or reads its
/// commands from standard input.
fn shell_c(s: Simple, name: &str, lax: &mut Lax) -> Result<Vec<Simple>, String> {
    // A shell reads every option before its first operand, `-c` among them, in clusters, with
    // `-` or `+` (`+x`, `+O extglob`); `-o`/`-O` and `--rcfile`/`--init-file` take the next
    // word. With `-c` its first operand is the script (`bash -O extglob -c CMD`, `sh -c -x
    // CMD`, `bash -c -- CMD`).
    let mut i = 1;
    let mut dash_c = false;
    while let Some(a) = s.argv.get(i) {
        i += 1;
        if a == "--" || a == "-" {
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            if matches!(long, "rcfile" | "init-file") {
                i += 1;
            }
            continue;
        }
        let Some(cluster) = a.strip_prefix(['-', '+']).filter(|c| !c.is_empty()) else {
            i -= 1;
            break;
        };
        dash_c |= a.starts_with('-') && cluster.contains('c');
        i += cluster.chars().filter(|c| matches!(c, 'o' | 'O')).count();
    }
    let script = dash_c.then(|| s.argv.get(i).cloned()).flatten();
    if dash_c && lax.on && s.expanded.contains(&i) {
        lax.hidden
            .push(format!("the script of `{name} -c` comes from an expansion"));
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
        None if !dash_c && s.argv.len() > i => Ok(vec![s]), // runs a script file: the shell is the program
        None => {
            let why = format!("`{name}` reading commands from standard input is not followed");
            lax.give_up(why.clone())?;
            lax.hidden
                .push(format!("{why} (what it runs cannot be seen)"));
            Ok(vec![s])
        }
    }
}
