//! `goclaw db`: the store's path, schema, migrations, health, backups and read-only queries.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde::Serialize;

use super::input::Input;
use super::{Context, Status};
use crate::error::{Error, ErrorKind, Result};
use crate::store::{self, Migration, backup};

// Inspect and maintain the store (SQLite, created on first use, or PostgreSQL).
#[derive(Debug, Args)]
pub struct DbArgs {
    #[command(subcommand)]
    pub command: DbCommand,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum DbCommand {
    /// Print the store's path or URL, its password hidden (does not create it)
    Path,
    /// Print the schema: every table and index as SQL
    Schema,
    /// Apply pending migrations (every command does this on first use)
    Migrate,
    /// Check integrity and migration state, without changing anything; exit 1 when unhealthy
    Check,
    /// Copy the store to FILE with SQLite's online backup API (safe while others write)
    Backup {
        /// Where to write the backup
        file: PathBuf,
        /// Replace FILE if it exists
        #[arg(long)]
        force: bool,
    },
    /// Copy a SQLite store into an empty PostgreSQL one, every row, checked by row counts
    Copy {
        /// The SQLite store to copy (only read)
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        /// The PostgreSQL store to fill [default: the store, when it is PostgreSQL]
        #[arg(long, value_name = "URL")]
        to: Option<String>,
    },
    /// Run one read-only SQL statement; rows as JSON Lines (one object per row)
    Query {
        /// The statement: SQL text, @FILE, or - for stdin
        sql: String,
        /// A value for the next `?` placeholder (repeatable)
        #[arg(long = "param", value_name = "VALUE")]
        params: Vec<String>,
        /// How long the statement may run (exit 7 past it): 30, 90s, 1h30m, 500ms
        #[arg(long, default_value = "30s")]
        timeout: String,
        /// Bytes of values the result may hold (exit 4 past it)
        #[arg(long, default_value_t = 64 << 20)]
        max_bytes: u64,
    },
}

#[derive(Serialize)]
struct PathDoc<'a> {
    path: &'a std::path::Path,
    source: crate::config::Source,
    exists: bool,
}

#[derive(Serialize)]
struct MigrateDoc<'a> {
    path: &'a std::path::Path,
    schema_version: i64,
    applied: &'a [Migration],
    /// PostgreSQL only: where memory vectors are ranked.
    #[serde(skip_serializing_if = "Option::is_none")]
    vectors: Option<store::vectors::VectorSupport>,
}

#[derive(Serialize)]
struct CheckDoc<'a> {
    path: &'a std::path::Path,
    ok: bool,
    integrity: Vec<String>,
    /// What the schema lacks of what its migrations make (tables, columns, indexes,
    /// triggers, functions); empty when nothing.
    schema: Vec<String>,
    /// Its fields (`schema_version`, `pending`, …) at the top; absent for a store that could
    /// not be read.
    #[serde(flatten)]
    migrations: Option<store::MigrationState>,
}

pub fn run(ctx: &Context, args: DbArgs) -> Result<Status> {
    let settings = if matches!(args.command, DbCommand::Path) {
        ctx.settings_lenient("the path shown is the default, not a [store] path in it")?
    } else {
        ctx.settings()?
    };
    if let Some(target) = settings.pg_target() {
        return run_postgres(ctx, settings, &target, args.command);
    }
    let path = &settings.db_path;
    match args.command {
        DbCommand::Path => {
            // A directory, FIFO, device or socket is no store, as every other command says.
            store::refuse_not_a_file(path)?;
            let doc = PathDoc {
                path,
                source: settings.db_source,
                exists: path.exists(),
            };
            ctx.out.data(&doc, |w| writeln!(w, "{}", path.display()))?;
        }
        DbCommand::Schema => exec_schema(ctx)?,
        DbCommand::Migrate => exec_migrate(ctx, path)?,
        DbCommand::Check => return exec_check(ctx, path),
        DbCommand::Backup { file, force } => exec_backup(ctx, &file, force)?,
        DbCommand::Copy { from, to } => return exec_copy(ctx, settings, &from, to.as_deref()),
        DbCommand::Query {
            sql,
            params,
            timeout,
            max_bytes,
        } => {
            let time = super::shared::parse_duration(&timeout)?;
            if time.is_zero() {
                return Err(Error::usage("--timeout must be more than 0"));
            }
            let limits = store::QueryLimits { time, max_bytes };
            exec_query(ctx, path, &sql, &params, limits)?;
        }
    }
    Ok(Status::Ok)
}

