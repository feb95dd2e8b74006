//! Server-sent events (a provider's streamed answer, the legacy MCP transport's stream) read in
//! linear time and bounded memory:
//! each piece of the body is scanned once for line ends, and a line (or an event's data) longer
//! than [`MAX_EVENT`] ends the stream with an error. eventsource-stream parsed the unfinished
//! line again at every piece: a provider that sent one endless line held goclaw at full CPU
//! inside one poll, deaf to its deadline and to signals (helper-37; 8 MB took 20 s of CPU).
//!
//! The fields read are `event` and `data` (lines joined with `\n`); `id`, `retry` and comments
//! are skipped. An event is dispatched at a blank line, and at the end of the body when its data
//! was not followed by one.

use std::collections::VecDeque;

use bytes::Bytes;
use futures::{Stream, StreamExt};

/// The longest line, and the most data of one event.
pub const MAX_EVENT: usize = 16 << 20;

/// One event: its type (`message` unless named) and its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub event: String,
    pub data: String,
}

/// The events of `body`, one at a time; an error (then the end) for a broken body or an event
/// past [`MAX_EVENT`].
pub fn events<S, E>(body: S) -> impl Stream<Item = Result<Event, String>>
where
    S: Stream<Item = Result<Bytes, E>>,
    E: std::error::Error,
{
    let state = (Box::pin(body), Parser::default(), false);
    futures::stream::unfold(state, |(mut body, mut parser, mut done)| async move {
        loop {
            if let Some(event) = parser.ready.pop_front() {
                return Some((Ok(event), (body, parser, done)));
            }
            if done {
                return None;
            }
            match body.next().await {
                Some(Ok(piece)) => {
                    if let Err(why) = parser.push(&piece) {
                        return Some((Err(why), (body, parser, true)));
                    }
                }
                Some(Err(e)) => {
                    let why = crate::error::with_causes(&e);
                    return Some((Err(why), (body, parser, true)));
                }
                None => {
                    parser.finish();
                    done = true;
                }
            }
        }
    })
}

/// The reading so far: the unfinished line, the event being gathered, the events complete.
#[derive(Debug, Default)]
struct Parser {
    line: Vec<u8>,
    /// The last piece ended with `\r`: a `\n` starting the next one ends nothing more.
    after_cr: bool,
    event: String,
    data: String,
    has_data: bool,
    ready: VecDeque<Event>,
}

impl Parser {
    fn push(&mut self, mut rest: &[u8]) -> Result<(), String> {
        while !rest.is_empty() {
            if std::mem::take(&mut self.after_cr) && rest[0] == b'\n' {
                rest = &rest[1..];
                continue;
            }
            let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') else {
                self.line.extend_from_slice(rest);
                return self.check(self.line.len());
            };
            self.line.extend_from_slice(&rest[..end]);
            self.check(self.line.len())?;
            self.after_cr = rest[end] == b'\r';
            rest = &rest[end + 1..];
            let line = std::mem::take(&mut self.line);
            self.field(&line)?;
        }
        Ok(())
    }

    fn check(&self, len: usize) -> Result<(), String> {
        if len > MAX_EVENT {
            return Err(format!("an event longer than {} MiB", MAX_EVENT >> 20));
        }
        Ok(())
    }

    /// One line of the stream.
    fn field(&mut self, line: &[u8]) -> Result<(), String> {
        if line.is_empty() {
            self.dispatch();
            return Ok(());
        }
        let line = String::from_utf8_lossy(line);
        let (name, value) = match line.split_once(':') {
            Some((name, value)) => (name, value.strip_prefix(' ').unwrap_or(value)),
            None => (&*line, ""),
        };
        match name {
            "event" => self.event = value.to_string(),
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
                self.has_data = true;
                self.check(self.data.len())?;
            }
            // A comment (`: keep-alive`), `id`, `retry`, or a field nobody defined.
            _ => {}
        }
        Ok(())
    }

    fn dispatch(&mut self) {
        let event = std::mem::take(&mut self.event);
        let mut data = std::mem::take(&mut self.data);
        if std::mem::take(&mut self.has_data) {
            data.pop();
            self.ready.push_back(Event {
                event: if event.is_empty() {
                    "message".into()
                } else {
                    event
                },
                data,
            });
        }
    }

    /// The end of the body: a last line without its end, and an event without its blank line.
    fn finish(&mut self) {
        let line = std::mem::take(&mut self.line);
        if !line.is_empty() {
            let _ = self.field(&line);
        }
        self.dispatch();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(pieces: &[&[u8]]) -> Vec<Event> {
        let mut p = Parser::default();
        for piece in pieces {
            p.push(piece).unwrap();
        }
        p.finish();
        p.ready.into_iter().collect()
    }

    fn event(event: &str, data: &str) -> Event {
        Event {
            event: event.into(),
            data: data.into(),
        }
    }

    #[test]
    fn events_are_read_across_pieces_and_line_ends() {
        assert_eq!(
            read(&[
                b"data: {\"a\"",
                b":1}\n\nevent: done\r",
                b"\ndata: x\r\ndata:y\n\n"
            ]),
            [event("message", "{\"a\":1}"), event("done", "x\ny")]
        );
        // Comments, ids and events without data give nothing; a last event without its blank
        // line is still read.
        assert_eq!(
            read(&[b": ping\n\nid: 3\n\nevent: e\n\ndata: [DONE]"]),
            [event("message", "[DONE]")]
        );
    }

    #[test]
    fn an_endless_line_ends_the_stream_in_linear_time() {
        let mut p = Parser::default();
        let piece = vec![b'a'; 64 * 1024];
        let started = std::time::Instant::now();
        let mut failed = None;
        for _ in 0..(MAX_EVENT / piece.len() + 2) {
            if let Err(e) = p.push(&piece) {
                failed = Some(e);
                break;
            }
        }
        assert_eq!(failed.as_deref(), Some("an event longer than 16 MiB"));
        // Quadratic re-parsing took seconds here; a linear scan takes milliseconds.
        assert!(started.elapsed().as_secs() < 2, "{:?}", started.elapsed());
    }
}
