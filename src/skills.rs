//! Skills: directories holding a `SKILL.md` whose front matter gives `name` and `description`.
//! They are found in the configured roots (`[skills] roots`, default `skills/` in the workspace
//! and `skills/` beside the config file), each root's immediate subdirectories, and in the
//! directories published with `publish_skill` (kept in the store). A name found twice is the
//! first one's: workspace roots, then the other roots in order, then published skills.
//! Search is the BM25 of §15.1 over `name + " " + description`.

use std::path::{Path, PathBuf};

use crate::db_params;
use crate::store::db::Db;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::store::now_ms;

/// `[skills]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct SkillsConfig {
    /// Directories whose subdirectories are skills (relative ones are under the workspace;
    /// `~/` is the home directory). Empty: `skills` in the workspace, and `skills` beside the
    /// config file.
    pub roots: Vec<PathBuf>,
}

/// One skill.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Skill {
    pub name: String,
    /// The directory's name.
    pub slug: String,
    pub description: String,
    /// The SKILL.md file.
    pub location: PathBuf,
    pub base_dir: PathBuf,
    /// `root` (found under a root) or `published`.
    pub source: String,
}

/// Reads `name` and `description` from SKILL.md's front matter (`---` … `---`, `key: value`
/// lines; quoted values and `>`/`|` block values are understood).
pub fn front_matter(text: &str) -> Option<(String, String)> {
    let mut lines = text.strip_prefix('\u{feff}').unwrap_or(text).lines();
    if lines.next()?.trim() != "---" {
        return None;
    }
    let mut name = None;
    let mut description = None;
    let mut block: Option<(&str, Vec<String>)> = None;
    for line in lines {
        if line.trim() == "---" {
            break;
        }
        if let Some((_, acc)) = block.as_mut()
            && (line.starts_with(' ') || line.starts_with('\t') || line.trim().is_empty())
        {
            acc.push(line.trim().to_string());
            continue;
        }
        if let Some((key, acc)) = block.take() {
            let v = acc.join(" ").trim().to_string();
            match key {
                "name" => name = Some(v),
                "description" => description = Some(v),
                _ => {}
            }
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let key = key.trim();
        let value = value.trim();
        let target = match key {
            "name" => "name",
            "description" => "description",
            _ => continue,
        };
        if matches!(value, ">" | "|" | ">-" | "|-") {
            block = Some((target, Vec::new()));
            continue;
        }
        let value = unquote(value);
        if target == "name" {
            name = Some(value);
        } else {
            description = Some(value);
        }
    }
    if let Some((key, acc)) = block {
        let v = acc.join(" ").trim().to_string();
        if key == "name" {
            name = Some(v);
        } else {
            description = Some(v);
        }
    }
    let name = name.filter(|n| !n.trim().is_empty())?;
    Some((name, description.unwrap_or_default()))
}

fn unquote(v: &str) -> String {
    for q in ['"', '\''] {
        if v.len() >= 2 && v.starts_with(q) && v.ends_with(q) {
            return v[1..v.len() - 1].to_string();
        }
    }
    v.to_string()
}

/// A SKILL.md's text, read only if it is a regular file: opened without blocking (a FIFO put
/// there after the skill was found would block the open, past any signal), then checked.
pub fn read_skill_md(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("it is not a regular file"));
    }
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    Ok(text)
}

/// What a directory under a skills root or published as a skill holds.
enum InDir {
    Skill(Skill),
    /// No SKILL.md: not meant as a skill.
    Nothing,
    /// A SKILL.md goclaw cannot use, and why.
    Unusable(String),
}

/// A SKILL.md goclaw found and left out, and why (shown by `goclaw skills list`: a skill
/// without a name would otherwise just be missing).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Skipped {
    pub location: PathBuf,
    pub why: String,
}

