//! A store of either backend, opened for a command whose code runs on the database layer.

use super::db::Db;
use super::postgres::PgStore;
use super::{Migration, Store};
use crate::error::{Error, Result};

/// A store of either backend, for the commands whose code runs on the database layer
/// ([`db::Db`]): the board, teams. The others open the SQLite [`Store`] and refuse a
/// PostgreSQL one until their modules are on the layer too.
pub enum Opened {
    Sqlite(Store),
    Postgres(Box<PgStore>),
}

impl Opened {
    pub fn db(&self) -> Db<'_> {
        match self {
            Opened::Sqlite(s) => s.db(),
            Opened::Postgres(p) => p.db(),
        }
    }

    /// The SQLite store, for a part of a command not on the database layer yet.
    pub fn sqlite(&self) -> Result<&Store> {
        match self {
            Opened::Sqlite(s) => Ok(s),
            Opened::Postgres(p) => Err(Error::usage(format!(
                "this does not run on a PostgreSQL store yet (the store is {})",
                p.target.url
            ))
            .with_hint("`goclaw db`, `goclaw team` (but `run` and `work`) and `goclaw tasks` (but `do`) do")),
        }
    }

    /// Migrations this open applied.
    pub fn applied(&self) -> &[Migration] {
        match self {
            Opened::Sqlite(s) => &s.applied,
            Opened::Postgres(p) => &p.applied,
        }
    }
}
