//! goclaw's own state, which no tool may read or change: the store (with its `-wal`, `-shm` and
//! `-journal` files), the key that seals secrets, the config file, and the directories the file
//! tools refuse inside the workspace (`.goclaw/`, where their backups go). The file tools deny
//! these paths wherever they resolve ([`super::workspace`]), and the exec sandbox masks them
//! ([`super::exec::sandbox`]), as the supervisor of a stdio MCP server does where the host
//! allows it ([`to_mask`]): a command sees an empty directory or an empty file there, however
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

/// The file that stands for the store in [`paths`]: the SQLite file; on PostgreSQL, what is
/// goclaw's own on this machine is the key beside where the SQLite store would be.
pub fn store_file(store: &crate::store::StoreTarget, key_dir: &Path) -> PathBuf {
    match store.sqlite_path() {
        Some(path) => path.to_path_buf(),
        None => crate::secrets::key_path(key_dir),
    }
}

/// goclaw's state on this machine ([`paths`]) for a store (and the directory of its key), a
/// config file and a workspace; with a PostgreSQL store, its password file too (libpq's, read
/// for it).
pub fn of_state(
    (store, key_dir): (&crate::store::StoreTarget, &Path),
    config: &Path,
    workspace: &Path,
    denied_names: &[String],
) -> Vec<PathBuf> {
    let mut out = paths(
        &store_file(store, key_dir),
        Some(config),
        workspace,
        denied_names,
    );
    // The key beside the store as it was named, when that is not where the store really is
    // (a store that is a symlink).
    out.push(canonical(&crate::secrets::key_path(key_dir)));
    if store.sqlite_path().is_none()
        && let Some(file) = crate::store::location::password_file()
    {
        out.push(std::fs::canonicalize(&file).unwrap_or(file));
    }
    out.sort();
    out.dedup();
    out
}

/// What to mask of `protected`: the paths that exist, less those inside another (hidden with
/// it).
pub fn to_mask(protected: &[PathBuf]) -> Vec<PathBuf> {
    let existing: Vec<&PathBuf> = protected.iter().filter(|p| p.exists()).collect();
    existing
        .iter()
        .filter(|p| !existing.iter().any(|d| d != *p && p.starts_with(d)))
        .map(|p| (*p).clone())
        .collect()
}

/// Creates each of goclaw's state paths among `protected` that is missing, as goclaw itself
/// would create it, so that the sandbox masks it like the rest: the secret key (a new key) and
/// the log directory (private) always; a store's `-wal`, `-shm` or `-journal` (empty) and the
/// config file (empty: the defaults) where a command could write, strictly inside a directory of
/// `writable`. Left missing, a command could create them first (a journal or WAL for the store
/// to replay, a key, a config that turns the sandbox off, a log directory of symlinks for the
/// keeper to follow), and goclaw would trust them later.
pub fn create_missing(
    protected: &[PathBuf],
    config: Option<&Path>,
    writable: &[PathBuf],
) -> Result<(), String> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let config = config.map(canonical);
    let reachable = |p: &Path| writable.iter().any(|w| p.starts_with(w) && p != w);
    for path in protected {
        if std::fs::symlink_metadata(path).is_ok() {
            continue;
        }
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.as_deref().unwrap_or_default();
        let why = |e: &dyn std::fmt::Display| format!("cannot create {}: {e}", path.display());
        let parent = path.parent().unwrap_or(Path::new("/"));
        let empty_file = |text: &str| -> Result<(), String> {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(parent)
                .map_err(|e| why(&e))?;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(nix::libc::O_NOFOLLOW)
                .open(path)
                .map_err(|e| why(&e))?;
            std::io::Write::write_all(&mut f, text.as_bytes()).map_err(|e| why(&e))
        };
        // The key and the log directory are made whatever the reach (goclaw makes them on
        // first use anyway), so one made later is not left readable to a command still running;
        // files that users see beside their store or config only where a command could write.
        if *path == crate::secrets::key_path(parent) {
            crate::secrets::SecretKey::load(parent).map_err(|e| why(&e))?;
        } else if *path == super::exec::background::logs_root(parent) {
            super::exec::background::create_root(parent).map_err(|e| why(&e))?;
        } else if !reachable(path) {
        } else if STORE_SIDECARS.iter().any(|s| name.ends_with(s)) {
            empty_file("")?;
        } else if config.as_deref() == Some(path.as_path()) {
            empty_file(
                "# goclaw's config: empty (the defaults). goclaw created it so that no sandboxed\n\
                 # command could write one here first.\n",
            )?;
        }
    }
    Ok(())
}

