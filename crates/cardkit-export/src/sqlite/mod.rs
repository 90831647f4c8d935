//! SQLite, the embedded store. A new database is written in SQLite's file
//! format directly ([`fresh`]), under a hidden temporary name beside its
//! path, and renamed into place once whole: a run that fails (or is
//! killed) leaves nothing under the name. Into an existing database a run
//! writes through SQLite's library, in one WAL transaction with prepared
//! statements, so that readers keep seeing the builds already there until
//! it commits.

mod format;
mod fresh;
mod keys;
mod sql;

use std::path::{Path, PathBuf};

use rusqlite::types::{ToSqlOutput, Value as SqlValue, ValueRef};
use rusqlite::{params_from_iter, Connection};
use tempfile::TempPath;

use crate::layout::layout;
use crate::rows::{Cell, TableRows};
use crate::{date_text, Error, Store};

pub use sql::quoted;
use sql::sql_type;
pub(crate) use sql::{create_indexes, create_table, drop_indexes, layout_mismatch};

/// Opens an export into the database at `path`: a new one if there is
/// none, else the one there.
///
/// # Errors
/// The file cannot be made, or cannot be opened as a database, or holds
/// tables of another layout.
pub fn open(path: &Path, build: Option<&str>) -> Result<Box<dyn Store>, Error> {
    if path.exists() {
        Ok(Box::new(Sqlite::open(path, build)?))
    } else {
        Ok(Box::new(fresh::Fresh::create(path, build)?))
    }
}

/// A hidden temporary file beside `path` (`.NAME.XXXXXX.incomplete`), with
/// the mode of any file the user makes: the database is kept.
fn temporary_beside(path: &Path) -> std::io::Result<TempPath> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".incomplete");
    // 0666 less the umask, not the 0600 of a temporary file.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    Ok(builder.tempfile_in(folder_of(path))?.into_temp_path())
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// An export into an existing SQLite database file.
pub struct Sqlite {
    connection: Connection,
    path: PathBuf,
    build: Option<String>,
}

impl Sqlite {
    /// Opens the database at `path` and starts the run's transaction: the
    /// tables are made if missing, checked against the layout if present,
    /// and the rows of the same build are deleted.
    ///
    /// # Errors
    /// The file cannot be opened as a database, or holds tables of another
    /// layout.
    pub fn open(path: &Path, build: Option<&str>) -> Result<Sqlite, Error> {
        let at = |e: &dyn std::fmt::Display| Error::new(format!("sqlite:{}: {e}", path.display()));
        let connection = Connection::open(path).map_err(|e| at(&e))?;
        let store = Sqlite {
            connection,
            path: path.to_path_buf(),
            build: build.map(str::to_owned),
        };
        match store.start() {
            Ok(()) => Ok(store),
            Err(error) => {
                Box::new(store).abort();
                Err(error)
            }
        }
    }

    fn start(&self) -> Result<(), Error> {
        let at = |e: rusqlite::Error| Error::new(format!("sqlite:{}: {e}", self.path.display()));
        let c = &self.connection;
        c.pragma_update(None, "journal_mode", "WAL").map_err(at)?;
        c.pragma_update(None, "synchronous", "NORMAL").map_err(at)?;
        // Pages of the run's one transaction stay in memory longer before
        // they are written out (32 MiB).
        c.pragma_update(None, "cache_size", -32768).map_err(at)?;
        // The indexes, made at the end, are sorted on two threads (see
        // `commit`).
        c.pragma_update(None, "threads", 2).map_err(at)?;
        c.execute_batch("BEGIN IMMEDIATE").map_err(at)?;
        for table in &layout().tables {
            c.execute_batch(&create_table(table, sql_type))
                .map_err(at)?;
            let mut info = c
                .prepare(&format!("PRAGMA table_info({})", quoted(&table.name)))
                .map_err(at)?;
            let found: Vec<(String, String)> = info
                .query_map([], |row| Ok((row.get(1)?, row.get(2)?)))
                .map_err(at)?
                .collect::<Result<_, _>>()
                .map_err(at)?;
            if let Some(why) = layout_mismatch(table, &found, sql_type) {
                return Err(Error::new(format!("sqlite:{}: {why}", self.path.display())));
            }
            for drop in drop_indexes(table) {
                c.execute_batch(&drop).map_err(at)?;
            }
            // A table that holds nothing but this build is emptied whole,
            // which SQLite does without visiting each row.
            let name = quoted(&table.name);
            let others: bool = c
                .query_row(
                    &format!("SELECT EXISTS (SELECT 1 FROM {name} WHERE build IS NOT ?1)"),
                    [&self.build],
                    |row| row.get(0),
                )
                .map_err(at)?;
            if others {
                c.execute(
                    &format!("DELETE FROM {name} WHERE build IS ?1"),
                    [&self.build],
                )
                .map_err(at)?;
            } else {
                c.execute_batch(&format!("DELETE FROM {name}"))
                    .map_err(at)?;
            }
        }
        Ok(())
    }
}

