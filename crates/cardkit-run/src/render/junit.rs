//! JUnit XML, as CI test reports read it: a test suite per file and a test
//! case per document, named by its pointer; a document with errors fails,
//! and the failure holds its diagnostics as text; warnings go to the case's
//! output. Test cases are written as they come, so the counts that JUnit
//! puts on the `testsuite` tag (known only at the end of a file) are left to
//! the reader, which counts the cases.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use super::renderer::{FileEnd, Renderer};
use super::words;
use cardkit::diagnostic::{Diagnostic, Severity};
use cardkit::report::{DocumentReport, Reading};
use cardkit::report::{Summary, WarningFilter};

/// The JUnit renderer.
#[derive(Debug, Default)]
pub struct Junit {
    filter: WarningFilter,
    started: bool,
    /// Test cases written in the current suite.
    cases_in_suite: usize,
}

impl Junit {
    /// A JUnit renderer that reports repeated warnings as `filter` allows.
    #[must_use]
    pub fn new(filter: WarningFilter) -> Self {
        Junit {
            filter,
            started: false,
            cases_in_suite: 0,
        }
    }

    fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if !self.started {
            self.started = true;
            out.write_all(
                b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cardkit\">\n",
            )?;
        }
        Ok(())
    }
}

/// `text` for an XML attribute value: markup characters as entities, and
/// the characters XML 1.0 does not allow at all (most C0 controls, U+FFFE,
/// U+FFFF) as `\u{…}`.
#[must_use]
pub fn escape_xml(text: &str) -> String {
    escape(text, true)
}

/// The same for element content, where line breaks and tabs stay as they
/// are.
fn escape_content(text: &str) -> String {
    escape(text, false)
}

fn escape(text: &str, attribute: bool) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            '\t' | '\n' if !attribute => escaped.push(c),
            // Normalised away in attribute values (and CR in content too):
            // written as references, they survive.
            '\t' => escaped.push_str("&#9;"),
            '\n' => escaped.push_str("&#10;"),
            '\r' => escaped.push_str("&#13;"),
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => {
                let _ = write!(escaped, "\\u{{{:x}}}", u32::from(c));
            }
            c => escaped.push(c),
        }
    }
    escaped
}

fn line(path: &str, diagnostic: &Diagnostic) -> String {
    format!(
        "{path}:{}:{}: {}[{}] at {}: {}\n",
        diagnostic.line,
        diagnostic.column,
        diagnostic.severity.as_str(),
        diagnostic.code,
        if diagnostic.pointer.is_empty() {
            Cow::Borrowed("(the root)")
        } else {
            diagnostic.pointer_shown()
        },
        diagnostic.message()
    )
}

impl Renderer for Junit {
    fn begin_file(&mut self, out: &mut dyn Write, path: &str) -> io::Result<()> {
        self.start(out)?;
        self.cases_in_suite = 0;
        writeln!(out, "<testsuite name=\"{}\">", escape_xml(path))
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
        let (mut errors, mut failure, mut output) = (0, String::new(), String::new());
        for diagnostic in &document.diagnostics {
            if diagnostic.severity == Severity::Error {
                errors += 1;
                failure.push_str(&line(path, diagnostic));
            } else if self.filter.admit(diagnostic) {
                output.push_str(&line(path, diagnostic));
            }
        }
        self.filter.admit_folded(&document.folded);
        if let Some(note) = words::omitted(document) {
            failure.push_str(&note);
            failure.push('\n');
        }
        let name = match (document.pointer.as_str(), document.kind) {
            ("", Some(kind)) => format!("(the root) {kind}"),
            ("", None) => "(the root)".to_owned(),
            (pointer, Some(kind)) => format!("{pointer} {kind}"),
            (pointer, None) => pointer.to_owned(),
        };
        let name = match document.line {
            Some(number) => format!("line {number}: {name}"),
            None => name,
        };
        self.cases_in_suite += 1;
        write!(
            out,
            "  <testcase classname=\"{}\" name=\"{}\" file=\"{}\"",
            escape_xml(path),
            escape_xml(&name),
            escape_xml(path)
        )?;
        if document.is_valid() && output.is_empty() {
            return out.write_all(b"/>\n");
        }
        out.write_all(b">\n")?;
        if !document.is_valid() {
            let first = document
                .diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error);
            let (kind, summary) = match first {
                Some(d) => {
                    let errors = if errors == 1 {
                        "1 error".to_owned()
                    } else {
                        format!("{errors} errors")
                    };
                    (d.code.as_str(), format!("{errors}; first: {}", d.message()))
                }
                None => ("invalid", "problems counted but not kept".to_owned()),
            };
            writeln!(
                out,
                "    <failure type=\"{kind}\" message=\"{}\">{}</failure>",
                escape_xml(&summary),
                escape_content(&failure)
            )?;
        }
        if !output.is_empty() {
            writeln!(
                out,
                "    <system-out>{}</system-out>",
                escape_content(&output)
            )?;
        }
        out.write_all(b"  </testcase>\n")
    }

    /// The suite's properties: they come before its test cases, as the
    /// reading does before the documents it is about (a file whose first
    /// documents are of another kind has it in the closing comment only).
    fn reading(&mut self, out: &mut dyn Write, _path: &str, reading: &Reading) -> io::Result<()> {
        if self.cases_in_suite > 0 {
            return Ok(());
        }
        out.write_all(b"  <properties>\n")?;
        let mut property = |name: &str, value: &str| {
            writeln!(
                out,
                "    <property name=\"cardkit.{name}\" value=\"{}\"/>",
                escape_xml(value)
            )
        };
        property("names", reading.names)?;
        property("names-from", reading.names_from)?;
        if let (Some(as_of), Some(from)) = (&reading.as_of, reading.version_from) {
            property("as-of", as_of)?;
            property("version-from", from)?;
        }
        if let Some(declared) = &reading.declared {
            property("declared", declared)?;
        }
        property("reading", &reading.said())?;
        out.write_all(b"  </properties>\n")
    }

    fn end_file(&mut self, out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        if let Some(error) = end.error {
            writeln!(
                out,
                "  <testcase classname=\"{0}\" name=\"(read)\" file=\"{0}\">\n    <error type=\"unreadable\" message=\"{1}\"/>\n  </testcase>",
                escape_xml(path),
                escape_xml(&format!("cannot read: {error}"))
            )?;
        }
        if let Some(hint) = end.hint {
            writeln!(out, "  <system-out>{}</system-out>", escape_xml(hint))?;
        }
        out.write_all(b"</testsuite>\n")
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        self.start(out)?;
        let mut notes = vec![words::checked(summary)];
        notes.extend(words::counts(summary));
        notes.extend(words::ways_out(summary));
        notes.extend(self.filter.suppressed().iter().map(words::suppressed));
        writeln!(
            out,
            "<!-- {} -->",
            comment_text(&escape_content(&notes.join("; ")))
        )?;
        out.write_all(b"</testsuites>\n")
    }
}

/// `text` as an XML comment may hold it: a space between two dashes, so
/// that no run of dashes (`---`) leaves a `--`, which a comment may not
/// hold.
fn comment_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '-' && out.ends_with('-') {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::comment_text;

    #[test]
    fn no_run_of_dashes_leaves_two_in_a_comment() {
        for text in ["a--b", "a---b", "----", "x-", "-"] {
            let shown = comment_text(text);
            assert!(!shown.contains("--"), "{text}: {shown}");
            assert_eq!(shown.replace(' ', ""), text.replace(' ', ""));
        }
    }
}
