//! `cardkit migrate check NOTICES --old BUILD --new BUILD`: Migration
//! notices checked against the two builds they are about, through
//! `cardkit_diff::check`; this module parses arguments and renders.

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use cardkit::schema::Names;
use cardkit_diff::check::{self, CheckOptions};
use cardkit_run::render::words::were;
use cardkit_run::render::Text;
use cardkit_run::{ExitStatus, OnInvalid, Run, Settings, Shown, UntilClosed, Walk};
use clap::ValueEnum;

use super::notices;
use crate::options::{check_paths, ways_out_first, ConfigFile, Discovery, Running};
use crate::output::{note, Shared};
use crate::progress::Bar;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Files of Migration notices: a list object, an array, JSON Lines (any
    /// container `validate` reads), validated first; compressed, a zip
    /// archive or a directory of them as `validate` finds inputs, as
    /// `migrate apply --migrations` reads them.
    /// Example: notices.jsonl
    #[arg(value_name = "NOTICES", required = true)]
    notices: Vec<PathBuf>,

    /// The build the notices are made from: a file (a set, a wrapped set, a
    /// catalog, a code map or JSON Lines of sets) or a directory (every
    /// *.json, *.jsonl and *.ndjson file in it, searched recursively: one
    /// build), as `diff` reads OLD. Example: --old AllPrintings-2024-05-01.json
    #[arg(long, value_name = "BUILD")]
    old: PathBuf,

    /// The build the notices lead to, as --old. Example: --new AllPrintings-2024-05-02.json
    #[arg(long, value_name = "BUILD")]
    new: PathBuf,

    /// The wire names the notices use: `spec` (`created_at`,
    /// `old_catalogA_id`) or `upstream`, the catalog's own (`performed_at`,
    /// `old_scryfall_id`). The builds are read under their own names.
    /// Example: --names upstream
    #[arg(long, value_enum, default_value_t = Names::Spec, value_name = "NAMES")]
    names: Names,

    /// The report: `text` (a line per notice, `pass` or `fail`, a line per
    /// reason under one that fails, then the totals) or `json` (one
    /// document). Example: --format json
    #[arg(long, value_enum, default_value_t = Format::Text, value_name = "FORMAT")]
    format: Format,

    /// What to do with documents of the builds that are invalid or not
    /// sets: `fail` reports them and checks nothing (exit status 2), `skip`
    /// leaves them out (their ids are in neither build), `keep` reads their
    /// ids as far as they parse. Example: --on-invalid keep
    #[arg(long, value_enum, default_value_t = OnInvalid::Fail, value_name = "MODE")]
    on_invalid: OnInvalid,

    #[command(flatten)]
    pub file: ConfigFile,

    #[command(flatten)]
    pub discovery: Discovery,

    #[command(flatten)]
    pub running: Running,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

impl CheckArgs {
    /// What the arguments ask that cannot be done, beyond what clap checks:
    /// standard input given twice.
    pub fn check(&self) -> Result<(), String> {
        check_paths(self.notices.iter().chain([&self.old, &self.new]))
    }
}

pub fn run(args: &CheckArgs, walk: &Walk) -> io::Result<ExitStatus> {
    let notices = match notices::read_all(&args.notices, args.names, walk) {
        Ok(notices) => notices,
        Err(error) => {
            note("migrate", &format!("error: {error}"));
            return Ok(ExitStatus::Error);
        }
    };
    let options = CheckOptions {
        jobs: args.running.jobs(),
        on_invalid: args.on_invalid,
        walk: walk.clone(),
    };
    // Invalid documents of the builds are reported on standard error as
    // `validate` reports them, with the closing summary, as `diff` does.
    let settings = Settings::default();
    let err = RefCell::new(BufWriter::new(UntilClosed::new(io::stderr().lock())));
    let colored = args.running.colored(&io::stderr());
    let mut renderer = Text::new(settings.text_filter()).colored(colored);
    let progress = Bar::new(args.running.quiet);
    let mut shared = Shared(&err);
    let mut run = Run::with_settings(&mut renderer, &mut shared, &settings)
        .showing(Shown::Invalid)
        .with_progress(&progress);
    let checked = match check::check(&mut run, notices, &args.old, &args.new, &options) {
        Ok(checked) => checked,
        Err(error) => {
            if !run.checked_nothing() {
                run.finish()?;
            }
            drop(err);
            note("migrate", &format!("error: {error}"));
            return Ok(ExitStatus::Error);
        }
    };
    crate::output::documents_not_sets(&mut *err.borrow_mut(), "migrate", &checked.problems)?;
    let (read_summary, read) = run.finish()?;
    drop(err);
    if !checked.problems.is_empty() {
        match args.on_invalid {
            OnInvalid::Fail => {
                note("migrate", &format!("the notices were not checked: some documents of the builds are invalid or not sets ({}--on-invalid skip leaves them out, keep reads their ids as far as they parse)", ways_out_first(&read_summary)));
                return Ok(ExitStatus::Error);
            }
            OnInvalid::Skip => note(
                "migrate",
                &format!(
                    "note: {} left out, invalid or not sets (--on-invalid skip)",
                    were(checked.problems.len(), "document")
                ),
            ),
            OnInvalid::Keep => {}
        }
    }
    // A closed pipe stops the output, not the run: the exit status still
    // says whether every notice passes.
    let mut out = BufWriter::new(UntilClosed::new(io::stdout().lock()));
    match args.format {
        Format::Text => check::text(&checked, &mut out)?,
        Format::Json => check::json(&checked, &mut out)?,
    }
    out.flush()?;
    if read == ExitStatus::Error {
        return Ok(read);
    }
    Ok(if checked.passes() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}
