//! Carriers: programs that run a command carried in their arguments and go on being programs
//! of their own (`find . -exec CMD ;`, `flock FILE CMD`, `sudo CMD`, `git -c core.pager=CMD`,
//! `tar --to-command=CMD`). Unlike a wrapper, a carrier is kept as a command (approving `find .`
//! must not approve what `-exec` runs, and its own flags are judged), and what it carries is read
//! as commands beside it: approved, denied and checked by the deny groups as if written on
//! their own. Code that the reader cannot follow exactly (awk's `system()`, sed's `e`, `make
//! --eval`, `parallel`) makes the command opaque: never approved automatically, and in `allow`
//! mode asked about, as a hidden program is.

use super::code;
use super::options::Options;
use super::specs::{Moves, SPECS, Spec};
use super::views::Lax;
use super::wrappers::{runs_elsewhere, unwrap};
use super::{Parsed, Simple, parse, program_name};

/// What a carrier runs besides itself.
#[derive(Debug, Default)]
struct Carried {
    /// Commands given as words: ranges of the carrier's `argv`.
    words: Vec<(usize, usize)>,
    /// Shell scripts it runs (`sh -c SCRIPT`).
    scripts: Vec<String>,
    /// Why what it runs cannot be followed.
    opaque: Option<String>,
    /// Where it runs them, when not where it was started.
    moved: Option<Moves>,
}

/// `s` and what it carries, each unwrapped; `s` alone when it carries nothing.
pub(super) fn unwrap_carried(
    s: Simple,
    depth: usize,
    lax: &mut Lax,
) -> Result<Vec<Simple>, String> {
    let name = program_name(s.argv.first().map_or("", String::as_str)).to_string();
    let carried = carried(&name, &s.argv);
    let mut out = Vec::new();
    if let Some(why) = carried.opaque {
        lax.give_up(why.clone())?;
        lax.hidden.push(why);
    }
    for (from, to) in carried.words {
        let inner = slice(&s, from, to);
        if inner.expanded.contains(&0) {
            let why = format!("the command run by `{name}` comes from an expansion");
            lax.give_up(why.clone())?;
            lax.hidden.push(why);
        }
        if let (Some(moves), Some(program)) = (carried.moved, inner.argv.first()) {
            runs_elsewhere(program, moves, &name, lax)?;
        }
        out.extend(unwrap(inner, depth + 1, lax)?);
    }
    for script in carried.scripts {
        if lax.on {
            lax.inner.push(script);
            continue;
        }
        match parse(&script) {
            Parsed::Commands(v) => out.extend(v),
            Parsed::Opaque(r) => return Err(format!("in what `{name}` runs: {r}")),
        }
    }
    out.insert(0, s);
    Ok(out)
}

/// `s`'s words `from..to` as a command of their own (its expansions renumbered).
fn slice(s: &Simple, from: usize, to: usize) -> Simple {
    Simple {
        argv: s.argv[from..to].to_vec(),
        assignments: Vec::new(),
        redirects: Vec::new(),
        expanded: s
            .expanded
            .iter()
            .filter(|&&i| i >= from && i < to)
            .map(|i| i - from)
            .collect(),
        ..Simple::default()
    }
}

/// What `argv` (program `name`) carries.
fn carried(name: &str, argv: &[String]) -> Carried {
    match name {
        "find" => find(argv),
        "perf" => perf(argv),
        "gdb" | "lldb" | "cgdb" => opaque(Some(format!("`{name}` runs what it is told"))),
        _ if name.starts_with("ld-linux") || name.starts_with("ld.so") || name == "ld64.so.2" => {
            // The dynamic loader runs the program it is given.
            by_spec(&super::specs::NO_TABLE, name, argv)
        }
        "watch" => watch(argv),
        "git" => git(argv),
        "tar" | "bsdtar" => tar(argv),
        "ssh" | "scp" | "sftp" => ssh(name, argv),
        "rsync" => scripts_of(
            &option_values(argv, "eBfMT@", &["rsh"], false),
            &["-e", "--rsh"],
        ),
        "man" => scripts_of(
            &option_values(argv, "CMPLmSeRprEH", &["pager", "html"], false),
            &["-P", "--pager", "-H", "--html"],
        ),
        "make" | "gmake" => opaque(code::make(argv)),
        "zip" => Carried {
            // `-TT CMD` tests the archive with a command of its choice.
            scripts: argv
                .windows(2)
                .filter(|w| w[0] == "-TT" || w[0] == "--unzip-command")
                .map(|w| w[1].clone())
                .chain(
                    argv.iter()
                        .filter_map(|a| a.strip_prefix("--unzip-command=").map(str::to_string)),
                )
                .collect(),
            ..Carried::default()
        },
        "sqlite3" | "psql" | "mysql" | "mariadb" => opaque(
            argv[1..]
                .iter()
                .any(|a| {
                    a.contains(".shell")
                        || a.contains(".system")
                        || a.contains("\\!")
                        || a.contains("system ")
                })
                .then(|| format!("`{name}` given a command that runs a program")),
        ),
        "awk" | "gawk" | "mawk" | "nawk" => opaque(code::awk(argv)),
        "sed" | "gsed" => opaque(code::sed(argv)),
        "vi" | "vim" | "nvim" | "ex" | "view" | "vimdiff" => opaque(code::vim(argv)),
        "run-parts" => opaque(Some("`run-parts` runs the programs of a directory".into())),
        "tmux" | "screen" | "byobu" => opaque(Some(format!(
            "`{name}` runs the commands it is given in a terminal of its own"
        ))),
        "parallel" | "rush" => Carried {
            opaque: Some(format!(
                "`{name}` runs commands it builds from its arguments and input"
            )),
            ..Carried::default()
        },
        _ => match SPECS.iter().find(|s| s.names.contains(&name)) {
            Some(spec) => by_spec(spec, name, argv),
            None => Carried::default(),
        },
    }
}

