//! Compiler-style text: `path:line:col: error[code]: message`, the offending
//! source line with a caret, a closing summary, and a `help:` line naming
//! `cardkit explain` for the codes shown.
//!
//! The required members missing from one object are one block, as they
//! share its caret: `missing required fields `language`, `relatedCards` of
//! CardToken`, with the object's pointer (each member's is it, `/` and the
//! member's name). Each member is still one diagnostic to the filter: a
//! block names only the members it lets through, and the others are counted
//! in the closing notes with their field. The other formats keep one
//! diagnostic per member, with its own pointer.
//!
//! What comes from the inputs (paths, pointers, messages) may hold control
//! characters meant for a terminal: they are written escaped (see
//! [`Text::escape`]), so that no input can rewrite the screen or split a line.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::io::{self, Write};

use anstyle::{AnsiColor, Style};

use super::renderer::{FileEnd, Renderer};
use super::words;
use cardkit::diagnostic::{words as said, Code, Detail, Diagnostic, Excerpt, Severity};
use cardkit::report::{DocumentReport, Reading, Summary, WarningFilter};

/// Runs that read at least this many bytes end with their throughput.
const THROUGHPUT_FROM: u64 = 1_000_000;

/// The text renderer.
#[derive(Debug, Default)]
pub struct Text {
    filter: WarningFilter,
    /// The codes of the diagnostics shown, in order of first appearance.
    shown: Vec<Code>,
    palette: Palette,
    /// How the current file was read, written before the first thing its
    /// block shows: a file with nothing to show has no block, and the
    /// closing `read:` line counts it.
    reading: Option<String>,
}

/// The styles of the report, when it is coloured: as compilers colour
/// theirs, severities in their colours, the place and the gutter set off
/// from what comes from the input.
#[derive(Debug, Clone, Copy, Default)]
struct Palette {
    on: bool,
}

const ERROR: Style = AnsiColor::Red.on_default().bold();
const WARNING: Style = AnsiColor::Yellow.on_default().bold();
const NOTE: Style = AnsiColor::Cyan.on_default().bold();
const GUTTER: Style = AnsiColor::Blue.on_default().bold();
const PLACE: Style = Style::new().bold();

impl Palette {
    /// `text` in `style`, when colouring; written as it is formatted, so
    /// that a report without colour costs no more than before.
    fn paint<T: fmt::Display>(self, style: Style, text: T) -> Painted<T> {
        Painted {
            style: self.on.then_some(style),
            text,
        }
    }
}

/// Text to be written in a style, or plain.
struct Painted<T> {
    style: Option<Style>,
    text: T,
}

impl<T: fmt::Display> fmt::Display for Painted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.style {
            Some(style) => write!(f, "{style}{}{style:#}", self.text),
            None => self.text.fmt(f),
        }
    }
}

impl Text {
    /// A text renderer that shows repeated warnings as `filter` allows.
    #[must_use]
    pub fn new(filter: WarningFilter) -> Self {
        Text {
            filter,
            shown: Vec::new(),
            palette: Palette::default(),
            reading: None,
        }
    }

    /// The same renderer, colouring its output with ANSI styles when
    /// `colored` (for a terminal that shows colour; never for files or
    /// pipes).
    #[must_use]
    pub fn colored(mut self, colored: bool) -> Self {
        self.palette.on = colored;
        self
    }

    /// `text` as the text renderer writes what comes from an input: each
    /// control character (C0, DEL, C1), line or paragraph separator (U+2028,
    /// U+2029) and bidirectional embedding, override or isolate (U+202A to
    /// U+202E, U+2066 to U+2069) as `\u{…}` with its code point in hex
    /// (`\u{1b}` for ESC, `\u{a}` for a line feed). Everything else,
    /// backslashes included, is written as it is.
    #[must_use]
    pub fn escape(text: &str) -> Cow<'_, str> {
        if !text.chars().any(unsafe_on_a_terminal) {
            return Cow::Borrowed(text);
        }
        let mut escaped = String::with_capacity(text.len() + 8);
        for c in text.chars() {
            if unsafe_on_a_terminal(c) {
                let _ = write!(escaped, "\\u{{{:x}}}", u32::from(c));
            } else {
                escaped.push(c);
            }
        }
        Cow::Owned(escaped)
    }

    /// One diagnostic as the text report shows it, with its source excerpt:
    /// `path:line:column: severity[code]: message`, the pointer, the line
    /// and a caret.
    #[must_use]
    pub fn diagnostic(path: &str, diagnostic: &Diagnostic) -> String {
        diagnostic_text(path, diagnostic, Palette::default())
    }
}

