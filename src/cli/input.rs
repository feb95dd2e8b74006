//! Where a subcommand's input comes from. An argument is taken as it is, `@FILE` reads a file,
//! `-` (or no argument, where a command allows it) reads stdin. A JSON document is accepted the
//! same three ways.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// One input argument, classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Stdin,
    File(PathBuf),
    Literal(String),
}

impl Input {
    /// `-` is stdin, `@PATH` a file, anything else the value itself. `None` means stdin.
    pub fn parse(arg: Option<&str>) -> Input {
        match arg {
            None | Some("-") => Input::Stdin,
            Some(a) => match a.strip_prefix('@') {
                Some(path) => Input::File(PathBuf::from(path)),
                None => Input::Literal(a.to_string()),
            },
        }
    }

    /// Reads the whole input.
    pub fn read(&self) -> Result<Vec<u8>> {
        match self {
            Input::Literal(s) => Ok(s.clone().into_bytes()),
            Input::File(p) => std::fs::read(p).map_err(|e| Error::io("read", p, &e)),
            Input::Stdin => {
                hint_if_terminal();
                let mut buf = Vec::new();
                std::io::stdin()
                    .lock()
                    .read_to_end(&mut buf)
                    .map_err(|e| Error::io("read", Path::new("standard input"), &e))?;
                Ok(buf)
            }
        }
    }

    /// Reads and parses one JSON document; errors name the source, line and column.
    pub fn read_json(&self) -> Result<serde_json::Value> {
        let bytes = self.read()?;
        serde_json::from_slice(&bytes)
            .map_err(|e| Error::usage(format!("invalid JSON in {}: {e}", self.describe())))
    }

    pub fn describe(&self) -> String {
        match self {
            Input::Stdin => "standard input".into(),
            Input::File(p) => p.display().to_string(),
            Input::Literal(_) => "the argument".into(),
        }
    }
}

/// Tells a person at a terminal that goclaw is waiting for stdin (never a prompt: a note).
pub fn hint_if_terminal() {
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        eprintln!("(reading standard input; end with Ctrl-D)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_arguments() {
        assert_eq!(Input::parse(None), Input::Stdin);
        assert_eq!(Input::parse(Some("-")), Input::Stdin);
        assert_eq!(Input::parse(Some("@a.json")), Input::File("a.json".into()));
        assert_eq!(Input::parse(Some("{}")), Input::Literal("{}".into()));
    }
}
