//! Memory chunks' embeddings as the store keeps them: little-endian f32s in
//! `memory_chunks.embedding` on both backends (the portable copy, which `db copy` and backups
//! carry) and, on a PostgreSQL server that has the pgvector extension, also as `vector` values
//! in `memory_vectors`, so the server ranks a search (`<=>`, cosine distance) and sends back
//! only the nearest chunks.
//!
//! pgvector is taken up when the store is created or migrated (`goclaw db migrate`, also when
//! nothing else is pending): an installed extension is used; one the server offers but the
//! database lacks is created when the store's user may (a superuser: pgvector is not a trusted
//! extension); otherwise the store goes on without it, and memory search ranks in goclaw. After
//! installing pgvector later, `goclaw db migrate` creates `memory_vectors` and fills it from the
//! stored embeddings. The vectors have no fixed dimension (each model's own), so the ranking is
//! an exact scan of the agent's chunks in the server, not an approximate index.

use serde::Serialize;

use super::db::{Db, Dialect};
use crate::db_params;
use crate::error::Result;

/// The table of pgvector's copy of the embeddings (`db schema` shows it where it exists).
pub const TABLE_DDL: &str = "CREATE TABLE IF NOT EXISTS memory_vectors (
    chunk_id BIGINT PRIMARY KEY REFERENCES memory_chunks (id) ON DELETE CASCADE,
    embedding vector NOT NULL
)";

/// A vector as stored in `memory_chunks.embedding` (little-endian f32s).
pub fn to_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A stored vector (a trailing partial value is ignored).
pub fn from_blob(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The most dimensions pgvector's `vector` holds.
pub const MAX_DIMENSIONS: usize = 16_000;

/// pgvector's text form of the vector scaled to length 1, `[0.6,-0.8]`: cosine similarity does
/// not change with length, and pgvector sums in 32-bit floats, which a very long or very short
/// vector would overflow or underflow. `None` for what it cannot hold (no dimension, more than
/// [`MAX_DIMENSIONS`], NaN, an infinity, no length), which is left to the ranking in goclaw.
pub fn literal(v: &[f32]) -> Option<String> {
    if v.is_empty() || v.len() > MAX_DIMENSIONS || v.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let norm = v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    if !(norm.is_finite() && norm > 0.0) {
        return None;
    }
    let parts: Vec<String> = v
        .iter()
        .map(|x| ((f64::from(*x) / norm) as f32).to_string())
        .collect();
    Some(format!("[{}]", parts.join(",")))
}

/// Whether this store ranks vectors in the server: `memory_vectors` exists with its
/// `embedding` column (dropping the extension drops the column and leaves the table: then the
/// ranking is goclaw's again, and `db migrate` rebuilds the table).
pub fn in_server(db: Db<'_>) -> Result<bool> {
    if db.dialect() == Dialect::Sqlite {
        return Ok(false);
    }
    db.query_row(
        "SELECT EXISTS (SELECT 1 FROM pg_attribute
                        WHERE attrelid = to_regclass('memory_vectors') AND attname = 'embedding'
                          AND NOT attisdropped)",
        db_params![],
        |r| r.get(0),
    )
}

/// Keeps a chunk's vector for the server's ranking (when it can hold it).
pub fn keep(db: Db<'_>, chunk_id: i64, v: &[f32]) -> Result<()> {
    if let Some(text) = literal(v) {
        db.execute(
            "INSERT INTO memory_vectors (chunk_id, embedding) VALUES (?1, CAST(CAST(?2 AS TEXT) AS vector))
             ON CONFLICT (chunk_id) DO UPDATE SET embedding = excluded.embedding",
            db_params![chunk_id, text],
        )?;
    }
    Ok(())
}

/// What the store does with vectors, as `db migrate` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "ranking", rename_all = "snake_case")]
pub enum VectorSupport {
    /// Ranked in goclaw (SQLite, or a server without pgvector).
    Goclaw { reason: String },
    /// Ranked in the server by pgvector.
    Pgvector {
        version: String,
        /// Stored embeddings copied into `memory_vectors` by this call.
        filled: u64,
    },
}

impl std::fmt::Display for VectorSupport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VectorSupport::Goclaw { reason } => {
                write!(f, "memory vectors ranked in goclaw ({reason})")
            }
            VectorSupport::Pgvector { version, filled } => {
                write!(
                    f,
                    "memory vectors ranked in the server by pgvector {version}"
                )?;
                if *filled > 0 {
                    write!(f, " ({filled} stored embedding(s) copied in)")?;
                }
                Ok(())
            }
        }
    }
}

