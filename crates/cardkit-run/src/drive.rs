//! The loop over a run's inputs: each is opened, counted, validated (or
//! validated and used, as an export does), added to the summary and
//! rendered; inputs that cannot be read are counted and named.

use std::cell::Cell;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Write};
use std::time::Instant;

use super::declared::{
    declared_anywhere, latest, read_declared, Declared, DECLARED_WITHIN, STREAM_DECLARED_WITHIN,
};
use super::decode::Stored;
use super::discover::Discovered;
use super::exit::ExitStatus;
use super::open::{open, Opened, Unopened};
use super::options::Surface;
use super::settings::Settings;
use super::skip::{judge, Judged};
use super::way_out::{UpstreamNamed, WayOutCounts};
use crate::check::plain;
pub use crate::check::{Check, Failure};
use crate::render::{FileEnd, Renderer};
use cardkit::diagnostic::Severity;
use cardkit::report::{DocumentReport, Reading, Summary, VersionFrom};
use cardkit::schema::Names;
use cardkit::validate::{Filter, Options};

/// Which documents' reports are rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// Every document's (`validate`).
    Every,
    /// Only invalid documents' (a run whose output is elsewhere, such as an
    /// export).
    Invalid,
}

/// What a front end shows while a run goes: a progress bar, say. Every
/// method does nothing unless implemented.
pub trait Progress {
    /// An input of `size` bytes (if known) starts.
    fn start(&self, _size: Option<u64>) {}
    /// `bytes` more of it were read: of its size as stored, so that a
    /// compressed input advances by its compressed bytes.
    fn read(&self, _bytes: u64) {}
    /// A document was checked: its report, and the run so far.
    fn document(&self, _document: &DocumentReport, _summary: &Summary) {}
    /// The input is done.
    fn done(&self) {}
}

/// No progress shown.
struct Silent;
impl Progress for Silent {}

/// A run over many inputs, rendering each document's report as it comes.
pub struct Run<'r> {
    renderer: &'r mut dyn Renderer,
    out: &'r mut dyn Write,
    options: Options,
    shown: Shown,
    progress: &'r dyn Progress,
    summary: Summary,
    started: Instant,
    /// Inputs found (read or not).
    inputs: usize,
    /// Why the run was aborted.
    aborted: Option<String>,
    /// Each input is checked as of the version it declares.
    as_declared: bool,
    /// An input's errors of fields later than the version it declares get a
    /// hint naming `--as-of auto`.
    hints_version: bool,
    /// Where the way out names the setting it suggests.
    surface: Surface,
    /// The references between documents, when they are checked.
    references: Option<crate::references::Shared>,
}

impl<'r> Run<'r> {
    /// A run validating with `options` (whose `json_lines` is set per input),
    /// rendering with `renderer` into `out`.
    pub fn new(renderer: &'r mut dyn Renderer, out: &'r mut dyn Write, options: Options) -> Self {
        Run {
            renderer,
            out,
            options,
            shown: Shown::Every,
            progress: &Silent,
            summary: Summary::default(),
            started: Instant::now(),
            inputs: 0,
            aborted: None,
            as_declared: false,
            hints_version: false,
            surface: Surface::CommandLine,
            references: None,
        }
    }

    /// A run as the user's settings ask: validating with their options,
    /// each input as of the version it declares under `--as-of auto`.
    pub fn with_settings(
        renderer: &'r mut dyn Renderer,
        out: &'r mut dyn Write,
        settings: &Settings,
    ) -> Self {
        Run::new(renderer, out, settings.options(false))
            .as_declared(settings.as_of_auto)
            .hinting_version(true)
            .checking_references(settings.references)
    }

    /// Checks the references between the documents the run reads, with
    /// findings of this severity (`None`: not checked). Only the plain
    /// check ([`Run::validate_all`], [`Run::validate_input`]) reads them.
    #[must_use]
    pub fn checking_references(mut self, severity: Option<Severity>) -> Self {
        let filter = self.options.filter;
        self.references = severity.map(|severity| crate::references::shared(severity, filter));
        self
    }

    /// Whether an input whose errors are of fields later than the version
    /// it declares gets a hint naming `--as-of auto` (its first MiB is then
    /// read before it is validated; the service does without, so that a
    /// body is validated as it arrives).
    #[must_use]
    pub fn hinting_version(mut self, on: bool) -> Self {
        self.hints_version = on;
        self
    }

