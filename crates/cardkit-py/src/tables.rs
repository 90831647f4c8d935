//! `read_tables`: a source validated and exported as `cardkit export` does,
//! into tables held in Arrow memory and handed to pyarrow; what was left
//! out of them, and why.

use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::sync::Arc;

use arrow_pyarrow::IntoPyArrow;
use cardkit::report::{Reading, Summary};
use cardkit::DocumentReport;
use cardkit::Kind;
use cardkit::Severity;
use cardkit_export::arrow::{ArrowTable, Tables};
use cardkit_export::{Ending, Exporter, InputError, InputsRead, OnInvalid};
use cardkit_run::render::words::plural;
use cardkit_run::render::{FileEnd, Json, Renderer};
use cardkit_run::{Failure, Run, Settings, Shown, Surface};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::interrupt::{detached, Interrupt};
use crate::keywords::Keywords;
use crate::runs::each_input;
use crate::source::Source;

/// How many of an export's notes (documents left out or kept with NULLs,
/// and why) a read keeps for its caller; the rest are counted.
const KEPT_NOTES: usize = 100;

/// What a read of the tables came to, for `python/cardkit` to return or
/// raise.
#[pyclass(module = "cardkit._native", frozen, get_all)]
pub(crate) struct TablesRead {
    /// `"ok"`; `"invalid"` (documents invalid or not exportable under
    /// `on_invalid="fail"`: nothing was read); `"unreadable"` (an input
    /// could not be read, under `"fail"`); `"nothing"` (no input found);
    /// `"aborted"` (the tables could not be made).
    outcome: &'static str,
    /// Each table's name and its `pyarrow.Table` (`"ok"` only), in the
    /// layout's order.
    tables: Vec<(String, Py<PyAny>)>,
    /// The report of the invalid documents and unreadable inputs, as
    /// `validate_json`'s JSON text (valid documents are not listed); empty
    /// unless `on_invalid` is `fail`.
    report: String,
    /// The exit status `validate` would give.
    status: u8,
    /// The export's notes, the first [`KEPT_NOTES`], and how many there were.
    notes: Vec<String>,
    note_count: usize,
    /// What was left out of the tables and why, as JSON text (see
    /// [`Skipped`]).
    skipped: String,
    /// Why the outcome is not `"ok"`, in words.
    message: String,
}

/// What [`read_tables`] collects on its run, without the GIL.
struct Collecting {
    outcome: &'static str,
    tables: Vec<ArrowTable>,
    report: Vec<u8>,
    status: u8,
    notes: Vec<String>,
    note_count: usize,
    skipped: Skipped,
    /// The documents read and the inputs that could not be, as the
    /// summary counts them.
    documents: usize,
    unreadable: usize,
    message: String,
}

/// What a read left out of its tables: each document left out (the first
/// [`KEPT_NOTES`] described, all counted) and each input's note or error.
#[derive(Default)]
struct Skipped {
    /// Each document left out: its input, place, kind, why in the export's
    /// words, and its first error when it is invalid.
    documents: Vec<serde_json::Value>,
    /// How many documents were left out, and how many of them are invalid.
    left_out: usize,
    invalid: usize,
    /// The inputs with a note (how they were checked, a hint) or an error
    /// (they could not be read to their end), the first [`KEPT_NOTES`].
    files: Vec<serde_json::Value>,
}

impl Skipped {
    fn to_json(&self, documents: usize, unreadable: usize) -> String {
        serde_json::json!({
            "documents": documents,
            "left_out": self.left_out,
            "invalid": self.invalid,
            "unreadable": unreadable,
            "skipped": self.documents,
            "files": self.files,
        })
        .to_string()
    }
}

/// The document whose report was the last handed over: the export's notes
/// on it come next.
struct Current {
    place: String,
    pointer: String,
    line: Option<usize>,
    kind: Option<Kind>,
    /// Its first error, as the JSON report has it (`None`: it is valid).
    first_error: Option<serde_json::Value>,
}

