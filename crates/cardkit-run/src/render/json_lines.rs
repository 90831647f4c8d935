//! The JSON Lines report: one line per document as soon as it is known, one
//! per input when it ends, and a last line with the totals. For consumers that
//! act on each document while a large input is still being read. Each line is
//! an object whose `type` says which of the three it is; the members besides
//! `type` are those of the JSON report's entries.

use std::io::{self, Write};

use serde::Serialize;

use super::json::{DocumentEntry, FileTail};
use super::renderer::{FileEnd, Renderer};
use cardkit::report::{DocumentReport, Reading};
use cardkit::report::{Summary, Suppressed, WarningFilter};

/// The JSON Lines renderer.
#[derive(Debug, Default)]
pub struct JsonLines {
    filter: WarningFilter,
}

impl JsonLines {
    /// A JSON Lines renderer that includes repeated warnings as `filter`
    /// allows.
    #[must_use]
    pub fn new(filter: WarningFilter) -> Self {
        JsonLines { filter }
    }
}

/// One line of the JSON Lines report (`application/x-ndjson`): the report is
/// a stream of such lines, each one JSON object and a newline; `type` says
/// which of the three it is.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = ReportLine))]
#[serde(untagged)]
pub enum Line<'a> {
    /// A document, as soon as it is known.
    Document(DocumentLine<'a>),
    /// An input, when its reading ends.
    File(FileLine<'a>),
    /// The totals, last.
    Summary(SummaryLine<'a>),
}

/// A line's `type`, which says which of the three it is.
macro_rules! line_type {
    ($name:ident, $variant:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Serialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            #[doc = $doc]
            $variant,
        }
    };
}

line_type!(DocumentLineType, Document, "`document`.");
line_type!(FileLineType, File, "`file`.");
line_type!(SummaryLineType, Summary, "`summary`.");

/// A document's line, as soon as the document is known: its entry, as in
/// the JSON report, with its input's path.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentLine<'a> {
    /// `document`.
    #[serde(rename = "type")]
    kind: DocumentLineType,
    /// The input's path.
    path: &'a str,
    /// The document's entry, as in the JSON report.
    #[serde(flatten)]
    entry: DocumentEntry<'a>,
}

/// An input's line, when its reading ends: how it ended, as in the JSON
/// report, with its path.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FileLine<'a> {
    /// `file`.
    #[serde(rename = "type")]
    kind: FileLineType,
    /// The input's path.
    path: &'a str,
    /// How the reading ended, as in the JSON report.
    #[serde(flatten)]
    tail: FileTail<'a>,
}

/// The last line: the totals.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SummaryLine<'a> {
    /// `summary`.
    #[serde(rename = "type")]
    kind: SummaryLineType,
    /// Diagnostics of one kind counted but not shown.
    suppressed: Vec<Suppressed>,
    /// The totals.
    summary: &'a Summary,
}

impl JsonLines {
    fn line(out: &mut dyn Write, line: &Line<'_>) -> io::Result<()> {
        serde_json::to_writer(&mut *out, line)?;
        out.write_all(b"\n")
    }
}

impl Renderer for JsonLines {
    fn warnings_shown(&self) -> Option<usize> {
        self.filter.warnings_shown()
    }

    fn document(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        document: &DocumentReport,
    ) -> io::Result<()> {
        let entry = DocumentEntry::new(document, &mut self.filter);
        Self::line(
            out,
            &Line::Document(DocumentLine {
                kind: DocumentLineType::Document,
                path,
                entry,
            }),
        )
    }

    /// Written on the file's line, with the way out the whole file shows.
    fn reading(&mut self, _out: &mut dyn Write, _path: &str, _reading: &Reading) -> io::Result<()> {
        Ok(())
    }

    fn end_file(&mut self, out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        let tail = FileTail::from(end);
        Self::line(
            out,
            &Line::File(FileLine {
                kind: FileLineType::File,
                path,
                tail,
            }),
        )
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        let suppressed = self.filter.suppressed();
        Self::line(
            out,
            &Line::Summary(SummaryLine {
                kind: SummaryLineType::Summary,
                suppressed,
                summary,
            }),
        )
    }
}
