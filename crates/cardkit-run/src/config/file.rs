//! Reading a configuration file safely, and where the search for one
//! stops.
//!
//! A configuration is read only from a regular file (after following
//! links) of at most [`MAX_CONFIG_BYTES`]: a FIFO would block every command
//! until something writes to it, and a link to `/dev/zero` would be read
//! without end.
//!
//! The search upward from a directory stops after a repository's root (a
//! folder holding `.git`) and after the user's home directory, and never
//! enters the filesystem's root or a folder anyone may write to (`/tmp`):
//! a file that another user can put there must not change what passes.

use std::path::{Path, PathBuf};

use crate::regular::{read_regular, NotRead};

/// The largest configuration file read, in bytes.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The text of the configuration file at `path`.
///
/// # Errors
/// Why it cannot be read, in words: it is missing, not a regular file,
/// larger than [`MAX_CONFIG_BYTES`], or not UTF-8.
pub(super) fn read_text(path: &Path) -> Result<String, String> {
    let bytes = read_regular(path, MAX_CONFIG_BYTES).map_err(|why| match why {
        NotRead::NotRegular(_) => format!("{why}: a configuration is read from a file only"),
        NotRead::TooLarge { .. } => {
            format!("is larger than {MAX_CONFIG_BYTES} bytes, the most a configuration may be")
        }
        NotRead::Io(error) => error.to_string(),
    })?;
    String::from_utf8(bytes).map_err(|_| "stream did not contain valid UTF-8".to_owned())
}

/// The directories searched for a configuration from `start` (absolute),
/// nearest first: see the module's documentation.
pub(super) fn searched(start: &Path) -> Vec<&Path> {
    let home = home_dir();
    let mut searched = Vec::new();
    for at in start.ancestors() {
        if at.parent().is_none() || open_to_all(at) {
            break;
        }
        searched.push(at);
        if at.join(".git").exists() || home.as_deref().is_some_and(|home| same_dir(at, home)) {
            break;
        }
    }
    searched
}

fn home_dir() -> Option<PathBuf> {
    std::env::home_dir().filter(|home| home.is_absolute())
}

fn same_dir(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (a.canonicalize(), b.canonicalize()),
            (Ok(a), Ok(b)) if a == b
        )
}

/// Whether anyone may write in the directory `at` (`/tmp`).
#[cfg(unix)]
fn open_to_all(at: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(at).is_ok_and(|metadata| metadata.permissions().mode() & 0o002 != 0)
}

#[cfg(not(unix))]
fn open_to_all(_at: &Path) -> bool {
    false
}
