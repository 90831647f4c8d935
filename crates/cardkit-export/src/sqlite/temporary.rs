//! A new database's temporary file beside its path
//! (`.NAME.XXXXXX.incomplete`), renamed into place at the commit, and
//! those that runs killed before their commit left.
//!
//! A run holds a file lock on its temporary from before the file has its
//! `.incomplete` name until the run ends: it is made as
//! `.NAME.XXXXXX.starting`, locked, and only then renamed. So a run that
//! looks for stale temporaries never finds one of a live run unlocked (as
//! it could between the file's creation and its first write, when SQLite's
//! own lock is not taken yet), and never removes it. One whose SQLite lock
//! is taken is left alone too.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use tempfile::TempPath;

use crate::stale::{folder_of, locked, Temporaries};

/// How a new database's temporary files are named beside it:
/// `.NAME.XXXXXX.incomplete`.
const TEMPORARIES: Temporaries = Temporaries {
    marker: "",
    suffix: ".incomplete",
};

/// What a temporary is named until its lock is taken:
/// `.NAME.XXXXXX.starting`.
const STARTING: Temporaries = Temporaries {
    marker: "",
    suffix: ".starting",
};

/// How old a `.starting` file must be before it is taken for one a killed
/// run left: a live run renames its own within moments.
const STARTING_FOR: Duration = Duration::from_secs(60);

/// A new database's temporary file, locked while the run lasts; removed
/// when dropped unless persisted.
pub(super) struct Temporary {
    pub(super) path: TempPath,
    /// The file, open with its lock held.
    pub(super) file: File,
}

/// Removes the temporary files beside `path` that runs killed before their
/// commit left (`.NAME.XXXXXX.incomplete`, as large as the database they
/// were building): those no run holds a lock on. Their names and sizes.
pub(super) fn remove_stale(path: &Path) -> Vec<(String, u64)> {
    let mut removed = TEMPORARIES.remove_stale(path, |p| locked(p) || held(p));
    removed.extend(STARTING.remove_stale(path, |p| locked(p) || young(p)));
    removed
}

/// Whether a run holds the database at `path` through SQLite's lock (as
/// runs of earlier releases, which took no file lock, did from their first
/// write to their end): it cannot be taken.
fn held(path: &Path) -> bool {
    use rusqlite::{Connection, OpenFlags};
    let Ok(c) = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    ) else {
        return true;
    };
    let free = c
        .busy_timeout(Duration::ZERO)
        .and_then(|()| c.execute_batch("BEGIN EXCLUSIVE; ROLLBACK;"))
        .is_ok();
    let _ = c.close();
    !free
}

/// Whether the file at `path` was changed in the last [`STARTING_FOR`].
fn young(path: &Path) -> bool {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map_or(true, |at| {
            SystemTime::now()
                .duration_since(at)
                .map_or(true, |age| age < STARTING_FOR)
        })
}

/// A hidden temporary file beside `path` (`.NAME.XXXXXX.incomplete`), with
/// the mode of any file the user makes (the database is kept), locked
/// before it takes that name.
pub(super) fn temporary_beside(path: &Path) -> std::io::Result<Temporary> {
    let prefix = STARTING.prefix(path);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(STARTING.suffix);
    // 0666 less the umask, not the 0600 of a temporary file.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let starting = builder.tempfile_in(folder_of(path))?;
    starting.as_file().lock()?;
    let incomplete = incomplete_name(starting.path());
    let file = starting
        .persist_noclobber(&incomplete)
        .map_err(|e| e.error)?;
    Ok(Temporary {
        path: TempPath::try_from_path(incomplete)?,
        file,
    })
}

/// `.NAME.XXXXXX.incomplete` for `.NAME.XXXXXX.starting`.
fn incomplete_name(starting: &Path) -> PathBuf {
    let name = starting.file_name().unwrap_or_default().to_string_lossy();
    let stem = name.strip_suffix(STARTING.suffix).unwrap_or(&name);
    starting.with_file_name(format!("{stem}{}", TEMPORARIES.suffix))
}

/// Syncs a folder, so that a rename in it is on disk (there is no such
/// thing to do elsewhere than on Unix).
pub(super) fn sync_folder(folder: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    std::fs::File::open(folder)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = folder;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_runs_temporary_is_locked_under_its_name_and_never_removed() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("cards.db");
        let temporary = temporary_beside(&db).unwrap();
        let name = temporary.path.to_path_buf();
        assert!(name.to_string_lossy().ends_with(".incomplete"), "{name:?}");
        assert!(locked(&name));
        assert!(remove_stale(&db).is_empty());
        assert!(name.exists());
        drop(temporary);
        assert!(!name.exists());
        // One a killed run left (no lock) is removed; so is a `.starting`
        // one once it is old, not while it is young.
        let left = dir.path().join(".cards.db.abcdef.incomplete");
        std::fs::write(&left, b"x").unwrap();
        let young = dir.path().join(".cards.db.ghijkl.starting");
        std::fs::write(&young, b"").unwrap();
        let removed = remove_stale(&db);
        assert_eq!(removed, vec![(".cards.db.abcdef.incomplete".into(), 1)]);
        assert!(young.exists());
    }
}
