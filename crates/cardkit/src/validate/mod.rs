//! Validation of whole files: finding the documents in a file, validating each
//! against the field tables, and locating every diagnostic.
//!
//! ```
//! use cardkit::validate::{validate, Options};
//!
//! let report = validate(br#"{"object": "migration"}"#, &Options::default());
//! let codes: Vec<&str> = report.documents[0]
//!     .diagnostics
//!     .iter()
//!     .map(|d| d.code.as_str())
//!     .collect();
//! assert_eq!(codes, ["missing_field", "missing_field", "missing_field"]);
//! ```

mod around;
mod check;
mod container;
mod dispatch;
mod findings;

pub use findings::{KEPT_ERRORS, KEPT_WARNINGS_PER_CODE};
mod layout;
mod locate;
mod parallel;
mod part;
mod reader;
mod source;
mod stream;
mod tape;

use std::io::{self, Read};

use serde::Serialize;

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::model::Kind;
use crate::schema::{ModelDef, Version};

pub use crate::schema::MAX_DEPTH;
pub use layout::Layout;

#[doc(hidden)]
pub use source::Buffering;
pub use tape::{Step, Tape};

use locate::Position;
use part::{Part, Sink};
use source::Source;

/// How to validate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The kind of every document; `None` detects it from the content.
    pub kind: Option<Kind>,
    /// Report unknown fields as errors rather than warnings.
    pub deny_unknown_fields: bool,
    /// The input is JSON Lines: one document (or container) per line.
    pub json_lines: bool,
    /// Validate as consumers of this version of the format see a document:
    /// fields introduced after it are `newer_field`, and not required.
    pub as_of: Option<Version>,
    /// With `as_of`, fields newer than that version are errors, not warnings.
    pub strict_version: bool,
    /// Report deprecated fields that are present (`deprecated_field`).
    pub warn_deprecated: bool,
}

impl Options {
    /// The options of [`Options::default`], as a constant.
    pub const DEFAULT: Options = Options {
        kind: None,
        deny_unknown_fields: false,
        json_lines: false,
        as_of: None,
        strict_version: false,
        warn_deprecated: false,
    };
}

/// Reads the version for [`Options::as_of`]: `vX.Y.Z` (or `X.Y.Z`), no older
/// than the first version tag of the format.
///
/// # Errors
/// A message saying what is wrong with `text`, for a usage error.
pub fn as_of_version(text: &str) -> Result<Version, String> {
    let version: Version = text.parse().map_err(|e| format!("{e}"))?;
    let roots: Vec<&'static ModelDef> = Kind::ALL.iter().map(|k| k.model()).collect();
    let tags = crate::schema::versions(&roots);
    match tags.first() {
        Some(&first) if version < first => Err(format!(
            "{version} is older than the first version of the format ({first}); known versions are {}",
            tags.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        )),
        _ => Ok(version),
    }
}

/// The validation of one document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocumentReport {
    /// JSON Pointer of the document within its file (or line); `""` for the
    /// root.
    pub pointer: String,
    /// For JSON Lines, the 1-based line the document is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The document's kind; `None` for problems found outside any document
    /// (malformed JSON around documents, a kind that cannot be told).
    pub kind: Option<Kind>,
    /// Every problem found, in document order, up to the bounds a document
    /// keeps ([`KEPT_ERRORS`], [`KEPT_WARNINGS_PER_CODE`]).
    pub diagnostics: Vec<Diagnostic>,
    /// The problems past those bounds, counted but not kept.
    #[serde(skip_serializing_if = "Omitted::is_empty")]
    pub omitted: Omitted,
}

/// Diagnostics counted but not kept, by severity and code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Omitted {
    /// Errors by code.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<Code, usize>,
    /// Warnings by code.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub warnings: BTreeMap<Code, usize>,
}

impl Omitted {
    /// Nothing was left out.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty() && self.warnings.is_empty()
    }

    /// How many were left out.
    #[must_use]
    pub fn total(&self) -> usize {
        self.errors.values().chain(self.warnings.values()).sum()
    }

    pub(crate) fn add(&mut self, code: Code, severity: Severity) {
        let counts = match severity {
            Severity::Error => &mut self.errors,
            Severity::Warning => &mut self.warnings,
        };
        *counts.entry(code).or_default() += 1;
    }

    /// Adds the counts of `other`.
    pub(crate) fn merge(&mut self, other: Omitted) {
        for (mine, theirs) in [
            (&mut self.errors, other.errors),
            (&mut self.warnings, other.warnings),
        ] {
            for (code, count) in theirs {
                *mine.entry(code).or_default() += count;
            }
        }
    }
}

