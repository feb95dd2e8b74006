//! A run's events: the typed vocabulary of `goclaw run --events` (JSON Lines, version
//! [`EVENT_VERSION`]), the [`Sink`] a front end receives them in, and the [`Emitter`] that
//! scrubs every event before it leaves the loop. Streamed text (`chunk`, `thinking`) goes through
//! a scrubbing stream per kind, so a secret split across fragments is still caught.
//!
//! The wire form is `{"v":1,"type":"…",…fields,"run_id":"…","ts":MS}`. Field names are the
//! original's (seed 002) in snake_case, like every key goclaw prints (its `maxAttempts` of
//! `run.retrying` is `max_attempts`).

use serde::Serialize;
use serde_json::Value;

use super::RunUsage;
use super::record::RunStatus;
use crate::store::now_ms;
use crate::text::scrub::{ScrubStream, Scrubber};

/// The version of the event format (`v` in every event).
pub const EVENT_VERSION: u32 = 1;

/// One event of a run.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Event {
    /// The format's version (1).
    pub v: u32,
    #[serde(flatten)]
    pub kind: EventKind,
    pub run_id: String,
    /// The run that started this one (a subagent's events, relayed into its parent's stream).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_run_id: Option<String>,
    /// The team task the run works on (`goclaw run --task`, a team run's member).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// Unix milliseconds.
    pub ts: i64,
}

/// What happened.
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(tag = "type")]
pub enum EventKind {
    /// The run began (the message as given).
    #[serde(rename = "run.started")]
    RunStarted {
        message: String,
        agent: String,
        session: Option<String>,
    },
    /// What the loop is doing now.
    #[serde(rename = "activity")]
    Activity {
        phase: Phase,
        #[serde(skip_serializing_if = "Option::is_none")]
        iteration: Option<u32>,
    },
    /// A fragment of the answer as the model writes it.
    #[serde(rename = "chunk")]
    Chunk { content: String },
    /// A fragment of the model's reasoning.
    #[serde(rename = "thinking")]
    Thinking { content: String },
    /// Text the model wrote beside tool calls.
    #[serde(rename = "block.reply")]
    BlockReply { content: String },
    #[serde(rename = "tool.call")]
    ToolCall {
        name: String,
        id: String,
        arguments: Value,
    },
    #[serde(rename = "tool.result")]
    ToolResult {
        name: String,
        id: String,
        is_error: bool,
        result: String,
    },
    /// The provider failed and is tried again.
    #[serde(rename = "run.retrying")]
    RunRetrying {
        attempt: u32,
        max_attempts: u32,
        error: String,
        wait_ms: u64,
    },
    /// A quality gate checked the answer: `gate` is the command, or `agent:KEY` for a reviewer;
    /// `attempt` counts this gate's checks in the run (1 for the first); `feedback` is what
    /// goes back to the agent (or why the gate could not check), absent when it passed.
    #[serde(rename = "gate.checked")]
    GateChecked {
        gate: String,
        attempt: u32,
        passed: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        feedback: Option<String>,
    },
    #[serde(rename = "run.completed")]
    RunCompleted {
        content: String,
        silent: bool,
        iterations: u32,
        usage: RunUsage,
    },
    #[serde(rename = "run.cancelled")]
    RunCancelled { iterations: u32, usage: RunUsage },
    #[serde(rename = "run.failed")]
    RunFailed {
        status: RunStatus,
        error: Option<String>,
        iterations: u32,
        usage: RunUsage,
    },
}

/// The loop's phases (`activity` events).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Thinking,
    ToolExec,
    Compacting,
}

