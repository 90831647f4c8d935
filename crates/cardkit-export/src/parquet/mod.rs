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

mod commit;
mod names;
mod rewrite;
mod run_keys;
mod stored;
mod table_file;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;

use crate::arrow::{schema, Builder};
use crate::keys::{keys, Changes, Known, Removal};
use crate::layout::layout;
use crate::rows::{Rows, TableRows};
use crate::twice::Twice;
use crate::{Error, Mode, Store};

use commit::{finish_commit, lock, record_commit, Commit, Operation};
use names::{build_folder, keys_file_name, remove_temporaries, runs_folder, temporary_name};
use rewrite::{in_run_filter, rewrite, rows_in, Dropping, Filter};
use run_keys::RunKeys;
use stored::{stored, Stored};
use table_file::{TableFile, BATCH_BYTES, BATCH_ROWS, WRITE_BUFFER};

pub use names::{
    partition_value, run_file_name, COMMIT_RECORD, LAYOUT_KEY, LOCK_NAME, OLD_FILE_NAME,
    RUNS_FOLDER,
};

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
            twice: Twice::new(tables),
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
                // Left out by [`Twice::note`].
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

impl Store for Parquet {
    fn write_rows(&mut self, rows: &Rows) -> Result<(), Error> {
        self.twice.note(rows);
        self.note_replaced(rows)?;
        self.keys.note(rows);
        self.twice.wrote(rows);
        for (t, table) in rows.tables.iter().enumerate() {
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
