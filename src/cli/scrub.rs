//! `goclaw scrub`: redact credentials from files or stdin, streaming, to stdout.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use super::input::{Opened, Pace, open_input};
use super::{Context, Status};
use crate::error::{Error, ErrorKind, Result};
use crate::output::write_all;
use crate::text::scrub::{Report, Scrubber, Sink};

// Redact credentials: GoClaw's 14 patterns, then exact credential values as [REDACTED], then
// server addresses as [SERVER_IP]. Reads the FILEs (each scrubbed on its own) or stdin, and
// writes the scrubbed text to stdout, every other byte unchanged.
#[derive(Debug, Default, Args)]
#[command(after_help = "Examples:\n  \
    app 2>&1 | goclaw scrub --value \"$API_TOKEN\" >> app.log\n  \
    goclaw scrub --check src/ config.env   # a tree and a file; exit 1 when anything would be redacted\n  \
    goclaw scrub --json-values < events.jsonl > clean.jsonl")]
pub struct ScrubArgs {
    /// Files to scrub (default: stdin; `-` is stdin); with --check also directories, walked in
    /// path order (hidden and linked files included; what git ignores, and .git, skipped)
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// A credential value to redact wherever it appears (repeatable; under 6 bytes is ignored)
    // A token may begin with '-' (`--value "$TOKEN"` must not fail on one that does).
    #[arg(long = "value", value_name = "V", allow_hyphen_values = true)]
    pub values: Vec<String>,
    /// A file of credential values, one per line (repeatable)
    #[arg(long = "values-file", value_name = "F")]
    pub values_files: Vec<PathBuf>,
    /// A server address to redact as [SERVER_IP] (repeatable)
    #[arg(long = "server-ip", value_name = "V")]
    pub server_ips: Vec<String>,
    /// Also redact this host's non-loopback interface addresses (no network requests)
    #[arg(long)]
    pub detect_server_ips: bool,
    /// The input is JSON (documents or JSON Lines): scrub every string value on its own, keep
    /// the JSON valid, print one compact document per line
    #[arg(long)]
    pub json_values: bool,
    /// Print only a report; exit 1 when anything would be redacted, 0 otherwise
    #[arg(long, conflicts_with = "report")]
    pub check: bool,
    /// Also write a JSON report (counts and line numbers per pattern, never a secret) to stderr
    #[arg(long)]
    pub report: bool,
}

/// What was found in one input.
#[derive(Debug, Serialize)]
struct FileReport {
    path: String,
    redactions: u64,
    patterns: std::collections::BTreeMap<&'static str, crate::text::scrub::PatternHits>,
}

/// The whole report: `--check` prints it, `--report` writes it to stderr.
#[derive(Debug, Serialize)]
struct ScrubReport {
    clean: bool,
    redactions: u64,
    files: Vec<FileReport>,
}

/// `--json` output of a plain scrub.
#[derive(Debug, Serialize)]
struct JsonOutput {
    content: String,
    /// True when the output was not valid UTF-8 and `content` replaced bytes with U+FFFD.
    lossy: bool,
    report: ScrubReport,
}

