//! `read_image`, `read_audio` and `read_document`: a workspace file read by the `[media]`
//! providers (or, for a PDF with text, here).

use serde_json::{Map, Value, json};

use super::vision::{self, Shown};
use super::{Endpoint, answer, pdf, read_input, sniff};
use crate::error::{Error, ErrorKind, Result};
use crate::store::Store;
use crate::tools::provider_call::Body;
use crate::tools::{CallContext, Risk, Tool, ToolResult};

/// Text a document answer keeps at most (characters).
pub const MAX_TEXT: usize = 200_000;

/// The arguments of the read tools: a path and an optional prompt.
fn schema(what: &str, prompt: &str) -> Value {
    json!({"type":"object","properties":{
        "path":{"type":"string","description":format!("The {what} in the workspace")},
        "prompt":{"type":"string","description":prompt}},
        "required":["path"]})
}

/// `read_image {path, prompt?}`.
pub struct ReadImage;

impl Tool for ReadImage {
    fn name(&self) -> &str {
        "read_image"
    }
    fn description(&self) -> &str {
        "Look at an image in the workspace (PNG, JPEG, GIF, WebP) and answer a prompt about it"
    }
    fn parameters(&self) -> Value {
        schema("image", "What to find out (default: describe it)")
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn outbound(&self) -> bool {
        true
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>, _: &mut Store) -> ToolResult {
        ToolResult::from_result(read_image(ctx, args))
    }
}

fn prompt_or<'a>(args: &'a Map<String, Value>, default: &'a str) -> &'a str {
    Some(crate::tools::trimmed_arg(args, "prompt"))
        .filter(|p| !p.is_empty())
        .unwrap_or(default)
}

fn read_image(ctx: &CallContext, args: &Map<String, Value>) -> Result<ToolResult> {
    let (bytes, path) = read_input(ctx, args)?;
    let mime = match sniff(&bytes) {
        Some((m @ ("image/png" | "image/jpeg" | "image/gif" | "image/webp"), _)) => m,
        Some(("image/svg+xml", _)) => {
            return Err(Error::usage(format!(
                "{path} is an SVG: vision models take PNG, JPEG, GIF or WebP (it is text: read_file reads it)"
            )));
        }
        _ => {
            return Err(Error::usage(format!(
                "{path} is not a PNG, JPEG, GIF or WebP image"
            )));
        }
    };
    let prompt = prompt_or(args, "Describe this image in detail.");
    let shown = Shown {
        mime,
        name: &path,
        bytes: &bytes,
    };
    let text = vision::ask(ctx, prompt, &shown)?;
    Ok(answer(json!({"path": path, "type": mime, "answer": text})))
}

/// `read_audio {path, prompt?, language?}`: a transcription.
pub struct ReadAudio;

impl Tool for ReadAudio {
    fn name(&self) -> &str {
        "read_audio"
    }
    fn description(&self) -> &str {
        "Transcribe a recording in the workspace (mp3, wav, ogg, flac, m4a) to text"
    }
    fn parameters(&self) -> Value {
        let mut s = schema(
            "recording",
            "Words or names to expect, which guide the transcription",
        );
        s["properties"]["language"] =
            json!({"type":"string","description":"The spoken language (ISO 639-1, e.g. en)"});
        s
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn outbound(&self) -> bool {
        true
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>, _: &mut Store) -> ToolResult {
        ToolResult::from_result(read_audio(ctx, args))
    }
}

fn read_audio(ctx: &CallContext, args: &Map<String, Value>) -> Result<ToolResult> {
    let (bytes, path) = read_input(ctx, args)?;
    let Some((mime, ext)) = sniff(&bytes).filter(|(m, _)| m.starts_with("audio/")) else {
        return Err(Error::usage(format!(
            "{path} is not a recording goclaw knows (mp3, wav, ogg, flac, m4a)"
        )));
    };
    let endpoint = Endpoint::openai(ctx)?;
    let name = std::path::Path::new(&path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| format!("audio.{ext}"));
    let part = reqwest::multipart::Part::bytes(bytes)
        .file_name(name)
        .mime_str(mime)
        .map_err(|e| Error::internal(e.to_string()))?;
    let mut form = reqwest::multipart::Form::new()
        .part("file", part)
        .text("model", ctx.media.transcription_model.clone())
        .text("response_format", "json");
    if let Some(p) = crate::tools::given_arg(args, "prompt").filter(|p| !p.trim().is_empty()) {
        form = form.text("prompt", p.to_string());
    }
    if let Some(l) = crate::tools::given_arg(args, "language").filter(|l| !l.trim().is_empty()) {
        form = form.text("language", l.trim().to_string());
    }
    let v = endpoint.json(ctx, "/audio/transcriptions", Body::Form(form))?;
    let text = v["text"].as_str().ok_or_else(|| {
        Error::new(
            ErrorKind::Upstream,
            format!(
                "{} answered /audio/transcriptions without text",
                endpoint.resolved.name
            ),
        )
    })?;
    Ok(answer(json!({"path": path, "type": mime, "text": text})))
}

/// `read_document {path, prompt?}`: a PDF's text (or a text file's); a PDF without text goes
/// to the vision provider.
pub struct ReadDocument;

impl Tool for ReadDocument {
    fn name(&self) -> &str {
        "read_document"
    }
    fn description(&self) -> &str {
        "Read a PDF (or text) document in the workspace: its text, or for scanned pages what a vision model reads in them"
    }
    fn parameters(&self) -> Value {
        schema(
            "document",
            "For a PDF without text (scanned): what to ask the vision model (default: transcribe it)",
        )
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn outbound(&self) -> bool {
        true
    }
    fn execute(&self, ctx: &CallContext, args: &Map<String, Value>, _: &mut Store) -> ToolResult {
        ToolResult::from_result(read_document(ctx, args))
    }
}

fn read_document(ctx: &CallContext, args: &Map<String, Value>) -> Result<ToolResult> {
    let (bytes, path) = read_input(ctx, args)?;
    if sniff(&bytes).map(|(m, _)| m) != Some("application/pdf") {
        return match std::str::from_utf8(&bytes) {
            Ok(text) if !text.contains('\0') => Ok(document(&path, "text/plain", "text", text)),
            _ => Err(Error::usage(format!(
                "{path} is not a PDF or a text document (images: read_image; recordings: read_audio)"
            ))),
        };
    }
    let timeout = ctx.stop.cap(std::time::Duration::from_secs(
        ctx.media.timeout_secs.max(1),
    ));
    let text = pdf::text(&bytes, timeout).map_err(|e| Error::usage(format!("{path}: {e}")))?;
    if pdf::has_text(&text) {
        return Ok(document(&path, "application/pdf", "text", &text));
    }
    // Scanned pages: the vision provider reads the PDF itself.
    let prompt = prompt_or(
        args,
        "Transcribe all the text of this document, page by page.",
    );
    let shown = Shown {
        mime: "application/pdf",
        name: &path,
        bytes: &bytes,
    };
    let read = vision::ask(ctx, prompt, &shown)?;
    Ok(document(&path, "application/pdf", "vision", &read))
}

/// A document's answer: its text, cut at [`MAX_TEXT`] characters with a note.
fn document(path: &str, mime: &str, source: &str, text: &str) -> ToolResult {
    let chars = text.chars().count();
    let mut a = json!({"path": path, "type": mime, "source": source});
    if chars > MAX_TEXT {
        let cut: String = text.chars().take(MAX_TEXT).collect();
        a["text"] = cut.into();
        a["truncated"] = format!("the first {MAX_TEXT} of {chars} characters").into();
    } else {
        a["text"] = text.into();
    }
    answer(a)
}
