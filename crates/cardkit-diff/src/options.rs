//! How to diff ([`DiffOptions`]), and what to do with documents that are
//! invalid or not sets ([`OnInvalid`]).

use cardkit::Options;
pub use cardkit_run::OnInvalid;
use cardkit_run::Walk;

use crate::pointer::Ignore;

/// How to diff.
#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// How to validate both builds (`--kind set` and the like), for
    /// [`diff`](crate::diff()); [`diff_in`](crate::diff_in) validates as its
    /// run does.
    pub validate: Options,
    /// Threads each build is validated on.
    pub jobs: usize,
    /// Pointers left out of the comparison (`/cards/*/purchaseUrls`).
    pub ignore: Ignore,
    /// What to do with documents that are invalid or not sets.
    pub on_invalid: OnInvalid,
    /// How a directory given is searched for the build's files (ignore
    /// files, hidden files, excluded globs), as `validate` searches it.
    pub walk: Walk,
    /// The references between each build's documents are checked, as
    /// `validate --references` checks them, and those the change breaks
    /// reported ([`crate::Diff::references`]). Off by default: on the pass
    /// that reads each build, it costs a third to twice the time of the
    /// diff (`bench/RESULTS.md`).
    pub references: bool,
}
