//! `workspace_dir`: where this caller's tools work — the workspace (an agent's own `workspace`
//! setting applied in runs), the agent and user it was resolved for, and the active teams the
//! agent belongs to with their workspace scope. Read-only; it creates nothing.

use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::store::sql;

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
    fn execute(&self, ctx: &CallContext, _args: &Map<String, Value>) -> ToolResult {
        let workspace = std::fs::canonicalize(&ctx.workspace).unwrap_or(ctx.workspace.clone());
        let mut teams = Vec::new();
        if let Some(agent) = ctx.agent.as_deref() {
            let found =
                ctx.store().and_then(|store| {
                    let mut stmt = store
                        .conn()
                        .prepare(
                            "SELECT t.name, m.role, t.settings FROM teams t
                         JOIN team_members m ON m.team_id = t.id
                         WHERE m.agent = ?1 AND t.status = 'active' ORDER BY t.name",
                        )
                        .map_err(sql)?;
                    let rows = stmt
                    .query_map([agent], |r| {
                        let settings: String = r.get(2)?;
                        let scope = serde_json::from_str::<Value>(&settings)
                            .ok()
                            .and_then(|s| s["workspace_scope"].as_str().map(str::to_string))
                            .unwrap_or_else(|| "isolated".into());
                        Ok(json!({"team": r.get::<_, String>(0)?, "role": r.get::<_, String>(1)?,
                                  "workspace_scope": scope}))
                    })
                    .map_err(sql)?;
                    rows.collect::<rusqlite::Result<Vec<_>>>().map_err(sql)
                });
            match found {
                Ok(t) => teams = t,
                Err(e) => return ToolResult::from_error(&e),
            }
        }
        ToolResult::text(
            serde_json::to_string_pretty(&json!({
                "workspace": workspace,
                "agent": ctx.agent.as_deref().unwrap_or("default"),
                "user": ctx.user,
                "teams": teams,
            }))
            .unwrap_or_default(),
        )
    }
}
