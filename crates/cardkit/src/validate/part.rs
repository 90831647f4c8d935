//! What validation hands on, in file order: each document's report with
//! what the caller's extractor made of the document's bytes (on whichever
//! thread validated it), and the members of a root object read past beside
//! the documents (a catalog's `meta`). Nothing is extracted or kept unless a
//! caller asks ([`super::Validator::extracting`]): [`super::Validator::reader`] pays
//! one branch per document.

use std::any::Any;

use super::locate::Position;
use super::tape::{Tape, TapeScope};
use crate::report::DocumentReport;

/// The longest member beside the documents (a catalog's `meta`) whose bytes
/// an extracting validation hands out: 1 MiB. A longer one is read past as
/// a stream, as always, and handed out without its bytes.
pub const AROUND_LIMIT: usize = 1 << 20;

/// What an extractor made of one document, type-erased between the threads.
pub(crate) type Extracted = Box<dyn Any + Send>;

/// What an extractor does: a document's report, bytes, where they start in
/// the file and tape to what the caller keeps.
pub(crate) type Make<'e> = dyn Fn(&DocumentReport, &[u8], Position, &Tape) -> Extracted + Sync + 'e;

/// An extractor, and whether it follows the tape (else it is given an
/// empty one).
#[derive(Clone, Copy)]
pub(crate) struct Extract<'e> {
    pub make: &'e Make<'e>,
    /// The checker records each document's tape for `make`, of these
    /// fields.
    pub tape: Option<TapeScope>,
}

/// One thing handed on.
pub(crate) enum Part {
    /// A report, with what was extracted from the document's bytes when the
    /// report is of a whole document and an extractor was given.
    Document(DocumentReport, Option<Extracted>),
    /// A member beside the documents: its pointer and its bytes, when they
    /// are no longer than [`AROUND_LIMIT`].
    Around(String, Option<Vec<u8>>),
}

/// Where parts go: the caller's callback, and its extractor if any.
pub(crate) struct Sink<'s> {
    pub extract: Option<Extract<'s>>,
    pub out: &'s mut dyn FnMut(Part),
}

impl Sink<'_> {
    /// The same sink, for a while.
    pub fn reborrow(&mut self) -> Sink<'_> {
        Sink {
            extract: self.extract,
            out: &mut *self.out,
        }
    }

    /// Hands on a report, with what the extractor makes of `bytes` (the
    /// document, when it was read whole, and where it starts) and its tape.
    pub fn document(
        &mut self,
        report: DocumentReport,
        bytes: Option<(&[u8], Position)>,
        tape: &Tape,
    ) {
        let extracted = extracted(self.extract, &report, bytes, tape);
        (self.out)(Part::Document(report, extracted));
    }

    /// Hands on a report of problems outside any document.
    pub fn outside(&mut self, report: DocumentReport) {
        (self.out)(Part::Document(report, None));
    }

    /// Whether documents are extracted from (and so need their bytes and
    /// where they start).
    pub fn extracts(&self) -> bool {
        self.extract.is_some()
    }

    /// Whether members beside the documents are wanted.
    pub fn wants_around(&self) -> bool {
        self.extract.is_some()
    }

    /// Whether the checker records the documents' tapes.
    pub fn wants_tape(&self) -> Option<TapeScope> {
        self.extract.and_then(|e| e.tape)
    }
}

/// What `extract` makes of a document's `bytes` starting at `at`, if
/// there is an extractor and the document was read whole.
pub(crate) fn extracted(
    extract: Option<Extract<'_>>,
    report: &DocumentReport,
    bytes: Option<(&[u8], Position)>,
    tape: &Tape,
) -> Option<Extracted> {
    extract
        .zip(bytes)
        .map(|(extract, (bytes, at))| (extract.make)(report, bytes, at, tape))
}
