//! The media tools (seed 000 §2, groups `media_gen` and `media_read`; issue 20 §2), over the
//! OpenAI-compatible endpoints that hosted and local servers share:
//!
//! - `create_image`: `POST /images/generations`; `tts` and `create_audio`: `POST /audio/speech`
//!   (an OpenAI-compatible server has speech only, no music or sound effects). What they make
//!   is written into the workspace through the file tools' containment, and its path returned.
//! - `read_audio`: `POST /audio/transcriptions` (a multipart upload; local Whisper-compatible
//!   servers speak it too); `read_image`: a chat call with the image as a part, to the vision
//!   provider (OpenAI or Anthropic wire format); `read_document`: a PDF's text, extracted here
//!   ([`pdf`]), or, for a PDF without text (scanned pages), the PDF itself to the vision
//!   provider as a document part.
//!
//! `[media]` chooses the providers and models ([`MediaConfig`]). Requests go through the same
//! guard as `openai_compat_call`: the provider's own host may be private, no redirect is
//! followed, and the key is scrubbed from what comes back.

pub mod generate;
pub mod pdf;
pub mod read;
mod vision;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::provider_call::{self, Answer, Body};
use super::workspace::Workspace;
use super::{CallContext, Tool};
use crate::error::{Error, ErrorKind, Result};
use crate::providers::{self, Kind, Resolved};

/// The largest file a tool sends (an image, a recording, a PDF).
pub const MAX_INPUT: usize = 25 << 20;
/// The largest answer a tool reads (an image or a recording it writes).
pub const MAX_OUTPUT: usize = 32 << 20;
/// Where made files go when the call names no path.
pub const OUT_DIR: &str = "media";

/// `[media]`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct MediaConfig {
    /// The OpenAI-compatible provider for images, speech and transcription (a key of
    /// `[providers]`, or `openai` from the environment).
    pub provider: String,
    /// The provider that looks at images and scanned documents (OpenAI or Anthropic wire
    /// format). Unset: the run's own provider, or `provider` outside a run.
    pub vision_provider: Option<String>,
    /// The vision model. Unset: the run's model with the run's provider, else the provider's.
    pub vision_model: Option<String>,
    pub image_model: String,
    /// `WIDTHxHEIGHT`, e.g. `1024x1024`.
    pub image_size: String,
    pub speech_model: String,
    pub voice: String,
    /// `mp3`, `opus`, `aac`, `flac`, `wav` or `pcm`.
    pub speech_format: String,
    pub transcription_model: String,
    /// Seconds a media request may take.
    pub timeout_secs: u64,
}

impl Default for MediaConfig {
    fn default() -> Self {
        MediaConfig {
            provider: "openai".into(),
            vision_provider: None,
            vision_model: None,
            image_model: "gpt-image-1".into(),
            image_size: "1024x1024".into(),
            speech_model: "gpt-4o-mini-tts".into(),
            voice: "alloy".into(),
            speech_format: "mp3".into(),
            transcription_model: "whisper-1".into(),
            timeout_secs: 120,
        }
    }
}

/// The media tools.
pub fn tools() -> Vec<Box<dyn Tool>> {
    vec![
        Box::new(generate::CreateImage),
        Box::new(generate::Speech::TTS),
        Box::new(generate::Speech::CREATE_AUDIO),
        Box::new(read::ReadImage),
        Box::new(read::ReadAudio),
        Box::new(read::ReadDocument),
    ]
}

/// A provider as a media call uses it.
struct Endpoint {
    resolved: Resolved,
    timeout: Duration,
}

