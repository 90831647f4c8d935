//! The JSON report: one object with every file, every shown diagnostic, the
//! repeated warnings not shown and the totals. Its shape is documented in the
//! README and is stable.

use std::io::{self, Write};

use serde::Serialize;

use super::renderer::{FileEnd, Renderer};
use cardkit::diagnostic::Diagnostic;
use cardkit::model::Kind;
#[cfg(feature = "openapi")]
use cardkit::report::Suppressed;
use cardkit::report::{DocumentReport, Layout, Omitted, Reading};
use cardkit::report::{Summary, WarningFilter};

/// The JSON renderer.
#[derive(Debug, Default)]
pub struct Json {
    filter: WarningFilter,
    files_written: usize,
    documents_written: usize,
}

impl Json {
    /// A JSON renderer that includes repeated warnings as `filter` allows.
    #[must_use]
    pub fn new(filter: WarningFilter) -> Self {
        Json {
            filter,
            files_written: 0,
            documents_written: 0,
        }
    }
}

/// One document's entry: its place, kind, verdict and the diagnostics the
/// filter shows (in the JSON report and in JSON Lines).
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = Document))]
pub struct DocumentEntry<'a> {
    /// JSON Pointer of the document within its file (or its line); `""`
    /// for the root.
    pointer: &'a str,
    /// For JSON Lines, the 1-based line the document is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer_bytes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    /// The document's kind; `null` for problems found outside any document
    /// (malformed JSON, a kind that cannot be told).
    kind: Option<Kind>,
    /// No diagnostic of the document is an error.
    valid: bool,
    /// The diagnostics shown, in document order.
    diagnostics: Vec<&'a Diagnostic>,
    /// Diagnostics past the bounds a document keeps, counted but not kept.
    #[serde(skip_serializing_if = "Omitted::is_empty")]
    omitted: &'a Omitted,
}

impl<'a> DocumentEntry<'a> {
    pub(super) fn new(document: &'a DocumentReport, filter: &mut WarningFilter) -> Self {
        let diagnostics = document
            .diagnostics
            .iter()
            .filter(|d| filter.admit(d))
            .collect();
        filter.admit_folded(&document.folded);
        DocumentEntry {
            pointer: &document.pointer,
            pointer_bytes: document.pointer_bytes,
            line: document.line,
            kind: document.kind,
            valid: document.is_valid(),
            diagnostics,
            omitted: &document.omitted,
        }
    }
}

/// How the reading of one input ended, as the members that end its entry.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FileEnd))]
pub struct FileTail<'a> {
    /// Every document of the input is valid, and it was read to its end.
    valid: bool,
    /// How the documents were found in the input.
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<Layout>,
    /// Why the input could not be read to its end.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    /// What the report says last of the file: the option that would
    /// change its verdict, documents read under other names than its first.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    /// How the file was read: its names and version, and how each was
    /// decided (for files of sets and migrations).
    #[serde(skip_serializing_if = "Option::is_none")]
    reading: Option<&'a Reading>,
}

impl<'a> From<FileEnd<'a>> for FileTail<'a> {
    fn from(end: FileEnd<'a>) -> Self {
        FileTail {
            valid: end.valid,
            layout: end.layout,
            error: end.error,
            note: end.note,
            reading: end.reading,
        }
    }
}

/// The JSON report: one entry per input, the warnings counted but not
/// shown, and the totals. (The renderer writes it piece by piece, as its
/// entries are known; this is the shape of what it writes.)
#[cfg(feature = "openapi")]
#[derive(utoipa::ToSchema)]
pub struct Report<'a> {
    /// One entry per input, in the order read.
    pub files: Vec<FileEntry<'a>>,
    /// Diagnostics of one kind counted but not shown past the warning limit.
    pub suppressed: Vec<Suppressed>,
    /// The totals.
    pub summary: &'a Summary,
}

/// One input's entry in the JSON report: its path, its documents, then how
/// its reading ended.
#[cfg(feature = "openapi")]
#[derive(utoipa::ToSchema)]
#[schema(as = File)]
pub struct FileEntry<'a> {
    /// The input's path as given (`-` for standard input).
    pub path: &'a str,
    /// One entry per document, in input order.
    pub documents: Vec<DocumentEntry<'a>>,
    /// How the reading ended.
    #[serde(flatten)]
    pub tail: FileTail<'a>,
}

impl Renderer for Json {
    fn begin_file(&mut self, out: &mut dyn Write, path: &str) -> io::Result<()> {
        out.write_all(if self.files_written == 0 {
            b"{\"files\":[\n{\"path\":"
        } else {
            b",\n{\"path\":"
        })?;
        self.files_written += 1;
        self.documents_written = 0;
        serde_json::to_writer(&mut *out, path)?;
        out.write_all(b",\"documents\":[")?;
        Ok(())
    }

    fn warnings_shown(&self) -> Option<usize> {
        self.filter.warnings_shown()
    }

    fn document(
        &mut self,
        out: &mut dyn Write,
        _path: &str,
        document: &DocumentReport,
    ) -> io::Result<()> {
        let entry = DocumentEntry::new(document, &mut self.filter);
        if self.documents_written > 0 {
            out.write_all(b",")?;
        }
        self.documents_written += 1;
        out.write_all(b"\n  ")?;
        serde_json::to_writer(&mut *out, &entry)?;
        Ok(())
    }

    /// Written with the file's end ([`FileTail`]), with the way out the
    /// whole file shows.
    fn reading(&mut self, _out: &mut dyn Write, _path: &str, _reading: &Reading) -> io::Result<()> {
        Ok(())
    }

    fn end_file(&mut self, out: &mut dyn Write, _path: &str, end: FileEnd<'_>) -> io::Result<()> {
        out.write_all(b"],")?;
        let tail = serde_json::to_string(&FileTail::from(end))?;
        // The tail's members continue the file's object.
        out.write_all(&tail.as_bytes()[1..])
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        out.write_all(if self.files_written == 0 {
            b"{\"files\":["
        } else {
            b"\n"
        })?;
        out.write_all(b"],\n\"suppressed\":")?;
        serde_json::to_writer(&mut *out, &self.filter.suppressed())?;
        out.write_all(b",\n\"summary\":")?;
        serde_json::to_writer(&mut *out, summary)?;
        out.write_all(b"}\n")
    }
}
