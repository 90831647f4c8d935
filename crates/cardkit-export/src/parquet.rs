//! Parquet, for DuckDB, Spark and other engines: a directory per table, and
//! in it (in the Hive partition `build=LABEL/` of a labelled build) a file
//! per run, `run-NNNNNN.parquet`, zstd-compressed, holding the rows of every
//! set and migration the run wrote. A build is the union of its run files,
//! so a run adds to it as SQLite does: what it writes goes into new files,
//! and the sets, uuids and migrations it replaces are taken out of the
//! earlier runs' files, which are written again without their rows (or
//! removed, when nothing is left of them). The files of the runs whose rows
//! it does not replace are not touched.
//!
//! Which set codes, uuids, migration ids and inputs (`meta`) each run's
//! files hold is recorded in `DIR/.cardkit-runs/[build=LABEL/]run-NNNNNN.keys`
//! (a hidden folder, outside the tables' folders, which readers never see),
//! so that a run finds what it replaces without reading the files.
//!
//! Files are written under hidden temporary names (`.run-NNNNNN.parquet.incomplete`,
//! which readers skip) and put in place when the run commits; a failed run
//! removes them. The renames and removals cannot all happen at once, so the
//! commit is recorded first: once every file is complete and on disk, what
//! is to be renamed and removed is written to `DIR/.cardkit-commit`, and
//! that record is removed when all is done. A run stopped in between
//! (killed, or a rename refused) leaves the record, and the next run into
//! the directory finishes it before it reads or writes anything: a build is
//! never left half replaced. Each run holds a lock on `DIR/.cardkit-lock`
//! meanwhile, so that two runs never write the same files.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufWriter, ErrorKind, Write as _};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, BooleanArray, RecordBatch, StringArray};
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;

use crate::arrow::{schema, Builder};
use crate::keys::{keys, text, Changes, Known, Removal};
use crate::layout::layout;
use crate::rows::{Rows, TableRows};
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
/// Rows read at a time from a file written again.
const READ_BATCH: usize = 8192;

/// The name of the file of a build written by cardkit before builds were
/// made of runs: such a build is only written again with `--replace`.
pub const OLD_FILE_NAME: &str = "part-0.parquet";
/// What a temporary file's name ends with.
const INCOMPLETE: &str = ".incomplete";
/// The record of a commit whose renames and removals are not all done:
/// one per line, `rename\tFROM\tTO` or `remove\tPATH`, relative to the
/// directory. (A line without a tab, as earlier versions wrote, names a
/// folder whose `.part-0.parquet.incomplete` is to be renamed.)
pub const COMMIT_RECORD: &str = ".cardkit-commit";
/// The key of each file's key-value metadata that holds the layout
/// version.
pub const LAYOUT_KEY: &str = "cardkit.layout_version";
/// Locked by each run for its whole length.
pub const LOCK_NAME: &str = ".cardkit-lock";
/// The folder of the records of what each run's files hold.
pub const RUNS_FOLDER: &str = ".cardkit-runs";
/// The first line of a run's record of keys.
const KEYS_HEADER: &str = "cardkit run keys 1";

/// The name of run `run`'s file of a table, in the table's folder (or
/// build partition).
#[must_use]
pub fn run_file_name(run: u64) -> String {
    format!("run-{run:06}.parquet")
}

/// The name of the record of run `run`'s keys, in [`RUNS_FOLDER`] (or its
/// build partition).
fn keys_file_name(run: u64) -> String {
    format!("run-{run:06}.keys")
}

/// The temporary name under which `name` is written.
fn temporary_name(name: &str) -> String {
    format!(".{name}{INCOMPLETE}")
}

/// The run of a file named `run-NNNNNN.parquet` (or `.keys`).
fn run_of(name: &str, extension: &str) -> Option<u64> {
    let digits = name.strip_prefix("run-")?.strip_suffix(extension)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// One table's file being written.
struct TableFile {
    schema: SchemaRef,
    builders: Vec<Builder>,
    /// Rows written to the file in all.
    rows: usize,
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

/// The keys of one run's files: what a later run looks for to replace.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct RunKeys {
    sets: BTreeSet<String>,
    /// Each uuid of a card, token or product, and its set's code.
    uuids: BTreeMap<String, String>,
    migrations: BTreeSet<String>,
    /// The inputs of the `meta` rows.
    metas: BTreeSet<String>,
    /// Rows that no key names (a set without a code, a card without a
    /// uuid): never replaced, so the files holding them are never removed
    /// whole.
    unkeyed: usize,
}

impl RunKeys {
    fn is_empty(&self) -> bool {
        self.sets.is_empty()
            && self.uuids.is_empty()
            && self.migrations.is_empty()
            && self.metas.is_empty()
            && self.unkeyed == 0
    }

    /// Records the keys of `rows`.
    fn note(&mut self, rows: &Rows) {
        let keys = keys();
        let sets = &rows.tables[keys.sets];
        for row in sets.rows() {
            match text(sets, row, keys.set_code) {
                Some(code) => {
                    if !self.sets.contains(code) {
                        self.sets.insert(code.to_owned());
                    }
                }
                None => self.unkeyed += 1,
            }
        }
        for &(t, owner, uuid) in &keys.set_owned {
            let table = &rows.tables[t];
            for row in table.rows() {
                let Some(code) = text(table, row, owner) else {
                    self.unkeyed += 1;
                    continue;
                };
                if let Some(uuid) = uuid.and_then(|uuid| text(table, row, uuid)) {
                    self.uuids.insert(uuid.to_owned(), code.to_owned());
                }
            }
        }
        for &(t, uuid) in &keys.uuid_owned {
            let table = &rows.tables[t];
            self.unkeyed += table
                .rows()
                .filter(|row| text(table, row, uuid).is_none())
                .count();
        }
        if let Some((t, id)) = keys.migrations {
            let table = &rows.tables[t];
            for row in table.rows() {
                match text(table, row, id) {
                    Some(id) => {
                        if !self.migrations.contains(id) {
                            self.migrations.insert(id.to_owned());
                        }
                    }
                    None => self.unkeyed += 1,
                }
            }
        }
        let (t, input) = keys.meta;
        let table = &rows.tables[t];
        for row in table.rows() {
            match text(table, row, input) {
                Some(input) => {
                    self.metas.insert(input.to_owned());
                }
                None => self.unkeyed += 1,
            }
        }
    }

    /// The record's text: a header, then a JSON array per key.
    fn to_text(&self) -> String {
        use serde_json::json;
        let mut out = format!("{KEYS_HEADER}\n");
        let mut line = |value: serde_json::Value| {
            out.push_str(&value.to_string());
            out.push('\n');
        };
        line(json!(["unkeyed", self.unkeyed]));
        for code in &self.sets {
            line(json!(["set", code]));
        }
        for (uuid, code) in &self.uuids {
            line(json!(["uuid", uuid, code]));
        }
        for id in &self.migrations {
            line(json!(["migration", id]));
        }
        for input in &self.metas {
            line(json!(["meta", input]));
        }
        out
    }

    /// Reads a record written by [`RunKeys::to_text`]; what is wrong, and
    /// on which line.
    fn from_text(text: &str) -> Result<RunKeys, String> {
        let mut lines = text.lines();
        if lines.next() != Some(KEYS_HEADER) {
            return Err(format!("line 1: not `{KEYS_HEADER}`"));
        }
        let mut keys = RunKeys::default();
        for (n, line) in lines.enumerate() {
            let wrong = |why: &str| format!("line {}: {why}", n + 2);
            let value: Vec<serde_json::Value> =
                serde_json::from_str(line).map_err(|e| wrong(&e.to_string()))?;
            let item = |i: usize| -> Result<String, String> {
                value
                    .get(i)
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| wrong("a key is missing"))
            };
            match value.first().and_then(serde_json::Value::as_str) {
                Some("unkeyed") => {
                    keys.unkeyed = value
                        .get(1)
                        .and_then(serde_json::Value::as_u64)
                        .and_then(|n| usize::try_from(n).ok())
                        .ok_or_else(|| wrong("no count"))?;
                }
                Some("set") => {
                    keys.sets.insert(item(1)?);
                }
                Some("uuid") => {
                    keys.uuids.insert(item(1)?, item(2)?);
                }
                Some("migration") => {
                    keys.migrations.insert(item(1)?);
                }
                Some("meta") => {
                    keys.metas.insert(item(1)?);
                }
                _ => return Err(wrong("not a key")),
            }
        }
        Ok(keys)
    }
}