/// `db copy`: the SQLite store `from` into the PostgreSQL store `to` (else the configured one).
fn exec_copy(
    ctx: &Context,
    settings: &crate::config::Settings,
    from: &Path,
    to: Option<&str>,
) -> Result<Status> {
    if store::location::is_url(&from.to_string_lossy()) {
        return Err(Error::usage(
            "db copy --from takes a SQLite store (a file): it copies one into PostgreSQL",
        )
        .with_hint("goclaw db copy --from goclaw.db --to postgres://USER@HOST/DATABASE"));
    }
    let target = match to {
        Some(url) => store::db::PgConnect {
            url: store::location::PgUrl::parse(url)?,
            password_env: settings.config.store.password_env.clone(),
            connect_timeout: settings.config.store.busy_timeout(),
        },
        None => settings.pg_target().ok_or_else(|| {
            Error::usage(
                "db copy fills a PostgreSQL store: give it with --to postgres://… (or --db)",
            )
        })?,
    };
    let pg = store::postgres::PgStore::connect(&target)?;
    let copied = store::copy::sqlite_to_postgres(from, &pg)?;
    let total: i64 = copied.iter().map(|c| c.rows).sum();
    let doc = serde_json::json!({
        "from": from, "to": target.url.to_string(), "rows": total, "tables": copied,
    });
    ctx.out.data(&doc, |w| {
        writeln!(
            w,
            "copied {total} rows in {} tables from {} to {}",
            copied.len(),
            from.display(),
            target.url
        )
    })?;
    Ok(Status::Ok)
}

/// `db schema`.
fn exec_schema(ctx: &Context) -> Result<()> {
    let store = ctx.store()?;
    let sql = match store.sqlite() {
        Some(sqlite) => sqlite.schema()?,
        None => {
            return Err(Error::internal(
                "db schema: the SQLite path opened another store",
            ));
        }
    };
    ctx.out.data(
        &serde_json::json!({ "schema_version": store::latest_version(), "statements": sql }),
        |w| {
            for s in &sql {
                writeln!(w, "{s};\n")?;
            }
            Ok(())
        },
    )
}

/// `db migrate`: opening the store applies what is pending; reports what it applied.
fn exec_migrate(ctx: &Context, path: &Path) -> Result<()> {
    let store = ctx.store()?;
    let doc = MigrateDoc {
        path,
        schema_version: store::latest_version(),
        applied: store.applied(),
        vectors: None,
    };
    ctx.out.data(&doc, |w| {
        if doc.applied.is_empty() {
            writeln!(
                w,
                "{}: up to date (schema version {})",
                path.display(),
                doc.schema_version
            )
        } else {
            for m in doc.applied {
                writeln!(w, "applied {:03}_{}", m.version, m.name)?;
            }
            writeln!(
                w,
                "{}: schema version {}",
                path.display(),
                doc.schema_version
            )
        }
    })
}