/// The skill in `dir`: its SKILL.md must give a name. A SKILL.md that is a symlink out of its
/// directory is not a skill (use_skill would otherwise read any file it points at).
fn read_dir_skill(dir: &Path, source: &str) -> InDir {
    let location = dir.join("SKILL.md");
    if std::fs::symlink_metadata(&location).is_err() {
        return InDir::Nothing;
    }
    let inside = std::fs::canonicalize(dir).and_then(|real_dir| {
        std::fs::canonicalize(&location).map(|real| real.starts_with(&real_dir))
    });
    match inside {
        Ok(true) => {}
        Ok(false) => return InDir::Unusable("it is a link out of its directory".into()),
        Err(e) => return InDir::Unusable(format!("cannot be read: {e}")),
    }
    // Opened only when it is a file: a FIFO (a model with exec can make one) blocked every
    // later run in its open, past any signal, and a device read without end. A hard link may
    // be any file of the same file system (the file tools refuse them for the same reason).
    match std::fs::metadata(&location) {
        Ok(m) if !m.is_file() => return InDir::Unusable("it is not a regular file".into()),
        Ok(m) if std::os::unix::fs::MetadataExt::nlink(&m) > 1 => {
            return InDir::Unusable("it is a hard link (another name of some file)".into());
        }
        Ok(_) => {}
        Err(e) => return InDir::Unusable(format!("cannot be read: {e}")),
    }
    let text = match read_skill_md(&location) {
        Ok(t) => t,
        Err(e) => return InDir::Unusable(format!("cannot be read: {e}")),
    };
    let Some((name, description)) = front_matter(&text) else {
        return InDir::Unusable(
            if text
                .trim_start_matches('\u{feff}')
                .lines()
                .next()
                .map(str::trim)
                == Some("---")
            {
                "its front matter gives no `name`"
            } else {
                "it has no front matter (a first line `---`, then `name:` and `description:`)"
            }
            .into(),
        );
    };
    InDir::Skill(Skill {
        name,
        slug: dir
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        description,
        location,
        base_dir: dir.to_path_buf(),
        source: source.to_string(),
    })
}

/// Every skill the roots and the store hold for `agent` (published ones of other agents are
/// not seen), first one of a name wins.
pub fn discover(roots: &[PathBuf], db: Db<'_>, agent: Option<&str>) -> Result<Vec<Skill>> {
    Ok(survey(roots, db, agent)?.0)
}

/// [`discover`], with the SKILL.md files left out and why: unusable, or a name an earlier skill
/// has.
pub fn survey(
    roots: &[PathBuf],
    db: Db<'_>,
    agent: Option<&str>,
) -> Result<(Vec<Skill>, Vec<Skipped>)> {
    let mut found: Vec<Skill> = Vec::new();
    let mut skipped = Vec::new();
    // A skill's paths are written in JSON text (its location, its base directory): a
    // directory whose name is not UTF-8 is left out and said (it stopped `skills list` at exit
    // 10, and `skill_search` and `skills show` panicked).
    let mut look =
        |dir: &Path, source: &str| match dir.to_str().map(|_| read_dir_skill(dir, source)) {
            None => skipped.push(Skipped {
                location: dir.join("SKILL.md"),
                why: "its directory's name is not valid UTF-8 (goclaw writes paths in JSON)".into(),
            }),
            Some(InDir::Skill(s)) => match found.iter().find(|f| f.name == s.name) {
                // A published directory that is under a root too.
                Some(first) if same_dir(&first.base_dir, &s.base_dir) => {}
                Some(first) => skipped.push(Skipped {
                    why: format!(
                        "its name `{}` is the skill's at {}",
                        s.name,
                        first.location.display()
                    ),
                    location: s.location,
                }),
                None => found.push(s),
            },
            Some(InDir::Nothing) => {}
            Some(InDir::Unusable(why)) => skipped.push(Skipped {
                location: dir.join("SKILL.md"),
                why,
            }),
        };
    let mut outside = Vec::new();
    for root in roots {
        let Ok(entries) = std::fs::read_dir(root) else {
            continue;
        };
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        let real_root = std::fs::canonicalize(root).ok();
        for d in dirs {
            // A link out of the root (`skills/x -> /elsewhere`, which a model with `exec` can
            // make in the workspace's root) is no skill: use_skill would read what it points
            // at. A skill kept elsewhere is published (`goclaw skills publish DIR`).
            let inside = real_root
                .as_ref()
                .is_some_and(|r| std::fs::canonicalize(&d).is_ok_and(|real| real.starts_with(r)));
            if inside {
                look(&d, "root");
            } else {
                outside.push(Skipped {
                    location: d.join("SKILL.md"),
                    why: "its directory is a link out of the skills directory (publish it instead: goclaw skills publish DIR)".into(),
                });
            }
        }
    }
    for dir in published(db, agent)? {
        look(&dir, "published");
    }
    skipped.append(&mut outside);
    Ok((found, skipped))
}

fn same_dir(a: &Path, b: &Path) -> bool {
    std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok()
}

fn published(db: Db<'_>, agent: Option<&str>) -> Result<Vec<PathBuf>> {
    db.query_map(
        "SELECT dir FROM published_skills WHERE agent = '' OR agent = ?1 ORDER BY published_at, dir",
        db_params![agent.unwrap_or("")],
        |r| Ok(PathBuf::from(r.get::<String>(0)?)),
    )
}

