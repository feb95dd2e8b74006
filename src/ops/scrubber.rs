//! The scrubber every command uses: `[scrub]` from config (values, values files relative to the
//! config file, server addresses, detected ones) plus what a caller adds (`goclaw scrub`'s flags).

use std::path::{Path, PathBuf};

use super::Note;
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::text::scrub::{MIN_VALUE_LEN, Scrubber};

/// Values a caller adds to `[scrub]`.
#[derive(Debug, Clone, Default)]
pub struct ScrubExtras {
    pub values: Vec<String>,
    pub values_files: Vec<PathBuf>,
    pub server_ips: Vec<String>,
    pub detect_server_ips: bool,
}

/// Builds the scrubber; values too short to redact safely are dropped with a note.
pub fn build(settings: &Settings, extras: &ScrubExtras, notes: &mut Vec<Note>) -> Result<Scrubber> {
    let cfg = &settings.config.scrub;
    let config_dir = settings
        .config_path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut values: Vec<Vec<u8>> = cfg
        .values
        .iter()
        .chain(&extras.values)
        .map(|v| v.as_bytes().to_vec())
        .collect();
    let files = cfg
        .values_files
        .iter()
        .map(|p| config_dir.join(p))
        .chain(extras.values_files.iter().cloned());
    for path in files {
        let text = std::fs::read(&path).map_err(|e| Error::io("read values file", &path, &e))?;
        for line in text.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if !line.is_empty() {
                values.push(line.to_vec());
            }
        }
    }
    let short = values.iter().filter(|v| v.len() < MIN_VALUE_LEN).count();
    if short > 0 {
        notes.push(Note::Warn(format!(
            "{short} credential value(s) shorter than {MIN_VALUE_LEN} bytes ignored (too short to redact safely)"
        )));
    }
    let mut dynamic: Vec<Vec<u8>> = cfg
        .server_ips
        .iter()
        .chain(&extras.server_ips)
        .map(|v| v.as_bytes().to_vec())
        .collect();
    if extras.detect_server_ips || cfg.detect_server_ips {
        let found = crate::host::server_addresses().map_err(Error::failed)?;
        notes.push(Note::Detail(format!(
            "detected server addresses: {found:?}"
        )));
        dynamic.extend(found.iter().map(|ip| ip.to_string().into_bytes()));
    }
    Scrubber::new(&values, &dynamic).map_err(Error::internal)
}
