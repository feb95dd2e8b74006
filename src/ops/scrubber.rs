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

/// The largest values file read (a credential list, not a data set: 64 MiB).
const MAX_VALUES_FILE: u64 = 64 << 20;

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
        let text = std::fs::File::open(&path)
            .and_then(|f| crate::host::read_at_most(f, MAX_VALUES_FILE))
            .map_err(|e| Error::io("read values file", &path, &e))?
            .ok_or_else(|| {
                Error::usage(format!(
                    "values file {} is larger than {} MiB",
                    path.display(),
                    MAX_VALUES_FILE >> 20
                ))
            })?;
        for line in text.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if !line.is_empty() {
                values.push(line.to_vec());
            }
        }
    }
    // The PostgreSQL store's password, wherever it came from: a tool that finds it (in a file
    // of the workspace, in a command's output) shows it redacted.
    if let Some(target) = settings.pg_target()
        && let Some(p) =
            crate::store::location::password(&target.url, target.password_env.as_deref())
        && p.len() >= MIN_VALUE_LEN
    {
        values.push(p.into_bytes());
    }
    // Every provider's API key, and the default ones': a model that repeats its key (asked to,
    // or from a file it read) has it redacted in answers, sessions, traces and the audit.
    let key_variables = settings
        .config
        .providers
        .values()
        .filter_map(crate::providers::key_variable)
        .chain([
            "OPENAI_API_KEY".to_string(),
            "ANTHROPIC_API_KEY".to_string(),
        ]);
    for variable in key_variables {
        if let Some(key) = std::env::var_os(&variable)
            && key.len() >= MIN_VALUE_LEN
            && !values
                .iter()
                .any(|v| v.as_slice() == key.as_encoded_bytes())
        {
            values.push(key.into_encoded_bytes());
        }
    }
    let short = values.iter().filter(|v| v.len() < MIN_VALUE_LEN).count();
    if short > 0 {
        notes.push(Note::Warn(format!(
            "{short} credential value(s) shorter than {MIN_VALUE_LEN} bytes ignored (too short to redact safely)"
        )));
    }
    let mut dynamic: Vec<Vec<u8>> = Vec::new();
    for v in cfg.server_ips.iter().chain(&extras.server_ips) {
        let Ok(ip) = v.parse::<std::net::IpAddr>() else {
            return Err(Error::usage(format!(
                "server address `{v}` is not an IP address (e.g. 10.0.0.8 or fd00::1)"
            )));
        };
        // `::` and `0.0.0.0` name no server, and `::` would take the `::` out of `std::io`.
        if ip.is_unspecified() {
            return Err(Error::usage(format!(
                "server address `{v}` is the unspecified address, not a server's"
            )));
        }
        dynamic.push(v.as_bytes().to_vec());
        dynamic.extend(address_forms(ip));
    }
    if extras.detect_server_ips || cfg.detect_server_ips {
        let found = crate::host::server_addresses().map_err(Error::failed)?;
        notes.push(Note::Detail(format!(
            "detected server addresses: {found:?}"
        )));
        for ip in found {
            dynamic.extend(address_forms(ip));
        }
    }
    Scrubber::new(&values, &dynamic).map_err(Error::internal)
}

/// The ways an address is written: as given (added by the caller), and for IPv6 every
/// spelling of its groups (each with its leading zeros or without them), with `::` in place of
/// any run of zero groups or of none, in lower and upper case: `2001:db8::1`,
/// `2001:db8:0:0:0:0:0:1`, `2001:0DB8:0000:…` (only the shortest and the padded forms were
/// redacted). Duplicates are dropped by the scrubber.
fn address_forms(ip: std::net::IpAddr) -> Vec<Vec<u8>> {
    let std::net::IpAddr::V6(v6) = ip else {
        return vec![ip.to_string().into_bytes()];
    };
    let groups = v6.segments();
    // `::` may stand for any run of zero groups (`None`: for none).
    let mut runs = vec![None];
    for start in 0..8 {
        for end in start + 1..=8 {
            if groups[start..end].iter().all(|g| *g == 0) {
                runs.push(Some((start, end)));
            }
        }
    }
    let mut forms = Vec::new();
    for run in runs {
        for padded in [false, true] {
            let spell = |g: &u16| match padded {
                true => format!("{g:04x}"),
                false => format!("{g:x}"),
            };
            let form = match run {
                None => groups.iter().map(spell).collect::<Vec<_>>().join(":"),
                Some((start, end)) => {
                    let before: Vec<String> = groups[..start].iter().map(spell).collect();
                    let after: Vec<String> = groups[end..].iter().map(spell).collect();
                    format!("{}::{}", before.join(":"), after.join(":"))
                }
            };
            forms.push(form.to_uppercase().into_bytes());
            forms.push(form.into_bytes());
        }
    }
    forms
}

#[cfg(test)]
mod tests {
    use super::address_forms;

    fn forms(ip: &str) -> Vec<String> {
        let ip = ip.parse().unwrap();
        address_forms(ip)
            .into_iter()
            .map(|f| String::from_utf8(f).unwrap())
            .collect()
    }

    #[test]
    fn every_spelling_of_an_ipv6_address_is_a_form_of_it() {
        let all = forms("fd00::8");
        for spelled in [
            "fd00::8",
            "fd00:0:0:0:0:0:0:8",
            "fd00:0000:0000:0000:0000:0000:0000:0008",
            "fd00:0::8",
            "fd00::0:8",
            "FD00:0:0:0:0:0:0:8",
        ] {
            assert!(all.iter().any(|f| f == spelled), "{spelled} in {all:?}");
        }
        let loopback = forms("::1");
        assert!(loopback.iter().any(|f| f == "0:0:0:0:0:0:0:1"));
        assert_eq!(forms("10.0.0.8"), ["10.0.0.8"]);
    }
}
