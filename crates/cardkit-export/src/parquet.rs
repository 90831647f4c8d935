//! Parquet, for DuckDB, Spark and other engines: a directory per table
//! (per build, in a Hive partition `build=LABEL/`), and in it a
//! zstd-compressed file per set, `set-CODE.parquet`, holding that set's rows
//! of the table, beside `other.parquet`, the rows of no set (migrations, and
//! each input's `meta` row; empty in the other tables, so that every table's
//! folder has a file). Exporting a set again replaces its files, a file
//! operation: the builds add up like SQLite's, and a loop over per-set
//! files gives the files one export of the folder gives (table by table,
//! the same rows). `other.parquet` is written again whole by each run, with
//! the migrations (by id) and `meta` rows (by input) it does not replace.
//!
//! Files are written under hidden temporary names (`.NAME.incomplete`,
//! which readers skip) and renamed when the run commits; a failed run
//! removes them. The renames cannot all happen at once, so the commit is
//! recorded first: once every file is complete and on disk, the renames and
//! removals are written to `DIR/.cardkit-commit`, and that record is removed
//! when all are done. A run stopped in between (killed, or a rename
//! refused) leaves the record, and the next run into the directory finishes
//! it before it writes anything. The window in which a reader can see a
//! mix of the old and new files is exactly that: from the record's sync to
//! its removal (the files of no set renamed first, then each set's, table
//! by table), or, for a run killed in it, until the next run into the
//! directory starts. Each run holds a lock on `DIR/.cardkit-lock` from its
//! start to its end, so that two runs never write the same temporary
//! files, and a reader holding that lock sees no commit happen.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufWriter, ErrorKind, Write as _};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Date32Builder, Float64Builder, Int64Builder, ListBuilder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;

use crate::keys::Changes;
use crate::layout::{layout, ColumnType, Table};
use crate::rows::{Cell, TableRows};
use crate::{Error, Mode, Store};

/// Rows gathered before they are handed to the Parquet writer as one batch
/// (the builders of the twelve tables hold this many rows each: 8192 took
/// 30 MB more at the peak, and were no faster).
const BATCH_ROWS: usize = 1024;
/// ...or fewer, once their text takes this many bytes: a table of few,
/// large rows (`sets`, with a set's booster configuration as JSON) would
/// otherwise hold a whole catalog's worth before a batch is full.
const BATCH_BYTES: usize = 4 << 20;
/// Rows per row group: large enough for scans, small enough that the group
/// of the widest table being encoded, its pages and column dictionaries,
/// stays within a few tens of MB (128 Ki rows took 30 MB more at the peak
/// on the 500 MB catalog).
const ROW_GROUP_ROWS: usize = 64 * 1024;
/// The memory that the row groups being encoded may take together, as the
/// writers measure it (their encoders, dictionaries and pages): past it,
/// the largest group is closed. Each table's group is otherwise closed only
/// at its row count, so the memory of the groups in progress would follow
/// how many tables happen to be near theirs at once, and a table of few,
/// large rows (`sets`) would keep one open through the whole catalog.
const ENCODING_BUDGET: usize = 48 << 20;

/// The buffer of each table's file: the writer hands it whole pages, so a
/// larger one saves few writes, and there are fourteen of them.
const WRITE_BUFFER: usize = 128 << 10;

/// The name of each table's file of the rows of no set, in its directory
/// (or partition).
pub const FILE_NAME: &str = "other.parquet";
const TEMPORARY_NAME: &str = ".other.parquet.incomplete";
/// The one file per table that cardkit wrote before the files per set;
/// such a build is only written again with `--replace`.
const OLD_FILE_NAME: &str = "part-0.parquet";
const OLD_TEMPORARY_NAME: &str = ".part-0.parquet.incomplete";
/// The record of a commit whose renames are not all done, one operation a
/// line, paths relative to the directory: `rename\tFROM\tTO` or
/// `remove\tPATH` (a line of a folder alone, as earlier versions wrote,
/// renames its `.part-0.parquet.incomplete`).
pub const COMMIT_RECORD: &str = ".cardkit-commit";

/// The name of the files of the set of `code`.
#[must_use]
pub fn set_file_name(code: &str) -> String {
    format!("set-{}.parquet", partition_value(code))
}

/// The temporary name of the file `name`.
fn temporary_name(name: &str) -> String {
    format!(".{name}.incomplete")
}
/// The key of each file's key-value metadata that holds the layout
/// version.
pub const LAYOUT_KEY: &str = "cardkit.layout_version";
/// Locked by each run for its whole length.
pub const LOCK_NAME: &str = ".cardkit-lock";

/// The column builders of one table.
enum Builder {
    Text(StringBuilder),
    Integer(Int64Builder),
    Real(Float64Builder),
    Boolean(BooleanBuilder),
    Date(Date32Builder),
    List(ListBuilder<StringBuilder>),
}

