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

/// Why `command` is destructive, or `None` when it is not.
pub fn reason(command: &str) -> Option<String> {
    match shell::parse(command) {
        Parsed::Opaque(why) => Some(format!("what it runs cannot be known ({why})")),
        Parsed::Commands(list) => list.iter().find_map(simple),
    }
}

fn simple(c: &Simple) -> Option<String> {
    let program = c.argv.first()?;
    let name = program.rsplit('/').next().unwrap_or(program);
    let args = &c.argv[1..];
    let has = |flags: &[&str]| args.iter().any(|a| flags.contains(&a.as_str()));
    let destructive = PROGRAMS.contains(&name)
        || name.starts_with("mkfs")
        || (name == "find" && has(&["-delete"]))
        || (name == "rsync" && args.iter().any(|a| a.starts_with("--delete")))
        || (name == "git" && git(args));
    destructive.then(|| format!("`{}` destroys data", c.argv.join(" ")))
}

/// `git` subcommands that discard work or history.
fn git(args: &[String]) -> bool {
    // Global options before the subcommand (`-C DIR`, `-c K=V`, `--git-dir=…`).
    let mut rest = args.iter().map(String::as_str);
    let sub = loop {
        match rest.next() {
            Some("-C" | "-c") => {
                rest.next();
            }
            Some(a) if a.starts_with('-') => {}
            other => break other,
        }
    };
    let rest: Vec<&str> = rest.collect();
    let has = |f: &[&str]| rest.iter().any(|a| f.contains(a));
    match sub {
        Some("reset") => has(&["--hard", "--merge", "--keep"]),
        Some("clean") | Some("restore") => true,
        Some("push") => {
            has(&["-f", "--force", "--delete", "-d", "--mirror", "--prune"])
                || rest
                    .iter()
                    .any(|a| a.starts_with("--force-with-lease") || a.starts_with('+'))
        }
        Some("branch") => has(&["-D", "--delete", "-d"]) && has(&["-D", "--force", "-f"]),
        Some("stash") => has(&["drop", "clear"]),
        Some("checkout") => has(&["--", ".", "-f", "--force"]),
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
        ] {
            assert_eq!(reason(c), None, "{c}");
        }
    }
}
