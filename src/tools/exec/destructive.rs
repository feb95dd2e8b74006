//! Which commands destroy data (seed 004's `destructive` level), for `[tools] ask_risk`: a
//! command is destructive when one of the simple commands it runs deletes, overwrites or
//! discards files or history (`rm`, `dd`, `mv`, `find -delete`, `git reset --hard`, …), or when
//! the shell reader cannot follow it ([`super::shell::Parsed::Opaque`]): what it runs cannot
//! be ruled out. Wrappers (`env`, `sudo`-less `nice`, `xargs`, `sh -c`) are unwrapped first.

use super::shell::{self, Parsed, Simple};

/// Programs whose every use deletes or overwrites data.
const PROGRAMS: &[&str] = &[
    "rm", "rmdir", "unlink", "shred", "srm", "truncate", "dd", "wipefs", "mke2fs", "fdisk",
    "sfdisk", "parted", "mv",
];

/// Programs that run the command in their arguments and that the shell reader does not
/// unwrap: their arguments are judged as commands of their own.
const WRAPPERS: &[&str] = &[
    "ionice",
    "chrt",
    "flock",
    "taskset",
    "numactl",
    "watch",
    "unbuffer",
    "script",
    "parallel",
    "busybox",
    "sudo",
    "doas",
    "su",
    "runuser",
    "chroot",
    "unshare",
    "nsenter",
    "firejail",
    "systemd-run",
    "strace",
    "ltrace",
    "catchsegv",
    "tsp",
    "sem",
    "fakeroot",
    "proot",
];

/// Why `command` is destructive, or `None` when it is not.
pub fn reason(command: &str) -> Option<String> {
    match shell::parse(command) {
        Parsed::Opaque(why) => Some(format!("what it runs cannot be known ({why})")),
        Parsed::Commands(list) => list.iter().find_map(simple),
    }
}

fn base(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

fn destroys(name: &str) -> bool {
    PROGRAMS.contains(&name) || name.starts_with("mkfs")
}

fn simple(c: &Simple) -> Option<String> {
    let program = c.argv.first()?;
    let name = base(program);
    let args = &c.argv[1..];
    let has = |flags: &[&str]| args.iter().any(|a| flags.contains(&a.as_str()));
    // A wrapper's arguments hold a command: a destructive program among them, or a script.
    let wrapped = WRAPPERS.contains(&name)
        && args
            .iter()
            .any(|a| destroys(base(a)) || (a.contains(char::is_whitespace) && reason(a).is_some()));
    // find -exec rm {} +, -execdir, -ok, -okdir.
    let find_runs = name == "find"
        && args.windows(2).any(|w| {
            ["-exec", "-execdir", "-ok", "-okdir"].contains(&w[0].as_str()) && destroys(base(&w[1]))
        });
    let destructive = destroys(name)
        || wrapped
        || find_runs
        || (name == "find" && has(&["-delete"]))
        || (name == "rsync"
            && args
                .iter()
                .any(|a| a.starts_with("--delete") || a == "--remove-source-files"))
        || (name == "git" && git(args));
    destructive.then(|| format!("`{}` destroys data", c.argv.join(" ")))
}

/// A short-option cluster (`-fu`) that holds `flag`.
fn cluster_has(arg: &str, flag: char) -> bool {
    arg.len() > 1 && arg.starts_with('-') && !arg.starts_with("--") && arg[1..].contains(flag)
}

/// `git` subcommands that discard work or history.
fn git(args: &[String]) -> bool {
    // Global options before the subcommand (`-C DIR`, `-c K=V`, `--git-dir=…`).
    let mut rest = args.iter().map(String::as_str);
    let sub = loop {
        match rest.next() {
            // Global options whose value is the next word.
            Some(
                "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--config-env"
                | "--super-prefix" | "--exec-path",
            ) => {
                rest.next();
            }
            Some(a) if a.starts_with('-') => {}
            other => break other,
        }
    };
    let rest: Vec<&str> = rest.collect();
    let has = |f: &[&str]| rest.iter().any(|a| f.contains(a));
    let cluster = |flag: char| rest.iter().any(|a| cluster_has(a, flag));
    match sub {
        Some("reset") => has(&["--hard", "--merge", "--keep"]),
        Some("clean") | Some("restore") => true,
        Some("push") => {
            has(&["--force", "--delete", "--mirror", "--prune"])
                || cluster('f')
                || cluster('d')
                || rest.iter().any(|a| {
                    a.starts_with("--force-with-lease")
                        || a.starts_with("--force-if-includes")
                        || a.starts_with('+')
                        || (a.starts_with(':') && a.len() > 1)
                })
        }
        Some("branch") => {
            cluster('D')
                || ((has(&["--delete"]) || cluster('d')) && (has(&["--force"]) || cluster('f')))
        }
        Some("stash") => has(&["drop", "clear"]),
        Some("checkout") => has(&["--", ".", "--force"]) || cluster('f'),
        Some("switch") => has(&["--force", "--discard-changes"]) || cluster('f'),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_destroys_data_and_what_does_not() {
        for c in [
            "rm -rf build",
            "cd src && /bin/rm x",
            "env FOO=1 rm x",
            "nice -n 5 shred secret",
            "find . -name '*.o' -delete",
            "git reset --hard HEAD~1",
            "git -C repo clean -fdx",
            "git push --force origin main",
            "git push origin +main",
            "git push --force-with-lease",
            "git branch -D topic",
            "git stash drop",
            "mv a b",
            "dd if=/dev/zero of=disk.img",
            "mkfs.ext4 /dev/sdz",
            "rsync -a --delete src/ dst/",
            "sh -c 'rm x'",
            "ls | xargs rm",
            "echo $(rm x)",
            "ionice -c3 rm -rf build",
            "flock /tmp/l rm x",
            "script -qc 'rm x' /dev/null",
            "busybox rm x",
            "find . -name '*.o' -exec rm {} +",
            "find . -execdir /bin/rm {} ;",
            "git --work-tree . reset --hard",
            "git --git-dir .git clean -fdx",
            "git push -fu origin main",
            "git push origin :main",
            "git push --force-if-includes",
            "git branch -df topic",
            "git switch -f main",
            "rsync -a --remove-source-files src/ dst/",
        ] {
            assert!(reason(c).is_some(), "{c}");
        }
        for c in [
            "ls -la",
            "git status",
            "git push origin main",
            "git branch -d merged",
            "cargo build",
            "find . -name '*.rs'",
            "echo rm",
            "grep -r rm .",
            "ionice -c3 make",
            "find . -exec cat {} ;",
            "git push -u origin main",
            "git switch main",
        ] {
            assert_eq!(reason(c), None, "{c}");
        }
    }
}
