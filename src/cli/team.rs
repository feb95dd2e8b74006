//! `goclaw team`: teams, their members and settings, and the mailbox.

use super::shared::{acting, check_agents, parse_duration, resolve_team};

use clap::{Args, Subcommand};
use serde_json::Value;

use super::input::Input;
use super::{Context, Status, table};
use crate::error::{Error, Result};
use crate::store::page::Page;
use crate::team::{self, mailbox};
use crate::text::printable::{one_line, printable};

// Teams: create and manage them, and send messages between their agents.
#[derive(Debug, Args)]
pub struct TeamArgs {
    #[command(subcommand)]
    pub command: TeamCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum TeamCommand {
    /// Create a team of agents (keys of [agents.KEY] in config)
    Create {
        /// The team's name
        name: String,
        /// The lead: creates and assigns the tasks (and reviews them when the team has no reviewer)
        #[arg(long, value_parser = super::shared::non_empty())]
        lead: String,
        /// A member: works on the tasks (repeatable)
        #[arg(long = "member", value_parser = super::shared::non_empty())]
        members: Vec<String>,
        /// A reviewer: reviews the answers on tasks when require_review is on (repeatable)
        #[arg(long = "reviewer", value_parser = super::shared::non_empty())]
        reviewers: Vec<String>,
        /// Settings as JSON, @FILE or -
        #[arg(long)]
        settings: Option<String>,
    },
    /// List teams
    List,
    /// A team with its members and effective settings
    Show {
        /// The team's name
        name: String,
    },
    /// Archive a team (its board stays readable)
    Archive {
        /// The team's name
        name: String,
    },
    /// Add or remove members
    Members {
        #[command(subcommand)]
        command: MembersCommand,
    },
    /// Read or change settings
    Settings {
        #[command(subcommand)]
        command: SettingsCommand,
    },
    /// The mailbox: send, broadcast, read, wait
    Message(MessageArgs),
    /// Run a team on a message: the lead posts tasks, members work on them in parallel, the lead
    /// answers
    Run(super::team_run::TeamRunArgs),
    /// Work on a team's tasks as one member, on this machine: claim the next task, run it, repeat
    Work(super::team_run::TeamWorkArgs),
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum MembersCommand {
    /// Add an agent (or change its role)
    Add {
        /// The team's name
        team: String,
        /// The agent: a key of [agents] in config
        agent: String,
        /// The role: member (works on tasks) or reviewer (reviews answers under require_review)
        #[arg(long, default_value = "member", value_parser = ["member", "reviewer"])]
        role: String,
    },
    /// Remove an agent
    Rm {
        /// The team's name
        team: String,
        /// The member to remove
        agent: String,
    },
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum SettingsCommand {
    /// Print the effective settings, or one (dotted key)
    Get {
        /// The team's name
        team: String,
        /// One setting, by dotted key (default: every setting)
        key: Option<String>,
    },
    /// Set one setting: KEY (dotted for nested) to VALUE (JSON, or a plain string)
    Set {
        /// The team's name
        team: String,
        /// The setting, by dotted key: lock_minutes, member_requests.enabled…
        key: String,
        /// The value: JSON (true, 30, ["a"]), else taken as a plain string
        #[arg(allow_negative_numbers = true)]
        value: String,
    },
}

#[derive(Debug, Args)]
pub struct MessageArgs {
    #[command(subcommand)]
    pub command: MessageCommand,
    /// The team (default: the acting agent's only team)
    #[arg(long, global = true, value_parser = super::shared::non_empty())]
    pub team: Option<String>,
    /// The acting agent
    #[arg(
        long = "as",
        global = true,
        env = super::shared::env_unless_empty("GOCLAW_AGENT"),
        value_parser = super::shared::non_empty(),
        hide_env_values = true
    )]
    pub agent: Option<String>,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum MessageCommand {
    /// Send TEXT to one member
    Send {
        /// The member it is for
        #[arg(long, value_parser = super::shared::non_empty())]
        to: String,
        /// The message: text, @FILE, or - for stdin
        text: String,
    },
    /// Send TEXT to every member (lead only)
    Broadcast {
        /// The message: text, @FILE, or - for stdin
        text: String,
    },
    /// Read unread messages, oldest first (each is marked read for the reader only, so the next
    /// read goes on where this one ended)
    Read {
        /// The most messages to read (1 to 1000)
        #[arg(long, default_value_t = crate::store::page::DEFAULT_LIMIT as u64,
              value_parser = clap::value_parser!(u64).range(1..=crate::store::page::MAX_LIMIT as u64))]
        limit: u64,
    },
    /// Block until a message arrives for the acting agent, then read it (exit 7 on timeout)
    Wait {
        /// How long to wait: 90s, 5m, 1h30m, or seconds
        #[arg(long)]
        timeout: Option<String>,
    },
}

