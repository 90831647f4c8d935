//! SQLite, the embedded store, written through SQLite's library.
//!
//! A new database is built under a hidden temporary name beside its path
//! (`.NAME.XXXXXX.incomplete`), tuned for one writer that nobody reads
//! meanwhile: no journal and no syncs during the build, a large page cache,
//! one transaction of prepared inserts, the indexes made once the rows are
//! in (sorted on two threads). Once whole it is switched to WAL, synced,
//! renamed into place and its folder synced: a run that fails (or is
//! killed) leaves nothing under the name.
//!
//! Into an existing database a run writes in one WAL transaction, so that
//! readers keep seeing what is there until it commits. It adds to what is
//! there ([`crate::keys`]): a set exported again replaces that set, other
//! sets are kept; `--replace` empties the build first.
//!
//! Either way the file says what it is: `PRAGMA application_id` is
//! [`APPLICATION_ID`] and `PRAGMA user_version` the layout's version.

mod removal;
mod temporary;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rusqlite::types::{ToSqlOutput, Value as SqlValue, ValueRef};
use rusqlite::{params_from_iter, Connection};

use crate::keys::{keys, text, Changes, Dialect, Known, Removal};
use crate::layout::{layout, LAYOUT_VERSION};
use crate::rows::{Cell, Rows, TableRows};
use crate::stale::folder_of;
use crate::{date_text, Error, Mode, Store};

pub use crate::sql::quoted;
use crate::sql::{create_indexes, create_table, drop_indexes, layout_mismatch, sql_type};

use removal::{remove, remove_pending, Pending};
use temporary::{remove_stale, sync_folder, temporary_beside, Temporary};

/// `PRAGMA application_id` of a cardkit export: `ckit` in ASCII.
pub const APPLICATION_ID: i32 = 0x636b_6974;

/// Opens an export into the database at `path`: a new one if there is
/// none, else the one there.
///
/// # Errors
/// The folder is missing, the path is a folder, the file cannot be made,
/// or cannot be opened as a database, or holds tables of another layout.
pub fn open(
    path: &Path,
    build: Option<&str>,
    mode: Mode,
    into_foreign: bool,
) -> Result<Box<dyn Store>, Error> {
    let at = |why: &str| Error::new(format!("sqlite:{}: {why}", path.display()));
    let folder = folder_of(path);
    if !folder.is_dir() {
        return Err(at(&format!(
            "the folder `{}` does not exist (or is not a folder)",
            folder.display()
        )));
    }
    if path.is_dir() {
        return Err(at("this is a folder, not a database file"));
    }
    let stale = remove_stale(path);
    let mut store = if path.exists() {
        Sqlite::existing(path, build, mode, into_foreign)?
    } else {
        Sqlite::fresh(path, build)?
    };
    store.changes.stale_removed = stale;
    Ok(Box::new(store))
}

/// An export into a SQLite database.
pub struct Sqlite {
    connection: Connection,
    path: PathBuf,
    build: Option<String>,
    /// A new database: its temporary file, renamed at the commit.
    temp: Option<Temporary>,
    known: Known,
    changes: Changes,
    /// Migration ids the batch being written holds more than once.
    twice: HashSet<String>,
    /// What is removed, and how.
    pending: Pending,
    /// The indexes are there (an existing database, until the run has
    /// written [`INDEXED_ROWS`]).
    indexed: bool,
    written: usize,
}

/// Rows an existing database's run writes with its indexes kept up to
/// date: a few sets added to a large database. Past this many, the indexes
/// are dropped and made again at the commit, which is faster for many.
const INDEXED_ROWS: usize = 50_000;

impl Sqlite {
    fn error(&self, e: &dyn std::fmt::Display) -> Error {
        Error::new(format!("sqlite:{}: {e}", self.path.display()))
    }