fn opaque(why: Option<String>) -> Carried {
    Carried {
        opaque: why,
        ..Carried::default()
    }
}

/// A carrier of [`SPECS`]: options, operands, then the command (or a `-c` script).
fn by_spec(spec: &Spec, name: &str, argv: &[String]) -> Carried {
    let mut out = Carried::default();
    // `setarch ARCH [options] [program]`: its architecture comes first.
    let from = if name == "setarch" && argv.get(1).is_some_and(|a| !a.starts_with('-')) {
        2
    } else {
        1
    };
    let read = match spec.options.read(argv, from) {
        Ok(read) => read,
        Err(why) => {
            return opaque(Some(format!(
                "`{name}`: {why}, so what it runs cannot be told"
            )));
        }
    };
    for (option, value) in &read.given {
        if spec.script.contains(&option.as_str())
            && let Some(script) = value
        {
            out.scripts.push(script.clone());
        }
        // strace's and ltrace's `-o |CMD` (or `!CMD`) pipe their output into a command.
        if matches!(option.as_str(), "-o" | "--output")
            && let Some(piped) = value.as_deref().and_then(|v| v.strip_prefix(['|', '!']))
        {
            out.scripts.push(piped.to_string());
        }
    }
    if read
        .given
        .iter()
        .any(|(o, _)| spec.no_command.contains(&o.as_str()))
    {
        return out;
    }
    out.moved = spec.moves(&read.given);
    let shell = || {
        Some(format!(
            "`{name}` without a command runs a shell that reads its input"
        ))
    };
    if spec.operands == usize::MAX {
        // Its words are operands (a user, a log file): only its scripts run.
        if out.scripts.is_empty() && spec.shell_without_command {
            out.opaque = shell();
        }
        return out;
    }
    let mut i = read.next.saturating_add(spec.operands);
    // `flock FILE -c CMD`: the script may follow the operand.
    if let Some((script, next)) = argv.get(i).and_then(|_| option_value(argv, i, spec.script)) {
        out.scripts.push(script);
        i = next;
    }
    if i < argv.len() {
        out.words.push((i, argv.len()));
    } else if out.scripts.is_empty() && spec.shell_without_command {
        out.opaque = shell();
    }
    out
}

/// The value of option `argv[i]` if it is one of `names` (`-c X`, `-cX`, `--command=X`,
/// `--command X`), and where the next word is.
pub(super) fn option_value(argv: &[String], i: usize, names: &[&str]) -> Option<(String, usize)> {
    let a = argv[i].as_str();
    for name in names {
        if a == *name {
            return argv.get(i + 1).map(|v| (v.clone(), i + 2));
        }
        if name.starts_with("--") {
            if let Some(v) = a.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
                return Some((v.to_string(), i + 1));
            }
        } else if let Some(v) = a.strip_prefix(name).filter(|v| !v.is_empty()) {
            return Some((v.to_string(), i + 1));
        } else if let Some(letter) = name.strip_prefix('-')
            && !a.starts_with("--")
            && a.len() > 2
            && a.ends_with(letter)
            && a[1..a.len() - 1].bytes().all(|b| b.is_ascii_alphabetic())
        {
            // A cluster of flags that ends with it (`-qc CMD`).
            return argv.get(i + 1).map(|v| (v.clone(), i + 2));
        }
    }
    None
}