/// What a run takes out of an earlier run's files.
#[derive(Debug, Default)]
struct Dropping {
    sets: HashSet<String>,
    /// Uuids stored under a set that is kept, moved to another set.
    uuids: HashSet<String>,
    migrations: HashSet<String>,
    metas: HashSet<String>,
}

/// What the build held before the run: its runs' keys and files.
#[derive(Default)]
struct Stored {
    runs: BTreeMap<u64, RunKeys>,
    /// Per table, the files of the build (by run), and an old
    /// `part-0.parquet` if there is one.
    files: Vec<BTreeMap<u64, PathBuf>>,
    old_files: Vec<PathBuf>,
    /// The run that holds each key.
    set_run: HashMap<String, u64>,
    uuid_run: HashMap<Box<str>, u64>,
    migration_run: HashMap<String, u64>,
    meta_run: HashMap<String, u64>,
}

/// An export into a directory of Parquet files.
pub struct Parquet {
    dir: PathBuf,
    /// The build's partition folder name (`build=LABEL`), if labelled.
    partition: Option<String>,
    /// Held until the run ends (the lock goes with the file).
    _lock: File,
    /// This run's number in the build.
    run: u64,
    files: Vec<TableFile>,
    /// [`ENCODING_BUDGET`], or less in tests.
    budget: usize,
    /// The build was there, and is emptied (`--replace`).
    emptying: bool,
    /// The folders the run made (removed again if it fails), and whether
    /// it made the directory itself.
    created: Vec<PathBuf>,
    made_dir: bool,
    properties: WriterProperties,
    /// What the run read twice: the rows of the earlier are left out of
    /// the files at the commit (the later is kept, as in SQLite).
    twice: Twice,
    stored: Stored,
    known: Known,
    changes: Changes,
    /// The keys this run writes.
    keys: RunKeys,
    /// What the run takes out of earlier runs' files, by run.
    dropping: BTreeMap<u64, Dropping>,
}

/// The rows of each table's file that a later document replaces.
#[derive(Default)]
struct Twice {
    /// Rows written per table.
    written: Vec<usize>,
    /// The rows of the latest set of each code: (table, start, end).
    sets: HashMap<String, Vec<(usize, usize, usize)>>,
    /// The row of the latest migration of each id.
    migrations: HashMap<String, usize>,
    /// Per table, the ranges of rows left out.
    dropped: Vec<Vec<(usize, usize)>>,
    /// Uuids that a later set of the run holds too: per table, the rows
    /// before this one that hold the uuid are left out.
    moved: HashMap<String, Vec<usize>>,
}

impl Twice {
    /// Whether rows of table `t` are left out.
    fn leaves_out(&self, t: usize) -> bool {
        !self.dropped[t].is_empty() || !self.moved.is_empty() && uuid_column(t).is_some()
    }
}

/// The `uuid` column of table `t`, if it has one (that of a card, token or
/// product, or of the rows they own).
fn uuid_column(t: usize) -> Option<usize> {
    let keys = keys();
    keys.set_owned
        .iter()
        .find(|&&(owned, _, _)| owned == t)
        .and_then(|&(_, _, uuid)| uuid)
        .or_else(|| {
            keys.uuid_owned
                .iter()
                .find(|&&(owned, _)| owned == t)
                .map(|&(_, uuid)| uuid)
        })
}

/// A table's folder in the build (`DIR/TABLE[/build=LABEL]`).
fn build_folder(dir: &Path, table: &str, partition: Option<&str>) -> PathBuf {
    let mut folder = dir.join(table);
    if let Some(partition) = partition {
        folder.push(partition);
    }
    folder
}