    /// Starts a new database under a temporary name beside `path`.
    fn fresh(path: &Path, build: Option<&str>) -> Result<Sqlite, Error> {
        let at = |e: &dyn std::fmt::Display| Error::new(format!("sqlite:{}: {e}", path.display()));
        let temp = temporary_beside(path).map_err(|e| at(&e))?;
        let connection = Connection::open(&temp.path).map_err(|e| at(&e))?;
        let store = Sqlite {
            connection,
            path: path.to_path_buf(),
            build: build.map(str::to_owned),
            temp: Some(temp),
            known: Known::default(),
            changes: Changes::default(),
            twice: HashSet::new(),
            pending: Pending::default(),
            indexed: false,
            written: 0,
        };
        let c = &store.connection;
        let tuned = c
            // Larger pages: fewer, fuller B-tree levels for rows of a few
            // hundred bytes (the page size must be set before any table).
            .pragma_update(None, "page_size", 16384)
            // Nobody reads the file until it is renamed, and a failed run
            // deletes it: no journal, no syncs until the end.
            .and_then(|()| c.pragma_update(None, "journal_mode", "OFF"))
            .and_then(|()| c.pragma_update(None, "synchronous", "OFF"))
            .and_then(|()| c.pragma_update(None, "locking_mode", "EXCLUSIVE"))
            .and_then(|()| c.pragma_update(None, "cache_size", -65536))
            .and_then(|()| c.pragma_update(None, "temp_store", "FILE"))
            .and_then(|()| c.pragma_update(None, "threads", 2))
            .and_then(|()| c.execute_batch("BEGIN"));
        tuned.map_err(|e| store.error(&e))?;
        for table in &layout().tables {
            c.execute_batch(&create_table(table, sql_type))
                .map_err(|e| store.error(&e))?;
        }
        Ok(store)
    }

    /// Opens the database at `path` and starts the run's transaction: the
    /// tables are made if missing and checked against the layout if
    /// present; the build is emptied (`--replace`) or its keys read.
    fn existing(
        path: &Path,
        build: Option<&str>,
        mode: Mode,
        into_foreign: bool,
    ) -> Result<Sqlite, Error> {
        let at = |e: &dyn std::fmt::Display| Error::new(format!("sqlite:{}: {e}", path.display()));
        let connection = Connection::open(path).map_err(|e| at(&e))?;
        let mut store = Sqlite {
            connection,
            path: path.to_path_buf(),
            build: build.map(str::to_owned),
            temp: None,
            known: Known::default(),
            changes: Changes::default(),
            twice: HashSet::new(),
            pending: Pending::default(),
            indexed: false,
            written: 0,
        };
        match store.start(mode, into_foreign) {
            Ok(()) => Ok(store),
            Err(error) => {
                let _ = store.connection.execute_batch("ROLLBACK");
                Err(error)
            }
        }
    }

