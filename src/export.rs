//! `cardkit export`: validates each input and writes its documents' rows to
//! SQLite, PostgreSQL or Parquet, through `cardkit_export`.

use std::cell::RefCell;
use std::io::{self, Write};

use cardkit_export::layout::layout;
use cardkit_export::{Ending, Exporter, InputError, InputsRead, Mode, OnInvalid, Target, Totals};
use cardkit_run::render::words::{plural, were};
use cardkit_run::render::Text;
use cardkit_run::{ExitStatus, Failure, Run, Setting, Shown, Surface, UntilClosed, Walk};

use crate::options::{
    check_paths, references_level, ways_out_first, Discovery, ReferencesLevel, Running, Validation,
};
use crate::output::{note, Shared};
use crate::progress::Bar;

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
    #[arg(long, value_enum, default_value_t = OnInvalid::Fail, value_name = "MODE")]
    on_invalid: OnInvalid,

    /// A label for this build of the data: a `build` column (SQLite,
    /// PostgreSQL) or a `build=LABEL/` partition (Parquet), so that builds
    /// sit side by side. Example: --build 2024-05-17
    #[arg(long, value_name = "LABEL")]
    build: Option<String>,

    /// Empties the build first. Without it, an export adds to what the
    /// target holds: a set exported again replaces that set's rows (by
    /// code), a card, token or product its uuid's, a migration its id's,
    /// and every other row is kept (in Parquet, by files: a run's rows go
    /// into new files, and earlier files are written again without the
    /// sets it replaces).
    #[arg(long)]
    replace: bool,

    /// Exports into a SQLite database that holds other tables than the
    /// export's (another application's): its tables are added beside them,
    /// and its journal mode is left as it is. Without it, such a database
    /// is refused.
    #[arg(long)]
    into_foreign: bool,

    /// Keeps each record's members that the spec does not define (prices,
    /// say), as a JSON object in the `extra` column of the record's table;
    /// without it they are in no table (`extra` is NULL) and the summary
    /// names them. A set's translations keep none.
    #[arg(long)]
    keep_unknown: bool,

    // `--references=error`: the value only with `=`, so that the flag
    // alone never takes the path after it.
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", value_parser = references_level,
          help = Setting::References.def().help_for(Surface::CommandLine))]
    references: Option<ReferencesLevel>,

    /// Prints the tables and columns the export writes (generated from the
    /// field tables), and exits.
    #[arg(long, conflicts_with_all = ["to", "paths"])]
    describe: bool,

    #[command(flatten)]
    pub validation: Validation,

    #[command(flatten)]
    pub discovery: Discovery,

    #[command(flatten)]
    pub running: Running,
}

impl Args {
    /// What the arguments ask that cannot be done, beyond what clap checks.
    pub fn check(&self) -> Result<(), String> {
        check_paths(&self.paths)?;
        self.validation.settings().check(Surface::CommandLine)?;
        if self.build.as_deref().is_some_and(str::is_empty) {
            return Err("--build: the label is empty".into());
        }
        Ok(())
    }
}

