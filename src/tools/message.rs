//! `message` (seed 000 §2, group `messaging`) and the channels it delivers to: the command
//! line's form of GoClaw's chat channels. A channel is `[channels.NAME]` in config:
//!
//! - `kind = "stdout"`: one JSON line on goclaw's standard output (for a pipe or a log, e.g.
//!   `goclaw cron daemon >> messages.jsonl`; in `goclaw run` it comes before the run's own
//!   output, on the same stream);
//! - `kind = "file"`, `path`: one JSON line appended (relative to the config file's directory;
//!   created mode 0600);
//! - `kind = "webhook"`, `url`, `headers`, `topic`: the JSON record POSTed, through the web
//!   tools' SSRF guard (a private address needs `[tools.web] allow_private_hosts`), redirects
//!   not followed, any 2xx is delivered; the headers' values are scrubbed from what comes back;
//! - `kind = "command"`, `argv`: a program run without a shell, the text on its stdin, `{topic}`
//!   and `{channel}` in its arguments replaced (a topic may not start with `-`), with the exec
//!   tool's environment allowlist (plus the names in `env`), killed after `timeout_secs`.
//!
//! The record is `{"channel", "topic", "text", "agent", "session", "at"}` (`at` in Unix
//! milliseconds). The text and topic leave goclaw scrubbed: the gate scrubs an outbound tool's
//! arguments before it runs. GoClaw's `create_forum_topic` is the webhook's `topic` (a default
//! in config, or the call's own); `list_group_members` has no command-line form.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::error::{Error, Result};
use crate::store::Store;

/// The longest message text delivered.
pub const MAX_TEXT: usize = 64 * 1024;
/// The most bytes of a webhook's answer or a command's stderr kept for an error.
const ANSWER_CAP: usize = 4096;
/// The longest a delivery may take (`timeout_secs`).
pub const MAX_TIMEOUT_SECS: u64 = 3600;

/// `[channels.NAME]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelConfig {
    pub kind: ChannelKind,
    /// `file`: where the lines go.
    #[serde(default)]
    pub path: Option<PathBuf>,
    /// `webhook`: where the record is POSTed.
    #[serde(default)]
    pub url: Option<String>,
    /// `webhook`: headers sent with it (e.g. an authorization); their values never come back.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// `webhook`: the topic when a call gives none (GoClaw's forum topic).
    #[serde(default)]
    pub topic: Option<String>,
    /// `command`: the program and its arguments.
    #[serde(default)]
    pub argv: Vec<String>,
    /// `command`: variables passed on besides the exec allowlist.
    #[serde(default)]
    pub env: Vec<String>,
    /// `webhook` and `command`: seconds a delivery may take (default 10).
    #[serde(default)]
    pub timeout_secs: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChannelKind {
    Stdout,
    File,
    Webhook,
    Command,
}

/// `[channels]`, with the directory relative paths start from.
#[derive(Debug, Clone, Default)]
pub struct Channels {
    pub channels: BTreeMap<String, ChannelConfig>,
    pub base_dir: PathBuf,
}

impl Channels {
    /// Every channel's own settings checked (the kind's required keys, nothing foreign).
    pub fn validate(&self) -> Result<()> {
        for (name, c) in &self.channels {
            let bad = |why: &str| Err(Error::usage(format!("[channels.{name}]: {why}")));
            let webhook = c.kind == ChannelKind::Webhook;
            let command = c.kind == ChannelKind::Command;
            let foreign = [
                ("path", c.path.is_some() && c.kind != ChannelKind::File),
                ("url", c.url.is_some() && !webhook),
                ("headers", !c.headers.is_empty() && !webhook),
                ("topic", c.topic.is_some() && !webhook),
                ("argv", !c.argv.is_empty() && !command),
                ("env", !c.env.is_empty() && !command),
                (
                    "timeout_secs",
                    c.timeout_secs.is_some() && !webhook && !command,
                ),
            ];
            if let Some((key, _)) = foreign.iter().find(|(_, set)| *set) {
                return bad(&format!(
                    "`{key}` is not a setting of a {} channel",
                    c.kind.name()
                ));
            }
            let missing = match c.kind {
                ChannelKind::File => c.path.as_ref().is_none_or(|p| p.as_os_str().is_empty()),
                ChannelKind::Webhook => c.url.is_none(),
                ChannelKind::Command => c.argv.first().is_none_or(|p| p.trim().is_empty()),
                ChannelKind::Stdout => false,
            };
            if missing {
                let needs = match c.kind {
                    ChannelKind::File => "path",
                    ChannelKind::Webhook => "url",
                    _ => "argv (a program first)",
                };
                return bad(&format!("a {} channel needs `{needs}`", c.kind.name()));
            }
            if c.timeout_secs
                .is_some_and(|t| t == 0 || t > MAX_TIMEOUT_SECS)
            {
                return bad(&format!("timeout_secs is 1 to {MAX_TIMEOUT_SECS}"));
            }
            if let Some(url) = &c.url {
                let u = reqwest::Url::parse(url)
                    .map_err(|_| Error::usage(format!("[channels.{name}] url is not a URL")))?;
                if u.scheme() != "http" && u.scheme() != "https" {
                    return bad("url must be http or https");
                }
            }
        }
        Ok(())
    }
}