pub fn run(ctx: &Context, args: TeamArgs) -> Result<Status> {
    if let TeamCommand::Run(a) = args.command {
        return super::team_run::run(ctx, a);
    }
    if let TeamCommand::Work(a) = args.command {
        return super::team_run::work(ctx, a);
    }
    let store = ctx.any_store()?;
    match args.command {
        TeamCommand::Create {
            name,
            lead,
            members,
            reviewers,
            settings,
        } => {
            check_agents(
                ctx,
                std::iter::once(&lead).chain(&members).chain(&reviewers),
            )?;
            let settings = settings
                .map(|s| Input::parse(Some(&s)).read_json(ctx))
                .transpose()?;
            let t = team::create(store.db(), &name, &lead, &members, &reviewers, settings)?;
            print_team(ctx, &t)?;
        }
        TeamCommand::List => {
            let teams = team::list(store.db())?;
            table::page(
                ctx,
                &Page::whole(teams.iter().map(TeamDoc::of).collect()),
                &["TEAM", "STATUS", "LEAD", "MEMBERS"],
                |t| {
                    [
                        t.name.to_string(),
                        t.status.to_string(),
                        t.lead.to_string(),
                        t.members.len().to_string(),
                    ]
                },
            )?;
        }
        TeamCommand::Show { name } => print_team(ctx, &team::get(store.db(), &name)?)?,
        TeamCommand::Archive { name } => print_team(ctx, &team::archive(store.db(), &name)?)?,
        TeamCommand::Members { command } => {
            let (name, t) = match &command {
                MembersCommand::Add { team: n, .. } | MembersCommand::Rm { team: n, .. } => {
                    (n.clone(), team::get(store.db(), n)?)
                }
            };
            match command {
                MembersCommand::Add { agent, role, .. } => {
                    check_agents(ctx, [&agent])?;
                    team::add_member(store.db(), &t, &agent, &role)?;
                }
                MembersCommand::Rm { agent, .. } => team::remove_member(store.db(), &t, &agent)?,
            }
            print_team(ctx, &team::get(store.db(), &name)?)?;
        }
        TeamCommand::Settings { command } => match command {
            SettingsCommand::Get { team: name, key } => {
                let t = team::get(store.db(), &name)?;
                let v = effective_setting(&t, key.as_deref())?;
                ctx.out.data(&v, |w| {
                    writeln!(
                        w,
                        "{}",
                        super::human::fields(&serde_json::to_value(&v).unwrap_or_default())
                    )
                })?;
            }
            SettingsCommand::Set {
                team: name,
                key,
                value,
            } => {
                let t = team::get(store.db(), &name)?;
                let v: Value = serde_json::from_str(&value).unwrap_or(Value::String(value));
                let s = team::set_setting(store.db(), &t, &key, v)?;
                ctx.out.data(&s, |w| {
                    writeln!(
                        w,
                        "{}",
                        super::human::fields(&serde_json::to_value(&s).unwrap_or_default())
                    )
                })?;
            }
        },
        TeamCommand::Run(_) | TeamCommand::Work(_) => {}
        TeamCommand::Message(m) => return message(ctx, &store, m),
    }
    Ok(Status::Ok)
}

