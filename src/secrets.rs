//! Secrets at rest: AES-256-GCM with a key from `GOCLAW_SECRET_KEY` (64 hex digits) or from a
//! 0600 file `secret.key` beside the store, created on first use. A sealed value is the 12-byte
//! nonce followed by the ciphertext. Used for MCP servers' env values and headers.

use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use aes_gcm::aead::{Aead, Generate, Key, KeyInit};
use aes_gcm::{Aes256Gcm, Nonce};

use crate::error::{Error, Result};

const NONCE_LEN: usize = 12;

/// The key that seals and opens secrets.
pub struct SecretKey(Key<Aes256Gcm>);

impl SecretKey {
    /// `GOCLAW_SECRET_KEY` if set, else `secret.key` in `dir` (created, 0600, when missing).
    pub fn load(dir: &Path) -> Result<SecretKey> {
        if let Some(hex) = std::env::var_os("GOCLAW_SECRET_KEY").filter(|v| !v.is_empty()) {
            return Self::from_hex(&hex.to_string_lossy())
                .map_err(|e| Error::usage(format!("GOCLAW_SECRET_KEY: {e}")));
        }
        let path = key_path(dir);
        match std::fs::read_to_string(&path) {
            Ok(text) => Self::from_hex(text.trim())
                .map_err(|e| Error::usage(format!("{}: {e}", path.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Self::create(&path),
            Err(e) => Err(Error::io("read", &path, &e)),
        }
    }

    /// The key to open what was sealed: as [`SecretKey::load`], but never made (a new key opens
    /// nothing sealed before it).
    pub fn existing(dir: &Path) -> Result<SecretKey> {
        if std::env::var_os("GOCLAW_SECRET_KEY").is_some_and(|v| !v.is_empty())
            || key_path(dir).exists()
        {
            return Self::load(dir);
        }
        Err(Error::usage(format!(
            "no secret key to open sealed secrets: {} is gone and GOCLAW_SECRET_KEY is not set",
            key_path(dir).display()
        )))
    }

    fn from_hex(hex: &str) -> std::result::Result<SecretKey, String> {
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| {
                hex.get(i..i + 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
            })
            .collect::<Option<_>>()
            .ok_or("not hexadecimal")?;
        let key: [u8; 32] = bytes
            .try_into()
            .map_err(|_| "a key is 64 hex digits (32 bytes)")?;
        Ok(SecretKey(key.into()))
    }

    fn create(path: &Path) -> Result<SecretKey> {
        let key = Key::<Aes256Gcm>::try_generate()
            .map_err(|e| Error::internal(format!("no randomness for a key: {e}")))?;
        let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .map_err(|e| Error::io("create", path, &e))?;
        f.write_all(format!("{hex}\n").as_bytes())
            .map_err(|e| Error::io("write", path, &e))?;
        Ok(SecretKey(key))
    }

    /// Encrypts `plain`.
    pub fn seal(&self, plain: &[u8]) -> Result<Vec<u8>> {
        let nonce = Nonce::try_generate()
            .map_err(|e| Error::internal(format!("no randomness for a nonce: {e}")))?;
        let ct = Aes256Gcm::new(&self.0)
            .encrypt(&nonce, plain)
            .map_err(|_| Error::internal("encryption failed"))?;
        let mut out = nonce.to_vec();
        out.extend(ct);
        Ok(out)
    }

    /// Decrypts what [`SecretKey::seal`] made; fails on a wrong key or tampered data.
    pub fn open(&self, sealed: &[u8]) -> Result<Vec<u8>> {
        if sealed.len() < NONCE_LEN {
            return Err(Error::failed("a stored secret is damaged"));
        }
        let (nonce, ct) = sealed.split_at(NONCE_LEN);
        let nonce =
            Nonce::try_from(nonce).map_err(|_| Error::failed("a stored secret is damaged"))?;
        Aes256Gcm::new(&self.0)
            .decrypt(&nonce, ct)
            .map_err(|_| Error::failed("cannot decrypt a stored secret: wrong key (GOCLAW_SECRET_KEY or secret.key) or damaged data"))
    }
}

/// Variables (or headers) sealed together: a JSON object of names to values, `None` when
/// there are none. The form MCP servers, credentialed CLIs and custom tools keep.
pub fn seal_map(key: &SecretKey, map: &BTreeMap<String, String>) -> Result<Option<Vec<u8>>> {
    if map.is_empty() {
        return Ok(None);
    }
    let plain = serde_json::to_vec(map).map_err(|e| Error::internal(e.to_string()))?;
    key.seal(&plain).map(Some)
}

/// What [`seal_map`] made (`None`: no variables).
pub fn open_map(key: &SecretKey, sealed: Option<&[u8]>) -> Result<BTreeMap<String, String>> {
    match sealed {
        None => Ok(BTreeMap::new()),
        Some(b) => serde_json::from_slice(&key.open(b)?)
            .map_err(|e| Error::failed(format!("a stored secret is damaged: {e}"))),
    }
}

/// The names of a map's entries as a JSON array (what listings show instead of values).
pub fn names_json(map: &BTreeMap<String, String>) -> String {
    serde_json::to_string(&map.keys().collect::<Vec<_>>()).unwrap_or_else(|_| "[]".into())
}

/// Where the key file lives.
pub fn key_path(dir: &Path) -> PathBuf {
    dir.join("secret.key")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_open_and_tamper() {
        let dir = tempfile::tempdir().unwrap();
        let key = SecretKey::load(dir.path()).unwrap();
        let sealed = key.seal(b"token=abc").unwrap();
        assert_ne!(&sealed[NONCE_LEN..], b"token=abc");
        assert_eq!(key.open(&sealed).unwrap(), b"token=abc");
        let again = SecretKey::load(dir.path()).unwrap();
        assert_eq!(again.open(&sealed).unwrap(), b"token=abc");
        let mut bad = sealed.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(key.open(&bad).is_err());
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(key_path(dir.path()))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600);
        assert!(SecretKey::from_hex("zz").is_err());
    }
}