/// `db check`: integrity and migration state, read-only; exit 1 when unhealthy.
fn exec_check(ctx: &Context, path: &Path) -> Result<Status> {
    let opened = store::SqliteStore::open_read_only(path)
        .and_then(|conn| store::migration_state(&conn, path).map(|m| (conn, m)));
    let (conn, migrations) = match opened {
        Ok(both) => both,
        // No store is exit 5, one another process keeps locked exit 7, a path that is no
        // file exit 2; any other store that cannot be read (not a database, a malformed image)
        // is an unhealthy one: the report says why, exit 1.
        Err(e) if matches!(e.kind, ErrorKind::NotFound | ErrorKind::Timeout) => return Err(e),
        Err(e) if store::not_a_file(path).is_some() => return Err(e),
        Err(e) => {
            let doc = CheckDoc {
                path,
                ok: false,
                integrity: vec![e.message],
                schema: Vec::new(),
                migrations: None,
            };
            ctx.out
                .data(&doc, |w| writeln!(w, "integrity: {}", doc.integrity[0]))?;
            ctx.out
                .failure_line(&format!("the store is unhealthy: {}", doc.integrity[0]));
            return Ok(Status::Exit(ErrorKind::Failed));
        }
    };
    if migrations.schema_version > migrations.binary_version {
        return Err(Error::usage(format!(
            "store {} has schema version {}, newer than this goclaw understands (version {})",
            path.display(),
            migrations.schema_version,
            migrations.binary_version
        ))
        .with_hint("upgrade goclaw"));
    }
    let integrity = store::integrity_check(&conn, path)?;
    // Compared once it is at this goclaw's version: a store behind it is reported by its
    // pending migrations, which the next command that writes applies.
    let schema = match migrations.pending.is_empty() && migrations.schema_version > 0 {
        true => store::schema_problems(&conn, migrations.schema_version)?,
        false => Vec::new(),
    };
    print_check(ctx, path, (integrity, schema), migrations)
}

/// `db check`'s report, for either backend; exit 1 when the store is unhealthy.
fn print_check(
    ctx: &Context,
    path: &Path,
    (integrity, schema): (Vec<String>, Vec<String>),
    migrations: store::MigrationState,
) -> Result<Status> {
    // A database goclaw never migrated is no store of goclaw's (an empty file, another
    // program's database): exit 5, as the README says, not an unhealthy store.
    if migrations.schema_version == 0 {
        return Err(Error::not_found(format!(
            "{} holds no goclaw store: no migration of goclaw's was ever applied to it",
            path.display()
        ))
        .with_hint(
            "an empty file becomes a store at the first goclaw command with `--db` naming it (or `goclaw db migrate`); another program's database is left alone: name another path",
        ));
    }
    let ok = integrity == ["ok"] && schema.is_empty() && migrations.pending.is_empty();
    let doc = CheckDoc {
        path,
        ok,
        integrity,
        schema,
        migrations: Some(migrations),
    };
    ctx.out.data(&doc, |w| {
        writeln!(w, "integrity: {}", doc.integrity.join("; "))?;
        for problem in &doc.schema {
            writeln!(w, "schema: {problem}")?;
        }
        let Some(m) = &doc.migrations else {
            return Ok(());
        };
        writeln!(
            w,
            "schema version: {} (this goclaw: {})",
            m.schema_version, m.binary_version
        )?;
        for m in &m.pending {
            writeln!(
                w,
                "pending: {:03}_{} (run `goclaw db migrate`)",
                m.version, m.name
            )?;
        }
        Ok(())
    })?;
    if !ok {
        let why = match (
            &doc.integrity[..],
            doc.schema.first(),
            doc.migrations.as_ref(),
        ) {
            (i, _, _) if i != ["ok"] => format!("integrity: {}", i.join("; ")),
            (_, Some(problem), _) => {
                format!("{problem} ({} schema problem(s) in all)", doc.schema.len())
            }
            (_, None, Some(m)) => format!("{} migration(s) pending", m.pending.len()),
            _ => "see the report".to_string(),
        };
        ctx.out.failure_line(&format!(
            "the store is unhealthy: {}",
            crate::text::printable::one_line(&why)
        ));
        return Ok(Status::Exit(ErrorKind::Failed));
    }
    Ok(Status::Ok)
}