impl ChannelKind {
    pub fn name(self) -> &'static str {
        match self {
            ChannelKind::Stdout => "stdout",
            ChannelKind::File => "file",
            ChannelKind::Webhook => "webhook",
            ChannelKind::Command => "command",
        }
    }
}

/// A webhook's URL as it may be shown ([`crate::text::url::shown`]: the token a webhook's path
/// or query carries taken out).
pub fn shown_url(url: &str) -> String {
    crate::text::url::shown(url).unwrap_or_else(|| "(not a URL)".into())
}

/// One message as a channel gets it.
#[derive(Debug, Clone, Serialize)]
pub struct Record<'a> {
    pub channel: &'a str,
    pub topic: Option<&'a str>,
    pub text: &'a str,
    pub agent: Option<&'a str>,
    pub session: Option<&'a str>,
    pub at: i64,
}

/// Delivers `record` to the channel it names; `Ok` says where it went.
pub fn deliver(
    channels: &Channels,
    record: &Record<'_>,
    web: &super::web::WebConfig,
) -> Result<String> {
    let name = record.channel;
    let Some(c) = channels.channels.get(name) else {
        let known: Vec<&str> = channels.channels.keys().map(String::as_str).collect();
        return Err(Error::not_found(format!(
            "unknown channel `{name}` (configured: {})",
            if known.is_empty() {
                "none; add [channels.NAME] to config".to_string()
            } else {
                known.join(", ")
            }
        )));
    };
    if record.text.len() > MAX_TEXT {
        return Err(Error::usage(format!(
            "the message is {} bytes; a channel takes at most {MAX_TEXT}",
            record.text.len()
        )));
    }
    let timeout = Duration::from_secs(c.timeout_secs.unwrap_or(10).clamp(1, MAX_TIMEOUT_SECS));
    let line = format!("{}\n", serde_json::to_string(record).unwrap_or_default());
    match c.kind {
        ChannelKind::Stdout => {
            let mut out = std::io::stdout().lock();
            out.write_all(line.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| Error::failed(format!("channel {name}: standard output: {e}")))?;
            Ok("standard output".into())
        }
        ChannelKind::File => {
            let path = channels
                .base_dir
                .join(c.path.as_deref().unwrap_or(Path::new("")));
            append(&path, &line).map_err(|e| {
                Error::failed(format!(
                    "channel {name}: cannot append to {}: {e}",
                    path.display()
                ))
            })?;
            Ok(format!("file {}", path.display()))
        }
        ChannelKind::Webhook => {
            let url = c.url.clone().unwrap_or_default();
            post(web, &url, &c.headers, &line, timeout).map_err(|e| match e {
                Refused(why) => Error::denied(format!("channel {name}: {why}")),
                Failed(why) => Error::upstream(format!("channel {name}: {why}")),
            })?;
            Ok(format!("webhook {}", shown_url(&url)))
        }
        ChannelKind::Command => {
            run_command(c, record, timeout)
                .map_err(|e| Error::failed(format!("channel {name}: {e}")))?;
            Ok(format!(
                "command {}",
                c.argv.first().cloned().unwrap_or_default()
            ))
        }
    }
}

/// One line appended in one write (whole lines, even with other writers), the file private.
fn append(path: &Path, line: &str) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    // Not blocking on a FIFO with no reader; only a regular file takes messages.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(path)?;
    if !f.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    f.write_all(line.as_bytes())
}

/// Why a webhook delivery did not happen: the guard refused it, or the server failed it.
enum PostError {
    Refused(String),
    Failed(String),
}
use PostError::{Failed, Refused};

fn post(
    web: &super::web::WebConfig,
    url: &str,
    headers: &BTreeMap<String, String>,
    body: &str,
    timeout: Duration,
) -> std::result::Result<(), PostError> {
    let parsed = reqwest::Url::parse(url)
        .map_err(|e| Failed(format!("the channel's url is not a valid URL: {e}")))?;
    super::web::fetch::check_url(&parsed, web, false).map_err(Refused)?;
    let sent = super::web::block_on(async {
        let client = super::web::client(web, timeout, parsed.scheme() == "https")?;
        let mut request = client
            .post(parsed.clone())
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_string());
        for (k, v) in headers {
            request = request.header(k.as_str(), v.as_str());
        }
        let response = match request.send().await {
            Ok(r) => r,
            Err(e) => {
                return Ok(Err(match super::web::refusal(&e) {
                    Some(why) => Refused(why),
                    // reqwest names the whole URL in its error: taken out.
                    None => Failed(format!(
                        "{}: {}",
                        shown_url(url),
                        crate::error::with_causes(&e.without_url())
                    )),
                }));
            }
        };
        let status = response.status();
        if status.is_success() {
            return Ok(Ok(()));
        }
        // At most a little more than what is kept, so a header value across the cut is
        // still whole when it is taken out.
        let keep = ANSWER_CAP + headers.values().map(String::len).max().unwrap_or(0) + url.len();
        let mut body = Vec::new();
        let mut response = response;
        while let Ok(Some(chunk)) = response.chunk().await {
            body.extend_from_slice(&chunk);
            if body.len() >= keep {
                break;
            }
        }
        // A server may echo the request: the URL's hidden parts go as the headers' values do.
        let url_parts = crate::text::url::hidden_parts(url);
        let values: Vec<&str> = url_parts
            .iter()
            .chain(headers.values())
            .map(String::as_str)
            .collect();
        let answer =
            crate::text::redact_then_cut(&String::from_utf8_lossy(&body), &values, ANSWER_CAP);
        Ok(Err(if status.is_redirection() {
            Refused(format!(
                "{} answered HTTP {}, a redirect: not followed",
                shown_url(url),
                status.as_u16()
            ))
        } else {
            Failed(format!(
                "{} answered HTTP {}: {answer}",
                shown_url(url),
                status.as_u16()
            ))
        }))
    });
    sent.map_err(Failed)?
}

