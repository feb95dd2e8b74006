//! `goclaw sanitize`: clean LLM output (stdin or an argument) for delivery.

use clap::Args;
use serde::Serialize;

use super::input::{Input, Opened, Pace, open_input};
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
    if !ctx.json_flag && args.text.as_deref().is_none_or(|t| t == "-") {
        let stdin = open_input(std::path::Path::new("-"))?;
        if stdin.live.is_some() {
            return stream(ctx, stdin);
        }
    }
    let text = Input::parse(args.text.as_deref()).read_without_config(ctx)?;
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

/// A live stdin (`some-llm-cli | goclaw sanitize`): when the writer pauses, what is final is
/// printed and flushed at once (see [`sanitize::Stream`]); the output is byte for byte what a
/// whole read would print. SIGINT, SIGTERM or SIGHUP ends the input: what was read is cleaned
/// and printed, then exit 130, 143 or 129.
fn stream(ctx: &Context, mut input: Opened) -> Result<Status> {
    use std::io::Write;
    use std::os::fd::AsFd;
    super::input::hint_if_terminal(&ctx.out);
    let max = super::input::max_bytes(ctx);
    let stop = super::signals::watch(super::signals::FILTER_GRACE);
    let pace = Pace {
        live: input.live.as_ref().map(|fd| fd.as_fd()),
        stop: stop.as_ref(),
    };
    let mut cleaner = sanitize::Stream::default();
    let mut out = ctx.out.stream();
    let mut buf = vec![0u8; 64 << 10];
    let mut total = 0u64;
    while pace.until_readable() {
        let n = match input.reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(Error::io(
                    "read",
                    std::path::Path::new("standard input"),
                    &e,
                ));
            }
        };
        total += n as u64;
        if total > max {
            return Err(Input::Stdin.too_large(max));
        }
        cleaner.push(&buf[..n]);
        if !pace.more_waiting() {
            let new = cleaner.ready().map_err(Error::internal)?;
            if !new.is_empty() {
                write_all(&mut out, &new)?;
                out.flush().map_err(Error::stdout)?;
            }
        }
    }
    // The rest, with the newline that ends the output.
    let rest = cleaner.finish().map_err(Error::internal)?;
    write_all(&mut out, &rest)?;
    out.flush().map_err(Error::stdout)?;
    Ok(super::signals::status(stop.as_ref()).unwrap_or(Status::Ok))
}
