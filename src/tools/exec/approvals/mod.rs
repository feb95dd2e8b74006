//! Exec approvals (reference §5, rebuilt): modes `allow | deny | ask`, and an allowlist kept in
//! the store. An entry is a program resolved to its absolute path plus an argument prefix,
//! allowed or denied. The decision is made on the parsed commands that will run: a chain is
//! approved only when every command in it is, so approving `git` never approves
//! `git status; curl … | sh`, a wrapper (`env`, `nice`, `timeout`, `bash -c`) is seen through,
//! and `./git` is not `/usr/bin/git`. Commands the parser cannot follow are never approved
//! automatically.

use std::path::{Path, PathBuf};

use crate::db_params;
use crate::error::{Error, Result};
use crate::store::db::Db;
use serde::Serialize;

use super::ApprovalMode;
use super::shell::{HARMLESS_BUILTINS, Parsed, Simple, Views};

/// One command of a subject, with its program resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Command {
    pub argv: Vec<String>,
    /// Absolute path, `builtin:NAME` for a harmless shell builtin, or `unresolved:NAME`.
    pub program: String,
    /// `NAME=value` set for it (before it, or through `env`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assignments: Vec<String>,
    /// Files it redirects to or from.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub redirects: Vec<String>,
}

/// Variables that change which program runs or what it loads: setting one makes a command
/// need approval whatever the allowlist says (`PATH=./evil:$PATH git status`,
/// `GIT_CONFIG_COUNT=1 … git status`). A trailing `*` is a prefix.
pub const DANGEROUS_VARIABLES: &[&str] = &[
    "PATH",
    "LD_*",
    "GIT_*",
    "HOME",
    "BASH_ENV",
    "ENV",
    "PYTHON*",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "SHELLOPTS",
    "BASHOPTS",
    "PS4",
    "PROMPT_COMMAND",
    "IFS",
    "CDPATH",
    "XDG_CONFIG_HOME",
    "CARGO_*",
    "RUSTC*",
    "RUSTFLAGS",
    "NPM_CONFIG_*",
    "npm_config_*",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "GIT_SSH_COMMAND",
    "SSH_ASKPASS",
    "DYLD_*",
    "MAKEFLAGS",
    "GOFLAGS",
    "TMPDIR",
    // Options or commands a program reads from its environment.
    "TAR_OPTIONS",
    "LESSOPEN",
    "LESSCLOSE",
    "LESS",
    "RSYNC_RSH",
    "MANOPT",
    "MANPAGER",
    "SHELL",
    "BROWSER",
    "SUDO_ASKPASS",
    "ZDOTDIR",
    "GCONV_PATH",
    "MAKEFILES",
    "AWKPATH",
    "PERL5DB",
    "GZIP",
    "XZ_OPT",
    "ZSTD_*",
    "BZIP2",
];

fn dangerous_variable(assignment: &str) -> bool {
    let name = assignment.split('=').next().unwrap_or_default();
    DANGEROUS_VARIABLES
        .iter()
        .any(|v| match v.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => name == *v,
        })
}

/// A path into a git directory's internals (config, hooks): writing there changes what later
/// approved `git` commands run.
fn touches_git_dir(word: &str) -> bool {
    let w = word.trim_end_matches('/');
    w == ".git" || w.ends_with("/.git") || w.contains(".git/")
}

/// Whether `argv` (a git command) writes configuration: `git … config` with a key and a value,
/// or an option that changes it (`--unset`, `--add`, `--replace-all`, `--edit`, `set`, `unset`).
fn git_config_write(argv: &[String]) -> bool {
    let Some(at) = argv.iter().position(|a| a == "config") else {
        return false;
    };
    let rest = &argv[at + 1..];
    let operands = rest.iter().filter(|a| !a.starts_with('-')).count();
    let reads = rest
        .iter()
        .any(|a| a.starts_with("--get") || matches!(a.as_str(), "--list" | "-l" | "get" | "list"));
    let writes = rest.iter().any(|a| {
        a.starts_with("--unset")
            || a.starts_with("--rename")
            || a.starts_with("--remove")
            || matches!(
                a.as_str(),
                "--add" | "--replace-all" | "--edit" | "-e" | "set" | "unset" | "edit"
            )
    });
    writes || (operands >= 2 && !reads)
}

