//! The one way to validate: a [`Validator`] holds the options, the threads
//! and the buffering, and validates a file in memory, a reader, or a reader
//! with an extractor that takes what it needs of each document in the same
//! pass.

use std::io::{self, Read};

use super::dispatch;
use super::locate::Position;
use super::options::Options;
use super::part::{self, Part, Sink};
use super::source::{Buffering, Source};
use super::tape::{Tape, TapeScope};
use crate::report::{DocumentReport, FileReport, Layout};

/// The most threads one input is validated on, whatever is asked for.
pub const MAX_JOBS: usize = 256;

/// A validation, set up: options, threads and buffering. Cheap to make and
/// to copy; it holds no input.
///
/// ```
/// use cardkit::validate::{Options, Validator};
///
/// let input = br#"[{"object": "migration"}, {"object": "migration"}]"#;
/// let mut valid = Vec::new();
/// let layout = Validator::new(Options::default())
///     .jobs(2)
///     .reader(&input[..], |report| valid.push(report.is_valid()))
///     .unwrap();
/// assert_eq!((layout.as_str(), valid), ("array", vec![false, false]));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Validator {
    options: Options,
    jobs: usize,
    buffering: Buffering,
}

impl Validator {
    /// A validation with these options, on one thread.
    #[must_use]
    pub fn new(options: Options) -> Self {
        Validator {
            options,
            jobs: 1,
            buffering: Buffering::default(),
        }
    }

    /// Validates on `jobs` threads (1 to [`MAX_JOBS`]; other numbers are
    /// brought within): the reading thread finds where documents end and
    /// hands them out. The reports are the same, in the same order.
    #[must_use]
    pub fn jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs.clamp(1, MAX_JOBS);
        self
    }

    /// For readers whose bytes come over time, such as a network body: each
    /// line of JSON Lines is validated and handed over as soon as it has
    /// arrived whole, rather than when a buffer's worth of the input has
    /// (JSON Lines are then validated on the calling thread only).
    #[must_use]
    pub fn arriving(mut self) -> Self {
        self.buffering.eager_lines = self.options.json_lines;
        self
    }

    /// Other buffer sizes, for the tests of streaming.
    #[doc(hidden)]
    #[must_use]
    pub fn buffering(mut self, buffering: Buffering) -> Self {
        self.buffering = buffering;
        self
    }

    /// The options validated with.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Validates every document of a file held in memory.
    #[must_use]
    pub fn slice(&self, input: &[u8]) -> FileReport {
        let mut documents = Vec::new();
        let mut out = |part| {
            if let Part::Document(report, _) = part {
                documents.push(report);
            }
        };
        let sink = Sink {
            extract: None,
            out: &mut out,
        };
        let mut source = Source::complete(input.to_vec(), Position::START);
        let layout = dispatch::validate_source(&mut source, &self.options, self.jobs, sink)
            .unwrap_or_else(|_| unreachable!("a slice is read without I/O"));
        FileReport { layout, documents }
    }

    /// Validates every document read from `reader`, handing each document's
    /// report to `on_document` in file order as soon as it is known. Memory
    /// stays bounded by the largest document (and the first MiB, kept to
    /// tell a container from a document whatever the order of its members),
    /// not the input's size.
    ///
    /// # Errors
    /// An error reading `reader`; the reports of the documents before it have
    /// been handed over.
    pub fn reader(
        &self,
        reader: impl Read,
        mut on_document: impl FnMut(DocumentReport),
    ) -> io::Result<Layout> {
        let mut out = |part| {
            if let Part::Document(report, _) = part {
                on_document(report);
            }
        };
        let sink = Sink {
            extract: None,
            out: &mut out,
        };
        let mut source = Source::new(reader, self.buffering);
        dispatch::validate_source(&mut source, &self.options, self.jobs, sink)
    }

    /// A validation that also hands out, with each document's report, what
    /// `extract` makes of the document, in the same pass: `extract` is given
    /// the document as [`Found`], on whichever thread validated it, so that
    /// its work is shared among the threads too. What it returns is handed
    /// out on the calling thread, in file order, with the report.
    ///
    /// `extract` may parse the bytes into a typed model
    /// (`serde_json::from_slice::<cardkit::model::Set>`), into a tree, or
    /// keep them as they are (`|found| found.bytes.to_vec()`).
    ///
    /// ```
    /// use cardkit::validate::{Options, Validated, Validator};
    ///
    /// let input = br#"{"meta": {"version": "5.2.1"},
    ///   "data": {"A": {"code": "A"}, "B": {"code": "B"}}}"#;
    /// let mut items = Vec::new();
    /// Validator::new(Options::default())
    ///     .extracting(|found| (found.report.pointer.clone(), found.bytes.len(), found.offset))
    ///     .reader(&input[..], |item| items.push(item))
    ///     .unwrap();
    /// let Validated::Around { pointer, bytes } = &items[0] else { panic!() };
    /// assert_eq!((pointer.as_str(), bytes.as_deref()), ("/meta", Some(&br#"{"version": "5.2.1"}"#[..])));
    /// let Validated::Document(report, Some((at, len, offset))) = &items[1] else { panic!() };
    /// assert_eq!((report.is_valid(), at.as_str(), *len, *offset), (false, "/data/A", 13, 47));
    /// ```
    #[must_use]
    pub fn extracting<T, E>(&self, extract: E) -> Extracting<E>
    where
        E: Fn(Found<'_>) -> T + Sync,
    {
        Extracting {
            validator: *self,
            extract,
            tape: None,
        }
    }
}

