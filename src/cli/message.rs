//! `goclaw message`: the channels of the configuration (`[channels.NAME]`), and a message sent
//! to one. `send` is the `message` tool through the gate (policy, scrubbing, audit), as
//! `goclaw tools exec message` is.

use clap::{Args, Subcommand};
use serde_json::json;

use super::input::Input;
use super::shared::CallerArgs;
use super::{Context, Status, table};
use crate::error::Result;
use crate::store::page::Page;
use crate::tools::message::ChannelKind;

// Messages to channels: stdout, a file, a webhook, a command
#[derive(Debug, Args)]
pub struct MessageArgs {
    #[command(subcommand)]
    pub command: MessageCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum MessageCommand {
    /// Send a message to a channel, through the gate
    #[command(after_help = "Examples:\n  \
        goclaw message send --channel ops 'the nightly build is green'\n  \
        uptime | goclaw message send --channel ops --topic hosts -\n\n\
        Exit codes: 0 delivered, 1 the channel failed, 3 denied by policy, 5 unknown channel,\n\
        8 a webhook that did not answer.")]
    Send(SendArgs),
    /// The configured channels (a webhook's headers by name only)
    Channels,
}

#[derive(Debug, Args)]
pub struct SendArgs {
    /// A channel of [channels]
    #[arg(long)]
    pub channel: String,
    /// The text: as given, @FILE, or - for stdin
    pub text: String,
    /// A topic or thread (a webhook channel may have a default)
    #[arg(long)]
    pub topic: Option<String>,
    #[command(flatten)]
    pub caller: CallerArgs,
}

pub fn run(ctx: &Context, args: MessageArgs) -> Result<Status> {
    match args.command {
        MessageCommand::Send(a) => {
            let input = Input::parse(Some(&a.text));
            let text = String::from_utf8(input.read(ctx)?).map_err(|_| {
                crate::error::Error::usage(format!("{} is not UTF-8 text", input.describe()))
            })?;
            let mut call = json!({"channel": a.channel, "text": text});
            if let Some(topic) = a.topic {
                call["topic"] = topic.into();
            }
            super::tool_call::exec_call(ctx, "message", &call, a.caller)
        }
        MessageCommand::Channels => {
            let channels = crate::ops::toolbox::channels(ctx.settings()?)?;
            let rows: Vec<serde_json::Value> = channels
                .channels
                .iter()
                .map(|(name, c)| {
                    let to = match c.kind {
                        ChannelKind::Stdout => "standard output".to_string(),
                        ChannelKind::File => channels
                            .base_dir
                            .join(c.path.clone().unwrap_or_default())
                            .display()
                            .to_string(),
                        ChannelKind::Webhook => {
                            crate::tools::message::shown_url(c.url.as_deref().unwrap_or_default())
                        }
                        ChannelKind::Command => c.argv.join(" "),
                    };
                    json!({
                        "name": name,
                        "kind": c.kind,
                        "to": to,
                        "topic": c.topic,
                        "header_names": c.headers.keys().collect::<Vec<_>>(),
                    })
                })
                .collect();
            table::page(
                ctx,
                &Page::whole(rows),
                &["CHANNEL", "KIND", "TO", "TOPIC"],
                |r| {
                    [
                        r["name"].as_str().unwrap_or_default().to_string(),
                        r["kind"].as_str().unwrap_or_default().to_string(),
                        r["to"].as_str().unwrap_or_default().to_string(),
                        r["topic"].as_str().unwrap_or_default().to_string(),
                    ]
                },
            )?;
            Ok(Status::Ok)
        }
    }
}