impl Endpoint {
    /// Provider `name` of the configuration (or `openai`/`anthropic` from the environment).
    fn of(ctx: &CallContext, name: &str) -> Result<Endpoint> {
        if !ctx.providers.contains_key(name) && !["openai", "anthropic"].contains(&name) {
            return Err(Error::not_found(format!(
                "unknown provider `{name}` ([media] names it): the configured ones are {}",
                ctx.providers.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        }
        let env = |k: &str| std::env::var(k).ok();
        let resolved = providers::resolve(&ctx.providers, name, &env)?;
        if resolved.config.kind == Kind::Replay {
            return Err(Error::usage(format!(
                "provider `{name}` is a replay: it cannot make or read media"
            )));
        }
        Ok(Endpoint {
            resolved,
            timeout: ctx
                .stop
                .cap(Duration::from_secs(ctx.media.timeout_secs.max(1))),
        })
    }

    /// The OpenAI-compatible media provider.
    fn openai(ctx: &CallContext) -> Result<Endpoint> {
        let e = Endpoint::of(ctx, &ctx.media.provider)?;
        if e.resolved.config.kind != Kind::Openai {
            return Err(Error::usage(format!(
                "provider `{}` ([media] provider) is not OpenAI-compatible (kind = \"openai\")",
                e.resolved.name
            )));
        }
        Ok(e)
    }

    /// Sends `body` to `path` under the base URL; the answer when it is a success, else an
    /// error that says what the server said (the key taken out).
    fn send(&self, ctx: &CallContext, path: &str, body: Body, limit: usize) -> Result<Answer> {
        let url = provider_call::endpoint(&self.resolved.base_url, path).map_err(Error::usage)?;
        let headers = provider_call::auth_headers(
            self.resolved.config.kind,
            self.resolved.api_key.as_deref(),
        );
        let answer = super::web::block_on(async {
            provider_call::send(
                &ctx.web,
                &url,
                provider_call::Reach::Provider,
                &headers,
                body,
                self.timeout,
                limit,
            )
            .await
            .map_err(|e| e.to_string())
        })
        .map_err(|e| Error::new(ErrorKind::Upstream, format!("{}: {e}", self.resolved.name)))?;
        if !(200..300).contains(&answer.status) {
            let text = crate::text::redact_then_cut(
                &String::from_utf8_lossy(&answer.bytes),
                &self
                    .resolved
                    .api_key
                    .as_deref()
                    .into_iter()
                    .collect::<Vec<_>>(),
                2048,
            );
            return Err(Error::new(
                ErrorKind::Upstream,
                format!(
                    "{} answered HTTP {} at {path}: {}",
                    self.resolved.name,
                    answer.status,
                    text.trim()
                ),
            ));
        }
        if answer.cut {
            return Err(Error::new(
                ErrorKind::Upstream,
                format!(
                    "{} answered more than {} MiB at {path}",
                    self.resolved.name,
                    limit >> 20
                ),
            ));
        }
        Ok(answer)
    }

    /// The answer as JSON, with the provider's key taken out wherever the server put it (an
    /// echo of the request's headers must not bring it back).
    fn json(&self, ctx: &CallContext, path: &str, body: Body) -> Result<Value> {
        let a = self.send(ctx, path, body, MAX_OUTPUT)?;
        let text = String::from_utf8_lossy(&a.bytes);
        let text = match self.resolved.api_key.as_deref().filter(|k| k.len() >= 4) {
            Some(key) => text.replace(key, "[REDACTED]"),
            None => text.into_owned(),
        };
        serde_json::from_str(&text).map_err(|e| {
            Error::new(
                ErrorKind::Upstream,
                format!("{} answered {path} with no JSON: {e}", self.resolved.name),
            )
        })
    }
}

/// A workspace file a media tool reads: its bytes (at most [`MAX_INPUT`]) and its name.
fn read_input(ctx: &CallContext, args: &Map<String, Value>) -> Result<(Vec<u8>, String)> {
    let path = super::trimmed_arg(args, "path");
    if path.is_empty() {
        return Err(Error::usage("path is required"));
    }
    let ws =
        Workspace::open(&ctx.workspace, &ctx.denied_paths).map_err(|e| Error::failed(e.message))?;
    // A file that is not there is exit 5.
    let (file, _) = ws.open_file(path)?;
    let mut bytes = Vec::new();
    use std::io::Read;
    file.take(MAX_INPUT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::failed(format!("{path}: {e}")))?;
    if bytes.len() > MAX_INPUT {
        return Err(Error::usage(format!(
            "{path} is larger than {} MiB",
            MAX_INPUT >> 20
        )));
    }
    Ok((bytes, path.to_string()))
}

/// Writes what a tool made into the workspace: at `path`, or under `media/` named by `stem`,
/// the time and the type's extension. The workspace-relative path written.
fn write_output(
    ctx: &CallContext,
    args: &Map<String, Value>,
    stem: &str,
    bytes: &[u8],
    ext: &str,
) -> Result<String> {
    let asked = super::trimmed_arg(args, "path");
    let path = if asked.is_empty() {
        format!("{OUT_DIR}/{stem}-{}.{ext}", crate::store::now_ms())
    } else {
        asked.to_string()
    };
    let ws =
        Workspace::open(&ctx.workspace, &ctx.denied_paths).map_err(|e| Error::failed(e.message))?;
    let target = ws
        .target(&path, true)
        .map_err(|e| Error::failed(e.message))?;
    if ws
        .stat_in(&target)
        .map_err(|e| Error::failed(e.message))?
        .is_some()
    {
        ws.backup(&target).map_err(|e| Error::failed(e.message))?;
    }
    ws.write_atomic(&target, bytes)
        .map_err(|e| Error::failed(e.message))?;
    Ok(path)
}

/// The MIME type and extension of media bytes, from their first bytes.
pub fn sniff(bytes: &[u8]) -> Option<(&'static str, &'static str)> {
    let starts = |p: &[u8]| bytes.starts_with(p);
    let riff = |kind: &[u8]| starts(b"RIFF") && bytes.get(8..12) == Some(kind);
    Some(if starts(b"\x89PNG\r\n\x1a\n") {
        ("image/png", "png")
    } else if starts(b"\xff\xd8\xff") {
        ("image/jpeg", "jpg")
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        ("image/gif", "gif")
    } else if riff(b"WEBP") {
        ("image/webp", "webp")
    } else if riff(b"WAVE") {
        ("audio/wav", "wav")
    } else if starts(b"ID3") || (bytes.len() > 1 && bytes[0] == 0xff && bytes[1] & 0xe0 == 0xe0) {
        ("audio/mpeg", "mp3")
    } else if starts(b"OggS") {
        ("audio/ogg", "ogg")
    } else if starts(b"fLaC") {
        ("audio/flac", "flac")
    } else if starts(b"%PDF-") {
        ("application/pdf", "pdf")
    } else if bytes.get(4..8) == Some(b"ftyp") {
        ("audio/mp4", "m4a")
    } else {
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(512)]).to_ascii_lowercase();
        if head.trim_start().starts_with("<svg")
            || (head.contains("<?xml") && head.contains("<svg"))
        {
            ("image/svg+xml", "svg")
        } else {
            return None;
        }
    })
}

/// A short answer for the model: JSON text.
fn answer(v: Value) -> super::ToolResult {
    super::ToolResult::text(v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_are_known_by_their_first_bytes() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\nrest"), Some(("image/png", "png")));
        assert_eq!(sniff(b"\xff\xd8\xff\xe0"), Some(("image/jpeg", "jpg")));
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some(("image/webp", "webp")));
        assert_eq!(sniff(b"RIFF\0\0\0\0WAVEfmt "), Some(("audio/wav", "wav")));
        assert_eq!(sniff(b"ID3\x04"), Some(("audio/mpeg", "mp3")));
        assert_eq!(sniff(b"%PDF-1.7"), Some(("application/pdf", "pdf")));
        assert_eq!(
            sniff(b"<?xml version=\"1.0\"?><svg xmlns=\"\"/>"),
            Some(("image/svg+xml", "svg"))
        );
        assert_eq!(sniff(b"hello"), None);
    }
}
