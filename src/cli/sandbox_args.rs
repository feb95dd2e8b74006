//! The arguments of goclaw's sandbox re-exec, `goclaw __sandbox-exec` (see
//! [`super::sandbox_exec`]).

use std::path::PathBuf;

use clap::Parser;

// Arguments of the sandbox re-exec: `goclaw __sandbox-exec`, which exec itself spawns. Not a
// command of the CLI, so no help, completion script or man page offers it (see
// [`super::sandbox_exec`]).
#[derive(Debug, Parser)]
#[command(name = "goclaw __sandbox-exec")]
pub struct SandboxExecArgs {
    /// A path the command may write (the first: the workspace)
    #[arg(long = "rw")]
    pub writable: Vec<PathBuf>,
    /// A directory bound to itself, so the command cannot rename it (above a mask)
    #[arg(long = "pin")]
    pub pinned: Vec<PathBuf>,
    /// A path the command sees empty (goclaw's own state)
    #[arg(long = "mask")]
    pub masked: Vec<PathBuf>,
    /// Allow the network
    #[arg(long)]
    pub net: bool,
    /// Supervise only: no Landlock or seccomp, masks where the host allows them (`sandbox =
    /// "none"`, an MCP server)
    #[arg(long)]
    pub no_sandbox: bool,
    /// The pid of the goclaw that spawned it directly
    #[arg(long)]
    pub parent: Option<i32>,
    /// Supervise from a forked child that outlives a SIGKILL of this process (MCP servers)
    #[arg(long)]
    pub guarded: bool,
    /// After a stop signal, milliseconds the command has to end before everything it started
    /// is killed (0: at once)
    #[arg(long, default_value_t = 0)]
    pub grace_ms: u64,
    /// The spawner's report pipe: a byte once the stop signals are waited for, then how the
    /// command ended
    #[arg(long)]
    pub report_fd: Option<i32>,
    /// The command and its arguments
    #[arg(last = true, required = true)]
    pub argv: Vec<String>,
}