pub fn run(ctx: &Context, args: ScrubArgs) -> Result<Status> {
    let scrubber = build_scrubber(ctx, &args)?;
    let inputs = inputs(ctx, &args)?;
    // SIGINT and SIGTERM end the input: what was read is scrubbed to the end and written, then
    // goclaw exits 130 or 143 (a second signal exits at once).
    let stop = super::signals::watch(super::signals::FILTER_GRACE);
    let want_report = args.check || args.report || ctx.json_flag;
    let mut reports = Vec::new();
    // Plain output goes straight to stdout; --check prints nothing but the report; --json
    // gathers the text into one document.
    let mut captured = Vec::new();
    {
        let mut stdout = ctx.out.passing_stream();
        for input in inputs {
            let mut input = input?;
            let sink: &mut dyn Write = if args.check {
                &mut std::io::sink()
            } else if ctx.json_flag {
                &mut captured
            } else {
                &mut stdout
            };
            let (name, reader) = (&input.name, input.reader.as_mut());
            // A bar for a file over 16 MB only: a small file, or a stream of unknown length,
            // gets none (not a spinner, nor a hidden bar to update).
            let bar = input
                .len
                .filter(|len| *len > 16 << 20)
                .map(|len| ctx.out.progress(Some(len), &format!("scrub {name}")));
            let live = input.live.as_ref().map(std::os::fd::AsFd::as_fd);
            let pace = Pace {
                live,
                stop: stop.as_ref(),
            };
            let report = if args.json_values {
                scrub_json(&scrubber, name, reader, sink, want_report, &pace)?
            } else {
                let progress = |n| bar.iter().for_each(|b| b.inc(n));
                scrub_stream(&scrubber, name, reader, sink, want_report, &progress, &pace)?
            };
            bar.iter()
                .for_each(indicatif::ProgressBar::finish_and_clear);
            reports.push(FileReport {
                path: input.name.clone(),
                redactions: report.redactions,
                patterns: report.patterns,
            });
            if pace.stopped().is_some() {
                break;
            }
        }
        stdout.flush().map_err(Error::stdout)?;
    }
    let total: u64 = reports.iter().map(|r| r.redactions).sum();
    let report = ScrubReport {
        clean: total == 0,
        redactions: total,
        files: reports,
    };
    if args.report {
        let doc = serde_json::to_string(&report).map_err(|e| Error::internal(e.to_string()))?;
        ctx.out.stderr_text(&format!("{doc}\n"));
    }
    let interrupted = super::signals::status(stop.as_ref());
    if args.check {
        ctx.out.data(&report, |w| human_report(w, &report))?;
        // A check cut short by a signal says so, never "clean".
        if interrupted.is_none() && total > 0 {
            ctx.out.failure_line(&format!(
                "{total} credential(s) found (`goclaw scrub` redacts them)"
            ));
        }
        return Ok(interrupted.unwrap_or(if total == 0 {
            Status::Ok
        } else {
            Status::Exit(ErrorKind::Failed)
        }));
    }
    if ctx.json_flag {
        let lossy = std::str::from_utf8(&captured).is_err();
        let content = String::from_utf8_lossy(&captured).into_owned();
        ctx.out.data(
            &JsonOutput {
                content,
                lossy,
                report,
            },
            |_| Ok(()),
        )?;
    }
    Ok(interrupted.unwrap_or(Status::Ok))
}

fn human_report(w: &mut dyn Write, report: &ScrubReport) -> std::io::Result<()> {
    if report.clean {
        return writeln!(w, "clean: nothing to redact");
    }
    for f in report.files.iter().filter(|f| f.redactions > 0) {
        writeln!(w, "{}: {} to redact", f.path, f.redactions)?;
        for (name, hits) in &f.patterns {
            let lines: Vec<String> = hits.lines.iter().take(20).map(u64::to_string).collect();
            let more = if hits.lines.len() > 20 || hits.lines_truncated {
                ", …"
            } else {
                ""
            };
            writeln!(
                w,
                "  {name}: {} (line {}{more})",
                hits.count,
                lines.join(", ")
            )?;
        }
    }
    Ok(())
}