impl Builder {
    fn new(ty: ColumnType) -> Builder {
        match ty {
            ColumnType::Text | ColumnType::Json | ColumnType::Members => {
                Builder::Text(StringBuilder::new())
            }
            ColumnType::Integer => Builder::Integer(Int64Builder::new()),
            ColumnType::Real => Builder::Real(Float64Builder::new()),
            ColumnType::Boolean => Builder::Boolean(BooleanBuilder::new()),
            ColumnType::Date => Builder::Date(Date32Builder::new()),
            ColumnType::TextList => Builder::List(ListBuilder::new(StringBuilder::new())),
        }
    }

    /// Appends `cell`; a cell of another type than the column's (which the
    /// row maker never makes) is NULL. Returns the bytes of text appended.
    fn append(&mut self, cell: Cell, rows: &TableRows) -> usize {
        match (self, cell) {
            (Builder::Text(b), Cell::Text(span)) => {
                let text = rows.text(span);
                b.append_value(text);
                return text.len();
            }
            (Builder::Text(b), _) => b.append_null(),
            (Builder::Integer(b), Cell::Integer(n)) => b.append_value(n),
            (Builder::Integer(b), _) => b.append_null(),
            (Builder::Real(b), Cell::Real(x)) => b.append_value(x),
            (Builder::Real(b), _) => b.append_null(),
            (Builder::Boolean(b), Cell::Boolean(x)) => b.append_value(x),
            (Builder::Boolean(b), _) => b.append_null(),
            (Builder::Date(b), Cell::Date(days)) => b.append_value(days),
            (Builder::Date(b), _) => b.append_null(),
            (Builder::List(b), Cell::TextList(span)) => {
                let mut bytes = 0;
                for item in rows.items(span) {
                    b.values().append_value(item);
                    bytes += item.len();
                }
                b.append(true);
                return bytes;
            }
            (Builder::List(b), _) => b.append(false),
        }
        0
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Text(b) => Arc::new(b.finish()),
            Builder::Integer(b) => Arc::new(b.finish()),
            Builder::Real(b) => Arc::new(b.finish()),
            Builder::Boolean(b) => Arc::new(b.finish()),
            Builder::Date(b) => Arc::new(b.finish()),
            Builder::List(b) => Arc::new(b.finish()),
        }
    }
}

/// The Arrow schema of a table's file: every column but `build` (the
/// partition), each nullable.
fn schema(table: &Table) -> SchemaRef {
    let fields: Vec<Field> = table.columns[1..]
        .iter()
        .map(|c| {
            let ty = match c.ty {
                ColumnType::Text | ColumnType::Json | ColumnType::Members => DataType::Utf8,
                ColumnType::Integer => DataType::Int64,
                ColumnType::Real => DataType::Float64,
                ColumnType::Boolean => DataType::Boolean,
                ColumnType::Date => DataType::Date32,
                ColumnType::TextList => {
                    DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
                }
            };
            let field = Field::new(&c.name, ty, true);
            if c.ty == ColumnType::Members {
                // A string of the JSON logical type.
                field.with_extension_type(arrow_schema::extension::Json::default())
            } else {
                field
            }
        })
        .collect();
    Arc::new(Schema::new(fields))
}

/// One table's file being written.
struct TableFile {
    schema: SchemaRef,
    builders: Vec<Builder>,
    /// Rows in the builders, and the bytes of their text.
    buffered: usize,
    buffered_bytes: usize,
    writer: ArrowWriter<BufWriter<File>>,
    temporary: PathBuf,
    path: PathBuf,
}

impl TableFile {
    fn flush(&mut self) -> Result<(), Error> {
        if self.buffered == 0 {
            return Ok(());
        }
        let columns: Vec<ArrayRef> = self.builders.iter_mut().map(Builder::finish).collect();
        self.buffered = 0;
        self.buffered_bytes = 0;
        let batch = RecordBatch::try_new(Arc::clone(&self.schema), columns)
            .map_err(|e| Error::new(format!("{}: {e}", self.path.display())))?;
        let at =
            |e: parquet::errors::ParquetError| Error::new(format!("{}: {e}", self.path.display()));
        self.writer.write(&batch).map_err(at)
    }

    /// Closes the row group in progress.
    fn close_row_group(&mut self) -> Result<(), Error> {
        self.writer
            .flush()
            .map_err(|e| Error::new(format!("{}: {e}", self.path.display())))
    }
}

/// An export into a directory of Parquet files.
pub struct Parquet {
    dir: PathBuf,
    /// Held until the run ends (the lock goes with the file).
    _lock: File,
    files: Vec<TableFile>,
    /// [`ENCODING_BUDGET`], or less in tests.
    budget: usize,
    /// The build was there, and is replaced (`--replace`).
    replaced: bool,
    mode: Mode,
    /// Each table's folder (its build's partition).
    folders: Vec<PathBuf>,
    /// The files of the sets written by the run, by file name: the tables
    /// (by index) it has a temporary file in.
    sets: std::collections::BTreeMap<String, (Option<String>, Vec<usize>)>,
    /// Sets without a code written so far (each a file of its own).
    uncoded: usize,
    /// The folders the run made (removed again if it fails), and whether
    /// it made the directory itself.
    created: Vec<PathBuf>,
    made_dir: bool,
    properties: WriterProperties,
    /// What the run read twice: the rows of the earlier are left out of
    /// the files at the commit (the later is kept, as in SQLite).
    twice: Twice,
}