pub fn run(args: &Args, walk: &Walk) -> io::Result<ExitStatus> {
    if args.describe {
        let mut out = io::stdout().lock();
        out.write_all(layout().describe_named(args.validation.names).as_bytes())?;
        writeln!(out, "\n{}", stamps())?;
        writeln!(
            out,
            "\nEvery table of a record (all but set_translations, meta and reference_findings) has the column `extra`, the record's members that the spec does not define as one JSON object (SQLite JSON text, PostgreSQL jsonb, Parquet a string of the JSON logical type); `extra` is NULL unless the run is given --keep-unknown. The column is there with or without the flag, so that runs with and without it add to one store."
        )?;
        write!(out, "\n{}", cardkit_export::references::describe())?;
        return Ok(ExitStatus::Success);
    }
    let Some(target) = &args.to else {
        return Ok(ExitStatus::Error);
    };
    let on_invalid = args.on_invalid;
    let mut settings = args.validation.settings();
    if let Some(ReferencesLevel(references)) = args.references {
        settings.references = references;
    }
    let build = args.build.as_deref();
    let mode = if args.replace {
        Mode::Replace
    } else {
        Mode::Append
    };
    let opened = Exporter::open_with(
        target,
        on_invalid,
        build,
        args.running.jobs(),
        mode,
        args.into_foreign,
    );
    let mut exporter = match opened {
        Ok(exporter) => exporter,
        Err(error) => {
            note("export", &format!("error: {error}"));
            return Ok(ExitStatus::Error);
        }
    };
    exporter.keep_unknown(args.keep_unknown);
    // The report of invalid documents goes to standard error, where the
    // export's notes go too, in order. A closed stderr stops the report, not
    // the run: the exit status still says whether everything was exported.
    let err = RefCell::new(io::BufWriter::new(UntilClosed::new(io::stderr().lock())));
    let colored = args.running.colored(&io::stderr());
    let mut renderer = Text::new(settings.text_filter()).colored(colored);
    let progress = Bar::new(args.running.quiet);
    let mut out = Shared(&err);
    let mut run = Run::with_settings(&mut renderer, &mut out, &settings)
        .showing(Shown::Invalid)
        .with_progress(&progress);
    // The references are read from the tapes the rows are made from.
    exporter.reading_references(run.references());
    let mut check = |name: &str,
                     reader: &mut dyn io::Read,
                     options: &cardkit::Options,
                     on_document: &mut dyn FnMut(&cardkit::DocumentReport)| {
        let noted = |text: &str| {
            let _ = err.borrow_mut().flush();
            note("export", text);
        };
        exporter
            .input(name, reader, options, on_document, noted)
            .map_err(|error| match error {
                InputError::Read(error) => Failure::Read(error),
                InputError::Store(error) => {
                    Failure::Abort(format!("{error}; nothing was exported"))
                }
            })
    };
    run.all(walk.discover(&args.paths), &mut check)?;
    run.finish_references(&mut |found| exporter.found_reference(found))?;
    let (none_found, stopped) = (run.checked_nothing(), run.aborted().map(str::to_owned));
    let (summary, status) = run.finish()?;
    drop(err);
    let read = InputsRead {
        stopped,
        none_found,
        unreadable: summary.unreadable,
    };
    let totals = match exporter.end(read) {
        Ending::Exported(totals) => totals,
        Ending::Aborted(why) => {
            note("export", &format!("error: {why}"));
            return Ok(ExitStatus::Error);
        }
        Ending::NothingFound => {
            note(
                "export",
                "error: nothing was exported: no input was found in the paths given",
            );
            return Ok(ExitStatus::Error);
        }
        Ending::Unreadable { .. } => {
            note(
                "export",
                "error: an input could not be read: nothing was exported",
            );
            return Ok(ExitStatus::Error);
        }
        Ending::StoreFailed(error) => {
            note("export", &format!("error: {error}; nothing was exported"));
            return Ok(ExitStatus::Error);
        }
        Ending::Invalid { left_out } => {
            note("export", &format!(
                "nothing was exported to {target}: {left_out} of {} are invalid or cannot be exported ({}--on-invalid skip leaves them out, keep exports them with NULLs)",
                plural(summary.documents, "document"),
                ways_out_first(&summary)
            ));
            return Ok(status.and(ExitStatus::Failure));
        }
    };
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
        "exported {} to {target}{}: {} ({})",
        plural(totals.exported, "document"),
        build.map_or(String::new(), |b| format!(" as build {b}")),
        plural(totals.rows.iter().sum::<usize>(), "row"),
        rows.join(", ")
    )?;
    if totals.kept_invalid > 0 {
        writeln!(
            out,
            "{} kept with invalid or missing values as NULL",
            were(totals.kept_invalid, "invalid document")
        )?;
    }
    if totals.left_out > 0 {
        writeln!(out, "{} left out", were(totals.left_out, "document"))?;
    }
    if totals.invalid_by_references > 0 {
        writeln!(
            out,
            "{} made invalid by errors in {} references, found once every document was written: {} exported (reference_findings holds the findings)",
            were(totals.invalid_by_references, "exported document"),
            if totals.invalid_by_references == 1 { "its" } else { "their" },
            if totals.invalid_by_references == 1 { "it stays" } else { "they stay" },
        )?;
    }
    for line in changes(&totals) {
        writeln!(out, "{line}")?;
    }
    let left_out = if totals.left_out > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    };
    Ok(status.and(left_out))
}

/// Where each store says which layout it holds.
fn stamps() -> String {
    format!(
        "Each store says which layout version it holds: the `meta` table's layout_version column; SQLite PRAGMA user_version = {v} (and PRAGMA application_id = {id:#x}); each Parquet file's key-value metadata `{key}` = {v}; a comment on each PostgreSQL table (\"cardkit export, layout version {v}\").",
        v = cardkit_export::layout::LAYOUT_VERSION,
        id = cardkit_export::sqlite::APPLICATION_ID,
        key = cardkit_export::parquet::LAYOUT_KEY,
    )
}