/// A symlink on the way to `path` (the path as goclaw is given it, which it resolves again
/// each time it starts) that lies in a directory of `writable`: a command could replace it,
/// and goclaw would open a store or config of the command's making next time. The masks and
/// pins hold the path's target, not the link.
pub fn replaceable_link(path: &Path, writable: &[PathBuf]) -> Option<PathBuf> {
    let path = std::path::absolute(path).ok()?;
    path.ancestors()
        .filter(|a| std::fs::symlink_metadata(a).is_ok_and(|m| m.file_type().is_symlink()))
        .find(|a| {
            a.parent()
                .map(canonical)
                .is_some_and(|dir| writable.iter().any(|w| dir.starts_with(w)))
        })
        .map(Path::to_path_buf)
}

/// Every directory strictly between a directory of `writable` and one of `masked` (shallowest
/// first): the sandbox pins each to itself, as a mount point, so that a command cannot rename
/// it (the kernel refuses to move a mount point) and leave a path of its own making where
/// goclaw will look for its state next time.
pub fn ancestors_to_pin(masked: &[PathBuf], writable: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for m in masked {
        for w in writable.iter().filter(|w| m.starts_with(w)) {
            out.extend(
                m.ancestors()
                    .skip(1)
                    .take_while(|a| a.starts_with(w) && a != w)
                    .map(Path::to_path_buf),
            );
        }
    }
    out.sort_by_key(|p| (p.components().count(), p.clone()));
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
    fn the_directories_between_a_writable_root_and_a_mask_are_pinned() {
        let w = [PathBuf::from("/tmp"), PathBuf::from("/w")];
        let masked = [
            PathBuf::from("/tmp/t/home"),
            PathBuf::from("/w/a/state"),
            PathBuf::from("/w/x.db"),
            PathBuf::from("/etc/goclaw/c.toml"),
        ];
        assert_eq!(
            ancestors_to_pin(&masked, &w),
            ["/tmp/t", "/w/a"].map(PathBuf::from).to_vec()
        );
    }

    #[test]
    fn missing_state_is_made_as_goclaw_makes_it() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        let ws = root.join("ws");
        std::fs::create_dir_all(&ws).unwrap();
        std::fs::write(ws.join("x.db"), "").unwrap();
        let config = root.join("home/config.toml");
        let p = paths(&ws.join("x.db"), Some(&config), &ws, &[]);
        // Out of reach: only the key and the log directory.
        create_missing(&p, Some(&config), &[]).unwrap();
        assert!(ws.join("secret.key").exists() && ws.join("processes").is_dir());
        assert!(!ws.join("x.db-journal").exists() && !config.exists());
        // Within reach: the rest too, and nothing made twice or replaced.
        std::fs::write(ws.join("x.db-wal"), "frames").unwrap();
        let key = std::fs::read(ws.join("secret.key")).unwrap();
        create_missing(&p, Some(&config), std::slice::from_ref(&root)).unwrap();
        assert_eq!(std::fs::read(ws.join("x.db-journal")).unwrap(), b"");
        assert_eq!(std::fs::read(ws.join("x.db-wal")).unwrap(), b"frames");
        assert_eq!(std::fs::read(ws.join("secret.key")).unwrap(), key);
        assert!(std::fs::read_to_string(&config).unwrap().starts_with('#'));
        create_missing(&p, Some(&config), std::slice::from_ref(&root)).unwrap();
    }

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
