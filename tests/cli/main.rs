#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The one integration-test binary: it drives the real `goclaw` binary with `assert_cmd`, each
//! test in its own temporary home. One module per area.

mod agents;
mod assist;
mod automation;
mod config;
mod contract;
mod contract_errors;
mod credentialed;
mod custom_tools;
mod docs;
mod doctor;
mod guard;
mod knowledge;
mod mcp;
mod mcp_serve;
mod message;
mod pgvector;
mod postgres;
mod providers;
mod readme;
mod run;
mod sanitize;
mod scrub;
mod scrub_go;
mod shapes;
mod skills;
mod store;
mod subagents;
mod team_run;
mod teams;
mod tls;
mod tools;
mod trust;
mod util;
mod web;