/// One document, as an extractor is given it.
#[derive(Debug, Clone, Copy)]
pub struct Found<'a> {
    /// Its report, diagnostics located.
    pub report: &'a DocumentReport,
    /// Its bytes exactly as they are in the input.
    pub bytes: &'a [u8],
    /// Where its bytes start in the input, so that a caller can come back to
    /// the document later by reading the input again, instead of keeping it.
    pub offset: usize,
    /// The 1-based line and column (in characters) its bytes start at.
    pub line: usize,
    /// See `line`.
    pub column: usize,
    /// Where the checker found the objects of the field tables' models and
    /// the values of their known fields, and which hold an error: empty
    /// unless asked for with [`Extracting::with_tape`].
    pub tape: &'a Tape,
}

/// What an extracting validation hands out, in file order.
#[derive(Debug)]
pub enum Validated<T> {
    /// A document's report, with what the extractor made of the document's
    /// bytes. `None` when the report is of problems found outside any
    /// document (its `kind` is `None` too), or the document is malformed
    /// JSON and so was not read whole.
    Document(DocumentReport, Option<T>),
    /// A member of the root object beside the documents, such as a
    /// catalog's `meta`: its pointer (`/meta`) and its bytes, `None` when
    /// longer than [`AROUND_LIMIT`](super::AROUND_LIMIT). Such members are never validated.
    Around {
        /// The member's JSON Pointer.
        pointer: String,
        /// The member's value as it is in the input.
        bytes: Option<Vec<u8>>,
    },
}

/// A [`Validator`] with an extractor: see [`Validator::extracting`].
#[derive(Debug, Clone, Copy)]
pub struct Extracting<E> {
    validator: Validator,
    extract: E,
    tape: Option<TapeScope>,
}

impl<E> Extracting<E> {
    /// Records each document's [`Tape`] for the extractor, so that it can
    /// take values without reading the document again.
    ///
    /// ```
    /// use cardkit::validate::{Options, Step, Validated, Validator};
    ///
    /// let input = br#"{"object": "migration", "id": 5}"#;
    /// let mut tapes = Vec::new();
    /// Validator::new(Options::default())
    ///     .extracting(|found| found.tape.steps.clone())
    ///     .with_tape()
    ///     .reader(&input[..], |item| if let Validated::Document(_, Some(steps)) = item { tapes.push(steps) })
    ///     .unwrap();
    /// assert_eq!(tapes[0][0], Step::Open);
    /// // `id` (the model's third field) holds a number, not a UUID.
    /// assert_eq!(&tapes[0][3..5], [Step::Field { index: 2, start: 30 }, Step::End { end: 31, invalid: true }]);
    /// ```
    #[must_use]
    pub fn with_tape(mut self) -> Self {
        self.tape = Some(TapeScope::Fields);
        self
    }

    /// Records, of each document's tape, only what the references between
    /// documents need: the values of fields with a
    /// [`Link`](crate::schema::Link), and the objects of models (see
    /// [`TapeScope::Links`]).
    #[must_use]
    pub fn with_links_tape(mut self) -> Self {
        self.tape = Some(TapeScope::Links);
        self
    }

    /// Validates every document read from `reader`, handing each report, with
    /// what the extractor made of its document, and each member beside the
    /// documents to `on_item`, in file order. Memory stays bounded by the
    /// batches in flight (each holds at most 1,024 documents, or about 1 MiB
    /// of input beyond one document), plus what the extractor returns for
    /// them.
    ///
    /// # Errors
    /// As [`Validator::reader`].
    pub fn reader<T: Send + 'static>(
        &self,
        reader: impl Read,
        mut on_item: impl FnMut(Validated<T>),
    ) -> io::Result<Layout>
    where
        E: Fn(Found<'_>) -> T + Sync,
    {
        let extract = &self.extract;
        let erased = move |report: &DocumentReport,
                           bytes: &[u8],
                           start: Position,
                           tape: &Tape|
              -> part::Extracted {
            Box::new(extract(Found {
                report,
                bytes,
                offset: start.offset,
                line: start.line,
                column: start.column,
                tape,
            }))
        };
        let mut out = |part| {
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
                tape: self.tape,
            }),
            out: &mut out,
        };
        let validator = &self.validator;
        let mut source = Source::new(reader, validator.buffering);
        dispatch::validate_source(&mut source, &validator.options, validator.jobs, sink)
    }
}
