//! The knowledge graph (seed 000 §2, group `knowledge`): entities (a name, a type, properties
//! as a JSON object) and the relations between them, kept in the store per agent and user, as
//! memory is. A search finds entities by full text over their name, type and properties (FTS5
//! with BM25 on SQLite, `tsvector` with `ts_rank` on PostgreSQL) and brings their relations up
//! to `depth` steps away (at most [`MAX_DEPTH`]), both directions. An agent sees the global
//! graph (no user) and its user's own; the user's entity wins where both have a name. A
//! relation belongs to whoever made it (a user, or everyone), whatever its ends are.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::db_params;
use crate::error::{Error, Result};
use crate::store::db::{Begin, Db, Dialect, Row};
use crate::store::now_ms;

/// The farthest a search follows relations.
pub const MAX_DEPTH: u32 = 2;
/// Words of a query taken at most (any of them may match).
const MAX_QUERY_WORDS: usize = 64;
/// Relations a search returns at most.
const MAX_RELATIONS: usize = 500;

/// Whose graph: an agent (`""` for none) and a user (`""`: the global graph).
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    pub agent: &'a str,
    pub user: &'a str,
}

/// An entity.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Entity {
    #[serde(skip)]
    pub id: i64,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub props: Map<String, Value>,
    /// `personal` (the user's) or `global`.
    pub scope: &'static str,
    /// The search's relevance, 0..1 (absent outside a search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    pub updated_at: i64,
}

/// A relation between two entities, by name.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Relation {
    pub src: String,
    pub rel: String,
    pub dst: String,
    pub props: Map<String, Value>,
}

/// What a search or a look at one entity returns.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Found {
    pub entities: Vec<Entity>,
    pub relations: Vec<Relation>,
}

fn props_of(text: &str) -> Map<String, Value> {
    match serde_json::from_str(text) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

const ENTITY_COLUMNS: &str = "id, name, type, props, user_id, updated_at";

fn entity_row(r: &Row) -> Result<Entity> {
    let user: String = r.get(4)?;
    Ok(Entity {
        id: r.get(0)?,
        name: r.get(1)?,
        kind: r.get(2)?,
        props: props_of(&r.get::<String>(3)?),
        scope: if user.is_empty() {
            "global"
        } else {
            "personal"
        },
        score: None,
        updated_at: r.get(5)?,
    })
}

/// Adds an entity, or updates the one of that name in this scope: its type when given, its
/// properties merged (a property set to null is removed).
pub fn upsert(
    db: Db<'_>,
    scope: Scope<'_>,
    name: &str,
    kind: Option<&str>,
    props: &Map<String, Value>,
) -> Result<Entity> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(Error::usage("an entity's name is 1 to 200 characters"));
    }
    let tx = db.transaction(Begin::Write)?;
    let existing = tx.query_opt(
        &format!(
            "SELECT {ENTITY_COLUMNS} FROM kg_entities WHERE agent = ?1 AND user_id = ?2 AND name = ?3"
        ),
        db_params![scope.agent, scope.user, name],
        entity_row,
    )?;
    let mut merged = existing
        .as_ref()
        .map(|e| e.props.clone())
        .unwrap_or_default();
    for (k, v) in props {
        if v.is_null() {
            merged.remove(k);
        } else {
            merged.insert(k.clone(), v.clone());
        }
    }
    let kind = kind
        .map(str::to_string)
        .or_else(|| existing.as_ref().map(|e| e.kind.clone()))
        .unwrap_or_default();
    let props_text = Value::Object(merged).to_string();
    let now = now_ms();
    tx.execute(
        "INSERT INTO kg_entities (agent, user_id, name, type, props, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
         ON CONFLICT (agent, user_id, name) DO UPDATE
           SET type = excluded.type, props = excluded.props, updated_at = excluded.updated_at",
        db_params![scope.agent, scope.user, name, kind, props_text, now],
    )?;
    let entity = tx.query_row(
        &format!(
            "SELECT {ENTITY_COLUMNS} FROM kg_entities WHERE agent = ?1 AND user_id = ?2 AND name = ?3"
        ),
        db_params![scope.agent, scope.user, name],
        entity_row,
    )?;
    tx.commit()?;
    Ok(entity)
}

/// The entity `name` sees in this scope: the user's own, else the global one.
pub fn get(db: Db<'_>, scope: Scope<'_>, name: &str) -> Result<Option<Entity>> {
    db.query_opt(
        &format!(
            "SELECT {ENTITY_COLUMNS} FROM kg_entities
             WHERE agent = ?1 AND user_id IN (?2, '') AND name = ?3
             ORDER BY user_id = '' LIMIT 1"
        ),
        db_params![scope.agent, scope.user, name.trim()],
        entity_row,
    )
}