impl Parquet {
    /// Starts writing each table's file of a new run under `dir` (in the
    /// partition of `build`, if given), under a temporary name, once a
    /// commit left unfinished by a run stopped during it is finished.
    ///
    /// # Errors
    /// A directory or file cannot be made, another run is writing into
    /// `dir`, a commit left unfinished cannot be finished, or a record of
    /// the build's runs cannot be read; or the build was written by an
    /// earlier cardkit (one `part-0.parquet` per table) and `mode` is
    /// [`Mode::Append`].
    pub fn open(dir: &Path, build: Option<&str>, mode: Mode) -> Result<Parquet, Error> {
        let made_dir = !dir.exists();
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::new(format!("parquet:{}: {e}", dir.display())))?;
        let lock = lock(dir)?;
        finish_commit(dir)?;
        let partition = build.map(|b| format!("build={}", partition_value(b)));
        let (stored, mut known, run) = stored(dir, partition.as_deref(), mode)?;
        let there = stored.files.iter().any(|f| !f.is_empty()) || !stored.old_files.is_empty();
        if !stored.old_files.is_empty() && mode == Mode::Append {
            let build = build.map_or("the build without a label".to_owned(), |b| {
                format!("build {b}")
            });
            return Err(Error::new(format!(
                "parquet:{}: {build} was written by an earlier cardkit, as one file per table ({OLD_FILE_NAME}), which a run cannot add to: give --replace to write it anew, or another --build label",
                dir.display()
            )));
        }
        if mode == Mode::Replace {
            known = Known::default();
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
            let folder = build_folder(dir, &table.name, partition.as_deref());
            let at = |e: std::io::Error| Error::new(format!("{}: {e}", folder.display()));
            let table_dir = dir.join(&table.name);
            if !table_dir.exists() {
                created.push(table_dir);
            }
            if build.is_some() && !folder.exists() {
                created.push(folder.clone());
            }
            std::fs::create_dir_all(&folder).map_err(at)?;
            remove_temporaries(&folder);
            let name = run_file_name(run);
            let temporary = folder.join(temporary_name(&name));
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
                rows: 0,
                buffered: 0,
                buffered_bytes: 0,
                writer,
                path: folder.join(name),
                temporary,
            });
        }
        remove_temporaries(&runs_folder(dir, partition.as_deref()));
        let tables = layout().tables.len();
        Ok(Parquet {
            dir: dir.to_path_buf(),
            partition,
            _lock: lock,
            run,
            files,
            budget: ENCODING_BUDGET,
            emptying: there && mode == Mode::Replace,
            created,
            made_dir,
            properties,
            twice: Twice {
                written: vec![0; tables],
                dropped: vec![Vec::new(); tables],
                ..Twice::default()
            },
            stored,
            known,
            changes: Changes::default(),
            keys: RunKeys::default(),
            dropping: BTreeMap::new(),
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

    /// Notes the rows of `rows` that replace rows written earlier in the
    /// run (a set or migration read twice): those are left out at the
    /// commit.
    fn note_twice(&mut self, rows: &Rows) {
        let keys = keys();
        let twice = &mut self.twice;
        // A set's rows come on their own: a code read before has its rows
        // left out of the files.
        let sets = &rows.tables[keys.sets];
        if let Some(code) = sets
            .rows()
            .next()
            .and_then(|row| text(sets, row, keys.set_code))
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
                if let Some(id) = text(table, row, id) {
                    let at = twice.written[t] + i;
                    if let Some(before) = twice.migrations.insert(id.to_owned(), at) {
                        twice.dropped[t].push((before, before + 1));
                    }
                }
            }
        }
    }

    /// Notes what `rows` replace of the build before the run (taken out of
    /// the earlier runs' files at the commit) and of uuids written earlier
    /// in the run under another set; counts it in the changes.
    fn note_replaced(&mut self, rows: &Rows) -> Result<(), Error> {
        let Parquet {
            known,
            changes,
            stored,
            dropping,
            twice,
            ..
        } = self;
        known.prepare(&rows.tables, changes, |removal| {
            match removal {
                Removal::Set(code, true) => {
                    if let Some(&run) = stored.set_run.get(code) {
                        dropping
                            .entry(run)
                            .or_default()
                            .sets
                            .insert(code.to_owned());
                    }
                }
                // Left out by [`Parquet::note_twice`].
                Removal::Set(_, false) => {}
                Removal::Uuid(uuid, true) => {
                    if let Some(&run) = stored.uuid_run.get(uuid) {
                        dropping
                            .entry(run)
                            .or_default()
                            .uuids
                            .insert(uuid.to_owned());
                    }
                }
                Removal::Uuid(uuid, false) => {
                    twice.moved.insert(uuid.to_owned(), twice.written.clone());
                }
                Removal::Migration(id) => {
                    if let Some(run) = stored.migration_run.remove(id) {
                        dropping
                            .entry(run)
                            .or_default()
                            .migrations
                            .insert(id.to_owned());
                    }
                }
                Removal::Meta(input) => {
                    if let Some(run) = stored.meta_run.remove(input) {
                        dropping
                            .entry(run)
                            .or_default()
                            .metas
                            .insert(input.to_owned());
                    }
                }
            }
            // Counted when the files are written again.
            Ok::<usize, Error>(0)
        })?;
        Ok(())
    }
}

/// The folder of the records of a build's runs.
fn runs_folder(dir: &Path, partition: Option<&str>) -> PathBuf {
    build_folder(dir, RUNS_FOLDER, partition)
}

