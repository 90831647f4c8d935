//! One line per diagnostic, `path:line:column: severity[code]: message`, as
//! editors' problem matchers read them; then the closing summary. Nothing
//! else: no source excerpt, no pointer.

use std::io::{self, Write};

use super::renderer::{FileEnd, Renderer};
use super::text::Text;
use super::words;
use cardkit::report::{DocumentReport, Reading, Summary, WarningFilter};

/// The concise renderer.
#[derive(Debug, Default)]
pub struct Concise {
    filter: WarningFilter,
    /// How the current file was read, written before its first line: a
    /// file with no line has none, and the closing `read:` line counts it.
    reading: Option<String>,
}

impl Concise {
    /// A concise renderer that shows repeated diagnostics as `filter` allows.
    #[must_use]
    pub fn new(filter: WarningFilter) -> Self {
        Concise {
            filter,
            reading: None,
        }
    }
}

impl Renderer for Concise {
    fn warnings_shown(&self) -> Option<usize> {
        self.filter.warnings_shown()
    }

    fn document(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        document: &DocumentReport,
    ) -> io::Result<()> {
        let path = Text::escape(path);
        for d in &document.diagnostics {
            if self.filter.admit(d) {
                if let Some(line) = self.reading.take() {
                    out.write_all(line.as_bytes())?;
                }
                writeln!(
                    out,
                    "{path}:{}:{}: {}[{}]: {}",
                    d.line,
                    d.column,
                    d.severity.as_str(),
                    d.code,
                    Text::escape(&d.message())
                )?;
            }
        }
        self.filter.admit_folded(&document.folded);
        Ok(())
    }

    fn reading(&mut self, _out: &mut dyn Write, path: &str, reading: &Reading) -> io::Result<()> {
        self.reading = Some(format!(
            "{}: note: {}\n",
            Text::escape(path),
            Text::escape(&reading.said())
        ));
        Ok(())
    }

    fn end_file(&mut self, out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        if let Some(line) = self.reading.take().filter(|_| end.error.is_some()) {
            out.write_all(line.as_bytes())?;
        }
        if let Some(hint) = end.hint {
            writeln!(out, "{}: note: {}", Text::escape(path), Text::escape(hint))?;
        }
        match end.error {
            Some(error) => writeln!(
                out,
                "{}: error: cannot read: {}",
                Text::escape(path),
                Text::escape(error)
            ),
            None => Ok(()),
        }
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        for hidden in self.filter.suppressed() {
            writeln!(out, "note: {}", Text::escape(&words::suppressed(&hidden)))?;
        }
        writeln!(out, "{}", words::checked(summary))?;
        for line in words::counts(summary) {
            writeln!(out, "{line}")?;
        }
        for way_out in words::ways_out(summary) {
            writeln!(out, "help: {way_out}")?;
        }
        Ok(())
    }
}
