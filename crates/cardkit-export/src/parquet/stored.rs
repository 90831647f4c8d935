//! What a build holds before a run: its runs' files and the records of
//! their keys, which run holds each key, and the number of the next run.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::names::{build_folder, names_in, run_of, runs_folder, OLD_FILE_NAME};
use super::run_keys::RunKeys;
use crate::keys::Known;
use crate::layout::layout;
use crate::{Error, Mode};

/// What the build held before the run: its runs' keys and files.
#[derive(Default)]
pub(super) struct Stored {
    pub(super) runs: BTreeMap<u64, RunKeys>,
    /// Per table, the files of the build (by run), and an old
    /// `part-0.parquet` if there is one.
    pub(super) files: Vec<BTreeMap<u64, PathBuf>>,
    pub(super) old_files: Vec<PathBuf>,
    /// The run that holds each key.
    pub(super) set_run: HashMap<String, u64>,
    pub(super) uuid_run: HashMap<Box<str>, u64>,
    pub(super) migration_run: HashMap<String, u64>,
    pub(super) meta_run: HashMap<String, u64>,
}

/// What the build holds: its runs' keys (unless `mode` empties it) and
/// files, the keys as [`Known`] takes them, and the number of the next run.
pub(super) fn stored(
    dir: &Path,
    partition: Option<&str>,
    mode: Mode,
) -> Result<(Stored, Known, u64), Error> {
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
