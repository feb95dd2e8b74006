//! The stdio transport `mcp serve` speaks: JSON-RPC messages, one per line, as rmcp's own
//! transport reads and writes them (a line of at most 16 MiB, a longer one skipped whole; a line
//! that is not JSON ignored, as the official SDKs do, so two peers cannot answer each other's
//! noise forever). One difference: a request that is JSON but not a valid message (a missing
//! method, `params` of the wrong shape, no `"jsonrpc": "2.0"`) is answered with its own id and
//! with what was wrong. rmcp answers it without an id, so a client never learns which of its
//! requests failed and waits for the answer until its own time-out.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ErrorData, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use serde::Serialize;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// The longest line read as a message, rmcp's own bound.
pub const MAX_LINE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// Messages in from `R`, out to `W`, one per line.
pub struct Lines<R, W> {
    reader: BufReader<R>,
    /// The line read so far: it survives a `receive` that is dropped mid-line (rmcp polls it in
    /// a `select!`), and the next call goes on with it.
    line: Vec<u8>,
    /// Skipping the rest of a line longer than [`MAX_LINE`].
    skipping: bool,
    writer: Arc<tokio::sync::Mutex<W>>,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Lines<R, W> {
    pub fn new(reader: R, writer: W) -> Self {
        Lines {
            reader: BufReader::new(reader),
            line: Vec::new(),
            skipping: false,
            writer: Arc::new(tokio::sync::Mutex::new(writer)),
        }
    }

    /// The next whole line (without its end), `None` at the end of input or on a failed read.
    /// Cancel-safe: nothing is consumed from the reader without being kept in `self.line`.
    async fn next_line(&mut self) -> Option<Vec<u8>> {
        loop {
            let buf = self.reader.fill_buf().await.ok()?;
            if buf.is_empty() {
                // A last line without its newline is cut short: not a message.
                return None;
            }
            let (take, ends) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i, true),
                None => (buf.len(), false),
            };
            if !self.skipping {
                if self.line.len() + take > MAX_LINE {
                    self.skipping = true;
                    self.line = Vec::new();
                } else {
                    self.line.extend_from_slice(&buf[..take]);
                }
            }
            self.reader.consume(take + usize::from(ends));
            if ends {
                if std::mem::take(&mut self.skipping) {
                    continue;
                }
                return Some(std::mem::take(&mut self.line));
            }
        }
    }
}

/// What a line that is not a valid message gets.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// Nothing: not JSON, a notification, or a response (neither is ever answered).
    Ignore,
    /// An Invalid Request error, with the request's id (`None`: `null`, it had none).
    Invalid(Option<RequestId>, String),
}

/// Judges a line that did not parse as a message (`why`: the parser's error).
fn judge(line: &[u8], why: &serde_json::Error) -> Verdict {
    use serde_json::error::Category;
    if matches!(why.classify(), Category::Syntax | Category::Eof) {
        return Verdict::Ignore;
    }
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(line) else {
        return Verdict::Ignore;
    };
    let object = value.as_object();
    let field = |name: &str| object.and_then(|o| o.get(name));
    let is_response = field("method").is_none() && (field("result").or(field("error")).is_some());
    let is_notification = field("id").is_none() && field("method").is_some_and(|m| m.is_string());
    if is_response || is_notification {
        return Verdict::Ignore;
    }
    let id = field("id").and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    let what = match (object, field("method")) {
        (None, _) => "a message is one JSON object (MCP has no batches)".to_string(),
        _ if field("jsonrpc").and_then(|v| v.as_str()) != Some("2.0") => {
            r#"`jsonrpc` must be "2.0""#.to_string()
        }
        _ if field("id").is_some() && id.is_none() => {
            "`id` must be a string or a number".to_string()
        }
        (_, Some(serde_json::Value::String(method))) => {
            format!("the `params` of `{method}` are not what it takes")
        }
        _ => "`method` must be a string".to_string(),
    };
    Verdict::Invalid(id, format!("Invalid request: {what}"))
}

