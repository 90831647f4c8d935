//! The JSON report: one object with every file, every shown diagnostic, the
//! repeated warnings not shown and the totals. Its shape is documented in the
//! README and is stable.

use std::io::{self, Write};

use serde::Serialize;

use super::renderer::{FileEnd, Renderer};
use crate::diagnostic::Diagnostic;
use crate::model::Kind;
use crate::report::{DocumentReport, Layout, Omitted};
use crate::report::{Summary, WarningFilter};

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
/// filter shows. Shared with [`super::JsonLines`].
#[derive(Serialize)]
pub(super) struct DocumentEntry<'a> {
    pointer: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer_bytes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    kind: Option<Kind>,
    valid: bool,
    diagnostics: Vec<&'a Diagnostic>,
    #[serde(skip_serializing_if = "Omitted::is_empty")]
    omitted: &'a Omitted,
}

impl<'a> DocumentEntry<'a> {
    pub(super) fn new(document: &'a DocumentReport, filter: &mut WarningFilter) -> Self {
        DocumentEntry {
            pointer: &document.pointer,
            pointer_bytes: document.pointer_bytes,
            line: document.line,
            kind: document.kind,
            valid: document.is_valid(),
            diagnostics: document
                .diagnostics
                .iter()
                .filter(|d| filter.admit(d))
                .collect(),
            omitted: &document.omitted,
        }
    }
}

/// How the reading of one input ended, as the members that end its entry.
#[derive(Serialize)]
pub(super) struct FileTail<'a> {
    valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<Layout>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    /// How the file was checked (the version, under `--as-of auto`).
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
}

impl<'a> From<FileEnd<'a>> for FileTail<'a> {
    fn from(end: FileEnd<'a>) -> Self {
        FileTail {
            valid: end.valid,
            layout: end.layout,
            error: end.error,
            note: end.note,
        }
    }
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
