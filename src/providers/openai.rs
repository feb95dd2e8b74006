//! The OpenAI chat-completions wire format (`POST {base}/chat/completions`), spoken by OpenAI and
//! by Ollama, vLLM, llama.cpp's server, OpenRouter and the like. Streaming: `data:` chunks whose
//! `delta.tool_calls` carry each call's id and name once and its arguments in pieces, keyed by
//! `index`; the answer is complete at a `finish_reason` or `[DONE]`.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use serde::Serialize;

use crate::text::json_string;

use super::{
    ChatRequest, ChatResponse, Client, Failure, Message, Observer, Role, ToolCall, ToolDef, Usage,
    parse_arguments,
};

/// The request body for `req`, as JSON bytes. The messages, the bulk of a long session's request
/// (sent again every iteration), are written straight into the buffer with
/// [`json_string::push`]; the small parts go through serde. Byte-identical to serializing
/// [`Body`] (a test checks it).
pub fn body(req: &ChatRequest, stream: bool) -> Vec<u8> {
    let text: usize = req.messages.iter().map(|m| m.content.len() + 64).sum();
    let mut out = Vec::with_capacity(text + 4096);
    out.extend_from_slice(b"{\"model\":");
    json_string::push(&mut out, &req.model);
    out.extend_from_slice(b",\"messages\":[");
    for (i, m) in req.messages.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_message(&mut out, m);
    }
    out.extend_from_slice(b"],\"max_tokens\":");
    out.extend_from_slice(req.max_tokens.to_string().as_bytes());
    out.extend_from_slice(b",\"temperature\":");
    push_serde(&mut out, &req.temperature);
    out.extend_from_slice(if stream {
        b",\"stream\":true,\"stream_options\":{\"include_usage\":true}"
    } else {
        b",\"stream\":false"
    });
    if !req.tools.is_empty() {
        out.extend_from_slice(b",\"tools\":");
        push_serde(
            &mut out,
            &req.tools.iter().map(WireTool).collect::<Vec<_>>(),
        );
    }
    out.push(b'}');
    out
}

/// One message as chat completions wants it.
fn push_message(out: &mut Vec<u8>, m: &Message) {
    match m.role {
        Role::Tool => {
            out.extend_from_slice(b"{\"role\":\"tool\",\"tool_call_id\":");
            json_string::push(out, m.tool_call_id.as_deref().unwrap_or(""));
            out.extend_from_slice(b",\"content\":");
            json_string::push(out, &m.content);
        }
        Role::Assistant if !m.tool_calls.is_empty() => {
            out.extend_from_slice(b"{\"role\":\"assistant\",\"content\":");
            if m.content.is_empty() {
                out.extend_from_slice(b"null");
            } else {
                json_string::push(out, &m.content);
            }
            out.extend_from_slice(b",\"tool_calls\":");
            push_serde(out, &m.tool_calls.iter().map(WireCall).collect::<Vec<_>>());
        }
        role => {
            out.extend_from_slice(b"{\"role\":");
            push_serde(out, &role);
            out.extend_from_slice(b",\"content\":");
            json_string::push(out, &m.content);
        }
    }
    out.push(b'}');
}

/// Appends `value` as serde_json writes it; these values (numbers, tool calls and definitions
/// built from JSON values) always serialize.
fn push_serde(out: &mut Vec<u8>, value: &impl Serialize) {
    let _ = serde_json::to_writer(out, value);
}

/// The same body through serde, field by field: the reference [`body`] is checked against.
#[cfg(test)]
#[derive(Serialize)]
struct Body<'a> {
    model: &'a str,
    messages: Vec<WireMessage<'a>>,
    max_tokens: u32,
    temperature: f64,
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_options: Option<StreamOptions>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<WireTool<'a>>,
}

#[cfg(test)]
#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

/// A message as chat completions wants it, through serde (the test's reference).
#[cfg(test)]
struct WireMessage<'a>(&'a Message);

#[cfg(test)]
impl Serialize for WireMessage<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let m = self.0;
        let mut map = s.serialize_map(None)?;
        match m.role {
            Role::Tool => {
                map.serialize_entry("role", "tool")?;
                map.serialize_entry("tool_call_id", m.tool_call_id.as_deref().unwrap_or(""))?;
                map.serialize_entry("content", &m.content)?;
            }
            Role::Assistant if !m.tool_calls.is_empty() => {
                map.serialize_entry("role", "assistant")?;
                let content = (!m.content.is_empty()).then_some(m.content.as_str());
                map.serialize_entry("content", &content)?;
                let calls: Vec<WireCall> = m.tool_calls.iter().map(WireCall).collect();
                map.serialize_entry("tool_calls", &calls)?;
            }
            role => {
                map.serialize_entry("role", &role)?;
                map.serialize_entry("content", &m.content)?;
            }
        }
        map.end()
    }
}

