//! SIGINT and SIGTERM for commands that run one tool call (`tools exec`): the first signal
//! stops the call (the tool's processes get SIGTERM, then SIGKILL) and the command exits 130 or
//! 143 when it has recorded the call; a second signal exits at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use nix::sys::signal::{SigSet, Signal};

/// Blocks SIGINT and SIGTERM in this thread (and the threads it starts from now on) and
/// watches for them on a thread of their own. The flag is 1 after SIGINT, 2 after SIGTERM.
pub fn watch() -> Option<Arc<AtomicU8>> {
    let mut set = SigSet::empty();
    set.add(Signal::SIGINT);
    set.add(Signal::SIGTERM);
    set.thread_block().ok()?;
    let flag = Arc::new(AtomicU8::new(0));
    let seen = flag.clone();
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            loop {
                let Ok(sig) = set.wait() else { return };
                let (state, code) = match sig {
                    Signal::SIGTERM => (2, 143),
                    _ => (1, 130),
                };
                if seen.swap(state, Ordering::SeqCst) != 0 {
                    std::process::exit(code);
                }
            }
        })
        .ok()?;
    Some(flag)
}