fn must_get(db: Db<'_>, scope: Scope<'_>, name: &str) -> Result<Entity> {
    get(db, scope, name)?.ok_or_else(|| {
        Error::not_found(format!(
            "no entity named `{}` in the knowledge graph",
            name.trim()
        ))
        .with_hint("add it first: goclaw kg add NAME")
    })
}

/// Relates two entities (both must exist); the relation's properties are replaced.
pub fn relate(
    db: Db<'_>,
    scope: Scope<'_>,
    src: &str,
    rel: &str,
    dst: &str,
    props: &Map<String, Value>,
) -> Result<Relation> {
    let rel = rel.trim();
    if rel.is_empty() || rel.chars().count() > 100 {
        return Err(Error::usage("a relation's name is 1 to 100 characters"));
    }
    let (a, b) = (must_get(db, scope, src)?, must_get(db, scope, dst)?);
    // The relation is the user's own (everyone's without a user), as an entity is: a user
    // relating two global entities changes nobody else's graph.
    db.execute(
        "INSERT INTO kg_relations (src, rel, dst, user_id, props, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (src, rel, dst, user_id) DO UPDATE SET props = excluded.props",
        db_params![
            a.id,
            rel,
            b.id,
            scope.user,
            Value::Object(props.clone()).to_string(),
            now_ms()
        ],
    )?;
    Ok(Relation {
        src: a.name,
        rel: rel.to_string(),
        dst: b.name,
        props: props.clone(),
    })
}

/// Removes an entity of this scope and its relations; whether there was one.
pub fn remove(db: Db<'_>, scope: Scope<'_>, name: &str) -> Result<bool> {
    Ok(db.execute(
        "DELETE FROM kg_entities WHERE agent = ?1 AND user_id = ?2 AND name = ?3",
        db_params![scope.agent, scope.user, name.trim()],
    )? > 0)
}

/// Entities matching `query` (any of its words; the best first, at most `max`), and the
/// relations within `depth` steps of them.
pub fn search(db: Db<'_>, scope: Scope<'_>, query: &str, depth: u32, max: usize) -> Result<Found> {
    let words = crate::text::query_words(query, MAX_QUERY_WORDS);
    if words.is_empty() {
        return Err(Error::usage("a search needs a word"));
    }
    let (sql, terms) = match db.dialect() {
        Dialect::Sqlite => (
            "SELECT e.id, e.name, e.type, e.props, e.user_id, e.updated_at, -bm25(kg_fts) AS rank
             FROM kg_fts JOIN kg_entities e ON e.id = kg_fts.rowid
             WHERE kg_fts MATCH ?1 AND e.agent = ?2 AND e.user_id IN (?3, '')
             ORDER BY rank DESC, e.id LIMIT ?4"
                .to_string(),
            Dialect::Sqlite.any_of_words(&words),
        ),
        Dialect::Postgres => (
            "SELECT e.id, e.name, e.type, e.props, e.user_id, e.updated_at,
                    CAST(ts_rank(e.search, to_tsquery('simple', goclaw_fold(?1))) AS DOUBLE PRECISION) AS rank
             FROM kg_entities e
             WHERE e.search @@ to_tsquery('simple', goclaw_fold(?1)) AND e.agent = ?2 AND e.user_id IN (?3, '')
             ORDER BY rank DESC, e.id LIMIT ?4"
                .to_string(),
            Dialect::Postgres.any_of_words(&words),
        ),
    };
    let rows: Vec<(Entity, f64)> = db.query_map(
        &sql,
        db_params![terms, scope.agent, scope.user, max.saturating_mul(2)],
        |r| Ok((entity_row(r)?, r.get::<f64>(6)?)),
    )?;
    let mut entities = personal_first(rows);
    entities.truncate(max);
    let best = entities.iter().filter_map(|e| e.score).fold(0.0, f64::max);
    for e in &mut entities {
        e.score = e.score.map(|s| if best > 0.0 { s / best } else { 0.0 });
    }
    let relations = around(db, scope, &entities, depth.min(MAX_DEPTH))?;
    Ok(Found {
        entities,
        relations,
    })
}

/// One entity of each name, the user's own over the global one, in rank order.
fn personal_first(rows: Vec<(Entity, f64)>) -> Vec<Entity> {
    let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
    let mut out: Vec<Entity> = Vec::new();
    for (mut e, rank) in rows {
        e.score = Some(rank.max(0.0));
        match by_name.get(&e.name) {
            Some(&i) if out[i].scope == "global" && e.scope == "personal" => out[i] = e,
            Some(_) => {}
            None => {
                by_name.insert(e.name.clone(), out.len());
                out.push(e);
            }
        }
    }
    out
}

