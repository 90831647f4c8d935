//! Compiler-style text: `path:line:col: error[code]: message`, the offending
//! source line with a caret, and a closing summary.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::Renderer;
use crate::diagnostic::{Code, Diagnostic};
use crate::report::{Summary, WarningFilter};
use crate::validate::FileReport;

/// How many characters of a long source line are shown around the caret.
const EXCERPT_CONTEXT: usize = 60;

/// The text renderer.
#[derive(Debug, Default)]
pub struct Text {
    filter: WarningFilter,
}

impl Text {
    /// A text renderer that shows repeated warnings as `filter` allows.
    #[must_use]
    pub fn new(filter: WarningFilter) -> Self {
        Text { filter }
    }
}

impl Renderer for Text {
    fn file(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        source: &[u8],
        report: &FileReport,
    ) -> io::Result<()> {
        for document in &report.documents {
            for diagnostic in &document.diagnostics {
                if self.filter.admit(diagnostic) {
                    out.write_all(diagnostic_text(path, source, diagnostic).as_bytes())?;
                }
            }
        }
        Ok(())
    }

    fn unreadable(&mut self, out: &mut dyn Write, path: &str, error: &str) -> io::Result<()> {
        writeln!(out, "{path}: error: cannot read: {error}\n")
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        for hidden in self.filter.suppressed() {
            writeln!(
                out,
                "note: {} more {} warnings like {} not shown ({} in all)",
                hidden.total - hidden.shown,
                hidden.code,
                hidden.pattern,
                hidden.total
            )?;
        }
        let files = plural(summary.files + summary.unreadable, "file");
        let documents = plural(summary.documents, "document");
        write!(
            out,
            "checked {documents} in {files}: {} valid, {} invalid",
            summary.valid, summary.invalid
        )?;
        if summary.unreadable > 0 {
            write!(out, ", {} unreadable", plural(summary.unreadable, "path"))?;
        }
        writeln!(out)?;
        for (label, counts, total) in [
            ("errors", &summary.errors, summary.error_count()),
            ("warnings", &summary.warnings, summary.warning_count()),
        ] {
            if total > 0 {
                writeln!(out, "{label}: {total} ({})", by_code(counts))?;
            }
        }
        Ok(())
    }
}

/// One diagnostic with its source excerpt.
fn diagnostic_text(path: &str, source: &[u8], d: &Diagnostic) -> String {
    let mut text = format!(
        "{path}:{}:{}: {}[{}]: {}\n",
        d.line,
        d.column,
        d.severity.as_str(),
        d.code,
        d.message
    );
    let pointer = if d.pointer.is_empty() {
        "(the root)"
    } else {
        &d.pointer
    };
    let gutter = d.line.to_string().len();
    let _ = writeln!(text, "{:gutter$}--> {pointer}", "");
    if let Some((excerpt, caret)) = excerpt(source, d.offset) {
        let _ = writeln!(text, "{:gutter$} |", "");
        let _ = writeln!(text, "{} | {excerpt}", d.line);
        let _ = writeln!(text, "{:gutter$} | {:caret$}^", "", "");
    }
    text.push('\n');
    text
}

/// The source line around `offset` (cut to a window when long) and the
/// caret's column in it.
fn excerpt(source: &[u8], offset: usize) -> Option<(String, usize)> {
    let offset = offset.min(source.len());
    let start = source[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = source[offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(source.len(), |i| offset + i);
    let line = String::from_utf8_lossy(&source[start..end]);
    let line = line.trim_end_matches('\r');
    let before = String::from_utf8_lossy(&source[start..offset])
        .chars()
        .count();
    let chars: Vec<char> = line
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if chars.iter().all(|c| c.is_whitespace()) && before >= chars.len() {
        return (!chars.is_empty() || offset == source.len())
            .then(|| (chars.iter().collect(), before));
    }
    let from = before.saturating_sub(EXCERPT_CONTEXT);
    let to = (before + EXCERPT_CONTEXT).min(chars.len());
    let mut shown: String = chars[from..to].iter().collect();
    let mut caret = before - from;
    if from > 0 {
        shown.insert(0, '…');
        caret += 1;
    }
    if to < chars.len() {
        shown.push('…');
    }
    Some((shown, caret))
}

fn by_code(counts: &std::collections::BTreeMap<Code, usize>) -> String {
    counts
        .iter()
        .map(|(code, n)| format!("{code} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