/// The channel's program, the text on its stdin.
fn run_command(
    c: &ChannelConfig,
    record: &Record<'_>,
    timeout: Duration,
) -> std::result::Result<(), String> {
    let topic = record.topic.unwrap_or("");
    if topic.starts_with('-') {
        return Err("a topic may not start with - (it would be an option)".into());
    }
    let argv: Vec<String> = c
        .argv
        .iter()
        // The channel first: a topic that says `{channel}` stays as it is.
        .map(|a| {
            a.replace("{channel}", record.channel)
                .replace("{topic}", topic)
        })
        .collect();
    let mut cmd = std::process::Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .env_clear()
        .envs(super::exec::sandbox::child_env(&c.env))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", argv[0]))?;
    if let Some(mut stdin) = child.stdin.take() {
        let text = record.text.as_bytes().to_vec();
        // A program that does not read its input must not hold the delivery.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&text);
        });
    }
    let mut stderr = child.stderr.take();
    let (said_tx, said_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut said = Vec::new();
        if let Some(s) = stderr.as_mut() {
            let _ = s.take(ANSWER_CAP as u64).read_to_end(&mut said);
        }
        let _ = said_tx.send(said);
    });
    let deadline = Instant::now()
        .checked_add(timeout)
        .unwrap_or_else(Instant::now);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            Ok(None) | Err(_) => {
                let pgid = nix::unistd::Pid::from_raw(child.id() as i32);
                let _ = nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGKILL);
                let _ = child.wait();
                return Err(format!(
                    "{} took longer than {} s: killed",
                    argv[0],
                    timeout.as_secs()
                ));
            }
        }
    };
    // What it left running in the background may hold stderr open: the group goes at the
    // deadline, and what it said so far is enough.
    let wait = deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(100));
    let said = match said_rx.recv_timeout(wait) {
        Ok(said) => said,
        Err(_) => {
            let pgid = nix::unistd::Pid::from_raw(child.id() as i32);
            let _ = nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGKILL);
            said_rx
                .recv_timeout(Duration::from_millis(200))
                .unwrap_or_default()
        }
    };
    let said = String::from_utf8_lossy(&said).trim().to_string();
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} failed ({status}){}",
            argv[0],
            if said.is_empty() {
                String::new()
            } else {
                format!(": {said}")
            }
        ))
    }
}

/// `message`.
pub struct MessageTool;

impl Tool for MessageTool {
    fn name(&self) -> &str {
        "message"
    }
    fn description(&self) -> &str {
        "Send a message to a configured channel (a file, a webhook, a command such as notify-send or mail, or goclaw's output). Give the channel's name, the text, and optionally a topic."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "channel":{"type":"string","description":"a channel of the configuration ([channels])"},
            "text":{"type":"string","description":"the message"},
            "topic":{"type":"string","description":"a topic or thread (optional; a webhook channel may have a default)"}},
            "required":["channel","text"]})
    }
    fn risk(&self) -> Risk {
        Risk::Medium
    }
    fn outbound(&self) -> bool {
        true
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        let channel = super::trimmed_arg(args, "channel");
        let text = args.get("text").and_then(Value::as_str).unwrap_or_default();
        if channel.is_empty() || text.trim().is_empty() {
            return ToolResult::bad_args("channel and text are required");
        }
        let topic = super::given_arg(args, "topic")
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .or_else(|| {
                ctx.channels
                    .channels
                    .get(channel)
                    .and_then(|c| c.topic.as_deref())
            });
        let record = Record {
            channel,
            topic,
            text,
            agent: ctx.agent.as_deref(),
            session: ctx.session_key.as_deref(),
            at: crate::store::now_ms(),
        };
        match deliver(&ctx.channels, &record, &ctx.web) {
            Ok(to) => {
                let mut r = ToolResult::text(format!("Message sent to channel {channel} ({to})."));
                r.secrets.extend(
                    ctx.channels
                        .channels
                        .get(channel)
                        .into_iter()
                        .flat_map(|c| c.headers.values().map(|v| v.clone().into_bytes())),
                );
                r
            }
            Err(e) => ToolResult::from_error(&e),
        }
    }
}