/// What the build holds: its runs' keys (unless `mode` empties it) and
/// files, the keys as [`Known`] takes them, and the number of the next run.
fn stored(dir: &Path, partition: Option<&str>, mode: Mode) -> Result<(Stored, Known, u64), Error> {
    let mut stored = Stored::default();
    let mut known = Known::default();
    let mut last = 0;
    for table in &layout().tables {
        let folder = build_folder(dir, &table.name, partition);
        let mut files = BTreeMap::new();
        for name in names_in(&folder)? {
            if let Some(run) = run_of(&name, ".parquet") {
                last = last.max(run);
                files.insert(run, folder.join(&name));
            } else if name == OLD_FILE_NAME {
                stored.old_files.push(folder.join(name));
            }
        }
        stored.files.push(files);
    }
    let runs = runs_folder(dir, partition);
    for name in names_in(&runs)? {
        let Some(run) = run_of(&name, ".keys") else {
            continue;
        };
        last = last.max(run);
        if mode == Mode::Replace {
            stored.runs.insert(run, RunKeys::default());
            continue;
        }
        let path = runs.join(&name);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
        let keys = RunKeys::from_text(&text).map_err(|why| {
            Error::new(format!(
                "{}: {why}: the record of what the run's files hold cannot be read; give --replace to write the build anew",
                path.display()
            ))
        })?;
        for code in &keys.sets {
            known.set_before(code.clone());
            stored.set_run.insert(code.clone(), run);
        }
        // By set: `Known` finds the set it numbered last at once.
        let mut uuids: Vec<(&String, &String)> =
            keys.uuids.iter().map(|(uuid, code)| (code, uuid)).collect();
        uuids.sort_unstable();
        for (code, uuid) in uuids {
            known.uuid_before(uuid, code);
            stored.uuid_run.insert(uuid.as_str().into(), run);
        }
        for id in &keys.migrations {
            known.migration_before(id.clone());
            stored.migration_run.insert(id.clone(), run);
        }
        for input in &keys.metas {
            known.meta_before(input.clone());
            stored.meta_run.insert(input.clone(), run);
        }
        stored.runs.insert(run, keys);
    }
    if mode == Mode::Append {
        // A run's files whose keys are not recorded could never be
        // replaced: their sets would be stored twice.
        for files in &stored.files {
            if let Some((_, path)) = files.iter().find(|(run, _)| !stored.runs.contains_key(run)) {
                return Err(Error::new(format!(
                    "{}: no record in {} says which sets the file holds, so a run cannot replace them: give --replace to write the build anew",
                    path.display(),
                    runs.display()
                )));
            }
        }
    }
    Ok((stored, known, last + 1))
}

/// The names of the entries of `folder` (none if it does not exist).
fn names_in(folder: &Path) -> Result<Vec<String>, Error> {
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::new(format!("{}: {e}", folder.display()))),
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::new(format!("{}: {e}", folder.display())))?;
        names.push(entry.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(names)
}

