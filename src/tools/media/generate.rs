//! `create_image`, `tts` and `create_audio`: media made by the `[media]` provider and written
//! into the workspace.

use base64::Engine;
use serde_json::{Map, Value, json};

use super::{Endpoint, MAX_OUTPUT, answer, sniff, write_output};
use crate::error::{Error, ErrorKind, Result};
use crate::store::Store;
use crate::tools::provider_call::Body;
use crate::tools::{CallContext, Risk, Tool, ToolResult};

/// `create_image {prompt, path?, size?}`.
pub struct CreateImage;

impl Tool for CreateImage {
    fn name(&self) -> &str {
        "create_image"
    }
    fn description(&self) -> &str {
        "Generate an image from a text prompt and write it into the workspace; returns its path"
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "prompt":{"type":"string","description":"What the image shows"},
            "path":{"type":"string","description":"Where to write it in the workspace (default media/image-TIME.EXT)"},
            "size":{"type":"string","description":"WIDTHxHEIGHT, e.g. 1024x1024"}},
            "required":["prompt"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn outbound(&self) -> bool {
        true
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>, _: &mut Store) -> ToolResult {
        ToolResult::from_result(create_image(ctx, args))
    }
}

fn create_image(ctx: &CallContext, args: &Map<String, Value>) -> Result<ToolResult> {
    let prompt = crate::tools::trimmed_arg(args, "prompt");
    if prompt.is_empty() {
        return Err(Error::usage("prompt is required"));
    }
    let size = crate::tools::given_arg(args, "size").unwrap_or(&ctx.media.image_size);
    let endpoint = Endpoint::openai(ctx)?;
    let body = json!({
        "model": ctx.media.image_model,
        "prompt": prompt,
        "n": 1,
        "size": size,
        "response_format": "b64_json",
    });
    let doc = endpoint.json(ctx, "/images/generations", Body::Json(body))?;
    let first = &doc["data"][0];
    let bytes = match (first["b64_json"].as_str(), first["url"].as_str()) {
        (Some(b64), _) => decode(b64)?,
        (None, Some(url)) if url.starts_with("data:") => data_url(url)?,
        (None, Some(url)) => fetch(ctx, url)?,
        (None, None) => {
            return Err(Error::new(
                ErrorKind::Upstream,
                "the provider answered without an image (no data[0].b64_json or url)",
            ));
        }
    };
    let (mime, ext) = sniff(&bytes).ok_or_else(|| {
        Error::new(
            ErrorKind::Upstream,
            "the provider's image is of no known type (PNG, JPEG, GIF, WebP, SVG)",
        )
    })?;
    if !mime.starts_with("image/") {
        return Err(Error::new(
            ErrorKind::Upstream,
            format!("the provider answered {mime}, not an image"),
        ));
    }
    let path = write_output(ctx, args, "image", &bytes, ext)?;
    let mut a = json!({"path": path, "type": mime, "bytes": bytes.len()});
    if let Some(r) = first["revised_prompt"].as_str() {
        a["revised_prompt"] = r.into();
    }
    Ok(answer(a))
}

fn decode(b64: &str) -> Result<Vec<u8>> {
    base64::engine::general_purpose::STANDARD
        .decode(b64.trim())
        .map_err(|e| Error::new(ErrorKind::Upstream, format!("the image is not base64: {e}")))
}

/// The bytes of a `data:…;base64,…` URL.
fn data_url(url: &str) -> Result<Vec<u8>> {
    match url.split_once(',') {
        Some((head, data)) if head.ends_with(";base64") => decode(data),
        _ => Err(Error::new(
            ErrorKind::Upstream,
            "the image's data URL is not base64",
        )),
    }
}

/// An image the provider left at a URL: fetched with the whole SSRF guard (it is not the
/// provider's own host), at most [`MAX_OUTPUT`] bytes.
fn fetch(ctx: &CallContext, url: &str) -> Result<Vec<u8>> {
    use crate::tools::provider_call::{Reach, SendError, send};
    let parsed = reqwest::Url::parse(url)
        .map_err(|e| Error::new(ErrorKind::Upstream, format!("image URL `{url}`: {e}")))?;
    let timeout = ctx.stop.cap(std::time::Duration::from_secs(
        ctx.media.timeout_secs.max(1),
    ));
    let sent = crate::tools::web::block_on(async {
        Ok(send(
            &ctx.web,
            &parsed,
            Reach::Public,
            &[],
            Body::Empty,
            timeout,
            MAX_OUTPUT,
        )
        .await)
    })
    .map_err(|e| Error::new(ErrorKind::Upstream, e))?;
    let answer = sent.map_err(|e| match e {
        SendError::Refused(m) => Error::new(
            ErrorKind::Denied,
            format!("the provider's image URL {url} refused: {m}"),
        ),
        SendError::Failed(m) => Error::new(ErrorKind::Upstream, m),
    })?;
    if !(200..300).contains(&answer.status) {
        return Err(Error::new(
            ErrorKind::Upstream,
            format!("{url} answered HTTP {}", answer.status),
        ));
    }
    if answer.cut {
        return Err(Error::new(
            ErrorKind::Upstream,
            format!("{url}: more than {} MiB", MAX_OUTPUT >> 20),
        ));
    }
    Ok(answer.bytes)
}

/// `tts {text, path?, voice?}` and `create_audio` (the same call: an OpenAI-compatible server
/// makes speech, not music or sound effects).
pub struct Speech {
    name: &'static str,
    description: &'static str,
}

impl Speech {
    pub const TTS: Speech = Speech {
        name: "tts",
        description: "Turn text into speech and write the audio into the workspace; returns its path",
    };
    pub const CREATE_AUDIO: Speech = Speech {
        name: "create_audio",
        description: "Generate spoken audio from a text (speech only: OpenAI-compatible servers make no music or sound effects) and write it into the workspace; returns its path",
    };
}

impl Tool for Speech {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        self.description
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "text":{"type":"string","description":"What to say"},
            "path":{"type":"string","description":"Where to write it in the workspace (default media/speech-TIME.EXT)"},
            "voice":{"type":"string","description":"A voice of the server, e.g. alloy"}},
            "required":["text"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn outbound(&self) -> bool {
        true
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>, _: &mut Store) -> ToolResult {
        ToolResult::from_result(speak(ctx, args))
    }
}

fn speak(ctx: &CallContext, args: &Map<String, Value>) -> Result<ToolResult> {
    let text = crate::tools::trimmed_arg(args, "text");
    if text.is_empty() {
        return Err(Error::usage("text is required"));
    }
    let voice = crate::tools::given_arg(args, "voice").unwrap_or(&ctx.media.voice);
    let format = ctx.media.speech_format.as_str();
    let endpoint = Endpoint::openai(ctx)?;
    let body = json!({
        "model": ctx.media.speech_model,
        "input": text,
        "voice": voice,
        "response_format": format,
    });
    let a = endpoint.send(ctx, "/audio/speech", Body::Json(body), MAX_OUTPUT)?;
    if a.content_type.starts_with("application/json") || a.bytes.is_empty() {
        return Err(Error::new(
            ErrorKind::Upstream,
            format!(
                "{} answered /audio/speech without audio",
                endpoint.resolved.name
            ),
        ));
    }
    let (mime, ext) = sniff(&a.bytes)
        .filter(|(m, _)| m.starts_with("audio/"))
        .unwrap_or(("audio/octet-stream", format));
    let path = write_output(ctx, args, "speech", &a.bytes, ext)?;
    Ok(answer(
        json!({"path": path, "type": mime, "bytes": a.bytes.len(), "voice": voice}),
    ))
}