impl Current {
    fn of(name: &str, document: &DocumentReport) -> Self {
        Current {
            place: document.place(name),
            pointer: document.pointer.clone(),
            line: document.line,
            kind: document.kind,
            first_error: document
                .diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error)
                .and_then(|d| serde_json::to_value(d).ok())
                .or_else(|| (!document.is_valid()).then_some(serde_json::Value::Null)),
        }
    }

    /// Why the export left the document out, when `note` says it did.
    fn left_out<'n>(&self, note: &'n str) -> Option<&'n str> {
        note.strip_prefix(self.place.as_str())?
            .strip_prefix(": ")?
            .strip_prefix(cardkit_export::LEFT_OUT)?
            .strip_prefix(": ")
    }
}

/// A renderer that hands everything on to `inner`, and keeps each input's
/// note and error for [`Skipped`].
struct Noting<'a> {
    inner: &'a mut dyn Renderer,
    files: &'a mut Vec<serde_json::Value>,
}

impl Renderer for Noting<'_> {
    fn begin_file(&mut self, out: &mut dyn Write, path: &str) -> io::Result<()> {
        self.inner.begin_file(out, path)
    }

    fn document(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        document: &DocumentReport,
    ) -> io::Result<()> {
        self.inner.document(out, path, document)
    }

    fn reading(&mut self, out: &mut dyn Write, path: &str, reading: &Reading) -> io::Result<()> {
        self.inner.reading(out, path, reading)
    }

    fn end_file(&mut self, out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        if (end.note.is_some() || end.error.is_some()) && self.files.len() < KEPT_NOTES {
            self.files.push(serde_json::json!({
                "path": path,
                "note": end.note,
                "error": end.error,
            }));
        }
        self.inner.end_file(out, path, end)
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        self.inner.finish(out, summary)
    }
}

