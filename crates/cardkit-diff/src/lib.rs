//! What changed between two builds of trading-card sets, and Migration
//! notices applied to the references that others keep.
//!
//! **Diffing** ([`diff()`], or [`diff_in`] through a [`cardkit_run::Run`]
//! that renders the documents' reports): each build (a file, or every JSON
//! file of a directory) is read once, validated as it is read
//! ([`cardkit::Validator::extracting`]), and kept as fingerprints:
//! for every set its code, the hash of each set-level member and where the
//! set is (its file, its place in it); for every card, token and sealed
//! product its `uuid`, its natural key, its catalog id, a hash of its content
//! and where it is ([`read`]). Records whose hashes differ are read again
//! from both builds' files (so inputs must be files, not pipes) and
//! compared value by value ([`compare`]; numbers by their value,
//! [`number`], as read again into [`value::Json`]). Removed and added records with the
//! same natural key are one printing whose uuid changed ([`rekey`]);
//! what the fields of a build look like is summed up on the way and compared
//! ([`drift`]); catalog ids that the new build no longer has become
//! Migration notices ([`notices`]). The outcome is typed data ([`Diff`]);
//! [`render`] formats it as text, JSON or JSON Lines.
//!
//! **Applying notices** ([`apply`]): Migration notices are read and
//! validated, ordered and resolved (chains followed, cycles and conflicts
//! refused) into a [`apply::Plan`], which rewrites references in CSV files,
//! JSON files and the tables of a store made by `cardkit export`.
//!
//! **Checking notices** ([`check`]): each notice against the two builds it
//! is about (its old id in the old build and not in the new, what it
//! becomes in the new), only the catalog ids the notices name kept while
//! the builds are read.
//!
//! ```
//! use cardkit_diff::apply::{Notice, Plan, Outcome};
//!
//! let notice = |old: &str, new: Option<&str>| Notice::new(old, new, None);
//! let a = "00000000-0000-0000-0000-00000000000a";
//! let b = "00000000-0000-0000-0000-00000000000b";
//! let c = "00000000-0000-0000-0000-00000000000c";
//! let plan = Plan::new(vec![notice(a, Some(b)), notice(b, Some(c))]).unwrap();
//! assert!(matches!(plan.outcome(a), Some(Outcome::Merged { to, .. }) if to == c));
//! ```

pub mod apply;
mod broken;
pub mod check;
pub mod compare;
mod data;
pub mod drift;
pub mod fields;
mod hash;
pub mod keys;
pub mod notices;
pub mod number;
mod options;
pub mod pointer;
pub mod print;
pub mod read;
mod references;
pub mod rekey;
pub mod render;
mod run;
mod set_diff;
mod side;
pub mod value;

pub use data::{
    BrokenReference, Change, Diff, DriftKind, DriftReport, FieldChange, Problem, RecordDiff,
    SetDiff, SideSummary, Summary,
};
pub use options::{DiffOptions, OnInvalid};
pub use run::{diff, diff_in};
pub use side::unseekable;

use std::fmt;

/// Why a diff or an apply could not be done: a message that names the
/// place and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl Error {
    pub(crate) fn new(message: impl Into<String>) -> Error {
        Error(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}