    /// Words the settings that a way out suggests as `surface` names them
    /// (the command line's flags by default).
    #[must_use]
    pub fn surface(mut self, surface: Surface) -> Self {
        self.surface = surface;
        self
    }

    /// Renders only some documents' reports.
    #[must_use]
    pub fn showing(mut self, shown: Shown) -> Self {
        self.shown = shown;
        self
    }

    /// Times the run from `started` (when its request came, say) rather
    /// than from now.
    #[must_use]
    pub fn timed_from(mut self, started: Instant) -> Self {
        self.started = started;
        self
    }

    /// Checks each input as of the version its `meta.version` declares
    /// (`--as-of auto`), and says so in its report.
    #[must_use]
    pub fn as_declared(mut self, on: bool) -> Self {
        self.as_declared = on;
        self
    }

    /// Shows the run's progress.
    #[must_use]
    pub fn with_progress(mut self, progress: &'r dyn Progress) -> Self {
        self.progress = progress;
        self
    }

    /// Opens and validates every input found, on `jobs` threads: the plain
    /// check.
    ///
    /// # Errors
    /// As [`Run::all`].
    pub fn validate_all(&mut self, found: Discovered, jobs: usize) -> io::Result<()> {
        let mut check = self.plain(jobs);
        self.all(found, &mut *check)
    }

    /// Validates one input already opened (one that has no path: bytes
    /// held in memory, say), on `jobs` threads: the plain check.
    ///
    /// # Errors
    /// As [`Run::input`].
    pub fn validate_input(&mut self, opened: Opened, jobs: usize) -> io::Result<()> {
        let mut check = self.plain(jobs);
        self.input(opened, &mut *check)
    }

    /// What a check of the caller's own uses to read the references, when
    /// the run checks them ([`Run::checking_references`]); the plain check
    /// reads them itself.
    #[must_use]
    pub fn references(&self) -> Option<crate::references::ReferencesReader> {
        self.references
            .as_ref()
            .map(crate::references::ReferencesReader::of)
    }

