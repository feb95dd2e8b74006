//! goclaw: the GoClaw agent platform as a Unix toolbox. The binary (`src/main.rs`) is a thin
//! face over this library. The house, top down (`.ci/layers` checks that imports only go down):
//!
//! - [`cli`]: one file per subcommand: flags in, [`ops`] or domain calls, rendering out. The only
//!   module that prints, and only through [`output`].
//! - [`output`]: the command-line contract: data on stdout (JSON or text), notes on stderr, the
//!   JSON error document, closed pipes.
//! - [`ops`]: the composition root: builds the toolbox and every gate, wires runs, runs the cron
//!   tick, from settings and the store.
//! - [`config`]: the TOML configuration, path resolution and precedence.
//! - [`agent`]: the agent loop (Think → Act → Observe), its typed events, run records and
//!   compaction.
//! - [`mcp`]: MCP servers (their tools bridged in, grants, requests) and `mcp serve`.
//! - [`tools`]: the gate (policy, rate limit, approvals, sandbox, scrubbing, audit) and every
//!   built-in tool.
//! - [`team`]: teams, the task board and its actions, the mailbox.
//! - [`cron`]: scheduled jobs in the store.
//! - [`sessions`]: conversations in the store and their messages.
//! - [`subagents`]: runs started by runs: reservations under limits, their lifecycle.
//! - [`skills`]: skills found on disk and in the store.
//! - [`knowledge`]: the knowledge graph, entities and relations in the store.
//! - [`memory`]: context files and memory documents in the store, and their embeddings.
//! - [`providers`]: LLM clients (OpenAI-compatible, Anthropic, replay).
//! - [`policy`]: the pure tool-policy pipeline: groups, profiles, the steps.
//! - [`store`]: the SQLite store every command shares, migrations and backups.
//! - [`secrets`]: the key that seals secrets in the store.
//! - [`text`]: pure text stages: scrub, guard, sanitize, Go regex translation.
//! - [`host`]: this machine: its interface addresses (for scrubbing server IPs), name, time zones.
//! - [`tempfiles`]: marked temporary files and the removal of stale ones.
//! - [`error`]: the one error type and the exit-code table.

pub mod agent;
pub mod cli;
pub mod config;
pub mod cron;
pub mod error;
pub mod host;
pub mod knowledge;
pub mod mcp;
pub mod memory;
pub mod ops;
pub mod output;
pub mod policy;
pub mod providers;
pub mod secrets;
pub mod sessions;
pub mod skills;
pub mod store;
pub mod subagents;
pub mod team;
pub mod tempfiles;
pub mod text;
pub mod tools;
