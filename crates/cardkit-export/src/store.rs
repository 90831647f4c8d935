//! What every target implements ([`Store`]) and is opened with ([`Mode`]),
//! the error an export fails with, and a date cell as the stores that
//! write dates as text write it.

use std::fmt;

use crate::keys::Changes;
use crate::rows::{Rows, TableRows, Unstorable};

/// Why an export failed: a message that names the place and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl Error {
    pub(crate) fn new(message: String) -> Error {
        Error(message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// Where rows are written: one per target.
pub trait Store: Send {
    /// Writes `rows` of table `table` (by index in the layout); each row
    /// has a cell per column, `build` first, which the store fills.
    ///
    /// # Errors
    /// The target refused them.
    fn write(&mut self, table: usize, rows: &TableRows) -> Result<(), Error>;

    /// Writes the rows of one or more documents, table by table: a store
    /// that adds to what it holds removes first what they replace.
    ///
    /// # Errors
    /// The target refused them.
    fn write_rows(&mut self, rows: &Rows) -> Result<(), Error> {
        for (table, table_rows) in rows.tables.iter().enumerate() {
            if !table_rows.is_empty() {
                self.write(table, table_rows)?;
            }
        }
        Ok(())
    }

    /// What the target cannot store of values that fit their columns: the
    /// row maker makes them NULL with a note, for `--on-invalid` to decide.
    fn unstorable(&self) -> Unstorable {
        Unstorable::default()
    }

    /// Makes everything written visible at once; what the run replaced of
    /// what was there.
    ///
    /// # Errors
    /// The target could not commit; nothing is visible then.
    fn commit(self: Box<Self>) -> Result<Changes, Error>;

    /// Leaves nothing of the run behind.
    fn abort(self: Box<Self>);
}

/// What a run does with what the target holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Adds to it: a set (by code), a card, token or product (by uuid) or
    /// a migration (by id) exported again replaces the one there; every
    /// other row of the build is kept.
    #[default]
    Append,
    /// Empties the build first (`--replace`).
    Replace,
}

/// Days since 1970-01-01 as `YYYY-MM-DD`.
#[must_use]
pub fn date_text(days: i32) -> String {
    use chrono::Datelike;
    let epoch = chrono::NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default();
    let date = epoch + chrono::Duration::days(i64::from(days));
    if (0..=9999).contains(&date.year()) {
        format!("{:04}-{:02}-{:02}", date.year(), date.month(), date.day())
    } else {
        date.format("%Y-%m-%d").to_string()
    }
}
