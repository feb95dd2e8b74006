//! The carriers whose options come first, then fixed operands, then the command they run (or a
//! script given to an option): each with its options as its own getopt reads them. A carrier
//! without a table of its own here (`nsenter`, `unshare`, `valgrind`, …) is followed only when
//! it is given no option: with one, what it runs cannot be told for sure.

use super::options::Options;

pub(super) struct Spec {
    pub names: &'static [&'static str],
    pub options: Options,
    /// Options whose value is a shell script (`-c CMD`).
    pub script: &'static [&'static str],
    /// Operands before the command (`flock FILE`, `chroot DIR`, `taskset MASK`); `usize::MAX`:
    /// every word is an operand, and only its scripts run (`su USER -c CMD`).
    pub operands: usize,
    /// Options after which it runs no command (`taskset -p`, `sudo -e`).
    pub no_command: &'static [&'static str],
    /// Without a command it runs a shell that reads its input (`sudo -s`, `su`, `chroot DIR`).
    pub shell_without_command: bool,
    /// Options that run the command somewhere else (`sudo -D DIR`, `sudo -R DIR`).
    pub moving: &'static [(&'static str, Moves)],
    /// Its operand is the command's new root (`chroot DIR`).
    pub operand_is_root: bool,
}

/// Where a carrier runs its command when not where it was started: the names a program is
/// known by there mean other files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Moves {
    /// From another directory: a relative path names another file.
    Dir,
    /// Under another root: every name does.
    Root,
}

impl Spec {
    /// Where the options `given` move the command (the farthest, when several do).
    pub(super) fn moves(&self, given: &[(String, Option<String>)]) -> Option<Moves> {
        let by_option = given.iter().filter_map(|(o, _)| {
            self.moving
                .iter()
                .find(|(m, _)| m == o)
                .map(|&(_, moves)| moves)
        });
        let by_operand = self.operand_is_root.then_some(Moves::Root);
        by_option.chain(by_operand).max()
    }
}

const NONE: Options = Options::NONE;

const fn spec(names: &'static [&'static str], options: Options) -> Spec {
    Spec {
        names,
        options,
        script: &[],
        operands: 0,
        no_command: &[],
        shell_without_command: false,
        moving: &[],
        operand_is_root: false,
    }
}

/// A carrier without a table of its own: followed only when given no option.
pub(super) const NO_TABLE: Spec = spec(&[], NONE);