/// Every option of `argv` with its value: short clusters letter by letter (a letter in
/// `valued` takes the rest of its cluster, or the next word), long options in `long_valued` by a
/// unique prefix too (GNU's abbreviations; the value after `=` or the next word), under their
/// full names. Other options are taken for flags; an operand ends the options when
/// `stop_at_operand` (ssh's remote command), else is passed over.
fn option_values(
    argv: &[String],
    valued: &str,
    long_valued: &[&str],
    stop_at_operand: bool,
) -> Vec<(String, String)> {
    option_values_from(argv, 1, valued, long_valued, stop_at_operand).0
}

/// [`option_values`] from `argv[from]`, and where it stopped (the operand it stopped at).
fn option_values_from(
    argv: &[String],
    from: usize,
    valued: &str,
    long_valued: &[&str],
    stop_at_operand: bool,
) -> (Vec<(String, String)>, usize) {
    let mut out = Vec::new();
    let mut i = from;
    while i < argv.len() {
        let a = argv[i].as_str();
        i += 1;
        if a == "--" {
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            let full = long_valued.iter().find(|l| **l == name).or_else(|| {
                long_valued
                    .iter()
                    .find(|l| name.len() >= 2 && l.starts_with(name))
            });
            if let Some(full) = full {
                let value = value.or_else(|| {
                    i += 1;
                    argv.get(i - 1).cloned()
                });
                out.extend(value.map(|v| (format!("--{full}"), v)));
            }
            continue;
        }
        let Some(cluster) = a.strip_prefix('-').filter(|c| !c.is_empty()) else {
            if stop_at_operand {
                return (out, i - 1);
            }
            continue;
        };
        for (k, c) in cluster.char_indices() {
            if valued.contains(c) {
                let rest = &cluster[k + c.len_utf8()..];
                let value = if rest.is_empty() {
                    i += 1;
                    argv.get(i - 1).cloned()
                } else {
                    Some(rest.to_string())
                };
                out.extend(value.map(|v| (format!("-{c}"), v)));
                break;
            }
        }
    }
    let end = i.min(argv.len());
    (out, end)
}

/// The values of `options` among `values`, as scripts.
fn scripts_of(values: &[(String, String)], options: &[&str]) -> Carried {
    Carried {
        scripts: values
            .iter()
            .filter(|(o, _)| options.contains(&o.as_str()))
            .map(|(_, v)| v.clone())
            .collect(),
        ..Carried::default()
    }
}

/// tar's options that run a command: `-I`/`--use-compress-program`, `--to-command`, `-F`/
/// `--info-script`, `--new-volume-script`, `--rsh-command`, `--rmt-command`, and
/// `--checkpoint-action=exec=…`; in the dashed form, clusters (`-cIid`), abbreviations and the
/// old form (`tar cIf id x.tar`: each letter's value is the next word, in order).
fn tar(argv: &[String]) -> Carried {
    const VALUED: &str = "bCfFgHIKLNTVX";
    let mut values = option_values(
        argv,
        VALUED,
        &[
            "to-command",
            "use-compress-program",
            "info-script",
            "new-volume-script",
            "rsh-command",
            "rmt-command",
            "checkpoint-action",
        ],
        false,
    );
    if let Some(old) = argv
        .get(1)
        .filter(|a| !a.starts_with('-') && a.bytes().all(|b| b.is_ascii_alphabetic()))
    {
        for (next, c) in (2..).zip(old.chars().filter(|c| VALUED.contains(*c))) {
            values.extend(argv.get(next).map(|v| (format!("-{c}"), v.clone())));
        }
    }
    let mut out = scripts_of(
        &values,
        &[
            "-I",
            "-F",
            "--to-command",
            "--use-compress-program",
            "--info-script",
            "--new-volume-script",
            "--rsh-command",
            "--rmt-command",
        ],
    );
    out.scripts.extend(
        values
            .iter()
            .filter(|(o, _)| o == "--checkpoint-action")
            .filter_map(|(_, v)| v.strip_prefix("exec=").map(str::to_string)),
    );
    out
}

/// `find`: each `-exec`, `-execdir`, `-ok` and `-okdir` runs the words up to `;` or `+`.
fn find(argv: &[String]) -> Carried {
    let mut out = Carried::default();
    let mut i = 1;
    while i < argv.len() {
        if matches!(argv[i].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let from = i + 1;
            // `find /usr/bin/r[m] -exec {} -rf d \;` runs what it finds.
            if argv.get(from).is_some_and(|p| p.contains("{}")) {
                return opaque(Some("`find` runs the files it finds as programs".into()));
            }
            match argv[from..].iter().position(|w| w == ";" || w == "+") {
                Some(n) => {
                    out.words.push((from, from + n));
                    i = from + n;
                }
                // Without its end find refuses to start: it runs nothing.
                None => break,
            }
        }
        i += 1;
    }
    out
}