/// Registers `dir` (canonical) as a published skill for `agent` ("" for every agent).
pub fn publish(db: Db<'_>, dir: &Path, agent: &str) -> Result<Skill> {
    let dir = std::fs::canonicalize(dir)
        .map_err(|e| Error::not_found(format!("{}: {e}", dir.display())))?;
    let skill = match read_dir_skill(&dir, "published") {
        InDir::Skill(s) => s,
        InDir::Nothing => {
            return Err(Error::usage(format!("{} has no SKILL.md", dir.display())));
        }
        InDir::Unusable(why) => {
            return Err(Error::usage(format!(
                "{}'s SKILL.md is not a skill: {why}",
                dir.display()
            )));
        }
    };
    db.execute(
        "INSERT INTO published_skills (dir, name, agent, published_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (dir) DO UPDATE SET name = excluded.name, agent = excluded.agent",
        db_params![dir.display().to_string(), skill.name, agent, now_ms()],
    )?;
    Ok(skill)
}

/// A search hit.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Hit {
    #[serde(flatten)]
    pub skill: Skill,
    pub score: f64,
}

/// BM25 over `name + " " + description`.
pub fn search(skills: &[Skill], query: &str, max: i64) -> Vec<Hit> {
    let docs: Vec<String> = skills
        .iter()
        .map(|s| format!("{} {}", s.name, s.description))
        .collect();
    crate::text::bm25::rank(&docs, query, max)
        .into_iter()
        .map(|(i, score)| Hit {
            skill: skills[i].clone(),
            score,
        })
        .collect()
}

/// Most skills listed inline in a system prompt; more, or more than ~5000 tokens, and the
/// prompt tells the agent to search instead (§16.9 item 8).
const INLINE_MAX: usize = 40;
const INLINE_MAX_TOKENS: usize = 5000;

/// The system prompt's `## Skills (mandatory)` section ("" when there are none).
pub fn prompt_section(skills: &[Skill]) -> String {
    if skills.is_empty() {
        return String::new();
    }
    let mut list = String::from("<available_skills>\n");
    for s in skills {
        list.push_str(&format!(
            "  <skill><name>{}</name><description>{}</description></skill>\n",
            xml_escape(&s.name),
            xml_escape(&s.description)
        ));
    }
    list.push_str("</available_skills>");
    let inline = skills.len() <= INLINE_MAX && list.len() / 4 <= INLINE_MAX_TOKENS;
    if inline {
        format!(
            "## Skills (mandatory)\nBefore replying, scan the skills below. If one clearly applies, call use_skill with its name and follow the instructions it returns. Use at most one skill per task; if none applies, do not load any.\n{list}"
        )
    } else {
        format!(
            "## Skills (mandatory)\n{} skills are installed. Before replying, call skill_search with what the task needs; if a result clearly applies, call use_skill with its name and follow the instructions it returns.",
            skills.len()
        )
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The roots in effect: configured ones resolved, or the defaults.
pub fn roots(cfg: &SkillsConfig, workspace: &Path, config_dir: &Path) -> Vec<PathBuf> {
    if cfg.roots.is_empty() {
        return vec![workspace.join("skills"), config_dir.join("skills")];
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    cfg.roots
        .iter()
        .map(|r| match (r.strip_prefix("~"), &home) {
            (Ok(rest), Some(h)) => h.join(rest),
            _ => workspace.join(r),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_lists_few_skills_and_points_to_search_for_many() {
        let skill = |n: usize| Skill {
            name: format!("s{n}"),
            slug: format!("s{n}"),
            description: "does <things> & more".into(),
            location: PathBuf::from("/x/SKILL.md"),
            base_dir: PathBuf::from("/x"),
            source: "root".into(),
        };
        let few = prompt_section(&[skill(1)]);
        assert!(few.starts_with("## Skills (mandatory)\n"), "{few}");
        assert!(few.contains("<skill><name>s1</name><description>does &lt;things&gt; &amp; more</description></skill>"), "{few}");
        let many: Vec<Skill> = (0..41).map(skill).collect();
        let text = prompt_section(&many);
        assert!(
            text.contains("41 skills are installed. Before replying, call skill_search"),
            "{text}"
        );
        assert_eq!(prompt_section(&[]), "");
    }

    #[test]
    fn front_matter_forms() {
        assert_eq!(
            front_matter("---\nname: pdf-tools\ndescription: \"Merge: and split PDFs\"\n---\nbody"),
            Some(("pdf-tools".into(), "Merge: and split PDFs".into()))
        );
        assert_eq!(
            front_matter(
                "---\nname: x\ndescription: >\n  line one\n  line two\nlicense: MIT\n---\n"
            ),
            Some(("x".into(), "line one line two".into()))
        );
        assert_eq!(front_matter("no front matter"), None);
        assert_eq!(
            front_matter("---\ndescription: d\n---\n"),
            None,
            "a name is needed"
        );
    }
}