impl DocumentReport {
    /// No diagnostic of the document is an error.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.omitted.errors.is_empty()
            && self
                .diagnostics
                .iter()
                .all(|d| d.severity != Severity::Error)
    }
}

/// The validation of one file (or one input).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileReport {
    /// How the documents were found in the file.
    pub layout: Layout,
    /// One report per document, in file order.
    pub documents: Vec<DocumentReport>,
}

impl FileReport {
    /// Every document of the file is valid.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.documents.iter().all(DocumentReport::is_valid)
    }
}

impl Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Whether text that is not in a `.jsonl` file looks like JSON Lines: a
/// first value that ends on its line, followed by more values on later lines.
/// `input` may be the first part of a longer input.
#[must_use]
pub fn looks_like_json_lines(input: &[u8]) -> bool {
    let input = input.strip_prefix(BOM).unwrap_or(input);
    let start = input.iter().position(|b| !b.is_ascii_whitespace());
    let Some(Ok(end)) = start.map(|start| crate::json::skip_raw(input, start)) else {
        return false;
    };
    let rest = &input[end..];
    let next = rest.iter().position(|b| !b.is_ascii_whitespace());
    next.is_some_and(|next| rest[..next].contains(&b'\n'))
}

use crate::json::BOM;

/// The most threads one input is validated on, whatever is asked for.
pub const MAX_JOBS: usize = 256;

/// Validates every document of a file held in memory.
#[must_use]
pub fn validate(input: &[u8], options: &Options) -> FileReport {
    let mut documents = Vec::new();
    let layout = dispatch::validate_source(
        &mut Source::complete(input.to_vec(), Position::START),
        options,
        1,
        Sink {
            extract: None,
            out: &mut |part| {
                if let Part::Document(report, _) = part {
                    documents.push(report);
                }
            },
        },
    )
    .unwrap_or_else(|_| unreachable!("a slice is read without I/O"));
    FileReport { layout, documents }
}

/// Validates every document read from `reader`, handing each document's
/// report to `on_document` in file order as soon as it is known. Memory stays
/// bounded by the largest document (and the first MiB, kept to tell a
/// container from a document whatever the order of its members), not the
/// input's size. With `jobs` above 1, documents are validated on that many
/// threads; the reports are the same, in the same order.
///
/// # Errors
/// An error reading `reader`; the reports of the documents before it have
/// been handed over.
pub fn validate_reader(
    reader: impl Read,
    options: &Options,
    jobs: usize,
    on_document: impl FnMut(DocumentReport),
) -> io::Result<Layout> {
    validate_buffered(reader, options, jobs, Buffering::default(), on_document)
}

/// [`validate_reader`] for readers whose bytes come over time, such as a
/// network body: each line of JSON Lines is validated and handed over as soon
/// as it has arrived whole, rather than when a buffer's worth of the input
/// has. JSON Lines are then validated on this thread only; a single value
/// (a document, a catalog) is validated as by [`validate_reader`].
///
/// # Errors
/// As [`validate_reader`].
pub fn validate_stream(
    reader: impl Read,
    options: &Options,
    jobs: usize,
    on_document: impl FnMut(DocumentReport),
) -> io::Result<Layout> {
    let buffering = Buffering {
        eager_lines: options.json_lines,
        ..Buffering::default()
    };
    validate_buffered(reader, options, jobs, buffering, on_document)
}

/// [`validate_reader`] with other buffer sizes, for the tests of streaming.
///
/// # Errors
/// As [`validate_reader`].
#[doc(hidden)]
pub fn validate_buffered(
    reader: impl Read,
    options: &Options,
    jobs: usize,
    buffering: Buffering,
    mut on_document: impl FnMut(DocumentReport),
) -> io::Result<Layout> {
    let out = &mut |part| {
        if let Part::Document(report, _) = part {
            on_document(report);
        }
    };
    let sink = Sink { extract: None, out };
    let mut source = Source::new(reader, buffering);
    dispatch::validate_source(&mut source, options, jobs.clamp(1, MAX_JOBS), sink)
}