/// The rows of each table's file that a later document replaces.
#[derive(Default)]
struct Twice {
    /// Rows written per table.
    written: Vec<usize>,
    /// The row of the latest migration of each id.
    migrations: std::collections::HashMap<String, usize>,
    /// The inputs of the run's `meta` rows.
    inputs: std::collections::HashSet<String>,
    /// Per table, the ranges of rows left out.
    dropped: Vec<Vec<(usize, usize)>>,
}

impl Parquet {
    /// Starts writing each table's file under `dir` (in the partition of
    /// `build`, if given), under a temporary name, once the renames of a
    /// run stopped during its commit are finished.
    ///
    /// # Errors
    /// A directory or file cannot be made, another run is writing into
    /// `dir`, or a commit left unfinished cannot be finished; or the build
    /// is there already and `mode` is [`Mode::Append`]: a Parquet file is
    /// written whole, so a run cannot add to one, and it does not replace
    /// one unless asked (`--replace`).
    pub fn open(dir: &Path, build: Option<&str>, mode: Mode) -> Result<Parquet, Error> {
        let made_dir = !dir.exists();
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::new(format!("parquet:{}: {e}", dir.display())))?;
        let lock = lock(dir)?;
        finish_commit(dir)?;
        let folders: Vec<PathBuf> = layout()
            .tables
            .iter()
            .map(|table| {
                let mut folder = dir.join(&table.name);
                if let Some(build) = build {
                    folder.push(format!("build={}", partition_value(build)));
                }
                folder
            })
            .collect();
        let there = folders.iter().any(|f| !parquet_files(f).is_empty());
        let old = folders.iter().any(|f| f.join(OLD_FILE_NAME).exists());
        if old && mode == Mode::Append {
            let build = build.map_or("the build without a label".to_owned(), |b| {
                format!("build {b}")
            });
            return Err(Error::new(format!(
                    "parquet:{}: {build} was written by an earlier cardkit as one file per table ({OLD_FILE_NAME}), which a run cannot add to: give --replace to write it anew in files per set, or another --build label",
                    dir.display()
                )));
        }
        let properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(format!("cardkit {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(vec![parquet::file::metadata::KeyValue::new(
                LAYOUT_KEY.to_owned(),
                crate::layout::LAYOUT_VERSION.to_string(),
            )]))
            .build();
        let mut files = Vec::new();
        let mut created = Vec::new();
        for (table, folder) in layout().tables.iter().zip(&folders) {
            let folder = folder.clone();
            let at = |e: std::io::Error| Error::new(format!("{}: {e}", folder.display()));
            let table_dir = dir.join(&table.name);
            if !table_dir.exists() {
                created.push(table_dir);
            }
            if build.is_some() && !folder.exists() {
                created.push(folder.clone());
            }
            std::fs::create_dir_all(&folder).map_err(at)?;
            let temporary = folder.join(TEMPORARY_NAME);
            let file = File::create(&temporary).map_err(at)?;
            let schema = schema(table);
            let writer = ArrowWriter::try_new(
                BufWriter::with_capacity(WRITE_BUFFER, file),
                Arc::clone(&schema),
                Some(properties.clone()),
            )
            .map_err(|e| Error::new(format!("{}: {e}", temporary.display())))?;
            files.push(TableFile {
                builders: table.columns[1..]
                    .iter()
                    .map(|c| Builder::new(c.ty))
                    .collect(),
                schema,
                buffered: 0,
                buffered_bytes: 0,
                writer,
                path: folder.join(FILE_NAME),
                temporary,
            });
        }
        Ok(Parquet {
            dir: dir.to_path_buf(),
            _lock: lock,
            files,
            budget: ENCODING_BUDGET,
            replaced: there && mode == Mode::Replace,
            mode,
            folders,
            sets: std::collections::BTreeMap::new(),
            uncoded: 0,
            created,
            made_dir,
            properties,
            twice: Twice {
                written: vec![0; layout().tables.len()],
                dropped: vec![Vec::new(); layout().tables.len()],
                migrations: std::collections::HashMap::new(),
                inputs: std::collections::HashSet::new(),
            },
        })
    }

    /// Closes the largest row groups in progress until they all fit in the
    /// budget.
    fn keep_within_budget(&mut self) -> Result<(), Error> {
        loop {
            let sizes = self.files.iter().map(|file| file.writer.memory_size());
            if sizes.clone().sum::<usize>() <= self.budget {
                return Ok(());
            }
            let largest = sizes
                .enumerate()
                .max_by_key(|&(_, size)| size)
                .map(|(at, _)| at);
            match largest.and_then(|at| self.files.get_mut(at)) {
                Some(file) if file.writer.in_progress_rows() > 0 => file.close_row_group()?,
                _ => return Ok(()),
            }
        }
    }
}

