//! goclaw's own state, which no tool may read or change: the store (with its `-wal`, `-shm` and
//! `-journal` files), the key that seals secrets, the config file, and the directories the file
//! tools refuse inside the workspace (`.goclaw/`, where their backups go). The file tools deny
//! these paths wherever they resolve ([`super::workspace`]), and the exec sandbox masks them
//! ([`super::exec::sandbox`]): a command sees an empty directory or an empty file there, however
//! it names the path (`~`, `$HOME`, a glob, a symlink, `cd` first). With `sandbox = "none"`
//! nothing masks them, and `--dry-run` says so.
//!
//! The store's directory is masked whole when it is goclaw's own (the default data directory, or
//! any directory that neither is nor contains the workspace and is not a shared one such as
//! `$HOME` or `/tmp`); otherwise only the files are.

use std::path::{Path, PathBuf};

/// Files SQLite keeps beside a database.
const STORE_SIDECARS: &[&str] = &["-wal", "-shm", "-journal"];

/// Directories that hold much more than goclaw's state: never masked whole.
fn shared_dir(dir: &Path) -> bool {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    dir.parent().is_none()
        || [
            Path::new("/tmp"),
            Path::new("/var/tmp"),
            Path::new("/dev/shm"),
        ]
        .contains(&dir)
        || home
            .as_deref()
            .and_then(|h| h.canonicalize().ok())
            .as_deref()
            == Some(dir)
}

/// `path` made absolute and canonical as far as it exists (a missing last component is kept).
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) if !parent.as_os_str().is_empty() => {
            canonical(parent).join(name)
        }
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

/// The protected paths (absolute, canonical) for a store, a config file and a workspace.
/// `denied_names` are the workspace-relative names the file tools refuse (`[tools] denied_paths`).
pub fn paths(
    store: &Path,
    config: Option<&Path>,
    workspace: &Path,
    denied_names: &[String],
) -> Vec<PathBuf> {
    let workspace = canonical(workspace);
    let store = canonical(store);
    let mut out = Vec::new();
    if let Some(dir) = store.parent() {
        if !workspace.starts_with(dir) && !shared_dir(dir) {
            out.push(dir.to_path_buf());
        } else {
            out.push(store.clone());
            for s in STORE_SIDECARS {
                let mut name = store.as_os_str().to_os_string();
                name.push(s);
                out.push(PathBuf::from(name));
            }
            out.push(crate::secrets::key_path(dir));
            out.push(super::exec::background::logs_root(dir));
        }
    }
    if let Some(c) = config {
        out.push(canonical(c));
    }
    for name in denied_names.iter().filter(|n| !n.trim().is_empty()) {
        let rel = Path::new(name.trim().trim_end_matches('/'));
        if rel.is_relative() {
            out.push(workspace.join(rel));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The protected paths that lie inside `root`, relative to it (what the file tools refuse).
pub fn relative_to(paths: &[PathBuf], root: &Path) -> Vec<String> {
    let root = canonical(root);
    paths
        .iter()
        .filter_map(|p| p.strip_prefix(&root).ok())
        .filter(|r| !r.as_os_str().is_empty())
        .map(|r| r.display().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_store_directory_is_masked_whole_a_shared_one_file_by_file() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        let data = root.join("data");
        let ws = root.join("ws");
        std::fs::create_dir_all(&data).unwrap();
        std::fs::create_dir_all(&ws).unwrap();
        let p = paths(&data.join("goclaw.db"), None, &ws, &[".goclaw".into()]);
        assert_eq!(p, vec![data.clone(), ws.join(".goclaw")]);
        // The store inside the workspace: the files, not the workspace.
        let p = paths(
            &ws.join("state/x.db"),
            Some(&ws.join("goclaw.toml")),
            &ws,
            &[],
        );
        assert!(p.contains(&ws.join("state")), "{p:?}");
        let p = paths(&ws.join("x.db"), Some(&ws.join("goclaw.toml")), &ws, &[]);
        assert!(p.contains(&ws.join("x.db")));
        assert!(p.contains(&ws.join("x.db-wal")));
        assert!(p.contains(&ws.join("secret.key")));
        assert!(p.contains(&ws.join("goclaw.toml")));
        assert!(!p.contains(&ws));
        assert_eq!(
            relative_to(&p, &ws),
            vec![
                "goclaw.toml",
                "processes",
                "secret.key",
                "x.db",
                "x.db-journal",
                "x.db-shm",
                "x.db-wal"
            ]
        );
        // /tmp is never masked whole.
        let p = paths(Path::new("/tmp/goclaw-test-x.db"), None, &ws, &[]);
        assert!(!p.contains(&PathBuf::from("/tmp")));
    }
}
