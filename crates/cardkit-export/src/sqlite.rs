//! SQLite, the embedded store: one transaction per run, prepared statements,
//! WAL. A run that fails (or is killed) commits nothing; a database file the
//! run created is removed when it fails.

use std::path::{Path, PathBuf};

use rusqlite::types::{ToSqlOutput, Value as SqlValue};
use rusqlite::{params_from_iter, Connection};

use crate::layout::{layout, ColumnType, Table};
use crate::rows::Cell;
use crate::{date_text, Error, Store};

/// An export into a SQLite database file.
pub struct Sqlite {
    connection: Connection,
    path: PathBuf,
    /// The file did not exist before the run.
    created: bool,
    build: Option<String>,
}

fn sql_type(ty: ColumnType) -> &'static str {
    match ty {
        ColumnType::Text | ColumnType::TextList | ColumnType::Json => "TEXT",
        ColumnType::Date => "DATE",
        ColumnType::Integer => "INTEGER",
        ColumnType::Real => "REAL",
        ColumnType::Boolean => "BOOLEAN",
    }
}

/// `"name"`, quoted as an SQL identifier.
pub fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The statement that creates `table` (every column may be NULL: invalid
/// values kept with `--on-invalid keep` are NULL).
pub(crate) fn create_table(table: &Table, sql_type: impl Fn(ColumnType) -> &'static str) -> String {
    let columns: Vec<String> = table
        .columns
        .iter()
        .map(|c| format!("{} {}", quoted(&c.name), sql_type(c.ty)))
        .collect();
    format!(
        "CREATE TABLE IF NOT EXISTS {} ({})",
        quoted(&table.name),
        columns.join(", ")
    )
}

/// The names of the indexes of `table`, with the column each is on.
fn indexes(table: &Table) -> impl Iterator<Item = (String, &str)> {
    table.indexed.iter().map(|&i| {
        let column = table.columns[i].name.as_str();
        (quoted(&format!("{}_{}", table.name, column)), column)
    })
}

/// The statements that index `table`, made when the rows are in (an index
/// kept up to date row by row costs several times more).
pub(crate) fn create_indexes(table: &Table) -> Vec<String> {
    indexes(table)
        .map(|(index, column)| {
            format!(
                "CREATE INDEX IF NOT EXISTS {index} ON {} ({})",
                quoted(&table.name),
                quoted(column)
            )
        })
        .collect()
}

/// The statements that drop the indexes of `table` before rows are loaded,
/// in the run's transaction: a failed run gets them back.
pub(crate) fn drop_indexes(table: &Table) -> Vec<String> {
    indexes(table)
        .map(|(index, _)| format!("DROP INDEX IF EXISTS {index}"))
        .collect()
}

/// Why the columns of an existing table are not the layout's, if they are
/// not.
pub(crate) fn layout_mismatch(
    table: &Table,
    found: &[(String, String)],
    sql_type: impl Fn(ColumnType) -> &'static str,
) -> Option<String> {
    let expected: Vec<(String, String)> = table
        .columns
        .iter()
        .map(|c| (c.name.clone(), sql_type(c.ty).to_ascii_lowercase()))
        .collect();
    let found: Vec<(String, String)> = found
        .iter()
        .map(|(n, t)| (n.clone(), t.to_ascii_lowercase()))
        .collect();
    (expected != found).then(|| {
        let missing: Vec<&str> = expected
            .iter()
            .filter(|e| !found.contains(e))
            .map(|(n, _)| n.as_str())
            .collect();
        let extra: Vec<&str> = found
            .iter()
            .filter(|f| !expected.contains(f))
            .map(|(n, _)| n.as_str())
            .collect();
        format!(
            "table `{}` exists with other columns than layout version {} (missing or of another type: {}; not in the layout: {}): export into a new database",
            table.name,
            crate::layout::LAYOUT_VERSION,
            if missing.is_empty() { "none".into() } else { missing.join(", ") },
            if extra.is_empty() { "none".into() } else { extra.join(", ") },
        )
    })
}

impl Sqlite {
    /// Opens (or creates) the database at `path` and starts the run's
    /// transaction: the tables are made if missing, checked against the
    /// layout if present, and the rows of the same build are deleted.
    ///
    /// # Errors
    /// The file cannot be opened as a database, or holds tables of another
    /// layout.
    pub fn open(path: &Path, build: Option<&str>) -> Result<Sqlite, Error> {
        let created = !path.exists();
        let at = |e: rusqlite::Error| Error::new(format!("sqlite:{}: {e}", path.display()));
        let connection = Connection::open(path).map_err(at)?;
        let store = Sqlite {
            connection,
            path: path.to_path_buf(),
            created,
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
        // they spill to the WAL (32 MiB).
        c.pragma_update(None, "cache_size", -32768).map_err(at)?;
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
            c.execute(
                &format!("DELETE FROM {} WHERE build IS ?1", quoted(&table.name)),
                [&self.build],
            )
            .map_err(at)?;
            for drop in drop_indexes(table) {
                c.execute_batch(&drop).map_err(at)?;
            }
        }
        Ok(())
    }
}

fn to_sql(cell: &Cell) -> ToSqlOutput<'_> {
    ToSqlOutput::Owned(match cell {
        Cell::Null => SqlValue::Null,
        Cell::Text(text) => {
            return ToSqlOutput::Borrowed(rusqlite::types::ValueRef::Text(text.as_bytes()))
        }
        Cell::Integer(n) => SqlValue::Integer(*n),
        Cell::Real(x) => SqlValue::Real(*x),
        Cell::Boolean(b) => SqlValue::Integer(i64::from(*b)),
        Cell::Date(days) => SqlValue::Text(date_text(*days)),
        Cell::TextList(items) => SqlValue::Text(serde_json::to_string(items).unwrap_or_default()),
    })
}

impl Store for Sqlite {
    fn write(&mut self, table: usize, rows: &mut Vec<Vec<Cell>>) -> Result<(), Error> {
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
        let build = self.build.clone().map_or(Cell::Null, Cell::Text);
        for mut row in rows.drain(..) {
            row[0] = build.clone();
            statement
                .execute(params_from_iter(row.iter().map(to_sql)))
                .map_err(at)?;
        }
        Ok(())
    }

    fn commit(self: Box<Self>) -> Result<(), Error> {
        let at = |e: rusqlite::Error| Error::new(format!("sqlite:{}: {e}", self.path.display()));
        for table in &layout().tables {
            for index in create_indexes(table) {
                self.connection.execute_batch(&index).map_err(at)?;
            }
        }
        self.connection.execute_batch("COMMIT").map_err(at)?;
        self.connection
            .pragma_update(None, "wal_checkpoint", "TRUNCATE")
            .map_err(at)?;
        self.connection.close().map_err(|(_, e)| at(e))
    }

    fn abort(self: Box<Self>) {
        let _ = self.connection.execute_batch("ROLLBACK");
        let _ = self.connection.close();
        if self.created {
            for suffix in ["", "-wal", "-shm"] {
                let mut name = self.path.clone().into_os_string();
                name.push(suffix);
                let _ = std::fs::remove_file(name);
            }
        }
    }
}
