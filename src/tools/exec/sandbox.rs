//! The exec sandbox, parent side: which layers wrap a command and the process to spawn for it.
//! Every mode runs the command under goclaw's supervisor (`goclaw __sandbox-exec …`, see
//! [`super::supervise`]), which ends every process the command starts when it ends. On top:
//!
//! - `landlock`: the workspace, `/tmp` and `/dev` read-write, everything else read-only; no
//!   TCP (Landlock) and no UDP or raw sockets (seccomp) unless the agent allows the network;
//!   Unix-socket connects only inside the workspace (Landlock ABI 9), or none at all (seccomp,
//!   on older kernels); signals only inside the sandbox (Landlock ABI 6); goclaw's own state
//!   ([`crate::tools::protected`]) masked in a private mount namespace.
//! - `bwrap` (what `auto` picks when bubblewrap is installed): the same inside bubblewrap: a
//!   read-only root, the writable paths bound, the protected paths masked by mounts, a PID
//!   namespace of its own (signals stay inside; everything dies with it), and a network
//!   namespace without the network.
//! - `docker`: a container from config with only the workspace mounted (protected paths inside
//!   it masked); an error, not a silent fallback, when no Docker engine answers.
//! - `none`: on the host, with nothing between the command and goclaw's state; `--dry-run`
//!   says so.
//!
//! The child's environment is built from an allowlist ([`ENV_ALLOWLIST`] plus
//! `[tools.exec] env`), never inherited whole: goclaw's keys (`GOCLAW_SECRET_KEY`, providers'
//! API keys) do not reach a command.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{ExecSettings, SandboxMode};

/// The hidden subcommand that applies the sandbox's inner layers and supervises the command.
pub const REEXEC_SUBCOMMAND: &str = "__sandbox-exec";

/// Variables a command inherits from goclaw's environment (plus `LC_*` and what
/// `[tools.exec] env` names). Everything else, secrets included, stays out.
pub const ENV_ALLOWLIST: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LANGUAGE",
    "TERM",
    "COLORTERM",
    "TZ",
    "TMPDIR",
    "NO_COLOR",
];

/// Which sandbox wraps a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    None,
    Landlock,
    BwrapLandlock,
    Docker,
}

/// How a command will be run.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    pub kind: Kind,
    pub network: bool,
    pub writable: Vec<PathBuf>,
    /// goclaw's state that the command sees empty (masked); empty for `none`.
    pub masked: Vec<PathBuf>,
    /// The directories between a writable path and a masked one, pinned so that a command
    /// cannot rename them ([`crate::tools::protected::ancestors_to_pin`]).
    #[serde(skip)]
    pub pinned: Vec<PathBuf>,
    /// How Unix-socket connects are confined.
    pub unix_sockets: &'static str,
    /// How signals are confined.
    pub signals: &'static str,
    #[serde(skip)]
    workspace: PathBuf,
    #[serde(skip)]
    goclaw: PathBuf,
    #[serde(skip)]
    image: String,
    #[serde(skip)]
    env: Vec<(OsString, OsString)>,
    /// A note, e.g. why `auto` chose what it chose.
    pub note: Option<String>,
}

/// A plan as another process receives it (a background command's keeper): what
/// [`Plan::command`] needs, without the notes that only describe it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PortablePlan {
    kind: Kind,
    network: bool,
    writable: Vec<PathBuf>,
    masked: Vec<PathBuf>,
    pinned: Vec<PathBuf>,
    workspace: PathBuf,
    goclaw: PathBuf,
    image: String,
    env: Vec<(OsString, OsString)>,
}

impl Plan {
    /// The plan for a keeper to run (its `--parent` is then the keeper).
    pub fn portable(&self) -> PortablePlan {
        PortablePlan {
            kind: self.kind,
            network: self.network,
            writable: self.writable.clone(),
            masked: self.masked.clone(),
            pinned: self.pinned.clone(),
            workspace: self.workspace.clone(),
            goclaw: self.goclaw.clone(),
            image: self.image.clone(),
            env: self.env.clone(),
        }
    }
}

impl From<PortablePlan> for Plan {
    fn from(p: PortablePlan) -> Plan {
        Plan {
            kind: p.kind,
            network: p.network,
            writable: p.writable,
            masked: p.masked,
            pinned: p.pinned,
            unix_sockets: "",
            signals: "",
            workspace: p.workspace,
            goclaw: p.goclaw,
            image: p.image,
            env: p.env,
            note: None,
        }
    }
}