/// Whether a character can act on a terminal or on how a line is shown:
/// controls, line and paragraph separators, bidirectional formatting.
fn unsafe_on_a_terminal(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

impl Text {
    /// Writes how the current file was read, if it is not written yet.
    fn open_block(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.reading.take() {
            Some(line) => out.write_all(line.as_bytes()),
            None => Ok(()),
        }
    }
}

impl Renderer for Text {
    fn begin_file(&mut self, _out: &mut dyn Write, _path: &str) -> io::Result<()> {
        self.reading = None;
        Ok(())
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
        let mut diagnostics = document.diagnostics.iter().peekable();
        while let Some(first) = diagnostics.next() {
            // The members missing from the same object come together (at its
            // offset, in the model's order): each is admitted or counted by
            // the filter on its own, and those admitted are one block.
            let mut block = Vec::new();
            if self.filter.admit(first) {
                block.push(first);
            }
            if let Some(object) = missing_from(first) {
                while let Some(next) = diagnostics.next_if(|d| missing_from(d) == Some(object)) {
                    if self.filter.admit(next) {
                        block.push(next);
                    }
                }
            }
            let text = match block.as_slice() {
                [] => continue,
                [one] => diagnostic_text(path, one, self.palette),
                several => missing_text(path, several, self.palette),
            };
            self.open_block(out)?;
            out.write_all(text.as_bytes())?;
            if !self.shown.contains(&first.code) {
                self.shown.push(first.code);
            }
        }
        self.filter.admit_folded(&document.folded);
        if let Some(note) = words::omitted(document) {
            self.open_block(out)?;
            writeln!(
                out,
                "{} {} {}\n",
                self.palette
                    .paint(PLACE, format_args!("{}:", Text::escape(path))),
                self.palette.paint(NOTE, "note:"),
                Text::escape(&note)
            )?;
        }
        Ok(())
    }

    fn reading(&mut self, _out: &mut dyn Write, path: &str, reading: &Reading) -> io::Result<()> {
        self.reading = Some(format!(
            "{} {} {}\n\n",
            self.palette
                .paint(PLACE, format_args!("{}:", Text::escape(path))),
            self.palette.paint(NOTE, "note:"),
            Text::escape(&reading.said())
        ));
        Ok(())
    }

    fn end_file(&mut self, out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        if end.note.is_some() || end.error.is_some() {
            self.open_block(out)?;
        }
        self.reading = None;
        if let Some(note) = end.note {
            writeln!(
                out,
                "{} {} {}\n",
                self.palette
                    .paint(PLACE, format_args!("{}:", Text::escape(path))),
                self.palette.paint(NOTE, "note:"),
                Text::escape(note)
            )?;
        }
        match end.error {
            Some(error) => writeln!(
                out,
                "{} {} cannot read: {}\n",
                self.palette
                    .paint(PLACE, format_args!("{}:", Text::escape(path))),
                self.palette.paint(ERROR, "error:"),
                Text::escape(error)
            ),
            None => Ok(()),
        }
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        for hidden in self.filter.suppressed() {
            writeln!(
                out,
                "{} {}",
                self.palette.paint(NOTE, "note:"),
                Text::escape(&words::suppressed(&hidden))
            )?;
        }
        writeln!(
            out,
            "{}",
            self.palette.paint(PLACE, words::checked(summary))
        )?;
        for line in words::counts(summary) {
            writeln!(out, "{line}")?;
        }
        // The throughput of runs too short to time well is noise.
        if let (Some(seconds), Some(rate)) = (summary.seconds, summary.megabytes_per_second()) {
            if summary.bytes >= THROUGHPUT_FROM {
                writeln!(
                    out,
                    "read {:.1} MB{} in {seconds:.2} s: {rate:.0} MB/s",
                    megabytes(summary.bytes),
                    decoded(summary)
                )?;
            }
        }
        if let Some(help) = help(&self.shown) {
            let help = help.strip_prefix("help:").unwrap_or(&help);
            writeln!(out, "{}{help}", self.palette.paint(NOTE, "help:"))?;
        }
        // Last, as the first thing to do.
        for way_out in words::ways_out(summary) {
            writeln!(out, "{} {way_out}", self.palette.paint(NOTE, "help:"))?;
        }
        Ok(())
    }
}

/// Bytes in MB (10^6 bytes), for reading.
#[allow(clippy::cast_precision_loss)] // for reading
fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// What the throughput line says of the bytes read from compressed inputs:
/// ` (decoded from 48.2 MB compressed)` when all were, ` (501.7 MB of it
/// decoded from 48.2 MB compressed)` when some were; nothing when none.
fn decoded(summary: &Summary) -> String {
    if summary.compressed == 0 && summary.decompressed == 0 {
        return String::new();
    }
    let compressed = size(summary.compressed);
    if summary.decompressed == summary.bytes {
        format!(" (decoded from {compressed} compressed)")
    } else {
        format!(
            " ({:.1} MB of it decoded from {compressed} compressed)",
            megabytes(summary.decompressed)
        )
    }
}

/// A size in words: `48.2 MB`, `3.1 kB` below a megabyte, `512 bytes` below
/// a kilobyte (10^3 bytes).
fn size(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} bytes"),
        1_000..1_000_000 => {
            #[allow(clippy::cast_precision_loss)] // for reading
            let kilobytes = bytes as f64 / 1e3;
            format!("{kilobytes:.1} kB")
        }
        _ => format!("{:.1} MB", megabytes(bytes)),
    }
}

