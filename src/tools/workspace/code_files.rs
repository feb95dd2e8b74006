//! What the file tools never write because a program the user runs reads it as code: a
//! repository's `.git`, and the home directory's start-up files when the workspace holds it.

use std::path::{Path, PathBuf};

use super::{FsError, FsResult, Workspace};

impl Workspace {
    /// The file tools write nothing that a program the user runs reads as code: inside a
    /// repository's `.git` (its config and hooks run at the next `git` command), nor, when the
    /// workspace holds the home directory, git's global config, shell and SSH start-up files
    /// and login autostarts ([`home_code_files`]). A file write there would be a way around
    /// exec's deny patterns and approvals (an approved `git status` would run it). Reading is
    /// allowed.
    pub(super) fn check_not_code(&self, rel: &Path) -> FsResult<()> {
        if rel.components().any(|c| c.as_os_str() == ".git") {
            return Err(FsError::new(format!(
                "access denied: {} is inside .git, whose config and hooks run as code at the next \
                 git command; change it with git itself",
                rel.display()
            )));
        }
        let code_files = self.code_files.get_or_init(|| home_code_files(&self.root));
        if let Some(file) = code_files.iter().find(|f| rel.starts_with(f)) {
            return Err(FsError::new(format!(
                "access denied: {} is read as code by programs you run (a shell, git, ssh, your \
                 desktop); the file tools do not write it",
                file.display()
            )));
        }
        Ok(())
    }
}

/// The files of the home directory (`$HOME`, and `$XDG_CONFIG_HOME`'s git config) that
/// programs read as code at start, relative to `root` when they lie inside it.
pub(super) fn home_code_files(root: &Path) -> Vec<PathBuf> {
    const IN_HOME: &[&str] = &[
        ".gitconfig",
        ".config/git",
        ".bashrc",
        ".bash_profile",
        ".bash_login",
        ".bash_logout",
        ".bash_aliases",
        ".profile",
        ".zshrc",
        ".zprofile",
        ".zshenv",
        ".zlogin",
        ".inputrc",
        ".xprofile",
        ".pam_environment",
        ".ssh",
        ".config/autostart",
        ".config/systemd",
        ".config/fish",
        ".config/environment.d",
    ];
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut files: Vec<PathBuf> = home
        .iter()
        .flat_map(|h| IN_HOME.iter().map(move |f| h.join(f)))
        .collect();
    if let Some(xdg) = std::env::var_os("XDG_CONFIG_HOME") {
        files.push(PathBuf::from(xdg).join("git"));
    }
    files
        .iter()
        .filter_map(|f| {
            let f = crate::tools::protected::canonical(f);
            f.strip_prefix(root).ok().map(Path::to_path_buf)
        })
        .filter(|f| !f.as_os_str().is_empty())
        .collect()
}
