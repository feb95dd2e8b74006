//! goclaw's temporary files: `.NAME.goclaw-tmp-PID-N` beside a file the file tools write,
//! `.NAME.goclaw-backup-PID` beside a `db backup`. The writer's pid is in the name, so one left
//! by a process that is gone (killed mid-write) is known to be stale, and the next writer in that
//! directory removes it.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

/// The mark of a file tool's temporary file.
pub const WRITE_MARK: &str = ".goclaw-tmp-";
/// The mark of a backup's temporary file.
pub const BACKUP_MARK: &str = ".goclaw-backup-";

/// The pid a temporary file's name carries, if the name is one of goclaw's.
pub fn owner(name: &OsStr) -> Option<i32> {
    let name = std::str::from_utf8(name.as_bytes()).ok()?;
    if !name.starts_with('.') {
        return None;
    }
    let rest = [WRITE_MARK, BACKUP_MARK]
        .iter()
        .find_map(|m| name.rfind(m).map(|at| &name[at + m.len()..]))?;
    rest.split('-').next()?.parse().ok()
}

/// Is `name` a goclaw temporary file whose process is gone?
pub fn is_stale(name: &OsStr) -> bool {
    owner(name).is_some_and(|pid| {
        pid > 0
            && nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None)
                == Err(nix::errno::Errno::ESRCH)
    })
}

/// Removes the stale temporary files in `dir`; returns how many.
pub fn remove_stale(dir: &std::path::Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| is_stale(&e.file_name()))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_their_writer() {
        assert_eq!(owner(OsStr::new(".a.txt.goclaw-tmp-1234-0")), Some(1234));
        assert_eq!(owner(OsStr::new(".backup.db.goclaw-backup-77")), Some(77));
        assert_eq!(owner(OsStr::new("a.goclaw-tmp-1-0")), None);
        assert_eq!(owner(OsStr::new(".x")), None);
        let me = std::process::id() as i32;
        assert!(!is_stale(OsStr::new(&format!(".a.goclaw-tmp-{me}-0"))));
        // No process has pid 2^22 + 1 (above the kernel's pid_max).
        assert!(is_stale(OsStr::new(".a.goclaw-tmp-4194305-0")));
    }
}
