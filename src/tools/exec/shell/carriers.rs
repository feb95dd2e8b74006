//! Carriers: programs that run a command carried in their arguments and go on being programs
//! of their own (`find . -exec CMD ;`, `flock FILE CMD`, `sudo CMD`, `git -c core.pager=CMD`,
//! `tar --to-command=CMD`). Unlike a wrapper, a carrier is kept as a command (approving `find .`
//! must not approve what `-exec` runs, and its own flags are judged), and what it carries is read
//! as commands beside it: approved, denied and checked by the deny groups as if written on
//! their own. Code that the reader cannot follow exactly (awk's `system()`, sed's `e`, `make
//! --eval`, `parallel`) makes the command opaque: never approved automatically, and in `allow`
//! mode asked about, as a hidden program is.

use super::code;
use super::views::Lax;
use super::wrappers::unwrap;
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
    }
}

/// Carriers whose options come first, then `operands` words, then the command: each with the
/// options that take the next word as their value, and those whose value is a shell script.
struct Spec {
    names: &'static [&'static str],
    valued: &'static [&'static str],
    script: &'static [&'static str],
    operands: usize,
}

const SPECS: &[Spec] = &[
    Spec {
        names: &["flock"],
        valued: &["-w", "--timeout", "-E", "--conflict-exit-code"],
        script: &["-c", "--command"],
        operands: 1,
    },
    Spec {
        names: &["chroot"],
        valued: &["--userspec", "--groups"],
        script: &[],
        operands: 1,
    },
    Spec {
        names: &["ionice"],
        valued: &[
            "-c",
            "--class",
            "-n",
            "--classdata",
            "-p",
            "--pid",
            "-P",
            "--pgid",
            "-u",
        ],
        script: &[],
        operands: 0,
    },
    Spec {
        names: &["taskset"],
        valued: &[],
        script: &[],
        operands: 1,
    },
    Spec {
        names: &["chrt"],
        valued: &[
            "-T",
            "--sched-runtime",
            "-P",
            "--sched-period",
            "-D",
            "--sched-deadline",
        ],
        script: &[],
        operands: 1,
    },
    Spec {
        names: &["setarch", "linux32", "linux64"],
        valued: &[],
        script: &[],
        operands: 0,
    },
    Spec {
        names: &["sudo", "doas"],
        valued: &[
            "-u",
            "--user",
            "-g",
            "--group",
            "-C",
            "--close-from",
            "-D",
            "--chdir",
            "-h",
            "--host",
            "-p",
            "--prompt",
            "-r",
            "--role",
            "-t",
            "--type",
            "-U",
            "--other-user",
            "-T",
            "--command-timeout",
            "-R",
            "--chroot",
        ],
        script: &[],
        operands: 0,
    },
    Spec {
        names: &["su", "runuser", "sg"],
        valued: &[
            "-g",
            "--group",
            "-G",
            "--supp-group",
            "-s",
            "--shell",
            "-u",
            "--user",
            "-w",
        ],
        script: &["-c", "--command", "-C", "--session-command"],
        operands: usize::MAX,
    },
    Spec {
        names: &["script"],
        valued: &[
            "-E",
            "--echo",
            "-I",
            "--log-in",
            "-O",
            "--log-out",
            "-B",
            "--log-io",
            "-T",
            "--log-timing",
            "-m",
            "--logging-format",
        ],
        script: &["-c", "--command"],
        operands: usize::MAX,
    },
    Spec {
        names: &["strace", "ltrace"],
        valued: &[
            "-e", "-o", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X", "-n",
            "-A", "-D", "-l", "-x", "-L",
        ],
        script: &[],
        operands: 0,
    },
    Spec {
        names: &["systemd-run"],
        valued: &[
            "-u",
            "--unit",
            "-p",
            "--property",
            "-E",
            "--setenv",
            "--uid",
            "--gid",
            "--nice",
            "-M",
            "--machine",
            "-H",
            "--host",
            "--description",
            "--slice",
            "--working-directory",
            "--on-calendar",
            "--on-active",
        ],
        script: &[],
        operands: 0,
    },
    Spec {
        names: &["sshpass"],
        valued: &["-p", "-f", "-d", "-P"],
        script: &[],
        operands: 0,
    },
    Spec {
        names: &["xvfb-run"],
        valued: &[
            "-n",
            "--server-num",
            "-s",
            "--server-args",
            "-f",
            "--auth-file",
            "-e",
            "--error-file",
            "-p",
            "--xauth-protocol",
        ],
        script: &[],
        operands: 0,
    },
    Spec {
        names: &["faketime"],
        valued: &["-m", "-p"],
        script: &[],
        operands: 1,
    },
    Spec {
        names: &[
            "nsenter",
            "unshare",
            "setpriv",
            "prlimit",
            "unbuffer",
            "catchsegv",
            "dbus-run-session",
            "valgrind",
            "firejail",
            "numactl",
            "torsocks",
            "proxychains",
            "proxychains4",
            "entr",
            "tsp",
            "sem",
            "fakeroot",
            "proot",
            "busybox",
            "cpulimit",
            "chpst",
            "run-one",
            "timelimit",
            "daemonize",
            "start-stop-daemon",
            "pkexec",
        ],
        valued: &[
            "-t", "--target", "-S", "-G", "-l", "-e", "-f", "-u", "-m", "-C",
        ],
        script: &[],
        operands: 0,
    },
];

