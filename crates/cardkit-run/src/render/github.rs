//! GitHub Actions workflow commands: one `::error` or `::warning` annotation
//! per diagnostic, on the file, line and column it is about, grouped per
//! file, and a closing `::notice` with the totals. GitHub shows at most 10
//! error and 10 warning annotations of a step (50 of a job): annotations
//! are written up to a cap (`--max-results`, 50 by default), in document
//! order with errors kept before warnings, a notice says how many the cap
//! left out, and the closing notice how many went beyond what GitHub shows.
//!
//! Values are escaped as the Actions toolkit escapes them (`%`, CR and LF in
//! messages; `:` and `,` as well in properties), so any path or message comes
//! through whole.

use std::borrow::Cow;
use std::io::{self, Write};

use super::cap::Cap;
use super::renderer::{FileEnd, Renderer};
use super::words;
use cardkit::diagnostic::{Diagnostic, Severity};
use cardkit::report::{DocumentReport, Reading};
use cardkit::report::{Summary, WarningFilter};

/// The most annotations of each severity that GitHub shows for one step.
pub const SHOWN_PER_STEP: usize = 10;

/// The GitHub Actions renderer.
#[derive(Debug, Default)]
pub struct Github {
    filter: WarningFilter,
    /// Annotations offered (those the cap left out included).
    errors: usize,
    warnings: usize,
    cap: Cap,
}

impl Github {
    /// A GitHub renderer that annotates repeated warnings as `filter` allows.
    #[must_use]
    pub fn new(filter: WarningFilter) -> Self {
        Github {
            filter,
            errors: 0,
            warnings: 0,
            cap: Cap::default(),
        }
    }

    /// `--max-results`' default for annotations: the most GitHub shows for
    /// a whole job (10 errors and 10 warnings of a step, 50 annotations of
    /// a job, as the Actions toolkit documents). More could never be shown
    /// as annotations, only lengthen the log: a catalog with 60,000
    /// problems would write 60,000 lines. The first 50 leave a few past
    /// what one step shows to read in the log, errors first.
    pub const DEFAULT_MAX_RESULTS: usize = 50;

    /// The same renderer writing at most `limit` annotations of diagnostics
    /// (`None`: all), errors kept before warnings, with a notice of what was
    /// left out.
    #[must_use]
    pub fn max_results(mut self, limit: Option<usize>) -> Self {
        self.cap = Cap::new(limit, b"");
        self
    }

    /// A message (the part after `::`), escaped as the toolkit's
    /// `escapeData`: `%`, CR and LF.
    #[must_use]
    pub fn escape_data(text: &str) -> Cow<'_, str> {
        escape(text, &['%', '\r', '\n'])
    }

    /// A property value (`file=`, `title=`), escaped as the toolkit's
    /// `escapeProperty`: `%`, CR, LF, `:` and `,`.
    #[must_use]
    pub fn escape_property(text: &str) -> Cow<'_, str> {
        escape(text, &['%', '\r', '\n', ':', ','])
    }

    fn annotate(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        diagnostic: &Diagnostic,
    ) -> io::Result<()> {
        let command = match diagnostic.severity {
            Severity::Error => {
                self.errors += 1;
                "error"
            }
            Severity::Warning => {
                self.warnings += 1;
                "warning"
            }
        };
        let pointer = if diagnostic.pointer.is_empty() {
            Cow::Borrowed("(the root)")
        } else {
            diagnostic.pointer_shown()
        };
        let mut line = Vec::new();
        writeln!(
            line,
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
            Self::escape_property(path),
            diagnostic.line,
            diagnostic.column,
            diagnostic.line,
            diagnostic.column,
            Self::escape_property(&format!("cardkit {}", diagnostic.code)),
            Self::escape_data(&format!("{} (at {pointer})", diagnostic.message())),
        )?;
        self.cap.result(out, diagnostic.severity, line)
    }
}

fn escape<'a>(text: &'a str, special: &[char]) -> Cow<'a, str> {
    if !text.contains(special) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '%' => escaped.push_str("%25"),
            '\r' => escaped.push_str("%0D"),
            '\n' => escaped.push_str("%0A"),
            ':' if special.contains(&':') => escaped.push_str("%3A"),
            ',' if special.contains(&',') => escaped.push_str("%2C"),
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

impl Renderer for Github {
    fn begin_file(&mut self, out: &mut dyn Write, path: &str) -> io::Result<()> {
        writeln!(
            self.cap.through(out),
            "::group::{}",
            Self::escape_data(path)
        )
    }

    fn warnings_shown(&self) -> Option<usize> {
        self.filter.warnings_shown()
    }

    fn document(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        document: &DocumentReport,
    ) -> io::Result<()> {
        for diagnostic in &document.diagnostics {
            if self.filter.admit(diagnostic) {
                self.annotate(out, path, diagnostic)?;
            }
        }
        self.filter.admit_folded(&document.folded);
        if let Some(note) = words::omitted(document) {
            writeln!(
                self.cap.through(out),
                "::notice file={}::{}",
                Self::escape_property(path),
                Self::escape_data(&note)
            )?;
        }
        Ok(())
    }