    fn start(&mut self, mode: Mode, into_foreign: bool) -> Result<(), Error> {
        let path = self.path.clone();
        let c = &self.connection;
        let at = |e: rusqlite::Error| {
            if let rusqlite::Error::SqliteFailure(f, _) = &e {
                if f.code == rusqlite::ErrorCode::NotADatabase {
                    return Error::new(format!(
                        "sqlite:{}: the file is not a SQLite database; give a new path, or remove it",
                        path.display()
                    ));
                }
                if f.code == rusqlite::ErrorCode::ReadOnly {
                    return Error::new(format!(
                        "sqlite:{}: the database cannot be written (read-only): {e}",
                        path.display()
                    ));
                }
            }
            Error::new(format!("sqlite:{}: {e}", path.display()))
        };
        // Reading the schema tells a file that is not a database.
        c.query_row("SELECT COUNT(*) FROM sqlite_schema", [], |r| {
            r.get::<_, i64>(0)
        })
        .map_err(at)?;
        let ours: Vec<&str> = layout().tables.iter().map(|t| t.name.as_str()).collect();
        // Only tables of other names make the database another
        // application's. Views, indexes and triggers a user adds (a view
        // over cardkit's tables, an index for their queries) are theirs to
        // keep and do not stand in the way; but no object other than
        // cardkit's own table may have one of its tables' names.
        let mut statement = c
            .prepare("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
            .map_err(at)?;
        let objects: Vec<(String, String)> = statement
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .map_err(at)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(at)?;
        drop(statement);
        if let Some((kind, name)) = objects
            .iter()
            .find(|(kind, name)| kind != "table" && ours.contains(&name.as_str()))
        {
            return Err(Error::new(format!(
                "sqlite:{}: the database holds a {kind} named `{name}`, the name of a table cardkit writes: rename or drop the {kind}, or export into another file",
                path.display()
            )));
        }
        let foreign: Vec<String> = objects
            .into_iter()
            .filter(|(kind, name)| kind == "table" && !ours.contains(&name.as_str()))
            .map(|(_, name)| name)
            .collect();
        if !foreign.is_empty() && !into_foreign {
            let shown: Vec<&str> = foreign.iter().take(5).map(String::as_str).collect();
            let more = if foreign.len() > shown.len() {
                ", …"
            } else {
                ""
            };
            return Err(Error::new(format!(
                "sqlite:{}: the database holds tables that are not cardkit's ({}{more}): an export would add its {} tables beside them; give --into-foreign to do so, or export into another file",
                path.display(),
                shown.join(", "),
                ours.len()
            )));
        }
        // Another application's database keeps its journal mode; cardkit's
        // own are in WAL, for readers during a run.
        if foreign.is_empty() {
            c.pragma_update(None, "journal_mode", "WAL").map_err(at)?;
        }
        c.pragma_update(None, "synchronous", "NORMAL").map_err(at)?;
        // Pages of the run's one transaction stay in memory longer before
        // they are written out (32 MiB).
        c.pragma_update(None, "cache_size", -32768).map_err(at)?;
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
                return Err(Error::new(format!("sqlite:{}: {why}", path.display())));
            }
        }
        match mode {
            Mode::Replace => self.empty_build().map_err(at)?,
            Mode::Append => {
                self.read_keys().map_err(at)?;
                self.indexed = true;
                let c = &self.connection;
                for table in &layout().tables {
                    let max: i64 = c
                        .query_row(
                            &format!("SELECT IFNULL(MAX(rowid), 0) FROM {}", quoted(&table.name)),
                            [],
                            |r| r.get(0),
                        )
                        .map_err(at)?;
                    self.pending.before.push(max);
                }
            }
        }
        Ok(())
    }

    /// Empties the build (`--replace`). The indexes are dropped first and
    /// made again at the commit: faster for a whole build written again.
    fn empty_build(&mut self) -> rusqlite::Result<()> {
        let c = &self.connection;
        for table in &layout().tables {
            for drop in drop_indexes(table) {
                c.execute_batch(&drop)?;
            }
            // A table that holds nothing but this build is emptied whole,
            // which SQLite does without visiting each row.
            let name = quoted(&table.name);
            let others: bool = c.query_row(
                &format!("SELECT EXISTS (SELECT 1 FROM {name} WHERE build IS NOT ?1)"),
                [&self.build],
                |row| row.get(0),
            )?;
            if others {
                c.execute(
                    &format!("DELETE FROM {name} WHERE build IS ?1"),
                    [&self.build],
                )?;
            } else {
                c.execute_batch(&format!("DELETE FROM {name}"))?;
            }
        }
        self.changes.emptied = true;
        Ok(())
    }

    /// Reads the keys of the build: what a run replaces rather than adds.
    fn read_keys(&mut self) -> rusqlite::Result<()> {
        let keys = keys();
        let c = &self.connection;
        let d = Dialect::Sqlite;
        let pairs = |sql: &str, f: &mut dyn FnMut(String, Option<String>)| {
            let mut statement = c.prepare(sql)?;
            let mut rows = statement.query([&self.build])?;
            while let Some(row) = rows.next()? {
                if let Some(first) = row.get::<_, Option<String>>(0)? {
                    f(first, row.get(1)?);
                }
            }
            Ok::<_, rusqlite::Error>(())
        };
        let known = &mut self.known;
        pairs(&d.select(keys.sets, keys.set_code, None), &mut |code, _| {
            known.set_before(code);
        })?;
        for &(t, owner, uuid) in &keys.set_owned {
            let Some(uuid) = uuid else { continue };
            pairs(&d.select(t, uuid, Some(owner)), &mut |id, code| {
                if let Some(code) = code {
                    known.uuid_before(&id, &code);
                }
            })?;
        }
        if let Some((t, id)) = keys.migrations {
            let sql =
                d.select(t, id, None)
                    .replacen(", NULL FROM", ", CAST(rowid AS TEXT) FROM", 1);
            let rows = &mut self.pending.migration_rows;
            pairs(&sql, &mut |id, rowid| {
                if let Some(rowid) = rowid.and_then(|r| r.parse().ok()) {
                    rows.insert(id.clone(), rowid);
                }
                known.migration_before(id);
            })?;
        }
        pairs(
            &d.select(keys.meta.0, keys.meta.1, None),
            &mut |input, _| {
                known.meta_before(input);
            },
        )?;
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
    fn write_rows(&mut self, rows: &Rows) -> Result<(), Error> {
        let (connection, build) = (&self.connection, self.build.as_deref());
        let pending = &mut self.pending;
        let twice = self
            .known
            .prepare(&rows.tables, &mut self.changes, |removal| {
                remove(connection, build, pending, removal)
            })
            .map_err(|e| Error::new(format!("sqlite:{}: {e}", self.path.display())))?;
        self.twice = twice;
        for (table, table_rows) in rows.tables.iter().enumerate() {
            if !table_rows.is_empty() {
                self.write(table, table_rows)?;
            }
        }
        self.twice.clear();
        self.written += rows.len();
        if self.indexed && self.written > INDEXED_ROWS {
            // Many rows: the indexes are made again at the commit.
            for table in &layout().tables {
                for drop in drop_indexes(table) {
                    self.connection
                        .execute_batch(&drop)
                        .map_err(|e| self.error(&e))?;
                }
            }
            self.indexed = false;
        }
        Ok(())
    }

    fn write(&mut self, table: usize, rows: &TableRows) -> Result<(), Error> {
        let table_def = &layout().tables[table];
        let at = |e: rusqlite::Error| {
            Error::new(format!(
                "sqlite:{}: table {}: {e}",
                self.path.display(),
                table_def.name
            ))
        };
        let marks = vec!["?"; table_def.columns.len()].join(", ");
        let sql = format!("INSERT INTO {} VALUES ({marks})", quoted(&table_def.name));
        let mut statement = self.connection.prepare_cached(&sql).map_err(at)?;
        let build = match &self.build {
            Some(build) => ToSqlOutput::Borrowed(ValueRef::Text(build.as_bytes())),
            None => ToSqlOutput::Owned(SqlValue::Null),
        };
        let migration_id = keys()
            .migrations
            .filter(|&(t, _)| t == table)
            .map(|(_, id)| id);
        for row in rows.rows() {
            let id = migration_id.and_then(|id| text(rows, row, id));
            if let Some(id) = id.filter(|id| self.twice.contains(*id)) {
                remove(
                    &self.connection,
                    self.build.as_deref(),
                    &mut self.pending,
                    Removal::Migration(id),
                )
                .map_err(at)?;
            }
            let values = std::iter::once(build.clone())
                .chain(row[1..].iter().map(|cell| to_sql(cell, rows)));
            statement.execute(params_from_iter(values)).map_err(at)?;
            if let Some(id) = id {
                self.pending
                    .migration_rows
                    .insert(id.to_owned(), self.connection.last_insert_rowid());
            }
        }
        Ok(())
    }

    fn commit(mut self: Box<Self>) -> Result<Changes, Error> {
        let removed = remove_pending(&self.connection, &self.build, &self.pending)
            .map_err(|e| self.error(&e))?;
        let mut changes = std::mem::take(&mut self.changes);
        changes.removed_rows += removed;
        let temp = self.temp.take();
        let c = &self.connection;
        let at = |e: &dyn std::fmt::Display| self.error(e);
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
        c.pragma_update(None, "application_id", APPLICATION_ID)
            .and_then(|()| c.pragma_update(None, "user_version", LAYOUT_VERSION))
            .and_then(|()| c.execute_batch("COMMIT"))
            .map_err(|e| at(&e))?;
        let Some(temp) = temp else {
            c.pragma_update(None, "wal_checkpoint", "TRUNCATE")
                .map_err(|e| at(&e))?;
            let path = self.path.clone();
            self.connection
                .close()
                .map_err(|(_, e)| Error::new(format!("sqlite:{}: {e}", path.display())))?;
            return Ok(changes);
        };
        // Readers and later runs find it in WAL mode; it is written whole
        // and synced before it takes the name.
        c.pragma_update(None, "locking_mode", "NORMAL")
            .and_then(|()| c.pragma_update(None, "journal_mode", "WAL"))
            .map_err(|e| at(&e))?;
        let path = self.path.clone();
        let error =
            |e: &dyn std::fmt::Display| Error::new(format!("sqlite:{}: {e}", path.display()));
        self.connection.close().map_err(|(_, e)| error(&e))?;
        // The run's own handle: the file is its, locked from its making
        // (another run never removes it), and synced before it takes the
        // name.
        temp.file.sync_all().map_err(|e| error(&e))?;
        temp.path.persist_noclobber(&path).map_err(|e| {
            error(&format!(
                "{} (the database was made meanwhile by something else; this run is left out)",
                e.error
            ))
        })?;
        sync_folder(folder_of(&path)).map_err(|e| error(&e))?;
        Ok(changes)
    }

    fn abort(self: Box<Self>) {
        let _ = self.connection.execute_batch("ROLLBACK");
        let _ = self.connection.close();
        // A new database's temporary file goes with its path.
    }
}
