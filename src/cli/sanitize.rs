//! `goclaw sanitize`: clean LLM output (stdin or an argument) for delivery.

use clap::Args;
use serde::Serialize;

use super::input::Input;
use super::{Context, Status};
use crate::error::{Error, Result};
use crate::output::write_all;
use crate::text::sanitize;

// Clean assistant output with GoClaw's eight steps: garbled tool-call XML, tool calls
// downgraded to text, thinking blocks, <final> tags, echoed system messages, duplicate
// paragraphs, MEDIA: paths, leading blank lines; then trim. Prints the cleaned text and a
// newline (nothing for an empty result); with --json, {"content":…,"silent":…}, where silent
// says the reply is NO_REPLY and should not be delivered.
#[derive(Debug, Args)]
#[command(after_help = "Example:\n  some-llm-cli \"$prompt\" | goclaw sanitize | goclaw scrub")]
pub struct SanitizeArgs {
    /// The text: a literal, @FILE, or - for stdin (default: stdin)
    #[arg(value_name = "TEXT")]
    pub text: Option<String>,
}

#[derive(Debug, Serialize)]
struct SanitizeOutput {
    content: String,
    silent: bool,
}

pub fn run(ctx: &Context, args: SanitizeArgs) -> Result<Status> {
    if !ctx.json_flag && args.text.as_deref().is_none_or(|t| t == "-") && stdin_can_pause() {
        return stream(ctx);
    }
    let text = Input::parse(args.text.as_deref()).read(ctx)?;
    let cleaned = sanitize::sanitize(&text).map_err(Error::internal)?;
    if ctx.json_flag {
        let doc = SanitizeOutput {
            silent: sanitize::is_silent(&cleaned),
            content: String::from_utf8_lossy(&cleaned).into_owned(),
        };
        return ctx.out.data(&doc, |_| Ok(())).map(|_| Status::Ok);
    }
    let mut w = ctx.out.stream();
    if !cleaned.is_empty() {
        write_all(&mut w, &cleaned)?;
        write_all(&mut w, b"\n")?;
    }
    std::io::Write::flush(&mut w).map_err(Error::stdout)?;
    Ok(Status::Ok)
}

/// Whether stdin is a pipe, terminal or socket (a regular file never pauses).
fn stdin_can_pause() -> bool {
    use std::os::fd::AsFd;
    let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
        return false;
    };
    std::fs::File::from(fd)
        .metadata()
        .is_ok_and(|m| !m.is_file())
}

/// A live stdin (`some-llm-cli | goclaw sanitize`): when the writer pauses, what is final is
/// printed and flushed at once (see [`sanitize::Stream`]); the output is byte for byte what a
/// whole read would print. SIGINT or SIGTERM ends the input: what was read is cleaned and
/// printed, then exit 130 or 143.
fn stream(ctx: &Context) -> Result<Status> {
    use std::io::{Read, Write};
    use std::os::fd::AsFd;
    super::input::hint_if_terminal(&ctx.out);
    let max = ctx
        .settings()
        .map_or(crate::config::DEFAULT_MAX_INPUT_BYTES, |s| {
            s.config.input.max_bytes
        });
    let stdin_path = std::path::Path::new("standard input");
    let fd = std::io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .map_err(|e| Error::io("read", stdin_path, &e))?;
    let input = std::fs::File::from(fd);
    let stop = super::signals::watch(super::signals::FILTER_GRACE);
    let pace = super::input::Pace {
        live: Some(input.as_fd()),
        stop: stop.as_ref(),
    };
    let mut cleaner = sanitize::Stream::default();
    let mut out = ctx.out.stream();
    let mut printed = false;
    let mut buf = vec![0u8; 64 << 10];
    let mut total = 0u64;
    while pace.until_readable() {
        let n = match (&input).read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io("read", stdin_path, &e)),
        };
        total += n as u64;
        if total > max {
            return Err(Error::usage(format!(
                "standard input is larger than the {max}-byte limit for one document"
            ))
            .with_hint("[input] max_bytes in config.toml raises it"));
        }
        cleaner.push(&buf[..n]);
        if !pace.more_waiting() {
            let new = cleaner.ready().map_err(Error::internal)?;
            if !new.is_empty() {
                printed = true;
                write_all(&mut out, &new)?;
                out.flush().map_err(Error::stdout)?;
            }
        }
    }
    let rest = cleaner.finish().map_err(Error::internal)?;
    write_all(&mut out, &rest)?;
    if printed || !rest.is_empty() {
        write_all(&mut out, b"\n")?;
    }
    out.flush().map_err(Error::stdout)?;
    Ok(match pace.stopped() {
        Some(crate::tools::Stopped::Terminated) => {
            Status::Exit(crate::error::ErrorKind::Terminated)
        }
        Some(_) => Status::Exit(crate::error::ErrorKind::Interrupted),
        None => Status::Ok,
    })
}
