//! The text of a PDF, extracted in Rust (`pdf-extract`, over `lopdf`), in a child process of
//! its own (`goclaw __pdf-text`): a hostile PDF can make the extractor recurse until its stack
//! overflows, inflate a stream to gigabytes, or loop for minutes, and none of that may take
//! the calling process (a whole agent run) with it. The child gets 1 GiB of address space and
//! 60 s of CPU, extracts on a thread with a large stack, and writes the text (at most 16 MiB)
//! on stdout; the caller waits at most its time limit, and reports a child that crashed,
//! ran out of memory or time as a document it cannot read.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The hidden subcommand.
pub const SUBCOMMAND: &str = "__pdf-text";
const MEMORY_LIMIT: u64 = 1 << 30;
const CPU_SECS: u64 = 60;
const STACK: usize = 64 << 20;
/// The most text taken from one PDF.
pub const MAX_TEXT_BYTES: usize = 16 << 20;

/// The child: a PDF on stdin, its text on stdout; exit 1 with the reason on stderr.
pub fn child_main() -> u8 {
    use nix::sys::resource::{Resource, setrlimit};
    let _ = setrlimit(Resource::RLIMIT_AS, MEMORY_LIMIT, MEMORY_LIMIT);
    let _ = setrlimit(Resource::RLIMIT_CPU, CPU_SECS, CPU_SECS);
    let mut bytes = Vec::new();
    if std::io::stdin()
        .take(super::MAX_INPUT as u64 + 1)
        .read_to_end(&mut bytes)
        .is_err()
    {
        return 1;
    }
    // The extractor's own panics end the thread, not silently the answer: keep their default
    // message off stderr, which carries the reason.
    std::panic::set_hook(Box::new(|_| {}));
    let worker = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || pdf_extract::extract_text_from_mem(&bytes));
    let outcome = match worker {
        Ok(handle) => handle.join(),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "cannot start the extractor: {e}");
            return 1;
        }
    };
    match outcome {
        Ok(Ok(text)) => {
            let mut end = text.len().min(MAX_TEXT_BYTES);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let _ = std::io::stdout().lock().write_all(&text.as_bytes()[..end]);
            0
        }
        Ok(Err(e)) => {
            let _ = writeln!(std::io::stderr(), "{e}");
            1
        }
        Err(_) => {
            let _ = writeln!(std::io::stderr(), "the extractor gave up on it");
            1
        }
    }
}

/// The text of `bytes`, or why there is none, within `timeout`.
pub fn text(bytes: &[u8], timeout: Duration) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find goclaw's binary: {e}"))?;
    let mut child = Command::new(exe)
        .arg(SUBCOMMAND)
        .env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the PDF reader: {e}"))?;
    let input = bytes.to_vec();
    let mut stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(&input);
        }
    });
    let drain = |stream: Option<Box<dyn Read + Send>>, cap: usize| {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(s) = stream {
                let _ = s.take(cap as u64).read_to_end(&mut out);
            }
            out
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
        MAX_TEXT_BYTES,
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
        4096,
    );
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("the PDF reader: {e}")),
        }
    };
    let _ = writer.join();
    let out = out.join().unwrap_or_default();
    let err = String::from_utf8_lossy(&err.join().unwrap_or_default())
        .trim()
        .to_string();
    use std::os::unix::process::ExitStatusExt;
    match status {
        None => Err(format!(
            "not read: the PDF took longer than {}s to read",
            timeout.as_secs()
        )),
        Some(s) if s.success() => Ok(String::from_utf8_lossy(&out).into_owned()),
        Some(s) if s.code() == Some(1) && !err.is_empty() => {
            Err(format!("not a readable PDF: {err}"))
        }
        Some(s) => Err(format!(
            "not a readable PDF: the reader ended on it ({}), out of memory, time or stack",
            s.signal().map_or_else(
                || format!("exit {}", s.code().unwrap_or(-1)),
                |n| format!("signal {n}")
            )
        )),
    }
}

/// Whether extracted text holds anything to read (a scanned PDF gives only white space).
pub fn has_text(text: &str) -> bool {
    text.chars().filter(|c| c.is_alphanumeric()).count() >= 16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_has_no_text() {
        assert!(!has_text(" \n\x0c "));
        assert!(has_text("The quarterly report shows growth."));
    }
}