/// A cell as SQLite stores it: lists of strings as JSON text.
fn to_sql<'a>(cell: &Cell, rows: &'a TableRows) -> ToSqlOutput<'a> {
    ToSqlOutput::Owned(match *cell {
        Cell::Null => SqlValue::Null,
        Cell::Text(span) => {
            return ToSqlOutput::Borrowed(ValueRef::Text(rows.text(span).as_bytes()));
        }
        Cell::Integer(n) => SqlValue::Integer(n),
        Cell::Real(x) => SqlValue::Real(x),
        Cell::Boolean(b) => SqlValue::Integer(i64::from(b)),
        Cell::Date(days) => SqlValue::Text(date_text(days)),
        Cell::TextList(span) => SqlValue::Text(
            serde_json::to_string(&rows.items(span).collect::<Vec<_>>()).unwrap_or_default(),
        ),
    })
}

impl Store for Sqlite {
    fn write(&mut self, table: usize, rows: &TableRows) -> Result<(), Error> {
        let table = &layout().tables[table];
        let at = |e: rusqlite::Error| {
            Error::new(format!(
                "sqlite:{}: table {}: {e}",
                self.path.display(),
                table.name
            ))
        };
        let marks = vec!["?"; table.columns.len()].join(", ");
        let sql = format!("INSERT INTO {} VALUES ({marks})", quoted(&table.name));
        let mut statement = self.connection.prepare_cached(&sql).map_err(at)?;
        let build = match &self.build {
            Some(build) => ToSqlOutput::Borrowed(ValueRef::Text(build.as_bytes())),
            None => ToSqlOutput::Owned(SqlValue::Null),
        };
        for row in rows.rows() {
            let values = std::iter::once(build.clone())
                .chain(row[1..].iter().map(|cell| to_sql(cell, rows)));
            statement.execute(params_from_iter(values)).map_err(at)?;
        }
        Ok(())
    }

    fn commit(self: Box<Self>) -> Result<(), Error> {
        let at =
            |e: &dyn std::fmt::Display| Error::new(format!("sqlite:{}: {e}", self.path.display()));
        let c = &self.connection;
        // SQLite sorts an index in runs of at most the page cache's size,
        // each on a thread of its own while the next is read: with a small
        // cache there are several runs, and both threads have work.
        c.pragma_update(None, "cache_size", -4096)
            .map_err(|e| at(&e))?;
        for table in &layout().tables {
            for index in create_indexes(table) {
                c.execute_batch(&index).map_err(|e| at(&e))?;
            }
        }
        c.execute_batch("COMMIT").map_err(|e| at(&e))?;
        c.pragma_update(None, "wal_checkpoint", "TRUNCATE")
            .map_err(|e| at(&e))?;
        self.connection.close().map_err(|(_, e)| at(&e))
    }

    fn abort(self: Box<Self>) {
        let _ = self.connection.execute_batch("ROLLBACK");
        let _ = self.connection.close();
    }
}
