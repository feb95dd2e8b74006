//! The `goclaw` binary: parse, dispatch, map the outcome to an exit code. Nothing else.

use std::io::Write;
use std::process::ExitCode;

use goclaw::cli::{self, Early};

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(code) = cli::sandbox_exec(&args) {
        return ExitCode::from(code);
    }
    let (parsed, matches) = match cli::parse(args) {
        Ok(p) => p,
        Err(Early::Print(text)) => {
            // Help and version text; a closed pipe is a normal end.
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            return ExitCode::SUCCESS;
        }
        Err(Early::Fail(out, err)) => {
            out.error(&err);
            return ExitCode::from(err.kind.exit_code());
        }
    };
    match cli::run(parsed, &matches) {
        (_, Ok(status)) => ExitCode::from(status.code()),
        (_, Err(err)) if err.is_closed_pipe() => ExitCode::SUCCESS,
        (out, Err(err)) => {
            let err = cli::signals::attribute(err);
            out.error(&err);
            ExitCode::from(err.kind.exit_code())
        }
    }
}