struct WireCall<'a>(&'a ToolCall);

impl Serialize for WireCall<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": arguments_text(&c.arguments)}})
            .serialize(s)
    }
}

struct WireTool<'a>(&'a ToolDef);

impl Serialize for WireTool<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        json!({"type": "function", "function": {
            "name": t.name, "description": t.description, "parameters": t.parameters,
        }})
        .serialize(s)
    }
}

fn arguments_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub(crate) async fn chat(
    client: &Client,
    req: &ChatRequest,
    observer: &mut dyn Observer,
) -> Result<ChatResponse, Failure> {
    let stream = client.resolved.config.stream;
    let mut headers = Vec::new();
    if let Some(key) = &client.resolved.api_key {
        headers.push(("authorization", format!("Bearer {key}")));
    }
    let response = client
        .post("/chat/completions", &headers, body(req, stream))
        .await?;
    if !stream || client.answered_whole(&response)? {
        let v = client.json_body(response).await?;
        return parse_whole(&client.resolved.name, &v);
    }
    let mut events = Box::pin(client.events(response));
    let mut fold = Fold::default();
    let mut done = false;
    while let Some(event) = client.next_event(&mut events).await? {
        let data = event.data.trim();
        if data == "[DONE]" {
            done = true;
            break;
        }
        if data.is_empty() {
            continue;
        }
        let chunk: Value = serde_json::from_str(data).map_err(|e| {
            Failure::upstream(format!(
                "provider `{}` streamed a chunk that is not JSON ({e})",
                client.resolved.name
            ))
        })?;
        if let Some(err) = chunk.get("error") {
            return Err(Failure::upstream(format!(
                "provider `{}` reported an error mid-stream: {err}",
                client.resolved.name
            )));
        }
        fold.apply(&chunk, observer);
    }
    if !done && fold.out.finish_reason.is_empty() {
        return Err(Failure::cut_short(&client.resolved.name));
    }
    Ok(fold.finish())
}

/// The answer so far, folded from the stream's chunks.
#[derive(Default)]
struct Fold {
    out: ChatResponse,
    /// Tool calls by index: (id, name, argument pieces).
    calls: BTreeMap<u64, (String, String, String)>,
}

impl Fold {
    /// Folds in one chunk: usage, thinking and text (streamed to `observer`), tool-call pieces
    /// and the finish reason.
    fn apply(&mut self, chunk: &Value, observer: &mut dyn Observer) {
        let out = &mut self.out;
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            out.usage = usage_of(usage);
        }
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else {
            return;
        };
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        for key in ["reasoning_content", "reasoning"] {
            if let Some(t) = delta
                .get(key)
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
            {
                out.thinking.push_str(t);
                observer.thinking(t);
            }
        }
        if let Some(t) = delta
            .get("content")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
        {
            out.content.push_str(t);
            observer.text(t);
        }
        for (i, tc) in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let index = tc.get("index").and_then(Value::as_u64).unwrap_or(i as u64);
            let entry = self.calls.entry(index).or_default();
            if let Some(id) = tc.get("id").and_then(Value::as_str) {
                entry.0 = id.to_string();
            }
            let function = tc.get("function").unwrap_or(&Value::Null);
            if let Some(name) = function.get("name").and_then(Value::as_str) {
                entry.1.push_str(name);
            }
            if let Some(args) = function.get("arguments").and_then(Value::as_str) {
                entry.2.push_str(args);
            }
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            out.finish_reason = reason.to_string();
        }
    }

    /// The complete answer: its tool calls assembled, its finish reason inferred when none came.
    fn finish(self) -> ChatResponse {
        let mut out = self.out;
        out.tool_calls = self
            .calls
            .into_values()
            .map(|(id, name, args)| ToolCall {
                id,
                name,
                arguments: parse_arguments(&args),
            })
            .collect();
        if out.finish_reason.is_empty() {
            out.finish_reason = if out.tool_calls.is_empty() {
                "stop".into()
            } else {
                "tool_calls".into()
            };
        }
        out
    }
}

fn usage_of(u: &Value) -> Usage {
    Usage {
        input_tokens: u.get("prompt_tokens").and_then(Value::as_u64).unwrap_or(0),
        output_tokens: u
            .get("completion_tokens")
            .and_then(Value::as_u64)
            .unwrap_or(0),
    }
}