/// An error answer to a request that was not a valid message: its id, or `null` when it had
/// none (rmcp's own type leaves the field out then).
#[derive(Serialize)]
struct ErrorAnswer {
    jsonrpc: &'static str,
    id: Option<RequestId>,
    error: ErrorData,
}

async fn write_line<W: AsyncWrite + Unpin>(
    writer: &tokio::sync::Mutex<W>,
    message: &impl Serialize,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message)?;
    bytes.push(b'\n');
    let mut writer = writer.lock().await;
    writer.write_all(&bytes).await?;
    writer.flush().await
}

impl<R, W> rmcp::transport::Transport<RoleServer> for Lines<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = self.writer.clone();
        async move { write_line(&writer, &item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let line = self.next_line().await?;
            let line = line.strip_suffix(b"\r").unwrap_or(&line);
            let line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let why = match serde_json::from_slice(line) {
                Ok(message) => return Some(message),
                Err(why) => why,
            };
            if let Verdict::Invalid(id, message) = judge(line, &why) {
                let answer = ErrorAnswer {
                    jsonrpc: "2.0",
                    id,
                    error: ErrorData::invalid_request(message, None),
                };
                let written = write_line(&self.writer, &answer).await;
                // The client is gone when its answers cannot be written.
                written.ok()?;
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.lock().await.shutdown().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(line: &str) -> Verdict {
        let why =
            serde_json::from_str::<RxJsonRpcMessage<RoleServer>>(line).expect_err("not a message");
        judge(line.as_bytes(), &why)
    }

    #[test]
    fn an_invalid_request_is_answered_with_its_id_and_what_was_wrong() {
        let n = |k| Some(RequestId::Number(k));
        for (line, id, what) in [
            (r#"{"jsonrpc":"2.0","id":8}"#, n(8), "`method`"),
            (
                r#"{"jsonrpc":"2.0","id":"a","method":5}"#,
                Some(RequestId::String("a".into())),
                "`method`",
            ),
            (r#"{"id":10,"method":"tools/list"}"#, n(10), "`jsonrpc`"),
            (
                r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":5}"#,
                n(11),
                "`params` of `tools/call`",
            ),
            ("[1,2]", None, "batches"),
            (
                r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#,
                None,
                "`id` must be",
            ),
        ] {
            match verdict(line) {
                Verdict::Invalid(got, why) => {
                    assert_eq!(got, id, "{line}");
                    assert!(why.starts_with("Invalid request: "), "{why}");
                    assert!(why.contains(what), "{line}: {why}");
                }
                Verdict::Ignore => panic!("{line}: ignored"),
            }
        }
    }

    #[test]
    fn noise_notifications_and_responses_get_no_answer() {
        for line in [
            "garbage",
            "{\"jsonrpc\":\"2.0\",\"id\":1",
            r#"{"jsonrpc":"2.0","method":"$/lsp","params":5}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":5,"error":1}"#,
        ] {
            assert_eq!(verdict(line), Verdict::Ignore, "{line}");
        }
    }

    #[tokio::test]
    async fn lines_survive_a_cancelled_read_and_an_oversized_line_is_skipped() {
        let (mut client, server) = tokio::io::duplex(1024);
        let mut lines = Lines::new(server, tokio::io::sink());
        client.write_all(b"{\"half\":").await.unwrap();
        // A read that finds no whole line is dropped, as rmcp's select! drops it.
        let pending =
            tokio::time::timeout(std::time::Duration::from_millis(20), lines.next_line()).await;
        assert!(pending.is_err());
        client.write_all(b"1}\n").await.unwrap();
        assert_eq!(lines.next_line().await.unwrap(), b"{\"half\":1}");
        let big = vec![b'x'; MAX_LINE + 10];
        let writing = tokio::spawn(async move {
            client.write_all(&big).await.unwrap();
            client.write_all(b"\nnext\n").await.unwrap();
        });
        assert_eq!(lines.next_line().await.unwrap(), b"next");
        writing.await.unwrap();
        assert_eq!(lines.next_line().await, None);
    }
}
