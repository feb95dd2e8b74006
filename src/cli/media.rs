//! `goclaw media`: the media tools through the gate (policy, scrubbing, audit), as
//! `goclaw tools exec create_image …` is. What `image` and `speak` make is written into the
//! workspace (`-o`, a path inside it; default `media/KIND-TIME.EXT`).

use clap::{Args, Subcommand};
use serde_json::{Map, Value, json};

use super::input::Input;
use super::shared::CallerArgs;
use super::{Context, Status};
use crate::error::{Error, Result};

// Images and speech made, images, recordings and documents read ([media] providers)
#[derive(Debug, Args)]
pub struct MediaArgs {
    #[command(subcommand)]
    pub command: MediaCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum MediaCommand {
    /// Generate an image from a prompt (create_image)
    #[command(
        after_help = "Example:\n  goclaw media image 'a lighthouse at dawn' -o art/lighthouse.png"
    )]
    Image {
        /// What the image should show
        prompt: String,
        /// Where to write it, inside the workspace
        #[arg(short, long, value_name = "FILE")]
        output: Option<String>,
        /// WIDTHxHEIGHT ([media] image_size by default)
        #[arg(long)]
        size: Option<String>,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// Turn text into speech (tts): the text as given, @FILE, or - for stdin
    #[command(
        after_help = "Example:\n  echo 'the build is green' | goclaw media speak - -o green.mp3"
    )]
    Speak {
        /// The text: as given, @FILE, or - for stdin
        text: String,
        /// Where to write it, inside the workspace
        #[arg(short, long, value_name = "FILE")]
        output: Option<String>,
        /// A voice of the server ([media] voice by default)
        #[arg(long)]
        voice: Option<String>,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// Transcribe a recording in the workspace (read_audio)
    Transcribe {
        /// The recording: a path in the workspace
        file: String,
        /// The spoken language (ISO 639-1)
        #[arg(long)]
        language: Option<String>,
        /// Words or names to expect
        #[arg(long)]
        prompt: Option<String>,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// Ask the vision provider about an image in the workspace (read_image)
    Describe {
        /// The image: a path in the workspace
        file: String,
        /// What to find out (default: describe it)
        #[arg(long)]
        prompt: Option<String>,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// The text of a PDF in the workspace; scanned pages are read by the vision provider
    /// (read_document)
    Doc {
        /// The PDF: a path in the workspace
        file: String,
        /// For scanned pages: what to ask the vision model
        #[arg(long)]
        prompt: Option<String>,
        #[command(flatten)]
        caller: CallerArgs,
    },
}

/// The call's arguments: `pairs` whose value is given.
fn call(pairs: &[(&str, Option<String>)]) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        if let Some(v) = v {
            m.insert((*k).to_string(), json!(v));
        }
    }
    Value::Object(m)
}

pub fn run(ctx: &Context, args: MediaArgs) -> Result<Status> {
    let (tool, args, caller) = match args.command {
        MediaCommand::Image {
            prompt,
            output,
            size,
            caller,
        } => (
            "create_image",
            call(&[("prompt", Some(prompt)), ("path", output), ("size", size)]),
            caller,
        ),
        MediaCommand::Speak {
            text,
            output,
            voice,
            caller,
        } => {
            let input = Input::parse(Some(&text));
            let text = String::from_utf8(input.read(ctx)?)
                .map_err(|_| Error::usage(format!("{} is not UTF-8 text", input.describe())))?;
            (
                "tts",
                call(&[("text", Some(text)), ("path", output), ("voice", voice)]),
                caller,
            )
        }
        MediaCommand::Transcribe {
            file,
            language,
            prompt,
            caller,
        } => (
            "read_audio",
            call(&[
                ("path", Some(file)),
                ("language", language),
                ("prompt", prompt),
            ]),
            caller,
        ),
        MediaCommand::Describe {
            file,
            prompt,
            caller,
        } => (
            "read_image",
            call(&[("path", Some(file)), ("prompt", prompt)]),
            caller,
        ),
        MediaCommand::Doc {
            file,
            prompt,
            caller,
        } => (
            "read_document",
            call(&[("path", Some(file)), ("prompt", prompt)]),
            caller,
        ),
    };
    super::tool_call::exec_call(ctx, tool, &args, caller)
}
