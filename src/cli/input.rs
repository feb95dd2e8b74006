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

    /// Reads the whole input, at most `[input] max_bytes` of it (a larger document is a usage
    /// error, so `goclaw guard - </dev/zero` ends at once instead of filling memory). A command
    /// whose settings cannot be resolved (a broken config, a workspace that is not there) fails
    /// with why before it reads anything.
    pub fn read(&self, ctx: &super::Context) -> Result<Vec<u8>> {
        self.read_at_most(ctx.settings()?.config.input.max_bytes, &ctx.out)
    }

    /// [`Input::read`] for a command that goes on without its config (`sanitize`): with the
    /// default limit when the config cannot be read, which it says on stderr.
    pub fn read_without_config(&self, ctx: &super::Context) -> Result<Vec<u8>> {
        self.read_at_most(max_bytes(ctx), &ctx.out)
    }

    fn read_at_most(&self, max: u64, out: &crate::output::Output) -> Result<Vec<u8>> {
        let read = match self {
            Input::Literal(s) => Ok(Some(s.as_bytes().to_vec()).filter(|b| b.len() as u64 <= max)),
            Input::File(p) => std::fs::File::open(p)
                .and_then(|f| crate::host::read_at_most(f, max))
                .map_err(|e| Error::io("read", p, &e)),
            Input::Stdin => {
                hint_if_terminal(out);
                crate::host::read_at_most(std::io::stdin().lock(), max)
                    .map_err(|e| Error::io("read", Path::new("standard input"), &e))
            }
        };
        read?.ok_or_else(|| self.too_large(max))
    }

    /// The error of an input past the `max`-byte limit.
    pub fn too_large(&self, max: u64) -> Error {
        Error::usage(format!(
            "{} is larger than the {max}-byte limit for one document",
            self.describe()
        ))
        .with_hint("[input] max_bytes in config.toml raises it")
    }

    /// Reads and parses one JSON document; errors name the source, line and column.
    pub fn read_json(&self, ctx: &super::Context) -> Result<serde_json::Value> {
        let bytes = self.read(ctx)?;
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

/// A text argument as the contract takes it: as written, `@FILE`, or `-` for stdin; UTF-8.
pub fn text(ctx: &super::Context, arg: &str) -> Result<String> {
    let input = Input::parse(Some(arg));
    let bytes = input.read(ctx).map_err(|e| match &input {
        // "@alice, look at this" meant as text.
        Input::File(_) if e.kind == crate::error::ErrorKind::NotFound => e.with_hint(
            "a text that starts with @ names a file; to send such a text, give it on standard input (-)",
        ),
        _ => e,
    })?;
    String::from_utf8(bytes)
        .map_err(|_| Error::usage(format!("{} is not UTF-8 text", input.describe())))
}

/// The largest document one input may be: `[input] max_bytes`, or the default for a command
/// that goes on without its config (`sanitize`), which it says.
pub fn max_bytes(ctx: &super::Context) -> u64 {
    match ctx.settings() {
        Ok(s) => s.config.input.max_bytes,
        Err(e) => {
            ctx.out.warn(&format!(
                "{}; [input] max_bytes is the default ({}) for this command",
                e.message,
                crate::config::DEFAULT_MAX_INPUT_BYTES
            ));
            crate::config::DEFAULT_MAX_INPUT_BYTES
        }
    }
}

/// Tells a person at a terminal that goclaw is waiting for stdin (never a prompt: a note).
pub fn hint_if_terminal(out: &crate::output::Output) {
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        out.note("(reading standard input; end with Ctrl-D)");
    }
}

/// How a filter (scrub, sanitize) meets its input over time: whether more is waiting when a read came back short
/// (stdin that paused, as under `tail -f`, gets what is final flushed), and waiting for input
/// that a SIGHUP, SIGINT or SIGTERM ends.
pub(super) struct Pace<'a> {
    /// The input's descriptor when it can pause (see [`Opened::live`]).
    pub live: Option<std::os::fd::BorrowedFd<'a>>,
    pub stop: Option<&'a crate::tools::SignalFlag>,
}

