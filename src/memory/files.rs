//! An agent's files that live in the store, not on disk (seed 000 §3): the context files and
//! the memory documents. `read_file` / `write_file` on those names are routed here (the
//! interceptor), whatever the workspace holds.
//!
//! Context files: an `open` agent's are per user, falling back to the agent-level file; a
//! `predefined` agent's are agent-level except `USER.md`, which is per user. Writing an empty
//! `BOOTSTRAP.md` deletes it. Memory: `MEMORY.md`, `memory.md` and `memory/…` are per user,
//! falling back to the global (agent-level) document; every write re-indexes the document's
//! chunks for `memory_search` (SQLite FTS5, BM25; PostgreSQL's `tsvector`, `ts_rank`; with an
//! embedder, vectors ranked by cosine similarity, in the server where it has pgvector: see
//! [`crate::store::vectors`]).

use serde::Serialize;

use super::embed::{self, Embedder};
use crate::db_params;
use crate::error::Result;
use crate::store::db::{Begin, Db, Dialect, FromValue, Row};
use crate::store::vectors;

/// The context files, in the order the system prompt uses them.
pub const CONTEXT_FILES: [&str; 7] = [
    "SOUL.md",
    "IDENTITY.md",
    "AGENTS.md",
    "TOOLS.md",
    "USER.md",
    "BOOTSTRAP.md",
    "HEARTBEAT.md",
];

/// Words of a `memory_search` query used at most (the first ones, each once).
const MAX_QUERY_WORDS: usize = 64;

/// Lines per memory chunk.
const CHUNK_LINES: usize = 20;

use crate::store::now_ms as now;

/// What a workspace path means to the interceptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Routed {
    Context(&'static str),
    Memory(String),
}

/// Routes `path` (relative, as a tool got it) when it names a context file or memory document.
pub fn route(path: &str) -> Option<Routed> {
    let clean = path.trim().trim_start_matches("./");
    if let Some(name) = CONTEXT_FILES.iter().find(|n| **n == clean) {
        return Some(Routed::Context(name));
    }
    if clean == "MEMORY.md" || clean == "memory.md" {
        return Some(Routed::Memory("MEMORY.md".into()));
    }
    if let Some(rest) = clean.strip_prefix("memory/") {
        let ok = !rest.is_empty()
            && rest
                .split('/')
                .all(|part| !part.is_empty() && part != "." && part != "..");
        if ok {
            return Some(Routed::Memory(format!("memory/{rest}")));
        }
    }
    None
}

/// Who a file belongs to: the agent, its type, and the user ('' when none).
#[derive(Debug, Clone)]
pub struct Owner<'a> {
    pub agent: &'a str,
    pub predefined: bool,
    pub user: &'a str,
}

impl Owner<'_> {
    /// The user row a context file is written to.
    fn context_user(&self, name: &str) -> &str {
        if self.predefined && name != "USER.md" {
            ""
        } else {
            self.user
        }
    }
}

/// A context file's content: the user's, else the agent-level one (open agents; and USER.md).
pub fn read_context(db: Db<'_>, owner: &Owner, name: &str) -> Result<Option<String>> {
    let user = owner.context_user(name);
    db.query_opt(
        "SELECT content FROM context_files WHERE agent = ?1 AND name = ?2 AND user_id IN (?3, '')
         ORDER BY user_id = '' LIMIT 1",
        db_params![owner.agent, name, user],
        |r| r.get(0),
    )
}

/// Writes (or, for an empty BOOTSTRAP.md, deletes) a context file.
pub fn write_context(db: Db<'_>, owner: &Owner, name: &str, content: &str) -> Result<()> {
    let user = owner.context_user(name);
    if name == "BOOTSTRAP.md" && content.trim().is_empty() {
        db.execute(
            "DELETE FROM context_files WHERE agent = ?1 AND user_id = ?2 AND name = ?3",
            db_params![owner.agent, user, name],
        )?;
        return Ok(());
    }
    db.execute(
        "INSERT INTO context_files (agent, user_id, name, content, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (agent, user_id, name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at",
        db_params![owner.agent, user, name, content, now()],
    )?;
    Ok(())
}

/// The context files a run sees, in prompt order (the user's version where there is one).
pub fn context_for_run(db: Db<'_>, owner: &Owner) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for name in CONTEXT_FILES {
        if let Some(content) = read_context(db, owner, name)?.filter(|c| !c.trim().is_empty()) {
            out.push((name.to_string(), content));
        }
    }
    Ok(out)
}

