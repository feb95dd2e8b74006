//! What a file tool's failure is: its message for the model and the kind a caller may tell
//! apart; and the messages for the kernel's refusals (`EXDEV` from a symlink out, …).

use nix::errno::Errno;

/// A file tool failure: the message for the model, and what kind of failure it is, for callers
/// that answer some kinds differently (a missing directory, a file where a directory was asked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FsError {
    pub message: String,
    pub kind: FsErrorKind,
}

/// The kinds of [`FsError`] a caller may tell apart; everything else is `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FsErrorKind {
    /// The path, or a directory on it, does not exist.
    NotFound,
    /// A directory was asked for and the path is something else.
    NotADirectory,
    Other,
}

impl FsError {
    pub(super) fn new(message: impl Into<String>) -> FsError {
        FsError::of(FsErrorKind::Other, message)
    }

    pub(super) fn of(kind: FsErrorKind, message: impl Into<String>) -> FsError {
        FsError {
            message: message.into(),
            kind,
        }
    }
}

impl std::fmt::Display for FsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

pub type FsResult<T> = Result<T, FsError>;

pub(super) fn errno_error(path: &str, e: Errno) -> FsError {
    match e {
        Errno::EXDEV => FsError::new("access denied: symlink leads outside the workspace"),
        Errno::ELOOP => FsError::new("access denied: symlink loop or link to a process's files"),
        Errno::ENOENT => FsError::of(
            FsErrorKind::NotFound,
            format!("no such file or directory: {path}"),
        ),
        Errno::ENOTDIR => FsError::of(
            FsErrorKind::NotADirectory,
            format!("not a directory: {path}"),
        ),
        Errno::EISDIR => FsError::new(format!("is a directory: {path}")),
        Errno::EACCES | Errno::EPERM => FsError::new(format!("permission denied: {path}")),
        Errno::EEXIST => FsError::new(format!("already exists: {path}")),
        Errno::ENOTEMPTY => FsError::new(format!("directory not empty: {path}")),
        other => FsError::new(format!("{path}: {}", other.desc())),
    }
}

/// As a command's error: a path that does not exist is exit 5 (not found), as the exit code
/// table says of a file; any other failure exit 1 (as `fs::failed_as` makes a tool's).
impl From<FsError> for crate::error::Error {
    fn from(e: FsError) -> crate::error::Error {
        match e.kind {
            FsErrorKind::NotFound => crate::error::Error::not_found(e.message),
            _ => crate::error::Error::failed(e.message),
        }
    }
}