/// Removes the temporary files that a run stopped before its commit left
/// in `folder` (runs into the directory are serialised by the lock, so no
/// run is writing them).
fn remove_temporaries(folder: &Path) {
    for name in names_in(folder).unwrap_or_default() {
        let ours = name.starts_with(".run-") || name == ".part-0.parquet.incomplete";
        if ours && (name.ends_with(INCOMPLETE) || name.ends_with(".kept")) {
            let _ = std::fs::remove_file(folder.join(name));
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
    fn write_rows(&mut self, rows: &Rows) -> Result<(), Error> {
        self.note_twice(rows);
        self.note_replaced(rows)?;
        self.keys.note(rows);
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
            file.rows += 1;
            file.buffered += 1;
            if file.buffered >= BATCH_ROWS || file.buffered_bytes >= BATCH_BYTES {
                file.flush()?;
                self.keep_within_budget()?;
            }
        }
        Ok(())
    }

    fn commit(mut self: Box<Self>) -> Result<Changes, Error> {
        if self.files.iter().all(|file| file.rows == 0) {
            // An empty run leaves nothing behind.
            self.abort();
            return Ok(Changes::default());
        }
        let mut commit = Commit::default();
        let outcome = self
            .prepare_commit(&mut commit)
            .and_then(|()| record_commit(&self.dir, &commit.operations));
        if let Err(error) = outcome {
            // Nothing is recorded: the build is as it was.
            for path in &commit.temporaries {
                let _ = std::fs::remove_file(path);
            }
            self.abort();
            return Err(error);
        }
        let mut changes = std::mem::take(&mut self.changes);
        changes.emptied = self.emptying;
        changes.removed_rows += commit.removed_rows;
        finish_commit(&self.dir)?;
        Ok(changes)
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

/// What a commit does, once every file it puts in place is on disk.
#[derive(Default)]
struct Commit {
    operations: Vec<Operation>,
    /// Files written for it, removed if it fails before it is recorded.
    temporaries: Vec<PathBuf>,
    /// Rows of earlier runs taken out (but of `meta`).
    removed_rows: usize,
}

/// One step of a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Operation {
    Rename(PathBuf, PathBuf),
    Remove(PathBuf),
}

impl Parquet {
    /// Writes every file of the commit under its temporary name, and says
    /// what is to be renamed and removed.
    fn prepare_commit(&mut self, commit: &mut Commit) -> Result<(), Error> {
        // Per table, the files of earlier runs that stay.
        let mut staying: Vec<usize> = self.stored.files.iter().map(BTreeMap::len).collect();
        if self.emptying {
            for (t, files) in self.stored.files.iter().enumerate() {
                for path in files.values() {
                    commit.operations.push(Operation::Remove(path.clone()));
                }
                staying[t] = 0;
            }
            for path in &self.stored.old_files {
                commit.operations.push(Operation::Remove(path.clone()));
            }
            let runs = runs_folder(&self.dir, self.partition.as_deref());
            for &run in self.stored.runs.keys() {
                commit
                    .operations
                    .push(Operation::Remove(runs.join(keys_file_name(run))));
            }
        } else {
            let dropping = std::mem::take(&mut self.dropping);
            for (run, dropping) in dropping {
                self.take_out(run, &dropping, commit, &mut staying)?;
            }
        }
        // This run's files: those with rows, and an empty one where the
        // build would have no file of the table (readers find one).
        let files = std::mem::take(&mut self.files);
        commit
            .temporaries
            .extend(files.iter().map(|file| file.temporary.clone()));
        let twice = std::mem::take(&mut self.twice);
        for (t, mut file) in files.into_iter().enumerate() {
            file.flush()?;
            let temporary = file.temporary.clone();
            let at =
                |e: &dyn std::fmt::Display| Error::new(format!("{}: {e}", temporary.display()));
            let inner = file.writer.into_inner().map_err(|e| at(&e))?;
            let handle = inner.into_inner().map_err(|e| at(e.error()))?;
            let mut kept = file.rows;
            if !twice.leaves_out(t) {
                handle.sync_all().map_err(|e| at(&e))?;
            } else {
                drop(handle);
                let rewritten = temporary.with_extension("kept");
                commit.temporaries.push(rewritten.clone());
                let keep = in_run_filter(t, &twice);
                let (k, _) = rewrite(&temporary, &rewritten, &file.schema, &self.properties, keep)
                    .map_err(|e| at(&e))?;
                std::fs::rename(&rewritten, &temporary).map_err(|e| at(&e))?;
                kept = k;
            }
            if kept > 0 || staying[t] == 0 {
                commit
                    .operations
                    .push(Operation::Rename(temporary, file.path));
            } else {
                let _ = std::fs::remove_file(&temporary);
            }
        }
        let runs = runs_folder(&self.dir, self.partition.as_deref());
        let name = keys_file_name(self.run);
        let text = self.keys.to_text();
        self.put(&runs, &name, &text, commit)?;
        Ok(())
    }

    /// Writes `text` to `folder/name` under a temporary name, to be renamed
    /// at the commit.
    fn put(
        &mut self,
        folder: &Path,
        name: &str,
        text: &str,
        commit: &mut Commit,
    ) -> Result<(), Error> {
        if !folder.exists() {
            let mut missing = folder.to_path_buf();
            let mut made = Vec::new();
            while !missing.exists() {
                made.push(missing.clone());
                if !missing.pop() {
                    break;
                }
            }
            std::fs::create_dir_all(folder)
                .map_err(|e| Error::new(format!("{}: {e}", folder.display())))?;
            self.created.extend(made.into_iter().rev());
        }
        let temporary = folder.join(temporary_name(name));
        commit.temporaries.push(temporary.clone());
        let at = |e: std::io::Error| Error::new(format!("{}: {e}", temporary.display()));
        let mut file = File::create(&temporary).map_err(at)?;
        file.write_all(text.as_bytes()).map_err(at)?;
        file.sync_all().map_err(at)?;
        commit
            .operations
            .push(Operation::Rename(temporary, folder.join(name)));
        Ok(())
    }

    /// Takes the rows of `dropping` out of run `run`'s files: removes them
    /// when nothing else is left, or writes again those that hold some.
    fn take_out(
        &mut self,
        run: u64,
        dropping: &Dropping,
        commit: &mut Commit,
        staying: &mut [usize],
    ) -> Result<(), Error> {
        let keys = keys();
        let Some(before) = self.stored.runs.get(&run).cloned() else {
            return Ok(());
        };
        let mut after = before.clone();
        after.sets.retain(|code| !dropping.sets.contains(code));
        after
            .uuids
            .retain(|uuid, code| !dropping.sets.contains(code) && !dropping.uuids.contains(uuid));
        after
            .migrations
            .retain(|id| !dropping.migrations.contains(id));
        after.metas.retain(|input| !dropping.metas.contains(input));
        // The uuids whose rows go: those of the sets that go, and those
        // moved to another set.
        let mut uuids: HashSet<&str> = dropping.uuids.iter().map(String::as_str).collect();
        uuids.extend(
            before
                .uuids
                .iter()
                .filter(|(_, code)| dropping.sets.contains(*code))
                .map(|(uuid, _)| uuid.as_str()),
        );
        let runs = runs_folder(&self.dir, self.partition.as_deref());
        let whole = after.is_empty();
        for (t, files) in self.stored.files.iter().enumerate() {
            let Some(path) = files.get(&run) else {
                continue;
            };
            if whole {
                if t != keys.meta.0 {
                    commit.removed_rows += rows_in(path)?;
                }
                commit.operations.push(Operation::Remove(path.clone()));
                staying[t] -= 1;
                continue;
            }
            let Some(filter) = Filter::of(t, dropping, &uuids) else {
                continue;
            };
            let temporary = path.with_file_name(temporary_name(&run_file_name(run)));
            commit.temporaries.push(temporary.clone());
            let schema = schema(&layout().tables[t]);
            let (kept, dropped) =
                rewrite(path, &temporary, &schema, &self.properties, |batch, _| {
                    filter.keep(batch)
                })
                .map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
            if dropped == 0 {
                let _ = std::fs::remove_file(&temporary);
                continue;
            }
            if t != keys.meta.0 {
                commit.removed_rows += dropped;
            }
            if kept == 0 {
                let _ = std::fs::remove_file(&temporary);
                commit.operations.push(Operation::Remove(path.clone()));
                staying[t] -= 1;
            } else {
                commit
                    .operations
                    .push(Operation::Rename(temporary, path.clone()));
            }
        }
        if whole {
            commit
                .operations
                .push(Operation::Remove(runs.join(keys_file_name(run))));
        } else {
            self.put(&runs, &keys_file_name(run), &after.to_text(), commit)?;
        }
        Ok(())
    }
}

/// The rows of a file that its footer counts.
fn rows_in(path: &Path) -> Result<usize, Error> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let at = |e: &dyn std::fmt::Display| Error::new(format!("{}: {e}", path.display()));
    let file = File::open(path).map_err(|e| at(&e))?;
    let reader = SerializedFileReader::new(file).map_err(|e| at(&e))?;
    Ok(usize::try_from(reader.metadata().file_metadata().num_rows()).unwrap_or(0))
}

/// Which rows of an earlier run's file of one table a run takes out: those
/// whose key column holds a key in a set of keys.
struct Filter<'a> {
    /// (column in the file, the keys whose rows go).
    columns: Vec<(usize, Keys<'a>)>,
}

enum Keys<'a> {
    Owned(&'a HashSet<String>),
    Borrowed(&'a HashSet<&'a str>),
}

impl Keys<'_> {
    fn contains(&self, key: &str) -> bool {
        match self {
            Keys::Owned(keys) => keys.contains(key),
            Keys::Borrowed(keys) => keys.contains(key),
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Keys::Owned(keys) => keys.is_empty(),
            Keys::Borrowed(keys) => keys.is_empty(),
        }
    }
}