/// A whole (non-streamed) completion.
pub(crate) fn parse_whole(provider: &str, v: &Value) -> Result<ChatResponse, Failure> {
    if let Some(err) = v.get("error") {
        return Err(Failure::upstream(format!(
            "provider `{provider}` reported: {err}"
        )));
    }
    let choice = v
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| Failure::upstream(format!("provider `{provider}` sent no choices")))?;
    let message = choice
        .get("message")
        .filter(|m| m.is_object())
        .ok_or_else(|| Failure::upstream(format!("provider `{provider}` sent no message")))?;
    let tool_calls = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|tc| {
            let f = tc.get("function").unwrap_or(&Value::Null);
            ToolCall {
                id: tc.get("id").and_then(Value::as_str).unwrap_or("").into(),
                name: f.get("name").and_then(Value::as_str).unwrap_or("").into(),
                arguments: match f.get("arguments") {
                    Some(Value::String(s)) => parse_arguments(s),
                    Some(other) => other.clone(),
                    None => json!({}),
                },
            }
        })
        .collect();
    Ok(ChatResponse {
        content: message
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or("")
            .into(),
        thinking: message
            .get("reasoning_content")
            .and_then(Value::as_str)
            .unwrap_or("")
            .into(),
        tool_calls,
        finish_reason: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .unwrap_or("stop")
            .into(),
        usage: v.get("usage").map(usage_of).unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_maps_tool_calls_and_results() {
        let call = ToolCall {
            id: "c1".into(),
            name: "read_file".into(),
            arguments: json!({"path": "a"}),
        };
        let assistant = Message::asking("", vec![call.clone()]);
        let req = ChatRequest {
            model: "m".into(),
            messages: vec![
                Message::new(Role::System, "sys"),
                Message::new(Role::User, "hi"),
                assistant,
                Message::tool_result(&call, "file text"),
            ],
            tools: vec![ToolDef {
                name: "read_file".into(),
                description: "d".into(),
                parameters: json!({"type": "object"}),
            }],
            max_tokens: 10,
            temperature: 0.7,
        };
        let bytes = body(&req, true);
        let b: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(b["messages"][2]["content"], Value::Null);
        assert_eq!(
            b["messages"][2]["tool_calls"][0]["function"]["arguments"],
            r#"{"path":"a"}"#
        );
        assert_eq!(b["messages"][3]["role"], "tool");
        assert_eq!(b["messages"][3]["tool_call_id"], "c1");
        assert_eq!(b["tools"][0]["function"]["name"], "read_file");
        assert_eq!(b["stream_options"]["include_usage"], true);
    }

    #[test]
    fn the_written_body_is_byte_identical_to_serde() {
        let call = ToolCall {
            id: "c\"1".into(),
            name: "exec".into(),
            arguments: json!({"command": "echo \"hi\"\n", "n": 1.5}),
        };
        let mut with_text = Message::asking("I'll run it:\n", vec![call.clone()]);
        with_text.name = Some("ignored".into());
        let messages = vec![
            Message::new(
                Role::System,
                "You are \"helpful\".\n\tBe brief. \u{1}\u{1f}",
            ),
            Message::new(Role::User, "ünïcödé → 漢字 😀, a \\ backslash"),
            Message::asking("", vec![call.clone()]),
            with_text,
            Message::tool_result(&call, "line 1\r\nline 2\u{7f}"),
            Message::new(Role::Assistant, ""),
        ];
        for (stream, tools, temperature) in
            [(true, true, 0.7), (false, false, 1.0), (true, false, 0.0)]
        {
            let req = ChatRequest {
                model: "gpt-\"4o\"".into(),
                messages: messages.clone(),
                tools: if tools {
                    vec![ToolDef {
                        name: "exec".into(),
                        description: "Run \"a\" command".into(),
                        parameters: json!({"type": "object", "properties": {"command": {"type": "string"}}}),
                    }]
                } else {
                    Vec::new()
                },
                max_tokens: 8192,
                temperature,
            };
            let reference = Body {
                model: &req.model,
                messages: req.messages.iter().map(WireMessage).collect(),
                max_tokens: req.max_tokens,
                temperature: req.temperature,
                stream,
                stream_options: stream.then_some(StreamOptions {
                    include_usage: true,
                }),
                tools: req.tools.iter().map(WireTool).collect(),
            };
            let expected = serde_json::to_vec(&reference).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&body(&req, stream)),
                String::from_utf8_lossy(&expected)
            );
        }
    }

    #[test]
    fn whole_response() {
        let v = json!({"choices":[{"message":{"content":null,"tool_calls":[{"id":"x","type":"function","function":{"name":"t","arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":2}});
        let r = parse_whole("p", &v).ok().unwrap();
        assert_eq!(r.tool_calls[0].arguments, json!({"a":1}));
        assert_eq!(r.usage.input_tokens, 5);
        assert_eq!(r.finish_reason, "tool_calls");
    }
}
