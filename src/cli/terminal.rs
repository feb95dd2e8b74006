//! The person at the terminal: [`TerminalPrompter`] asks for approvals (the gate's
//! [`Prompter`]) and answers `ask_user` (an [`Asker`]), only when stdin and stderr are both
//! terminals. Questions go to stderr through [`Output::prompt`]; the answer is one line of stdin,
//! waited for with poll(2) so the wait ends on time without leaving a reader behind.

use std::io::{BufRead, IsTerminal};
use std::time::{Duration, Instant};

use super::Context;
use crate::output::Output;
use crate::text::printable::printable;
use crate::tools::ask::{Asker, Question};
use crate::tools::exec::approvals::Subject;
use crate::tools::gate::{Answer, Prompter};
use crate::tools::{StopWhen, Stopped};

/// Asks at the terminal: allow once, allow always, or deny; or a question with choices.
#[derive(Debug, Clone)]
pub(crate) struct TerminalPrompter {
    out: Output,
}

impl TerminalPrompter {
    pub(crate) fn new(ctx: &Context) -> TerminalPrompter {
        TerminalPrompter {
            out: ctx.out.clone(),
        }
    }

    /// Is there a person to ask (stdin and stderr both terminals)?
    pub(crate) fn available() -> bool {
        std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
    }

    /// One line from stdin within `timeout`, or why none came (with a note). With `stop`, the
    /// wait also ends when the call is stopped, seen within 100 ms (the signal may have gone to
    /// another thread); without, a signal ends it as no answer.
    fn read_line_within(&self, timeout: Duration, stop: Option<&StopWhen>) -> Reply {
        use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
        use std::os::fd::AsFd;
        let stdin = std::io::stdin();
        let until = Instant::now() + timeout;
        loop {
            if let Some(why) = stop.and_then(StopWhen::check) {
                self.out.stderr_text("(stopped)\n");
                return Reply::Stopped(why);
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            let slice = match stop {
                Some(_) => left.min(Duration::from_millis(100)),
                None => left,
            };
            let ms = PollTimeout::try_from(slice.as_millis().min(i32::MAX as u128) as i32)
                .unwrap_or(PollTimeout::MAX);
            let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, ms) {
                Ok(0) => {}
                Ok(_) => {
                    let mut line = String::new();
                    // A terminal that hung up reads as its end (or fails): nobody can answer.
                    return match stdin.lock().read_line(&mut line) {
                        Ok(n) if n > 0 => Reply::Line(line.trim().to_string()),
                        _ => closed(stop),
                    };
                }
                Err(nix::errno::Errno::EINTR) if stop.is_some() => {}
                Err(_) => break,
            }
        }
        self.out.stderr_text("(no answer)\n");
        Reply::NoAnswer
    }
}

/// The terminal closed: the SIGHUP the kernel sends with the hang-up (unless goclaw ignores it,
/// under `nohup`) is a stop, which the hang-up seen first must not hide; given 200 ms to come.
fn closed(stop: Option<&StopWhen>) -> Reply {
    let Some(stop) = stop else {
        return Reply::Closed;
    };
    let until = Instant::now() + Duration::from_millis(200);
    while Instant::now() < until {
        if let Some(why) = stop.check() {
            return Reply::Stopped(why);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Reply::Closed
}

/// What came of waiting for a line at the terminal.
enum Reply {
    Line(String),
    NoAnswer,
    Closed,
    Stopped(Stopped),
}

impl Asker for TerminalPrompter {
    /// The question and numbered choices on stderr; one line from stdin.
    fn ask(&self, q: &Question, timeout: Duration) -> Option<String> {
        let mut text = format!("? {}\n", printable(&q.question));
        for (i, c) in q.choices.iter().enumerate() {
            text.push_str(&format!("  {}. {}\n", i + 1, printable(c)));
        }
        text.push_str("> ");
        self.out.stderr_text(&text);
        match self.read_line_within(timeout, None) {
            Reply::Line(line) => Some(line),
            Reply::NoAnswer | Reply::Closed | Reply::Stopped(_) => None,
        }
    }
}

impl Prompter for TerminalPrompter {
    fn ask(
        &self,
        tool: &str,
        subject: &Subject,
        reason: &str,
        timeout: Duration,
        stop: &StopWhen,
    ) -> Answer {
        let mut text = format!(
            "{tool} wants to run: {}\n  ({})\n",
            printable(&subject.command),
            printable(reason)
        );
        for c in &subject.commands {
            text.push_str(&format!(
                "  runs {} as {}\n",
                printable(&c.argv.join(" ")),
                printable(&c.program)
            ));
        }
        text.push_str("Allow? [o]nce / [a]lways / [d]eny: ");
        self.out.stderr_text(&text);
        let line = match self.read_line_within(timeout, Some(stop)) {
            Reply::Line(line) => line,
            Reply::NoAnswer => return Answer::TimedOut,
            Reply::Closed => return Answer::Closed,
            Reply::Stopped(why) => return Answer::Stopped(why),
        };
        match line.to_ascii_lowercase().as_str() {
            "o" | "once" | "y" | "yes" => Answer::AllowOnce,
            "a" | "always" => Answer::AllowAlways,
            _ => Answer::Deny,
        }
    }
}
