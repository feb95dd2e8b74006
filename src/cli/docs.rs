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
    let mut cmd = super::command();
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
    clap_mangen::Man::new(page_cmd)
        .render(&mut out)
        .map_err(|e| format!("man page {name}: {e}"))?;
    pages.push((format!("{name}.1"), out));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, &format!("{name}-{}", sub.get_name()), pages)?;
    }
    Ok(())
}
