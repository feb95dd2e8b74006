//! What an MCP server sends, bounded per message: a stdio server's lines, an event stream's
//! events (the SSE transport, and streamable HTTP's answers and stream), a JSON answer's body.
//! rmcp drops a line longer than its limit and keeps waiting, so a call answered by an
//! oversized message ended only at its time limit, as a timeout. Here such a message fails the
//! stream at once: the connection closes and the call says why ([`Oversized`]). A message is
//! bounded in JSON values too: rmcp parses a message whole, and 11 MB of `[],[],…` took 786 MB
//! once parsed (`mcp probe` of such a streamable HTTP server, peak resident memory).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};

use crate::text::json_values::ValueCount;

/// The size no message (one line of JSON-RPC) from a server may reach: rmcp drops a line of
/// this many bytes or more before its newline (a `\r` before the newline counts), and its
/// streamable HTTP client has the same limit for one event.
pub const MESSAGE_LIMIT_BYTES: usize = 16 * 1024 * 1024;

/// The most JSON elements one message may hold, counted by the `{`, `[` and `,` outside its
/// strings (an object or array, and each further member or item), an object counting as
/// [`OBJECT_WEIGHT`]: some 60 MB once parsed at worst, and more than a model could read of any
/// answer (a list of 1 000 tools with their schemas counts some 100 000).
pub const MESSAGE_LIMIT_VALUES: usize = 200_000;

/// What one object counts for: parsed, an object costs several times an array (its map, each
/// key a string of its own), and 99 000 objects of one member each took `mcp call` from 40 to
/// 158 MB when an object counted as one element.
pub const OBJECT_WEIGHT: usize = 4;

/// Which limit a server's message reached, once one did. Over a transport whose connection
/// ends with such a message (a stdio line, the SSE transport's stream: [`Oversized::closing`])
/// every later failure is that; over streamable HTTP, whose session goes on, only the failure
/// of the request it answered.
#[derive(Debug, Clone, Default)]
pub struct Oversized {
    reached: Arc<AtomicU8>,
    closes: bool,
}

const BYTES: u8 = 1;
const VALUES: u8 = 2;
const EVENTS: u8 = 3;

impl Oversized {
    /// For a transport whose connection ends with an oversized message.
    pub fn closing() -> Oversized {
        Oversized {
            closes: true,
            ..Oversized::default()
        }
    }

    pub fn happened(&self) -> bool {
        self.reached.load(Ordering::Relaxed) != 0
    }

    /// Records that a message was announced at the byte limit or over it.
    pub fn reached_bytes(&self) {
        self.reached.store(BYTES, Ordering::Relaxed);
    }

    /// Records that a stream carried more events than one may
    /// ([`super::http::STREAM_EVENT_LIMIT`]).
    pub fn reached_events(&self) {
        self.reached.store(EVENTS, Ordering::Relaxed);
    }

    /// What a failed request says: the oversized message when one came (the library's error
    /// then only says the connection closed, or the request failed), else `error`.
    pub fn or(&self, error: &dyn std::fmt::Display) -> String {
        let reached = match self.closes {
            true => self.reached.load(Ordering::Relaxed),
            false => self.reached.swap(0, Ordering::Relaxed),
        };
        let closed = match self.closes {
            true => ", and the connection closed",
            false => "",
        };
        match reached {
            BYTES => format!(
                "it sent a message of {} MiB or more, and a message must be smaller: refused{closed}",
                MESSAGE_LIMIT_BYTES / (1024 * 1024)
            ),
            VALUES => format!(
                "it sent a message of more than {MESSAGE_LIMIT_VALUES} JSON elements (objects, arrays, their members and items; an object counts as {OBJECT_WEIGHT}), the most one message may hold: refused{closed}"
            ),
            EVENTS => format!(
                "it sent more than {} events on one stream, the most one may carry: refused{closed}",
                super::http::STREAM_EVENT_LIMIT
            ),
            _ => error.to_string(),
        }
    }
}

/// The limits of one message.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes before the newline: a line of this many fails.
    pub bytes: usize,
    /// Values (see [`MESSAGE_LIMIT_VALUES`]): more fail.
    pub values: usize,
    /// What one message is.
    pub unit: Unit,
}

/// What one message is, for the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A line (a stdio server's JSON-RPC).
    Line,
    /// An event of a stream: its lines up to a blank one.
    Event,
    /// Everything read (an HTTP body holding one message).
    Whole,
}