/// A team as `team show` and `team list` print it: its settings in effect, defaults included.
#[derive(serde::Serialize)]
struct TeamDoc<'a> {
    id: i64,
    name: &'a str,
    lead: &'a str,
    status: &'a str,
    members: &'a [team::Member],
    settings: Value,
}

impl<'a> TeamDoc<'a> {
    fn of(t: &'a team::Team) -> TeamDoc<'a> {
        TeamDoc {
            id: t.id,
            name: &t.name,
            lead: &t.lead,
            status: &t.status,
            members: &t.members,
            settings: team::effective_settings(t),
        }
    }
}

fn print_team(ctx: &Context, t: &team::Team) -> Result<()> {
    ctx.out.data(&TeamDoc::of(t), |w| {
        // One line each, whatever an older goclaw let into a name.
        let name = one_line(&t.name);
        writeln!(w, "{name} ({}), lead {}", t.status, one_line(&t.lead))?;
        for m in &t.members {
            writeln!(w, "  {:<16} {}", one_line(&m.agent), one_line(&m.role))?;
        }
        Ok(())
    })
}

fn message(ctx: &Context, store: &crate::store::Store, m: MessageArgs) -> Result<Status> {
    let agent = acting(ctx, &m.agent)?;
    let t = resolve_team(store.db(), &m.team, &agent)?;
    let messages = match m.command {
        MessageCommand::Send { to, text } => {
            let text = super::input::text(ctx, &text)?;
            let msg = mailbox::send(store.db(), &t, &agent, &to, &text)?;
            return print_sent(ctx, &msg);
        }
        MessageCommand::Broadcast { text } => {
            let text = super::input::text(ctx, &text)?;
            let msg = mailbox::broadcast(store.db(), &t, &agent, &text)?;
            return print_sent(ctx, &msg);
        }
        MessageCommand::Read { limit } => {
            mailbox::read_at_most(store.db(), &t, &agent, limit as usize)?
        }
        MessageCommand::Wait { timeout } => {
            let timeout = timeout.map(|s| parse_duration(&s)).transpose()?;
            if let Some(t) = timeout {
                super::shared::deadline_guard(ctx, t, "team message wait");
            }
            let mut waiting = || {
                ctx.out
                    .verbose(&format!("waiting for a message for {agent}"))
            };
            mailbox::wait(store.db(), &t, &agent, timeout, &mut waiting)?
        }
    };
    // Read messages are not read again: the page has no next cursor, the next read goes on.
    let page = Page::whole(messages);
    ctx.out.data(&page, |w| {
        for msg in &page.items {
            writeln!(w, "{}", line(msg))?;
        }
        Ok(())
    })?;
    if page.items.is_empty() && !ctx.out.is_json() {
        // As every empty list says on a terminal.
        ctx.out.note("(nothing to read)");
    }
    Ok(Status::Ok)
}

/// A message sent: the record, or its line for people.
fn print_sent(ctx: &Context, msg: &mailbox::Message) -> Result<Status> {
    ctx.out.data(msg, |w| writeln!(w, "{}", line(msg)))?;
    Ok(Status::Ok)
}

/// A message as people read it, made printable: its text's further lines are indented, so a
/// line in a message cannot pass for another message.
fn line(msg: &mailbox::Message) -> String {
    printable(&format!(
        "[{}] {} → {}: {}",
        msg.kind,
        one_line(&msg.sender),
        one_line(msg.recipient.as_deref().unwrap_or("all")),
        msg.text.replace('\n', "\n  ")
    ))
}

/// Every effective setting of a team, or the one at a dotted `key` (an unknown key is not
/// found, exit 5, rather than a `null` a script would take for a value).
fn effective_setting(t: &team::Team, key: Option<&str>) -> Result<Value> {
    let all = team::effective_settings(t);
    let Some(k) = key else {
        return Ok(all);
    };
    all.pointer(&format!("/{}", k.replace('.', "/")))
        .cloned()
        .ok_or_else(|| {
            Error::not_found(format!("no team setting `{k}`")).with_hint(format!(
                "`goclaw team settings get {}` shows every setting",
                t.name
            ))
        })
}