/// A build label as a Hive partition value: characters that paths or
/// partition parsers treat specially are percent-encoded, as Hive does.
#[must_use]
pub fn partition_value(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() || "-_.".contains(c) && !(out.is_empty() && c == '.') {
            out.push(c);
        } else {
            let mut bytes = [0; 4];
            for byte in c.encode_utf8(&mut bytes).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    out
}

impl Store for Parquet {
    fn write_rows(&mut self, rows: &crate::rows::Rows) -> Result<(), Error> {
        let keys = crate::keys::keys();
        // A set's rows come on their own, and go to its own files.
        let sets = &rows.tables[keys.sets];
        if let Some(row) = sets.rows().next() {
            let code = crate::keys::text(sets, row, keys.set_code).map(str::to_owned);
            return self.write_set(code, rows);
        }
        let twice = &mut self.twice;
        if let Some((t, id)) = keys.migrations {
            let table = &rows.tables[t];
            for (i, row) in table.rows().enumerate() {
                if let Some(id) = crate::keys::text(table, row, id) {
                    let at = twice.written[t] + i;
                    if let Some(before) = twice.migrations.insert(id.to_owned(), at) {
                        twice.dropped[t].push((before, before + 1));
                    }
                }
            }
        }
        let meta = &rows.tables[layout().meta];
        if let Some(input) = layout().tables[layout().meta].column("input") {
            for row in meta.rows() {
                if let Some(name) = crate::keys::text(meta, row, input) {
                    self.twice.inputs.insert(name.to_owned());
                }
            }
        }
        for (t, table) in rows.tables.iter().enumerate() {
            self.twice.written[t] += table.len();
            if !table.is_empty() {
                self.write(t, table)?;
            }
        }
        Ok(())
    }

    fn write(&mut self, table: usize, rows: &TableRows) -> Result<(), Error> {
        if table == crate::keys::keys().sets {
            // A set's row outside a set's batch (not made by the row maker).
            let mut set = crate::rows::Rows::new();
            set.tables[table].append(rows);
            return self.write_rows(&set);
        }
        for row in rows.rows() {
            let file = &mut self.files[table];
            for (builder, &cell) in file.builders.iter_mut().zip(&row[1..]) {
                file.buffered_bytes += builder.append(cell, rows);
            }
            file.buffered += 1;
            if file.buffered >= BATCH_ROWS || file.buffered_bytes >= BATCH_BYTES {
                file.flush()?;
                self.keep_within_budget()?;
            }
        }
        Ok(())
    }

    fn commit(self: Box<Self>) -> Result<Changes, Error> {
        let Parquet {
            dir,
            _lock,
            files,
            replaced,
            mode,
            folders,
            sets,
            properties,
            mut twice,
            ..
        } = *self;
        let set_temporaries = || {
            sets.iter().flat_map(|(name, (_, tables))| {
                tables
                    .iter()
                    .map(|&t| folders[t].join(temporary_name(name)))
            })
        };
        let keys = crate::keys::keys();
        let mut failed = None;
        for (t, mut file) in files.into_iter().enumerate() {
            let temporary = file.temporary.clone();
            let dropped = std::mem::take(&mut twice.dropped[t]);
            let schema = Arc::clone(&file.schema);
            // The rows of no set that the run does not replace are kept.
            let kept_before = match mode {
                Mode::Replace => None,
                Mode::Append => Some(file.path.clone()).filter(|p| p.exists()),
            };
            let replaced_key = if t == layout().meta {
                layout().tables[t]
                    .column("input")
                    .map(|c| (c, std::mem::take(&mut twice.inputs)))
            } else {
                keys.migrations
                    .filter(|&(m, _)| m == t)
                    .map(|(_, id)| (id, twice.migrations.keys().cloned().collect()))
            };
            let outcome = file.flush().and_then(|()| {
                let at =
                    |e: &dyn std::fmt::Display| Error::new(format!("{}: {e}", temporary.display()));
                // Complete and on disk before the commit is recorded.
                let inner = file.writer.into_inner().map_err(|e| at(&e))?;
                let handle = inner.into_inner().map_err(|e| at(e.error()))?;
                if dropped.is_empty() && kept_before.is_none() {
                    return handle.sync_all().map_err(|e| at(&e));
                }
                drop(handle);
                rewrite(
                    &temporary,
                    &dropped,
                    kept_before.as_deref(),
                    replaced_key.as_ref(),
                    &schema,
                    &properties,
                )
                .map_err(|e| {
                    let _ = std::fs::remove_file(temporary.with_extension("kept"));
                    at(&e)
                })
            });
            if let Err(error) = outcome {
                failed.get_or_insert(error);
            }
        }
        let run_temporaries = folders.iter().map(|f| f.join(TEMPORARY_NAME));
        if let Some(error) = failed {
            for temporary in run_temporaries.chain(set_temporaries()) {
                let _ = std::fs::remove_file(temporary);
            }
            return Err(error);
        }
        // What the commit does: each file of the run renamed into place, a
        // set's files of tables it has no rows in now removed, and with
        // --replace every other file of the build removed.
        let mut operations = Vec::new();
        let mut finals = std::collections::HashSet::new();
        for folder in &folders {
            operations.push(Operation::Rename(
                folder.join(TEMPORARY_NAME),
                folder.join(FILE_NAME),
            ));
            finals.insert(folder.join(FILE_NAME));
        }
        let mut changes = Changes {
            emptied: replaced,
            ..Changes::default()
        };
        for (name, (code, tables)) in &sets {
            let there = folders[keys.sets].join(name).exists();
            if let (Some(code), true, Mode::Append) = (code, there, mode) {
                changes.replaced_sets.push(code.clone());
            }
            for (t, folder) in folders.iter().enumerate() {
                let path = folder.join(name);
                if tables.contains(&t) {
                    operations.push(Operation::Rename(
                        folder.join(temporary_name(name)),
                        path.clone(),
                    ));
                    finals.insert(path);
                } else if path.exists() {
                    operations.push(Operation::Remove(path));
                }
            }
        }
        if mode == Mode::Replace {
            for folder in &folders {
                for path in parquet_files(folder) {
                    if !finals.contains(&path) {
                        operations.push(Operation::Remove(path));
                    }
                }
            }
        }
        record_commit(&dir, &operations)?;
        finish_commit(&dir)?;
        Ok(changes)
    }

    fn abort(self: Box<Self>) {
        for file in self.files {
            drop(file.writer);
            let _ = std::fs::remove_file(&file.temporary);
        }
        for (name, (_, tables)) in &self.sets {
            for &t in tables {
                let _ = std::fs::remove_file(self.folders[t].join(temporary_name(name)));
            }
        }
        // A failed run leaves no folder of its own behind (only empty ones
        // are removed).
        for folder in self.created.iter().rev() {
            let _ = std::fs::remove_dir(folder);
        }
        if self.made_dir {
            let _ = std::fs::remove_file(self.dir.join(LOCK_NAME));
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

impl Parquet {
    /// Writes the rows of one set (of `code`, if it has one) to its own
    /// temporary file in each table it has rows in; a set of that code
    /// written before in the run is replaced.
    fn write_set(&mut self, code: Option<String>, rows: &crate::rows::Rows) -> Result<(), Error> {
        let name = match &code {
            Some(code) => set_file_name(code),
            None => {
                self.uncoded += 1;
                let stamp = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos());
                format!(
                    "set-without-code-{stamp}-{}-{}.parquet",
                    std::process::id(),
                    self.uncoded
                )
            }
        };
        if let Some((_, before)) = self.sets.remove(&name) {
            for t in before {
                let _ = std::fs::remove_file(self.folders[t].join(temporary_name(&name)));
            }
        }
        let mut tables = Vec::new();
        for (t, table_rows) in rows.tables.iter().enumerate() {
            if table_rows.is_empty() {
                continue;
            }
            // Recorded before the file is made, so that a failed run
            // removes it.
            tables.push(t);
            self.sets
                .insert(name.clone(), (code.clone(), tables.clone()));
            let temporary = self.folders[t].join(temporary_name(&name));
            write_whole(
                &temporary,
                &layout().tables[t],
                table_rows,
                &self.properties,
            )?;
        }
        Ok(())
    }
}

/// One operation of a commit.
enum Operation {
    Rename(PathBuf, PathBuf),
    Remove(PathBuf),
}

/// The Parquet files of `folder` that readers see (not hidden ones).
fn parquet_files(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|n| n.ends_with(".parquet") && !n.starts_with('.')) && path.is_file()
        })
        .collect();
    files.sort();
    files
}