    /// The plain check, reading references too when they are checked.
    /// Warnings past what the format shows are only counted, unless every
    /// member read under the spec's names is counted for the way out.
    fn plain(&self, jobs: usize) -> Box<Check<'static>> {
        let mut check = match &self.references {
            Some(references) => crate::references::check(jobs, references.clone()),
            None => plain(jobs),
        };
        let Some(shown) = self.renderer.warnings_shown() else {
            return check;
        };
        Box::new(move |name, reader, options, on_document| {
            let options = Options {
                warnings_shown: (options.names != Names::Spec).then_some(shown),
                ..*options
            };
            check(name, reader, &options, on_document)
        })
    }

    /// Opens and checks every input found, in order, until the run is
    /// aborted.
    ///
    /// # Errors
    /// Writing the report failed (a closed pipe is not an error when `out`
    /// is an [`UntilClosed`](super::UntilClosed)).
    pub fn all(&mut self, found: Discovered, check: &mut Check<'_>) -> io::Result<()> {
        for input in found.inputs {
            if self.aborted.is_some() {
                break;
            }
            match open(input) {
                Ok(opened) => self.input(opened, check)?,
                Err(unopened) => self.unopened(&unopened)?,
            }
        }
        Ok(())
    }

    /// Counts and names an input that could not be opened.
    ///
    /// # Errors
    /// Writing the report failed.
    pub fn unopened(&mut self, unopened: &Unopened) -> io::Result<()> {
        self.inputs += 1;
        self.summary.add_unreadable();
        self.renderer
            .unreadable(self.out, &unopened.name, &unopened.reason)
    }

    /// Checks one input, rendering each document's report as it comes; one
    /// found whose kind cannot be told is skipped, and only counted.
    ///
    /// # Errors
    /// Writing the report failed.
    pub fn input(&mut self, opened: Opened, check: &mut Check<'_>) -> io::Result<()> {
        let opened = match judge(opened, self.options.kind) {
            Judged::Check(opened) => opened,
            Judged::Skip => {
                self.summary.add_skipped();
                return Ok(());
            }
        };
        self.inputs += 1;
        let Opened {
            name,
            reader,
            size,
            json_lines,
            compressed,
            again,
            found: _,
        } = opened;
        let mut options = Options {
            json_lines,
            ..self.options
        };
        let progress = self.progress;
        progress.start(size);
        self.renderer.begin_file(self.out, &name)?;
        let bytes = Cell::new(0);
        let mut counted = Counted {
            inner: reader,
            bytes: &bytes,
            stored: compressed.map(|(_, stored)| (stored, 0)),
            progress,
        };
        // The version the file declares, read from its first part (given
        // back in front of the rest): checked as of it under `--as-of auto`,
        // else named in a way out when errors are of fields introduced after
        // it. JSON Lines declare none, and are not held up to read one unless
        // asked.
        let reads_head = !json_lines && (self.as_declared || self.hints_version);
        let (mut reader, mut declared): (Box<dyn Read + '_>, _) = if reads_head {
            // A file that can be read again is looked through past its
            // first MiB; a stream's `meta` is sought where publishers write
            // it, at its start, so that it is validated as it arrives.
            let within = if again.is_some() {
                DECLARED_WITHIN
            } else {
                STREAM_DECLARED_WITHIN
            };
            read_declared(&mut counted, within)
        } else {
            // JSON Lines declare no version of their own (nor is a line
            // held up to look for one).
            (
                Box::new(&mut counted),
                Declared::Absent { whole: json_lines },
            )
        };
        // A 4.x set file keeps `meta` among the set's members, after its
        // cards: a file that can be read again is looked through once more.
        if reads_head && declared == (Declared::Absent { whole: false }) {
            if let Some(found) = again
                .as_ref()
                .and_then(|path| File::open(path).and_then(declared_anywhere).ok())
            {
                declared = found;
            }
        }
        let version = if self.as_declared {
            options.as_of = declared.as_of();
            let from = if options.as_of.is_some() {
                VersionFrom::Declared
            } else {
                VersionFrom::Latest
            };
            (options.as_of, from, declared.note())
        } else {
            let said = match options.as_of {
                Some(as_of) => format!("checked as of {as_of} (as asked)"),
                None => format!("checked as of the latest version, {} (as asked)", latest()),
            };
            (options.as_of, VersionFrom::Asked, said)
        };
        // Only a file declaring a version older than the one it is checked
        // as of can have errors of fields it need not have.
        let declared_before = match declared.as_of() {
            Some(own) if !self.as_declared && own < options.as_of.unwrap_or_else(latest) => {
                Some(own)
            }
            _ => None,
        };
        let declared_text = match &declared {
            Declared::Version { declared, .. }
            | Declared::Newer { declared }
            | Declared::Unusable { declared } => Some(declared.clone()),
            Declared::Absent { .. } => None,
        };
        let mut way_out = WayOutCounts {
            surface: self.surface,
            declared_before,
            upstream: UpstreamNamed::default(),
            spec_names: options.names == Names::Spec,
            later: 0,
            tags: HashMap::new(),
        };
        let names_asked = options.names != Names::Auto;
        let mut reading: Option<Reading> = None;
        let mut documents_by_names = [0usize; 3];
        let (mut valid, mut tool) = (true, crate::design_tool::DesignTool::default());
        let mut written = Ok(());
        let (renderer, out, summary, shown) = (
            &mut *self.renderer,
            &mut *self.out,
            &mut self.summary,
            self.shown,
        );
        let checked = check(&name, &mut reader, &options, &mut |document| {
            valid &= document.is_valid();
            tool.see(document);
            way_out.count(document);
            let kind = document
                .kind
                .filter(|kind| kind.has_names() || kind.has_versions());
            if let Some(kind) = kind {
                documents_by_names[document.names.written() as usize] += 1;
                if reading.is_none() {
                    // Said once, at the top of the file's report: how its
                    // first document of such a kind was read.
                    let mut first = Reading::new(
                        document.names,
                        names_asked,
                        kind.has_versions().then(|| version.clone()),
                        declared_text.clone(),
                    );
                    first.way_out = way_out.way_out();
                    if written.is_ok() {
                        written = renderer.reading(out, &name, &first);
                    }
                    reading = Some(first);
                }
            }
            summary.add_document(document);
            progress.document(document, summary);
            let show = shown == Shown::Every || !document.is_valid();
            if show && written.is_ok() {
                written = renderer.document(out, &name, document);
            }
        });
        drop(reader);
        if let Some((stored, _)) = &counted.stored {
            self.summary.add_compressed(stored.read(), bytes.get());
        }
        // Said last too, for the whole file: the way out, and documents
        // read under other names than its first.
        let mut note = None;
        if let Some(reading) = &mut reading {
            reading.way_out = way_out.way_out();
            self.summary.add_reading(reading);
            note = reading.way_out.as_ref().map(ToString::to_string);
            let first = reading.names;
            let others: usize = Names::FIXED
                .iter()
                .filter(|names| names.name() != first)
                .map(|&names| documents_by_names[names as usize])
                .sum();
            if others > 0 {
                let all: usize = documents_by_names.iter().sum();
                note = join(
                    Some(format!(
                        "{others} of its {all} documents are read under other names than its first"
                    )),
                    note,
                );
            }
        }
        let hint = tool.hint();
        let note = join(note, hint.clone());
        progress.done();
        written?;
        let error = match checked {
            Ok(layout) => {
                self.summary.add_file(bytes.get());
                return self.renderer.end_file(
                    self.out,
                    &name,
                    FileEnd {
                        layout: Some(layout),
                        valid,
                        error: None,
                        note: note.as_deref(),
                        reading: reading.as_ref(),
                        hint: hint.as_deref(),
                    },
                );
            }
            Err(Failure::Read(error)) => error.to_string(),
            Err(Failure::Abort(why)) => {
                self.aborted = Some(why);
                return Ok(());
            }
        };
        // An input that could not be read to its end counts once, as
        // unreadable; its bytes and the documents before the error count.
        self.summary.bytes += bytes.get();
        self.summary.add_unreadable();
        let end = FileEnd {
            layout: None,
            valid: false,
            error: Some(&error),
            note: note.as_deref(),
            reading: reading.as_ref(),
            hint: hint.as_deref(),
        };
        self.renderer.end_file(self.out, &name, end)
    }

    /// Settles the references the run checks, when it does, and renders
    /// their findings now, counted in the summary, handing each to
    /// `on_finding` too (an export writes them into a table); without,
    /// [`Run::finish`] renders them. Once every input is read.
    ///
    /// # Errors
    /// Writing the report failed.
    pub fn finish_references(
        &mut self,
        on_finding: &mut dyn FnMut(cardkit::references::Placed<'_>),
    ) -> io::Result<()> {
        match self.references.take() {
            Some(references) => crate::references::finish(
                references,
                self.renderer,
                self.out,
                &mut self.summary,
                on_finding,
            ),
            None => Ok(()),
        }
    }

    /// The run so far.
    #[must_use]
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// Why the run was aborted, if it was.
    #[must_use]
    pub fn aborted(&self) -> Option<&str> {
        self.aborted.as_deref()
    }

    /// Whether any input was found: a run that checked nothing must not
    /// pass.
    #[must_use]
    pub fn checked_nothing(&self) -> bool {
        self.inputs == 0
    }

    /// Ends the run: renders the summary (timed) and gives it, with the exit
    /// status: [`ExitStatus::of`] the summary, and [`ExitStatus::Error`]
    /// when nothing was checked or the run was aborted.
    ///
    /// # Errors
    /// Writing the report failed.
    pub fn finish(mut self) -> io::Result<(Summary, ExitStatus)> {
        self.finish_references(&mut |_| {})?;
        self.summary.seconds = Some(self.started.elapsed().as_secs_f64());
        self.summary.ignored_by = self.options.filter.map(Filter::source);
        self.renderer.finish(self.out, &self.summary)?;
        self.out.flush()?;
        let mut status = ExitStatus::of(&self.summary);
        if self.checked_nothing() || self.aborted.is_some() {
            status = ExitStatus::Error;
        }
        Ok((self.summary, status))
    }
}

/// A reader that counts what it reads: the bytes validated (decoded) for
/// the summary, and for the progress the bytes of the input as stored,
/// which its size counts (the same, unless it is compressed).
struct Counted<'a> {
    inner: Box<dyn Read>,
    bytes: &'a Cell<u64>,
    /// A compressed input's bytes as stored, and how many of them the
    /// progress has been told of.
    stored: Option<(Stored, u64)>,
    progress: &'a dyn Progress,
}

impl Read for Counted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes.set(self.bytes.get() + n as u64);
        let advanced = match &mut self.stored {
            Some((stored, told)) => {
                let read = stored.read();
                let advanced = read.saturating_sub(*told);
                *told = read;
                advanced
            }
            None => n as u64,
        };
        if advanced > 0 {
            self.progress.read(advanced);
        }
        Ok(n)
    }
}

/// Two notes on one file, as one.
fn join(first: Option<String>, second: Option<String>) -> Option<String> {
    match (first, second) {
        (Some(first), Some(second)) => Some(format!("{first}; {second}")),
        (first, second) => first.or(second),
    }
}
