//! How a run's files are put in place: the lock that keeps runs into a
//! directory apart, the record of a commit's renames and removals, written
//! once every file is on disk, and the finishing of a recorded commit, by
//! the run that recorded it or by the next run after it was stopped.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{ErrorKind, Write as _};
use std::path::{Component, Path, PathBuf};

use super::names::{temporary_name, COMMIT_RECORD, INCOMPLETE, LOCK_NAME, OLD_FILE_NAME};
use crate::Error;

/// What a commit does, once every file it puts in place is on disk.
#[derive(Default)]
pub(super) struct Commit {
    pub(super) operations: Vec<Operation>,
    /// Files written for it, removed if it fails before it is recorded.
    pub(super) temporaries: Vec<PathBuf>,
    /// Rows of earlier runs taken out (but of `meta`).
    pub(super) removed_rows: usize,
}

/// One step of a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Operation {
    Rename(PathBuf, PathBuf),
    Remove(PathBuf),
}

/// Locks `dir` for this run.
pub(super) fn lock(dir: &Path) -> Result<File, Error> {
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
pub(super) fn record_commit(dir: &Path, operations: &[Operation]) -> Result<(), Error> {
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
pub(super) fn finish_commit(dir: &Path) -> Result<(), Error> {
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