/// `db backup`.
fn exec_backup(ctx: &Context, file: &Path, force: bool) -> Result<()> {
    let store = ctx.store()?;
    let bar = ctx.out.progress(None, "backing up the store");
    let busy = ctx.settings()?.config.store.busy_timeout();
    let result = backup::backup(&store, file, (force, busy));
    bar.finish_and_clear();
    let report = result?;
    if report.replaced_store {
        ctx.out.warn(&format!(
            "{} could not be written into (torn, or of another page size): it was replaced, its -wal and -shm removed; a goclaw process that had it open must be started again",
            report.path.display()
        ));
    }
    ctx.out.data(&report, |w| {
        writeln!(
            w,
            "backed up {} to {} ({} pages, {} bytes)",
            report.source.display(),
            report.path.display(),
            report.pages,
            report.bytes
        )
    })
}

/// `db query`: one read-only statement (`sql` as given: text, @FILE or -), its rows streamed
/// as JSON Lines, or a table for people.
fn exec_query(
    ctx: &Context,
    path: &Path,
    sql: &str,
    params: &[String],
    limits: store::QueryLimits,
) -> Result<()> {
    // The default store is made on first use, as by any command; a store named by --db or the
    // config that is not there is a mistyped path, which a read-only statement does not create.
    if path.exists() || ctx.settings()?.db_source == crate::config::Source::Default {
        ctx.store()?;
    }
    let conn = store::SqliteStore::open_read_only(path)?;
    print_query(ctx, sql, |sql, row| {
        store::query_json(&conn, path, sql, params, limits, row)
    })
}

/// A row of `db query`: column name → value.
type QueryRow = serde_json::Map<String, serde_json::Value>;

/// Reads the statement (text, @FILE or -), runs it with `query`, and prints its rows: JSON
/// Lines as they come, or a table for people once all are in.
fn print_query(
    ctx: &Context,
    sql: &str,
    query: impl FnOnce(&str, &mut dyn FnMut(QueryRow) -> Result<()>) -> Result<Vec<String>>,
) -> Result<()> {
    let sql = String::from_utf8(Input::parse(Some(sql)).read(ctx)?)
        .map_err(|_| Error::usage("the SQL is not valid UTF-8"))?;
    let json = ctx.out.is_json();
    let mut w = ctx.out.stream();
    let mut rows: Vec<QueryRow> = Vec::new();
    let columns = query(&sql, &mut |row| {
        if json {
            // A row of values always encodes: written straight into the stream, not copied
            // whole first as a document is (`output::write_json`).
            serde_json::to_writer(&mut w, &row).map_err(|e| Error::stdout(e.into()))?;
            w.write_all(b"\n").map_err(Error::stdout)
        } else {
            rows.push(row);
            Ok(())
        }
    })?;
    if !json {
        human_table(&mut w, &columns, &rows).map_err(Error::stdout)?;
    }
    w.flush().map_err(Error::stdout)
}

/// Rows as an aligned table for people.
fn human_table(
    w: &mut dyn Write,
    columns: &[String],
    rows: &[serde_json::Map<String, serde_json::Value>],
) -> std::io::Result<()> {
    let cell = |v: Option<&serde_json::Value>| match v {
        Some(serde_json::Value::String(s)) => s.replace('\n', "\\n"),
        Some(serde_json::Value::Null) | None => "NULL".into(),
        Some(other) => other.to_string(),
    };
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| columns.iter().map(|c| cell(r.get(c))).collect())
        .collect();
    let widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            table
                .iter()
                .map(|r| r[i].chars().count())
                .chain([c.chars().count()])
                .max()
                .unwrap_or(0)
                .min(60)
        })
        .collect();
    let line = |cells: &[String]| {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, wd)| format!("{c:<wd$}"))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    writeln!(w, "{}", line(columns))?;
    for r in &table {
        writeln!(w, "{}", line(r))?;
    }
    writeln!(
        w,
        "({} row{})",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    )
}