/// Why the allowlist cannot approve this command, whatever its entries say.
fn never_auto_approved(c: &Command) -> Option<String> {
    if let Some(a) = c.assignments.iter().find(|a| dangerous_variable(a)) {
        let name = a.split('=').next().unwrap_or_default();
        return Some(format!(
            "`{}` sets {name}, which changes what runs",
            c.argv.join(" ")
        ));
    }
    if let Some(r) = c.redirects.iter().find(|r| r.as_str() != "/dev/null") {
        return Some(format!(
            "`{}` redirects to or from the file {r}",
            c.argv.join(" ")
        ));
    }
    // `git --git-dir=DIR`: a repository named otherwise than `.git`, whose config the file
    // tools do not guard (the exec sandbox's `safe.bareRepository` only stops finding one).
    // `git config KEY VALUE` writes the config later git commands obey (an alias, a pager).
    if c.program.rsplit('/').next() == Some("git") {
        if c.argv.iter().skip(1).any(|a| a.starts_with("--git-dir")) {
            return Some(format!(
                "`{}` names its repository's directory",
                c.argv.join(" ")
            ));
        }
        if git_config_write(&c.argv) {
            return Some(format!(
                "`{}` changes the configuration later git commands follow",
                c.argv.join(" ")
            ));
        }
    }
    if c.argv
        .iter()
        .skip(1)
        .chain(c.redirects.iter())
        .any(|w| touches_git_dir(w))
    {
        return Some(format!(
            "`{}` touches a .git directory (config, hooks)",
            c.argv.join(" ")
        ));
    }
    None
}

/// What an approval is asked about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Subject {
    pub command: String,
    pub commands: Vec<Command>,
    /// Why the parser could not follow the command, if it could not.
    pub opaque: Option<String>,
    /// The package-install pattern the command matched, if any: it always needs approval.
    pub package_install: Option<String>,
    /// Why a program the command runs cannot be known (a name from an expansion, a shell
    /// reading a pipe): it always needs approval, since no deny pattern can judge it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<String>,
    /// Asked because of the call's risk (`[tools] ask_risk`): the allowlist cannot settle it.
    #[serde(skip)]
    pub by_risk: bool,
    /// What the tolerant reading finds in the command (all the more when the parser could not
    /// follow it), checked against the deny entries too; its programs are resolved (against
    /// `cwd` and PATH) only when there is a deny entry.
    #[serde(skip)]
    pub tolerant: Vec<Simple>,
    /// Where the command runs.
    #[serde(skip)]
    pub cwd: PathBuf,
    /// Every directory a relative program of `tolerant` may run in (`cwd`, and where each
    /// literal `cd` may move); `None` when a `cd` goes where the reader cannot know.
    #[serde(skip)]
    pub maybe_dirs: Option<Vec<PathBuf>>,
}

impl Subject {
    /// The subject of a call of a tool other than `exec` (`[tools] ask_risk`): the tool and
    /// its arguments, no command; "always" allows it this once.
    pub fn call(tool: &str, args: &serde_json::Map<String, serde_json::Value>) -> Subject {
        let args = serde_json::Value::Object(args.clone()).to_string();
        Subject {
            command: format!("{tool} {}", crate::text::redact_then_cut(&args, &[], 300)),
            commands: Vec::new(),
            opaque: None,
            package_install: None,
            hidden: None,
            by_risk: true,
            tolerant: Vec::new(),
            cwd: PathBuf::new(),
            maybe_dirs: None,
        }
    }
}

/// A stored allowlist entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub id: i64,
    pub program: String,
    pub args: Vec<String>,
    pub decision: String,
    /// Unix milliseconds.
    pub created_at: i64,
    pub note: Option<String>,
}

/// The approval decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "decision", content = "reason", rename_all = "lowercase")]
pub enum Decision {
    Allow(String),
    Deny(String),
    Ask(String),
}