/// Writes `rows` of `table` to a new file at `path`, synced.
fn write_whole(
    path: &Path,
    table: &Table,
    rows: &TableRows,
    properties: &WriterProperties,
) -> Result<(), Error> {
    let at = |e: &dyn std::fmt::Display| Error::new(format!("{}: {e}", path.display()));
    let schema = schema(table);
    let file = File::create(path).map_err(|e| at(&e))?;
    let mut writer = ArrowWriter::try_new(
        BufWriter::with_capacity(WRITE_BUFFER, file),
        Arc::clone(&schema),
        Some(properties.clone()),
    )
    .map_err(|e| at(&e))?;
    let mut builders: Vec<Builder> = table.columns[1..]
        .iter()
        .map(|c| Builder::new(c.ty))
        .collect();
    let mut buffered = 0;
    for (i, row) in rows.rows().enumerate() {
        for (builder, &cell) in builders.iter_mut().zip(&row[1..]) {
            builder.append(cell, rows);
        }
        buffered += 1;
        if buffered == BATCH_ROWS || i + 1 == rows.len() {
            let columns: Vec<ArrayRef> = builders.iter_mut().map(Builder::finish).collect();
            let batch = RecordBatch::try_new(Arc::clone(&schema), columns).map_err(|e| at(&e))?;
            writer.write(&batch).map_err(|e| at(&e))?;
            buffered = 0;
        }
    }
    let inner = writer.into_inner().map_err(|e| at(&e))?;
    let handle = inner.into_inner().map_err(|e| at(e.error()))?;
    handle.sync_all().map_err(|e| at(&e))
}

