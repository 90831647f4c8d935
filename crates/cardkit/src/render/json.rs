//! The JSON report: one object with every file, every shown diagnostic, the
//! repeated warnings not shown and the totals. Its shape is documented in the
//! README and is stable.

use std::io::{self, Write};

use serde::Serialize;

use super::Renderer;
use crate::diagnostic::Diagnostic;
use crate::report::{Summary, WarningFilter};
use crate::validate::{FileReport, Kind, Layout};

/// The JSON renderer.
#[derive(Debug, Default)]
pub struct Json {
    filter: WarningFilter,
    files_written: usize,
}

impl Json {
    /// A JSON renderer that includes repeated warnings as `filter` allows.
    #[must_use]
    pub fn new(filter: WarningFilter) -> Self {
        Json {
            filter,
            files_written: 0,
        }
    }

    fn entry(&mut self, out: &mut dyn Write, entry: &FileEntry<'_>) -> io::Result<()> {
        out.write_all(if self.files_written == 0 {
            b"{\"files\":[\n"
        } else {
            b",\n"
        })?;
        self.files_written += 1;
        serde_json::to_writer(&mut *out, entry)?;
        Ok(())
    }
}

#[derive(Serialize)]
struct FileEntry<'a> {
    path: &'a str,
    valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<Layout>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    documents: Vec<DocumentEntry<'a>>,
}

#[derive(Serialize)]
struct DocumentEntry<'a> {
    pointer: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    kind: Option<Kind>,
    valid: bool,
    diagnostics: Vec<&'a Diagnostic>,
}

impl Renderer for Json {
    fn file(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        _source: &[u8],
        report: &FileReport,
    ) -> io::Result<()> {
        let documents = report
            .documents
            .iter()
            .map(|document| DocumentEntry {
                pointer: &document.pointer,
                line: document.line,
                kind: document.kind,
                valid: document.is_valid(),
                diagnostics: document
                    .diagnostics
                    .iter()
                    .filter(|d| self.filter.admit(d))
                    .collect(),
            })
            .collect();
        let entry = FileEntry {
            path,
            valid: report.is_valid(),
            layout: Some(report.layout),
            error: None,
            documents,
        };
        self.entry(out, &entry)
    }

    fn unreadable(&mut self, out: &mut dyn Write, path: &str, error: &str) -> io::Result<()> {
        let entry = FileEntry {
            path,
            valid: false,
            layout: None,
            error: Some(error),
            documents: Vec::new(),
        };
        self.entry(out, &entry)
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
