//! A design file as every design tool reads it: a path, or `-` for standard
//! input, read whole up to [`MAX_DESIGN_BYTES`]; its bytes for the tools that
//! read them as they are (the import, the asset manifest), and the
//! [`Design`] it holds for the others.

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::designs::{Choice, Designs};
use crate::source::{Design, ReadError};

pub use crate::limit::MAX_DESIGN_BYTES;

/// The name that stands for standard input.
const STDIN: &str = "-";

/// A design file read whole: the path it was given by, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesignFile {
    path: PathBuf,
    bytes: Vec<u8>,
}

impl DesignFile {
    /// Reads `path` (`-`: standard input) to its end.
    ///
    /// # Errors
    /// [`FileError::Unreadable`] when it cannot be read,
    /// [`FileError::TooLarge`] when it holds more than [`MAX_DESIGN_BYTES`].
    pub fn read(path: impl AsRef<Path>) -> Result<DesignFile, FileError> {
        let path = path.as_ref();
        if path == Path::new(STDIN) {
            return DesignFile::from_reader(path, io::stdin().lock());
        }
        match std::fs::File::open(path) {
            Ok(file) => DesignFile::from_reader(path, file),
            Err(error) => Err(FileError::Unreadable {
                path: path.to_path_buf(),
                error,
            }),
        }
    }

    /// Reads `reader` to its end, as the file `path` names.
    ///
    /// # Errors
    /// As [`DesignFile::read`].
    pub fn from_reader(path: impl AsRef<Path>, reader: impl Read) -> Result<DesignFile, FileError> {
        let path = path.as_ref().to_path_buf();
        // One byte past the limit tells a file over it, without reading on.
        let mut bytes = Vec::new();
        let limit = MAX_DESIGN_BYTES as u64 + 1;
        if let Err(error) = reader.take(limit).read_to_end(&mut bytes) {
            return Err(FileError::Unreadable { path, error });
        }
        if bytes.len() > MAX_DESIGN_BYTES {
            return Err(FileError::TooLarge { path });
        }
        Ok(DesignFile { path, bytes })
    }

    /// The path the file was given by (`-` for standard input).
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file on disk: `None` for standard input, which has no folder to
    /// resolve assets in nor a name to write outputs by.
    #[must_use]
    pub fn on_disk(&self) -> Option<&Path> {
        (self.path != Path::new(STDIN)).then_some(self.path.as_path())
    }

    /// The file's bytes.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The designs the file holds ([`Designs::read`]): the one every design
    /// command reads a file by. A file of the design tool's own is
    /// converted in memory as `cardkit import` converts it, and says so
    /// ([`Designs::converted`]).
    ///
    /// # Errors
    /// [`FileError::NotADesign`], with the reason.
    pub fn designs(&self) -> Result<Designs, FileError> {
        Designs::read(&self.bytes).map_err(|error| FileError::NotADesign {
            path: self.path.clone(),
            error,
        })
    }

    /// The one template or card design the file holds ([`DesignFile::designs`]):
    /// a file of several (a classic save file of more than one card) is an
    /// error that names them.
    ///
    /// # Errors
    /// [`FileError::NotADesign`], with the reason; [`FileError::Several`].
    pub fn design(&self) -> Result<Design, FileError> {
        self.designs()?
            .one(None)
            .map(|named| named.design)
            .map_err(|choice| FileError::Several {
                path: self.path.clone(),
                choice,
            })
    }
}

/// Reads the template or card design in `path` (`-`: standard input).
///
/// # Errors
/// [`FileError`]: the file cannot be read, is over the limit, or is not a
/// template or card design.
pub fn read_design(path: impl AsRef<Path>) -> Result<Design, FileError> {
    DesignFile::read(path)?.design()
}

/// Why a design file could not be read; shown, it names the file.
#[derive(Debug)]
pub enum FileError {
    /// The file (or standard input) could not be read.
    Unreadable {
        /// The path given.
        path: PathBuf,
        /// What reading it gave.
        error: io::Error,
    },
    /// It holds more than [`MAX_DESIGN_BYTES`].
    TooLarge {
        /// The path given.
        path: PathBuf,
    },
    /// It was read, but is not a template or card design in the spec's
    /// shape.
    NotADesign {
        /// The path given.
        path: PathBuf,
        /// Why not.
        error: ReadError,
    },
    /// It holds several designs where one was wanted.
    Several {
        /// The path given.
        path: PathBuf,
        /// The names of its designs.
        choice: Choice,
    },
}

impl FileError {
    /// The path of the file.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            FileError::Unreadable { path, .. }
            | FileError::TooLarge { path }
            | FileError::NotADesign { path, .. }
            | FileError::Several { path, .. } => path,
        }
    }

    /// Why, without the file's path: for reports that name the file
    /// themselves and say `cannot read:` before the reason of a file that
    /// could not be read.
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            FileError::Unreadable { error, .. } => error.to_string(),
            FileError::TooLarge { .. } => format!(
                "larger than {MAX_DESIGN_BYTES} bytes ({} MiB), the limit of a design file",
                MAX_DESIGN_BYTES >> 20
            ),
            FileError::NotADesign { error, .. } => error.to_string(),
            FileError::Several { choice, .. } => choice.to_string(),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path().display();
        match self {
            FileError::Unreadable { .. } | FileError::TooLarge { .. } => {
                write!(f, "{path}: cannot read: {}", self.reason())
            }
            FileError::NotADesign { error, .. } => write!(f, "{path}: {error}"),
            FileError::Several { choice, .. } => write!(f, "{path}: {choice}"),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Unreadable { error, .. } => Some(error),
            FileError::TooLarge { .. } => None,
            FileError::NotADesign { error, .. } => Some(error),
            FileError::Several { choice, .. } => Some(choice),
        }
    }
}
