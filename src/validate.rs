//! `cardkit validate`: reads each input, validates it and renders the reports.

use std::io::{self, IsTerminal, Read, Write};
use std::time::Instant;

use cardkit::render::{FileEnd, Github, Json, Junit, Renderer, Sarif, Text};
use cardkit::report::{Summary, WarningFilter};
use cardkit::schema::Version;
use cardkit::validate::{self, Options};
use cardkit::Kind;
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::inputs;
use crate::kind;

#[derive(clap::Args)]
pub struct Args {
    /// Files or directories to validate; `-` reads standard input (once).
    /// Directories are searched recursively for *.json, *.jsonl and *.ndjson
    /// (in any case), following symbolic links.
    /// Example: cardkit validate examples/ extra/set.json
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// The kind of the documents. `auto` tells each document's kind from its
    /// members (see the README for the rules). Example: --kind set
    #[arg(long, value_name = "KIND", value_parser = kind::or_auto_parser(), default_value = "auto")]
    // `None` for `auto`. The path is spelled out so that clap takes the
    // whole `Option` as the value instead of making the flag optional.
    kind: std::option::Option<Kind>,

    /// The report format: `text` (compiler-style diagnostics with the source
    /// line), `json` (one stable structure, documented in the README),
    /// `github` (GitHub Actions annotations), `sarif` (SARIF 2.1.0, for code
    /// scanning) or `junit` (JUnit XML: a test case per document).
    /// Example: --format json
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,

    /// Treats members the spec does not define as errors instead of warnings.
    /// Example: --deny-unknown-fields
    #[arg(long)]
    deny_unknown_fields: bool,

    /// Validates as consumers of this version of the Set format see the
    /// documents: fields introduced later are reported (`newer_field`) and
    /// not required. Example: --as-of v5.0.0
    #[arg(long, value_name = "vX.Y.Z", value_parser = validate::as_of_version)]
    as_of: Option<Version>,

    /// With --as-of, makes fields newer than that version errors instead of
    /// warnings. Example: --as-of v4.6.0 --strict-version
    #[arg(long, requires = "as_of")]
    strict_version: bool,

    /// Extra warnings to report: `deprecated` reports deprecated fields that
    /// are present (`deprecated_field`). Example: --warn deprecated
    #[arg(long, value_enum, value_name = "WHAT")]
    warn: Vec<Warn>,

    /// How many threads validate documents, from 1 to 256 (default: one per
    /// core, at most 256); with more than one, the reading thread finds where
    /// documents end and hands them out. The report is the same whatever the
    /// number. Example: --jobs 1
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_JOBS)))]
    jobs: Option<u16>,

    /// Shows no progress bar (it is shown on a terminal for inputs of 32 MB
    /// and more, and for standard input). Example: --quiet
    #[arg(long, short = 'q')]
    quiet: bool,

    /// How many warnings of each kind (same code and field) are shown before
    /// the rest are only counted; 0 shows all. Example: --warning-limit 10
    #[arg(long, default_value_t = WarningFilter::DEFAULT_LIMIT, value_name = "N")]
    warning_limit: usize,
}

/// The most threads `--jobs` asks for: more than any machine this runs on
/// has cores, and few enough that starting them cannot fail.
pub const MAX_JOBS: u16 = 256;

