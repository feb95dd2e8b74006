//! goclaw: the GoClaw agent platform as a Unix toolbox.
//!
//! The binary (`src/main.rs`) is a thin face over this library. [`cli`] holds one file per
//! subcommand (clap definition + handler) and is the only module that prints, through
//! [`output`]. Domain modules know nothing of the terminal: [`text`] holds the pure text stages
//! (scrub, guard, sanitize), [`store`] the SQLite store every command shares, [`config`] the
//! TOML configuration and path resolution. [`error`] is the one error type and decides exit
//! codes.

pub mod agent;
pub mod cli;
pub mod config;
pub mod cron;
pub mod error;
pub mod host;
pub mod mcp;
pub mod memory;
pub mod ops;
pub mod output;
pub mod policy;
pub mod providers;
pub mod secrets;
pub mod skills;
pub mod store;
pub mod team;
pub mod tempfiles;
pub mod text;
pub mod tools;
