//! [`Store`]: an open store of either backend, SQLite (the embedded default) or PostgreSQL,
//! and [`StoreTarget`], where a store is, so a thread or a child process can open it again.
//! Domain code reaches the connection through [`Store::db`] (the database layer); code not on
//! that layer yet takes the SQLite connection through [`Store::conn`], which a PostgreSQL store
//! refuses (exit 2), so such a command fails before it changes anything.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::Connection;

use super::Migration;
use super::db::{Db, PgConnect};
use super::postgres::PgStore;
use super::sqlite::SqliteStore;
use crate::error::{Error, Result};

/// An open, migrated store.
pub struct Store {
    backend: Backend,
    /// Where it is, as people read it: the file, or the URL without its password.
    location: PathBuf,
}

enum Backend {
    Sqlite(SqliteStore),
    Postgres(Box<PgStore>),
}

/// Where a store is: enough to open it again from another thread or process.
#[derive(Debug, Clone)]
pub enum StoreTarget {
    Sqlite {
        path: PathBuf,
        busy_timeout: Duration,
    },
    Postgres(PgConnect),
}

impl StoreTarget {
    /// Opens the store (creating and migrating as needed).
    pub fn open(&self) -> Result<Store> {
        match self {
            StoreTarget::Sqlite { path, busy_timeout } => Store::open(path, *busy_timeout),
            StoreTarget::Postgres(target) => Ok(Store::from_postgres(PgStore::open(target)?)),
        }
    }

    /// Where it is, as people read it (a URL without its password).
    pub fn location(&self) -> String {
        match self {
            StoreTarget::Sqlite { path, .. } => path.display().to_string(),
            StoreTarget::Postgres(t) => t.url.to_string(),
        }
    }

    /// The SQLite file, when the store is one.
    pub fn sqlite_path(&self) -> Option<&Path> {
        match self {
            StoreTarget::Sqlite { path, .. } => Some(path),
            StoreTarget::Postgres(_) => None,
        }
    }
}

impl Store {
    /// Opens the SQLite store at `path`, creating it (0600, directory 0700) and applying
    /// pending migrations as needed.
    pub fn open(path: &Path, busy_timeout: Duration) -> Result<Store> {
        Ok(Store {
            backend: Backend::Sqlite(SqliteStore::open(path, busy_timeout)?),
            location: path.to_path_buf(),
        })
    }

    /// A PostgreSQL store already open.
    pub fn from_postgres(pg: PgStore) -> Store {
        Store {
            location: PathBuf::from(pg.target.url.to_string()),
            backend: Backend::Postgres(Box::new(pg)),
        }
    }

    /// The connection, for code on the database layer (either backend).
    pub fn db(&self) -> Db<'_> {
        match &self.backend {
            Backend::Sqlite(s) => s.db(),
            Backend::Postgres(p) => p.db(),
        }
    }

    /// Connects again after [`Db::connection_lost`] (PostgreSQL); nothing on SQLite.
    pub fn reconnect(&self) -> Result<()> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(()),
            Backend::Postgres(p) => p.reconnect(),
        }
    }

    /// Where the store is: its file, or its URL without the password (for messages).
    pub fn path(&self) -> &Path {
        &self.location
    }

    /// Migrations this open applied.
    pub fn applied(&self) -> &[Migration] {
        match &self.backend {
            Backend::Sqlite(s) => &s.applied,
            Backend::Postgres(p) => &p.applied,
        }
    }

    /// Ends a one-shot command's use of the store, leaving a SQLite connection to the
    /// process's exit (see [`SqliteStore::release_at_exit`]); a PostgreSQL one says goodbye to
    /// its server as at any drop.
    pub fn release_at_exit(self) {
        match self.backend {
            Backend::Sqlite(s) => s.release_at_exit(),
            Backend::Postgres(p) => drop(p),
        }
    }

    /// The SQLite store, when it is one.
    pub fn sqlite(&self) -> Option<&SqliteStore> {
        match &self.backend {
            Backend::Sqlite(s) => Some(s),
            Backend::Postgres(_) => None,
        }
    }

    /// The PostgreSQL store, when it is one.
    pub fn postgres(&self) -> Option<&PgStore> {
        match &self.backend {
            Backend::Sqlite(_) => None,
            Backend::Postgres(p) => Some(p),
        }
    }

    /// The SQLite connection, for code not on the database layer yet; a PostgreSQL store
    /// refuses it (exit 2).
    pub fn conn(&self) -> Result<&Connection> {
        match &self.backend {
            Backend::Sqlite(s) => Ok(s.conn()),
            Backend::Postgres(_) => Err(self.not_yet()),
        }
    }

    /// [`Store::conn`], mutable (for rusqlite's transactions).
    pub fn conn_mut(&mut self) -> Result<&mut Connection> {
        let refused = self.not_yet();
        match &mut self.backend {
            Backend::Sqlite(s) => Ok(s.conn_mut()),
            Backend::Postgres(_) => Err(refused),
        }
    }

    fn not_yet(&self) -> Error {
        Error::usage("this part of goclaw does not run on a PostgreSQL store yet")
            .with_hint("use a SQLite store (--db PATH) for it")
    }
}
