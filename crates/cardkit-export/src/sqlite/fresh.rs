//! A new SQLite database, written page by page in SQLite's file format
//! ([`super::format`]) rather than through SQLite's library: rows come in
//! rowid order and are appended to each table's B-tree as they come, and
//! each index is sorted once at the end and written bottom-up, the indexes
//! on threads of their own. Through the library, each row cost a statement
//! (binding, the virtual machine, a B-tree insert) and each index a sort of
//! its table read back; the export to SQLite took over four times as long
//! as validation, a third of it in the indexes (`bench/RESULTS.md`).
//!
//! The file is written under a hidden temporary name beside its path and
//! renamed into place once whole and on disk, in WAL mode for its readers
//! and later runs (which add to it through the library: [`super::Sqlite`]).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tempfile::TempPath;

use super::format::{file_header, schema_page, IndexTree, Pages, RecordWriter, TableTree, Value};
use super::keys::IndexKeys;
use super::sql::{index_sql, sql_type, table_sql};
use crate::layout::{layout, ColumnType};
use crate::rows::{Cell, TableRows};
use crate::{date_text, Error, Store};

/// The index entries kept in memory, in all, before they are sorted and
/// written to a temporary file.
const KEYS_IN_MEMORY: usize = 48 << 20;

/// A new database being written.
pub struct Fresh {
    path: PathBuf,
    temp: TempPath,
    pages: Pages,
    build: Option<String>,
    tables: Vec<TableState>,
    indexes: Vec<IndexState>,
    /// Where index entries go past [`KEYS_IN_MEMORY`], and its length.
    spill: Option<File>,
    spill_end: u64,
    records: RecordWriter,
    /// A date's or a list's text, made for its record.
    text: Vec<u8>,
}

struct TableState {
    tree: TableTree,
    next_rowid: i64,
    /// The table's indexes: the column indexed and the index's place in
    /// [`Fresh::indexes`].
    indexes: Vec<(usize, usize)>,
}

struct IndexState {
    name: String,
    table: usize,
    column: usize,
    root: u32,
    keys: IndexKeys,
}

impl Fresh {
    /// Starts a new database at a temporary name beside `path`.
    ///
    /// # Errors
    /// The temporary file cannot be made.
    pub fn create(path: &Path, build: Option<&str>) -> Result<Fresh, Error> {
        let at = |e: &dyn std::fmt::Display| failure(path, e);
        let tables = &layout().tables;
        for table in tables {
            if let Some(&i) = table
                .indexed
                .iter()
                .find(|&&i| table.columns[i].ty != ColumnType::Text)
            {
                return Err(at(&format!(
                    "column `{}` of table `{}` is indexed but not text",
                    table.columns[i].name, table.name
                )));
            }
        }
        let temp = super::temporary_beside(path).map_err(|e| at(&e))?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&temp)
            .map_err(|e| at(&e))?;
        // Page 1 holds the schema; the roots follow, tables then indexes.
        let mut root = 1u32;
        let mut next_root = || {
            root += 1;
            root
        };
        let mut indexes = Vec::new();
        let mut states = Vec::with_capacity(tables.len());
        for _ in tables {
            states.push(TableState {
                tree: TableTree::new(next_root()),
                next_rowid: 1,
                indexes: Vec::new(),
            });
        }
        for (t, table) in tables.iter().enumerate() {
            for &column in &table.indexed {
                states[t].indexes.push((column, indexes.len()));
                indexes.push(IndexState {
                    name: format!("{}_{}", table.name, table.columns[column].name),
                    table: t,
                    column,
                    root: next_root(),
                    keys: IndexKeys::default(),
                });
            }
        }
        let reserved = 1 + (states.len() + indexes.len()) as u32;
        Ok(Fresh {
            path: path.to_path_buf(),
            temp,
            pages: Pages::new(file, reserved),
            build: build.map(str::to_owned),
            tables: states,
            indexes,
            spill: None,
            spill_end: 0,
            records: RecordWriter::default(),
            text: Vec::new(),
        })
    }

    /// Past [`KEYS_IN_MEMORY`], sorts the entries of the indexes that take
    /// the most memory and writes them to the spill file as runs, until
    /// half of it is left: each index has few runs to merge.
    fn bound_keys(&mut self) -> io::Result<()> {
        let mut memory: usize = self.indexes.iter().map(|i| i.keys.memory()).sum();
        if memory <= KEYS_IN_MEMORY {
            return Ok(());
        }
        if self.spill.is_none() {
            self.spill = Some(tempfile::tempfile_in(super::folder_of(&self.path))?);
        }
        let spill = self.spill.as_ref().expect("made above");
        while memory > KEYS_IN_MEMORY / 2 {
            let Some(largest) = self.indexes.iter_mut().max_by_key(|i| i.keys.memory()) else {
                break;
            };
            memory -= largest.keys.memory();
            largest.keys.spill(spill, &mut self.spill_end)?;
        }
        Ok(())
    }

    /// The schema's rows: each table, then each index.
    fn schema(&self) -> Vec<(String, String, String, u32, String)> {
        let tables = &layout().tables;
        let mut rows: Vec<_> = tables
            .iter()
            .zip(2u32..)
            .map(|(table, root)| {
                (
                    "table".to_owned(),
                    table.name.clone(),
                    table.name.clone(),
                    root,
                    table_sql(table, sql_type),
                )
            })
            .collect();
        for index in &self.indexes {
            let table = &tables[index.table];
            rows.push((
                "index".to_owned(),
                index.name.clone(),
                table.name.clone(),
                index.root,
                index_sql(table, index.column),
            ));
        }
        rows
    }
}