/// Builds the subject of a command already read, strictly (`parsed`) and tolerantly (`views`),
/// resolving programs against `cwd` and PATH.
pub fn subject(
    command: &str,
    parsed: &Parsed,
    views: &Views,
    cwd: &Path,
    package_install: Option<String>,
) -> Subject {
    let (commands, opaque) = match parsed {
        Parsed::Commands(list) => {
            // A `cd` moves where later relative programs are found (`cd sub && ./tool.sh`);
            // a `cd` the reader cannot follow leaves later relative programs unresolved.
            let mut dir = Some(cwd.to_path_buf());
            let mut out = Vec::new();
            for s in list {
                let Some(first) = s.argv.first() else {
                    if !s.assignments.is_empty() || !s.redirects.is_empty() {
                        out.push(Command {
                            argv: Vec::new(),
                            program: "builtin:".into(),
                            assignments: s.assignments.clone(),
                            redirects: s.redirects.clone(),
                        });
                    }
                    continue;
                };
                let program = match &dir {
                    Some(d) => resolve_program(first, d),
                    None if first.contains('/') && !first.starts_with('/') => {
                        format!("unresolved:{first}")
                    }
                    None => resolve_program(first, cwd),
                };
                if super::shell::program_name(first) == "cd" {
                    // Only a `cd` the shell surely runs in itself counts (not `x && cd d`,
                    // `cd d | y`, `sh -c 'cd d'`, `env cd d`, `cd d >&9`).
                    dir = dir.filter(|_| s.sure_cd).and_then(|d| moved_to(&d, s));
                }
                out.push(Command {
                    program,
                    argv: s.argv.clone(),
                    assignments: s.assignments.clone(),
                    redirects: s.redirects.clone(),
                });
            }
            (out, None)
        }
        Parsed::Opaque(reason) => (Vec::new(), Some(reason.clone())),
    };
    Subject {
        command: command.to_string(),
        commands,
        opaque,
        package_install,
        hidden: views.hidden.first().cloned(),
        by_risk: false,
        // Deny entries reach what only the tolerant reading sees: the parts around what the
        // strict one cannot follow, and what variables give programs to run
        // (`TAR_OPTIONS=--to-command=…`).
        tolerant: views.commands.clone(),
        cwd: cwd.to_path_buf(),
        maybe_dirs: maybe_dirs(cwd, &views.commands),
    }
}

