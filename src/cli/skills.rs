//! `goclaw skills`: the skills agents can find — list them, search them with the same BM25 as
//! `skill_search`, show one's SKILL.md.

use clap::{Args, Subcommand};

use super::{Context, Status, table};
use crate::error::{Error, Result};
use crate::skills::{self, Skill};
use crate::store::page::Page;

// Skills: list, search, show
#[derive(Debug, Args)]
pub struct SkillsArgs {
    #[command(subcommand)]
    pub command: SkillsCommand,
    /// The agent whose published skills count too
    #[arg(
        long,
        global = true,
        env = super::shared::env_unless_empty("GOCLAW_AGENT"),
        value_parser = super::shared::non_empty(),
        hide_env_values = true,
    )]
    pub agent: Option<String>,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum SkillsCommand {
    /// Every skill in the roots and the store
    List,
    /// Rank skills for a query (BM25 over name and description)
    Search {
        /// What to look for
        query: String,
        /// At most this many
        #[arg(long, default_value_t = 5)]
        max: i64,
    },
    /// A skill's metadata and SKILL.md
    Show {
        /// The skill's name or slug, as `skills list` shows them
        name: String,
    },
}

fn all(ctx: &Context, agent: Option<&str>) -> Result<Vec<Skill>> {
    let s = ctx.settings()?;
    let roots = skills::roots(
        &s.config.skills,
        &s.workspace,
        s.config_path.parent().unwrap_or(std::path::Path::new(".")),
    );
    let store = ctx.any_store()?;
    let (found, skipped) = skills::survey(&roots, store.db(), agent)?;
    for s in skipped {
        ctx.out.warn(&format!(
            "{} is not a skill: {}",
            s.location.display(),
            s.why
        ));
    }
    Ok(found)
}

pub fn run(ctx: &Context, args: SkillsArgs) -> Result<Status> {
    super::shared::check_agents(ctx, args.agent.iter())?;
    let agent = args.agent.as_deref();
    match args.command {
        SkillsCommand::List => {
            let found = all(ctx, agent)?;
            table::page(ctx, &Page::whole(found), &["SKILL", "DESCRIPTION"], |s| {
                [s.name.clone(), s.description.clone()]
            })?;
        }
        SkillsCommand::Search { query, max } => {
            let hits = skills::search(&all(ctx, agent)?, &query, max);
            table::page(
                ctx,
                &Page::whole(hits),
                &["SCORE", "SKILL", "DESCRIPTION"],
                |h| {
                    [
                        format!("{:.3}", h.score),
                        h.skill.name.clone(),
                        h.skill.description.clone(),
                    ]
                },
            )?;
        }
        SkillsCommand::Show { name } => {
            let mut found = all(ctx, agent)?;
            // By name first, then by slug (both are in `skills list`).
            let position = found
                .iter()
                .position(|s| s.name == name)
                .or_else(|| found.iter().position(|s| s.slug == name));
            let skill = position.map(|i| found.swap_remove(i)).ok_or_else(|| {
                Error::not_found(format!("no skill named {name}"))
                    .with_hint("`goclaw skills list` shows them")
            })?;
            let text = skills::read_skill_md(&skill.location)
                .map_err(|e| Error::io("read", &skill.location, &e))?;
            let doc = serde_json::json!({"skill": skill, "content": text});
            ctx.out.data(&doc, |w| write!(w, "{text}"))?;
        }
    }
    Ok(Status::Ok)
}