impl EventKind {
    /// Every text the event carries, scrubbed like a tool result.
    fn scrub(&mut self, s: &Scrubber) {
        let text = |t: &mut String| *t = s.scrub_str(t, None);
        match self {
            EventKind::RunStarted {
                message,
                agent,
                session,
                ..
            } => {
                text(message);
                text(agent);
                session.iter_mut().for_each(text);
            }
            EventKind::Activity { .. } | EventKind::RunCancelled { .. } => {}
            EventKind::Chunk { content }
            | EventKind::Thinking { content }
            | EventKind::BlockReply { content }
            | EventKind::RunCompleted { content, .. } => text(content),
            EventKind::ToolCall {
                name,
                id,
                arguments,
            } => {
                text(name);
                text(id);
                s.scrub_json(arguments);
            }
            EventKind::ToolResult {
                name, id, result, ..
            } => {
                text(name);
                text(id);
                text(result);
            }
            EventKind::RunRetrying { error, .. } => text(error),
            EventKind::GateChecked { gate, feedback, .. } => {
                text(gate);
                feedback.iter_mut().for_each(text);
            }
            EventKind::RunFailed { error, .. } => error.iter_mut().for_each(text),
        }
    }
}

/// Where events go.
pub trait Sink: Send {
    fn event(&mut self, event: &Event);
}

/// Which text stream a fragment belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stream {
    Chunk,
    Thinking,
}

/// Scrubs events and sends them to the sink.
pub(super) struct Emitter<'s> {
    sink: &'s mut dyn Sink,
    run_id: String,
    parent_run_id: Option<String>,
    task_id: Option<String>,
    scrubber: &'s Scrubber,
    streams: Vec<(Stream, ScrubStream<'s>)>,
}

impl<'s> Emitter<'s> {
    /// The run the events are of.
    pub(super) fn run_id(&self) -> &str {
        &self.run_id
    }

    pub(super) fn new(
        sink: &'s mut dyn Sink,
        (run_id, parent_run_id): (String, Option<String>),
        scrubber: &'s Scrubber,
    ) -> Emitter<'s> {
        Emitter {
            sink,
            run_id,
            parent_run_id,
            task_id: None,
            scrubber,
            streams: Vec::new(),
        }
    }

    /// Every event from now on names the team task the run works on.
    pub(super) fn set_task(&mut self, task_id: &str) {
        self.task_id = Some(task_id.to_string());
    }

    /// Sends an event, scrubbed, after whatever the text streams still hold.
    pub(super) fn emit(&mut self, mut kind: EventKind) {
        self.flush_streams();
        kind.scrub(self.scrubber);
        self.send(kind);
    }

    fn send(&mut self, kind: EventKind) {
        let event = Event {
            v: EVENT_VERSION,
            kind,
            run_id: self.run_id.clone(),
            parent_run_id: self.parent_run_id.clone(),
            task_id: self.task_id.clone(),
            ts: now_ms(),
        };
        self.sink.event(&event);
    }

    /// Streamed text: sent as soon as no credential pattern can still extend across its end.
    pub(super) fn text(&mut self, stream: Stream, fragment: &str) {
        let scrubber = self.scrubber;
        let at = match self.streams.iter().position(|(k, _)| *k == stream) {
            Some(i) => i,
            None => {
                self.streams
                    .push((stream, scrubber.stream(false).with_chunk_size(1)));
                self.streams.len() - 1
            }
        };
        let mut out = Vec::new();
        self.streams[at].1.push(fragment.as_bytes(), &mut out);
        if !out.is_empty() {
            self.send(stream.event(String::from_utf8_lossy(&out).into_owned()));
        }
    }

    /// Sends what the text streams hold back (the end of an answer).
    fn flush_streams(&mut self) {
        for (stream, mut scrub) in std::mem::take(&mut self.streams) {
            let mut out = Vec::new();
            scrub.finish(&mut out);
            if !out.is_empty() {
                self.send(stream.event(String::from_utf8_lossy(&out).into_owned()));
            }
        }
    }
}

impl Stream {
    fn event(self, content: String) -> EventKind {
        match self {
            Stream::Chunk => EventKind::Chunk { content },
            Stream::Thinking => EventKind::Thinking { content },
        }
    }
}
