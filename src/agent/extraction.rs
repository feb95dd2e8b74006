//! The knowledge-graph extraction turn (issue 20 §3): when a session is compacted and the agent
//! has `[agents.KEY.compaction] knowledge_extraction = true` and may use
//! `knowledge_graph_search`, the messages about to be summarised away are first given to the
//! model once more, asking for the people, projects, places and things in them and how they
//! relate, as JSON. What comes back is written to the agent's (and user's) graph, as
//! `goclaw kg add` / `relate` would: at most 50 entities and 100 relations a turn; a relation
//! whose ends are not in the graph is skipped; an answer that is not the JSON asked for is a
//! warning, never a failure of the run.

use std::time::Duration;

use serde_json::{Map, Value};

use super::Runner;
use super::events::Emitter;
use crate::knowledge::{self, Scope};
use crate::providers::{Message, Role};

const EXTRACT_PROMPT: &str = "Extract the entities (people, projects, organisations, places, tools, concepts) and the relations between them from this conversation, for a knowledge graph. Answer with one JSON object only: {\"entities\": [{\"name\": \"...\", \"type\": \"person|project|...\", \"properties\": {}}], \"relations\": [{\"source\": \"...\", \"relation\": \"works_on|uses|...\", \"target\": \"...\"}]}. Only what the conversation states. Conversation:\n";
const MAX_ENTITIES: usize = 50;
const MAX_RELATIONS: usize = 100;

/// The JSON object in a model's answer (fences and words around it left out).
fn json_in(text: &str) -> Option<Value> {
    let (start, end) = (text.find('{')?, text.rfind('}')?);
    serde_json::from_str(text.get(start..=end)?).ok()
}

impl Runner<'_> {
    /// One extraction turn over `transcript`; how many entities and relations it wrote.
    pub(super) fn extract_knowledge(
        &mut self,
        em: &mut Emitter,
        model: &str,
        user: &str,
        transcript: &str,
    ) -> std::result::Result<(usize, usize), String> {
        let prompt = format!("{EXTRACT_PROMPT}{transcript}");
        let answer = self.side_call(
            em,
            model,
            vec![Message::new(Role::User, prompt)],
            Duration::from_secs(120),
        )?;
        let doc = json_in(&answer).ok_or("the model's answer held no JSON object")?;
        let scope = Scope {
            agent: if self.agent.is_some() {
                self.agent_key
            } else {
                ""
            },
            user,
        };
        let db = self.store.db();
        let text = |v: &Value, k: &str| v[k].as_str().map(str::trim).unwrap_or("").to_string();
        let mut entities = 0;
        for e in doc["entities"]
            .as_array()
            .into_iter()
            .flatten()
            .take(MAX_ENTITIES)
        {
            let name = text(e, "name");
            let kind = text(e, "type");
            let props = e["properties"].as_object().cloned().unwrap_or_default();
            let kind = (!kind.is_empty()).then_some(kind.as_str());
            if !name.is_empty() && knowledge::upsert(db, scope, &name, kind, &props).is_ok() {
                entities += 1;
            }
        }
        let mut relations = 0;
        for r in doc["relations"]
            .as_array()
            .into_iter()
            .flatten()
            .take(MAX_RELATIONS)
        {
            let (src, rel, dst) = (text(r, "source"), text(r, "relation"), text(r, "target"));
            if knowledge::relate(db, scope, &src, &rel, &dst, &Map::new()).is_ok() {
                relations += 1;
            }
        }
        Ok((entities, relations))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_is_found_inside_an_answer() {
        let v = json_in("Here you go:\n```json\n{\"entities\": []}\n```").unwrap();
        assert_eq!(v["entities"], serde_json::json!([]));
        assert!(json_in("no json here").is_none());
    }
}
