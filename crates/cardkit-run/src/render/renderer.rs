//! What every output format does: a [`Renderer`] is fed one input at a
//! time, one document at a time, and ends with the run's totals.

use std::io::{self, Write};

use cardkit::report::{DocumentReport, FileReport, Layout, Reading, Summary};

/// How the reading of one input ended.
#[derive(Debug, Clone, Copy)]
pub struct FileEnd<'a> {
    /// How the documents were found; `None` when nothing could be read.
    pub layout: Option<Layout>,
    /// Every document of the input is valid (and it could be read).
    pub valid: bool,
    /// Why the input could not be read (to its end).
    pub error: Option<&'a str>,
    /// What the report says last of the input, when it says anything: the
    /// option that would change its verdict, documents read under other
    /// names than its first.
    pub note: Option<&'a str>,
    /// How it was read, when it has documents with names or versions to
    /// tell (as [`Renderer::reading`] was given it, with the way out the
    /// whole input shows).
    pub reading: Option<&'a Reading>,
    /// What the input is when it is a file of the design tool's own rather
    /// than documents of the spec, and the command that converts it (also
    /// in `note`, for the formats that show the note).
    pub hint: Option<&'a str>,
}

/// An output format.
pub trait Renderer {
    /// Starts the output of one input (most formats write nothing there).
    fn begin_file(&mut self, _out: &mut dyn Write, _path: &str) -> io::Result<()> {
        Ok(())
    }

    /// Writes how the current input was read (its names, its version, the
    /// option that would change its verdict), before its first document of
    /// a kind that has names or versions to tell: once per input.
    fn reading(&mut self, out: &mut dyn Write, path: &str, reading: &Reading) -> io::Result<()>;

    /// How many warnings of each code and `Model.field` this format shows
    /// (`None`: every one). The run has the rest only counted
    /// ([`cardkit::Options::warnings_shown`]): a format that shows fewer
    /// than all counts each document's [`DocumentReport::folded`] too.
    fn warnings_shown(&self) -> Option<usize> {
        None
    }

    /// Writes what was found in one document of the current input.
    fn document(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        document: &DocumentReport,
    ) -> io::Result<()>;

    /// Ends the output of the current input.
    fn end_file(&mut self, out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()>;

    /// Writes the end of the output: repeated warnings not shown, and totals.
    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()>;

    /// Writes a whole input's report at once.
    fn file(&mut self, out: &mut dyn Write, path: &str, report: &FileReport) -> io::Result<()> {
        self.begin_file(out, path)?;
        for document in &report.documents {
            self.document(out, path, document)?;
        }
        let end = FileEnd {
            layout: Some(report.layout),
            valid: report.is_valid(),
            error: None,
            note: None,
            reading: None,
            hint: None,
        };
        self.end_file(out, path, end)
    }

    /// Writes that a path could not be read.
    fn unreadable(&mut self, out: &mut dyn Write, path: &str, error: &str) -> io::Result<()> {
        self.begin_file(out, path)?;
        let end = FileEnd {
            layout: None,
            valid: false,
            error: Some(error),
            note: None,
            reading: None,
            hint: None,
        };
        self.end_file(out, path, end)
    }
}