/// `goclaw db` on a PostgreSQL store: the same documents, `path` holding the URL without its
/// password. `backup` is `pg_dump`'s work.
fn run_postgres(
    ctx: &Context,
    settings: &crate::config::Settings,
    target: &store::db::PgConnect,
    command: DbCommand,
) -> Result<Status> {
    use store::postgres::PgStore;
    let shown = target.url.to_string();
    let source = settings.db_source;
    match command {
        DbCommand::Copy { from, to } => return exec_copy(ctx, settings, &from, to.as_deref()),
        DbCommand::Path => {
            // `null` when the server could not be asked (the path is still shown): a store it
            // cannot reach is not one that does not exist. A server that answers that there is
            // no such database did tell.
            let exists = match PgStore::connect(target).and_then(|pg| pg.version()) {
                Ok(v) => Some(v > 0),
                Err(e) if e.kind == crate::error::ErrorKind::NotFound => Some(false),
                Err(e) => {
                    ctx.out.warn(&format!(
                        "cannot tell whether the store exists: {}",
                        e.message
                    ));
                    None
                }
            };
            let doc = serde_json::json!({ "path": shown, "source": source, "exists": exists });
            ctx.out.data(&doc, |w| writeln!(w, "{shown}"))?;
        }
        DbCommand::Schema => {
            let pg = PgStore::open(target)?;
            let sql = pg.schema()?;
            ctx.out.data(
                &serde_json::json!({ "schema_version": store::latest_version(), "statements": sql }),
                |w| sql.iter().try_for_each(|s| writeln!(w, "{s};\n")),
            )?;
        }
        DbCommand::Migrate => {
            let pg = PgStore::connect(target)?;
            let applied = pg.migrate()?;
            let vectors = pg.take_up_vectors()?;
            let doc = MigrateDoc {
                path: std::path::Path::new(&shown),
                schema_version: store::latest_version(),
                applied: &applied,
                vectors: Some(vectors),
            };
            ctx.out.data(&doc, |w| {
                for m in doc.applied {
                    writeln!(w, "applied {:03}_{}", m.version, m.name)?;
                }
                writeln!(w, "{shown}: schema version {}", doc.schema_version)?;
                if let Some(v) = &doc.vectors {
                    writeln!(w, "{v}")?;
                }
                Ok(())
            })?;
        }
        DbCommand::Check => {
            let pg = PgStore::connect(target)?;
            let migrations = pg.migration_state()?;
            if migrations.schema_version == 0 {
                // A database goclaw never migrated holds no store, as a missing file does not.
                return Err(Error::not_found(format!("no store in {shown}")).with_hint(
                    "any goclaw command that uses the store creates it, e.g. `goclaw db migrate`",
                ));
            }
            // Compared once it is at this goclaw's version, as on SQLite.
            let (problems, note) = match migrations.pending.is_empty() {
                true => pg.check()?,
                false => (Vec::new(), None),
            };
            if let Some(note) = note {
                ctx.out.warn(&note);
            }
            return print_check(
                ctx,
                Path::new(&shown),
                (vec!["ok".to_string()], problems),
                migrations,
            );
        }
        DbCommand::Backup { .. } => {
            return Err(Error::usage(
                "db backup copies a SQLite store; a PostgreSQL store is backed up by the server's tools",
            )
            .with_hint(format!("pg_dump --format=custom --file=goclaw.dump '{shown}' (with the password in PGPASSWORD)")));
        }
        DbCommand::Query {
            sql,
            params,
            timeout,
            max_bytes,
        } => pg_query(ctx, target, &sql, &params, &timeout, max_bytes)?,
    }
    Ok(Status::Ok)
}

/// `db query` on PostgreSQL.
fn pg_query(
    ctx: &Context,
    target: &store::db::PgConnect,
    sql: &str,
    params: &[String],
    timeout: &str,
    max_bytes: u64,
) -> Result<()> {
    let time = super::shared::parse_duration(timeout)?;
    if time.is_zero() {
        return Err(Error::usage("--timeout must be more than 0"));
    }
    super::shared::deadline_guard(ctx, time, "db query");
    let pg = store::postgres::PgStore::open(target)?;
    print_query(ctx, sql, |sql, row| {
        pg.query_json(sql, params, time, max_bytes, row)
    })
}
