//! How one input is checked ([`Check`]), why checking it can stop
//! ([`Failure`]), and the plain check, which validates and nothing more.

use std::io::{self, Read};

use cardkit::report::{DocumentReport, Layout};
use cardkit::validate::{Options, Validator};

/// How one input is checked: its name, its bytes, the options for it (the
/// run's, with whether it is JSON Lines), and where each document's report
/// goes, in file order. The plain check is [`Run::validate_all`]'s; an export
/// validates and writes rows in the same pass.
pub type Check<'c> = dyn FnMut(&str, &mut dyn Read, &Options, &mut dyn FnMut(&DocumentReport)) -> Result<Layout, Failure>
    + 'c;

/// Why checking an input stopped.
#[derive(Debug)]
pub enum Failure {
    /// The input could not be read to its end: it counts as unreadable, the
    /// run goes on.
    Read(io::Error),
    /// The run cannot go on (a target refused what it was given); the
    /// message says why. Nothing after it is read.
    Abort(String),
}

/// The plain check: each input validated on `jobs` threads.
pub(crate) fn plain(jobs: usize) -> Box<Check<'static>> {
    Box::new(move |_, reader, options, on_document| {
        Validator::new(*options)
            .jobs(jobs)
            .reader(reader, |document| on_document(&document))
            .map_err(Failure::Read)
    })
}
