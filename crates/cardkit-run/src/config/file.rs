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

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest configuration file read, in bytes.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The text of the configuration file at `path`.
///
/// # Errors
/// Why it cannot be read, in words: it is missing, not a regular file,
/// larger than [`MAX_CONFIG_BYTES`], or not UTF-8.
pub(super) fn read_text(path: &Path) -> Result<String, String> {
    // Checked before opening: opening a FIFO waits for a writer.
    let metadata = std::fs::metadata(path).map_err(|error| error.to_string())?;
    check_metadata(&metadata)?;
    let file = File::open(path).map_err(|error| error.to_string())?;
    // Checked again on what was opened, in case the path changed meanwhile.
    check_metadata(&file.metadata().map_err(|error| error.to_string())?)?;
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| error.to_string())?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| "stream did not contain valid UTF-8".to_owned())
}

fn check_metadata(metadata: &Metadata) -> Result<(), String> {
    if !metadata.is_file() {
        return Err(format!(
            "is not a regular file but {}: a configuration is read from a file only",
            file_kind(metadata)
        ));
    }
    if metadata.len() > MAX_CONFIG_BYTES {
        return Err(too_large());
    }
    Ok(())
}

fn too_large() -> String {
    format!("is larger than {MAX_CONFIG_BYTES} bytes, the most a configuration may be")
}

/// What a file that is not a regular one is, in words.
fn file_kind(metadata: &Metadata) -> &'static str {
    let kind = metadata.file_type();
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
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