impl Limits {
    /// A stdio server's: a message a line.
    pub const MCP: Limits = Limits {
        bytes: MESSAGE_LIMIT_BYTES,
        values: MESSAGE_LIMIT_VALUES,
        unit: Unit::Line,
    };
    /// An event stream's: a message an event.
    pub const EVENTS: Limits = Limits {
        unit: Unit::Event,
        ..Limits::MCP
    };
    /// A JSON body's: one message.
    pub const BODY: Limits = Limits {
        unit: Unit::Whole,
        ..Limits::MCP
    };
}

/// Counts a message against `limits` as it arrives, a piece at a time.
#[derive(Debug)]
pub struct Meter {
    scan: Scan,
    seen: Oversized,
}

impl Meter {
    pub fn new(limits: Limits, seen: Oversized) -> Meter {
        Meter {
            scan: Scan::new(limits),
            seen,
        }
    }

    /// Takes in the next piece; an error (and `seen` set) once a limit is reached.
    pub fn take(&mut self, piece: &[u8]) -> std::io::Result<()> {
        self.scan.take(piece, &self.seen)
    }
}

/// `inner`, failing with `InvalidData` once a line reaches its limit of bytes or of values.
pub struct BoundedLines<R> {
    inner: R,
    scan: Scan,
    seen: Oversized,
}

impl<R> BoundedLines<R> {
    pub fn new(inner: R, limits: Limits, seen: Oversized) -> Self {
        BoundedLines {
            inner,
            scan: Scan::new(limits),
            seen,
        }
    }
}

/// An HTTP body of events, failing once an event reaches its limits ([`Limits::EVENTS`]);
/// `seen` says which.
pub fn bounded_events<S>(
    body: S,
    seen: Oversized,
) -> impl futures::Stream<Item = std::io::Result<bytes::Bytes>>
where
    S: futures::Stream<Item = reqwest::Result<bytes::Bytes>>,
{
    use futures::StreamExt;
    let mut meter = Meter::new(Limits::EVENTS, seen);
    let mut failed = false;
    body.map(move |chunk| {
        if failed {
            return Err(std::io::Error::other("the stream failed"));
        }
        let chunk = chunk.map_err(std::io::Error::other)?;
        meter.take(&chunk).inspect_err(|_| failed = true)?;
        Ok(chunk)
    })
}

impl<R: AsyncRead + Unpin> AsyncRead for BoundedLines<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {}
            other => return other,
        }
        let taken = this.scan.take(&buf.filled()[before..], &this.seen);
        if taken.is_err() {
            // An error leaves the buffer as it was (what AsyncRead's callers count on).
            buf.set_filled(before);
        }
        Poll::Ready(taken)
    }
}

/// Where the message being read stands: its bytes and values so far (and where the value
/// count stands in the text), the bytes of its current line, and whether the last byte ended a
/// line with a `\r` (whose `\n` may follow).
#[derive(Debug)]
struct Scan {
    limits: Limits,
    bytes: usize,
    json: ValueCount,
    line_bytes: usize,
    after_cr: bool,
}

impl Scan {
    fn new(limits: Limits) -> Scan {
        Scan {
            limits,
            bytes: 0,
            json: ValueCount::new(OBJECT_WEIGHT),
            line_bytes: 0,
            after_cr: false,
        }
    }

    /// Takes in `new`; once a message reaches a limit, `seen` records which and the error
    /// names it.
    fn take(&mut self, new: &[u8], seen: &Oversized) -> std::io::Result<()> {
        let Some(reached) = self.feed(new) else {
            return Ok(());
        };
        seen.reached.store(reached, Ordering::Relaxed);
        let what = match reached {
            BYTES => format!("a message of {} bytes or more", self.limits.bytes),
            _ => format!("a message of more than {} values", self.limits.values),
        };
        Err(std::io::Error::new(std::io::ErrorKind::InvalidData, what))
    }