/// Writes the file at `path` again: the rows of the file `before` (the
/// build's file of the rows of no set, written by an earlier run) whose
/// `replaced` column (by index in the layout) holds none of the run's keys,
/// then its own rows but those of `dropped` (ranges of row numbers); and
/// syncs it.
fn rewrite(
    path: &Path,
    dropped: &[(usize, usize)],
    before: Option<&Path>,
    replaced: Option<&(usize, std::collections::HashSet<String>)>,
    schema: &SchemaRef,
    properties: &WriterProperties,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut dropped = dropped.to_vec();
    dropped.sort_unstable();
    let kept_path = path.with_extension("kept");
    let out = File::create(&kept_path)?;
    let mut writer = ArrowWriter::try_new(
        BufWriter::with_capacity(WRITE_BUFFER, out),
        Arc::clone(schema),
        Some(properties.clone()),
    )?;
    if let Some(before) = before {
        copy_rows(before, &mut writer, schema, |batch, row, _| {
            let Some((column, keys)) = replaced else {
                return true;
            };
            let key = column
                .checked_sub(1)
                .and_then(|c| batch.columns().get(c))
                .and_then(|a| a.as_any().downcast_ref::<arrow_array::StringArray>())
                .and_then(|a| arrow_array::Array::is_valid(a, row).then(|| a.value(row)));
            key.is_none_or(|key| !keys.contains(key))
        })?;
    }
    copy_rows(path, &mut writer, schema, |_, _, at| {
        !dropped.iter().any(|&(a, b)| a <= at && at < b)
    })?;
    let inner = writer.into_inner()?;
    let file = inner.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    std::fs::rename(&kept_path, path)?;
    Ok(())
}

/// Copies the rows of the file at `path` that `keep` keeps (given the
/// batch, the row in it and the row's number in the file) to `writer`.
fn copy_rows(
    path: &Path,
    writer: &mut ArrowWriter<BufWriter<File>>,
    schema: &SchemaRef,
    mut keep: impl FnMut(&RecordBatch, usize, usize) -> bool,
) -> Result<(), Box<dyn std::error::Error>> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path)?)?
        .with_batch_size(8192)
        .build()?;
    let mut at = 0;
    for batch in reader {
        let batch = batch?;
        let rows = batch.num_rows();
        // Runs of rows kept, written as slices.
        let mut from = None;
        for row in 0..=rows {
            let kept = row < rows && keep(&batch, row, at + row);
            match (kept, from) {
                (true, None) => from = Some(row),
                (false, Some(start)) => {
                    let slice = batch.slice(start, row - start);
                    writer.write(&RecordBatch::try_new(
                        Arc::clone(schema),
                        slice.columns().to_vec(),
                    )?)?;
                    from = None;
                }
                _ => {}
            }
        }
        at += rows;
    }
    Ok(())
}

/// Locks `dir` for this run.
fn lock(dir: &Path) -> Result<File, Error> {
    let path = dir.join(LOCK_NAME);
    let at = |e: &dyn std::fmt::Display| Error::new(format!("{}: {e}", path.display()));
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| at(&e))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(Error::new(format!(
            "parquet:{}: another export is writing into this directory (it holds {LOCK_NAME}); run again once it has finished",
            dir.display()
        ))),
        Err(TryLockError::Error(e)) => Err(at(&e)),
    }
}

/// Records the operations of a commit (under `dir`): the run is
/// committed once the record is on disk.
fn record_commit(dir: &Path, operations: &[Operation]) -> Result<(), Error> {
    let path = dir.join(COMMIT_RECORD);
    let at = |e: std::io::Error| Error::new(format!("{}: {e}", path.display()));
    let relative = |p: &Path| {
        p.strip_prefix(dir)
            .unwrap_or(p)
            .to_string_lossy()
            .into_owned()
    };
    let mut record = String::new();
    for operation in operations {
        match operation {
            Operation::Rename(from, to) => {
                record.push_str(&format!("rename\t{}\t{}\n", relative(from), relative(to)));
            }
            Operation::Remove(path) => {
                record.push_str(&format!("remove\t{}\n", relative(path)));
            }
        }
    }
    let mut file = File::create(&path).map_err(at)?;
    file.write_all(record.as_bytes()).map_err(at)?;
    file.sync_all().map_err(at)?;
    sync_folder(dir)
}

