//! A new database's temporary file beside its path
//! (`.NAME.XXXXXX.incomplete`), renamed into place at the commit, and
//! those that runs killed before their commit left.

use std::path::Path;

use rusqlite::Connection;
use tempfile::TempPath;

use crate::stale::{folder_of, Temporaries};

/// How a new database's temporary files are named beside it:
/// `.NAME.XXXXXX.incomplete`.
const TEMPORARIES: Temporaries = Temporaries {
    marker: "",
    suffix: ".incomplete",
};

/// Removes the temporary files beside `path` that runs killed before their
/// commit left (`.NAME.XXXXXX.incomplete`, as large as the database they
/// were building): those no run holds a lock on. Their names and sizes.
pub(super) fn remove_stale(path: &Path) -> Vec<(String, u64)> {
    TEMPORARIES.remove_stale(path, held)
}

/// Whether a run building the database at `path` holds it: its SQLite
/// lock cannot be taken (a run holds it from its start to its end).
fn held(path: &Path) -> bool {
    use rusqlite::OpenFlags;
    let Ok(c) = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    ) else {
        return true;
    };
    let free = c
        .busy_timeout(std::time::Duration::ZERO)
        .and_then(|()| c.execute_batch("BEGIN EXCLUSIVE; ROLLBACK;"))
        .is_ok();
    let _ = c.close();
    !free
}

/// A hidden temporary file beside `path` (`.NAME.XXXXXX.incomplete`), with
/// the mode of any file the user makes: the database is kept.
pub(super) fn temporary_beside(path: &Path) -> std::io::Result<TempPath> {
    let prefix = TEMPORARIES.prefix(path);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(TEMPORARIES.suffix);
    // 0666 less the umask, not the 0600 of a temporary file.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    Ok(builder.tempfile_in(folder_of(path))?.into_temp_path())
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