    /// Takes in the bytes of one read, whatever their split; the limit the message reached
    /// (`BYTES` or `VALUES`), if any.
    ///
    /// A stdio line ends at `\n` only (where rmcp cuts), and its bytes are those before it (a
    /// `\r` counts). An event stream's lines end at `\r`, `\n` or `\r\n`, as its parser ends
    /// them, and a blank line ends the event; there, and in a whole body, every byte counts.
    fn feed(&mut self, new: &[u8]) -> Option<u8> {
        let lines = self.limits.unit == Unit::Line;
        let mut rest = new;
        while !rest.is_empty() {
            if std::mem::take(&mut self.after_cr) && rest[0] == b'\n' {
                // The `\n` of a `\r\n`: its line ended at the `\r`.
                rest = &rest[1..];
                self.bytes += 1;
                if self.bytes >= self.limits.bytes {
                    return Some(BYTES);
                }
                continue;
            }
            let end = match lines {
                true => memchr::memchr(b'\n', rest),
                false => memchr::memchr2(b'\r', b'\n', rest),
            };
            let line = &rest[..end.unwrap_or(rest.len())];
            self.line_bytes += line.len();
            self.bytes += line.len();
            if self.bytes >= self.limits.bytes {
                return Some(BYTES);
            }
            self.json.count(line);
            if self.json.values > self.limits.values {
                return Some(VALUES);
            }
            let Some(at) = end else { break };
            let blank = self.line_bytes == 0;
            match self.limits.unit {
                Unit::Line => *self = Scan::new(self.limits),
                Unit::Event if blank => *self = Scan::new(self.limits),
                // The message goes on, and its counts; a JSON string does not span lines (a
                // raw line end in one is an error), nor does a field of an event.
                Unit::Event | Unit::Whole => {
                    self.line_bytes = 0;
                    self.json.end_line();
                    self.bytes += 1;
                    if self.bytes >= self.limits.bytes {
                        return Some(BYTES);
                    }
                }
            }
            self.after_cr = !lines && rest[at] == b'\r';
            rest = &rest[at + 1..];
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    fn bytes(bytes: usize) -> Limits {
        Limits {
            bytes,
            values: usize::MAX,
            unit: Unit::Line,
        }
    }

    async fn read_all(input: &[u8], limits: Limits) -> (std::io::Result<Vec<u8>>, bool) {
        let seen = Oversized::default();
        let mut r = BoundedLines::new(input, limits, seen.clone());
        let mut out = Vec::new();
        let got = r.read_to_end(&mut out).await.map(|_| out);
        (got, seen.happened())
    }

    #[tokio::test]
    async fn lines_shorter_than_the_limit_pass_and_one_reaching_it_fails_the_stream() {
        let (got, seen) = read_all(b"abcd\nefgh\nij", bytes(5)).await;
        assert_eq!(got.unwrap(), b"abcd\nefgh\nij");
        assert!(!seen);
        // rmcp drops a line of the limit exactly, and counts a `\r` before the newline.
        for input in [
            &b"abcde\n"[..],
            b"abcd\r\n",
            b"ab\nabcde",
            b"abcd\nabcde\nab",
            b"abcdefgh",
        ] {
            let (got, seen) = read_all(input, bytes(5)).await;
            assert!(got.is_err(), "{input:?}");
            assert!(seen, "{input:?}");
        }
    }

    #[tokio::test]
    async fn a_line_split_over_reads_is_counted_whole() {
        let seen = Oversized::default();
        let reader = Chunks(b"ab\nabcde\n".to_vec(), 3);
        let mut r = BoundedLines::new(reader, bytes(5), seen.clone());
        let mut out = Vec::new();
        assert!(r.read_to_end(&mut out).await.is_err());
        assert!(seen.happened());
    }

    #[tokio::test]
    async fn values_are_counted_outside_strings_and_per_line() {
        let values = |values| Limits {
            bytes: 1 << 20,
            values,
            unit: Unit::Line,
        };
        // `{` (an object: 4), two `,` between members, `[` and its `,`: 8; the string's are not
        // counted.
        let line = br#"{"a":1,"b":"x,{[\",[","c":[1,2]}"#;
        let (got, seen) = read_all(line, values(8)).await;
        assert!(got.is_ok() && !seen);
        let (got, seen) = read_all(line, values(7)).await;
        assert!(got.is_err() && seen);
        // Each line on its own: two lines of 8 pass a limit of 8.
        let two = [&line[..], b"\n", line, b"\n"].concat();
        assert!(read_all(&two, values(8)).await.0.is_ok());
        // Split anywhere (inside an escape, a string), the count is the same.
        for size in 1..8 {
            for (limit, ok) in [(8, true), (7, false)] {
                let mut r = BoundedLines::new(
                    Chunks(two.clone(), size),
                    values(limit),
                    Oversized::default(),
                );
                let mut out = Vec::new();
                assert_eq!(r.read_to_end(&mut out).await.is_ok(), ok, "{size} {limit}");
            }
        }
        // What a parsed message would cost: refused with its reason.
        let seen = Oversized::default();
        let flood = format!("[{}]\n", ["{}"; 10].join(","));
        let mut r = BoundedLines::new(flood.as_bytes(), values(8), seen.clone());
        assert!(r.read_to_end(&mut Vec::new()).await.is_err());
        assert!(
            seen.or(&"closed").contains("JSON elements"),
            "{}",
            seen.or(&"x")
        );
    }

    #[test]
    fn an_event_ends_at_a_blank_line_and_a_whole_body_never() {
        let limits = |unit| Limits {
            bytes: 1 << 20,
            values: 4,
            unit,
        };
        // Three values a line, pretty-printed over lines and split by blank ones.
        let text = b"[1,2,\n\n[3,\n\r\n{\"a\":\n1}]]";
        let over = |unit| {
            Meter::new(limits(unit), Oversized::default())
                .take(text)
                .is_err()
        };
        assert!(!over(Unit::Line));
        assert!(!over(Unit::Event));
        assert!(over(Unit::Whole));
        let mut m = Meter::new(limits(Unit::Whole), Oversized::default());
        assert!(m.take(b"[1,\n\n").is_ok() && m.take(b"2,\n").is_ok());
        assert!(m.take(b"\n3,4,5]").is_err());
    }

    /// Whether `text`, fed in pieces of `size` bytes, stays within `limits`.
    fn fits(text: &[u8], size: usize, limits: Limits) -> bool {
        let mut m = Meter::new(limits, Oversized::default());
        text.chunks(size).all(|piece| m.take(piece).is_ok())
    }

    #[test]
    fn every_byte_of_a_body_or_an_event_counts_line_ends_too() {
        let bytes = |unit| Limits {
            bytes: 100,
            values: usize::MAX,
            unit,
        };
        let newlines = [b'\n'; 100];
        assert!(
            !fits(&newlines, 7, bytes(Unit::Whole)),
            "a flood of newlines"
        );
        let mut event = b"data: x\n".to_vec();
        for _ in 0..40 {
            event.extend(b":\r\n");
        }
        assert!(
            !fits(&event, 5, bytes(Unit::Event)),
            "comment lines of one event"
        );
        // Blank lines end events: each is small.
        assert!(fits(&b"data: x\n\n".repeat(40), 3, bytes(Unit::Event)));
    }

    #[test]
    fn an_event_streams_lines_end_at_cr_lf_or_both_however_they_are_split() {
        let values = |values| Limits {
            bytes: 1 << 20,
            values,
            unit: Unit::Event,
        };
        // A quote in a comment ended by a lone `\r` does not hide the data from the count.
        let hidden = [&b": \"\r"[..], b"data: [", &b"[],".repeat(10), b"[]]\n\n"].concat();
        for size in 1..9 {
            assert!(!fits(&hidden, size, values(10)), "{size}");
        }
        // A line end that starts a piece does not make a blank line: the event goes on.
        let two_lines = b"data: [1,2,\ndata: 3,4]\n\n";
        for size in 1..9 {
            assert!(!fits(two_lines, size, values(3)), "{size}");
            assert!(fits(two_lines, size, values(4)), "{size}");
        }
        // `\r\n` ends one line (then a blank one ends the event); split between the two too.
        let crlf = b"data: [1,2]\r\n\r\ndata: [3,4]\r\n\r\n";
        for size in 1..9 {
            assert!(fits(crlf, size, values(2)), "{size}");
            assert!(!fits(crlf, size, values(1)), "{size}");
        }
    }

    /// A reader that gives at most `.1` bytes a read.
    struct Chunks(Vec<u8>, usize);

    impl AsyncRead for Chunks {
        fn poll_read(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<std::io::Result<()>> {
            let this = self.get_mut();
            let n = this.1.min(this.0.len()).min(buf.remaining());
            buf.put_slice(&this.0[..n]);
            this.0.drain(..n);
            Poll::Ready(Ok(()))
        }
    }
}
