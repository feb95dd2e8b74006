//! SIGINT and SIGTERM for commands that run one tool call (`tools exec`): the first signal
//! stops the call (the tool's processes get SIGTERM, then SIGKILL) and the command exits 130 or
//! 143 when it has recorded the call; a second signal exits at once.

use nix::sys::signal::{SigSet, Signal};

use crate::tools::SignalFlag;

/// Blocks SIGINT and SIGTERM in this thread (and the threads it starts from now on) and
/// watches for them on a thread of their own, which records them in the flag.
pub fn watch() -> Option<SignalFlag> {
    let mut set = SigSet::empty();
    set.add(Signal::SIGINT);
    set.add(Signal::SIGTERM);
    set.thread_block().ok()?;
    let flag = SignalFlag::default();
    let seen = flag.clone();
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut first: Option<std::time::Instant> = None;
            loop {
                let Ok(sig) = set.wait() else { return };
                let terminated = sig == Signal::SIGTERM;
                // `timeout`, systemd and a terminal signal the process and its group at once:
                // a second signal within 200 ms is the same event, not a second Ctrl-C.
                let echo =
                    first.is_some_and(|t| t.elapsed() < std::time::Duration::from_millis(200));
                first.get_or_insert_with(std::time::Instant::now);
                if seen.raise(terminated) && !echo {
                    std::process::exit(if terminated { 143 } else { 130 });
                }
            }
        })
        .ok()?;
    Some(flag)
}
