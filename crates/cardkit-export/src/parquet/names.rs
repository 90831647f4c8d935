//! What the files and folders of a Parquet export are named, and where
//! they are: a run's files in each table's folder (or build partition),
//! the records of each run's keys, the commit record and the lock; the
//! temporary names files are written under, and those a stopped run left.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::Error;

/// The name of the file of a build written by cardkit before builds were
/// made of runs: such a build is only written again with `--replace`.
pub const OLD_FILE_NAME: &str = "part-0.parquet";

/// What a temporary file's name ends with.
pub(super) const INCOMPLETE: &str = ".incomplete";

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

/// The name of run `run`'s file of a table, in the table's folder (or
/// build partition).
#[must_use]
pub fn run_file_name(run: u64) -> String {
    format!("run-{run:06}.parquet")
}

/// The name of the record of run `run`'s keys, in [`RUNS_FOLDER`] (or its
/// build partition).
pub(super) fn keys_file_name(run: u64) -> String {
    format!("run-{run:06}.keys")
}

/// The temporary name under which `name` is written.
pub(super) fn temporary_name(name: &str) -> String {
    format!(".{name}{INCOMPLETE}")
}

/// The run of a file named `run-NNNNNN.parquet` (or `.keys`).
pub(super) fn run_of(name: &str, extension: &str) -> Option<u64> {
    let digits = name.strip_prefix("run-")?.strip_suffix(extension)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// A table's folder in the build (`DIR/TABLE[/build=LABEL]`).
pub(super) fn build_folder(dir: &Path, table: &str, partition: Option<&str>) -> PathBuf {
    let mut folder = dir.join(table);
    if let Some(partition) = partition {
        folder.push(partition);
    }
    folder
}

/// The folder of the records of a build's runs.
pub(super) fn runs_folder(dir: &Path, partition: Option<&str>) -> PathBuf {
    build_folder(dir, RUNS_FOLDER, partition)
}

/// The names of the entries of `folder` (none if it does not exist).
pub(super) fn names_in(folder: &Path) -> Result<Vec<String>, Error> {
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
pub(super) fn remove_temporaries(folder: &Path) {
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