/// One stored context file, for listings.
#[derive(Debug, Serialize)]
pub struct ContextEntry {
    pub name: String,
    /// `None` for the agent-level file (null in JSON, as `agents files set` prints it).
    pub user: Option<String>,
    pub bytes: usize,
    pub updated_at: i64,
}

/// Every context file of `agent` (agent-level and every user's, or only `user`'s and the
/// agent-level ones).
pub fn list_context(db: Db<'_>, agent: &str, user: Option<&str>) -> Result<Vec<ContextEntry>> {
    let bytes = match db.dialect() {
        Dialect::Sqlite => "length(CAST(content AS BLOB))",
        Dialect::Postgres => "octet_length(content)",
    };
    db.query_map(
        &format!(
            "SELECT name, user_id, {bytes}, updated_at FROM context_files
             WHERE agent = ?1 AND (CAST(?2 AS TEXT) IS NULL OR user_id IN (?2, '')) ORDER BY user_id, name"
        ),
        db_params![agent, user],
        |r| {
            Ok(ContextEntry {
                name: r.get(0)?,
                user: Some(r.get::<String>(1)?).filter(|u| !u.is_empty()),
                bytes: r.get::<i64>(2)? as usize,
                updated_at: r.get(3)?,
            })
        },
    )
}

/// A memory document: the user's, else the global one.
pub fn read_memory(db: Db<'_>, owner: &Owner, path: &str) -> Result<Option<String>> {
    db.query_opt(
        "SELECT content FROM memory_docs WHERE agent = ?1 AND path = ?2 AND user_id IN (?3, '')
         ORDER BY user_id = '' LIMIT 1",
        db_params![owner.agent, path, owner.user],
        |r| r.get(0),
    )
}

/// Writes a memory document (the user's own, or global without a user) and re-indexes it:
/// text chunks for FTS5 and, with an embedder, their vectors. An embeddings failure does not
/// lose the write: the document is indexed for full-text search and the failure is returned as
/// a warning.
pub fn write_memory(
    db: Db<'_>,
    owner: &Owner,
    path: &str,
    content: &str,
    embedder: Option<&Embedder>,
) -> Result<Option<String>> {
    let lines: Vec<&str> = content.lines().collect();
    let chunks: Vec<(usize, usize, String)> = lines
        .chunks(CHUNK_LINES)
        .enumerate()
        .map(|(i, chunk)| {
            let start = i * CHUNK_LINES + 1;
            (start, start + chunk.len() - 1, chunk.join("\n"))
        })
        .filter(|(_, _, text)| !text.trim().is_empty())
        .collect();
    // The network call happens before the transaction, never inside it.
    let (embedded, warning) = match embedder {
        None => (None, None),
        Some(e) => {
            let texts: Vec<String> = chunks.iter().map(|c| c.2.clone()).collect();
            match e.embed(&texts) {
                Ok(v) => (Some(v), None),
                Err(err) => (
                    None,
                    Some(format!(
                        "embeddings unavailable, indexed for full-text search only: {}",
                        err.message
                    )),
                ),
            }
        }
    };
    let tx = db.transaction(Begin::Write)?;
    let id: i64 = tx.query_row(
        "INSERT INTO memory_docs (agent, user_id, path, content, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (agent, user_id, path) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at
         RETURNING id",
        db_params![owner.agent, owner.user, path, content, now()],
        |r| r.get(0),
    )?;
    tx.execute(
        "DELETE FROM memory_chunks WHERE doc_id = ?1",
        db_params![id],
    )?;
    let in_server = embedded.is_some() && vectors::in_server(*tx)?;
    for (n, (start, end, text)) in chunks.iter().enumerate() {
        let vector = embedded.as_ref().and_then(|v| v.get(n));
        let chunk: i64 = tx.query_row(
            "INSERT INTO memory_chunks (doc_id, start_line, end_line, text, embedding) VALUES (?1, ?2, ?3, ?4, ?5)
             RETURNING id",
            db_params![id, *start as i64, *end as i64, text, vector.map(|v| vectors::to_blob(v))],
            |r| r.get(0),
        )?;
        if let (true, Some(v)) = (in_server, vector) {
            vectors::keep(*tx, chunk, v)?;
        }
    }
    tx.commit()?;
    Ok(warning)
}

/// Whether the agent has any memory at all (for the prompt's reminder).
pub fn has_memory(db: Db<'_>, agent: &str) -> Result<bool> {
    Ok(db
        .query_opt(
            "SELECT 1 FROM memory_docs WHERE agent = ?1 LIMIT 1",
            db_params![agent],
            |_| Ok(()),
        )?
        .is_some())
}

/// One `memory_search` hit.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub path: String,
    pub start_line: i64,
    pub end_line: i64,
    pub score: f64,
    pub snippet: String,
    pub source: &'static str,
    pub scope: &'static str,
}