/// `perf stat|record|trace|… CMD`: the command after the subcommand (with options it is not
/// followed: perf's are many).
fn perf(argv: &[String]) -> Carried {
    let runs = matches!(
        argv.get(1).map(String::as_str),
        Some(
            "stat"
                | "record"
                | "trace"
                | "mem"
                | "c2c"
                | "kmem"
                | "kvm"
                | "lock"
                | "sched"
                | "ftrace"
                | "timechart"
                | "top"
        )
    );
    match argv.get(2) {
        _ if !runs => Carried::default(),
        Some(a) if a.starts_with('-') => opaque(Some(format!(
            "`perf {}`: its options are not followed, so what it runs cannot be told",
            argv[1]
        ))),
        Some(_) => Carried {
            words: vec![(2, argv.len())],
            ..Carried::default()
        },
        None => Carried::default(),
    }
}

/// `watch`: its words, joined, are a script (`-x`: a command).
fn watch(argv: &[String]) -> Carried {
    const WATCH: Options = Options {
        flags: "bcCegprtwxhv",
        valued: "nq",
        optional: "d",
        long_flags: &[
            "beep",
            "color",
            "no-color",
            "differences",
            "errexit",
            "chgexit",
            "precise",
            "no-rerun",
            "no-title",
            "no-wrap",
            "exec",
            "help",
            "version",
        ],
        long_valued: &["interval", "equexit"],
    };
    let read = match WATCH.read(argv, 1) {
        Ok(read) => read,
        Err(why) => return opaque(Some(format!("`watch`: {why}"))),
    };
    let exec = read.given.iter().any(|(o, _)| o == "-x" || o == "--exec");
    let mut out = Carried::default();
    if read.next < argv.len() {
        if exec {
            out.words.push((read.next, argv.len()));
        } else {
            out.scripts.push(argv[read.next..].join(" "));
        }
    }
    out
}

/// Keys of git's configuration whose value git runs (by the shell), by their last part.
const GIT_RUNS: &[&str] = &[
    "pager",
    "sshcommand",
    "editor",
    "askpass",
    "fsmonitor",
    "alternaterefscommand",
    "external",
    "textconv",
    "command",
    "cmd",
    "clean",
    "smudge",
    "process",
    "driver",
    "helper",
    "program",
    "packobjectshook",
    "receivepack",
    "uploadpack",
    "gitproxy",
    "proxycommand",
    "defaultkeycommand",
    "sendmailcmd",
    "difffilter",
    "path",
];

/// `git`: `-c KEY=VALUE` of a key whose value it runs (`core.pager`, `alias.x=!…`, a filter's
/// `clean`), and options that point it at programs or hooks of another place.
fn git(argv: &[String]) -> Carried {
    let mut out = Carried::default();
    let mut i = 1;
    while i < argv.len() {
        let a = argv[i].as_str();
        let setting = match a {
            "-c" => {
                i += 1;
                argv.get(i).map(String::as_str)
            }
            "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix" => {
                i += 2;
                continue;
            }
            _ if a.starts_with("--exec-path=") || a.starts_with("--config-env") => {
                out.opaque = Some(format!(
                    "`git {a}` runs programs or settings from elsewhere"
                ));
                i += 1;
                continue;
            }
            _ if a.starts_with('-') => {
                i += 1;
                continue;
            }
            _ => break,
        };
        i += 1;
        let Some((key, value)) = setting.and_then(|s| s.split_once('=')) else {
            continue;
        };
        let key = key.to_ascii_lowercase();
        let last = key.rsplit('.').next().unwrap_or_default();
        let first = key.split('.').next().unwrap_or_default();
        if key == "core.hookspath" || matches!(first, "protocol" | "include" | "includeif" | "safe")
        {
            out.opaque = Some(format!(
                "`git -c {key}` runs or trusts what another place holds"
            ));
        } else if let Some(script) = value.strip_prefix('!') {
            // git's way to give a shell command as a value (aliases, submodule updates,
            // credential helpers).
            out.scripts.push(script.to_string());
        } else if (GIT_RUNS.contains(&last) || first == "pager")
            && !is_git_boolean(value)
            && first != "color"
            && first != "alias"
        {
            out.scripts.push(value.to_string());
        }
    }
    if let Some(sub) = argv.get(i..).filter(|sub| !sub.is_empty()) {
        let more = git_subcommand(sub);
        out.scripts.extend(more.scripts);
        out.words
            .extend(more.words.into_iter().map(|(a, b)| (a + i, b + i)));
        out.opaque = out.opaque.or(more.opaque);
    }
    out
}

