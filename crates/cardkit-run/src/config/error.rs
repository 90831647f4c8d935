//! An invalid configuration, and the lines and columns that place it.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// An invalid configuration: the file, where in it, the key, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// The 1-based line and column (in characters) of the problem, when it
    /// is in the file's text (not when the file cannot be read).
    pub at: Option<(usize, usize)>,
    /// The key the problem is in, as written (`as_of`), when there is one.
    pub key: Option<String>,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some((line, column)) = self.at {
            write!(f, ":{line}:{column}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// Lines and columns of a file's text, for errors.
pub(super) struct Lines<'t> {
    text: &'t str,
    path: &'t Path,
}

impl<'t> Lines<'t> {
    pub(super) fn new(text: &'t str, path: &'t Path) -> Self {
        Lines { text, path }
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    pub(super) fn at(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let start = before.rfind('\n').map_or(0, |at| at + 1);
        (line, before[start..].chars().count() + 1)
    }

    pub(super) fn error(
        &self,
        span: Range<usize>,
        key: Option<&str>,
        message: String,
    ) -> ConfigError {
        ConfigError {
            path: self.path.to_path_buf(),
            at: Some(self.at(span.start)),
            key: key.map(str::to_owned),
            message,
        }
    }
}
