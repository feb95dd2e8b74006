//! `ask_user` (seed 004's question tool): a structured question, optionally with choices, put to
//! the person at the terminal through an [`Asker`] the command line provides. Without one (no
//! terminal, `mcp serve`, cron) or when nobody answers in time, the tool answers with the
//! configured fallback (`[tools.ask_user] fallback`) and says that nobody answered, so the model
//! never mistakes the fallback for the user's words.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{CallContext, Risk, Tool, ToolResult};
use crate::store::Store;

/// `[tools.ask_user]`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct AskConfig {
    /// What the model is told when nobody can answer.
    pub fallback: String,
    /// Seconds to wait for an answer when the call does not say.
    pub timeout_secs: u64,
}

impl Default for AskConfig {
    fn default() -> Self {
        AskConfig {
            fallback: "Proceed with your best judgement, and state the assumption you made.".into(),
            timeout_secs: 300,
        }
    }
}

/// A question as put to a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub question: String,
    pub choices: Vec<String>,
}

/// Someone who can be asked (the command line's terminal).
pub trait Asker: Send + Sync + std::fmt::Debug {
    /// The answer, or `None` when none came within `timeout`.
    fn ask(&self, question: &Question, timeout: Duration) -> Option<String>;
}

/// A shared asker.
pub type SharedAsker = Arc<dyn Asker>;

/// Maps a typed answer to a choice: its number (1-based) or its text, any case; other text is
/// kept as written (the person may answer outside the choices).
pub fn pick(choices: &[String], typed: &str) -> String {
    let typed = typed.trim();
    if let Ok(n) = typed.parse::<usize>()
        && (1..=choices.len()).contains(&n)
    {
        return choices[n - 1].clone();
    }
    choices
        .iter()
        .find(|c| c.eq_ignore_ascii_case(typed))
        .cloned()
        .unwrap_or_else(|| typed.to_string())
}

/// `ask_user`.
pub struct AskUser;

impl Tool for AskUser {
    fn name(&self) -> &str {
        "ask_user"
    }
    fn description(&self) -> &str {
        "Ask the user a question and wait for the answer. Give `choices` for a multiple-choice question. If nobody can answer (no terminal, or no answer in time) you get a fallback instruction instead, marked as such."
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","properties":{
            "question":{"type":"string","description":"The question"},
            "choices":{"type":"array","items":{"type":"string"},"description":"Possible answers (optional)"},
            "timeout_secs":{"type":"integer","minimum":1,"maximum":3600,"description":"How long to wait (default 300)"}},
            "required":["question"]})
    }
    fn risk(&self) -> Risk {
        Risk::Safe
    }
    fn execute(
        &self,
        ctx: &CallContext,
        args: &Map<String, Value>,
        _store: &mut Store,
    ) -> ToolResult {
        let question = super::trimmed_arg(args, "question").to_string();
        if question.is_empty() {
            return ToolResult::bad_args("question is required");
        }
        let choices: Vec<String> = args
            .get("choices")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let timeout = args
            .get("timeout_secs")
            .and_then(Value::as_u64)
            .unwrap_or(ctx.ask.timeout_secs)
            .clamp(1, 3600);
        let q = Question { question, choices };
        let fallback = &ctx.ask.fallback;
        let Some(asker) = &ctx.asker else {
            return ToolResult::text(format!(
                "No answer: nobody can be asked here (no terminal). Fallback: {fallback}"
            ));
        };
        match asker.ask(&q, Duration::from_secs(timeout)) {
            Some(answer) if !answer.trim().is_empty() => {
                ToolResult::text(format!("The user answered: {}", pick(&q.choices, &answer)))
            }
            _ => ToolResult::text(format!(
                "No answer: the user did not answer within {timeout} s. Fallback: {fallback}"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_map_to_choices_by_number_or_text() {
        let c = vec!["Yes".to_string(), "No".to_string()];
        assert_eq!(pick(&c, " 2 "), "No");
        assert_eq!(pick(&c, "yes"), "Yes");
        assert_eq!(pick(&c, "3"), "3");
        assert_eq!(pick(&c, "maybe later"), "maybe later");
    }
}