/// The format of `validate`'s report.
#[derive(Clone, Copy, ValueEnum)]
enum ReportFormat {
    Text,
    Json,
    Github,
    Sarif,
    Junit,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Warn {
    /// Deprecated fields that are present.
    Deprecated,
}

impl Args {
    /// What the arguments ask that cannot be done, beyond what clap checks.
    pub fn check(&self) -> Result<(), String> {
        let stdin = self.paths.iter().filter(|path| *path == "-").count();
        if stdin > 1 {
            return Err(format!(
                "`-` is given {stdin} times: standard input can be read once"
            ));
        }
        Ok(())
    }
}

pub fn run(args: &Args) -> io::Result<u8> {
    let kind = args.kind;
    let limit = if args.warning_limit == 0 {
        usize::MAX
    } else {
        args.warning_limit
    };
    let renderer: Box<dyn Renderer> = match args.format {
        ReportFormat::Text => Box::new(Text::new(WarningFilter::new(limit))),
        ReportFormat::Json => Box::new(Json::new(WarningFilter::new(limit))),
        ReportFormat::Github => Box::new(Github::new(WarningFilter::new(limit))),
        ReportFormat::Sarif => Box::new(Sarif::new(
            WarningFilter::new(limit),
            std::env::current_dir().ok(),
        )),
        ReportFormat::Junit => Box::new(Junit::new(WarningFilter::new(limit))),
    };
    let jobs = jobs(args.jobs);
    let stdout = io::stdout();
    let mut run = Run {
        renderer,
        out: io::BufWriter::new(UntilClosed::new(stdout.lock())),
        summary: Summary::default(),
        jobs,
        quiet: args.quiet,
    };
    let started = Instant::now();
    let expanded = inputs::expand(&args.paths);
    for directory in &expanded.empty {
        to_stderr(&format!(
            "note: {} holds no *.json, *.jsonl or *.ndjson file",
            Text::escape(&directory.display().to_string())
        ));
    }
    let nothing = expanded.inputs.is_empty();
    for input in expanded.inputs {
        let opened = inputs::open(input);
        match opened {
            Ok((name, reader, size, json_lines)) => {
                run.input(&name, reader, size, &options(args, kind, json_lines))?;
            }
            Err((name, error)) => {
                run.summary.add_unreadable();
                run.renderer.unreadable(&mut run.out, &name, &error)?;
            }
        }
    }
    run.summary.seconds = Some(started.elapsed().as_secs_f64());
    run.renderer.finish(&mut run.out, &run.summary)?;
    run.out.flush()?;
    if nothing {
        // A run that passes on nothing would let a CI job pass on a wrong
        // path: it is an error.
        to_stderr("error: nothing was checked: no input was found in the paths given");
        return Ok(2);
    }
    Ok(run.summary.exit_code())
}

/// The threads `--jobs` asks for: by default one per core, at most
/// [`MAX_JOBS`].
pub fn jobs(asked: Option<u16>) -> usize {
    asked.map_or_else(
        || {
            std::thread::available_parallelism()
                .map_or(1, std::num::NonZero::get)
                .min(usize::from(MAX_JOBS))
        },
        usize::from,
    )
}

/// Writes a line on standard error (which may be closed: the line is lost).
fn to_stderr(text: &str) {
    let _ = writeln!(io::stderr(), "cardkit validate: {text}");
}

fn options(args: &Args, kind: Option<Kind>, json_lines: bool) -> Options {
    Options {
        kind,
        deny_unknown_fields: args.deny_unknown_fields,
        json_lines,
        as_of: args.as_of,
        strict_version: args.strict_version,
        warn_deprecated: args.warn.contains(&Warn::Deprecated),
    }
}

/// The state of a run over many inputs.
struct Run<W> {
    renderer: Box<dyn Renderer>,
    out: W,
    summary: Summary,
    jobs: usize,
    quiet: bool,
}

impl<W: Write> Run<W> {
    /// Validates one input of `size` bytes (if known), rendering each
    /// document's report as it comes.
    fn input(
        &mut self,
        name: &str,
        reader: Box<dyn Read + '_>,
        size: Option<u64>,
        options: &Options,
    ) -> io::Result<()> {
        let progress = Progress::new(self.quiet, size);
        self.renderer.begin_file(&mut self.out, name)?;
        let mut valid = true;
        let mut written = Ok(());
        let bytes = std::cell::Cell::new(0u64);
        let counted = Counted {
            inner: reader,
            bytes: &bytes,
            progress: &progress,
        };
        let (renderer, out, summary) = (&mut self.renderer, &mut self.out, &mut self.summary);
        let read = validate::validate_reader(counted, options, self.jobs, |document| {
            valid &= document.is_valid();
            summary.add_document(&document);
            progress.document(summary);
            if written.is_ok() {
                written = renderer.document(out, name, &document);
            }
        });
        written?;
        progress.done();
        let error = read.as_ref().err().map(ToString::to_string);
        // An input that could not be read to its end counts once, as
        // unreadable; its bytes and the documents before the error count.
        if error.is_some() {
            self.summary.bytes += bytes.get();
            self.summary.add_unreadable();
        } else {
            self.summary.add_file(bytes.get());
        }
        let end = FileEnd {
            layout: read.ok(),
            valid: valid && error.is_none(),
            error: error.as_deref(),
        };
        self.renderer.end_file(&mut self.out, name, end)
    }
}

/// Standard output that goes quiet when its reader is gone: a closed pipe
/// (`cardkit validate … | head`) stops the output, not the run, so that every
/// input is still validated and the exit status still tells the verdict.
/// Other write errors are errors.
pub(crate) struct UntilClosed<W> {
    inner: W,
    closed: bool,
}

impl<W> UntilClosed<W> {
    pub(crate) fn new(inner: W) -> Self {
        UntilClosed {
            inner,
            closed: false,
        }
    }

    /// Swallows a closed pipe's error, and everything written after it.
    fn unless_closed<T>(&mut self, result: io::Result<T>, swallowed: T) -> io::Result<T> {
        match result {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(swallowed)
            }
            other => other,
        }
    }
}

impl<W: Write> Write for UntilClosed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let written = self.inner.write(buf);
        self.unless_closed(written, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let flushed = self.inner.flush();
        self.unless_closed(flushed, ())
    }
}

/// Inputs at least this large get a progress bar (on a terminal).
const LARGE: u64 = 32 << 20;

/// The progress bar of one input, on standard error when it is a terminal.
struct Progress(Option<ProgressBar>);

impl Progress {
    fn new(quiet: bool, size: Option<u64>) -> Self {
        let large = size.is_none_or(|size| size >= LARGE);
        if quiet || !large || !io::stderr().is_terminal() {
            return Progress(None);
        }
        let template = if size.is_some() {
            "{bar:30} {bytes}/{total_bytes} {bytes_per_sec} {msg}"
        } else {
            "{spinner} {bytes} {bytes_per_sec} {msg}"
        };
        let style =
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
        let bar =
            ProgressBar::with_draw_target(size, ProgressDrawTarget::stderr()).with_style(style);
        Progress(Some(bar))
    }

    fn read(&self, bytes: usize) {
        if let Some(bar) = &self.0 {
            bar.inc(bytes as u64);
        }
    }

    fn document(&self, summary: &Summary) {
        if let Some(bar) = &self.0 {
            bar.set_message(format!(
                "{} documents, {} errors",
                summary.documents,
                summary.error_count()
            ));
        }
    }

    fn done(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// A reader that counts what it reads, for the summary and the progress bar.
struct Counted<'a, R> {
    inner: R,
    bytes: &'a std::cell::Cell<u64>,
    progress: &'a Progress,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes.set(self.bytes.get() + n as u64);
        self.progress.read(n);
        Ok(n)
    }
}