/// The kernel's Landlock ABI version (0: none).
pub fn landlock_abi() -> i64 {
    // SAFETY: landlock_create_ruleset with a null attribute, size 0 and the VERSION flag only
    // returns the ABI version (or -1 with errno); it reads and writes no memory.
    let v = unsafe {
        nix::libc::syscall(
            nix::libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    v.max(0)
}

/// Does the running kernel enforce Landlock?
pub fn landlock_supported() -> bool {
    landlock_abi() >= 1
}

/// The plan for a call's context: its exec settings, workspace and protected paths; the
/// command also learns who runs it (`GOCLAW_RUN_ID`, `GOCLAW_PARENT_RUN_ID`, `GOCLAW_SESSION`,
/// `GOCLAW_AGENT`, and for a team run `GOCLAW_TEAM` and `GOCLAW_TASK_ID`), so a hook or script
/// can tell, and a nested `goclaw tasks` acts as that agent.
pub fn plan_for(ctx: &crate::tools::CallContext) -> Result<Plan, String> {
    let mut p = plan(&ctx.exec, &ctx.workspace, &ctx.protected)?;
    let who = [
        ("GOCLAW_RUN_ID", ctx.run.as_ref().map(|r| r.run_id.as_str())),
        (
            "GOCLAW_PARENT_RUN_ID",
            ctx.run.as_ref().and_then(|r| r.parent_run_id.as_deref()),
        ),
        ("GOCLAW_SESSION", ctx.session_key.as_deref()),
        ("GOCLAW_AGENT", ctx.agent.as_deref()),
        (
            "GOCLAW_TEAM",
            ctx.run.as_ref().and_then(|r| r.team.as_deref()),
        ),
        (
            "GOCLAW_TASK_ID",
            ctx.run.as_ref().and_then(|r| r.task_id.as_deref()),
        ),
    ];
    for (name, value) in who {
        if let Some(v) = value {
            p.env.push((name.into(), v.into()));
        }
    }
    Ok(p)
}

/// The plan for a call that will run a command: as [`plan_for`], after goclaw's missing state
/// paths that the command could create have been created, so that they are masked too
/// ([`crate::tools::protected::create_missing`]).
pub fn plan_to_run(ctx: &crate::tools::CallContext) -> Result<Plan, String> {
    let mut p = plan_for(ctx)?;
    if p.kind == Kind::None {
        return Ok(p);
    }
    let state = [
        ("store", ctx.store.sqlite_path(), "--db"),
        ("config", Some(ctx.config_file.as_path()), "--config"),
        ("key directory", Some(ctx.key_dir.as_path()), "GOCLAW_HOME"),
    ];
    for (what, path, flag) in state {
        if let Some(path) = path
            && let Some(link) = crate::tools::protected::replaceable_link(path, &p.writable)
        {
            return Err(format!(
                "goclaw's {what} {} is reached through the symlink {}, which a command could \
                 replace (it lies where commands may write); give goclaw the real path ({flag})",
                path.display(),
                link.display()
            ));
        }
    }
    crate::tools::protected::create_missing(&ctx.protected, Some(&ctx.config_file), &p.writable)?;
    // What was just made is masked too; the rest of the plan stands.
    p.mask(&ctx.protected);
    Ok(p)
}

/// Decides the sandbox for `settings` in `workspace`, masking the `protected` paths that exist
/// and pinning the directories above them that the command could otherwise rename.
pub fn plan(
    settings: &ExecSettings,
    workspace: &Path,
    protected: &[PathBuf],
) -> Result<Plan, String> {
    let workspace = workspace
        .canonicalize()
        .map_err(|e| format!("workspace {}: {e}", workspace.display()))?;
    let goclaw =
        std::env::current_exe().map_err(|e| format!("cannot find the goclaw binary: {e}"))?;
    let bwrap = which::which("bwrap").is_ok();
    let abi = landlock_abi();
    let landlock = abi >= 1;
    let (kind, note) = choose_kind(settings.sandbox, landlock, bwrap)?;
    let writable = match kind {
        Kind::None => Vec::new(),
        Kind::Docker => vec![workspace.clone()],
        _ => vec![
            workspace.clone(),
            PathBuf::from("/tmp"),
            PathBuf::from("/dev"),
        ],
    };
    let (unix_sockets, signals) = confinement(kind, abi);
    let mut plan = Plan {
        kind,
        network: settings.network || kind == Kind::None,
        writable,
        masked: Vec::new(),
        pinned: Vec::new(),
        unix_sockets,
        signals,
        workspace,
        goclaw,
        image: settings.docker_image.clone(),
        env: child_env(&settings.env),
        note,
    };
    plan.mask(protected);
    Ok(plan)
}

/// What `mode` gives on this host (`goclaw doctor`): the layers' name and a note on the
/// choice, or why the mode cannot run here.
pub fn layers_for(mode: SandboxMode) -> Result<(&'static str, Option<String>), String> {
    let bwrap = which::which("bwrap").is_ok();
    let (kind, note) = choose_kind(mode, landlock_supported(), bwrap)?;
    let name = match kind {
        Kind::None => "none (host)",
        Kind::Landlock => "landlock",
        Kind::BwrapLandlock => "bwrap + landlock",
        Kind::Docker => "docker",
    };
    Ok((name, note))
}

/// The sandbox `mode` asks for, given what this host has: its kind and a note on the choice.
fn choose_kind(
    mode: SandboxMode,
    landlock: bool,
    bwrap: bool,
) -> Result<(Kind, Option<String>), String> {
    Ok(match mode {
        SandboxMode::None => (
            Kind::None,
            Some("sandbox = \"none\": runs on the host".to_string()),
        ),
        SandboxMode::Auto if landlock && bwrap => (Kind::BwrapLandlock, None),
        SandboxMode::Auto if landlock => (
            Kind::Landlock,
            Some("bubblewrap not installed; Landlock only".into()),
        ),
        SandboxMode::Auto => (
            Kind::None,
            Some("this kernel does not enforce Landlock; runs on the host".into()),
        ),
        SandboxMode::Landlock if landlock => (Kind::Landlock, None),
        SandboxMode::Landlock => return Err("this kernel does not enforce Landlock".into()),
        SandboxMode::Bwrap if bwrap => (Kind::BwrapLandlock, None),
        SandboxMode::Bwrap => return Err("bubblewrap (bwrap) is not installed".into()),
        SandboxMode::Docker => {
            let ok = which::which("docker").is_ok()
                && Command::new("docker")
                    .arg("info")
                    .output()
                    .map(|o| o.status.success())
                    .unwrap_or(false);
            if !ok {
                return Err("no Docker engine answers (`docker info` failed)".into());
            }
            (Kind::Docker, None)
        }
    })
}

/// How Unix-socket connects and signals are confined under `kind` with Landlock ABI `abi`.
fn confinement(kind: Kind, abi: i64) -> (&'static str, &'static str) {
    match kind {
        Kind::None => ("not confined", "not confined"),
        Kind::Docker => ("the container's own", "the container's own"),
        Kind::BwrapLandlock if abi >= 9 => {
            ("only inside the workspace", "a PID namespace of its own")
        }
        Kind::BwrapLandlock => ("none (seccomp)", "a PID namespace of its own"),
        Kind::Landlock => (
            if abi >= 9 {
                "only inside the workspace"
            } else {
                "none (seccomp)"
            },
            if abi >= 6 {
                "only inside the sandbox (Landlock scope)"
            } else {
                "not confined (this kernel's Landlock has no signal scope)"
            },
        ),
    }
}

/// What a child inherits of goclaw's environment: [`ENV_ALLOWLIST`], `LC_*`, and the names in
/// `extra`; nothing else (goclaw's keys, `GOCLAW_SECRET_KEY`, `PGPASSWORD` stay out).
pub fn inherited_env<S: AsRef<str>>(
    extra: &[S],
) -> impl Iterator<Item = (OsString, OsString)> + '_ {
    std::env::vars_os().filter(move |(k, _)| {
        let k = k.to_string_lossy();
        ENV_ALLOWLIST.contains(&k.as_ref())
            || k.starts_with("LC_")
            || extra.iter().any(|e| e.as_ref() == k.as_ref())
    })
}

/// The environment a command gets: the allowlist, `LC_*`, and the names `extra` adds, as
/// goclaw has them; then `CI=true`, `DEBIAN_FRONTEND=noninteractive`, and git's
/// `safe.bareRepository=explicit` (see [`git_explicit_bare`]).
pub fn child_env(extra: &[String]) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = inherited_env(extra).collect();
    env.push(("CI".into(), "true".into()));
    env.push(("DEBIAN_FRONTEND".into(), "noninteractive".into()));
    git_explicit_bare(&mut env);
    env
}

