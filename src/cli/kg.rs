//! `goclaw kg`: the knowledge graph of an agent (`--agent`, none by default) and user (`--user`;
//! none: the global graph): add entities, relate them, search (the `knowledge_graph_search`
//! tool through the gate), show one with its relations, export it all as JSON Lines or DOT.

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Map, Value, json};

use super::shared::CallerArgs;
use super::{Context, Status};
use crate::error::{Error, Result};
use crate::knowledge::{self, Scope};

// The knowledge graph: entities and relations, search, export
#[derive(Debug, Args)]
pub struct KgArgs {
    #[command(subcommand)]
    pub command: KgCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum KgCommand {
    /// Add an entity, or update the one of that name (its properties are merged)
    #[command(after_help = "Examples:\n  \
        goclaw kg add 'Ada Lovelace' --type person --prop born=1815\n  \
        goclaw kg add goclaw --type project --prop lang=rust")]
    Add {
        /// The entity's name
        name: String,
        /// What it is: person, project, service…
        #[arg(long = "type")]
        kind: Option<String>,
        /// KEY=VALUE (repeatable; a JSON value is taken as JSON, `KEY=` removes the key)
        #[arg(long = "prop")]
        props: Vec<String>,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// Relate two entities: SRC REL DST (both must exist)
    #[command(after_help = "Example:\n  goclaw kg relate 'Ada Lovelace' works_on goclaw")]
    Relate {
        /// The entity the relation starts from
        src: String,
        /// The relation's name, e.g. works_on
        rel: String,
        /// The entity it points to
        dst: String,
        /// KEY=VALUE (repeatable)
        #[arg(long = "prop")]
        props: Vec<String>,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// Entities matching words, with their relations (the knowledge_graph_search tool)
    Search {
        /// Words to look for (any of them; the best matches first)
        query: String,
        /// How far to follow relations (0 to 2)
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=2))]
        depth: u32,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// One entity and its relations
    Show {
        /// The entity's name
        name: String,
        /// How far to follow relations (1 to 2)
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=2))]
        depth: u32,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// Remove an entity and its relations
    Rm {
        /// The entity's name
        name: String,
        #[command(flatten)]
        caller: CallerArgs,
    },
    /// The whole graph: JSON Lines (entities, then relations) or Graphviz DOT
    Export {
        /// The output: JSON Lines or Graphviz DOT
        #[arg(long, value_enum, default_value_t = Format::Jsonl)]
        format: Format,
        #[command(flatten)]
        caller: CallerArgs,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Jsonl,
    Dot,
}

fn scope(caller: &CallerArgs) -> Scope<'_> {
    Scope {
        agent: caller.agent.as_deref().unwrap_or(""),
        user: caller.user.as_deref().unwrap_or(""),
    }
}

/// `KEY=VALUE` pairs as JSON: a value that parses as JSON is that, else a string; `KEY=` is
/// null (removed by `add`).
fn props(items: &[String]) -> Result<Map<String, Value>> {
    let mut out = Map::new();
    for item in items {
        let Some((k, v)) = item.split_once('=').filter(|(k, _)| !k.trim().is_empty()) else {
            return Err(Error::usage(format!("--prop `{item}`: expected KEY=VALUE")));
        };
        let value = if v.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_string()))
        };
        out.insert(k.trim().to_string(), value);
    }
    Ok(out)
}

pub fn run(ctx: &Context, args: KgArgs) -> Result<Status> {
    match args.command {
        KgCommand::Search {
            query,
            depth,
            caller,
        } => super::tool_call::exec_call(
            ctx,
            "knowledge_graph_search",
            &json!({"query": query, "depth": depth}),
            caller,
        ),
        KgCommand::Add {
            name,
            kind,
            props: items,
            caller,
        } => {
            let store = ctx.any_store()?;
            let e = knowledge::upsert(
                store.db(),
                scope(&caller),
                &name,
                kind.as_deref(),
                &props(&items)?,
            )?;
            ctx.out.data(&e, |w| {
                writeln!(
                    w,
                    "{} ({})",
                    e.name,
                    if e.kind.is_empty() { "-" } else { &e.kind }
                )
            })?;
            Ok(Status::Ok)
        }
        KgCommand::Relate {
            src,
            rel,
            dst,
            props: items,
            caller,
        } => {
            let store = ctx.any_store()?;
            let r = knowledge::relate(
                store.db(),
                scope(&caller),
                &src,
                &rel,
                &dst,
                &props(&items)?,
            )?;
            ctx.out
                .data(&r, |w| writeln!(w, "{} -{}-> {}", r.src, r.rel, r.dst))?;
            Ok(Status::Ok)
        }
        KgCommand::Show {
            name,
            depth,
            caller,
        } => {
            let store = ctx.any_store()?;
            let found = knowledge::show(store.db(), scope(&caller), &name, depth)?;
            ctx.out.data(&found, |w| {
                for e in &found.entities {
                    writeln!(
                        w,
                        "{} ({}) {}",
                        e.name,
                        e.kind,
                        Value::Object(e.props.clone())
                    )?;
                }
                for r in &found.relations {
                    writeln!(w, "  {} -{}-> {}", r.src, r.rel, r.dst)?;
                }
                Ok(())
            })?;
            Ok(Status::Ok)
        }
        KgCommand::Rm { name, caller } => remove(ctx, &name, &caller),
        KgCommand::Export { format, caller } => export(ctx, format, &caller),
    }
}

/// `kg export`: JSON Lines (entities, then relations, each with its `kind`) or DOT.
fn export(ctx: &Context, format: Format, caller: &CallerArgs) -> Result<Status> {
    let store = ctx.any_store()?;
    let found = knowledge::all(store.db(), scope(caller))?;
    let text = match format {
        Format::Dot => knowledge::to_dot(&found),
        Format::Jsonl => {
            let mut text = String::new();
            for e in &found.entities {
                let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
                v["kind"] = "entity".into();
                text.push_str(&format!("{v}\n"));
            }
            for r in &found.relations {
                let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
                v["kind"] = "relation".into();
                text.push_str(&format!("{v}\n"));
            }
            text
        }
    };
    ctx.out.raw(text.as_bytes())?;
    Ok(Status::Ok)
}

/// `kg rm`.
fn remove(ctx: &Context, name: &str, caller: &CallerArgs) -> Result<Status> {
    let store = ctx.any_store()?;
    if !knowledge::remove(store.db(), scope(caller), name)? {
        return Err(Error::not_found(format!(
            "no entity named `{name}` in this graph"
        )));
    }
    ctx.out
        .data(&json!({"removed": name}), |w| writeln!(w, "removed {name}"))?;
    Ok(Status::Ok)
}