pub(super) const SPECS: &[Spec] = &[
    Spec {
        script: &["-c", "--command"],
        operands: 1,
        ..spec(
            &["flock"],
            Options {
                flags: "sexunoFhV",
                valued: "wEc",
                long_flags: &[
                    "shared",
                    "exclusive",
                    "unlock",
                    "nonblock",
                    "close",
                    "no-fork",
                    "verbose",
                ],
                long_valued: &["timeout", "conflict-exit-code", "command"],
                ..NONE
            },
        )
    },
    Spec {
        operands: 1,
        shell_without_command: true,
        operand_is_root: true,
        ..spec(
            &["chroot"],
            Options {
                long_flags: &["skip-chdir"],
                long_valued: &["userspec", "groups"],
                ..NONE
            },
        )
    },
    Spec {
        no_command: &["-p", "--pid", "-P", "--pgid", "-u", "--uid"],
        ..spec(
            &["ionice"],
            Options {
                flags: "t",
                valued: "cnpPu",
                long_flags: &["ignore"],
                long_valued: &["class", "classdata", "pid", "pgid", "uid"],
                ..NONE
            },
        )
    },
    Spec {
        operands: 1,
        no_command: &["-p", "--pid"],
        ..spec(
            &["taskset"],
            Options {
                flags: "acp",
                long_flags: &["all-tasks", "cpu-list", "pid"],
                ..NONE
            },
        )
    },
    Spec {
        operands: 1,
        no_command: &["-p", "--pid", "-m", "--max"],
        ..spec(
            &["chrt"],
            Options {
                flags: "abdfiormRvp",
                valued: "TPD",
                long_flags: &[
                    "all-tasks",
                    "batch",
                    "deadline",
                    "fifo",
                    "idle",
                    "other",
                    "rr",
                    "max",
                    "reset-on-fork",
                    "verbose",
                    "pid",
                ],
                long_valued: &["sched-runtime", "sched-period", "sched-deadline"],
                ..NONE
            },
        )
    },
    spec(
        &["setarch", "linux32", "linux64", "i386", "x86_64"],
        Options {
            flags: "vRFZLXBISTl3",
            long_flags: &[
                "verbose",
                "addr-no-randomize",
                "fdpic-funcptrs",
                "mmap-page-zero",
                "addr-compat-layout",
                "read-implies-exec",
                "32bit",
                "short-inode",
                "whole-seconds",
                "sticky-timeouts",
                "3gb",
                "4gb",
                "uname-2.6",
                "list",
                "show",
            ],
            ..NONE
        },
    ),
    Spec {
        no_command: &[
            "-e",
            "--edit",
            "-l",
            "--list",
            "-v",
            "--validate",
            "-k",
            "-K",
        ],
        shell_without_command: true,
        moving: &[
            ("-D", Moves::Dir),
            ("--chdir", Moves::Dir),
            ("-R", Moves::Root),
            ("--chroot", Moves::Root),
        ],
        ..spec(
            &["sudo"],
            Options {
                flags: "AbEeHiKklnPSsVv",
                valued: "CDghpRrTtUu",
                long_flags: &[
                    "askpass",
                    "background",
                    "preserve-env",
                    "edit",
                    "set-home",
                    "login",
                    "remove-timestamp",
                    "reset-timestamp",
                    "list",
                    "non-interactive",
                    "preserve-groups",
                    "stdin",
                    "shell",
                    "validate",
                ],
                long_valued: &[
                    "close-from",
                    "chdir",
                    "group",
                    "host",
                    "prompt",
                    "chroot",
                    "role",
                    "command-timeout",
                    "type",
                    "other-user",
                    "user",
                ],
                ..NONE
            },
        )
    },
    Spec {
        shell_without_command: true,
        ..spec(
            &["doas"],
            Options {
                flags: "Lns",
                valued: "aCu",
                ..NONE
            },
        )
    },
    Spec {
        script: &["-c", "--command", "-C", "--session-command"],
        operands: usize::MAX,
        shell_without_command: true,
        ..spec(
            &["su", "runuser"],
            Options {
                flags: "lmpPfh",
                valued: "gGsuwcC",
                long_flags: &["login", "preserve-environment", "pty", "fast"],
                long_valued: &[
                    "group",
                    "supp-group",
                    "shell",
                    "user",
                    "whitelist-environment",
                    "command",
                    "session-command",
                ],
                ..NONE
            },
        )
    },
    Spec {
        script: &["-c", "--command"],
        operands: usize::MAX,
        shell_without_command: true,
        ..spec(
            &["script"],
            Options {
                flags: "aefqhV",
                valued: "cEIOBTm",
                optional: "t",
                long_flags: &["append", "return", "flush", "quiet", "force", "timing"],
                long_valued: &[
                    "command",
                    "echo",
                    "log-in",
                    "log-out",
                    "log-io",
                    "log-timing",
                    "logging-format",
                ],
            },
        )
    },
    Spec {
        no_command: &["-p", "--attach"],
        ..spec(
            &["strace"],
            Options {
                flags: "cCdDfFhiknNqrRtTvVwxyYzZ",
                valued: "abeEIoOpPsSuUX",
                optional: "",
                long_flags: &[
                    "follow-forks",
                    "output-separately",
                    "summary-only",
                    "summary",
                    "summary-wall-clock",
                    "verbose",
                    "quiet",
                    "no-abbrev",
                    "daemonize",
                    "relative-timestamps",
                    "absolute-timestamps",
                    "syscall-times",
                    "decode-fds",
                    "decode-pids",
                    "instruction-pointer",
                    "stack-trace",
                    "seccomp-bpf",
                    "kill-on-exit",
                    "successful-only",
                    "failed-only",
                    "timestamps",
                    "help",
                    "version",
                ],
                long_valued: &[
                    "output",
                    "trace",
                    "trace-path",
                    "signal",
                    "status",
                    "string-limit",
                    "attach",
                    "user",
                    "env",
                    "columns",
                    "abbrev",
                    "raw",
                    "read",
                    "write",
                    "inject",
                    "fault",
                    "summary-sort-by",
                    "summary-columns",
                    "const-print-style",
                    "argv0",
                ],
            },
        )
    },
    Spec {
        no_command: &["-p"],
        ..spec(
            &["ltrace"],
            Options {
                flags: "bcCfhiLrStTV",
                valued: "aAeDFlnopsuwx",
                ..NONE
            },
        )
    },
    spec(
        &["sshpass"],
        Options {
            flags: "ehv",
            valued: "pfdP",
            ..NONE
        },
    ),
    spec(
        &["xvfb-run"],
        Options {
            flags: "ahl",
            valued: "nsfep",
            long_flags: &["auto-servernum", "help", "listen-tcp"],
            long_valued: &[
                "server-num",
                "server-args",
                "auth-file",
                "error-file",
                "xauth-protocol",
            ],
            ..NONE
        },
    ),
    Spec {
        operands: 1,
        ..spec(&["faketime"], NONE)
    },
    // `logsave [-asv] LOGFILE CMD …`.
    Spec {
        operands: 1,
        ..spec(
            &["logsave"],
            Options {
                flags: "asv",
                ..NONE
            },
        )
    },
    // A package runner runs the program of the package it names (`npx whoami` is `whoami`
    // when installed); `-c`/`--call` run a script.
    Spec {
        script: &["-c", "--call"],
        ..spec(
            &["npx", "pnpx", "bunx"],
            Options {
                flags: "yq",
                valued: "pc",
                long_flags: &["yes", "no", "quiet", "ignore-existing"],
                long_valued: &["package", "call", "node-options", "shell"],
                ..NONE
            },
        )
    },
    // No table: followed only when given no option.
    spec(
        &[
            "busybox",
            "nsenter",
            "unshare",
            "setpriv",
            "prlimit",
            "unbuffer",
            "catchsegv",
            "dbus-run-session",
            "dbus-launch",
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
            "cpulimit",
            "chpst",
            "run-one",
            "timelimit",
            "daemonize",
            "start-stop-daemon",
            "pkexec",
            "systemd-run",
            "caffeinate",
            "ssh-agent",
            "systemd-inhibit",
            "runcon",
            "chronic",
            "ifne",
            "lckdo",
            "with-lock-ex",
            "flatpak-spawn",
            "bwrap",
            "newgrp",
        ],
        NONE,
    ),
];