/// A directory the model wrote to look like a bare repository (`HEAD`, `objects`, `refs` and a
/// `config` of its choosing, say `core.fsmonitor = "…"`) is not a repository to a `git` run
/// inside it: git would run what that config says, under a `git status` the allowlist
/// approves. File tools never write into a `.git`; a repository named otherwise is used only
/// when the command says so (`--git-dir`, `GIT_DIR=`, never approved automatically). And
/// `core.fsmonitor` is off whatever a repository's config says: a `.git` a command made under
/// a name the reader could not see (`cp -r x .g${a}it`) ran its monitor at the next `git
/// status`. Given as command-line configuration (`GIT_CONFIG_COUNT`), after any the
/// environment already gives; a command that removes it (`env -i`, `env -u`, `GIT_*=`) is
/// never approved automatically.
fn git_explicit_bare(env: &mut Vec<(OsString, OsString)>) {
    let count = env
        .iter()
        .find(|(k, _)| k == "GIT_CONFIG_COUNT")
        .and_then(|(_, v)| v.to_str()?.parse::<usize>().ok())
        .unwrap_or(0);
    env.retain(|(k, _)| k != "GIT_CONFIG_COUNT");
    let settings = [
        ("safe.bareRepository", "explicit"),
        ("core.fsmonitor", "false"),
    ];
    for (n, (key, value)) in (count..).zip(settings) {
        env.push((format!("GIT_CONFIG_KEY_{n}").into(), key.into()));
        env.push((format!("GIT_CONFIG_VALUE_{n}").into(), value.into()));
    }
    env.push((
        "GIT_CONFIG_COUNT".into(),
        (count + settings.len()).to_string().into(),
    ));
}

