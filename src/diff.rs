//! `cardkit diff OLD NEW`: what changed between two builds of sets, through
//! `cardkit_diff`; this module parses arguments and renders.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use cardkit::render::Text;
use cardkit::run::{ExitStatus, UntilClosed};
use cardkit_diff::pointer::{Ignore, Pattern};
use cardkit_diff::{render, DiffOptions};
use clap::ValueEnum;

use crate::options::{Running, Validation};

#[derive(clap::Args)]
pub struct Args {
    /// The old build: a set, a wrapped set, a catalog, a code map or JSON
    /// Lines of sets. Example: AllPrintings-2024-05-01.json
    #[arg(value_name = "OLD")]
    old: PathBuf,

    /// The new build, as OLD. Example: AllPrintings-2024-05-02.json
    #[arg(value_name = "NEW")]
    new: PathBuf,

    /// The report: `text` (summary first, then each set, then the drift),
    /// `json` (one document) or `jsonl` (a line per set, record, drift and
    /// problem, then the summary). Example: --format jsonl
    #[arg(long, value_enum, default_value_t = Format::Text, value_name = "FORMAT")]
    format: Format,

    /// Writes a Migration notice (JSON Lines) for every catalog id NEW no
    /// longer has: `merge` when the printing is there under another id,
    /// `delete` when it is gone. Example: --emit-migrations notices.jsonl
    #[arg(long, value_name = "FILE")]
    emit_migrations: Option<PathBuf>,

    /// Leaves values out of the comparison, by JSON Pointer from a set's
    /// root, `*` for any item or member (repeatable).
    /// Example: --ignore '/cards/*/purchaseUrls'
    #[arg(long, value_name = "POINTER", value_parser = Pattern::parse)]
    ignore: Vec<Pattern>,

    /// What to do with invalid documents: `fail` reports them and diffs
    /// nothing (exit status 2), `keep` diffs them as far as they parse.
    /// Example: --on-invalid keep
    #[arg(long, value_enum, default_value_t = OnInvalid::Fail, value_name = "MODE")]
    on_invalid: OnInvalid,

    #[command(flatten)]
    pub validation: Validation,

    #[command(flatten)]
    pub running: Running,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Jsonl,
}

#[derive(Clone, Copy, ValueEnum)]
enum OnInvalid {
    /// Report them and diff nothing (`stop`, its former name, is taken too).
    #[value(alias = "stop")]
    Fail,
    /// Diff them as far as they parse.
    Keep,
}

fn note(text: &str) {
    let _ = writeln!(io::stderr(), "cardkit diff: {}", Text::escape(text));
}

pub fn run(args: &Args) -> io::Result<u8> {
    if let Err(why) = args.validation.settings().check() {
        note(&format!("error: {why}"));
        return Ok(ExitStatus::Failed.code());
    }
    let options = DiffOptions {
        validate: args.validation.settings().options(false),
        jobs: args.running.jobs(),
        ignore: Ignore(args.ignore.clone()),
        keep_invalid: matches!(args.on_invalid, OnInvalid::Keep),
    };
    let diff = match cardkit_diff::diff(&args.old, &args.new, &options) {
        Ok(diff) => diff,
        Err(error) => {
            note(&format!("error: {error}"));
            return Ok(ExitStatus::Failed.code());
        }
    };
    let stopped = !diff.problems.is_empty() && !options.keep_invalid;
    if stopped {
        for p in &diff.problems {
            note(&format!("{} {}: {}", p.path, p.at, p.message));
        }
        note("the builds were not diffed: some documents are invalid or not sets (--on-invalid keep diffs them as far as they parse)");
        return Ok(ExitStatus::Failed.code());
    }
    if let Some(path) = &args.emit_migrations {
        if let Err(error) = write_migrations(path, &diff.migrations) {
            note(&format!(
                "error: {}: cannot be written: {error}",
                path.display()
            ));
            return Ok(ExitStatus::Failed.code());
        }
    }
    // A closed pipe (`cardkit diff … | head`) stops the output, not the run:
    // the exit status still says whether the builds differ.
    let mut out = BufWriter::new(UntilClosed::new(io::stdout().lock()));
    match args.format {
        Format::Text => render::text(&diff, &mut out)?,
        Format::Json => render::json(&diff, &mut out)?,
        Format::Jsonl => render::json_lines(&diff, &mut out)?,
    }
    out.flush()?;
    Ok(u8::from(!diff.summary.is_empty()))
}

fn write_migrations(
    path: &std::path::Path,
    notices: &[cardkit_diff::notices::MigrationNotice],
) -> io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    for notice in notices {
        serde_json::to_writer(&mut out, notice)?;
        writeln!(out)?;
    }
    out.flush()
}