impl<'a> Filter<'a> {
    /// The filter of table `t`, if `dropping` takes anything out of it.
    fn of(t: usize, dropping: &'a Dropping, uuids: &'a HashSet<&'a str>) -> Option<Filter<'a>> {
        let keys = keys();
        // The files have every column but `build`.
        let mut columns = Vec::new();
        if t == keys.sets {
            columns.push((keys.set_code - 1, Keys::Owned(&dropping.sets)));
        }
        for &(owned, owner, uuid) in &keys.set_owned {
            if owned == t {
                columns.push((owner - 1, Keys::Owned(&dropping.sets)));
                if let Some(uuid) = uuid {
                    columns.push((uuid - 1, Keys::Owned(&dropping.uuids)));
                }
            }
        }
        for &(owned, uuid) in &keys.uuid_owned {
            if owned == t {
                columns.push((uuid - 1, Keys::Borrowed(uuids)));
            }
        }
        if let Some((migrations, id)) = keys.migrations {
            if migrations == t {
                columns.push((id - 1, Keys::Owned(&dropping.migrations)));
            }
        }
        if keys.meta.0 == t {
            columns.push((keys.meta.1 - 1, Keys::Owned(&dropping.metas)));
        }
        columns.retain(|(_, keys)| !keys.is_empty());
        (!columns.is_empty()).then_some(Filter { columns })
    }

    /// Which rows of `batch` stay.
    fn keep(&self, batch: &RecordBatch) -> Result<BooleanArray, String> {
        let mut keep = vec![true; batch.num_rows()];
        for (column, keys) in &self.columns {
            let values = batch
                .column(*column)
                .as_any()
                .downcast_ref::<StringArray>()
                .ok_or_else(|| format!("column {column} is not text"))?;
            for (row, stays) in keep.iter_mut().enumerate() {
                if *stays && values.is_valid(row) && keys.contains(values.value(row)) {
                    *stays = false;
                }
            }
        }
        Ok(BooleanArray::from(keep))
    }
}

/// Which rows of this run's file of table `t` stay: not those of a set or
/// migration read again later in the run, nor those of a uuid that a later
/// set holds.
fn in_run_filter(
    t: usize,
    twice: &Twice,
) -> impl FnMut(&RecordBatch, usize) -> Result<BooleanArray, String> + '_ {
    let mut dropped = twice.dropped[t].clone();
    dropped.sort_unstable();
    let uuid_column = uuid_column(t).filter(|_| !twice.moved.is_empty());
    let mut next = 0;
    move |batch: &RecordBatch, start: usize| {
        let uuids = match uuid_column {
            Some(column) => Some(
                batch
                    .column(column - 1)
                    .as_any()
                    .downcast_ref::<StringArray>()
                    .ok_or_else(|| "the uuid column is not text".to_owned())?,
            ),
            None => None,
        };
        let mut keep = Vec::with_capacity(batch.num_rows());
        for row in 0..batch.num_rows() {
            let at = start + row;
            while next < dropped.len() && dropped[next].1 <= at {
                next += 1;
            }
            let mut stays = !dropped[next..]
                .iter()
                .take_while(|&&(a, _)| a <= at)
                .any(|&(a, b)| a <= at && at < b);
            if stays {
                if let Some(uuids) = uuids.filter(|u| u.is_valid(row)) {
                    if let Some(bounds) = twice.moved.get(uuids.value(row)) {
                        stays = at >= bounds[t];
                    }
                }
            }
            keep.push(stays);
        }
        Ok(BooleanArray::from(keep))
    }
}

/// Writes the rows of the file at `from` that `keep` keeps (given each
/// batch and the number of its first row) to `to`, and syncs it; the rows
/// kept and left out.
fn rewrite(
    from: &Path,
    to: &Path,
    schema: &SchemaRef,
    properties: &WriterProperties,
    mut keep: impl FnMut(&RecordBatch, usize) -> Result<BooleanArray, String>,
) -> Result<(usize, usize), Box<dyn std::error::Error>> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(from)?)?
        .with_batch_size(READ_BATCH)
        .build()?;
    let out = File::create(to)?;
    let mut writer = ArrowWriter::try_new(
        BufWriter::with_capacity(WRITE_BUFFER, out),
        Arc::clone(schema),
        Some(properties.clone()),
    )?;
    let (mut at, mut kept) = (0, 0);
    for batch in reader {
        let batch = batch?;
        let mask = keep(&batch, at)?;
        at += batch.num_rows();
        let filtered = arrow_select::filter::filter_record_batch(&batch, &mask)?;
        kept += filtered.num_rows();
        if filtered.num_rows() > 0 {
            writer.write(&RecordBatch::try_new(
                Arc::clone(schema),
                filtered.columns().to_vec(),
            )?)?;
        }
    }
    let inner = writer.into_inner()?;
    let file = inner.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    Ok((kept, at - kept))
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

/// A path under `dir` as the commit record names it.
fn relative<'a>(dir: &Path, path: &'a Path) -> std::borrow::Cow<'a, str> {
    path.strip_prefix(dir).unwrap_or(path).to_string_lossy()
}

/// Records what the commit renames and removes (under `dir`): the run is
/// committed once the record is on disk.
fn record_commit(dir: &Path, operations: &[Operation]) -> Result<(), Error> {
    let path = dir.join(COMMIT_RECORD);
    let at = |e: std::io::Error| Error::new(format!("{}: {e}", path.display()));
    let mut record = String::new();
    for operation in operations {
        match operation {
            Operation::Rename(from, to) => {
                record.push_str(&format!(
                    "rename\t{}\t{}\n",
                    relative(dir, from),
                    relative(dir, to)
                ));
            }
            Operation::Remove(path) => {
                record.push_str(&format!("remove\t{}\n", relative(dir, path)));
            }
        }
    }
    // Whole or not there: written aside, then renamed.
    let temporary = dir.join(format!("{COMMIT_RECORD}{INCOMPLETE}"));
    let written = File::create(&temporary).and_then(|mut file| {
        file.write_all(record.as_bytes())?;
        file.sync_all()
    });
    if let Err(e) = written.and_then(|()| std::fs::rename(&temporary, &path)) {
        let _ = std::fs::remove_file(&temporary);
        return Err(at(e));
    }
    sync_folder(dir)
}

