//! Teams, the task board and the mailbox over the store (reference §11, §12). Agents are the
//! keys of `[agents.KEY]` in config; the store keeps teams, tasks and messages. Every change is
//! one guarded statement inside one `BEGIN IMMEDIATE` transaction, so two workers never both
//! win; the guards also enforce ownership (the original's #1133: only the holder completes).
//! Used by `cli/team.rs`, `cli/tasks.rs` and the `team_tasks` / `team_message` tools.

pub mod actions;
pub mod board;
pub mod mailbox;
pub mod work;

use serde::Serialize;
use serde_json::{Value, json};

use crate::db_params;
use crate::error::{Error, Result};
use crate::store::db::{Begin, Db};

/// A team and its members.
#[derive(Debug, Clone, Serialize)]
pub struct Team {
    pub id: i64,
    pub name: String,
    pub lead: String,
    pub status: String,
    pub settings: Value,
    pub members: Vec<Member>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Member {
    pub agent: String,
    pub role: String,
}

impl Team {
    /// The channel a PostgreSQL store notifies when the team's board or mailbox changes
    /// (migration 015's triggers).
    pub fn channel(&self) -> String {
        format!("goclaw_team_{}", self.id)
    }

    pub fn is_member(&self, agent: &str) -> bool {
        self.members.iter().any(|m| m.agent == agent)
    }

    pub fn is_lead(&self, agent: &str) -> bool {
        self.lead == agent
    }