/// Takes pgvector up where the server has it (see the module's notes), inside the caller's
/// transaction, which holds the migration lock. All of it runs under a savepoint: whatever
/// fails (a user who may not create the extension, an extension installed in a schema off the
/// search path) leaves the transaction as it was, and the store ranks in goclaw, saying why.
pub fn take_up(db: Db<'_>) -> Result<VectorSupport> {
    if db.dialect() == Dialect::Sqlite {
        return Ok(VectorSupport::Goclaw {
            reason: "SQLite".into(),
        });
    }
    db.execute_batch("SAVEPOINT goclaw_vectors")?;
    match try_take_up(db) {
        Ok(support) => {
            db.execute_batch("RELEASE SAVEPOINT goclaw_vectors")?;
            Ok(support)
        }
        Err(e) => {
            db.execute_batch("ROLLBACK TO SAVEPOINT goclaw_vectors")?;
            Ok(VectorSupport::Goclaw {
                reason: format!(
                    "pgvector could not be taken up: {}",
                    e.message.trim_start_matches("store: ")
                ),
            })
        }
    }
}

fn try_take_up(db: Db<'_>) -> Result<VectorSupport> {
    let installed = |db: Db<'_>| -> Result<Option<String>> {
        db.query_opt(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'",
            db_params![],
            |r| r.get(0),
        )
    };
    let version = match installed(db)? {
        Some(v) => v,
        None => {
            let offered = db
                .query_opt(
                    "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'",
                    db_params![],
                    |_| Ok(()),
                )?
                .is_some();
            if !offered {
                return Ok(VectorSupport::Goclaw {
                    reason: "the server has no pgvector".into(),
                });
            }
            db.execute_batch("SAVEPOINT goclaw_vector")?;
            match db.execute_batch("CREATE EXTENSION IF NOT EXISTS vector") {
                Ok(()) => db.execute_batch("RELEASE SAVEPOINT goclaw_vector")?,
                Err(e) => {
                    db.execute_batch("ROLLBACK TO SAVEPOINT goclaw_vector")?;
                    return Ok(VectorSupport::Goclaw {
                        reason: format!(
                            "the server offers pgvector, but this user cannot create it: {} (a superuser can: CREATE EXTENSION vector; then run `goclaw db migrate`)",
                            e.message.trim_start_matches("store: ")
                        ),
                    });
                }
            }
            installed(db)?.unwrap_or_default()
        }
    };
    // A table left without its column (the extension was dropped) is rebuilt.
    if !in_server(db)? {
        db.execute_batch("DROP TABLE IF EXISTS memory_vectors")?;
    }
    db.execute_batch(TABLE_DDL)?;
    let filled = fill(db)?;
    Ok(VectorSupport::Pgvector { version, filled })
}

/// Copies the stored embeddings that `memory_vectors` lacks into it (after pgvector came, or
/// after `db copy`); returns how many.
pub fn fill(db: Db<'_>) -> Result<u64> {
    let missing: Vec<(i64, Vec<u8>)> = db.query_map(
        "SELECT c.id, c.embedding FROM memory_chunks c
         WHERE c.embedding IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.chunk_id = c.id)",
        db_params![],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut filled = 0;
    for (id, blob) in missing {
        let v = from_blob(&blob);
        if literal(&v).is_some() {
            keep(db, id, &v)?;
            filled += 1;
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_and_print_as_pgvector_reads_them() {
        let v = vec![0.5f32, -1.25, 3.0];
        assert_eq!(from_blob(&to_blob(&v)), v);
        assert_eq!(literal(&[3.0, -4.0]).unwrap(), "[0.6,-0.8]");
        assert_eq!(literal(&[]), None);
        assert_eq!(literal(&[0.0, 0.0]), None);
        assert_eq!(literal(&[1.0, f32::NAN]), None);
        assert_eq!(literal(&[f32::INFINITY]), None);
        assert_eq!(literal(&vec![1.0; MAX_DIMENSIONS + 1]), None);
        assert!(literal(&vec![1.0; MAX_DIMENSIONS]).is_some());
        // Very long and very short vectors are scaled to length 1.
        for v in [[3e30f32, 4e30], [3e-30, 4e-30]] {
            let text = literal(&v).unwrap();
            let back: Vec<f32> = text
                .trim_matches(['[', ']'])
                .split(',')
                .map(|x| x.parse().unwrap())
                .collect();
            assert!(
                (back[0] - 0.6).abs() < 1e-6 && (back[1] - 0.8).abs() < 1e-6,
                "{text}"
            );
        }
    }
}