/// What went wrong, named after the database.
fn failure(path: &Path, e: &dyn std::fmt::Display) -> Error {
    Error::new(format!("sqlite:{}: {e}", path.display()))
}

impl Store for Fresh {
    fn write(&mut self, table: usize, rows: &TableRows) -> Result<(), Error> {
        let Fresh {
            path,
            pages,
            build,
            tables,
            indexes,
            records,
            text,
            ..
        } = self;
        let error =
            |e: &dyn std::fmt::Display| Error::new(format!("sqlite:{}: {e}", path.display()));
        let build = build
            .as_deref()
            .map_or(Value::Null, |b| Value::Text(b.as_bytes()));
        let state = &mut tables[table];
        for row in rows.rows() {
            records.push(build);
            for cell in &row[1..] {
                let value = match *cell {
                    Cell::Null => Value::Null,
                    Cell::Text(span) => Value::Text(rows.text(span).as_bytes()),
                    Cell::Integer(n) => Value::Integer(n),
                    Cell::Real(x) => Value::Real(x),
                    Cell::Boolean(b) => Value::Integer(i64::from(b)),
                    Cell::Date(days) => {
                        text.clear();
                        text.extend_from_slice(date_text(days).as_bytes());
                        Value::Text(text)
                    }
                    // As JSON text, as the library's store writes it.
                    Cell::TextList(span) => {
                        text.clear();
                        let items: Vec<&str> = rows.items(span).collect();
                        serde_json::to_writer(&mut *text, &items).map_err(|e| error(&e))?;
                        Value::Text(text)
                    }
                };
                records.push(value);
            }
            let rowid = state.next_rowid;
            state.next_rowid += 1;
            state
                .tree
                .push(pages, rowid, records.parts())
                .map_err(|e| error(&e))?;
            records.clear();
            for &(column, index) in &state.indexes {
                let key = match row[column] {
                    Cell::Text(span) => Some(rows.text(span).as_bytes()),
                    Cell::Null => None,
                    // Indexed columns are text (checked at `create`).
                    _ => return Err(error(&"an indexed value that is not text")),
                };
                indexes[index].keys.push(key, rowid);
            }
        }
        self.bound_keys().map_err(|e| failure(&self.path, &e))
    }

    fn commit(self: Box<Self>) -> Result<(), Error> {
        let fresh = *self;
        let error = |e: &dyn std::fmt::Display| failure(&fresh.path, e);
        let schema = fresh.schema();
        for table in fresh.tables {
            table.tree.finish(&fresh.pages).map_err(|e| error(&e))?;
        }
        // The indexes, each sorted and written on whichever thread takes
        // it next.
        let threads = std::thread::available_parallelism()
            .map_or(2, usize::from)
            .clamp(1, fresh.indexes.len().max(1));
        let queue = Mutex::new(fresh.indexes);
        let (pages, spill) = (&fresh.pages, fresh.spill.as_ref());
        let failed: Mutex<Option<io::Error>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut records = RecordWriter::default();
                    let mut record = Vec::new();
                    loop {
                        let Some(index) = queue.lock().ok().and_then(|mut q| q.pop()) else {
                            return;
                        };
                        let mut tree = IndexTree::new(index.root);
                        let written = index
                            .keys
                            .sorted(spill, |key, rowid| {
                                record.clear();
                                let key = key.map_or(Value::Null, Value::Text);
                                records.record([key, Value::Integer(rowid)], &mut record);
                                tree.push(pages, &record)
                            })
                            .and_then(|()| tree.finish(pages));
                        if let Err(e) = written {
                            if let Ok(mut failed) = failed.lock() {
                                failed.get_or_insert(e);
                            }
                            return;
                        }
                    }
                });
            }
        });
        if let Some(e) = failed.into_inner().ok().flatten() {
            return Err(error(&e));
        }
        let entries: Vec<(&str, &str, &str, u32, &str)> = schema
            .iter()
            .map(|(k, n, t, r, s)| (k.as_str(), n.as_str(), t.as_str(), *r, s.as_str()))
            .collect();
        let mut first = schema_page(&entries).map_err(|e| error(&e))?;
        let count = pages.count();
        file_header(&mut first, count, rusqlite::version_number());
        pages.write(1, &first).map_err(|e| error(&e))?;
        let file = pages.file();
        file.set_len(u64::from(count) * super::format::PAGE_SIZE as u64)
            .and_then(|()| file.sync_all())
            .map_err(|e| error(&e))?;
        fresh.temp.persist_noclobber(&fresh.path).map_err(|e| {
            error(&format!(
                "{} (the database was made meanwhile by something else; this run is left out)",
                e.error
            ))
        })
    }

    fn abort(self: Box<Self>) {
        // The temporary file goes with its path.
    }
}
