//! One question about an image or a document to the vision provider: a chat call whose user
//! message carries the file as a part, in the provider's wire format (OpenAI's `image_url` or
//! `file` part, Anthropic's `image` or `document` block), the answer's text back.

use base64::Engine;
use serde_json::{Value, json};

use super::Endpoint;
use crate::error::{Error, ErrorKind, Result};
use crate::providers::Kind;
use crate::tools::CallContext;
use crate::tools::provider_call::Body;

/// The most tokens a description may take.
const MAX_TOKENS: u32 = 2048;

/// What is shown: an image (PNG, JPEG, GIF, WebP) or a PDF.
pub struct Shown<'a> {
    pub mime: &'a str,
    pub name: &'a str,
    pub bytes: &'a [u8],
}

/// The vision provider and model: `[media] vision_provider` (and `vision_model`), else the run's
/// own provider and model, else `[media] provider` with its model.
fn provider(ctx: &CallContext) -> Result<(Endpoint, String)> {
    let (name, run_model) = match (&ctx.media.vision_provider, &ctx.run) {
        (Some(p), _) => (p.clone(), None),
        (None, Some(run)) => (run.provider.clone(), Some(run.model.clone())),
        (None, None) => (ctx.media.provider.clone(), None),
    };
    let endpoint = Endpoint::of(ctx, &name)?;
    let model = ctx
        .media
        .vision_model
        .clone()
        .or(run_model)
        .or_else(|| endpoint.resolved.config.model.clone())
        .ok_or_else(|| {
            Error::usage(format!(
                "no vision model for provider `{name}`: set [media] vision_model"
            ))
        })?;
    Ok((endpoint, model))
}

/// The request body of `kind`'s wire format.
pub fn body(kind: Kind, model: &str, prompt: &str, shown: &Shown<'_>) -> Value {
    let data = base64::engine::general_purpose::STANDARD.encode(shown.bytes);
    let pdf = shown.mime == "application/pdf";
    match kind {
        Kind::Anthropic => {
            let block = if pdf { "document" } else { "image" };
            json!({"model": model, "max_tokens": MAX_TOKENS, "messages": [{"role": "user", "content": [
                {"type": block, "source": {"type": "base64", "media_type": shown.mime, "data": data}},
                {"type": "text", "text": prompt}]}]})
        }
        _ => {
            let url = format!("data:{};base64,{data}", shown.mime);
            let part = if pdf {
                json!({"type": "file", "file": {"filename": shown.name, "file_data": url}})
            } else {
                json!({"type": "image_url", "image_url": {"url": url}})
            };
            json!({"model": model, "max_tokens": MAX_TOKENS, "messages": [{"role": "user", "content": [
                {"type": "text", "text": prompt}, part]}]})
        }
    }
}

/// The text of an answer in `kind`'s wire format.
pub fn answer_text(kind: Kind, v: &Value) -> Option<String> {
    let parts = match kind {
        Kind::Anthropic => &v["content"],
        _ => &v["choices"][0]["message"]["content"],
    };
    match parts {
        Value::String(s) => Some(s.clone()),
        Value::Array(a) => Some(
            a.iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}

/// Asks the vision provider `prompt` about `shown`; the answer's text.
pub fn ask(ctx: &CallContext, prompt: &str, shown: &Shown<'_>) -> Result<String> {
    let (endpoint, model) = provider(ctx)?;
    let kind = endpoint.resolved.config.kind;
    let path = match kind {
        Kind::Anthropic => "/v1/messages",
        _ => "/chat/completions",
    };
    let v = endpoint.json(ctx, path, Body::Json(body(kind, &model, prompt, shown)))?;
    answer_text(kind, &v).ok_or_else(|| {
        Error::new(
            ErrorKind::Upstream,
            format!("{} answered {path} without text", endpoint.resolved.name),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_wire_format_carries_the_file_as_its_own_part() {
        let png = Shown {
            mime: "image/png",
            name: "a.png",
            bytes: b"\x89PNG",
        };
        let o = body(Kind::Openai, "m", "what is it?", &png);
        assert_eq!(
            o["messages"][0]["content"][0],
            json!({"type": "text", "text": "what is it?"})
        );
        assert_eq!(
            o["messages"][0]["content"][1]["image_url"]["url"],
            "data:image/png;base64,iVBORw=="
        );
        let a = body(Kind::Anthropic, "m", "what is it?", &png);
        assert_eq!(
            a["messages"][0]["content"][0],
            json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw=="}})
        );
        let pdf = Shown {
            mime: "application/pdf",
            name: "r.pdf",
            bytes: b"%PDF",
        };
        let o = body(Kind::Openai, "m", "read it", &pdf);
        assert_eq!(o["messages"][0]["content"][1]["file"]["filename"], "r.pdf");
        let a = body(Kind::Anthropic, "m", "read it", &pdf);
        assert_eq!(a["messages"][0]["content"][0]["type"], "document");
        assert_eq!(
            answer_text(
                Kind::Anthropic,
                &json!({"content": [{"type": "text", "text": "a cat"}]})
            ),
            Some("a cat".into())
        );
        assert_eq!(
            answer_text(
                Kind::Openai,
                &json!({"choices": [{"message": {"content": "a cat"}}]})
            ),
            Some("a cat".into())
        );
    }
}
