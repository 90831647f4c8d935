//! `--references`: the references between the documents a run reads,
//! checked as they are validated (each set document's facts read from the
//! validator's tape on the thread that validated it) and reported when the
//! run ends, under each document's file again, as diagnostics like any
//! other.

use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::rc::Rc;

use cardkit::diagnostic::Severity;
use cardkit::references::{Digest, Outcome, Placed, References};
use cardkit::report::{DocumentReport, Layout, Summary};
use cardkit::validate::{Filter, Validator};

use crate::check::{Check, Failure};
use crate::render::{FileEnd, Renderer};

/// The references of a run, shared with its check.
pub(crate) type Shared = Rc<RefCell<References>>;

/// A run's references, checked with findings of `severity`, leaving out
/// what `filter` (a configuration's `ignore`) names.
pub(crate) fn shared(severity: Severity, filter: Option<&'static Filter>) -> Shared {
    Rc::new(RefCell::new(References::new(severity).filtered(filter)))
}

/// The plain check, reading each set document's facts as it goes.
pub(crate) fn check(jobs: usize, references: Shared) -> Box<Check<'static>> {
    let reader = ReferencesReader { shared: references };
    Box::new(move |name, input, options, on_document| {
        reader
            .read(
                Validator::new(*options).jobs(jobs),
                name,
                input,
                on_document,
            )
            .map_err(Failure::Read)
    })
}

/// What a check of its own (the service's) uses to read the references of
/// the run it checks for, while it validates: see [`crate::Run::references`].
#[derive(Clone)]
pub struct ReferencesReader {
    shared: Shared,
}

impl ReferencesReader {
    pub(crate) fn of(shared: &Shared) -> Self {
        ReferencesReader {
            shared: shared.clone(),
        }
    }

    /// Validates `input` (named `name`) with `validator`, handing each
    /// document's report to `on_document` and keeping what its references
    /// are for the end of the run.
    ///
    /// # Errors
    /// As [`Validator::reader`].
    pub fn read(
        &self,
        validator: Validator,
        name: &str,
        input: &mut dyn Read,
        on_document: &mut dyn FnMut(&DocumentReport),
    ) -> io::Result<Layout> {
        self.shared
            .borrow_mut()
            .read(validator, name, input, on_document)
    }

    /// Adds one set document of `file` whose facts a check of its own read
    /// from its tape ([`Digest::of`]), as [`References::add`] does; `valid`
    /// as validated.
    pub fn add(&self, file: &str, digest: Digest, valid: bool) {
        self.shared.borrow_mut().add(file, digest, valid);
    }

    /// An input a check of its own read ends, as [`References::input_read`]
    /// says.
    pub fn input_read(&self, whole_catalog: bool) {
        self.shared.borrow_mut().input_read(whole_catalog);
    }
}

/// Settles what is left, and renders the findings under each document's
/// file, counting them in the summary; each finding is handed to
/// `on_finding` too.
pub(crate) fn finish(
    references: Shared,
    renderer: &mut dyn Renderer,
    out: &mut dyn Write,
    summary: &mut Summary,
    on_finding: &mut dyn FnMut(Placed<'_>),
) -> io::Result<()> {
    let references = Rc::try_unwrap(references)
        .map(RefCell::into_inner)
        .unwrap_or_else(|shared| {
            // The check outlives the run only if a caller kept it; what it
            // gathered is the same.
            std::mem::replace(
                &mut *shared.borrow_mut(),
                References::new(Severity::Warning),
            )
        });
    let Outcome {
        reports,
        unchecked,
        documents,
        last_file,
    } = references.finish_with(on_finding);
    let note = unchecked_note(unchecked, documents);
    // The note ends the last file the references name, or the last read.
    let noted = reports
        .last()
        .map(|(file, _, _)| file.clone())
        .or(last_file);
    let mut files = reports.iter().peekable();
    while let Some((file, first, was_valid)) = files.next() {
        renderer.begin_file(out, file)?;
        let mut valid = first.is_valid();
        summary.add_later(first, *was_valid);
        renderer.document(out, file, first)?;
        while let Some((_, report, was_valid)) = files.next_if(|(next, _, _)| next == file) {
            valid &= report.is_valid();
            summary.add_later(report, *was_valid);
            renderer.document(out, file, report)?;
        }
        let last = files.peek().is_none();
        let end = FileEnd {
            layout: None,
            valid,
            error: None,
            note: note.as_deref().filter(|_| last),
            reading: None,
            hint: None,
        };
        renderer.end_file(out, file, end)?;
    }
    if let (true, Some(note), Some(file)) = (reports.is_empty(), &note, &noted) {
        renderer.begin_file(out, file)?;
        let end = FileEnd {
            layout: None,
            valid: true,
            error: None,
            note: Some(note),
            reading: None,
            hint: None,
        };
        renderer.end_file(out, file, end)?;
    }
    Ok(())
}

/// What could not be checked, in words, when something could not.
fn unchecked_note(unchecked: usize, documents: usize) -> Option<String> {
    let plural = |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    (unchecked > 0).then(|| {
        format!(
            "references: {unchecked} {} to sets, cards or printings beyond the {documents} set {} read {} not checked: a run over a whole catalog checks {}",
            plural(unchecked, "reference", "references"),
            plural(documents, "document", "documents"),
            plural(unchecked, "was", "were"),
            plural(unchecked, "it", "them"),
        )
    })
}