/// The inputs, in order. Scrubbing opens every file first, so a missing one fails before
/// anything is written; --check writes nothing until the end, so it opens each in turn and
/// takes directories too, walked in path order: hidden files (`.env`, `.github/`) and linked
/// files are checked; what git ignores in a git work tree (.gitignore, .git/info/exclude, the
/// global excludes) is skipped, and `.git` itself; `.ignore` files are not read.
fn inputs(ctx: &Context, args: &ScrubArgs) -> Result<Box<dyn Iterator<Item = Result<Opened>>>> {
    if args.files.is_empty() {
        super::input::hint_if_terminal(&ctx.out);
        return Ok(Box::new(std::iter::once(open_input(Path::new("-")))));
    }
    if !args.check {
        let opened = args
            .files
            .iter()
            .map(|p| open_input(p))
            .collect::<Result<Vec<_>>>()?;
        return Ok(Box::new(opened.into_iter().map(Ok)));
    }
    let mut paths = Vec::new();
    for p in &args.files {
        if !p.is_dir() {
            paths.push(p.clone());
            continue;
        }
        let walk = ignore::WalkBuilder::new(p)
            .hidden(false)
            .ignore(false)
            .follow_links(true)
            .filter_entry(|e| e.file_name() != ".git")
            .sort_by_file_path(|a, b| a.cmp(b))
            .build();
        for entry in walk {
            let entry = match entry {
                Ok(entry) => entry,
                // A link back up the tree leads to nothing new to check.
                Err(e) if is_loop(&e) => continue,
                Err(e) => return Err(Error::failed(format!("walk {}: {e}", p.display()))),
            };
            if entry.file_type().is_some_and(|t| t.is_file()) {
                paths.push(entry.into_path());
            }
        }
    }
    Ok(Box::new(paths.into_iter().map(|p| open_input(&p))))
}

/// Whether a walk's error is a link loop (whatever path and depth it carries).
fn is_loop(e: &ignore::Error) -> bool {
    match e {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => is_loop(err),
        _ => false,
    }
}

/// The scrubber every command uses (`[scrub]` from config), plus the values of these flags.
fn build_scrubber(ctx: &Context, args: &ScrubArgs) -> Result<Scrubber> {
    let extras = crate::ops::scrubber::ScrubExtras {
        values: args.values.clone(),
        values_files: args.values_files.clone(),
        server_ips: args.server_ips.clone(),
        detect_server_ips: args.detect_server_ips,
    };
    let mut notes = Vec::new();
    let settings = ctx.settings_lenient("its [scrub] values are not redacted")?;
    let scrubber = crate::ops::scrubber::build(settings, &extras, &mut notes);
    ctx.out.notes(notes);
    scrubber
}

/// How much a read asks for: the read, its lowered copy and what is written stay in a core's
/// L2 cache (the 210 MB log bench, one core: 1.28 GB/s with 1 MiB reads, 1.36 with 256 KiB).
const READ_BUF: usize = 256 * 1024;

/// Scrubbed text written as it comes; the first write error is kept for the caller (a closed
/// pipe then ends the scrub).
struct WriteOut<'w> {
    writer: &'w mut dyn Write,
    error: Option<std::io::Error>,
}

impl Sink for WriteOut<'_> {
    fn put(&mut self, bytes: &[u8]) {
        if self.error.is_none()
            && let Err(e) = self.writer.write_all(bytes)
        {
            self.error = Some(e);
        }
    }
}

impl WriteOut<'_> {
    fn result(&mut self) -> Result<()> {
        self.error.take().map_or(Ok(()), |e| Err(Error::stdout(e)))
    }
}

/// Streams one input through the scrubber into `sink`.
fn scrub_stream(
    scrubber: &Scrubber,
    name: &str,
    reader: &mut dyn Read,
    sink: &mut dyn Write,
    with_report: bool,
    progress: &dyn Fn(u64),
    pace: &Pace<'_>,
) -> Result<Report> {
    let mut stream = scrubber.stream(with_report);
    let mut out = WriteOut {
        writer: sink,
        error: None,
    };
    loop {
        if !pace.until_readable() {
            break;
        }
        // Read straight into the stream's own buffer.
        let n = match reader.read(stream.read_space(READ_BUF)) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io("read", Path::new(name), &e)),
        };
        stream.pushed(n, &mut out);
        // A short read with nothing more waiting: the input paused (`tail -f`, a slow
        // producer), so what is final goes out now, not at the next full chunk or the end.
        let paused = n < READ_BUF && !pace.more_waiting();
        if paused {
            stream.flush_ready(&mut out);
        }
        out.result()?;
        if paused {
            out.writer.flush().map_err(Error::stdout)?;
        }
        progress(n as u64);
    }
    stream.finish(&mut out);
    out.result()?;
    Ok(stream.take_report())
}

