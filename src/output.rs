//! The command-line output contract, in one place: data on stdout (JSON when stdout is not a
//! terminal or with `--json`, human text on a terminal or with `--human`), human messages and
//! progress on stderr, exactly one JSON error document on stdout in JSON mode when a command
//! fails (text filters: on stderr only, unless `--json`), and a closed pipe treated as a normal
//! end. Human text passes through [`PrintableWriter`]: no escape sequence that a model, a
//! command or a server chose reaches a terminal. Domain modules never use this; only `cli`
//! and `main` do.

use std::io::{self, IsTerminal, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::text::printable::{PrintableWriter, one_line, printable};

/// How this process prints.
#[derive(Debug, Clone)]
pub struct Output {
    json: bool,
    /// A failure's JSON error document goes to stdout (off for text filters' data streams).
    json_errors: bool,
    quiet: bool,
    verbose: u8,
    stderr_tty: bool,
}

impl Output {
    /// `--json` forces JSON, `--human` forces text; otherwise JSON unless stdout is a terminal.
    pub fn new(json: bool, human: bool, quiet: bool, verbose: u8) -> Output {
        let json = if json {
            true
        } else if human {
            false
        } else {
            !io::stdout().is_terminal()
        };
        Output {
            json,
            json_errors: json,
            quiet,
            verbose,
            stderr_tty: io::stderr().is_terminal(),
        }
    }

    /// This output for a text filter (`scrub`, `sanitize`): its stdout is the filtered data
    /// (often redirected into a file), so a failure is reported on stderr only, with its exit
    /// code, unless `--json` was asked for (`explicit_json`).
    pub fn for_filter(mut self, explicit_json: bool) -> Output {
        self.json_errors = explicit_json;
        self
    }

    /// Is data printed as JSON?
    pub fn is_json(&self) -> bool {
        self.json
    }

    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// One JSON document (JSON mode) or the human rendering (text mode).
    pub fn data<T: Serialize>(
        &self,
        value: &T,
        human: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<()> {
        let stdout = io::stdout();
        let mut w = io::BufWriter::new(stdout.lock());
        if self.json {
            write_json(&mut w, value)?;
            w.write_all(b"\n").map_err(Error::stdout)?;
        } else {
            // For people: whatever a model, a command or a server chose in it is made printable
            // here, in one place, so no rendering can forget to.
            let mut shown = PrintableWriter::new(&mut w);
            human(&mut shown)
                .and_then(|_| shown.flush())
                .map_err(Error::stdout)?;
        }
        w.flush().map_err(Error::stdout)
    }

    /// One record of a live stream, flushed at once: a JSON line in JSON mode, else `human`'s
    /// line. A closed pipe is [`Error::closed_pipe`]'s error, which ends the stream normally.
    pub fn record<T: Serialize>(&self, value: &T, human: impl FnOnce() -> String) -> Result<()> {
        if self.json {
            return self.record_json(value);
        }
        let mut out = io::stdout().lock();
        writeln!(out, "{}", printable(&human()))
            .and_then(|_| out.flush())
            .map_err(Error::stdout)
    }

    /// One JSON line of a live stream, flushed at once, whatever the mode (`--events`).
    pub fn record_json<T: Serialize>(&self, value: &T) -> Result<()> {
        let line = serde_json::to_string(value)
            .map_err(|e| Error::internal(format!("cannot encode output: {e}")))?;
        let mut out = io::stdout().lock();
        writeln!(out, "{line}")
            .and_then(|_| out.flush())
            .map_err(Error::stdout)
    }

    /// A writer for streams (JSON Lines or raw filter output), buffered.
    pub fn stream(&self) -> io::BufWriter<io::StdoutLock<'static>> {
        io::BufWriter::with_capacity(256 * 1024, io::stdout().lock())
    }

    /// A writer for a filter that writes long slices of its input as they are (`scrub`): short
    /// writes are gathered, and a slice of 32 KiB or more goes to stdout uncopied.
    pub fn passing_stream(&self) -> io::BufWriter<io::StdoutLock<'static>> {
        io::BufWriter::with_capacity(32 * 1024, io::stdout().lock())
    }

    /// A warning for people, on stderr (not with `--quiet`).
    pub fn warn(&self, message: &str) {
        if !self.quiet {
            // One line, as the error line: what a server said cannot forge a line of its own.
            let _ = writeln!(io::stderr().lock(), "warning: {}", one_line(message));
        }
    }

    /// A note for people, on stderr (not with `--quiet`), made [`printable`]: a note quotes what
    /// a model or a server chose (a tool call's arguments, an error), which must not reach the
    /// terminal as escape sequences.
    pub fn note(&self, message: &str) {
        if !self.quiet {
            let _ = writeln!(io::stderr().lock(), "{}", printable(message));
        }
    }

    /// What the library has to say (`ops::Note`): warnings unless `--quiet`, details with
    /// `--verbose`.
    pub fn notes(&self, notes: Vec<crate::ops::Note>) {
        for n in notes {
            match n {
                crate::ops::Note::Warn(m) => self.warn(&m),
                crate::ops::Note::Detail(m) => self.verbose(&m),
            }
        }
    }

    /// Text on stderr that shows even with `--quiet`, as given (no newline added): a question
    /// for the person at the terminal (a prompt nobody sees would wait for nothing), the help
    /// after a usage error, a report the command was asked for (`scrub --report`).
    pub fn stderr_text(&self, text: &str) {
        let mut err = io::stderr().lock();
        let _ = err.write_all(text.as_bytes());
        let _ = err.flush();
    }

    /// Bytes of data on stdout, as they come (a streamed answer, a file's content), flushed.
    pub fn raw(&self, bytes: &[u8]) -> Result<()> {
        let mut out = io::stdout().lock();
        out.write_all(bytes)
            .and_then(|_| out.flush())
            .map_err(Error::stdout)
    }

    /// Whether [`Output::verbose`] shows anything (so a caller builds its detail only then).
    pub fn is_verbose(&self) -> bool {
        self.verbose > 0 && !self.quiet
    }

    /// Detail shown only with `--verbose`.
    pub fn verbose(&self, message: &str) {
        if self.verbose > 0 && !self.quiet {
            let _ = writeln!(io::stderr().lock(), "{message}");
        }
    }

    /// Reports a failure: the JSON error document on stdout in JSON mode, and one human line
    /// on stderr always.
    pub fn error(&self, err: &Error) {
        if self.json_errors {
            let mut out = io::stdout().lock();
            let _ = serde_json::to_writer(&mut out, &err.to_json());
            let _ = out.write_all(b"\n");
            let _ = out.flush();
        }
        // One line whatever the message holds (a command's output, a server's answer), with
        // nothing in it that could steer the terminal.
        let mut line = format!("error: {}", one_line(&err.message));
        if let Some(hint) = &err.hint {
            line.push_str(&format!(" (hint: {})", one_line(hint)));
        }
        let _ = writeln!(io::stderr().lock(), "{line}");
    }

    /// The `error: …` line of a command that ends with a failure's exit code after printing its
    /// data (a report, records): on stderr always, `--quiet` or not, as [`Output::error`]'s.
    pub fn failure_line(&self, message: &str) {
        let _ = writeln!(io::stderr().lock(), "error: {}", one_line(message));
    }

    /// A progress bar on stderr, only when stderr is a terminal and not `--quiet`. `len` of
    /// `None` gives a spinner.
    pub fn progress(&self, len: Option<u64>, what: &str) -> ProgressBar {
        if !self.stderr_tty || self.quiet {
            return ProgressBar::hidden();
        }
        let bar = match len {
            Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr())
                .with_style(
                    ProgressStyle::with_template(
                        "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} ETA {eta}",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
                ),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
        };
        bar.set_message(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    }
}

/// Writes `value` as JSON to `w`: a value that cannot be encoded is an internal error, a write
/// that fails is stdout's (so a closed pipe, even in the middle of a document, ends quietly).
pub fn write_json<T: Serialize + ?Sized>(w: &mut impl Write, value: &T) -> Result<()> {
    // Encoded whole before a byte is written: a value that cannot be encoded leaves no half
    // document ahead of the error document.
    let text = serde_json::to_vec(value)
        .map_err(|e| Error::internal(format!("cannot encode output: {e}")))?;
    w.write_all(&text).map_err(Error::stdout)
}

/// Writes all of `bytes` to `w`, mapping a closed pipe to [`Error::closed_pipe`].
pub fn write_all(w: &mut (impl Write + ?Sized), bytes: &[u8]) -> Result<()> {
    w.write_all(bytes).map_err(Error::stdout)
}