/// Does the operations of a recorded commit, if there is one, and removes
/// the record.
fn finish_commit(dir: &Path) -> Result<(), Error> {
    let path = dir.join(COMMIT_RECORD);
    let unfinished = |why: String| {
        Error::new(format!(
            "{}: {why}; the commit it records is finished by the next export into {}",
            path.display(),
            dir.display()
        ))
    };
    let record = match std::fs::read_to_string(&path) {
        Ok(record) => record,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(unfinished(e.to_string())),
    };
    let inside = |line: &str, relative: &str| -> Result<PathBuf, Error> {
        let relative = Path::new(relative);
        if relative.as_os_str().is_empty()
            || !relative
                .components()
                .all(|c| matches!(c, Component::Normal(_)))
        {
            return Err(Error::new(format!(
                "{}: names `{line}`, which is not a folder inside {}: remove the record once the folders are checked",
                path.display(),
                dir.display()
            )));
        }
        Ok(dir.join(relative))
    };
    let mut touched: Vec<PathBuf> = Vec::new();
    for line in record.lines().filter(|line| !line.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (from, to, remove) = match fields.as_slice() {
            ["rename", from, to] => (inside(line, from)?, Some(inside(line, to)?), false),
            ["remove", file] => (inside(line, file)?, None, true),
            [folder] => {
                // A record of an earlier version: a folder whose one file
                // is renamed.
                let folder = inside(line, folder)?;
                (
                    folder.join(OLD_TEMPORARY_NAME),
                    Some(folder.join(OLD_FILE_NAME)),
                    false,
                )
            }
            _ => return Err(unfinished(format!("`{line}` is not an operation"))),
        };
        match (to, remove) {
            (Some(to), _) if from.exists() => std::fs::rename(&from, &to)
                .map_err(|e| unfinished(format!("{}: {e}", from.display())))?,
            (None, true) if from.exists() => std::fs::remove_file(&from)
                .map_err(|e| unfinished(format!("{}: {e}", from.display())))?,
            _ => {}
        }
        if let Some(folder) = from.parent() {
            if !touched.iter().any(|t| t == folder) {
                touched.push(folder.to_path_buf());
            }
        }
    }
    for folder in &touched {
        sync_folder(folder)?;
    }
    std::fs::remove_file(&path).map_err(|e| unfinished(e.to_string()))?;
    sync_folder(dir)
}

/// Puts the entries of `folder` (made, renamed or removed) on disk.
fn sync_folder(folder: &Path) -> Result<(), Error> {
    #[cfg(unix)]
    File::open(folder)
        .and_then(|handle| handle.sync_all())
        .map_err(|e| Error::new(format!("{}: {e}", folder.display())))?;
    #[cfg(not(unix))]
    let _ = folder;
    Ok(())
}

#[cfg(test)]
mod tests {
    use parquet::file::reader::{FileReader, SerializedFileReader};

    use super::*;

    /// The sizes of the row groups of the `cards` file that `rows` cards
    /// make, written under `budget`, and the cards' names as read back.
    fn cards_written(rows: usize, budget: usize) -> (Vec<i64>, Vec<String>) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let table = layout()
            .tables
            .iter()
            .position(|t| t.name == "cards")
            .expect("a cards table");
        let name = layout().tables[table]
            .columns
            .iter()
            .position(|c| c.name == "name")
            .expect("a name column");
        let mut cards = TableRows::new(layout().tables[table].columns.len());
        for n in 0..rows {
            let row = cards.push_row();
            cards.set_text(row, name, &format!("card {n}"));
        }
        let mut store = Parquet::open(dir.path(), None, Mode::Replace).expect("a new export");
        store.budget = budget;
        store.write(table, &cards).expect("the rows written");
        Box::new(store).commit().expect("the export committed");