/// The closing `help:` line for the codes shown, if any: the first, then a
/// few others, then `…`.
fn help(shown: &[Code]) -> Option<String> {
    const OTHERS: usize = 3;
    let (first, others) = shown.split_first()?;
    let mut help = format!("help: for more about a code, run cardkit explain {first}");
    if !others.is_empty() {
        let listed: Vec<&str> = others.iter().take(OTHERS).map(|c| c.as_str()).collect();
        let more = if others.len() > OTHERS { ", …" } else { "" };
        help.push_str(&format!(" (or {}{more})", listed.join(", ")));
    }
    Some(help)
}

/// What makes a `missing_field` diagnostic one of a block: the object the
/// member is missing from (its offset), its model, and the severity.
fn missing_from(d: &Diagnostic) -> Option<(usize, &'static str, Severity)> {
    match d.detail {
        Detail::MissingField { model, .. } => Some((d.offset, model, d.severity)),
        _ => None,
    }
}

/// One diagnostic with its source excerpt.
fn diagnostic_text(path: &str, d: &Diagnostic, palette: Palette) -> String {
    block_text(path, d, &d.message(), &d.pointer_shown(), palette)
}

/// Several members missing from one object (`block`, of [`missing_from`]
/// alike), in one block: their names in the message, the object's pointer,
/// the object's line and caret.
fn missing_text(path: &str, block: &[&Diagnostic], palette: Palette) -> String {
    let first = block[0];
    let model = missing_from(first).map_or("", |(_, model, _)| model);
    let fields: Vec<&str> = block
        .iter()
        .filter_map(|d| match d.detail {
            Detail::MissingField { field, .. } => Some(field),
            _ => None,
        })
        .collect();
    // A member's pointer is its object's and one token more, its name (an
    // escaped token holds no `/`); a pointer cut short is shown as it is.
    let object = match first.pointer_bytes {
        Some(_) => first.pointer_shown(),
        None => Cow::Borrowed(
            first
                .pointer
                .rfind('/')
                .map_or("", |at| &first.pointer[..at]),
        ),
    };
    block_text(
        path,
        first,
        &said::missing_fields(model, &fields),
        &object,
        palette,
    )
}

