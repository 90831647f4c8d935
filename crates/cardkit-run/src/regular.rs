//! Files read whole that must be regular files (a configuration, an asset
//! of a design): checked before they are opened, since opening a FIFO
//! waits for a writer and a device reads without end, and again on what
//! was opened, in case the path changed between; and read up to a limit.
//! (Inputs named to `validate` are another matter: a FIFO named is read
//! as the stream it is.)

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// Why a file was not read.
#[derive(Debug)]
pub enum NotRead {
    /// It cannot be opened or read (missing, not allowed, …).
    Io(io::Error),
    /// It is not a regular file but this ([`file_kind`]: `a FIFO (named
    /// pipe)`, `a directory`, …); it was not opened.
    NotRegular(&'static str),
    /// It holds more than the limit.
    TooLarge {
        /// Its size, as far as it was read.
        size: u64,
        /// The most that is read.
        limit: u64,
    },
}

impl fmt::Display for NotRead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRead::Io(error) => write!(f, "{error}"),
            NotRead::NotRegular(kind) => write!(f, "is not a regular file but {kind}"),
            NotRead::TooLarge { limit, .. } => {
                write!(f, "is larger than {limit} bytes, the most that is read")
            }
        }
    }
}

/// The bytes of the regular file at `path` (its links followed), at most
/// `limit` of them.
///
/// # Errors
/// [`NotRead`]: it cannot be read, is not a regular file (then it was not
/// opened), or holds more than `limit` bytes.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, NotRead> {
    read_checked(std::fs::metadata(path), || File::open(path), limit)
}

/// As [`read_regular`], for a file the caller looks at and opens by its
/// own means (under a root it must not leave, say): `looked` is what it
/// found before opening, `open` opens it. What was opened is checked
/// again, so a file swapped in between is refused all the same.
///
/// # Errors
/// As [`read_regular`].
pub fn read_checked(
    looked: io::Result<Metadata>,
    open: impl FnOnce() -> io::Result<File>,
    limit: u64,
) -> Result<Vec<u8>, NotRead> {
    check(&looked.map_err(NotRead::Io)?, limit)?;
    let file = open().map_err(NotRead::Io)?;
    check(&file.metadata().map_err(NotRead::Io)?, limit)?;
    let mut bytes = Vec::new();
    // A file that grows while it is read stops at the limit all the same.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(NotRead::Io)?;
    if bytes.len() as u64 > limit {
        return Err(NotRead::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

fn check(metadata: &Metadata, limit: u64) -> Result<(), NotRead> {
    if !metadata.is_file() {
        return Err(NotRead::NotRegular(file_kind(metadata)));
    }
    if metadata.len() > limit {
        return Err(NotRead::TooLarge {
            size: metadata.len(),
            limit,
        });
    }
    Ok(())
}

/// What a file that is not a regular one is, in words.
#[must_use]
pub fn file_kind(metadata: &Metadata) -> &'static str {
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
