//! Temporary files that runs killed before their end left beside the file
//! they were writing: recognised by their name (`.NAME.` + a marker + the
//! six random characters of `tempfile` + a suffix) and by a lock that no
//! live run holds, and removed by the next run for the same file.
//!
//! A SQLite export's temporary is `.NAME.XXXXXX.incomplete` (held through
//! SQLite's own lock, the `sqlite` module); `migrate apply`'s is
//! `.NAME.cardkit-XXXXXX.tmp` (held through a file lock on it, [`locked`]).

use std::path::Path;

/// How the temporaries of one kind of run are named beside `NAME`:
/// `.NAME.{marker}XXXXXX{suffix}`.
#[derive(Debug, Clone, Copy)]
pub struct Temporaries {
    /// What follows `.NAME.`, before the random characters.
    pub marker: &'static str,
    /// What ends the name.
    pub suffix: &'static str,
}

impl Temporaries {
    /// The prefix of the temporaries beside `path` (`.NAME.{marker}`).
    #[must_use]
    pub fn prefix(&self, path: &Path) -> String {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        format!(".{name}.{}", self.marker)
    }

    /// Whether `file` (a name in `path`'s folder) is one of `path`'s.
    fn is_one_of(&self, path: &Path, file: &str) -> bool {
        let Some(middle) = file
            .strip_prefix(&self.prefix(path))
            .and_then(|rest| rest.strip_suffix(self.suffix))
        else {
            return false;
        };
        // tempfile's six random characters.
        middle.len() == 6 && middle.chars().all(|c| c.is_ascii_alphanumeric())
    }

    /// Removes the temporaries of `path` that no live run holds (`held`
    /// says whether one does): their names and sizes.
    pub fn remove_stale(&self, path: &Path, held: impl Fn(&Path) -> bool) -> Vec<(String, u64)> {
        let Ok(entries) = std::fs::read_dir(folder_of(path)) else {
            return Vec::new();
        };
        let mut removed = Vec::new();
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            if !self.is_one_of(path, &file) {
                continue;
            }
            let stale = entry.path();
            if !entry.file_type().is_ok_and(|t| t.is_file()) || held(&stale) {
                continue;
            }
            let size = entry.metadata().map_or(0, |m| m.len());
            if std::fs::remove_file(&stale).is_ok() {
                removed.push((file, size));
            }
        }
        removed
    }
}

/// Whether a live run holds `path` through a file lock (taken with
/// [`std::fs::File::try_lock`] while it writes): the lock cannot be taken.
/// A file that cannot be opened or locked at all counts as held: it is
/// left alone.
#[must_use]
pub fn locked(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return true;
    };
    file.try_lock().is_err()
}

/// The folder `path` is in (`.` for a bare name).
#[must_use]
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}
