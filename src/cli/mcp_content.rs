//! `goclaw mcp resources|read|prompts|prompt`: what a server offers beyond its tools, asked
//! directly (like `mcp probe`, not through the gate: these are the operator's reads of a server
//! they registered). Lists print as pages; a resource's text and a prompt's messages as they
//! came, on a terminal with control and invisible characters shown as U+FFFD (a server's text
//! must not redraw the screen or write the clipboard); `--json` gives them untouched.

use serde_json::{Map, Value, json};

use super::{Context, table};
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::mcp::{self, client::Ask};
use crate::store::Store;
use crate::store::page::Page;
use crate::text::printable::printable;

/// Asks server `name`.
fn ask(store: &Store, settings: &Settings, name: &str, what: &Ask) -> Result<Value> {
    let config = &settings.config.mcp;
    let server = mcp::get(store.db(), config, name)?;
    let secrets = mcp::bridge::server_secrets(store.db(), config, &settings.store_dir(), &server)?;
    let pool = mcp::pool::Pool::new(settings.hidden_from_servers());
    pool.link(&server, secrets)?.ask(what)
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or("").to_string()
}

/// `mcp resources NAME`.
pub fn resources(ctx: &Context, store: &Store, settings: &Settings, name: &str) -> Result<()> {
    let doc = ask(store, settings, name, &Ask::Resources)?;
    let rows = doc["resources"].as_array().cloned().unwrap_or_default();
    table::page(ctx, &Page::whole(rows), &["URI", "NAME", "TYPE"], |r| {
        [text(&r["uri"]), text(&r["name"]), text(&r["mimeType"])]
    })
}

/// `mcp read NAME URI`: the text of a text resource on a terminal (a blob described), the
/// server's answer as JSON otherwise.
pub fn read(
    ctx: &Context,
    store: &Store,
    settings: &Settings,
    name: &str,
    uri: &str,
) -> Result<()> {
    let doc = ask(store, settings, name, &Ask::Read(uri.to_string()))?;
    ctx.out.data(&doc, |w| {
        for c in doc["contents"].as_array().into_iter().flatten() {
            match (c["text"].as_str(), c["blob"].as_str()) {
                (Some(t), _) => writeln!(w, "{}", printable(t.trim_end()))?,
                (None, Some(b)) => writeln!(
                    w,
                    "[{} of {} base64 characters: use --json to get it]",
                    c["mimeType"].as_str().unwrap_or("binary content"),
                    b.len()
                )?,
                _ => {}
            }
        }
        Ok(())
    })
}

/// `mcp prompts NAME`.
pub fn prompts(ctx: &Context, store: &Store, settings: &Settings, name: &str) -> Result<()> {
    let doc = ask(store, settings, name, &Ask::Prompts)?;
    let rows = doc["prompts"].as_array().cloned().unwrap_or_default();
    table::page(
        ctx,
        &Page::whole(rows),
        &["PROMPT", "ARGUMENTS", "DESCRIPTION"],
        |r| {
            let args: Vec<String> = r["arguments"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| {
                    let n = text(&a["name"]);
                    if a["required"] == true {
                        n
                    } else {
                        format!("[{n}]")
                    }
                })
                .collect();
            [text(&r["name"]), args.join(" "), text(&r["description"])]
        },
    )
}

/// `mcp prompt NAME PROMPT --arg K=V…`: the prompt's messages.
pub fn prompt(
    ctx: &Context,
    store: &Store,
    settings: &Settings,
    name: &str,
    prompt: &str,
    args: &[String],
) -> Result<()> {
    let mut map = Map::new();
    for a in args {
        let Some((k, v)) = a.split_once('=').filter(|(k, _)| !k.trim().is_empty()) else {
            return Err(Error::usage(format!("--arg {a}: expected K=V")));
        };
        map.insert(k.trim().to_string(), json!(v));
    }
    let doc = ask(store, settings, name, &Ask::Prompt(prompt.to_string(), map))?;
    ctx.out.data(&doc, |w| {
        for m in doc["messages"].as_array().into_iter().flatten() {
            let body = m["content"]["text"]
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| format!("[{} content]", text(&m["content"]["type"])));
            writeln!(w, "{}: {}", text(&m["role"]), printable(body.trim_end()))?;
        }
        Ok(())
    })
}