    fn reading(&mut self, out: &mut dyn Write, path: &str, reading: &Reading) -> io::Result<()> {
        writeln!(
            self.cap.through(out),
            "::notice file={},title=cardkit::{}",
            Self::escape_property(path),
            Self::escape_data(&reading.said())
        )
    }

    fn end_file(&mut self, out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        if let Some(hint) = end.hint {
            writeln!(
                self.cap.through(out),
                "::notice file={},title=cardkit::{}",
                Self::escape_property(path),
                Self::escape_data(hint)
            )?;
        }
        if let Some(error) = end.error {
            self.errors += 1;
            writeln!(
                self.cap.through(out),
                "::error file={},title=cardkit::{}",
                Self::escape_property(path),
                Self::escape_data(&format!("cannot read: {error}"))
            )?;
        }
        writeln!(self.cap.through(out), "::endgroup::")
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        self.cap.release(out)?;
        for hidden in self.filter.suppressed() {
            writeln!(
                out,
                "::notice::{}",
                Self::escape_data(&words::suppressed(&hidden))
            )?;
        }
        let mut totals = words::checked(summary);
        for line in words::counts(summary)
            .into_iter()
            .chain(words::ways_out(summary))
        {
            totals.push_str("; ");
            totals.push_str(&line);
        }
        let left_out = self.cap.left_out();
        if let (Some(cap), 1..) = (self.cap.limit(), left_out.total()) {
            writeln!(
                out,
                "::notice title=cardkit::{}",
                Self::escape_data(&words::left_out(left_out, cap, "annotation"))
            )?;
        }
        let errors = self.errors.saturating_sub(left_out.errors);
        let warnings = self.warnings.saturating_sub(left_out.warnings);
        let beyond_errors = errors.saturating_sub(SHOWN_PER_STEP);
        let beyond_warnings = warnings.saturating_sub(SHOWN_PER_STEP);
        if beyond_errors + beyond_warnings > 0 {
            totals.push_str(&format!(
                "; GitHub shows {SHOWN_PER_STEP} error and {SHOWN_PER_STEP} warning annotations of a step: \
                 {beyond_errors} errors and {beyond_warnings} warnings are only in this log"
            ));
        }
        writeln!(
            out,
            "::notice title=cardkit::{}",
            Self::escape_data(&totals)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the Actions runner does to a property value it reads
    /// (`ActionCommand.UnescapeProperty`): `%25` last.
    fn unescape_property(text: &str) -> String {
        text.replace("%0D", "\r")
            .replace("%0A", "\n")
            .replace("%3A", ":")
            .replace("%2C", ",")
            .replace("%25", "%")
    }

    /// The same for the message (`ActionCommand.UnescapeData`).
    fn unescape_data(text: &str) -> String {
        text.replace("%0D", "\r")
            .replace("%0A", "\n")
            .replace("%25", "%")
    }

    /// Splits a workflow command line as the runner does: the command and
    /// its properties up to the first `::`, each property at its first `=`.
    fn parse(line: &str) -> (Vec<(String, String)>, String) {
        let rest = line.strip_prefix("::").expect("a command");
        let (command, data) = rest.split_once("::").expect("a message");
        let properties = command
            .split_once(' ')
            .map(|(_, p)| p)
            .unwrap_or_default()
            .split(',')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (name, value) = p.split_once('=').expect("name=value");
                (name.to_owned(), unescape_property(value))
            })
            .collect();
        (properties, unescape_data(data))
    }

    proptest! {
        #[test]
        fn paths_and_messages_round_trip_through_the_runner(
            path in "[a-z%:,\r\n =\u{1b}é/.]{0,24}",
            key in "[a-z%:,\r\n =\u{1b}é]{1,24}",
        ) {
            let pointer = format!("/{}", key.replace('~', "~0").replace('/', "~1"));
            let diagnostic = Diagnostic {
                line: 3,
                column: 7,
                ..Diagnostic::new(
                    cardkit::diagnostic::Detail::DuplicateKey { name: key.clone() },
                    Severity::Warning,
                    pointer.clone(),
                    None,
                    0,
                )
            };
            let mut out = Vec::new();
            Github::default().annotate(&mut out, &path, &diagnostic).expect("writes");
            let line = String::from_utf8(out).expect("UTF-8");
            let line = line.strip_suffix('\n').expect("one line");
            prop_assert!(!line.contains(['\r', '\n']));
            let (properties, message) = parse(line);
            prop_assert_eq!(&properties[0], &("file".to_owned(), path.clone()));
            prop_assert_eq!(&properties[5].0, "title");
            prop_assert_eq!(message, format!("{} (at {pointer})", diagnostic.message()));
        }
    }

    #[test]
    fn escapes_as_the_actions_toolkit() {
        assert_eq!(Github::escape_data("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
        assert_eq!(
            Github::escape_property("50% a:b,c\r\nd"),
            "50%25 a%3Ab%2Cc%0D%0Ad"
        );
        assert!(matches!(Github::escape_data("plain"), Cow::Borrowed(_)));
    }
}
