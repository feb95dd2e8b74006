//! The wire-neutral message model every provider speaks: roles, messages, tool calls and tool
//! definitions, a request and its response with the tokens it used, the [`Observer`] a provider
//! reports to while it works, and the parsing of tool-call arguments.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who said a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

/// One message of a conversation, in goclaw's own (wire-neutral) form; also what sessions store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    #[serde(default)]
    pub content: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For `tool` messages: the call answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// For `tool` messages: the tool's name (Anthropic and some OpenAI servers want it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Message {
    pub fn new(role: Role, content: impl Into<String>) -> Message {
        Message {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            name: None,
        }
    }

    /// An assistant message asking for tool calls.
    pub fn asking(content: impl Into<String>, calls: Vec<ToolCall>) -> Message {
        Message {
            tool_calls: calls,
            ..Message::new(Role::Assistant, content)
        }
    }

    pub fn tool_result(call: &ToolCall, content: impl Into<String>) -> Message {
        Message {
            role: Role::Tool,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: Some(call.id.clone()),
            name: Some(call.name.clone()),
        }
    }
}

/// A tool call the model asked for. `arguments` is the parsed JSON object, or the raw text as a
/// string when the model sent something that does not parse.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

/// A tool offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

/// One request to a model.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChatRequest {
    pub model: String,
    pub messages: Vec<Message>,
    #[serde(default)]
    pub tools: Vec<ToolDef>,
    pub max_tokens: u32,
    pub temperature: f64,
}

/// Tokens a call used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// What the model answered.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    pub content: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub thinking: String,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    /// `stop`, `tool_calls`, `length` (Anthropic's reasons are mapped to these).
    pub finish_reason: String,
    #[serde(default)]
    pub usage: Usage,
}

/// What a provider reports while it works.
pub trait Observer: Send {
    /// A fragment of the answer's text, as it streams.
    fn text(&mut self, _fragment: &str) {}
    /// A fragment of the model's thinking.
    fn thinking(&mut self, _fragment: &str) {}
    /// A failed attempt that will be retried after `wait`.
    fn retrying(&mut self, _attempt: u32, _max_attempts: u32, _error: &str, _wait: Duration) {}
}

/// Parses tool-call arguments as JSON; text that does not parse is kept as a string (the gate
/// then refuses it against the schema, and the model sees why).
pub(crate) fn parse_arguments(raw: &str) -> Value {
    if raw.trim().is_empty() {
        return Value::Object(Default::default());
    }
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
}
