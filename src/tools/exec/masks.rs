//! goclaw's state masked from a command: in a private mount namespace (a user namespace too
//! when not root), each protected path is an empty read-only directory or file, after the
//! directories above it are pinned to themselves (a mount point cannot be renamed).

use std::path::PathBuf;

use super::contain::Namespaces;

/// Why the masks could not be laid.
pub(super) enum MaskError {
    /// This host gives no private mount namespace (no user namespaces, or none with the
    /// right to mount): a supervised-only command runs without masks.
    Unavailable(String),
    /// Anything else (the working directory is gone, a mount failed): nothing runs.
    Failed(String),
}

impl MaskError {
    /// A failed mount of `path`: unavailable when the namespace may not mount at all.
    fn mount(path: &std::path::Path, e: nix::errno::Errno) -> MaskError {
        let said = format!("{}: {e}", path.display());
        match e {
            nix::errno::Errno::EPERM | nix::errno::Errno::EACCES => MaskError::Unavailable(said),
            _ => MaskError::Failed(said),
        }
    }

    pub(super) fn message(self) -> String {
        match self {
            MaskError::Unavailable(m) | MaskError::Failed(m) => m,
        }
    }
}

/// Masks `paths` in a private mount namespace (a user namespace too when not root), after
/// binding each of `pins` to itself, with what is mounted below it (a mount point cannot be
/// renamed: the way to goclaw's state stays where it is). A path that is not there now is
/// skipped: there is nothing there to hide.
pub(super) fn mask(
    ns: &mut Namespaces,
    pins: &[PathBuf],
    paths: &[PathBuf],
) -> Result<(), MaskError> {
    use nix::mount::{MsFlags, mount};
    if paths.is_empty() && pins.is_empty() {
        return Ok(());
    }
    let cwd = std::env::current_dir()
        .map_err(|e| MaskError::Failed(format!("working directory: {e}")))?;
    ns.private_mounts().map_err(|e| {
        MaskError::Unavailable(if nix::unistd::geteuid().is_root() {
            e
        } else {
            format!("{e}; install bubblewrap or move the store and config out of reach")
        })
    })?;
    for p in pins {
        mount(
            Some(p),
            p,
            None::<&str>,
            MsFlags::MS_BIND | MsFlags::MS_REC,
            None::<&str>,
        )
        .map_err(|e| MaskError::mount(p, e))?;
    }
    for p in paths {
        if std::fs::symlink_metadata(p).is_err() {
            continue;
        }
        if p.is_dir() {
            mount(
                Some("tmpfs"),
                p,
                Some("tmpfs"),
                MsFlags::MS_RDONLY | MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
                Some("size=4k,mode=0555"),
            )
            .map_err(|e| MaskError::mount(p, e))?;
        } else {
            mount(
                Some("/dev/null"),
                p,
                None::<&str>,
                MsFlags::MS_BIND,
                None::<&str>,
            )
            .and_then(|_| {
                mount(
                    None::<&str>,
                    p,
                    None::<&str>,
                    MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_RDONLY,
                    None::<&str>,
                )
            })
            .map_err(|e| MaskError::mount(p, e))?;
        }
    }
    // Entered again by its name: the process still stood in the directory as it was before
    // these mounts, where a relative path (`./secret.key`) would pass under the masks. A
    // working directory inside a masked one is not there any more: nothing runs.
    std::env::set_current_dir(&cwd).map_err(|e| {
        MaskError::Failed(format!(
            "the working directory {} is inside goclaw's state: {e}",
            cwd.display()
        ))
    })?;
    Ok(())
}
