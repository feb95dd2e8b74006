//! The log of a background command: its chunks of [`CHUNK`] bytes (the last two kept), read
//! from an offset into the whole output, cut at whole words, or its last lines.

use std::path::{Path, PathBuf};

use super::CHUNK;
use crate::text::words;

/// Where a read of the log starts and ends, in bytes of the whole output.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LogRead {
    pub bytes: Vec<u8>,
    /// Bytes before the read that the log no longer keeps.
    pub dropped: u64,
    /// The offset just after what was read.
    pub next: u64,
    /// The output written so far.
    pub total: u64,
}

/// The chunks of a log: (number, path), in order.
fn chunks(dir: &Path) -> Vec<(u64, PathBuf)> {
    let mut out: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let n = name.strip_suffix(".log")?.parse().ok()?;
            Some((n, e.path()))
        })
        .collect();
    out.sort();
    out
}

/// At most `limit` bytes of the output from `offset` on (from the oldest byte kept when the
/// offset is older).
pub fn read_from(dir: &Path, offset: u64, limit: usize) -> LogRead {
    use std::io::{Read, Seek, SeekFrom};
    let chunks = chunks(dir);
    let total = chunks.last().map_or(0, |(n, p)| {
        n * CHUNK + std::fs::metadata(p).map_or(0, |m| m.len())
    });
    let kept_from = chunks.first().map_or(total, |(n, _)| n * CHUNK);
    let start = offset.max(kept_from).min(total);
    let mut read = LogRead {
        dropped: start - offset.min(start),
        next: start,
        total,
        bytes: Vec::new(),
    };
    for (n, path) in chunks {
        let (from, to) = (n * CHUNK, (n + 1) * CHUNK);
        if read.next >= to || read.bytes.len() >= limit {
            continue;
        }
        let Ok(mut f) = std::fs::File::open(&path) else {
            continue;
        };
        if f.seek(SeekFrom::Start(read.next.saturating_sub(from)))
            .is_err()
        {
            continue;
        }
        let room = (limit - read.bytes.len()) as u64;
        let before = read.bytes.len();
        let _ = f.take(room).read_to_end(&mut read.bytes);
        read.next += (read.bytes.len() - before) as u64;
    }
    read
}

/// `read` kept to whole words, so that no secret is split across two reads where neither half
/// could be recognised:
/// - one that starts inside the output (what came before was dropped) skips to the first
///   boundary;
/// - one that may not hold the whole of its last word stops at the last boundary: one cut at
///   its limit (`more` follows), and any read of a log that is `live` (the command still runs,
///   and the keeper copies its output in reads of up to 64 KiB, which end anywhere). A word
///   still being written shows once it is followed by a boundary or the command ends.
///
/// A last line that is a name still waiting for its value (`api_key = `) waits too (see
/// [`words::before_awaited_value`]). Within 4 KiB only: output without boundaries is returned
/// as read, except that a live read shorter than that with no boundary at all waits whole.
pub fn whole_words(mut read: LogRead, started_inside: bool, live: bool) -> LogRead {
    if read.next < read.total || live {
        let len = read.bytes.len();
        let keep = match words::last_word_end(&read.bytes) {
            Some(end) => words::before_awaited_value(&read.bytes, end),
            None if live && len < words::LOOK => 0,
            None => len,
        };
        read.next -= (len - keep) as u64;
        read.bytes.truncate(keep);
    }
    if started_inside
        && let Some(p) = read
            .bytes
            .iter()
            .take(words::LOOK)
            .position(|b| words::is_boundary(*b))
    {
        read.bytes.drain(..p);
        read.dropped += p as u64;
    }
    read
}

/// The last `lines` lines of the kept log (the first kept line may be a part of one); `live`
/// as for [`whole_words`].
pub fn tail(dir: &Path, lines: usize, live: bool) -> LogRead {
    let all = read_from(dir, 0, (2 * CHUNK) as usize);
    let body = all.bytes.strip_suffix(b"\n").unwrap_or(&all.bytes);
    let cut = memchr::memrchr_iter(b'\n', body)
        .nth(lines.saturating_sub(1))
        .map_or(0, |i| i + 1);
    let started_inside = cut == 0 && all.dropped > 0;
    whole_words(
        LogRead {
            dropped: all.dropped + cut as u64,
            bytes: all.bytes[cut..].to_vec(),
            next: all.next,
            total: all.total,
        },
        started_inside,
        live,
    )
}