/// What a git subcommand runs (`sub[0]` is its name): `rebase -x CMD`, `difftool -x CMD`,
/// `clone -u CMD` and the other transports' `--upload-pack`/`--receive-pack`/`--exec`, `bisect
/// run CMD…`, `submodule foreach CMD`, a `config` value git will run; `grep -O`
/// and `filter-branch` are not followed.
fn git_subcommand(sub: &[String]) -> Carried {
    let scripts = |valued: &str, long: &[&str], options: &[&str]| {
        scripts_of(&option_values(sub, valued, long, false), options)
    };
    match sub[0].as_str() {
        "rebase" => scripts("x", &["exec"], &["-x", "--exec"]),
        "difftool" => scripts("x", &["extcmd"], &["-x", "--extcmd"]),
        "clone" | "fetch" | "pull" | "push" | "ls-remote" | "archive" | "remote" => scripts(
            "u",
            &["upload-pack", "receive-pack", "exec"],
            &["-u", "--upload-pack", "--receive-pack", "--exec"],
        ),
        "bisect" if sub.get(1).is_some_and(|a| a == "run") => Carried {
            words: vec![(2, sub.len())],
            ..Carried::default()
        },
        "submodule" => match sub.iter().position(|a| a == "foreach") {
            Some(k) => {
                let from = k
                    + 1
                    + sub[k + 1..]
                        .iter()
                        .take_while(|a| a.starts_with('-'))
                        .count();
                Carried {
                    scripts: vec![sub[from.min(sub.len())..].join(" ")],
                    ..Carried::default()
                }
            }
            None => Carried::default(),
        },
        "grep"
            if sub
                .iter()
                .any(|a| a.starts_with("-O") || a.starts_with("--open-files")) =>
        {
            opaque(Some("`git grep -O` runs a pager it names".into()))
        }
        "filter-branch" => opaque(Some("`git filter-branch` runs its filters".into())),
        "config" => git_config(sub),
        _ => Carried::default(),
    }
}

/// `git config [set] KEY VALUE`: a value git will run, as `-c` would give it.
fn git_config(sub: &[String]) -> Carried {
    let mut operands: Vec<&str> = sub[1..]
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if operands.first() == Some(&"set") {
        operands.remove(0);
    }
    match operands.as_slice() {
        [key, value, ..] => git(&[
            "git".to_string(),
            "-c".to_string(),
            format!("{key}={value}"),
        ]),
        _ => Carried::default(),
    }
}

fn is_git_boolean(value: &str) -> bool {
    matches!(
        value.to_ascii_lowercase().as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0" | ""
    )
}

/// `ssh`, `scp`, `sftp`: `-o ProxyCommand=…` and its kin run on this machine, as do scp's and
/// sftp's `-S PROGRAM` and sftp's `-D PROGRAM`; a config file of the command's (`-F`) may hold
/// any of them.
fn ssh(name: &str, argv: &[String]) -> Carried {
    let valued = match name {
        "scp" => "cDFiJlOoPS",
        "sftp" => "BbcDFiJlOoPRSs",
        _ => "BbcDEeFIiJLlmOoPpQRSWw",
    };
    let mut out = Carried::default();
    // ssh reads its options again after the destination (`ssh host -o ProxyCommand=…`); what
    // follows them is the remote command.
    let (mut values, host) = option_values_from(argv, 1, valued, &[], true);
    if name == "ssh" && host < argv.len() {
        values.extend(option_values_from(argv, host + 1, valued, &[], true).0);
    }
    for (option, value) in values {
        match option.as_str() {
            "-o" => {
                let (key, value) = value
                    .trim()
                    .split_once(|c: char| c == '=' || c.is_whitespace())
                    .map(|(k, v)| {
                        (
                            k.to_ascii_lowercase(),
                            v.trim_start_matches(['=', ' ', '\t']),
                        )
                    })
                    .unwrap_or_default();
                if matches!(
                    key.as_str(),
                    "proxycommand" | "localcommand" | "knownhostscommand"
                ) {
                    out.scripts.push(value.to_string());
                }
            }
            "-F" => {
                out.opaque = Some(format!(
                    "`{name} -F`: a config file of its own may run commands"
                ))
            }
            "-S" if name != "ssh" => out.scripts.push(value),
            "-D" if name == "sftp" => out.scripts.push(value),
            _ => {}
        }
    }
    out
}
