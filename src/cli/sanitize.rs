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