/// The summary's lines on what the run added, replaced and did not export.
fn changes(totals: &Totals) -> Vec<String> {
    let changes = &totals.changes;
    let mut lines = Vec::new();
    let replaced: usize = changes.replaced_sets.len();
    let added = totals.sets.saturating_sub(replaced);
    let mut parts = Vec::new();
    if changes.emptied {
        parts.push("emptied the build first (--replace)".to_owned());
    }
    if added > 0 {
        parts.push(format!("added {}", plural(added, "set")));
    }
    if replaced > 0 {
        let sets: Vec<&str> = changes
            .replaced_sets
            .iter()
            .take(10)
            .map(String::as_str)
            .collect();
        let more = if replaced > sets.len() { ", …" } else { "" };
        parts.push(format!(
            "replaced {} already there ({}{more})",
            plural(replaced, "set"),
            sets.join(", ")
        ));
    }
    if changes.replaced_migrations > 0 {
        parts.push(format!(
            "replaced {} already there",
            plural(changes.replaced_migrations, "migration")
        ));
    }
    if changes.removed_rows > 0 {
        parts.push(format!(
            "{} of what was there removed",
            plural(changes.removed_rows, "row")
        ));
    }
    if !parts.is_empty() {
        lines.push(parts.join("; "));
    }
    if totals.duplicate_count > 0 {
        let n = totals.duplicate_count;
        let what = if n == 1 {
            "set or migration was"
        } else {
            "sets or migrations were"
        };
        let named = if n > totals.duplicates.len() {
            format!("the first {} named above", totals.duplicates.len())
        } else {
            "each named above".to_owned()
        };
        lines.push(format!(
            "{n} {what} read twice ({named}): the later of each is kept"
        ));
    }
    if changes.moved > 0 {
        let mut line = format!(
            "{} stored under another set before: that set's rows of them were removed",
            plural(changes.moved, "uuid")
        );
        for note in &changes.moved_notes {
            line.push_str(&format!("\n  {note}"));
        }
        if changes.moved > changes.moved_notes.len() {
            line.push_str("\n  …");
        }
        lines.push(line);
    }
    if !changes.stale_removed.is_empty() {
        let files: Vec<String> = changes
            .stale_removed
            .iter()
            .map(|(name, bytes)| format!("{name}, {bytes} bytes"))
            .collect();
        lines.push(format!(
            "removed {} that runs killed before their end had left beside the database: {}",
            plural(files.len(), "temporary file"),
            files.join("; ")
        ));
    }
    if totals.unkeyed > 0 {
        lines.push(format!(
            "{} of cards, tokens or products without a uuid (kept invalid): no later export can replace them",
            plural(totals.unkeyed, "row")
        ));
    }
    let keeping = totals.keeping_unknown;
    let unnamed = totals.not_exported_unnamed;
    let kinds = totals.kept_unknown.len();
    if keeping && (kinds > 0 || unnamed > 0) {
        lines.push(format!(
            "kept in `extra`: {} the spec does not define: {}",
            plural(kinds, "member"),
            named_members(&totals.kept_unknown, unnamed)
        ));
    }
    let kinds = totals.not_exported.len();
    let unnamed = if keeping { 0 } else { unnamed };
    if kinds > 0 || unnamed > 0 {
        let (where_, hint) = if keeping {
            ("in a set's translations", "")
        } else {
            ("in no table", " — --keep-unknown keeps them")
        };
        lines.push(format!(
            "not exported: {} the spec does not define, {where_}: {}{hint}",
            plural(kinds, "member"),
            named_members(&totals.not_exported, unnamed)
        ));
    }
    lines
}

/// The most frequent members of `members` (`Model.name` and how many
/// times), and how many more were not named.
fn named_members(members: &[(String, usize)], unnamed: usize) -> String {
    let named: Vec<String> = members
        .iter()
        .take(8)
        .map(|(name, n)| format!("`{name}` ({n}×)"))
        .collect();
    let more = if members.len() > named.len() {
        ", …"
    } else {
        ""
    };
    let unnamed = if unnamed > 0 {
        format!(
            "{}{unnamed} more not named",
            if named.is_empty() { "" } else { "; " },
        )
    } else {
        String::new()
    };
    format!("{}{more}{unnamed}", named.join(", "))
}
