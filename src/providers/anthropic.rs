//! The Anthropic Messages wire format (`POST {base}/v1/messages`): the system prompt apart,
//! assistant `tool_use` blocks, tool results as `tool_result` blocks of a user message (several
//! results in a row go in one message). Streaming: typed events (`message_start`,
//! `content_block_start/delta/stop`, `message_delta`, `message_stop`); tool arguments arrive as
//! `input_json_delta` pieces. The answer is complete at `message_stop`.

use serde::Serialize;
use serde_json::Value;

use super::{
    ChatRequest, ChatResponse, Client, Failure, Observer, Role, ToolCall, Usage, parse_arguments,
};

/// The API version goclaw speaks.
pub const VERSION: &str = "2023-06-01";

/// The request body for `req`, serialized straight from the messages (no JSON tree).
pub fn body(req: &ChatRequest, stream: bool) -> Body<'_> {
    let system: Vec<&str> = req
        .messages
        .iter()
        .filter(|m| m.role == Role::System)
        .map(|m| m.content.as_str())
        .collect();
    let mut messages: Vec<Turn> = Vec::new();
    for m in req.messages.iter().filter(|m| m.role != Role::System) {
        let (role, blocks) = match m.role {
            Role::Tool => (
                "user",
                vec![Block::ToolResult {
                    tool_use_id: m.tool_call_id.as_deref().unwrap_or(""),
                    content: &m.content,
                }],
            ),
            Role::Assistant => {
                let mut blocks = Vec::new();
                if !m.content.is_empty() {
                    blocks.push(Block::Text { text: &m.content });
                }
                for c in &m.tool_calls {
                    blocks.push(Block::ToolUse {
                        id: &c.id,
                        name: &c.name,
                        input: Input(c.arguments.is_object().then_some(&c.arguments)),
                    });
                }
                if blocks.is_empty() {
                    blocks.push(Block::Text { text: "..." });
                }
                ("assistant", blocks)
            }
            _ => ("user", vec![Block::Text { text: &m.content }]),
        };
        // Consecutive messages of one role merge (the API wants roles to alternate).
        match messages.last_mut() {
            Some(last) if last.role == role => last.content.extend(blocks),
            _ => messages.push(Turn {
                role,
                content: blocks,
            }),
        }
    }
    Body {
        model: &req.model,
        max_tokens: req.max_tokens,
        temperature: req.temperature,
        messages,
        stream,
        system: (!system.is_empty()).then(|| system.join("\n\n")),
        tools: req
            .tools
            .iter()
            .map(|t| WireTool {
                name: &t.name,
                description: &t.description,
                input_schema: &t.parameters,
            })
            .collect(),
    }
}

/// A tool call's input: its arguments when they are an object, else `{}`.
struct Input<'a>(Option<&'a Value>);

impl Serialize for Input<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self.0 {
            Some(v) => v.serialize(s),
            None => s.serialize_map(Some(0))?.end(),
        }
    }
}

#[derive(Serialize)]
pub struct Body<'a> {
    model: &'a str,
    max_tokens: u32,
    temperature: f64,
    messages: Vec<Turn<'a>>,
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    system: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<WireTool<'a>>,
}

#[derive(Serialize)]
struct Turn<'a> {
    role: &'static str,
    content: Vec<Block<'a>>,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block<'a> {
    Text {
        text: &'a str,
    },
    ToolUse {
        id: &'a str,
        name: &'a str,
        input: Input<'a>,
    },
    ToolResult {
        tool_use_id: &'a str,
        content: &'a str,
    },
}

#[derive(Serialize)]
struct WireTool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Value,
}

/// Anthropic's stop reasons in goclaw's (OpenAI's) terms.
fn finish_reason(stop: &str) -> String {
    match stop {
        "tool_use" => "tool_calls",
        "max_tokens" => "length",
        "end_turn" | "stop_sequence" | "" => "stop",
        other => other,
    }
    .to_string()
}

pub(crate) async fn chat(
    client: &Client,
    req: &ChatRequest,
    observer: &mut dyn Observer,
) -> Result<ChatResponse, Failure> {
    let stream = client.resolved.config.stream;
    let mut headers = vec![("anthropic-version", VERSION.to_string())];
    if let Some(key) = &client.resolved.api_key {
        headers.push(("x-api-key", key.clone()));
    }
    let response = client
        .post("/v1/messages", &headers, encode(&body(req, stream))?)
        .await?;
    if !stream || client.answered_whole(&response)? {
        let v = client.json_body(response).await?;
        return parse_whole(&client.resolved.name, &v);
    }
    let name = &client.resolved.name;
    let mut events = Box::pin(client.events(response));
    let mut fold = Fold::default();
    while let Some(event) = client.next_event(&mut events).await? {
        if event.data.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(&event.data).map_err(|e| {
            Failure::upstream(format!(
                "provider `{name}` streamed an event that is not JSON ({e})"
            ))
        })?;
        let kind = v
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or(&event.event);
        if fold.apply(name, kind, &v, observer)? {
            return Ok(fold.finish());
        }
    }
    Err(Failure::cut_short(name))
}

/// The answer so far, folded from the stream's events.
#[derive(Default)]
struct Fold {
    out: ChatResponse,
    /// Blocks by index: (kind, tool id, tool name, text or JSON pieces).
    blocks: Vec<(String, String, String, String)>,
}

