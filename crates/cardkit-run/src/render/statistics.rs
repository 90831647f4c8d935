//! `--statistics`: how many diagnostics of each code and field a run found,
//! most first, as a table; then the closing summary. Every diagnostic counts
//! (those counted but not kept too, under their code alone).

use std::collections::HashMap;
use std::io::{self, Write};

use super::renderer::{FileEnd, Renderer};
use super::text::Text;
use super::words;
use cardkit::diagnostic::{Code, Severity};
use cardkit::report::{pattern, DocumentReport, Reading, Summary};

/// The statistics renderer.
#[derive(Debug, Default)]
pub struct Statistics {
    counts: HashMap<(Severity, Code, String), usize>,
    unreadable: Vec<(String, String)>,
}

impl Statistics {
    /// A renderer that counts, and writes the table at the end.
    #[must_use]
    pub fn new() -> Self {
        Statistics::default()
    }

    /// The rows: severity, code, field (or pointer pattern), count; most
    /// first, then in code and field order.
    #[must_use]
    pub fn rows(&self) -> Vec<(Severity, Code, &str, usize)> {
        let mut rows: Vec<_> = self
            .counts
            .iter()
            .map(|((severity, code, field), &n)| (*severity, *code, field.as_str(), n))
            .collect();
        rows.sort_by(|a, b| b.3.cmp(&a.3).then((a.0, a.1, a.2).cmp(&(b.0, b.1, b.2))));
        rows
    }
}

impl Renderer for Statistics {
    /// Counts by code and field need one warning of each built.
    fn warnings_shown(&self) -> Option<usize> {
        Some(1)
    }

    fn document(
        &mut self,
        _out: &mut dyn Write,
        _path: &str,
        document: &DocumentReport,
    ) -> io::Result<()> {
        for d in &document.diagnostics {
            let key = (d.severity, d.code, pattern(d).into_owned());
            *self.counts.entry(key).or_default() += 1;
        }
        for folded in document.folded.iter() {
            let key = (Severity::Warning, folded.code, folded.field.clone());
            *self.counts.entry(key).or_default() += folded.count;
        }
        let omitted = [
            (Severity::Error, &document.omitted.errors),
            (Severity::Warning, &document.omitted.warnings),
        ];
        for (severity, counts) in omitted {
            for (&code, &n) in counts {
                *self
                    .counts
                    .entry((severity, code, "(not kept)".to_owned()))
                    .or_default() += n;
            }
        }
        Ok(())
    }

    /// Said in the closing totals, by the names and versions files were
    /// read under.
    fn reading(&mut self, _out: &mut dyn Write, _path: &str, _reading: &Reading) -> io::Result<()> {
        Ok(())
    }

    fn end_file(&mut self, _out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        if let Some(error) = end.error {
            self.unreadable.push((path.to_owned(), error.to_owned()));
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        let rows = self.rows();
        let width = rows
            .iter()
            .map(|row| row.3.to_string().len())
            .max()
            .unwrap_or(1);
        let code_width = rows
            .iter()
            .map(|row| row.1.as_str().len())
            .max()
            .unwrap_or(4);
        for (severity, code, field, n) in rows {
            writeln!(
                out,
                "{n:>width$}  {:<7}  {:<code_width$}  {}",
                severity.as_str(),
                code.as_str(),
                Text::escape(field)
            )?;
        }
        for (path, error) in &self.unreadable {
            writeln!(
                out,
                "{}: error: cannot read: {}",
                Text::escape(path),
                Text::escape(error)
            )?;
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
