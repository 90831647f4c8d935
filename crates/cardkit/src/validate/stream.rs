//! Reading a file as a stream of documents: each document found validated at
//! once ([`Sequential`]), walking one document while reading more of the
//! input as it needs, and JSON Lines. The container around the documents is
//! read in `container.rs`, and hands each to a [`Documents`] handler.
//! Only the part of the input around the current document is kept in memory.

use crate::diagnostic::quote::Quoted;
use std::io;

use cardkit_json::skip_indexed;

use super::check::{Checker, Flow, Found, Malformed};
use super::container::container;
use super::documents::{Documents, KindRule, Stop, MAX_CHAR_BYTES};
use super::locate::Position;
use super::options::Options;
use super::part::{Part, Sink};
use super::source::Source;
use super::stops;
use super::tape::Tape;
use crate::report::DocumentReport;

/// Validates each document as it is found, on this thread.
pub(crate) struct Sequential<'s> {
    pub options: &'s Options,
    /// For JSON Lines, the line the documents are on.
    pub line: Option<usize>,
    pub sink: Sink<'s>,
}

impl Documents for Sequential<'_> {
    fn wants_around(&self) -> bool {
        self.sink.wants_around()
    }

    fn around(&mut self, _src: &mut Source<'_>, pointer: String, bytes: Option<Vec<u8>>) {
        (self.sink.out)(Part::Around(pointer, bytes));
    }

    fn document(
        &mut self,
        src: &mut Source<'_>,
        at: usize,
        pointer: String,
        kind: KindRule,
    ) -> Result<usize, Stop> {
        let options = self.options;
        let mut resolved = None;
        let mut tape = Tape::default();
        let recording = self.sink.wants_tape();
        let Walked {
            found:
                Found {
                    mut diagnostics,
                    omitted,
                    ignored,
                    folded,
                    names,
                },
            outcome,
            end,
        } = walk_unit(src, at, &pointer, options, |c| {
            if let Some(scope) = recording {
                c.record_tape(scope);
            }
            let kind = kind.resolve(c.read.scan.bytes, c.pos());
            resolved = Some(kind);
            let outcome = c.document(kind);
            tape = c.take_tape().unwrap_or_default();
            outcome
        })?;
        // Where the document starts, for an extractor: before its
        // diagnostics are located, as positions are found in file order.
        let start = if self.sink.extracts() && outcome.is_ok() {
            Some(src.position(at))
        } else {
            None
        };
        src.locate(&mut diagnostics)?;
        let pointer = Quoted::from(pointer);
        let report = DocumentReport {
            pointer: pointer.text,
            pointer_bytes: pointer.whole,
            line: self.line,
            kind: resolved.flatten(),
            diagnostics,
            omitted,
            folded,
            ignored,
            names,
        };
        let whole = start.map(|start| (&src.bytes()[at - src.base..end - src.base], start));
        self.sink.document(report, whole, &tape);
        tape.recycle();
        outcome.map(|()| end).map_err(|Malformed| Stop::Malformed)
    }
}

/// What walking one value found, and where it ended.
pub(crate) struct Walked {
    /// What it found.
    pub found: Found,
    /// How the walk ended.
    pub outcome: Flow,
    /// The offset after the value.
    pub end: usize,
}

/// Runs `walk` over the value at file offset `at`, reading more of the input
/// whenever the value may go on beyond the bytes at hand.
pub(crate) fn walk_unit(
    src: &mut Source<'_>,
    at: usize,
    pointer: &str,
    options: &Options,
    mut walk: impl FnMut(&mut Checker<'_>) -> Flow,
) -> Result<Walked, Stop> {
    // Reading ahead makes it rare that a value goes on beyond the bytes at
    // hand, which costs walking it again.
    while src.end() - at < src.buffering.read_ahead && src.fill()? {}
    let unfolded = Options {
        warnings_shown: None,
        ..*options
    };
    let mut options = options;
    // On a read error the stops' room is dropped with the run.
    let mut string_stops = stops::take();
    loop {
        let start = at - src.base;
        stops::index(
            &mut string_stops,
            src.bytes(),
            start..start + stops::ahead(),
        );
        let mut checker = src
            .checker(at, pointer, options)
            .with_string_stops(&string_stops);
        let outcome = walk(&mut checker);
        let cut_short = match outcome {
            // The last token (a number) may go on.
            Ok(()) => checker.pos() >= src.bytes().len(),
            // The value may go on: cut inside, or a scalar (`40.`) that
            // runs to the end of the bytes.
            // The character found where it is malformed may be cut too.
            Err(Malformed) => {
                let reach = skip_indexed(src.bytes(), start).unwrap_or_else(|end| end);
                let found = checker.malformed_at.map_or(0, |at| at + MAX_CHAR_BYTES);
                reach.max(found) >= src.bytes().len()
            }
        };
        let end = src.base + checker.pos();
        let fold_broken = checker.fold_broken();
        let found = checker.into_found();
        if cut_short && src.fill()? {
            continue;
        }
        // Rare (a duplicate key after warnings were folded): the whole
        // value is at hand, and walked again as it would be without folding.
        if fold_broken {
            options = &unfolded;
            continue;
        }
        stops::keep(string_stops, end - at);
        return Ok(Walked {
            found,
            outcome,
            end,
        });
    }
}

/// Calls `each` with every line that is not blank, its position and its
/// 1-based number.
pub(crate) fn for_each_line(
    src: &mut Source<'_>,
    start: usize,
    each: &mut dyn FnMut(Vec<u8>, Position, usize),
) -> io::Result<()> {
    let mut line_start = start;
    let mut number = 0;
    loop {
        let line_end = loop {
            let from = line_start - src.base;
            if let Some(i) = memchr::memchr(b'\n', &src.bytes()[from..]) {
                break line_start + i;
            }
            if !src.fill()? {
                break src.end();
            }
        };
        number += 1;
        let line = &src.bytes()[line_start - src.base..line_end - src.base];
        if !line.trim_ascii().is_empty() {
            let line = line.to_vec();
            each(line, src.position(line_start), number);
        }
        if line_end >= src.end() {
            return Ok(());
        }
        line_start = line_end + 1;
        src.release(line_start);
    }
}

/// Validates one line of JSON Lines (a document or a container of them),
/// which starts at `at`.
pub(crate) fn validate_line(
    line: Vec<u8>,
    at: Position,
    number: usize,
    options: &Options,
    mut sink: Sink<'_>,
) {
    let mut src = Source::complete(line, at);
    let mut documents = Sequential {
        options,
        line: Some(number),
        sink: sink.reborrow(),
    };
    let (_, outside, _) = container(&mut src, at.offset, options, &mut documents);
    if let Some(mut report) = outside.into_report() {
        report.line = Some(number);
        documents.sink.outside(report);
    }
}