impl Fold {
    /// Folds in event `v` of type `kind`; true at `message_stop`, when the answer is complete.
    fn apply(
        &mut self,
        name: &str,
        kind: &str,
        v: &Value,
        observer: &mut dyn Observer,
    ) -> Result<bool, Failure> {
        let index = v.get("index").and_then(Value::as_u64).unwrap_or(0) as usize;
        let (out, blocks) = (&mut self.out, &mut self.blocks);
        match kind {
            "message_start" => {
                let u = &v["message"]["usage"];
                out.usage.input_tokens = u["input_tokens"].as_u64().unwrap_or(0);
                out.usage.output_tokens = u["output_tokens"].as_u64().unwrap_or(0);
            }
            "content_block_start" => {
                let b = &v["content_block"];
                while blocks.len() <= index {
                    blocks.push(Default::default());
                }
                blocks[index] = (
                    b["type"].as_str().unwrap_or("text").to_string(),
                    b["id"].as_str().unwrap_or("").to_string(),
                    b["name"].as_str().unwrap_or("").to_string(),
                    String::new(),
                );
            }
            "content_block_delta" => {
                while blocks.len() <= index {
                    blocks.push(("text".into(), String::new(), String::new(), String::new()));
                }
                let d = &v["delta"];
                match d["type"].as_str().unwrap_or("") {
                    "text_delta" => {
                        let t = d["text"].as_str().unwrap_or("");
                        out.content.push_str(t);
                        observer.text(t);
                    }
                    "thinking_delta" => {
                        let t = d["thinking"].as_str().unwrap_or("");
                        out.thinking.push_str(t);
                        observer.thinking(t);
                    }
                    "input_json_delta" => {
                        blocks[index]
                            .3
                            .push_str(d["partial_json"].as_str().unwrap_or(""));
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(stop) = v["delta"]["stop_reason"].as_str() {
                    out.finish_reason = finish_reason(stop);
                }
                if let Some(n) = v["usage"]["output_tokens"].as_u64() {
                    out.usage.output_tokens = n;
                }
            }
            "message_stop" => return Ok(true),
            "error" => {
                return Err(Failure::upstream(format!(
                    "provider `{name}` reported an error mid-stream: {}",
                    v["error"]
                )));
            }
            _ => {}
        }
        Ok(false)
    }

    /// The complete answer: its tool calls assembled, its finish reason `stop` when none came.
    fn finish(self) -> ChatResponse {
        let mut out = self.out;
        out.tool_calls = self
            .blocks
            .into_iter()
            .filter(|b| b.0 == "tool_use")
            .map(|(_, id, name, json)| ToolCall {
                id,
                name,
                arguments: parse_arguments(&json),
            })
            .collect();
        if out.finish_reason.is_empty() {
            out.finish_reason = "stop".into();
        }
        out
    }
}

/// A whole (non-streamed) message.
pub(crate) fn parse_whole(provider: &str, v: &Value) -> Result<ChatResponse, Failure> {
    if v.get("type").and_then(Value::as_str) == Some("error") {
        return Err(Failure::upstream(format!(
            "provider `{provider}` reported: {}",
            v["error"]
        )));
    }
    let mut out = ChatResponse {
        finish_reason: finish_reason(v["stop_reason"].as_str().unwrap_or("")),
        usage: Usage {
            input_tokens: v["usage"]["input_tokens"].as_u64().unwrap_or(0),
            output_tokens: v["usage"]["output_tokens"].as_u64().unwrap_or(0),
        },
        ..Default::default()
    };
    let Some(content) = v["content"].as_array() else {
        return Err(Failure::upstream(format!(
            "provider `{provider}` sent no content"
        )));
    };
    for block in content {
        match block["type"].as_str().unwrap_or("") {
            "text" => out.content.push_str(block["text"].as_str().unwrap_or("")),
            "thinking" => out
                .thinking
                .push_str(block["thinking"].as_str().unwrap_or("")),
            "tool_use" => out.tool_calls.push(ToolCall {
                id: block["id"].as_str().unwrap_or("").into(),
                name: block["name"].as_str().unwrap_or("").into(),
                arguments: block["input"].clone(),
            }),
            _ => {}
        }
    }
    Ok(out)
}

/// The body's JSON bytes.
fn encode(body: &Body) -> Result<Vec<u8>, Failure> {
    serde_json::to_vec(body).map_err(|e| {
        Failure::fatal(crate::error::Error::internal(format!(
            "cannot encode the request: {e}"
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::Message;
    use serde_json::json;

    #[test]
    fn tool_results_merge_into_one_user_message() {
        let a = ToolCall {
            id: "a".into(),
            name: "t".into(),
            arguments: json!({"x": 1}),
        };
        let b = ToolCall {
            id: "b".into(),
            name: "t".into(),
            arguments: json!({}),
        };
        let assistant = Message::asking("looking", vec![a.clone(), b.clone()]);
        let req = ChatRequest {
            model: "m".into(),
            messages: vec![
                Message::new(Role::System, "sys"),
                Message::new(Role::User, "hi"),
                assistant,
                Message::tool_result(&a, "ra"),
                Message::tool_result(&b, "rb"),
            ],
            tools: vec![],
            max_tokens: 5,
            temperature: 0.0,
        };
        let body = serde_json::to_value(body(&req, false)).unwrap();
        assert_eq!(body["system"], "sys");
        let msgs = body["messages"].as_array().unwrap();
        assert_eq!(msgs.len(), 3);
        assert_eq!(msgs[1]["content"][1]["type"], "tool_use");
        assert_eq!(msgs[2]["content"].as_array().unwrap().len(), 2);
        assert_eq!(msgs[2]["content"][1]["tool_use_id"], "b");
    }
}
