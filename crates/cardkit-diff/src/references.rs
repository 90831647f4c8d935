//! The references a change breaks: what `validate --references` finds in
//! the new build and not in the old one (and how many of the old build's
//! findings the new one no longer has). Each build's references are read
//! on its one validating pass ([`Reading`]: each set document's facts from
//! the validator's tape, on the threads that validate), and settled when
//! the build has been read. A finding is known by its code, the record it
//! is in or its set, its field and its value ([`Found::key`]), never by its
//! place, which moves.

use std::fmt;

use cardkit::references::{Digest, Finding, References};
use cardkit::report::Layout;
use cardkit::validate::Filter;
use cardkit::{Code, Severity};

use crate::print::SetPrint;

/// A build's references, read with its documents.
pub(crate) struct Reading {
    check: References,
    /// For each document the check was given, the index of its set in the
    /// build's.
    sets: Vec<usize>,
}

impl fmt::Debug for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Reading {{ documents: {} }}", self.sets.len())
    }
}

impl Reading {
    /// A check that leaves out what `filter` (a configuration's `ignore`)
    /// names, as `validate --references` does.
    pub(crate) fn new(filter: Option<&'static Filter>) -> Reading {
        Reading {
            // The severity is never shown: findings are compared, not
            // reported as diagnostics.
            check: References::new(Severity::Warning)
                .filtered(filter)
                .keeping_all(),
            sets: Vec::new(),
        }
    }

    /// Adds the references of a set document of file `file` (`valid` as
    /// validated), the build's set `set`.
    pub(crate) fn add(&mut self, file: &str, digest: Digest, valid: bool, set: usize) {
        self.check.add(file, digest, valid);
        self.sets.push(set);
    }

    /// An input of the build has been read, laid out as `layout`: what is
    /// beyond its sets is checked only when every input is a whole catalog.
    pub(crate) fn input_read(&mut self, layout: Layout) {
        self.check
            .input_read(matches!(layout, Layout::Catalog | Layout::CodeMap));
    }

    /// Settles the build's references: every finding, with the set it is
    /// in and the record whose member it is, of the build's `sets`.
    pub(crate) fn finish(self, sets: &[SetPrint]) -> Vec<Found> {
        let Reading { check, sets: of } = self;
        check
            .findings()
            .findings
            .into_iter()
            .filter_map(|(document, finding)| {
                let set = *of.get(document as usize)?;
                let record = record_at(&sets[set], finding.at.offset as u64);
                Some(Found {
                    set,
                    record,
                    finding,
                })
            })
            .collect()
    }
}

/// The uuid of the record of `set` whose bytes hold the byte at `offset`
/// of the file (`#N` for one without a uuid), when a record does: the
/// record a finding is in, whatever its place and the names it is written
/// under.
fn record_at(set: &SetPrint, offset: u64) -> Option<Box<str>> {
    // Records are kept in the order their bytes come.
    let after = set.records.partition_point(|r| r.offset <= offset);
    let record = &set.records[after.checked_sub(1)?];
    (offset < record.offset + u64::from(record.len)).then(|| record.uuid.clone())
}

/// A finding of a build.
pub(crate) struct Found {
    /// The index of its set in the build's.
    pub(crate) set: usize,
    /// The uuid of the record whose member it is.
    pub(crate) record: Option<Box<str>>,
    pub(crate) finding: Finding,
}

/// What a finding is known by across builds.
pub(crate) type Key = (Code, Box<str>, String, Box<str>);

impl Found {
    /// Its code; the uuid of the record it is in, or its set's code for a
    /// set's own members and for a printing given twice (which of two
    /// records of a printing is the second moves when they are
    /// reordered); its field; its value.
    pub(crate) fn key(&self, sets: &[SetPrint]) -> Key {
        let code = self.finding.detail.code();
        let owner = match &self.record {
            Some(uuid) if code != Code::DuplicatePrinting => uuid.clone(),
            _ => sets[self.set].code.clone().into_boxed_str(),
        };
        let field = self.finding.field;
        (
            code,
            owner,
            format!("{}.{}", field.model, field.name),
            self.finding.subject().into(),
        )
    }
}