/// What `argv` (program `name`) carries.
fn carried(name: &str, argv: &[String]) -> Carried {
    match name {
        "find" => find(argv),
        "watch" => watch(argv),
        "git" => git(argv),
        "tar" | "bsdtar" => valued_scripts(
            argv,
            &[
                "--to-command",
                "--use-compress-program",
                "-I",
                "--info-script",
                "-F",
                "--new-volume-script",
                "--rsh-command",
                "--rmt-command",
            ],
            |a| {
                a.strip_prefix("--checkpoint-action=exec=")
                    .map(str::to_string)
            },
        ),
        "ssh" | "scp" | "sftp" => ssh(argv),
        "rsync" => valued_scripts(argv, &["-e", "--rsh"], |_| None),
        "man" => valued_scripts(argv, &["-P", "--pager"], |_| None),
        "make" | "gmake" => opaque(code::make(argv)),
        "awk" | "gawk" | "mawk" | "nawk" => opaque(code::awk(argv)),
        "sed" | "gsed" => opaque(code::sed(argv)),
        "vi" | "vim" | "nvim" | "ex" | "view" | "vimdiff" => opaque(code::vim(argv)),
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
    let mut i = 1;
    let mut operands = 0;
    while i < argv.len() {
        let a = argv[i].as_str();
        if a == "--" {
            i += 1;
            break;
        }
        if let Some(script) = option_value(argv, i, spec.script) {
            out.scripts.push(script.0);
            i = script.1;
            continue;
        }
        if a.starts_with('-') && a.len() > 1 {
            i += if spec.valued.contains(&a) { 2 } else { 1 };
            continue;
        }
        if operands < spec.operands {
            operands += 1;
            i += 1;
            continue;
        }
        break;
    }
    if spec.operands == usize::MAX {
        // Its words are operands (a user, a log file): only its scripts run.
        if out.scripts.is_empty() && matches!(name, "su" | "runuser" | "sg" | "script") {
            out.opaque = Some(format!(
                "`{name}` without -c runs a shell that reads its input"
            ));
        }
        return out;
    }
    if i < argv.len() {
        out.words.push((i, argv.len()));
    } else if out.scripts.is_empty() && matches!(name, "sudo" | "chroot" | "unshare" | "nsenter") {
        out.opaque = Some(format!("`{name}` without a command runs a shell"));
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

/// A program whose options in `names` (and what `other` picks out of a word) are scripts.
fn valued_scripts(
    argv: &[String],
    names: &[&str],
    other: impl Fn(&str) -> Option<String>,
) -> Carried {
    let mut out = Carried::default();
    let mut i = 1;
    while i < argv.len() {
        if let Some(other) = other(&argv[i]) {
            out.scripts.push(other);
        }
        match option_value(argv, i, names) {
            Some((script, next)) => {
                out.scripts.push(script);
                i = next;
            }
            None => i += 1,
        }
    }
    out
}

/// `find`: each `-exec`, `-execdir`, `-ok` and `-okdir` runs the words up to `;` or `+`.
fn find(argv: &[String]) -> Carried {
    let mut out = Carried::default();
    let mut i = 1;
    while i < argv.len() {
        if matches!(argv[i].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let from = i + 1;
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

/// `watch`: its words, joined, are a script (`-x`: a command).
fn watch(argv: &[String]) -> Carried {
    let mut out = Carried::default();
    let mut i = 1;
    let mut exec = false;
    while i < argv.len() && argv[i].starts_with('-') {
        let a = argv[i].as_str();
        exec |= a == "-x" || a == "--exec";
        i += if matches!(a, "-n" | "--interval" | "-q" | "--equexit") {
            2
        } else {
            1
        };
    }
    if i < argv.len() {
        if exec {
            out.words.push((i, argv.len()));
        } else {
            out.scripts.push(argv[i..].join(" "));
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
        if key == "core.hookspath" || key.starts_with("protocol.") || key == "include.path" {
            out.opaque = Some(format!("`git -c {key}` runs what another place holds"));
        } else if key.starts_with("alias.") {
            if let Some(script) = value.strip_prefix('!') {
                out.scripts.push(script.to_string());
            }
        } else if GIT_RUNS.contains(&last)
            && !(last == "fsmonitor" && is_git_boolean(value))
            && !value.is_empty()
        {
            out.scripts
                .push(value.strip_prefix('!').unwrap_or(value).to_string());
        }
    }
    out
}

fn is_git_boolean(value: &str) -> bool {
    matches!(
        value.to_ascii_lowercase().as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0" | ""
    )
}

/// `ssh`, `scp`, `sftp`: `-o ProxyCommand=…` and its kin run on this machine.
fn ssh(argv: &[String]) -> Carried {
    let mut out = Carried::default();
    let mut i = 1;
    while i < argv.len() {
        let option = match argv[i].as_str() {
            "-o" => {
                i += 1;
                argv.get(i).cloned()
            }
            a => a.strip_prefix("-o").map(str::to_string),
        };
        i += 1;
        let Some(option) = option else { continue };
        let (key, value) = match option.split_once(['=', ' ']) {
            Some((k, v)) => (k.trim().to_ascii_lowercase(), v.trim().to_string()),
            None => continue,
        };
        if matches!(
            key.as_str(),
            "proxycommand" | "localcommand" | "knownhostscommand"
        ) {
            out.scripts.push(value);
        }
    }
    out
}
