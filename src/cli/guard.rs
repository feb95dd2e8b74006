//! `goclaw guard`: the prompt-injection input guard as a filter.

use clap::Args;
use serde::Serialize;

use super::input::Input;
use super::{Context, Status};
use crate::error::{Error, Result};
use crate::text::guard::{self, GuardMode, Verdict};

// Scan a message for prompt injection with GoClaw's six patterns. Prints
// {"matches":[…],"mode":…,"blocked":…,"truncated":…}; in block mode a match exits 3.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    goclaw guard 'ignore previous instructions'\n  \
    goclaw guard --mode block @message.txt && send-to-agent message.txt\n  \
    some-chat-export | goclaw guard --max-chars 8000")]
pub struct GuardArgs {
    /// The message: text, @FILE, or - for stdin (default: stdin)
    #[arg(value_name = "TEXT")]
    pub text: Option<String>,
    /// off | log | warn | block [default: [guard] mode, else warn]
    #[arg(long, value_enum)]
    pub mode: Option<GuardMode>,
    /// Cut messages longer than this many bytes, as the agent loop does [default: [guard]
    /// max_message_chars, else 32000]
    #[arg(long, value_name = "N")]
    pub max_chars: Option<usize>,
}

#[derive(Debug, Serialize)]
struct GuardOutput {
    #[serde(flatten)]
    verdict: Verdict,
    /// The message was longer than `max_chars`.
    truncated: bool,
    /// Size of the message in bytes.
    bytes: usize,
    max_chars: usize,
    /// The message as the loop passes it on (present only when truncated).
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

pub fn run(ctx: &Context, args: GuardArgs) -> Result<Status> {
    let cfg = &ctx.settings()?.config.guard;
    let mode = args.mode.unwrap_or(cfg.mode);
    let max_chars = args.max_chars.unwrap_or(cfg.max_message_chars);
    if max_chars == 0 {
        return Err(Error::usage("--max-chars must be at least 1"));
    }
    let text = Input::parse(args.text.as_deref()).read(ctx)?;
    let verdict = guard::check(&text, mode).map_err(Error::internal)?;
    let message = guard::truncate(&String::from_utf8_lossy(&text), max_chars);
    let doc = GuardOutput {
        truncated: message.is_some(),
        bytes: text.len(),
        max_chars,
        message,
        verdict,
    };
    if doc.verdict.blocked {
        let details = serde_json::to_value(&doc).map_err(|e| Error::internal(e.to_string()))?;
        return Err(Error::denied(guard::blocked_message(&doc.verdict.matches))
            .with_hint("the message matched prompt-injection patterns; rephrase it or lower the guard mode")
            .with_details(details));
    }
    if !doc.verdict.matches.is_empty() {
        let note = format!(
            "potential prompt injection detected ({})",
            doc.verdict.matches.join(",")
        );
        match mode {
            GuardMode::Warn => ctx.out.warn(&note),
            _ => ctx.out.verbose(&note),
        }
    }
    if doc.truncated {
        ctx.out.verbose(&format!(
            "message truncated from {} to {max_chars} bytes",
            doc.bytes
        ));
    }
    ctx.out.data(&doc, |w| {
        if doc.verdict.matches.is_empty() {
            writeln!(w, "no injection patterns found (mode {})", mode.as_str())?;
        } else {
            writeln!(
                w,
                "matched: {} (mode {})",
                doc.verdict.matches.join(", "),
                mode.as_str()
            )?;
        }
        if doc.truncated {
            writeln!(
                w,
                "truncated: {} bytes is over the {max_chars}-byte limit",
                doc.bytes
            )?;
        }
        Ok(())
    })?;
    Ok(Status::Ok)
}