/// Search over the global documents and the user's: full text (FTS5, BM25) and, with an
/// embedder, cosine similarity of the query's vector, combined 0.3 / 0.7 (1 / 0 or 0 / 1 when a
/// side finds nothing). Each side is normalised to 0..1 (its best hit is 1); the user's own hits
/// weigh ×1.2; a (path, line) found in both scopes keeps the personal snippet and the summed
/// score.
pub fn search(
    db: Db<'_>,
    owner: &Owner,
    query: &str,
    max: usize,
    min_score: f64,
    embedder: Option<&Embedder>,
) -> Result<Vec<Hit>> {
    let text = text_hits(db, owner, query, max)?;
    let vector = match embedder {
        Some(e) => vector_hits(db, owner, e, query, max)?,
        None => Vec::new(),
    };
    let (wt, wv) = match (text.is_empty(), vector.is_empty()) {
        (_, true) => (1.0, 0.0),
        (true, false) => (0.0, 1.0),
        _ => (0.3, 0.7),
    };
    let mut hits: Vec<Hit> = Vec::new();
    for (weight, side) in [(wt, text), (wv, vector)] {
        for mut h in side {
            h.score *= weight;
            match hits
                .iter_mut()
                .find(|x| x.path == h.path && x.start_line == h.start_line)
            {
                Some(x) => {
                    x.score += h.score;
                    if h.scope == "personal" {
                        x.snippet = h.snippet;
                        x.scope = "personal";
                    }
                }
                None => hits.push(h),
            }
        }
    }
    hits.sort_by(|a, b| b.score.total_cmp(&a.score));
    hits.retain(|h| h.score >= min_score);
    hits.truncate(max);
    Ok(hits)
}

/// Scales a side's scores so its best is 1.
fn normalise(hits: &mut [Hit]) {
    let best = hits.iter().map(|h| h.score).fold(0.0, f64::max);
    for h in hits.iter_mut() {
        h.score = if best > 0.0 { h.score / best } else { 0.0 };
    }
}

fn hit(path: String, start: i64, end: i64, text: &str, user: &str, score: f64) -> Hit {
    let personal = !user.is_empty();
    Hit {
        path,
        start_line: start,
        end_line: end,
        score: score * if personal { 1.2 } else { 1.0 },
        snippet: text.chars().take(700).collect(),
        source: "memory",
        scope: if personal { "personal" } else { "global" },
    }
}

/// The nearest chunks to the query's vector: ranked by pgvector in the server when the store
/// has it, else a scan of the agent's chunks that have one, in goclaw. The same scores either
/// way (cosine similarity, negatives as 0), up to f32 rounding.
fn vector_hits(
    db: Db<'_>,
    owner: &Owner,
    embedder: &Embedder,
    query: &str,
    max: usize,
) -> Result<Vec<Hit>> {
    let query_vec = match embedder.embed(&[query.to_string()]) {
        Ok(mut v) if !v.is_empty() => v.remove(0),
        // The text side still answers when the embeddings endpoint is down.
        _ => return Ok(Vec::new()),
    };
    // A query pgvector cannot hold (too many dimensions, no length) is ranked in goclaw,
    // against the stored copies.
    let server = vectors::literal(&query_vec).filter(|_| vectors::in_server(db).unwrap_or(false));
    let mut hits = match server {
        Some(literal) => nearest_in_server(db, owner, &literal, query_vec.len(), max * 2)?,
        None => nearest_in_goclaw(db, owner, &query_vec)?,
    };
    hits.sort_by(|a, b| b.score.total_cmp(&a.score));
    hits.truncate(max * 2);
    normalise(&mut hits);
    Ok(hits)
}

/// pgvector's exact nearest chunks of the same dimension (`<=>`: cosine distance; NaN for a
/// vector of no length, scored 0 as goclaw scores it).
fn nearest_in_server(
    db: Db<'_>,
    owner: &Owner,
    literal: &str,
    dimensions: usize,
    limit: usize,
) -> Result<Vec<Hit>> {
    let rows: Vec<ChunkRow<f64>> = db.query_map(
        "SELECT d.path, c.start_line, c.end_line, c.text, d.user_id,
                CAST(v.embedding <=> q.v AS DOUBLE PRECISION) AS distance
         FROM memory_vectors v
         JOIN memory_chunks c ON c.id = v.chunk_id
         JOIN memory_docs d ON d.id = c.doc_id
         CROSS JOIN (SELECT CAST(CAST(?3 AS TEXT) AS vector) AS v) q
         WHERE d.agent = ?1 AND d.user_id IN (?2, '') AND vector_dims(v.embedding) = ?4
         ORDER BY v.embedding <=> q.v
         LIMIT ?5",
        db_params![owner.agent, owner.user, literal, dimensions, limit],
        chunk_row,
    )?;
    Ok(rows
        .into_iter()
        .map(|(path, start, end, text, user, distance)| {
            let score = if distance.is_nan() {
                0.0
            } else {
                (1.0 - distance).max(0.0)
            };
            hit(path, start, end, &text, &user, score)
        })
        .collect())
}

