//! Generated documentation: completion scripts and man pages, both made from the clap
//! definitions. `completions/` and `man/` in the repository hold their output, and a test fails
//! when those files are stale (`GOCLAW_BLESS=1 cargo test` rewrites them).

use clap_complete::Shell;

/// The completion script for `shell`.
pub fn completion(shell: Shell) -> Vec<u8> {
    let mut cmd = super::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "goclaw", &mut out);
    out
}

/// File name of the committed completion script for `shell`.
pub fn completion_file(shell: Shell) -> String {
    match shell {
        Shell::Bash => "goclaw.bash".into(),
        Shell::Zsh => "_goclaw".into(),
        Shell::Fish => "goclaw.fish".into(),
        Shell::Elvish => "goclaw.elv".into(),
        Shell::PowerShell => "_goclaw.ps1".into(),
        other => format!("goclaw.{other}"),
    }
}

/// Every man page: `goclaw.1`, and `goclaw-SUB[-SUB…].1` for each subcommand at any depth.
pub fn man_pages() -> Result<Vec<(String, Vec<u8>)>, String> {
    // The long help's exit-code table is the EXIT STATUS section here (not an EXTRA copy).
    let mut cmd = super::command().after_long_help(None::<&str>);
    cmd.build();
    let mut pages = Vec::new();
    collect(&cmd, "goclaw", &mut pages)?;
    Ok(pages)
}

fn collect(
    cmd: &clap::Command,
    name: &str,
    pages: &mut Vec<(String, Vec<u8>)>,
) -> Result<(), String> {
    let page_cmd = cmd.clone().name(name.to_string());
    let mut out = Vec::new();
    let man = clap_mangen::Man::new(page_cmd);
    let err = |e: std::io::Error| format!("man page {name}: {e}");
    // clap_mangen's sections in its order, with EXIT STATUS and ENVIRONMENT before the version.
    man.render_title(&mut out).map_err(err)?;
    man.render_name_section(&mut out).map_err(err)?;
    man.render_synopsis_section(&mut out).map_err(err)?;
    man.render_description_section(&mut out).map_err(err)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out).map_err(err)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(&mut out).map_err(err)?;
    }
    if cmd.get_after_long_help().is_some() || cmd.get_after_help().is_some() {
        man.render_extra_section(&mut out).map_err(err)?;
    }
    out.extend_from_slice(exit_status_section().as_bytes());
    out.extend_from_slice(ENVIRONMENT_SECTION.as_bytes());
    if cmd.get_version().is_some() || cmd.get_long_version().is_some() {
        man.render_version_section(&mut out).map_err(err)?;
    }
    pages.push((format!("{name}.1"), out));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, &format!("{name}-{}", sub.get_name()), pages)?;
    }
    Ok(())
}

/// The EXIT STATUS section: every exit code, its name and meaning, as a tagged list (one
/// aligned column of codes).
fn exit_status_section() -> String {
    use crate::error::ErrorKind;
    let mut s = String::from(".SH \"EXIT STATUS\"\n.TP 6\n\\fB0\\fR\nok: success\n");
    for kind in ErrorKind::ALL {
        s.push_str(&format!(
            ".TP 6\n\\fB{}\\fR\n{}: {}\n",
            kind.exit_code(),
            kind.name(),
            roff_text(kind.meaning())
        ));
    }
    s.push_str(".PP\nOn failure, off a terminal or with \\fB\\-\\-json\\fR, stdout carries one JSON error document, {\"error\":{\"code\",\"exit_code\",\"message\",\"hint\"}}; stderr always carries one line, \\fBerror: \\fR\\fImessage\\fR. The text filters (\\fBscrub\\fR, \\fBsanitize\\fR) write the document only with \\fB\\-\\-json\\fR: their stdout is the data.\n");
    s
}

/// Escapes text for a roff body line: backslashes, and a leading `.` or `'`.
fn roff_text(text: &str) -> String {
    let t = text.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

/// The ENVIRONMENT section: the variables goclaw reads.
const ENVIRONMENT_SECTION: &str = r#".SH ENVIRONMENT
.TP
\fBGOCLAW_HOME\fR
Where the config file and the store live by default (\fIconfig.toml\fR, \fIgoclaw.db\fR).
.TP
\fBXDG_CONFIG_HOME\fR, \fBXDG_DATA_HOME\fR, \fBHOME\fR
The config file and the store without \fBGOCLAW_HOME\fR: \fI$XDG_CONFIG_HOME/goclaw/config.toml\fR and \fI$XDG_DATA_HOME/goclaw/goclaw.db\fR (defaults \fI~/.config\fR and \fI~/.local/share\fR).
.TP
\fBGOCLAW_CONFIG\fR, \fBGOCLAW_DB\fR, \fBGOCLAW_WORKSPACE\fR
The same as \fB\-\-config\fR, \fB\-\-db\fR and \fB\-\-workspace\fR (a flag wins over its variable).
.TP
\fBGOCLAW_AGENT\fR, \fBGOCLAW_SESSION\fR
The agent and session of commands that take \fB\-\-agent\fR and \fB\-\-session\fR; goclaw sets them, with \fBGOCLAW_RUN_ID\fR and \fBGOCLAW_PARENT_RUN_ID\fR, for the commands its exec tool runs.
.TP
\fBOPENAI_API_KEY\fR, \fBANTHROPIC_API_KEY\fR
Provider keys when the config names none.
.TP
\fBOPENAI_BASE_URL\fR, \fBANTHROPIC_BASE_URL\fR
Provider endpoints for a provider whose config names no \fBbase_url\fR.
.TP
\fBGOCLAW_SECRET_KEY\fR
The key that encrypts stored secrets (secure CLIs, MCP server credentials).
"#;
