//! Playing back a recording made with `goclaw run --record FILE`: JSON Lines, one exchange per
//! line, `{"request": …, "response": …}`. The responses are given back in order, whatever is
//! asked, so a recorded run replays offline and deterministically (tools still run for real).
//! Asking for more exchanges than were recorded is an upstream error.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Deserialize;

use super::{ChatRequest, ChatResponse};
use crate::error::{Error, Result};

#[derive(Deserialize)]
struct Exchange {
    response: ChatResponse,
}

/// A recording being played.
pub struct Replay {
    path: PathBuf,
    responses: Vec<ChatResponse>,
    next: AtomicUsize,
}

impl Replay {
    pub fn load(path: &Path) -> Result<Replay> {
        let text =
            std::fs::read_to_string(path).map_err(|e| Error::io("read the recording", path, &e))?;
        let mut responses = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let exchange: Exchange = serde_json::from_str(line).map_err(|e| {
                Error::usage(format!(
                    "{}:{}: not a recorded exchange: {e}",
                    path.display(),
                    n + 1
                ))
            })?;
            responses.push(exchange.response);
        }
        Ok(Replay {
            path: path.to_path_buf(),
            responses,
            next: AtomicUsize::new(0),
        })
    }

    /// The next recorded response.
    pub fn next(&self, _req: &ChatRequest) -> Result<ChatResponse> {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        self.responses.get(i).cloned().ok_or_else(|| {
            Error::upstream(format!(
                "the recording {} has {} exchanges and the run asked for exchange {}",
                self.path.display(),
                self.responses.len(),
                i + 1
            ))
        })
    }
}