/// The directories the programs of `commands` may run in, for deny entries: `cwd`, and where
/// each `cd` may move from any of them, taken or not (`true && cd sub; ./prog`, `sh -c 'cd
/// sub; ./prog'`); `None` when one goes where the reader cannot know (`cd "$d"`), or when
/// there are too many to try.
fn maybe_dirs(cwd: &Path, commands: &[Simple]) -> Option<Vec<PathBuf>> {
    let mut dirs = vec![cwd.to_path_buf()];
    let cds = commands.iter().filter(|s| {
        s.argv
            .first()
            .is_some_and(|p| matches!(super::shell::program_name(p), "cd" | "pushd" | "popd"))
    });
    for s in cds {
        if super::shell::program_name(&s.argv[0]) == "popd" {
            return None;
        }
        let (physical, to) = cd_target(s)?;
        // One that fails from some directory leaves the command there.
        let moved: Vec<PathBuf> = dirs
            .iter()
            .filter_map(|d| arrive(d, physical, to))
            .collect();
        for d in moved {
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
        if dirs.len() > 32 {
            return None;
        }
    }
    Some(dirs)
}

/// Where the shell's `cd` (`s`, surely run) moves from `dir`, or `None` when that cannot be
/// known (see [`cd_target`]) or the directory is not there (`cd` fails).
fn moved_to(dir: &Path, s: &Simple) -> Option<PathBuf> {
    let (physical, to) = cd_target(s)?;
    arrive(dir, physical, to)
}

/// What a `cd` asks for: whether physically, and where (`None`: home), or `None` when the
/// reader cannot know. The options are dash's, which runs the command: `-P` (physical:
/// symbolic links resolved first) and `-L` (logical, the default: `..` takes back the name
/// before it, so `cd link/..` stays where it was); any other makes `cd` fail or is not read.
fn cd_target(s: &Simple) -> Option<(bool, Option<&str>)> {
    let mut physical = false;
    let mut at = 1;
    while let Some(option @ ("-P" | "-L" | "--")) = s.argv.get(at).map(String::as_str) {
        physical = match option {
            "-P" => true,
            "-L" => false,
            _ => physical,
        };
        at += 1;
        if option == "--" {
            break;
        }
    }
    match &s.argv[at..] {
        [] => Some((physical, None)),
        [to] if !s.expanded.contains(&at) && !to.starts_with(['-', '~']) => {
            Some((physical, Some(to.as_str())))
        }
        _ => None,
    }
}

/// The directory a `cd` from `dir` to `to` (home when `None`) arrives in, `None` when it fails.
fn arrive(dir: &Path, physical: bool, to: Option<&str>) -> Option<PathBuf> {
    let Some(to) = to else {
        return std::env::var_os("HOME").map(Into::into);
    };
    if physical {
        return dir.join(to).canonicalize().ok();
    }
    let mut logical = PathBuf::new();
    for part in dir.join(to).components() {
        match part {
            std::path::Component::ParentDir => {
                logical.pop();
            }
            std::path::Component::CurDir => {}
            other => logical.push(other),
        }
    }
    Some(logical).filter(|d| d.is_dir())
}

/// The program a command name runs: a harmless builtin, a path (relative to `cwd`), or the
/// first match on PATH; canonical, so symlinks and `./` tricks resolve to one name.
pub fn resolve_program(name: &str, cwd: &Path) -> String {
    if HARMLESS_BUILTINS.contains(&name) {
        return format!("builtin:{name}");
    }
    let found = if name.contains('/') {
        Some(cwd.join(name))
    } else {
        which::which_in(name, std::env::var_os("PATH"), cwd).ok()
    };
    match found {
        Some(p) => p.canonicalize().unwrap_or(p).display().to_string(),
        None => format!("unresolved:{name}"),
    }
}

/// Decides on a subject under `mode`, given the stored entries.
pub fn decide(mode: ApprovalMode, subject: &Subject, entries: &[Entry]) -> Decision {
    if mode == ApprovalMode::Deny {
        return Decision::Deny(
            "command denied by exec approval policy (approval mode is deny)".into(),
        );
    }
    let denying: Vec<&Entry> = entries.iter().filter(|e| e.decision == "deny").collect();
    let checked = subject
        .commands
        .iter()
        .cloned()
        .chain(tolerant_commands(subject));
    for cmd in checked.take_while(|_| !denying.is_empty()) {
        if let Some(e) = denying.iter().find(|e| matches(e, &cmd)) {
            return Decision::Deny(format!(
                "command denied by exec approval policy: `{}` matches deny entry {} ({} {})",
                cmd.argv.join(" "),
                e.id,
                e.program,
                e.args.join(" ")
            ));
        }
    }
    if let Some(reason) = denied_somewhere(subject, &denying) {
        return Decision::Ask(reason);
    }
    if let Some(p) = &subject.package_install {
        return Decision::Ask(format!(
            "package installation needs approval (matches pattern {p})"
        ));
    }
    if let Some(h) = &subject.hidden {
        return Decision::Ask(format!(
            "the command cannot be checked by the deny groups: {h}"
        ));
    }
    if mode == ApprovalMode::Allow {
        return Decision::Allow("approval mode is allow".into());
    }
    if let Some(reason) = &subject.opaque {
        return Decision::Ask(format!(
            "the command cannot be approved automatically: {reason}"
        ));
    }
    if let Some(reason) = subject.commands.iter().find_map(never_auto_approved) {
        return Decision::Ask(format!(
            "the command cannot be approved automatically: {reason}"
        ));
    }
    let unapproved: Vec<String> = subject
        .commands
        .iter()
        .filter(|c| {
            !c.program.starts_with("builtin:")
                && !c.argv.is_empty()
                && !entries
                    .iter()
                    .any(|e| e.decision == "allow" && matches(e, c))
        })
        .map(|c| c.argv.join(" "))
        .collect();
    if unapproved.is_empty() {
        Decision::Allow("every command is on the allowlist".into())
    } else {
        Decision::Ask(format!("not on the allowlist: {}", unapproved.join("; ")))
    }
}

/// The tolerant reading's commands, for deny entries: a relative program (`./prog`,
/// `sub/prog`) once for each directory it may run in.
fn tolerant_commands(subject: &Subject) -> impl Iterator<Item = Command> + '_ {
    subject.tolerant.iter().flat_map(|s| {
        let first = s.argv.first().map_or("", String::as_str);
        let relative = first.contains('/') && !first.starts_with('/');
        let dirs = match &subject.maybe_dirs {
            Some(dirs) if relative => dirs.as_slice(),
            _ => std::slice::from_ref(&subject.cwd),
        };
        dirs.iter()
            .filter(move |_| !first.is_empty())
            .map(move |d| Command {
                program: resolve_program(first, d),
                argv: s.argv.clone(),
                assignments: s.assignments.clone(),
                redirects: s.redirects.clone(),
            })
    })
}

