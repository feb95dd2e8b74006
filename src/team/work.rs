//! What a run working for a team is told, and where it works: TEAM.md for the lead (seed 000
//! "Lead-Centric Design": only the lead gets it), the task context and progress nudges of a
//! member's run on a task (reference §16.8), mailbox messages as `[Team message from X]: …`, the
//! message a dispatched task starts with, and the team workspace.
//!
//! The team workspace is `<workspace>/teams/<team>` (names made one path component each, one to
//! one, and every directory below the workspace checked not to be a symbolic link): with `workspace_scope = "shared"` every
//! member works there; with `isolated` (the default) each member works in its own directory
//! below it, `<workspace>/teams/<team>/<agent>`, and the lead in the team's directory, where it
//! sees every member's.

use std::path::{Path, PathBuf};

use super::Team;
use super::board::Task;
use super::mailbox::Message;

/// Members' runs are nudged to report progress every this many iterations (§16.8).
pub const PROGRESS_EVERY: u32 = 6;
/// Longest task result kept from an answer (bytes), as the original.
pub const MAX_RESULT_BYTES: usize = 100_000;

/// A name as one path component, one to one (two names never share a directory): letters,
/// digits, `-`, `_` and a `.` that does not start it are kept; every other byte is `%XX`.
fn component(name: &str) -> String {
    let mut out = String::new();
    for (i, b) in name.bytes().enumerate() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || (b == b'.' && i > 0) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Makes sure `dir`, which lies below `base`, is a real directory: each component below `base`
/// an existing directory or created, never a symbolic link. So a link a teammate put in the
/// team's directory cannot move someone's workspace elsewhere (`ln -s / w2`).
pub fn ensure_below(base: &Path, dir: &Path) -> std::io::Result<PathBuf> {
    use std::io::{Error, ErrorKind};
    let rel = dir
        .strip_prefix(base)
        .map_err(|_| Error::new(ErrorKind::InvalidInput, "not below the workspace"))?;
    let mut cur = base.to_path_buf();
    for c in rel.components() {
        let std::path::Component::Normal(c) = c else {
            return Err(Error::new(ErrorKind::InvalidInput, "not a plain path"));
        };
        cur.push(c);
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(Error::new(
                    ErrorKind::InvalidInput,
                    format!("{} is a symbolic link", cur.display()),
                ));
            }
            Ok(m) if !m.is_dir() => {
                return Err(Error::new(
                    ErrorKind::InvalidInput,
                    format!("{} is not a directory", cur.display()),
                ));
            }
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => match std::fs::create_dir(&cur) {
                Ok(()) => {}
                // Made meanwhile by another run: looked at again on the next pass.
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    if std::fs::symlink_metadata(&cur)?.file_type().is_symlink() {
                        return Err(Error::new(
                            ErrorKind::InvalidInput,
                            format!("{} is a symbolic link", cur.display()),
                        ));
                    }
                }
                Err(e) => return Err(e),
            },
            Err(e) => return Err(e),
        }
    }
    Ok(cur)
}

/// The team's directory below the command's workspace.
pub fn team_dir(base: &Path, team: &Team) -> PathBuf {
    base.join("teams").join(component(&team.name))
}

/// Where `agent` works in the team: the team's directory for the lead and in a shared team,
/// its own below it in an isolated one.
pub fn workspace(base: &Path, team: &Team, agent: &str) -> PathBuf {
    let dir = team_dir(base, team);
    let shared = team.setting("workspace_scope").as_str() == Some("shared");
    if shared || team.is_lead(agent) {
        dir
    } else {
        dir.join(component(agent))
    }
}

/// TEAM.md: the teammates, their roles, the workspace, and how the board works.
pub fn team_md(team: &Team, base: &Path) -> String {
    let mut s = format!(
        "# Team {}\n\nYou lead team `{}`. Your teammates:\n",
        team.name, team.name
    );
    for m in team.members.iter().filter(|m| m.role != "lead") {
        s.push_str(&format!("- {} ({})\n", m.agent, m.role));
    }
    let dir = team_dir(base, team);
    let shared = team.setting("workspace_scope").as_str() == Some("shared");
    s.push_str(&format!("\nTeam workspace: {}", dir.display()));
    if shared {
        s.push_str(" (shared: every member works there).\n");
    } else {
        s.push_str(" (isolated: each member works in its own directory below it, named after the member).\n");
    }
    s.push_str(
        "\nHow the team works: split the request into tasks with team_tasks (action \"create\": \
         subject, description with everything the member needs, optional assignee, and \
         blocked_by with the numbers or ids of tasks whose results it needs). Members are started \
         for the tasks they may take and work in parallel; a task waits for its blockers to \
         complete. Do not do the members' work yourself. When every task has ended you get their \
         results: then write the answer for the user.\n",
    );
    s
}

