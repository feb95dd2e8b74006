//! `goclaw help`: help for any command, and topics (`exit-codes`).

use clap::Args;
use serde::Serialize;

use super::{Context, Status};
use crate::error::{Error, ErrorKind, Result};
use crate::output::write_all;

// Show the long help of a command (e.g. `goclaw help db backup`), or a topic: exit-codes.
#[derive(Debug, Args)]
pub struct HelpArgs {
    /// A command path, or the topic `exit-codes`
    #[arg(value_name = "COMMAND|TOPIC")]
    pub topic: Vec<String>,
}

#[derive(Serialize)]
struct ExitCode {
    code: u8,
    name: &'static str,
    meaning: &'static str,
}

pub fn run(ctx: &Context, args: HelpArgs) -> Result<Status> {
    if args.topic.first().map(String::as_str) == Some("exit-codes") {
        let mut table = vec![ExitCode {
            code: 0,
            name: "ok",
            meaning: "success",
        }];
        table.extend(ErrorKind::ALL.iter().map(|k| ExitCode {
            code: k.exit_code(),
            name: k.name(),
            meaning: k.meaning(),
        }));
        let page = crate::store::page::Page::whole(table);
        ctx.out.data(&page, |w| {
            w.write_all(crate::error::exit_code_table().as_bytes())
        })?;
        return Ok(Status::Ok);
    }
    let mut cmd = super::command();
    cmd.build();
    let mut target = &mut cmd;
    for name in &args.topic {
        target = target.find_subcommand_mut(name).ok_or_else(|| {
            Error::not_found(format!(
                "no command or help topic `{}`",
                args.topic.join(" ")
            ))
            .with_hint("`goclaw --help` lists commands; topics: exit-codes")
        })?;
    }
    let text = target.render_long_help().to_string();
    let mut w = ctx.out.stream();
    write_all(&mut w, text.as_bytes())?;
    std::io::Write::flush(&mut w).map_err(Error::stdout)?;
    Ok(Status::Ok)
}