impl Plan {
    /// Masks the `protected` paths that exist (for docker, those inside the workspace; a path
    /// inside a masked directory is hidden with it) and pins the directories above them.
    fn mask(&mut self, protected: &[PathBuf]) {
        self.masked = match self.kind {
            Kind::None => Vec::new(),
            Kind::Docker => crate::tools::protected::to_mask(
                &protected
                    .iter()
                    .filter(|p| p.starts_with(&self.workspace))
                    .cloned()
                    .collect::<Vec<_>>(),
            ),
            _ => crate::tools::protected::to_mask(protected),
        };
        self.pinned = crate::tools::protected::ancestors_to_pin(&self.masked, &self.writable);
    }

    /// One line for `--dry-run`.
    pub fn describe(&self) -> String {
        let base = match self.kind {
            Kind::None => "none (host)".to_string(),
            Kind::Landlock => "landlock".to_string(),
            Kind::BwrapLandlock => "bwrap + landlock".to_string(),
            Kind::Docker => format!("docker ({})", self.image),
        };
        let net = if self.network {
            "network allowed"
        } else {
            "no network"
        };
        let state = if self.kind == Kind::None {
            "nothing protects goclaw's store, secret key and config from the command".to_string()
        } else {
            format!(
                "goclaw's state masked ({} paths); unix sockets: {}; signals: {}",
                self.masked.len(),
                self.unix_sockets,
                self.signals
            )
        };
        match &self.note {
            Some(n) => format!("{base}, {net}; {state} ({n})"),
            None => format!("{base}, {net}; {state}"),
        }
    }

    /// Arguments of the re-exec'd goclaw that applies the inner layers and runs `command`.
    fn reexec_args(&self, command: &str, mask: bool, report: Option<i32>) -> Vec<OsString> {
        let mut a: Vec<OsString> = vec![REEXEC_SUBCOMMAND.into()];
        if let Some(fd) = report {
            a.push(format!("--report-fd={fd}").into());
        }
        if self.kind == Kind::None {
            a.push("--no-sandbox".into());
        }
        if self.kind != Kind::BwrapLandlock {
            a.push("--parent".into());
            a.push(std::process::id().to_string().into());
        }
        for w in &self.writable {
            a.push("--rw".into());
            a.push(w.into());
        }
        if mask {
            for p in &self.pinned {
                a.push("--pin".into());
                a.push(p.into());
            }
            for m in &self.masked {
                a.push("--mask".into());
                a.push(m.into());
            }
        }
        if self.network {
            a.push("--net".into());
        }
        // The command's grace after a stop, within the caller's (SIGKILL to the group after
        // KILL_GRACE): the supervisor kills what is left before that.
        let grace = super::run::KILL_GRACE.saturating_sub(Duration::from_millis(500));
        a.push(format!("--grace-ms={}", grace.as_millis()).into());
        a.extend(["--", "sh", "-c", command].map(Into::into));
        a
    }