/// Validates and exports `source` as `cardkit export` does, into tables
/// held in Arrow memory, with the GIL released; each table is handed to
/// pyarrow through the Arrow C data interface.
#[pyfunction]
#[pyo3(signature = (source, *, on_invalid="fail", keep_unknown=false, name=None, **keywords))]
pub(crate) fn read_tables(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    on_invalid: &str,
    keep_unknown: bool,
    name: Option<String>,
    keywords: Option<&Bound<'_, PyDict>>,
) -> PyResult<TablesRead> {
    let on_invalid = OnInvalid::from_word(on_invalid).ok_or_else(|| {
        PyValueError::new_err(format!(
            "on_invalid is {on_invalid:?}: expected 'fail', 'skip' or 'keep'"
        ))
    })?;
    let (settings, jobs) = Keywords::read("read_tables", keywords)?.run()?;
    let source = Source::of_many(source, name)?;
    let raised = source.raised();
    let collected = detached(py, raised, |interrupt| {
        collect_tables(&settings, source, jobs, on_invalid, keep_unknown, interrupt)
    })?;
    let collected = collected?;
    let tables = collected
        .tables
        .into_iter()
        .map(|table| {
            let converted = arrow_pyarrow::Table::try_new(table.batches, table.schema)
                .map_err(|error| PyValueError::new_err(format!("{}: {error}", table.name)))?
                .into_pyarrow(py)?;
            Ok((table.name, converted.unbind()))
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(TablesRead {
        outcome: collected.outcome,
        tables,
        report: String::from_utf8(collected.report)
            .map_err(|_| PyValueError::new_err("the report is not UTF-8"))?,
        status: collected.status,
        notes: collected.notes,
        note_count: collected.note_count,
        skipped: collected
            .skipped
            .to_json(collected.documents, collected.unreadable),
        message: collected.message,
    })
}

/// One export run over `source` into [`Tables`], as `cardkit export` runs
/// it: the invalid documents reported with the JSON renderer.
fn collect_tables(
    settings: &Settings,
    source: Source,
    jobs: usize,
    on_invalid: OnInvalid,
    keep_unknown: bool,
    interrupt: &Arc<Interrupt>,
) -> io::Result<Collecting> {
    let (store, collected) = Tables::new();
    let mut exporter = Exporter::with_store(Box::new(store), on_invalid, jobs);
    exporter.keep_unknown(keep_unknown);
    let mut json = Json::new(settings.warning_filter());
    let mut skipped = Skipped::default();
    let mut renderer = Noting {
        inner: &mut json,
        files: &mut skipped.files,
    };
    // The report is raised with under `fail` only: under the others, the
    // invalid documents' entries are not kept.
    let mut report = Vec::new();
    let mut sink = io::sink();
    let out: &mut dyn Write = if on_invalid == OnInvalid::Fail {
        &mut report
    } else {
        &mut sink
    };
    let mut notes = Vec::new();
    let mut note_count = 0;
    let (mut skipped_documents, mut left_out, mut invalid) = (Vec::new(), 0, 0);
    let mut run = Run::with_settings(&mut renderer, out, settings)
        .showing(Shown::Invalid)
        .surface(Surface::Python);
    // The references are read from the tapes the rows are made from.
    exporter.reading_references(run.references());
    let mut check = |name: &str,
                     reader: &mut dyn Read,
                     options: &cardkit::Options,
                     on_document: &mut dyn FnMut(&DocumentReport)| {
        // Shared by the two callbacks: the export's notes on a document
        // come right after its report.
        let current = RefCell::new(None);
        let watched = |document: &DocumentReport| {
            *current.borrow_mut() = Some(Current::of(name, document));
            on_document(document);
        };
        exporter
            .input(name, reader, options, watched, |text: &str| {
                note_count += 1;
                if notes.len() < KEPT_NOTES {
                    notes.push(text.to_owned());
                }
                let current = current.borrow();
                let Some(document) = current.as_ref() else {
                    return;
                };
                let Some(why) = document.left_out(text) else {
                    return;
                };
                left_out += 1;
                invalid += usize::from(document.first_error.is_some());
                if skipped_documents.len() < KEPT_NOTES {
                    skipped_documents.push(serde_json::json!({
                        "path": name,
                        "pointer": document.pointer,
                        "line": document.line,
                        "kind": document.kind,
                        "reason": why,
                        "error": document.first_error,
                    }));
                }
            })
            .map_err(|error| match error {
                InputError::Read(error) => Failure::Read(error),
                InputError::Store(error) => Failure::Abort(error.to_string()),
            })
    };
    each_input(source, interrupt, |input| match input {
        Ok(opened) => run.input(opened, &mut check),
        Err(unopened) => run.unopened(&unopened),
    })?;
    run.finish_references(&mut |found| exporter.found_reference(found))?;
    let (none_found, aborted) = (run.checked_nothing(), run.aborted().map(str::to_owned));
    let (summary, status) = run.finish()?;
    skipped.documents = skipped_documents;
    skipped.left_out = left_out;
    skipped.invalid = invalid;
    // An interrupt is one more reason for the run to stop, told first.
    let stopped = if interrupt.stopped() {
        Some("interrupted".to_owned())
    } else {
        aborted
    };
    let ending = exporter.end(InputsRead {
        stopped,
        none_found,
        unreadable: summary.unreadable,
    });
    let tables = match ending {
        Ending::Exported(_) => collected.take().unwrap_or_default(),
        _ => Vec::new(),
    };
    let (outcome, message) = worded(ending, summary.documents);
    Ok(Collecting {
        outcome,
        tables,
        report,
        status: status.code(),
        notes,
        note_count,
        skipped,
        documents: summary.documents,
        unreadable: summary.unreadable,
        message,
    })
}

/// The outcome [`TablesRead`] gives for `ending`, and why it is not
/// `"ok"` in words; `documents` were read.
fn worded(ending: Ending, documents: usize) -> (&'static str, String) {
    match ending {
        Ending::Exported(_) => ("ok", String::new()),
        Ending::Aborted(why) => ("aborted", why),
        Ending::StoreFailed(error) => ("aborted", error.to_string()),
        Ending::NothingFound => (
            "nothing",
            "no input was found in the paths given: nothing was read".into(),
        ),
        Ending::Unreadable { inputs } => (
            "unreadable",
            format!(
                "{} could not be read: nothing was read (on_invalid='skip' reads the others)",
                plural(inputs, "input")
            ),
        ),
        Ending::Invalid { left_out } => (
            "invalid",
            format!(
                "{left_out} of {} invalid or cannot be exported: nothing was read (on_invalid='skip' leaves them out, 'keep' reads them with NULLs)",
                plural(documents, "document"),
            ),
        ),
    }
}