/// Scrubs every string value of a stream of JSON documents; one compact document per line.
/// In the report, a "line" is the document's ordinal (its line, for JSON Lines input).
fn scrub_json(
    scrubber: &Scrubber,
    name: &str,
    reader: &mut dyn Read,
    sink: &mut dyn Write,
    with_report: bool,
    pace: &Pace<'_>,
) -> Result<Report> {
    let mut report = Report::default();
    let sink = std::cell::RefCell::new(sink);
    let write_error = std::cell::RefCell::new(None);
    // Each document is written as soon as it is read; before waiting for more input, what was
    // written is flushed, so live JSON Lines come out one line per line.
    let paced = FlushBeforeWait {
        inner: reader,
        sink: &sink,
        pace,
        write_error: &write_error,
    };
    let docs = serde_json::Deserializer::from_reader(std::io::BufReader::new(paced))
        .into_iter::<serde_json::Value>();
    for (i, doc) in docs.enumerate() {
        // A signal ends the input: a document cut short by it is dropped, not an error.
        if doc.is_err() && pace.stopped().is_some() {
            break;
        }
        let mut doc =
            doc.map_err(
                |e| match (write_error.borrow_mut().take(), e.io_error_kind()) {
                    // Flushing what was written failed (a closed pipe is a normal end, as anywhere).
                    (Some(written), _) => Error::stdout(written),
                    (None, Some(_)) => Error::io("read", Path::new(name), &std::io::Error::from(e)),
                    (None, None) => {
                        Error::usage(format!("invalid JSON in {name} (document {}): {e}", i + 1))
                            .with_hint("--json-values reads JSON documents or JSON Lines")
                    }
                },
            )?;
        let mut found = Report::default();
        scrub_value(scrubber, &mut doc, with_report.then_some(&mut found));
        report.merge_at_line(&found, i as u64 + 1);
        let mut line = serde_json::to_vec(&doc).map_err(|e| Error::internal(e.to_string()))?;
        line.push(b'\n');
        write_all(*sink.borrow_mut(), &line)?;
    }
    Ok(report)
}

/// A reader that flushes `sink` before it would wait for input (none arrives within a
/// millisecond): what was written so far goes out while the input pauses. A failed flush is
/// kept in `write_error`, so that it is reported as the write error it is.
struct FlushBeforeWait<'a, 'w> {
    inner: &'a mut dyn Read,
    sink: &'a std::cell::RefCell<&'w mut dyn Write>,
    pace: &'a Pace<'a>,
    write_error: &'a std::cell::RefCell<Option<std::io::Error>>,
}

impl Read for FlushBeforeWait<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.pace.more_waiting()
            && let Err(e) = self.sink.borrow_mut().flush()
        {
            let kind = e.kind();
            *self.write_error.borrow_mut() = Some(e);
            return Err(std::io::Error::new(kind, "the output failed"));
        }
        if !self.pace.until_readable() {
            return Ok(0);
        }
        self.inner.read(buf)
    }
}

fn scrub_value(scrubber: &Scrubber, v: &mut serde_json::Value, mut report: Option<&mut Report>) {
    match v {
        serde_json::Value::String(s) => *s = scrubber.scrub_str(s, report),
        serde_json::Value::Array(items) => {
            for item in items {
                scrub_value(scrubber, item, report.as_deref_mut());
            }
        }
        serde_json::Value::Object(map) => {
            for (_, item) in map.iter_mut() {
                scrub_value(scrubber, item, report.as_deref_mut());
            }
        }
        _ => {}
    }
}