/// Every stored vector of the agent's chunks, scored in goclaw.
fn nearest_in_goclaw(db: Db<'_>, owner: &Owner, query: &[f32]) -> Result<Vec<Hit>> {
    let rows: Vec<ChunkRow<Vec<u8>>> = db.query_map(
        "SELECT d.path, c.start_line, c.end_line, c.text, d.user_id, c.embedding
         FROM memory_chunks c JOIN memory_docs d ON d.id = c.doc_id
         WHERE d.agent = ?1 AND d.user_id IN (?2, '') AND c.embedding IS NOT NULL",
        db_params![owner.agent, owner.user],
        chunk_row,
    )?;
    Ok(rows
        .into_iter()
        .map(|(path, start, end, text, user, blob)| {
            let score = embed::cosine(query, &vectors::from_blob(&blob)).max(0.0);
            hit(path, start, end, &text, &user, score)
        })
        .collect())
}

/// A chunk as the searches read it: path, first and last line, text, user, and the side's own
/// column (its embedding, or its rank).
type ChunkRow<T> = (String, i64, i64, String, String, T);

fn chunk_row<T: FromValue>(r: &Row) -> Result<ChunkRow<T>> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
    ))
}

/// Full-text hits: BM25 over FTS5 on SQLite, `ts_rank` over the chunks' `tsvector` on
/// PostgreSQL; the query's words are OR-ed either way.
fn text_hits(db: Db<'_>, owner: &Owner, query: &str, max: usize) -> Result<Vec<Hit>> {
    // Any of the query's first MAX_QUERY_WORDS different words may match.
    let words = crate::text::query_words(query, MAX_QUERY_WORDS);
    if words.is_empty() {
        return Ok(Vec::new());
    }
    let (sql, terms) = match db.dialect() {
        Dialect::Sqlite => (
            "SELECT d.path, c.start_line, c.end_line, c.text, d.user_id, -bm25(memory_fts) AS rank
             FROM memory_fts JOIN memory_chunks c ON c.id = memory_fts.rowid JOIN memory_docs d ON d.id = c.doc_id
             WHERE memory_fts MATCH ?1 AND d.agent = ?2 AND d.user_id IN (?3, '')
             ORDER BY rank DESC LIMIT ?4",
            Dialect::Sqlite.any_of_words(&words),
        ),
        Dialect::Postgres => (
            "SELECT d.path, c.start_line, c.end_line, c.text, d.user_id,
                    CAST(ts_rank(c.search, to_tsquery('simple', goclaw_fold(?1))) AS DOUBLE PRECISION) AS rank
             FROM memory_chunks c JOIN memory_docs d ON d.id = c.doc_id
             WHERE c.search @@ to_tsquery('simple', goclaw_fold(?1)) AND d.agent = ?2 AND d.user_id IN (?3, '')
             ORDER BY rank DESC, c.id LIMIT ?4",
            // Accents are folded, then the words lowercased, by the server (as the column's).
            Dialect::Postgres.any_of_words(&words),
        ),
    };
    let rows: Vec<ChunkRow<f64>> = db.query_map(
        sql,
        db_params![terms, owner.agent, owner.user, (max * 2) as i64],
        chunk_row,
    )?;
    let mut hits: Vec<Hit> = rows
        .into_iter()
        .map(|(path, start, end, text, user, rank)| hit(path, start, end, &text, &user, rank))
        .collect();
    normalise(&mut hits);
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_only_context_and_memory_names() {
        assert_eq!(route("SOUL.md"), Some(Routed::Context("SOUL.md")));
        assert_eq!(route("./USER.md"), Some(Routed::Context("USER.md")));
        assert_eq!(route("memory.md"), Some(Routed::Memory("MEMORY.md".into())));
        assert_eq!(
            route("memory/2026-11-22.md"),
            Some(Routed::Memory("memory/2026-11-22.md".into()))
        );
        assert_eq!(route("memory/../SOUL.md"), None);
        assert_eq!(route("memory/"), None);
        assert_eq!(route("docs/SOUL.md"), None);
        assert_eq!(route("soul.md"), None);
    }
}