/// The entity `name` and the relations within `depth` steps of it.
pub fn show(db: Db<'_>, scope: Scope<'_>, name: &str, depth: u32) -> Result<Found> {
    let entity = must_get(db, scope, name)?;
    let relations = around(
        db,
        scope,
        std::slice::from_ref(&entity),
        depth.clamp(1, MAX_DEPTH),
    )?;
    Ok(Found {
        entities: vec![entity],
        relations,
    })
}

/// Relations reached from `start` in at most `depth` steps, either direction, between
/// entities this scope sees (another user's entity related to a global one stays unseen).
fn around(db: Db<'_>, scope: Scope<'_>, start: &[Entity], depth: u32) -> Result<Vec<Relation>> {
    let mut seen: BTreeSet<i64> = start.iter().map(|e| e.id).collect();
    let mut frontier: Vec<i64> = seen.iter().copied().collect();
    let mut found: BTreeMap<i64, Relation> = BTreeMap::new();
    for _ in 0..depth {
        let mut next = Vec::new();
        for id in frontier {
            let edges: Vec<(i64, i64, i64, Relation)> = db.query_map(
                "SELECT r.id, r.src, r.dst, s.name, r.rel, d.name, r.props
                 FROM kg_relations r
                 JOIN kg_entities s ON s.id = r.src JOIN kg_entities d ON d.id = r.dst
                 WHERE (r.src = ?1 OR r.dst = ?1)
                   AND r.user_id IN (?4, '')
                   AND s.agent = ?3 AND s.user_id IN (?4, '') AND d.agent = ?3 AND d.user_id IN (?4, '')
                 ORDER BY r.id LIMIT ?2",
                db_params![id, MAX_RELATIONS, scope.agent, scope.user],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        Relation {
                            src: r.get(3)?,
                            rel: r.get(4)?,
                            dst: r.get(5)?,
                            props: props_of(&r.get::<String>(6)?),
                        },
                    ))
                },
            )?;
            for (rid, src, dst, relation) in edges {
                if found.len() >= MAX_RELATIONS {
                    break;
                }
                found.entry(rid).or_insert(relation);
                for other in [src, dst] {
                    if seen.insert(other) {
                        next.push(other);
                    }
                }
            }
        }
        frontier = next;
    }
    Ok(found.into_values().collect())
}

/// The whole graph of this scope (global and the user's), for `goclaw kg export`.
pub fn all(db: Db<'_>, scope: Scope<'_>) -> Result<Found> {
    let entities = db.query_map(
        &format!(
            "SELECT {ENTITY_COLUMNS} FROM kg_entities WHERE agent = ?1 AND user_id IN (?2, '')
             ORDER BY name, user_id"
        ),
        db_params![scope.agent, scope.user],
        entity_row,
    )?;
    let relations = db.query_map(
        "SELECT s.name, r.rel, d.name, r.props FROM kg_relations r
         JOIN kg_entities s ON s.id = r.src JOIN kg_entities d ON d.id = r.dst
         WHERE r.user_id IN (?2, '')
           AND s.agent = ?1 AND s.user_id IN (?2, '') AND d.agent = ?1 AND d.user_id IN (?2, '')
         ORDER BY r.id",
        db_params![scope.agent, scope.user],
        |r| {
            Ok(Relation {
                src: r.get(0)?,
                rel: r.get(1)?,
                dst: r.get(2)?,
                props: props_of(&r.get::<String>(3)?),
            })
        },
    )?;
    Ok(Found {
        entities,
        relations,
    })
}

/// The graph in Graphviz's DOT language.
pub fn to_dot(found: &Found) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let mut out = String::from("digraph knowledge {\n");
    for e in &found.entities {
        let label = if e.kind.is_empty() {
            e.name.clone()
        } else {
            format!("{} ({})", e.name, e.kind)
        };
        out.push_str(&format!(
            "  {} [label={}];\n",
            quote(&e.name),
            quote(&label)
        ));
    }
    for r in &found.relations {
        out.push_str(&format!(
            "  {} -> {} [label={}];\n",
            quote(&r.src),
            quote(&r.dst),
            quote(&r.rel)
        ));
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_quotes_what_it_must() {
        let found = Found {
            entities: vec![Entity {
                id: 1,
                name: "a \"b\"".into(),
                kind: "t".into(),
                props: Map::new(),
                scope: "global",
                score: None,
                updated_at: 0,
            }],
            relations: vec![Relation {
                src: "a \"b\"".into(),
                rel: "knows\\".into(),
                dst: "c".into(),
                props: Map::new(),
            }],
        };
        assert_eq!(
            to_dot(&found),
            "digraph knowledge {\n  \"a \\\"b\\\"\" [label=\"a \\\"b\\\" (t)\"];\n  \"a \\\"b\\\"\" -> \"c\" [label=\"knows\\\\\"];\n}\n"
        );
    }
}
