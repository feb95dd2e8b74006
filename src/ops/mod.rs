//! The library's composition root: what every entry point needs, assembled from settings and
//! the store, never from flags or a terminal. [`toolbox`] builds the tool set (built-in, custom
//! and bridged MCP tools) with its scrubber and hands out gates; [`scrubber`] builds the scrubber
//! every command shares; [`run`] resolves an agent and its provider and wires a run; [`task_run`]
//! ties a run to its team and task; [`team_run`] dispatches a team's board to its members' runs,
//! in parallel; [`tick`] runs the cron jobs that are due; [`doctor`] checks what goclaw depends
//! on. The cli turns flags into these calls and renders what comes back; a second runner (a
//! subagent, a team member, a job) uses the same calls. (`query_plans` is a test: every hot
//! query's plan uses an index.)
//!
//! Nothing here prints: what a person should hear comes back as [`Note`]s.

pub mod doctor;
pub mod run;
pub mod scrubber;
pub mod task_run;
pub mod team_run;
pub mod tick;
pub mod toolbox;

#[cfg(test)]
mod query_plans;

/// Something for the person running the command, which the entry point shows or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// Shown unless `--quiet`.
    Warn(String),
    /// Shown with `--verbose`.
    Detail(String),
}