/// The longest member beside the documents (a catalog's `meta`) whose bytes
/// [`validate_with`] hands out: 1 MiB. A longer one is read past as a stream,
/// as always, and handed out without its bytes.
pub const AROUND_LIMIT: usize = 1 << 20;

/// What [`validate_with`] hands out, in file order.
#[derive(Debug)]
pub enum Validated<T> {
    /// A document's report, with what the extractor made of the document's
    /// bytes. `None` when the report is of problems found outside any
    /// document (its `kind` is `None` too), or the document is malformed
    /// JSON and so was not read whole.
    Document(DocumentReport, Option<T>),
    /// A member of the root object beside the documents, such as a
    /// catalog's `meta`: its pointer (`/meta`) and its bytes, `None` when
    /// longer than [`AROUND_LIMIT`]. Such members are never validated.
    Around {
        /// The member's JSON Pointer.
        pointer: String,
        /// The member's value as it is in the input.
        bytes: Option<Vec<u8>>,
    },
}

/// [`validate_reader`] that also hands out, with each document's report,
/// what `extract` makes of the document, in the same pass: `extract` is
/// given the report (diagnostics located) and the document's bytes exactly
/// as they are in the input, on whichever thread validated the document,
/// so that its work is shared among the `jobs` threads too. What it returns
/// is handed to `on_item` on the calling thread, in file order, with the
/// report. Memory stays bounded by the batches in flight (each holds
/// at most 1,024 documents, or about 1 MiB of input beyond one document),
/// plus what `extract` returns for them.
///
/// `extract` may parse the bytes into a typed model
/// (`serde_json::from_slice::<cardkit::model::Set>`), into a tree, or keep
/// them as they are (`|_, bytes| bytes.to_vec()`).
///
/// ```
/// use cardkit::validate::{validate_with, Options, Validated};
///
/// let input = br#"{"meta": {"version": "5.2.1"},
///   "data": {"A": {"code": "A"}, "B": {"code": "B"}}}"#;
/// let mut items = Vec::new();
/// validate_with(&input[..], &Options::default(), 2, |report, bytes| {
///     (report.pointer.clone(), bytes.len())
/// }, |item| items.push(item))
/// .unwrap();
/// let Validated::Around { pointer, bytes } = &items[0] else { panic!() };
/// assert_eq!((pointer.as_str(), bytes.as_deref()), ("/meta", Some(&br#"{"version": "5.2.1"}"#[..])));
/// let Validated::Document(report, Some((at, len))) = &items[1] else { panic!() };
/// assert_eq!((report.is_valid(), at.as_str(), *len), (false, "/data/A", 13));
/// ```
///
/// # Errors
/// As [`validate_reader`].
pub fn validate_with<T: Send + 'static>(
    reader: impl Read,
    options: &Options,
    jobs: usize,
    extract: impl Fn(&DocumentReport, &[u8]) -> T + Sync,
    on_item: impl FnMut(Validated<T>),
) -> io::Result<Layout> {
    let extract = move |report: &DocumentReport, bytes: &[u8], _| extract(report, bytes);
    validate_with_offsets(reader, options, jobs, extract, on_item)
}

/// [`validate_with`] whose extractor is also given the document's byte
/// offset in the input, so that a caller can come back to the document (or
/// a part of it) later by reading the input again at that offset, instead
/// of keeping it.
///
/// ```
/// use cardkit::validate::{validate_with_offsets, Options, Validated};
///
/// let input = br#"[{"object": "migration"}, {"object": "migration"}]"#;
/// let mut offsets = Vec::new();
/// validate_with_offsets(&input[..], &Options::default(), 1, |_, bytes, at| (at, bytes.len()),
///     |item| if let Validated::Document(_, Some(found)) = item { offsets.push(found) })
/// .unwrap();
/// assert_eq!(offsets, [(1, 23), (26, 23)]);
/// ```
///
/// # Errors
/// As [`validate_reader`].
pub fn validate_with_offsets<T: Send + 'static>(
    reader: impl Read,
    options: &Options,
    jobs: usize,
    extract: impl Fn(&DocumentReport, &[u8], usize) -> T + Sync,
    on_item: impl FnMut(Validated<T>),
) -> io::Result<Layout> {
    validate_with_offsets_buffered(
        reader,
        options,
        jobs,
        Buffering::default(),
        extract,
        on_item,
    )
}