        let file = File::open(dir.path().join("cards").join(FILE_NAME)).expect("the cards file");
        let reader = SerializedFileReader::new(file).expect("a Parquet file");
        let groups = reader
            .metadata()
            .row_groups()
            .iter()
            .map(|g| g.num_rows())
            .collect();
        let names = reader
            .get_row_iter(None)
            .expect("its rows")
            .map(|row| {
                let row = row.expect("a row");
                row.get_column_iter()
                    .find(|(column, _)| column.as_str() == "name")
                    .map(|(_, value)| value.to_string())
                    .unwrap_or_default()
            })
            .collect();
        (groups, names)
    }

    #[test]
    fn row_groups_are_closed_when_the_encoders_outgrow_their_budget() {
        let rows = 2 * BATCH_ROWS + 100;
        let expected: Vec<String> = (0..rows).map(|n| format!("\"card {n}\"")).collect();

        let (groups, names) = cards_written(rows, ENCODING_BUDGET);
        assert_eq!(
            groups,
            [2 * BATCH_ROWS as i64 + 100],
            "one group within the budget"
        );
        assert_eq!(names, expected);

        // Over budget after every batch: each batch closes its group.
        let (groups, names) = cards_written(rows, 0);
        assert_eq!(groups, [BATCH_ROWS as i64, BATCH_ROWS as i64, 100]);
        assert_eq!(names, expected);
    }

    /// Writes `text` to `dir/relative`, making its folder.
    fn put(dir: &Path, relative: &str, text: &str) {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("the folder made");
        std::fs::write(path, text).expect("the file written");
    }

    fn read(dir: &Path, relative: &str) -> String {
        std::fs::read_to_string(dir.join(relative)).unwrap_or_else(|e| format!("({e})"))
    }

    #[test]
    fn a_commit_left_unfinished_is_finished_before_the_next_run_writes() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = dir.path();
        // Killed after `sets` was renamed, before `cards` was.
        put(dir, COMMIT_RECORD, "sets/build=b\ncards/build=b\n");
        put(dir, "sets/build=b/part-0.parquet", "new sets");
        put(dir, "cards/build=b/part-0.parquet", "old cards");
        put(dir, "cards/build=b/.part-0.parquet.incomplete", "new cards");

        let store = Parquet::open(dir, Some("other"), Mode::Replace).expect("a new run");
        assert_eq!(read(dir, "cards/build=b/part-0.parquet"), "new cards");
        assert_eq!(read(dir, "sets/build=b/part-0.parquet"), "new sets");
        assert!(!dir
            .join("cards/build=b/.part-0.parquet.incomplete")
            .exists());
        assert!(!dir.join(COMMIT_RECORD).exists(), "the record is removed");
        Box::new(store).abort();
        assert_eq!(read(dir, "cards/build=b/part-0.parquet"), "new cards");
    }

    #[test]
    fn a_commit_of_set_files_left_unfinished_is_finished_before_the_next_run_writes() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = dir.path();
        // Killed after the new `sets` file of AAA was renamed, before the
        // `cards` one was and before BBB's old `tokens` file was removed.
        put(
            dir,
            COMMIT_RECORD,
            "rename\tsets/.set-AAA.parquet.incomplete\tsets/set-AAA.parquet\n\
             rename\tcards/.set-AAA.parquet.incomplete\tcards/set-AAA.parquet\n\
             remove\ttokens/set-BBB.parquet\n",
        );
        put(dir, "sets/set-AAA.parquet", "new sets");
        put(dir, "cards/set-AAA.parquet", "old cards");
        put(dir, "cards/.set-AAA.parquet.incomplete", "new cards");
        put(dir, "tokens/set-BBB.parquet", "old tokens");

        let store = Parquet::open(dir, Some("other"), Mode::Replace).expect("a new run");
        assert_eq!(read(dir, "sets/set-AAA.parquet"), "new sets");
        assert_eq!(read(dir, "cards/set-AAA.parquet"), "new cards");
        assert!(!dir.join("cards/.set-AAA.parquet.incomplete").exists());
        assert!(!dir.join("tokens/set-BBB.parquet").exists());
        assert!(!dir.join(COMMIT_RECORD).exists(), "the record is removed");
        Box::new(store).abort();
    }

    #[test]
    fn a_commit_record_naming_a_folder_outside_the_directory_is_refused() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let export = dir.path().join("export");
        put(&export, COMMIT_RECORD, "../elsewhere\n");
        put(
            dir.path(),
            "elsewhere/.part-0.parquet.incomplete",
            "not ours",
        );

        let error = Parquet::open(&export, None, Mode::Replace)
            .err()
            .expect("refused");
        assert!(
            error
                .to_string()
                .contains("names `../elsewhere`, which is not a folder inside"),
            "{error}"
        );
        assert_eq!(
            read(dir.path(), "elsewhere/.part-0.parquet.incomplete"),
            "not ours"
        );
        assert!(!dir.path().join("elsewhere/part-0.parquet").exists());
    }

    #[test]
    fn a_committed_run_leaves_its_files_in_place_and_no_record() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = Parquet::open(dir.path(), Some("b"), Mode::Replace).expect("a new run");
        Box::new(store).commit().expect("committed");
        assert!(!dir.path().join(COMMIT_RECORD).exists());
        for table in &layout().tables {
            let folder = dir.path().join(&table.name).join("build=b");
            assert!(folder.join(FILE_NAME).is_file(), "{}", table.name);
            assert!(!folder.join(TEMPORARY_NAME).exists(), "{}", table.name);
        }
    }

    #[test]
    fn two_runs_never_write_into_one_directory_at_once() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let first = Parquet::open(dir.path(), Some("a"), Mode::Replace).expect("the first run");
        let error = Parquet::open(dir.path(), Some("b"), Mode::Replace)
            .err()
            .expect("the second refused");
        assert!(
            error
                .to_string()
                .contains("another export is writing into this directory"),
            "{error}"
        );
        Box::new(first).abort();
        let second = Parquet::open(dir.path(), Some("b"), Mode::Replace)
            .expect("the second, once the first is done");
        Box::new(second).abort();
    }
}