impl Pace<'_> {
    /// Whether input is waiting, or arrives within a millisecond: a fast producer refills a
    /// pipe within microseconds, so only a real pause flushes early.
    pub fn more_waiting(&self) -> bool {
        self.live.is_none_or(|fd| ready(fd, 1))
    }

    /// Waits until a read would not block; false when a signal came first (the input ends).
    pub fn until_readable(&self) -> bool {
        loop {
            if self.stopped().is_some() {
                return false;
            }
            if self.live.is_none_or(|fd| ready(fd, 100)) {
                return true;
            }
        }
    }

    pub fn stopped(&self) -> Option<crate::tools::Stopped> {
        self.stop.and_then(crate::tools::SignalFlag::get)
    }
}

/// Whether `fd` is readable (data, or its end) within `ms` milliseconds.
fn ready(fd: std::os::fd::BorrowedFd<'_>, ms: u8) -> bool {
    let mut fds = [nix::poll::PollFd::new(fd, nix::poll::PollFlags::POLLIN)];
    nix::poll::poll(&mut fds, ms).is_ok_and(|n| n > 0)
}

/// An input, opened.
pub(super) struct Opened {
    pub name: String,
    pub reader: Box<dyn Read>,
    /// Its size, for a regular file (the progress bar).
    pub len: Option<u64>,
    /// A copy of its descriptor when it can pause (a pipe, a terminal, a FIFO, a socket:
    /// stdin, or a path such as /dev/stdin), for waiting on it; `None` for a regular file,
    /// whose short read is its end.
    pub live: Option<std::os::fd::OwnedFd>,
}

/// Opens `path` (`-`: stdin) for a filter; a directory is a usage error.
pub(super) fn open_input(path: &Path) -> Result<Opened> {
    use std::os::fd::AsFd;
    let (name, file) = if path == Path::new("-") {
        let fd = std::io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .map_err(|e| Error::io("read", path, &e))?;
        ("-".to_string(), std::fs::File::from(fd))
    } else {
        let file = std::fs::File::open(path).map_err(|e| Error::io("read", path, &e))?;
        (path.display().to_string(), file)
    };
    let meta = file.metadata().map_err(|e| Error::io("read", path, &e))?;
    if meta.is_dir() {
        return Err(Error::usage(format!("{} is a directory", path.display()))
            .with_hint("a filter writes one stream; `goclaw scrub --check DIR` checks a tree"));
    }
    let regular = meta.is_file();
    let live = if regular {
        None
    } else {
        Some(
            file.as_fd()
                .try_clone_to_owned()
                .map_err(|e| Error::io("read", path, &e))?,
        )
    };
    Ok(Opened {
        name,
        reader: Box::new(file),
        len: regular.then_some(meta.len()),
        live,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet() -> crate::output::Output {
        crate::output::Output::new(true, false, true, 0)
    }

    #[test]
    fn classifies_arguments() {
        assert_eq!(Input::parse(None), Input::Stdin);
        assert_eq!(Input::parse(Some("-")), Input::Stdin);
        assert_eq!(Input::parse(Some("@a.json")), Input::File("a.json".into()));
        assert_eq!(Input::parse(Some("{}")), Input::Literal("{}".into()));
    }

    #[test]
    fn a_document_over_the_limit_is_refused_without_reading_it_all() {
        let e = Input::File("/dev/zero".into())
            .read_at_most(1 << 20, &quiet())
            .unwrap_err();
        assert_eq!(e.kind, crate::error::ErrorKind::Usage);
        assert!(e.message.contains("limit"), "{}", e.message);
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a");
        std::fs::write(&f, b"12345").unwrap();
        assert_eq!(
            Input::File(f.clone()).read_at_most(5, &quiet()).unwrap(),
            b"12345"
        );
        assert!(Input::File(f).read_at_most(4, &quiet()).is_err());
    }
}