/// Why a relative program may be one a deny entry names by its path, when the command moves
/// to a directory the reader cannot know first (`cd "$d"; ./prog`): it is asked about.
fn denied_somewhere(subject: &Subject, denying: &[&Entry]) -> Option<String> {
    if subject.maybe_dirs.is_some() {
        return None;
    }
    subject.tolerant.iter().find_map(|s| {
        let first = s.argv.first()?;
        if !first.contains('/') || first.starts_with('/') {
            return None;
        }
        let name = super::shell::program_name(first);
        let e = denying
            .iter()
            .find(|e| e.program.contains('/') && e.program.rsplit('/').next() == Some(name))?;
        Some(format!(
            "`{first}` may be {} (deny entry {}): the command moves to a directory that cannot be known before it",
            e.program, e.id
        ))
    })
}

fn matches(e: &Entry, c: &Command) -> bool {
    let program = match e.program.contains(['/', ':']) {
        true => e.program == c.program,
        // A deny entry made before its program was installed names it bare: any program of
        // that name.
        false => {
            let name = c.program.strip_prefix("unresolved:").unwrap_or(&c.program);
            name.rsplit('/').next() == Some(e.program.as_str())
        }
    };
    program
        && c.argv
            .get(1..)
            .is_some_and(|rest| rest.starts_with(&e.args))
}

/// Every entry, oldest first.
pub fn list(db: Db<'_>) -> Result<Vec<Entry>> {
    db.query_map(
        "SELECT id, program, args, decision, created_at, note FROM exec_approvals ORDER BY id",
        &[],
        |r| {
            Ok(Entry {
                id: r.get(0)?,
                program: r.get(1)?,
                args: serde_json::from_str(&r.get::<String>(2)?).unwrap_or_default(),
                decision: r.get(3)?,
                created_at: crate::store::text_time_ms(&r.get::<String>(4)?),
                note: r.get(5)?,
            })
        },
    )
}

/// Adds an entry (or returns the identical one that exists).
pub fn add(
    db: Db<'_>,
    program: &str,
    args: &[String],
    decision: &str,
    note: Option<&str>,
) -> Result<Entry> {
    let args_json = serde_json::to_string(args).unwrap_or_else(|_| "[]".into());
    db.execute(
        "INSERT INTO exec_approvals (program, args, decision, created_at, note)
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
        db_params![program, args_json, decision, crate::store::now_text(), note],
    )?;
    let id: i64 = db.query_row(
        "SELECT id FROM exec_approvals WHERE program = ?1 AND args = ?2 AND decision = ?3",
        db_params![program, args_json, decision],
        |r| r.get(0),
    )?;
    list(db)?
        .into_iter()
        .find(|e| e.id == id)
        .ok_or_else(|| Error::internal("the approval entry added is gone"))
}

/// Removes an entry; false when there was none.
pub fn revoke(db: Db<'_>, id: i64) -> Result<bool> {
    Ok(db.execute("DELETE FROM exec_approvals WHERE id = ?1", db_params![id])? > 0)
}

#[cfg(test)]
mod tests;
