//! `workspace_dir`: where this caller's tools work — the workspace (an agent's own `workspace`
//! setting applied in runs), the agent and user it was resolved for, and the active teams the
//! agent belongs to with their workspace scope. Read-only; it creates nothing.

use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::store::Store;

/// `workspace_dir`.
pub struct WorkspaceDir;

impl Tool for WorkspaceDir {
    fn name(&self) -> &str {
        "workspace_dir"
    }
    fn description(&self) -> &str {
        "Tell where your file tools and exec work: the workspace directory for you (agent and user), and your teams."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{}})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        ctx: &CallContext,
        _args: &Map<String, Value>,
        store: &mut Store,
    ) -> ToolResult {
        let workspace = std::fs::canonicalize(&ctx.workspace).unwrap_or(ctx.workspace.clone());
        let mut teams = Vec::new();
        if let Some(agent) = ctx.agent.as_deref() {
            let all = match crate::team::list(store.db()) {
                Ok(all) => all,
                Err(e) => return ToolResult::from_error(&e),
            };
            for t in all.iter().filter(|t| t.status == "active") {
                if let Some(m) = t.members.iter().find(|m| m.agent == agent) {
                    teams.push(json!({"team": t.name, "role": m.role,
                        "workspace_scope": t.setting("workspace_scope")}));
                }
            }
        }
        ToolResult::text(
            serde_json::to_string_pretty(&json!({
                "workspace": workspace.to_string_lossy(),
                "agent": ctx.agent.as_deref().unwrap_or("default"),
                "user": ctx.user,
                "teams": teams,
            }))
            .unwrap_or_default(),
        )
    }
}
