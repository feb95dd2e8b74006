//! `goclaw completions`: shell completion scripts, generated from the clap definitions.

use clap::Args;
use clap_complete::Shell;

use super::{Context, Status};
use crate::error::{Error, Result};
use crate::output::write_all;

// Print a completion script for SHELL to stdout.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    goclaw completions bash > ~/.local/share/bash-completion/completions/goclaw\n  \
    goclaw completions zsh > ~/.zfunc/_goclaw     # with fpath+=(~/.zfunc) in ~/.zshrc\n  \
    goclaw completions fish > ~/.config/fish/completions/goclaw.fish")]
pub struct CompletionsArgs {
    /// bash | zsh | fish | elvish | powershell
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn run(ctx: &Context, args: CompletionsArgs) -> Result<Status> {
    let script = super::docs::completion(args.shell);
    let mut w = ctx.out.stream();
    write_all(&mut w, &script)?;
    std::io::Write::flush(&mut w).map_err(Error::stdout)?;
    Ok(Status::Ok)
}
