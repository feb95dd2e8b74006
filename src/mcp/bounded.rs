//! A stdio MCP server's output, bounded per message. rmcp drops a line longer than its limit
//! and keeps waiting, so a call answered by an oversized message ended only at its time limit,
//! as a timeout. Here such a line fails the stream at once: the connection closes and the call
//! says why ([`Oversized`]).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};

/// The size no message (one line of JSON-RPC) from a server may reach: rmcp drops a line of
/// this many bytes or more before its newline (a `\r` before the newline counts), and its
/// streamable HTTP client has the same limit for one event.
pub const MESSAGE_LIMIT_BYTES: usize = 16 * 1024 * 1024;

/// Set once a server's message reached [`MESSAGE_LIMIT_BYTES`].
#[derive(Debug, Clone, Default)]
pub struct Oversized(Arc<AtomicBool>);

impl Oversized {
    pub fn happened(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// What a failed request says: the oversized message when one came (the library's error
    /// then only says the connection closed), else `error`.
    pub fn or(&self, error: &dyn std::fmt::Display) -> String {
        if !self.happened() {
            return error.to_string();
        }
        format!(
            "it sent a message of {} MiB or more, and a message must be smaller: refused, and the connection closed",
            MESSAGE_LIMIT_BYTES / (1024 * 1024)
        )
    }
}

/// `inner`, failing with `InvalidData` once a line (its bytes before the newline) reaches
/// `limit` bytes.
pub struct BoundedLines<R> {
    inner: R,
    /// Bytes of the line being read so far.
    line: usize,
    limit: usize,
    seen: Oversized,
}

impl<R> BoundedLines<R> {
    pub fn new(inner: R, limit: usize, seen: Oversized) -> Self {
        BoundedLines {
            inner,
            line: 0,
            limit,
            seen,
        }
    }
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
        let new = &buf.filled()[before..];
        let longest = longest_line(&mut this.line, new, this.limit);
        if longest >= this.limit {
            // An error leaves the buffer as it was (what AsyncRead's callers count on).
            buf.set_filled(before);
            this.seen.0.store(true, Ordering::Relaxed);
            return Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a message of {} bytes or more", this.limit),
            )));
        }
        Poll::Ready(Ok(()))
    }
}

/// The longest line `new` ends, continues or holds, given `line` bytes of a line before it;
/// `line` becomes the bytes of the line `new` leaves open. A line between two newlines of
/// one read is shorter than the read, so only a read longer than `limit` is looked at whole.
fn longest_line(line: &mut usize, new: &[u8], limit: usize) -> usize {
    let Some(first) = memchr::memchr(b'\n', new) else {
        *line += new.len();
        return *line;
    };
    let mut longest = *line + first;
    let mut start = first + 1;
    if new.len() > limit {
        for at in memchr::memchr_iter(b'\n', &new[start..]) {
            longest = longest.max(at);
            start += at + 1;
        }
    } else if let Some(last) = memchr::memrchr(b'\n', new) {
        start = last + 1;
    }
    *line = new.len() - start;
    longest.max(*line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    async fn read_all(input: &[u8], limit: usize) -> (std::io::Result<Vec<u8>>, bool) {
        let seen = Oversized::default();
        let mut r = BoundedLines::new(input, limit, seen.clone());
        let mut out = Vec::new();
        let got = r.read_to_end(&mut out).await.map(|_| out);
        (got, seen.happened())
    }

    #[tokio::test]
    async fn lines_shorter_than_the_limit_pass_and_one_reaching_it_fails_the_stream() {
        let (got, seen) = read_all(b"abcd\nefgh\nij", 5).await;
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
            let (got, seen) = read_all(input, 5).await;
            assert!(got.is_err(), "{input:?}");
            assert!(seen, "{input:?}");
        }
    }

    #[tokio::test]
    async fn a_line_split_over_reads_is_counted_whole() {
        let seen = Oversized::default();
        let reader = Chunks(b"ab\nabcde\n".to_vec(), 3);
        let mut r = BoundedLines::new(reader, 5, seen.clone());
        let mut out = Vec::new();
        assert!(r.read_to_end(&mut out).await.is_err());
        assert!(seen.happened());
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
