//! `cardkit export`: validates each input and writes its documents' rows to
//! SQLite, PostgreSQL or Parquet, through `cardkit_export`.

use std::io::{self, Write};
use std::time::Instant;

use cardkit::render::{FileEnd, Renderer, Text};
use cardkit::report::{Summary, WarningFilter};
use cardkit::Options;
use cardkit_export::layout::layout;
use cardkit_export::{Exporter, InputError, OnInvalid, Target};
use clap::ValueEnum;

use crate::inputs;
use crate::validate::{jobs, UntilClosed, MAX_JOBS};

#[derive(clap::Args)]
pub struct Args {
    /// Files or directories to export, as `validate` reads them; `-` reads
    /// standard input (once). Example: cardkit export --to cards.db sets/
    #[arg(value_name = "INPUT", required_unless_present = "describe")]
    paths: Vec<String>,

    /// Where to write: `sqlite:PATH` (or a path ending in .db or .sqlite: the
    /// embedded store), `postgres://…` (a running PostgreSQL) or
    /// `parquet:DIR` (a directory per table). Example: --to parquet:out/
    #[arg(long, value_name = "TARGET", value_parser = clap::value_parser!(Target), required_unless_present = "describe")]
    to: Option<Target>,

    /// What to do with invalid documents: `fail` commits nothing and prints
    /// the diagnostics, `skip` exports the valid ones and reports the others,
    /// `keep` exports them too, with invalid or missing values as NULL.
    /// Example: --on-invalid skip
    #[arg(long, value_enum, default_value_t = Mode::Fail, value_name = "MODE")]
    on_invalid: Mode,

    /// A label for this build of the data: a `build` column (SQLite,
    /// PostgreSQL) or a `build=LABEL/` partition (Parquet), so that builds
    /// sit side by side; exporting the same build again replaces it.
    /// Example: --build 2024-05-17
    #[arg(long, value_name = "LABEL")]
    build: Option<String>,

    /// How many threads validate documents and make their rows, from 1 to
    /// 256 (default: one per core). Example: --jobs 2
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_JOBS)))]
    jobs: Option<u16>,

    /// Prints the tables and columns the export writes (generated from the
    /// field tables), and exits.
    #[arg(long, conflicts_with_all = ["to", "paths"])]
    describe: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Mode {
    Fail,
    Skip,
    Keep,
}

impl Args {
    /// What the arguments ask that cannot be done, beyond what clap checks.
    pub fn check(&self) -> Result<(), String> {
        if self.paths.iter().filter(|path| *path == "-").count() > 1 {
            return Err("`-` is given more than once: standard input can be read once".into());
        }
        if self.build.as_deref().is_some_and(str::is_empty) {
            return Err("--build: the label is empty".into());
        }
        Ok(())
    }
}

fn note(text: &str) {
    let _ = writeln!(io::stderr(), "cardkit export: {}", Text::escape(text));
}

