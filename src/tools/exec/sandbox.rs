//! The exec sandbox. Landlock: the workspace, `/tmp` and `/dev` read-write, everything else
//! read-only, and no TCP unless the agent allows the network. It is applied in the child
//! through a re-exec of goclaw (`goclaw __sandbox-exec …`, which restricts itself and then
//! execs `sh -c`), never in the multi-threaded parent. When bubblewrap is installed, `auto`
//! also wraps the child in `bwrap` (read-only root, the same writable paths, and a network
//! namespace of its own without the network). `docker` runs in a container from config, and is
//! an error, not a silent fallback, when no Docker engine answers. `none` runs on the host.

use std::path::{Path, PathBuf};
use std::process::Command;

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, path_beneath_rules,
};
use serde::Serialize;

use super::{ExecSettings, SandboxMode};

/// The hidden subcommand that applies Landlock and execs the command.
pub const REEXEC_SUBCOMMAND: &str = "__sandbox-exec";

/// Which sandbox wraps a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
    #[serde(skip)]
    workspace: PathBuf,
    #[serde(skip)]
    goclaw: PathBuf,
    #[serde(skip)]
    image: String,
    /// A note, e.g. why `auto` chose what it chose.
    pub note: Option<String>,
}

/// Does the running kernel enforce Landlock?
pub fn landlock_supported() -> bool {
    Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(ABI::V1))
        .and_then(|r| r.create())
        .is_ok()
}

/// Decides the sandbox for `settings` in `workspace`.
pub fn plan(settings: &ExecSettings, workspace: &Path) -> Result<Plan, String> {
    let workspace = workspace
        .canonicalize()
        .map_err(|e| format!("workspace {}: {e}", workspace.display()))?;
    let goclaw =
        std::env::current_exe().map_err(|e| format!("cannot find the goclaw binary: {e}"))?;
    let bwrap = which::which("bwrap").is_ok();
    let (kind, note) = match settings.sandbox {
        SandboxMode::None => (
            Kind::None,
            Some("sandbox = \"none\": runs on the host".to_string()),
        ),
        SandboxMode::Auto if landlock_supported() && bwrap => (Kind::BwrapLandlock, None),
        SandboxMode::Auto if landlock_supported() => (
            Kind::Landlock,
            Some("bubblewrap not installed; Landlock only".into()),
        ),
        SandboxMode::Auto => (
            Kind::None,
            Some("this kernel does not enforce Landlock; runs on the host".into()),
        ),
        SandboxMode::Landlock if landlock_supported() => (Kind::Landlock, None),
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
    };
    let writable = match kind {
        Kind::None => Vec::new(),
        Kind::Docker => vec![workspace.clone()],
        _ => vec![
            workspace.clone(),
            PathBuf::from("/tmp"),
            PathBuf::from("/dev"),
        ],
    };
    Ok(Plan {
        kind,
        network: settings.network || kind == Kind::None,
        writable,
        workspace,
        goclaw,
        image: settings.docker_image.clone(),
        note,
    })
}

impl Plan {
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
        match &self.note {
            Some(n) => format!("{base}, {net} ({n})"),
            None => format!("{base}, {net}"),
        }
    }

    /// Arguments of the re-exec'd goclaw that applies Landlock and runs `command`.
    fn reexec_args(&self, command: &str) -> Vec<std::ffi::OsString> {
        let mut a: Vec<std::ffi::OsString> = vec![REEXEC_SUBCOMMAND.into()];
        for w in &self.writable {
            a.push("--rw".into());
            a.push(w.into());
        }
        if self.network {
            a.push("--net".into());
        }
        a.extend(["--", "sh", "-c", command].map(Into::into));
        a
    }

    /// The process to spawn for `command` in `cwd`.
    pub fn command(&self, command: &str, cwd: &Path) -> Command {
        match self.kind {
            Kind::None => {
                let mut c = Command::new("sh");
                c.arg("-c").arg(command);
                c
            }
            Kind::Landlock => {
                let mut c = Command::new(&self.goclaw);
                c.args(self.reexec_args(command));
                c
            }
            Kind::BwrapLandlock => {
                let mut c = Command::new("bwrap");
                c.args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
                for w in self
                    .writable
                    .iter()
                    .filter(|w| w.as_path() != Path::new("/dev"))
                {
                    c.arg("--bind").arg(w).arg(w);
                }
                if !self.network {
                    c.arg("--unshare-net");
                }
                c.args(["--die-with-parent", "--chdir"])
                    .arg(cwd)
                    .arg("--")
                    .arg(&self.goclaw);
                c.args(self.reexec_args(command));
                c
            }
            Kind::Docker => {
                let rel = cwd.strip_prefix(&self.workspace).unwrap_or(Path::new(""));
                let mut c = Command::new("docker");
                c.args(["run", "--rm", "-v"])
                    .arg(format!("{}:/workspace", self.workspace.display()))
                    .arg("-w")
                    .arg(Path::new("/workspace").join(rel));
                if !self.network {
                    c.args(["--network", "none"]);
                }
                c.arg(&self.image).args(["sh", "-c", command]);
                c
            }
        }
    }
}

/// In the re-exec'd child: restricts this process with Landlock, then execs `argv`. Returns only
/// on failure, with the reason.
pub fn restrict_and_exec(writable: &[PathBuf], network: bool, argv: &[String]) -> String {
    let abi = ABI::V5;
    let result = (|| -> Result<RulesetStatus, landlock::RulesetError> {
        let mut ruleset = Ruleset::default().handle_access(AccessFs::from_all(abi))?;
        if !network {
            ruleset = ruleset.handle_access(AccessNet::from_all(abi))?;
        }
        let status = ruleset
            .create()?
            .add_rules(path_beneath_rules(["/"], AccessFs::from_read(abi)))?
            .add_rules(path_beneath_rules(writable, AccessFs::from_all(abi)))?
            .restrict_self()?;
        Ok(status.ruleset)
    })();
    match result {
        Ok(RulesetStatus::NotEnforced) => {
            return "Landlock is not enforced by this kernel; refusing to run unsandboxed".into();
        }
        Ok(_) => {}
        Err(e) => return format!("cannot apply the Landlock sandbox: {e}"),
    }
    let Some((program, args)) = argv.split_first() else {
        return "no command to run".into();
    };
    let err = std::os::unix::process::CommandExt::exec(Command::new(program).args(args));
    format!("cannot run {program}: {err}")
}