/// [`validate_with`] with other buffer sizes, for the tests of streaming.
///
/// # Errors
/// As [`validate_reader`].
#[doc(hidden)]
pub fn validate_with_buffered<T: Send + 'static>(
    reader: impl Read,
    options: &Options,
    jobs: usize,
    buffering: Buffering,
    extract: impl Fn(&DocumentReport, &[u8]) -> T + Sync,
    on_item: impl FnMut(Validated<T>),
) -> io::Result<Layout> {
    let extract = move |report: &DocumentReport, bytes: &[u8], _| extract(report, bytes);
    validate_with_offsets_buffered(reader, options, jobs, buffering, extract, on_item)
}

/// [`validate_with_offsets`] with other buffer sizes, for the tests of
/// streaming.
///
/// # Errors
/// As [`validate_reader`].
#[doc(hidden)]
pub fn validate_with_offsets_buffered<T: Send + 'static>(
    reader: impl Read,
    options: &Options,
    jobs: usize,
    buffering: Buffering,
    extract: impl Fn(&DocumentReport, &[u8], usize) -> T + Sync,
    on_item: impl FnMut(Validated<T>),
) -> io::Result<Layout> {
    let extract =
        move |report: &DocumentReport, bytes: &[u8], at, _: &Tape| extract(report, bytes, at);
    validate_extracting(reader, options, jobs, buffering, false, extract, on_item)
}

/// [`validate_with`] whose extractor is also given the document's [`Tape`]:
/// where the checker found the objects of the field tables' models and the
/// values of their known fields, and which of those values hold an error,
/// so that it can take them without reading the document again.
///
/// ```
/// use cardkit::validate::{validate_with_tape, Options, Step, Validated};
///
/// let input = br#"{"object": "migration", "id": 5}"#;
/// let mut tapes = Vec::new();
/// validate_with_tape(&input[..], &Options::default(), 1, |_, _, tape| tape.steps.clone(),
///     |item| if let Validated::Document(_, Some(steps)) = item { tapes.push(steps) })
/// .unwrap();
/// assert_eq!(tapes[0][0], Step::Open);
/// // `id` (the model's third field) holds a number, not a UUID.
/// assert_eq!(&tapes[0][3..5], [Step::Field { index: 2, start: 30 }, Step::End { end: 31, invalid: true }]);
/// ```
///
/// # Errors
/// As [`validate_reader`].
pub fn validate_with_tape<T: Send + 'static>(
    reader: impl Read,
    options: &Options,
    jobs: usize,
    extract: impl Fn(&DocumentReport, &[u8], &Tape) -> T + Sync,
    on_item: impl FnMut(Validated<T>),
) -> io::Result<Layout> {
    let extract =
        move |report: &DocumentReport, bytes: &[u8], _, tape: &Tape| extract(report, bytes, tape);
    validate_extracting(
        reader,
        options,
        jobs,
        Buffering::default(),
        true,
        extract,
        on_item,
    )
}

/// The validation that hands out what `extract` makes of each document,
/// recording the documents' tapes for it when `tape`.
fn validate_extracting<T: Send + 'static>(
    reader: impl Read,
    options: &Options,
    jobs: usize,
    buffering: Buffering,
    tape: bool,
    extract: impl Fn(&DocumentReport, &[u8], usize, &Tape) -> T + Sync,
    mut on_item: impl FnMut(Validated<T>),
) -> io::Result<Layout> {
    let erased =
        move |report: &DocumentReport, bytes: &[u8], at: usize, tape: &Tape| -> part::Extracted {
            Box::new(extract(report, bytes, at, tape))
        };
    let out = &mut |part| {
        on_item(match part {
            Part::Document(report, extracted) => {
                let typed = extracted.and_then(|any| any.downcast::<T>().ok());
                Validated::Document(report, typed.map(|typed| *typed))
            }
            Part::Around(pointer, bytes) => Validated::Around { pointer, bytes },
        });
    };
    let sink = Sink {
        extract: Some(part::Extract {
            make: &erased,
            tape,
        }),
        out,
    };
    let mut source = Source::new(reader, buffering);
    dispatch::validate_source(&mut source, options, jobs.clamp(1, MAX_JOBS), sink)
}