/// Reads a commit record's line: its operation, its paths inside `dir`.
fn operation(dir: &Path, record: &Path, line: &str) -> Result<Operation, Error> {
    let inside = |text: &str| -> Result<PathBuf, Error> {
        let relative = Path::new(text);
        if text.is_empty()
            || !relative
                .components()
                .all(|c| matches!(c, Component::Normal(_)))
        {
            return Err(Error::new(format!(
                "{}: names `{text}`, which is not a folder inside {}: remove the record once the folders are checked",
                record.display(),
                dir.display()
            )));
        }
        Ok(dir.join(relative))
    };
    let fields: Vec<&str> = line.split('\t').collect();
    match fields.as_slice() {
        ["rename", from, to] => Ok(Operation::Rename(inside(from)?, inside(to)?)),
        ["remove", path] => Ok(Operation::Remove(inside(path)?)),
        // Written by an earlier cardkit: a folder whose one file is renamed.
        [folder] => {
            let folder = inside(folder)?;
            Ok(Operation::Rename(
                folder.join(temporary_name(OLD_FILE_NAME)),
                folder.join(OLD_FILE_NAME),
            ))
        }
        _ => Err(Error::new(format!(
            "{}: `{line}` is not a step of a commit: remove the record once the folders are checked",
            record.display()
        ))),
    }
}

