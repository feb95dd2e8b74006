//! `goclaw schema [NAME]`: the JSON Schema of each document goclaw prints, generated from the
//! Rust types that print them (schemars), so a script can validate what it reads. The same
//! schemas are committed under `docs/schema/` (a test fails when they are stale).

use clap::Args;
use schemars::{JsonSchema, Schema, schema_for};

use super::{Context, Status};
use crate::error::{Error, Result};

// Flags of `goclaw schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The document: event, run, error, task, version, doctor (none: list them)
    pub name: Option<String>,
}

/// A line of an `--events` stream: a run's event, or a team run's own (whose stream relays its
/// runs' events beside its own).
#[derive(JsonSchema)]
#[schemars(untagged)]
#[allow(dead_code)] // a schema only: nothing builds one
enum EventLine {
    Run(crate::agent::events::Event),
    Team(crate::ops::team_run::TeamEvent),
}

/// Every document with a schema: its name, what prints it, and the schema.
pub fn documents() -> Vec<(&'static str, &'static str, Schema)> {
    fn of<T: JsonSchema>(
        name: &'static str,
        what: &'static str,
    ) -> (&'static str, &'static str, Schema) {
        (name, what, schema_for!(T))
    }
    vec![
        of::<EventLine>(
            "event",
            "a line of `goclaw run --events` or `goclaw team run --events`",
        ),
        of::<crate::agent::RunOutcome>("run", "`goclaw run` off a terminal"),
        of::<crate::error::ErrorDocument>("error", "the document of any failure in JSON mode"),
        of::<crate::team::board::Detail>("task", "`goclaw tasks get`"),
        of::<super::version::VersionDoc>("version", "`goclaw version`"),
        of::<crate::ops::doctor::Report>("doctor", "`goclaw doctor`"),
    ]
}

pub fn run(ctx: &Context, args: SchemaArgs) -> Result<Status> {
    let docs = documents();
    let Some(name) = args.name else {
        let list: Vec<serde_json::Value> = docs
            .iter()
            .map(|(name, what, _)| serde_json::json!({"name": name, "printed_by": what}))
            .collect();
        super::table::page(
            ctx,
            &crate::store::page::Page::whole(list),
            &["DOCUMENT", "PRINTED BY"],
            |d| {
                let text = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
                [text(&d["name"]), text(&d["printed_by"])]
            },
        )?;
        return Ok(Status::Ok);
    };
    let (_, _, schema) = docs
        .into_iter()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| {
            Error::not_found(format!("no schema `{name}`"))
                .with_hint("`goclaw schema` lists them: event, run, error, task, version, doctor")
        })?;
    // A schema is JSON whatever stdout is: there is no other form of it.
    let text = serde_json::to_string_pretty(&schema).map_err(|e| Error::internal(e.to_string()))?;
    ctx.out.raw(format!("{text}\n").as_bytes())?;
    Ok(Status::Ok)
}