/// A block of the report: the headline (`d`'s place, severity and code,
/// with `message`), `pointer`, and `d`'s source excerpt with its caret.
fn block_text(
    path: &str,
    d: &Diagnostic,
    message: &str,
    pointer: &str,
    palette: Palette,
) -> String {
    let severity = match d.severity {
        Severity::Error => ERROR,
        Severity::Warning => WARNING,
    };
    let mut text = format!(
        "{} {}: {}\n",
        palette.paint(
            PLACE,
            format_args!("{}:{}:{}:", Text::escape(path), d.line, d.column)
        ),
        palette.paint(
            severity,
            format_args!("{}[{}]", d.severity.as_str(), d.code)
        ),
        Text::escape(message)
    );
    let pointer = if pointer.is_empty() {
        Cow::Borrowed("(the root)")
    } else {
        Text::escape(pointer)
    };
    let gutter = d.line.to_string().len();
    let _ = writeln!(
        text,
        "{:gutter$}{} {pointer}",
        "",
        palette.paint(GUTTER, "-->")
    );
    if let Some((line, caret)) = d.excerpt.as_ref().and_then(Excerpt::shown) {
        // The excerpt shows controls as spaces; the other characters that
        // act on how a line is shown become spaces too, keeping the caret
        // in its place.
        let line: String = line
            .chars()
            .map(|c| if unsafe_on_a_terminal(c) { ' ' } else { c })
            .collect();
        let bar = palette.paint(GUTTER, "|");
        let number = palette.paint(GUTTER, d.line);
        let _ = writeln!(text, "{:gutter$} {bar}", "");
        let _ = writeln!(text, "{number} {bar} {line}");
        let _ = writeln!(
            text,
            "{:gutter$} {bar} {:caret$}{}",
            "",
            "",
            palette.paint(severity, "^")
        );
    }
    if let Some(related) = &d.related {
        // The second place, as rustc notes one: `= note: what: where`.
        let file = related.file.as_deref().unwrap_or(path);
        let _ = writeln!(
            text,
            "{:gutter$} {} {}: {}",
            "",
            palette.paint(GUTTER, "= note:"),
            Text::escape(&related.message),
            palette.paint(
                PLACE,
                format_args!(
                    "{}:{}:{} {}",
                    Text::escape(file),
                    related.line,
                    related.column,
                    Text::escape(&related.pointer)
                )
            ),
        );
    }
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_of_problems_counted_but_not_kept_names_the_file_once() {
        let mut document = DocumentReport {
            pointer: String::new(),
            pointer_bytes: None,
            line: None,
            kind: Some(cardkit::Kind::Set),
            diagnostics: Vec::new(),
            omitted: cardkit::report::Omitted::default(),
            folded: cardkit::report::Folded::default(),
            ignored: 0,
            names: cardkit::schema::Names::Spec,
        };
        document
            .omitted
            .warnings
            .insert(cardkit::Code::DanglingReference, 5);
        let mut out = Vec::new();
        Text::new(WarningFilter::default())
            .document(&mut out, "set.json", &document)
            .expect("written");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(
            text.starts_with("set.json: note: 5 more problems of the document at (the root)"),
            "{text}"
        );
    }

    #[test]
    fn the_throughput_names_what_was_decoded_from_compressed_inputs() {
        let summary = |bytes, decompressed, compressed| Summary {
            bytes,
            decompressed,
            compressed,
            ..Summary::default()
        };
        assert_eq!(decoded(&summary(101_600_000, 0, 0)), "");
        assert_eq!(
            decoded(&summary(501_700_000, 501_700_000, 48_240_000)),
            " (decoded from 48.2 MB compressed)"
        );
        assert_eq!(
            decoded(&summary(601_700_000, 501_700_000, 48_240_000)),
            " (501.7 MB of it decoded from 48.2 MB compressed)"
        );
        assert_eq!(
            decoded(&summary(2_100_000, 2_100_000, 3_140)),
            " (decoded from 3.1 kB compressed)"
        );
        assert_eq!(
            decoded(&summary(2_100_000, 2_100_000, 512)),
            " (decoded from 512 bytes compressed)"
        );
    }

    #[test]
    fn help_names_the_codes_shown_in_order() {
        assert_eq!(help(&[]), None);
        assert_eq!(
            help(&[Code::MissingField]).as_deref(),
            Some("help: for more about a code, run cardkit explain missing_field")
        );
        let codes = [
            Code::WrongType,
            Code::MissingField,
            Code::UnknownField,
            Code::TooDeep,
            Code::NewerField,
        ];
        assert_eq!(
            help(&codes[..4]).as_deref(),
            Some(
                "help: for more about a code, run cardkit explain wrong_type \
                 (or missing_field, unknown_field, too_deep)"
            )
        );
        assert_eq!(
            help(&codes).as_deref(),
            Some(
                "help: for more about a code, run cardkit explain wrong_type \
                 (or missing_field, unknown_field, too_deep, …)"
            )
        );
    }
}