/// Finishes the renames and removals of a recorded commit, if there is one,
/// and removes the record. Each step is done again harmlessly: a rename
/// whose file is gone was done, and so was a removal.
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
    let operations: Vec<Operation> = record
        .lines()
        .filter(|line| !line.is_empty())
        .map(|line| operation(dir, &path, line))
        .collect::<Result<_, _>>()?;
    let mut folders = BTreeSet::new();
    for operation in &operations {
        match operation {
            Operation::Rename(from, to) => {
                if from.exists() {
                    std::fs::rename(from, to)
                        .map_err(|e| unfinished(format!("{}: {e}", from.display())))?;
                }
                folders.extend(to.parent().map(Path::to_path_buf));
            }
            Operation::Remove(file) => {
                match std::fs::remove_file(file) {
                    Ok(()) => {}
                    Err(e) if e.kind() == ErrorKind::NotFound => {}
                    Err(e) => return Err(unfinished(format!("{}: {e}", file.display()))),
                }
                folders.extend(file.parent().map(Path::to_path_buf));
            }
        }
    }
    for folder in &folders {
        if folder.exists() {
            sync_folder(folder)?;
        }
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
        let mut rows = Rows::new();
        rows.tables[table] = cards;
        store.write_rows(&rows).expect("the rows written");
        Box::new(store).commit().expect("the export committed");

        let file =
            File::open(dir.path().join("cards").join(run_file_name(1))).expect("the cards file");
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

    /// A set row of code `code`, as the rows of one document.
    fn set_rows(code: &str) -> Rows {
        let keys = keys();
        let mut rows = Rows::new();
        let sets = &mut rows.tables[keys.sets];
        let row = sets.push_row();
        sets.set_text(row, keys.set_code, code);
        rows
    }

    /// The files of table `table` in build `b`, by name.
    fn files_of(dir: &Path, table: &str) -> Vec<String> {
        names_in(&dir.join(table).join("build=b")).expect("the folder")
    }

    #[test]
    fn a_committed_run_leaves_its_files_in_place_and_no_record() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut store = Parquet::open(dir.path(), Some("b"), Mode::Append).expect("a new run");
        store.write_rows(&set_rows("AAA")).expect("written");
        Box::new(store).commit().expect("committed");
        assert!(!dir.path().join(COMMIT_RECORD).exists());
        // Every table has a file, empty or not, for readers to find.
        for table in &layout().tables {
            assert_eq!(
                files_of(dir.path(), &table.name),
                [run_file_name(1)],
                "{}",
                table.name
            );
        }
        let record = read(dir.path(), ".cardkit-runs/build=b/run-000001.keys");
        assert_eq!(
            RunKeys::from_text(&record).expect("a record").sets,
            BTreeSet::from(["AAA".to_owned()])
        );
    }

    #[test]
    fn a_later_run_adds_a_file_and_takes_what_it_replaces_out_of_earlier_ones() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let run = |codes: &[&str]| {
            let mut store = Parquet::open(dir.path(), Some("b"), Mode::Append).expect("a run");
            for code in codes {
                store.write_rows(&set_rows(code)).expect("written");
            }
            Box::new(store).commit().expect("committed")
        };
        run(&["AAA", "BBB"]);
        let changes = run(&["CCC"]);
        assert!(changes.replaced_sets.is_empty());
        // Only `sets` has rows in the second run: the other tables keep
        // the first run's (empty) file alone.
        assert_eq!(
            files_of(dir.path(), "sets"),
            [run_file_name(1), run_file_name(2)]
        );
        assert_eq!(files_of(dir.path(), "cards"), [run_file_name(1)]);
        let changes = run(&["BBB"]);
        assert_eq!(changes.replaced_sets, ["BBB"]);
        assert_eq!(changes.removed_rows, 1);
        assert_eq!(
            rows_in(&dir.path().join("sets/build=b/run-000001.parquet")).unwrap(),
            1
        );
        // A run whose every key is replaced is removed whole, its record too.
        let changes = run(&["AAA", "BBB", "CCC"]);
        assert_eq!(changes.replaced_sets, ["AAA", "BBB", "CCC"]);
        assert_eq!(changes.removed_rows, 3);
        assert_eq!(files_of(dir.path(), "sets"), [run_file_name(4)]);
        assert_eq!(
            names_in(&dir.path().join(".cardkit-runs/build=b")).unwrap(),
            ["run-000004.keys"]
        );
        // Readers still find a file of every table.
        assert_eq!(files_of(dir.path(), "cards"), [run_file_name(4)]);
        assert!(!dir.path().join(COMMIT_RECORD).exists());
    }

    /// The codes in the `sets` file of run `run` of build `b`.
    fn codes_in(dir: &Path, run: u64) -> Vec<String> {
        let path = dir.join("sets/build=b").join(run_file_name(run));
        let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).expect("a file"))
            .expect("a Parquet file")
            .build()
            .expect("a reader");
        let column = keys().set_code - 1;
        let mut codes = Vec::new();
        for batch in reader {
            let batch = batch.expect("a batch");
            let values = batch
                .column(column)
                .as_any()
                .downcast_ref::<StringArray>()
                .expect("text")
                .clone();
            codes.extend((0..values.len()).map(|row| values.value(row).to_owned()));
        }
        codes
    }

    /// A run stopped (killed) once its commit is recorded, before it put
    /// anything in place: readers still see the build as it was, and the
    /// next run into the directory finishes the commit before anything
    /// else, leaving the build as the stopped run would have.
    #[test]
    fn a_run_stopped_once_its_commit_is_recorded_is_finished_by_the_next() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = dir.path();
        let mut first = Parquet::open(dir, Some("b"), Mode::Append).expect("a run");
        for code in ["AAA", "BBB"] {
            first.write_rows(&set_rows(code)).expect("written");
        }
        Box::new(first).commit().expect("committed");

        let mut second = Parquet::open(dir, Some("b"), Mode::Append).expect("a run");
        for code in ["BBB", "CCC"] {
            second.write_rows(&set_rows(code)).expect("written");
        }
        let mut commit = Commit::default();
        second.prepare_commit(&mut commit).expect("prepared");
        // What the run replaces is taken out before its files are put in
        // place: a reader meanwhile never sees a set twice.
        let touches = |operation: &Operation, run: u64| {
            let name = run_file_name(run);
            match operation {
                Operation::Rename(_, to) => to.ends_with(&name),
                Operation::Remove(path) => path.ends_with(&name),
            }
        };
        let last_taken_out = commit.operations.iter().rposition(|o| touches(o, 1));
        let first_put = commit.operations.iter().position(|o| touches(o, 2));
        assert!(last_taken_out.is_some() && first_put.is_some());
        assert!(last_taken_out < first_put, "{:?}", commit.operations);
        record_commit(dir, &commit.operations).expect("recorded");
        drop(second);
        assert!(dir.join(COMMIT_RECORD).exists());
        // What readers see (they skip hidden files) is as it was.
        let visible: Vec<String> = files_of(dir, "sets")
            .into_iter()
            .filter(|name| !name.starts_with('.'))
            .collect();
        assert_eq!(visible, [run_file_name(1)]);
        assert_eq!(codes_in(dir, 1), ["AAA", "BBB"]);

        let next = Parquet::open(dir, Some("b"), Mode::Append).expect("the next run");
        Box::new(next).abort();
        assert!(!dir.join(COMMIT_RECORD).exists());
        assert_eq!(files_of(dir, "sets"), [run_file_name(1), run_file_name(2)]);
        assert_eq!(codes_in(dir, 1), ["AAA"]);
        assert_eq!(codes_in(dir, 2), ["BBB", "CCC"]);
        let record = |run: u64| {
            let text = read(
                dir,
                &format!(".cardkit-runs/build=b/{}", keys_file_name(run)),
            );
            RunKeys::from_text(&text).expect("a record").sets
        };
        assert_eq!(record(1), BTreeSet::from(["AAA".to_owned()]));
        assert_eq!(
            record(2),
            BTreeSet::from(["BBB".to_owned(), "CCC".to_owned()])
        );
        // No temporary file is left anywhere.
        for table in &layout().tables {
            let names = files_of(dir, &table.name);
            assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
        }
    }

    #[test]
    fn an_empty_run_leaves_nothing_behind() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let pq = dir.path().join("pq");
        let store = Parquet::open(&pq, Some("b"), Mode::Append).expect("a run");
        let changes = Box::new(store).commit().expect("committed");
        assert_eq!(changes, Changes::default());
        assert!(!pq.exists());
    }

    #[test]
    fn a_commit_of_renames_and_removals_left_unfinished_is_finished() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = dir.path();
        // Killed after the new sets file was renamed and before the old
        // cards file was removed.
        put(
            dir,
            COMMIT_RECORD,
            "rename\tsets/.run-000002.parquet.incomplete\tsets/run-000002.parquet\nremove\tcards/run-000001.parquet\nrename\tcards/.run-000002.parquet.incomplete\tcards/run-000002.parquet\n",
        );
        put(dir, "sets/run-000002.parquet", "new sets");
        put(dir, "cards/run-000001.parquet", "old cards");
        put(dir, "cards/.run-000002.parquet.incomplete", "new cards");
        finish_commit(dir).expect("finished");
        assert_eq!(read(dir, "sets/run-000002.parquet"), "new sets");
        assert_eq!(read(dir, "cards/run-000002.parquet"), "new cards");
        assert!(!dir.join("cards/run-000001.parquet").exists());
        assert!(!dir.join(COMMIT_RECORD).exists());
        // A step that is not one is refused, and nothing is done.
        put(dir, COMMIT_RECORD, "move\tcards/run-000002.parquet\n");
        let error = finish_commit(dir).expect_err("refused");
        assert!(
            error.to_string().contains("is not a step of a commit"),
            "{error}"
        );
        assert_eq!(read(dir, "cards/run-000002.parquet"), "new cards");
    }

    #[test]
    fn a_record_of_keys_reads_back_and_names_what_is_wrong() {
        let mut keys = RunKeys {
            unkeyed: 2,
            ..RunKeys::default()
        };
        keys.sets.insert("A\tB\n".to_owned());
        keys.uuids.insert("u-1".to_owned(), "A\tB\n".to_owned());
        keys.migrations.insert("m".to_owned());
        keys.metas.insert("in.json".to_owned());
        assert_eq!(RunKeys::from_text(&keys.to_text()), Ok(keys));
        let wrong = format!("{KEYS_HEADER}\n[\"set\"]\n");
        assert_eq!(
            RunKeys::from_text(&wrong),
            Err("line 2: a key is missing".to_owned())
        );
        assert!(RunKeys::from_text("other").is_err());
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
