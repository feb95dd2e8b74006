//! A store of either backend, opened for a command whose code runs on the database layer.

use super::Store;
use super::db::Db;
use super::postgres::PgStore;

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
}