pub fn run(args: &Args) -> io::Result<u8> {
    if args.describe {
        io::stdout()
            .lock()
            .write_all(layout().describe().as_bytes())?;
        return Ok(0);
    }
    let Some(target) = &args.to else {
        return Ok(2);
    };
    let on_invalid = match args.on_invalid {
        Mode::Fail => OnInvalid::Fail,
        Mode::Skip => OnInvalid::Skip,
        Mode::Keep => OnInvalid::Keep,
    };
    let started = Instant::now();
    let mut exporter =
        match Exporter::open(target, on_invalid, args.build.as_deref(), jobs(args.jobs)) {
            Ok(exporter) => exporter,
            Err(error) => {
                note(&format!("error: {error}"));
                return Ok(2);
            }
        };
    let mut renderer = Text::new(WarningFilter::new(WarningFilter::DEFAULT_LIMIT));
    let mut summary = Summary::default();
    // A closed stderr stops the report, not the run: the exit status still
    // says whether everything was exported.
    let err = std::cell::RefCell::new(io::BufWriter::new(UntilClosed::new(io::stderr().lock())));
    let expanded = inputs::expand(&args.paths);
    let nothing = expanded.inputs.is_empty();
    for input in expanded.inputs {
        let (name, reader, _, json_lines) = match inputs::open(input) {
            Ok(opened) => opened,
            Err((name, error)) => {
                summary.add_unreadable();
                renderer.unreadable(&mut *err.borrow_mut(), &name, &error)?;
                continue;
            }
        };
        let options = Options {
            json_lines,
            ..Options::default()
        };
        let mut bytes = 0;
        let counted = Counted {
            inner: reader,
            bytes: &mut bytes,
        };
        let mut written = Ok(());
        let outcome = exporter.input(
            &name,
            counted,
            &options,
            |report| {
                summary.add_document(report);
                if !report.is_valid() && written.is_ok() {
                    written = renderer.document(&mut *err.borrow_mut(), &name, report);
                }
            },
            |text| {
                let _ = err.borrow_mut().flush();
                note(text);
            },
        );
        written?;
        let error = match outcome {
            Ok(_) => None,
            Err(InputError::Read(error)) => Some(error.to_string()),
            Err(InputError::Store(error)) => {
                err.borrow_mut().flush()?;
                note(&format!("error: {error}; nothing was exported"));
                return Ok(2);
            }
        };
        if error.is_some() {
            summary.add_unreadable();
        } else {
            summary.add_file(bytes);
        }
        let end = FileEnd {
            layout: None,
            valid: true,
            error: error.as_deref(),
        };
        if error.is_some() {
            renderer.end_file(&mut *err.borrow_mut(), &name, end)?;
        }
    }
    summary.seconds = Some(started.elapsed().as_secs_f64());
    let mut err = err.into_inner();
    renderer.finish(&mut err, &summary)?;
    err.flush()?;
    drop(err);
    if nothing {
        exporter.abort();
        note("error: nothing was exported: no input was found in the paths given");
        return Ok(2);
    }
    if summary.unreadable > 0 && on_invalid == OnInvalid::Fail {
        exporter.abort();
        note("error: an input could not be read: nothing was exported");
        return Ok(2);
    }
    let totals = match exporter.finish() {
        Ok(totals) => totals,
        Err(error) => {
            note(&format!("error: {error}; nothing was exported"));
            return Ok(2);
        }
    };
    if totals.failed {
        note(&format!(
            "nothing was exported to {target}: {} of {} documents are invalid or cannot be exported (--on-invalid skip leaves them out, keep exports them with NULLs)",
            totals.left_out,
            summary.documents
        ));
        return Ok(summary.exit_code().max(1));
    }
    let tables = &layout().tables;
    let rows: Vec<String> = tables
        .iter()
        .zip(&totals.rows)
        .filter(|(_, &n)| n > 0)
        .map(|(t, n)| format!("{} {n}", t.name))
        .collect();
    // A closed stdout stops the report, not the status: the run has
    // committed, and its status still says whether all was valid.
    let mut out = UntilClosed::new(io::stdout().lock());
    writeln!(
        out,
        "exported {} documents to {target}{}: {} rows ({})",
        totals.exported,
        args.build
            .as_deref()
            .map_or(String::new(), |b| format!(" as build {b}")),
        totals.rows.iter().sum::<usize>(),
        rows.join(", ")
    )?;
    if totals.kept_invalid > 0 {
        writeln!(
            out,
            "{} invalid documents were kept with their invalid or missing values as NULL",
            totals.kept_invalid
        )?;
    }
    if totals.left_out > 0 {
        writeln!(out, "{} documents were left out", totals.left_out)?;
    }
    let code = summary.exit_code();
    Ok(if code == 0 && totals.left_out > 0 {
        1
    } else {
        code
    })
}

/// A reader that counts what it reads.
struct Counted<'a, R> {
    inner: R,
    bytes: &'a mut u64,
}

impl<R: io::Read> io::Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        *self.bytes += n as u64;
        Ok(n)
    }
}
