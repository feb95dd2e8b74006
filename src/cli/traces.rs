//! `goclaw traces`: every run's trace: the root agent span, one LLM span per call (provider,
//! model, tokens, duration, cost) and one tool span per call. A tree on a terminal, JSON
//! otherwise.

use std::io::Write;

use clap::{Args, Subcommand};
use serde_json::Value;

use super::shared::PageArgs;
use super::{Context, Status, table};
use crate::agent::record;
use crate::error::{Error, Result};

// Traces of runs: LLM and tool spans, tokens, cost
#[derive(Debug, Args)]
pub struct TracesArgs {
    #[command(subcommand)]
    pub command: TracesCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum TracesCommand {
    /// Recent runs, newest first
    List {
        /// Only the runs of this session
        #[arg(long, value_parser = super::shared::non_empty())]
        session: Option<String>,
        #[command(flatten)]
        page: PageArgs,
    },
    /// One run's trace
    Show {
        /// The run's id
        run: String,
    },
}

pub fn run(ctx: &Context, args: TracesArgs) -> Result<Status> {
    let store = ctx.any_store()?;
    let conn = store.db();
    record::reap_abandoned(conn)?;
    match args.command {
        TracesCommand::List { session, page } => {
            let runs = record::runs(conn, session.as_deref(), &page.request())?;
            let text = |v: &Value| v.as_str().unwrap_or("").to_string();
            table::page(
                ctx,
                &runs,
                &["RUN", "STATUS", "AGENT", "ITERATIONS", "TOKENS", "COST"],
                |r| {
                    [
                        text(&r["run_id"]),
                        text(&r["status"]),
                        text(&r["agent"]),
                        r["iterations"].to_string(),
                        (r["usage"]["input_tokens"].as_i64().unwrap_or(0)
                            + r["usage"]["output_tokens"].as_i64().unwrap_or(0))
                        .to_string(),
                        format!("${:.4}", r["usage"]["cost"].as_f64().unwrap_or(0.0)),
                    ]
                },
            )?;
        }
        TracesCommand::Show { run } => {
            let trace = record::trace(conn, &run)?.ok_or_else(|| {
                Error::not_found(format!("no run `{run}`"))
                    .with_hint("`goclaw traces list` shows recent runs")
            })?;
            ctx.out.data(&trace, |w| tree(w, &trace))?;
        }
    }
    Ok(Status::Ok)
}

fn tree(w: &mut dyn Write, trace: &Value) -> std::io::Result<()> {
    let spans = trace["spans"].as_array().cloned().unwrap_or_default();
    let line = |s: &Value| {
        let mut text = format!(
            "{} {} [{}] {} ms",
            s["kind"].as_str().unwrap_or(""),
            s["name"].as_str().unwrap_or(""),
            s["status"].as_str().unwrap_or(""),
            s["duration_ms"]
        );
        if let Some(i) = s["input_tokens"].as_i64() {
            text.push_str(&format!(
                ", {i} in / {} out tokens",
                s["output_tokens"].as_i64().unwrap_or(0)
            ));
        }
        if let Some(c) = s["cost"].as_f64().filter(|c| *c > 0.0) {
            text.push_str(&format!(", ${c:.6}"));
        }
        if let Some(e) = s["error"].as_str() {
            text.push_str(&format!(" — {e}"));
        }
        text
    };
    for root in spans.iter().filter(|s| s["parent_id"].is_null()) {
        writeln!(w, "{}", line(root))?;
        let children: Vec<&Value> = spans
            .iter()
            .filter(|s| s["parent_id"] == root["id"])
            .collect();
        for (i, s) in children.iter().enumerate() {
            let branch = if i + 1 == children.len() {
                "└─"
            } else {
                "├─"
            };
            writeln!(w, "{branch} {}", line(s))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_trace_reads_as_a_tree() {
        let trace = json!({"spans": [
            {"id": 1, "parent_id": 4, "kind": "llm", "name": "openai/gpt-4o", "status": "ok", "duration_ms": 40,
             "input_tokens": 120, "output_tokens": 8, "cost": 0.0012, "error": null},
            {"id": 2, "parent_id": 4, "kind": "tool", "name": "read_file", "status": "error", "duration_ms": 1,
             "input_tokens": null, "output_tokens": null, "cost": null, "error": "no such file"},
            {"id": 3, "parent_id": 4, "kind": "llm", "name": "openai/gpt-4o", "status": "ok", "duration_ms": 35,
             "input_tokens": 150, "output_tokens": 20, "cost": 0.0, "error": null},
            {"id": 4, "parent_id": null, "kind": "agent", "name": "default", "status": "completed", "duration_ms": 80,
             "input_tokens": 270, "output_tokens": 28, "cost": 0.0012, "error": null},
        ]});
        let mut out = Vec::new();
        tree(&mut out, &trace).unwrap_or_default();
        assert_eq!(
            String::from_utf8_lossy(&out),
            "agent default [completed] 80 ms, 270 in / 28 out tokens, $0.001200\n\
             ├─ llm openai/gpt-4o [ok] 40 ms, 120 in / 8 out tokens, $0.001200\n\
             ├─ tool read_file [error] 1 ms — no such file\n\
             └─ llm openai/gpt-4o [ok] 35 ms, 150 in / 20 out tokens\n"
        );
    }
}