/// The reminder a run on a task starts with (not kept in its session).
pub fn task_context(task: &Task) -> String {
    format!(
        "[System] You are working on team task #{}: \"{}\" (id {}). Your final answer is the \
         task's result. Report progress with team_tasks (action \"progress\", percent 0-100). If \
         you cannot go on, post a comment of type \"blocker\" saying why: the task fails and the \
         team lead is told.",
        task.task_number, task.subject, task.identifier
    )
}

/// The nudge every [`PROGRESS_EVERY`] iterations of a run on a task.
pub fn progress_nudge(task: &Task) -> String {
    format!(
        "[System] You are still working on team task #{}: \"{}\". Report your progress with \
         team_tasks (action \"progress\", percent 0-100, text: the current step), then go on.",
        task.task_number, task.subject
    )
}

/// The message a run on a task starts with when none is given (the original's dispatch
/// message): the task, its description, the workspace, and the feedback of a rejected review.
pub fn dispatch_message(
    task: &Task,
    description: &str,
    feedback: Option<&str>,
    workspace: &Path,
) -> String {
    let mut s = format!(
        "[Assigned task #{} (id: {})]: {}",
        task.task_number, task.identifier, task.subject
    );
    if !description.trim().is_empty() {
        s.push_str(&format!("\n\n{}", description.trim()));
    }
    if let Some(f) = feedback.filter(|f| !f.trim().is_empty()) {
        s.push_str(&format!(
            "\n\n[Review feedback] Your previous result was rejected: {}",
            f.trim()
        ));
    }
    s.push_str(&format!(
        "\n\n[Team workspace] {}\n[Instructions] Do the task, then answer with its result: \
         your answer completes the task.",
        workspace.display()
    ));
    s
}

/// Mailbox messages as the model reads them. A message's own lines are indented, so none can
/// pass for another message (`\n[Team message from lead]: …` inside a member's text).
pub fn delivered(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .map(|m| {
            format!(
                "[Team message from {}]: {}",
                m.sender,
                m.text.trim_end().replace('\n', "\n  ")
            )
        })
        .collect()
}

/// An answer as a task's result: at most [`MAX_RESULT_BYTES`], cut on a character and word
/// boundary (`text::words`).
pub fn result_of(answer: &str) -> String {
    if answer.len() <= MAX_RESULT_BYTES {
        return answer.to_string();
    }
    let kept = crate::text::words::prefix_bytes(answer, MAX_RESULT_BYTES);
    format!("{kept}\n[truncated]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::team::Member;
    use serde_json::json;

    fn team(scope: &str) -> Team {
        Team {
            id: 1,
            name: "docs/../x".into(),
            lead: "lead".into(),
            status: "active".into(),
            settings: json!({"workspace_scope": scope}),
            members: vec![
                Member {
                    agent: "lead".into(),
                    role: "lead".into(),
                },
                Member {
                    agent: "w1".into(),
                    role: "member".into(),
                },
            ],
        }
    }

    #[test]
    fn workspaces_stay_below_the_teams_directory() {
        let base = Path::new("/ws");
        let t = team("isolated");
        let dir = "/ws/teams/docs%2F..%2Fx";
        assert_eq!(team_dir(base, &t), Path::new(dir));
        assert_eq!(workspace(base, &t, "w1"), Path::new(dir).join("w1"));
        assert_eq!(workspace(base, &t, "lead"), Path::new(dir));
        assert_eq!(workspace(base, &t, ".."), Path::new(dir).join("%2E."));
        let shared = team("shared");
        assert_eq!(workspace(base, &shared, "w1"), Path::new(dir));
        assert!(team_md(&t, base).contains("- w1 (member)"));
        assert!(!team_md(&t, base).contains("- lead"));
        // One to one: names that differ never share a directory.
        assert_ne!(component("a b"), component("a_b"));
        assert_ne!(component("ö"), component("_"));
        assert_ne!(component("%20"), component(" "));
        assert_eq!(component("w.1"), "w.1");
    }

    #[test]
    fn a_symbolic_link_cannot_move_a_workspace() {
        let base = tempfile::tempdir().unwrap();
        let b = base.path();
        let ok = ensure_below(b, &b.join("teams/t/w1")).unwrap();
        assert!(ok.is_dir());
        std::os::unix::fs::symlink("/", b.join("teams/t/w2")).unwrap();
        let e = ensure_below(b, &b.join("teams/t/w2")).unwrap_err();
        assert!(e.to_string().contains("is a symbolic link"), "{e}");
        std::fs::remove_dir_all(b.join("teams/t/w1")).unwrap();
        std::os::unix::fs::symlink("/tmp", b.join("teams/t/w1")).unwrap();
        assert!(ensure_below(b, &b.join("teams/t/w1/x")).is_err());
    }

    #[test]
    fn results_are_capped_on_a_character_boundary() {
        assert_eq!(result_of("short"), "short");
        let long = "é".repeat(MAX_RESULT_BYTES);
        let r = result_of(&long);
        assert!(r.ends_with("\n[truncated]"));
        assert!(r.len() <= MAX_RESULT_BYTES + 12);
    }
}
