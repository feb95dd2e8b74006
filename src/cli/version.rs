//! `goclaw version` (and `goclaw --version --json`): what this binary is, for bug reports and
//! scripts. `--version` alone prints the one line `goclaw X.Y.Z` whatever stdout is, as every
//! tool does; `goclaw version` follows the output contract (JSON off a terminal or with
//! `--json`).

use clap::Args;
use serde::Serialize;

use super::{Context, Status};
use crate::error::Result;

// Flags of `goclaw version` (the global ones only).
#[derive(Debug, Args)]
pub struct VersionArgs {}

/// What `goclaw version` prints.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct VersionDoc {
    pub version: &'static str,
    /// The git commit built from, or "unknown".
    pub commit: &'static str,
    /// The store schema version this binary writes (`goclaw db migrate` brings a store to it).
    pub schema_version: i64,
    /// The SQLite compiled in.
    pub sqlite_version: &'static str,
    /// `ARCH-OS`, e.g. `x86_64-linux`.
    pub target: String,
    /// What is compiled in: stores, TLS, sandbox layers, MCP roles.
    pub features: Vec<&'static str>,
}

impl VersionDoc {
    pub fn current() -> VersionDoc {
        VersionDoc {
            version: env!("CARGO_PKG_VERSION"),
            commit: env!("GOCLAW_COMMIT"),
            schema_version: crate::store::latest_version(),
            sqlite_version: crate::store::sqlite_version(),
            target: format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS),
            // What this build can do (one build has all of it: there are no cargo features).
            features: vec![
                "store-sqlite",
                "store-postgres",
                "tls-rustls",
                "sandbox-landlock",
                "sandbox-bwrap",
                "sandbox-docker",
                "mcp-client",
                "mcp-server",
            ],
        }
    }
}

pub fn run(ctx: &Context, _args: VersionArgs) -> Result<Status> {
    let doc = VersionDoc::current();
    ctx.out.data(&doc, |w| {
        writeln!(w, "goclaw {} ({})", doc.version, doc.commit)?;
        writeln!(w, "store schema version {}", doc.schema_version)?;
        writeln!(w, "SQLite {}", doc.sqlite_version)?;
        writeln!(w, "target {}", doc.target)?;
        writeln!(w, "features {}", doc.features.join(" "))
    })?;
    Ok(Status::Ok)
}

/// The JSON `goclaw --version --json` prints, with its newline.
pub fn json_line() -> String {
    let mut line = serde_json::to_string(&VersionDoc::current()).unwrap_or_default();
    line.push('\n');
    line
}