    /// The process to spawn for `command` in `cwd`, with its environment and directory set.
    pub fn command(&self, command: &str, cwd: &Path) -> Command {
        self.reporting_command(command, cwd, None)
    }

    /// Whether a command of this plan runs under goclaw's supervisor, which reports on a pipe
    /// (see [`Plan::reporting_command`]); docker's runs under `docker run`.
    pub fn supervised(&self) -> bool {
        self.kind != Kind::Docker
    }

    /// [`Plan::command`], whose supervisor (when it has one) reports on descriptor `report`
    /// when it listens for the stop signals and how the command ended ([`super::report`]). The
    /// caller keeps `report` open across the spawn.
    pub fn reporting_command(&self, command: &str, cwd: &Path, report: Option<i32>) -> Command {
        let mut c = match self.kind {
            Kind::None | Kind::Landlock => {
                let mut c = Command::new(&self.goclaw);
                c.args(self.reexec_args(command, true, report));
                c
            }
            Kind::BwrapLandlock => {
                let mut c = Command::new("bwrap");
                c.args(["--ro-bind", "/", "/", "--dev", "/dev"]);
                for w in self
                    .writable
                    .iter()
                    .filter(|w| w.as_path() != Path::new("/dev"))
                {
                    c.arg("--bind").arg(w).arg(w);
                }
                // Each directory above a mask, bound to itself: a mount point cannot be renamed.
                for p in &self.pinned {
                    c.arg("--bind").arg(p).arg(p);
                }
                // Masks after the binds, so they cover what the binds expose.
                for m in &self.masked {
                    if m.is_dir() {
                        c.arg("--tmpfs").arg(m).arg("--remount-ro").arg(m);
                    } else {
                        c.arg("--ro-bind").arg("/dev/null").arg(m);
                    }
                }
                // Capabilities (root's) stay with the supervisor, which takes them all from the
                // command for good, bounding set and securebits included (bwrap's --cap-drop
                // would leave it unable to empty the bounding set).
                c.args(["--unshare-pid", "--proc", "/proc"]);
                if !self.network {
                    c.arg("--unshare-net");
                }
                c.args(["--die-with-parent", "--chdir"])
                    .arg(cwd)
                    .arg("--")
                    .arg(&self.goclaw);
                c.args(self.reexec_args(command, false, report));
                // bwrap dies of a stop signal at once, taking its pid namespace with it: it
                // ignores them (an ignored signal stays ignored across exec), so the stop reaches
                // the supervisor, which restores them and gives the command its grace.
                // SAFETY: sigaction is async-signal-safe; nothing else runs between fork and exec.
                unsafe {
                    std::os::unix::process::CommandExt::pre_exec(&mut c, || {
                        use nix::sys::signal::{SigHandler, signal};
                        for s in super::supervise::STOP_SIGNALS {
                            signal(s, SigHandler::SigIgn).map_err(std::io::Error::from)?;
                        }
                        Ok(())
                    });
                }
                c
            }
            Kind::Docker => {
                let rel = cwd.strip_prefix(&self.workspace).unwrap_or(Path::new(""));
                let mut c = Command::new("docker");
                c.args(["run", "--rm", "-v"])
                    .arg(format!("{}:/workspace", self.workspace.display()))
                    .arg("-w")
                    .arg(Path::new("/workspace").join(rel));
                let inside = |p: &Path| {
                    Path::new("/workspace")
                        .join(p.strip_prefix(&self.workspace).unwrap_or(Path::new("")))
                };
                for p in self
                    .pinned
                    .iter()
                    .filter(|p| p.starts_with(&self.workspace))
                {
                    c.arg("-v")
                        .arg(format!("{}:{}", p.display(), inside(p).display()));
                }
                for m in &self.masked {
                    let inside = Path::new("/workspace")
                        .join(m.strip_prefix(&self.workspace).unwrap_or(Path::new("")));
                    if m.is_dir() {
                        c.arg("--tmpfs").arg(inside);
                    } else {
                        c.arg("-v")
                            .arg(format!("/dev/null:{}:ro", inside.display()));
                    }
                }
                if !self.network {
                    c.args(["--network", "none"]);
                }
                c.arg(&self.image).args(["sh", "-c", command]);
                c
            }
        };
        c.env_clear()
            .envs(self.env.iter().cloned())
            .current_dir(cwd);
        c
    }
}