    /// A setting by dotted path, or its default.
    pub fn setting(&self, path: &str) -> Value {
        let mut v = &self.settings;
        for part in path.split('.') {
            match v.get(part) {
                Some(next) => v = next,
                None => {
                    return default_settings()
                        .pointer(&format!("/{}", path.replace('.', "/")))
                        .cloned()
                        .unwrap_or(Value::Null);
                }
            }
        }
        v.clone()
    }
}

/// Settings a new team starts with; `team settings set` may change any of them.
pub fn default_settings() -> Value {
    json!({
        "workspace_scope": "isolated",          // isolated | shared
        "require_review": false,                // a run's answer is submitted for review
        "max_task_dispatches": 3,               // runs a dispatcher starts on one task
        "blocker_escalation": {"enabled": true},
        "member_requests": {"enabled": false, "auto_dispatch": false},
        "followup_interval_minutes": 30,
        "followup_max_reminders": 0,
        "stale_pending_hours": 2,
        "stale_review_hours": 4,
        "lock_minutes": 30,
        "allow_user_ids": [], "deny_user_ids": [],
        "allow_channels": [], "deny_channels": [],
    })
}

/// Checks a settings document: only known keys, each of the right type.
pub fn validate_settings(settings: &Value) -> Result<()> {
    let defaults = default_settings();
    let obj = settings
        .as_object()
        .ok_or_else(|| Error::usage("team settings must be a JSON object"))?;
    for (k, v) in obj {
        let Some(d) = defaults.get(k) else {
            return Err(Error::usage(format!(
                "unknown team setting `{k}` (known: {})",
                defaults
                    .as_object()
                    .map(|o| o.keys().cloned().collect::<Vec<_>>().join(", "))
                    .unwrap_or_default()
            )));
        };
        let same = matches!(
            (d, v),
            (Value::String(_), Value::String(_))
                | (Value::Number(_), Value::Number(_))
                | (Value::Bool(_), Value::Bool(_))
                | (Value::Array(_), Value::Array(_))
                | (Value::Object(_), Value::Object(_))
        );
        if !same {
            return Err(Error::usage(format!("team setting `{k}` must be like {d}")));
        }
        if k == "workspace_scope" && !matches!(v.as_str(), Some("isolated" | "shared")) {
            return Err(Error::usage(
                "team setting `workspace_scope` must be \"isolated\" or \"shared\"",
            ));
        }
        if let (Value::Array(_), Some(items)) = (d, v.as_array())
            && !items.iter().all(Value::is_string)
        {
            return Err(Error::usage(format!(
                "team setting `{k}` must be a list of strings (ids and channel names as text)"
            )));
        }
        if let Some((lo, hi)) = number_range(k)
            && !v.as_i64().is_some_and(|n| (lo..=hi).contains(&n))
        {
            return Err(Error::usage(format!(
                "team setting `{k}` must be a whole number from {lo} to {hi}, not {v}"
            )));
        }
        if let (Value::Object(known), Value::Object(given)) = (d, v) {
            for (sub, sv) in given {
                let Some(sd) = known.get(sub) else {
                    return Err(Error::usage(format!(
                        "unknown team setting `{k}.{sub}` (known: {})",
                        known.keys().cloned().collect::<Vec<_>>().join(", ")
                    )));
                };
                if std::mem::discriminant(sd) != std::mem::discriminant(sv) {
                    return Err(Error::usage(format!(
                        "team setting `{k}.{sub}` must be like {sd}"
                    )));
                }
            }
        }
    }
    Ok(())
}

/// The range of a numeric team setting: counts and times a team can mean.
fn number_range(key: &str) -> Option<(i64, i64)> {
    match key {
        "max_task_dispatches" => Some((1, 100)),
        "followup_max_reminders" => Some((0, 100)),
        // Minutes and hours up to a week and a year.
        "followup_interval_minutes" | "lock_minutes" => Some((1, 7 * 24 * 60)),
        "stale_pending_hours" | "stale_review_hours" => Some((1, 365 * 24)),
        _ => None,
    }
}

pub(crate) use crate::store::now_ms;

/// Loads a team by name.
pub fn get(db: Db<'_>, name: &str) -> Result<Team> {
    let row = db.query_opt(
        "SELECT id, name, lead, status, settings FROM teams WHERE name = ?1",
        db_params![name],
        |r| {
            Ok((
                r.get::<i64>(0)?,
                r.get::<String>(1)?,
                r.get::<String>(2)?,
                r.get::<String>(3)?,
                r.get::<String>(4)?,
            ))
        },
    )?;
    let Some((id, name, lead, status, settings)) = row else {
        return Err(Error::not_found(format!("no team `{name}`"))
            .with_hint("`goclaw team list` shows the teams"));
    };
    let members = db.query_map(
        "SELECT agent, role FROM team_members WHERE team_id = ?1 ORDER BY role != 'lead', agent",
        db_params![id],
        |r| {
            Ok(Member {
                agent: r.get(0)?,
                role: r.get(1)?,
            })
        },
    )?;
    Ok(Team {
        id,
        name,
        lead,
        status,
        settings: serde_json::from_str(&settings).unwrap_or_else(|_| json!({})),
        members,
    })
}

/// The names a query returns (its first column).
fn names(db: Db<'_>, sql: &str, params: &[&dyn crate::store::db::ToValue]) -> Result<Vec<String>> {
    db.query_map(sql, params, |r| r.get(0))
}

/// Every team, by name.
pub fn list(db: Db<'_>) -> Result<Vec<Team>> {
    names(db, "SELECT name FROM teams ORDER BY name", db_params![])?
        .iter()
        .map(|n| get(db, n))
        .collect()
}

/// Whether `agent` leads or belongs to any team: its identity carries rights on a board.
pub fn in_a_team(db: Db<'_>, agent: &str) -> Result<bool> {
    db.query_row(
        "SELECT EXISTS (SELECT 1 FROM team_members WHERE agent = ?1)",
        db_params![agent],
        |r| r.get(0),
    )
}

/// The one active team `agent` belongs to (`--team` picks when there are several).
/// The only active team, for a command that names none and acts as nobody (`tasks list`).
pub fn only(db: Db<'_>) -> Result<Team> {
    let names = names(
        db,
        "SELECT name FROM teams WHERE status = 'active' ORDER BY name",
        db_params![],
    )?;
    match names.as_slice() {
        [one] => get(db, one),
        [] => Err(Error::not_found("there is no team yet")
            .with_hint("`goclaw team create NAME --lead AGENT` makes one")),
        many => Err(Error::usage(format!(
            "there are several teams ({}); pass --team",
            many.join(", ")
        ))),
    }
}

pub fn team_of(db: Db<'_>, agent: &str) -> Result<Team> {
    let names = names(
        db,
        "SELECT t.name FROM teams t JOIN team_members m ON m.team_id = t.id
         WHERE m.agent = ?1 AND t.status = 'active' ORDER BY t.name",
        db_params![agent],
    )?;
    match names.as_slice() {
        [one] => get(db, one),
        [] => Err(
            Error::not_found(format!("agent `{agent}` is not part of any team"))
                .with_hint("pass --team"),
        ),
        many => Err(Error::usage(format!(
            "agent `{agent}` is in several teams ({}); pass --team",
            many.join(", ")
        ))),
    }
}

/// The longest team name (the original's `VARCHAR(255)`), in characters.
const MAX_NAME_CHARS: usize = 255;

/// A team's name: 1 to [`MAX_NAME_CHARS`] characters, not all white space, no control
/// character (a line break in a name would split every line that shows it) nor one that hides
/// or reorders text (a zero-width space would make a second `lead` look like the first).
/// `system` is the name goclaw's own board events carry (recovery, a team run's dispatcher): an
/// agent of that name would be taken for goclaw in every event it wrote.
fn check_member(agent: &str) -> Result<()> {
    if agent == board::SYSTEM {
        return Err(Error::usage(format!(
            "`{agent}` cannot be in a team: the board's own events are in that name"
        ))
        .with_hint("give the agent another key in config.toml"));
    }
    Ok(())
}

fn check_name(name: &str) -> Result<()> {
    if name.trim().is_empty() {
        return Err(Error::usage("a team needs a name"));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(Error::usage(format!(
            "a team name has at most {MAX_NAME_CHARS} characters (this one has {chars})"
        )));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !crate::text::printable::shown_on_one_line(*c))
    {
        return Err(Error::usage(format!(
            "team name {name:?} holds {c:?}, a control or invisible character (a line break, a \
             tab, an escape, a zero-width or direction mark): names are what they look like"
        )));
    }
    Ok(())
}

/// Creates a team. `members` and `reviewers` must not repeat the lead.
pub fn create(
    db: Db<'_>,
    name: &str,
    lead: &str,
    members: &[String],
    reviewers: &[String],
    settings: Option<Value>,
) -> Result<Team> {
    check_name(name)?;
    for agent in members
        .iter()
        .chain(reviewers)
        .map(String::as_str)
        .chain([lead])
    {
        check_member(agent)?;
    }
    let mut s = json!({});
    if let Some(given) = settings {
        validate_settings(&given)?;
        s = given;
    }
    let tx = db.transaction(Begin::Write)?;
    let now = now_ms().to_string();
    let id = tx.query_opt(
        "INSERT INTO teams (name, lead, settings, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)
         ON CONFLICT (name) DO NOTHING RETURNING id",
        db_params![name, lead, s.to_string(), now],
        |r| r.get::<i64>(0),
    )?;
    let Some(id) = id else {
        return Err(Error::conflict(format!("team `{name}` already exists")));
    };
    let add = |agent: &str, role: &str| -> Result<()> {
        tx.execute(
            "INSERT INTO team_members (team_id, agent, role, added_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (team_id, agent) DO UPDATE SET role = excluded.role",
            db_params![id, agent, role, now],
        )
        .map(|_| ())
    };
    for m in members {
        add(m, "member")?;
    }
    for r in reviewers {
        add(r, "reviewer")?;
    }
    add(lead, "lead")?;
    tx.commit()?;
    get(db, name)
}

/// Archives a team: its board stays readable, nothing new is accepted.
pub fn archive(db: Db<'_>, name: &str) -> Result<Team> {
    let n = db.execute(
        "UPDATE teams SET status = 'archived', updated_at = ?2 WHERE name = ?1 AND status = 'active'",
        db_params![name, now_ms().to_string()],
    )?;
    let team = get(db, name)?;
    if n == 0 {
        return Err(Error::conflict(format!(
            "team `{name}` is already archived"
        )));
    }
    Ok(team)
}

/// Adds (or changes the role of) a member.
pub fn add_member(db: Db<'_>, team: &Team, agent: &str, role: &str) -> Result<()> {
    check_member(agent)?;
    if team.is_lead(agent) {
        return Err(Error::conflict(format!(
            "`{agent}` is the lead of `{}`",
            team.name
        )));
    }
    db.execute(
        "INSERT INTO team_members (team_id, agent, role, added_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (team_id, agent) DO UPDATE SET role = excluded.role",
        db_params![team.id, agent, role, now_ms().to_string()],
    )
    .map(|_| ())
}

/// Removes a member; what it held goes back to the board ([`board::Board::release_member`]).
pub fn remove_member(db: Db<'_>, team: &Team, agent: &str) -> Result<()> {
    if team.is_lead(agent) {
        return Err(Error::conflict(format!(
            "`{agent}` is the lead of `{}`; a team keeps its lead",
            team.name
        )));
    }
    let tx = db.transaction(Begin::Write)?;
    let n = tx.execute(
        "DELETE FROM team_members WHERE team_id = ?1 AND agent = ?2",
        db_params![team.id, agent],
    )?;
    if n == 0 {
        return Err(Error::not_found(format!(
            "`{agent}` is not a member of `{}`",
            team.name
        )));
    }
    board::Board::release_member(&tx, team, agent)?;
    tx.commit()
}

/// Sets one setting (a top-level key; objects are replaced whole) and returns the settings.
pub fn set_setting(db: Db<'_>, team: &Team, key: &str, value: Value) -> Result<Value> {
    let mut settings = team.settings.clone();
    let (top, rest) = key
        .split_once('.')
        .map_or((key, None), |(a, b)| (a, Some(b)));
    let mut new_value = value;
    if let Some(sub) = rest {
        let mut obj = team.setting(top);
        if let Some(map) = obj.as_object_mut() {
            map.insert(sub.to_string(), new_value);
        }
        new_value = obj;
    }
    if let Some(map) = settings.as_object_mut() {
        map.insert(top.to_string(), new_value);
    }
    validate_settings(&settings)?;
    db.execute(
        "UPDATE teams SET settings = ?2, updated_at = ?3 WHERE id = ?1",
        db_params![team.id, settings.to_string(), now_ms().to_string()],
    )?;
    Ok(settings)
}

/// The effective settings: defaults overlaid with what was set.
pub fn effective_settings(team: &Team) -> Value {
    let mut s = default_settings();
    if let (Some(base), Some(set)) = (s.as_object_mut(), team.settings.as_object()) {
        for (k, v) in set {
            base.insert(k.clone(), v.clone());
        }
    }
    s
}

/// The reminders a team lead's run starts with (§16.8): its teams' pending and in-progress
/// tasks, one line each (none when the board is quiet or the agent leads no team).
pub fn lead_reminders(db: Db<'_>, agent: &str) -> Result<Vec<String>> {
    let rows: Vec<(String, i64, i64)> = db.query_map(
        "SELECT t.name,
                (SELECT COUNT(*) FROM tasks k WHERE k.team_id = t.id AND k.status = 'pending'),
                (SELECT COUNT(*) FROM tasks k WHERE k.team_id = t.id AND k.status = 'in_progress')
         FROM teams t WHERE t.lead = ?1 AND t.status = 'active' ORDER BY t.name",
        db_params![agent],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let mut out = Vec::new();
    for (team, pending, in_progress) in rows {
        if pending > 0 {
            out.push(format!(
                "[System] You have {pending} pending team task(s) on the board of team {team}. Review them with team_tasks (action \"list\") and assign or start them before taking on new work."
            ));
        }
        if in_progress > 0 {
            out.push(format!(
                "[System] {in_progress} task(s) of team {team} are in progress. Check on them with team_tasks before starting anything that depends on them."
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod name_tests {
    #[test]
    fn a_name_in_any_script_is_a_name_and_an_invisible_character_is_not() {
        for name in ["dev", "đội ngũ 開発", "équipe-1", "команда"] {
            assert!(super::check_name(name).is_ok(), "{name}");
        }
        for name in ["dev\u{200B}", "\u{202E}ved", "a\tb", "a\u{1b}[2Jb", ""] {
            assert!(super::check_name(name).is_err(), "{name:?}");
        }
    }
}
