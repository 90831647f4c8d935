//! Parquet, for DuckDB, Spark and other engines: a directory per table, one
//! zstd-compressed file per table (per build, in a Hive partition
//! `build=LABEL/`). Files are written under a hidden temporary name
//! (`.part-0.parquet.incomplete`, which readers skip) and renamed when the
//! run commits; a failed run removes them.
//!
//! The renames cannot all happen at once, so the commit is recorded first:
//! once every file is complete and on disk, the folders whose file is to be
//! renamed are written to `DIR/.cardkit-commit`, and that record is removed
//! when all are renamed. A run stopped in between (killed, or a rename
//! refused) leaves the record, and the next run into the directory finishes
//! the renames before it writes anything: a build is never left half
//! replaced. Each run holds a lock on `DIR/.cardkit-lock` meanwhile, so that
//! two runs never write the same temporary files.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufWriter, ErrorKind, Write as _};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;

use crate::arrow::{schema, Builder};
use crate::keys::Changes;
use crate::layout::layout;
use crate::rows::TableRows;
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

/// The name of a table's file in its directory (or partition).
pub const FILE_NAME: &str = "part-0.parquet";
const TEMPORARY_NAME: &str = ".part-0.parquet.incomplete";
/// The record of a commit whose renames are not all done: the folders
/// whose temporary file is to be renamed, relative to the directory, one
/// per line.
pub const COMMIT_RECORD: &str = ".cardkit-commit";
/// The key of each file's key-value metadata that holds the layout
/// version.
pub const LAYOUT_KEY: &str = "cardkit.layout_version";
/// Locked by each run for its whole length.
pub const LOCK_NAME: &str = ".cardkit-lock";

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
    /// The rows of the latest set of each code: (table, start, end).
    sets: std::collections::HashMap<String, Vec<(usize, usize, usize)>>,
    /// The row of the latest migration of each id.
    migrations: std::collections::HashMap<String, usize>,
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
        let there = layout().tables.iter().any(|table| {
            let mut folder = dir.join(&table.name);
            if let Some(build) = build {
                folder.push(format!("build={}", partition_value(build)));
            }
            folder.join(FILE_NAME).exists()
        });
        if there && mode == Mode::Append {
            let build = build.map_or("the build without a label".to_owned(), |b| {
                format!("build {b}")
            });
            return Err(Error::new(format!(
                    "parquet:{}: {build} is there already, and Parquet files are written whole (a run cannot add to them): give --replace to write it anew, or another --build label",
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
        for table in &layout().tables {
            let mut folder = dir.join(&table.name);
            if let Some(build) = build {
                folder.push(format!("build={}", partition_value(build)));
            }
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
            replaced: there,
            created,
            made_dir,
            properties,
            twice: Twice {
                written: vec![0; layout().tables.len()],
                dropped: vec![Vec::new(); layout().tables.len()],
                ..Twice::default()
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
        let twice = &mut self.twice;
        // A set's rows come on their own: a code read before has its rows
        // left out of the files.
        let sets = &rows.tables[keys.sets];
        if let Some(code) = sets
            .rows()
            .next()
            .and_then(|row| crate::keys::text(sets, row, keys.set_code))
        {
            let ranges: Vec<(usize, usize, usize)> = rows
                .tables
                .iter()
                .enumerate()
                .filter(|(_, t)| !t.is_empty())
                .map(|(t, table)| (t, twice.written[t], twice.written[t] + table.len()))
                .collect();
            if let Some(before) = twice.sets.insert(code.to_owned(), ranges) {
                for (t, start, end) in before {
                    twice.dropped[t].push((start, end));
                }
            }
        }
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
        for (t, table) in rows.tables.iter().enumerate() {
            self.twice.written[t] += table.len();
            if !table.is_empty() {
                self.write(t, table)?;
            }
        }
        Ok(())
    }

    fn write(&mut self, table: usize, rows: &TableRows) -> Result<(), Error> {
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
            properties,
            mut twice,
            ..
        } = *self;
        let mut written = Vec::new();
        let mut failed = None;
        for (t, mut file) in files.into_iter().enumerate() {
            let temporary = file.temporary.clone();
            let dropped = std::mem::take(&mut twice.dropped[t]);
            let schema = Arc::clone(&file.schema);
            let outcome = file.flush().and_then(|()| {
                let at =
                    |e: &dyn std::fmt::Display| Error::new(format!("{}: {e}", temporary.display()));
                // Complete and on disk before the commit is recorded.
                let inner = file.writer.into_inner().map_err(|e| at(&e))?;
                let handle = inner.into_inner().map_err(|e| at(e.error()))?;
                if dropped.is_empty() {
                    return handle.sync_all().map_err(|e| at(&e));
                }
                drop(handle);
                leave_out(&temporary, &dropped, &schema, &properties).map_err(|e| {
                    let _ = std::fs::remove_file(temporary.with_extension("kept"));
                    at(&e)
                })
            });
            match outcome {
                Ok(()) => written.push(file.path),
                Err(error) => {
                    let _ = std::fs::remove_file(&temporary);
                    failed.get_or_insert(error);
                }
            }
        }
        let folders: Vec<&Path> = written.iter().filter_map(|path| path.parent()).collect();
        if let Some(error) = failed {
            for folder in folders {
                let _ = std::fs::remove_file(folder.join(TEMPORARY_NAME));
            }
            return Err(error);
        }
        record_commit(&dir, &folders)?;
        finish_commit(&dir)?;
        Ok(Changes {
            emptied: replaced,
            ..Changes::default()
        })
    }

    fn abort(self: Box<Self>) {
        for file in self.files {
            drop(file.writer);
            let _ = std::fs::remove_file(&file.temporary);
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

/// Writes the file at `path` again without the rows of `dropped` (ranges
/// of row numbers), and syncs it.
fn leave_out(
    path: &Path,
    dropped: &[(usize, usize)],
    schema: &SchemaRef,
    properties: &WriterProperties,
) -> Result<(), Box<dyn std::error::Error>> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let mut dropped = dropped.to_vec();
    dropped.sort_unstable();
    let kept_path = path.with_extension("kept");
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path)?)?
        .with_batch_size(8192)
        .build()?;
    let out = File::create(&kept_path)?;
    let mut writer = ArrowWriter::try_new(
        BufWriter::with_capacity(WRITE_BUFFER, out),
        Arc::clone(schema),
        Some(properties.clone()),
    )?;
    let mut at = 0;
    for batch in reader {
        let batch = batch?;
        let (start, end) = (at, at + batch.num_rows());
        at = end;
        // The rows of [start, end) kept: between the ranges dropped.
        let mut from = start;
        for &(a, b) in dropped.iter().filter(|&&(a, b)| b > start && a < end) {
            let (a, b) = (a.max(start), b.min(end));
            if a > from {
                let slice = batch.slice(from - start, a - from);
                writer.write(&RecordBatch::try_new(
                    Arc::clone(schema),
                    slice.columns().to_vec(),
                )?)?;
            }
            from = from.max(b);
        }
        if end > from {
            let slice = batch.slice(from - start, end - from);
            writer.write(&RecordBatch::try_new(
                Arc::clone(schema),
                slice.columns().to_vec(),
            )?)?;
        }
    }
    let inner = writer.into_inner()?;
    let file = inner.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    std::fs::rename(&kept_path, path)?;
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

/// Records that the temporary files of `folders` (under `dir`) are to be
/// renamed into place: the run is committed once the record is on disk.
fn record_commit(dir: &Path, folders: &[&Path]) -> Result<(), Error> {
    let path = dir.join(COMMIT_RECORD);
    let at = |e: std::io::Error| Error::new(format!("{}: {e}", path.display()));
    let mut record = String::new();
    for folder in folders {
        let relative = folder.strip_prefix(dir).unwrap_or(folder);
        record.push_str(&relative.to_string_lossy());
        record.push('\n');
    }
    let mut file = File::create(&path).map_err(at)?;
    file.write_all(record.as_bytes()).map_err(at)?;
    file.sync_all().map_err(at)?;
    sync_folder(dir)
}

/// Renames the files of a recorded commit into place, if there is one,
/// and removes the record.
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
    for line in record.lines().filter(|line| !line.is_empty()) {
        let relative = Path::new(line);
        if !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
        {
            return Err(Error::new(format!(
                "{}: names `{line}`, which is not a folder inside {}: remove the record once the folders are checked",
                path.display(),
                dir.display()
            )));
        }
        let folder = dir.join(relative);
        let temporary = folder.join(TEMPORARY_NAME);
        if temporary.exists() {
            std::fs::rename(&temporary, folder.join(FILE_NAME))
                .map_err(|e| unfinished(format!("{}: {e}", temporary.display())))?;
        }
        sync_folder(&folder)?;
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
