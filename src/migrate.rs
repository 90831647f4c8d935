//! `cardkit migrate apply`: Migration notices applied to stored references
//! to catalog ids, through `cardkit_diff::apply`; this module parses
//! arguments and prints the report. `cardkit migrate check` ([`check`])
//! checks notices against the builds they are about.

mod check;
mod notices;

use std::io::{self, Write};
use std::path::PathBuf;

use cardkit::schema::Names;
use cardkit_diff::apply::{
    apply_files, store, ApplyOptions, OnDelete, Output, Plan, References, Report,
};
use cardkit_diff::pointer::Pattern;
use cardkit_export::Target;
use cardkit_run::{ExitStatus, Walk};
use clap::Subcommand;

use crate::options::{ConfigFile, Discovery};
use crate::output::note;

#[derive(Subcommand)]
pub enum Command {
    /// Applies Migration notices to references to catalog ids: a column of
    /// CSV files, the strings at a pointer pattern in JSON or JSON Lines
    /// files, or a column of a table of a store made by `cardkit export`.
    ///
    /// Chains of merges are followed (A → B then B → C rewrites A to C);
    /// a cycle, or an id that notices give two outcomes, is an error that
    /// names the notices. Applying the same notices again changes nothing.
    ///
    /// Exit status: 0 when applied (or reported, with --dry-run), 2 for
    /// usage errors, notices that are invalid or cannot be applied, files or
    /// stores that cannot be read or written, and a deleted id with
    /// --on-delete fail (nothing is written then).
    #[command(
        after_help = "Examples:\n  cardkit migrate apply --migrations notices.jsonl --column catalog_id --in-place decks.csv\n  cardkit migrate apply --migrations page1.json --migrations page2.json --pointer '/cards/*/catalogAId' -o new.json collection.json\n  cardkit migrate apply --migrations notices.jsonl --dry-run --column id cards.csv\n  cardkit migrate apply --migrations notices.jsonl --to cards.db --table identifiers --column catalog_a_id --build 2024-05-17"
    )]
    Apply(ApplyArgs),
    /// Checks Migration notices against the two builds they are about: for
    /// each notice, whether its old id is in the old build and no longer in
    /// the new one, and, for a `merge`, whether the id it becomes (the end
    /// of its chain, as `migrate apply` follows it) is in the new build.
    /// Ids are the records' catalog ids (`identifiers.catalogAId`), as
    /// `diff --emit-migrations` writes notices about them: the notices it
    /// writes for two builds pass against them.
    ///
    /// A line per notice, `pass` or `fail`, its id and place; under one
    /// that fails, a line per reason: `old_id_in_new_build`,
    /// `old_id_not_in_old_build`, `new_id_not_in_new_build`.
    ///
    /// Exit status: 0 when every notice passes, 1 when one fails, 2 for
    /// usage errors, notices that are invalid or cannot be applied (a merge
    /// without a new id, a delete with one, another strategy, notices that
    /// disagree or go round in a cycle), builds or files that cannot be
    /// read, and invalid documents in a build (with --on-invalid fail, the
    /// default).
    #[command(
        after_help = "Examples:\n  cardkit migrate check notices.jsonl --old AllPrintings-2024-05-01.json --new AllPrintings-2024-05-02.json\n  cardkit migrate check --format json --names upstream page1.json page2.json --old old/ --new new/"
    )]
    Check(check::CheckArgs),
}

impl Command {
    /// What the arguments ask that cannot be done, beyond what clap checks.
    pub fn check(&self) -> Result<(), String> {
        match self {
            Command::Apply(args) => args.check(),
            Command::Check(args) => args.check(),
        }
    }

    /// The configuration file given (or not).
    pub fn file(&self) -> &ConfigFile {
        match self {
            Command::Apply(args) => &args.file,
            Command::Check(args) => &args.file,
        }
    }

    /// How directories are searched.
    pub fn discovery(&self) -> &Discovery {
        match self {
            Command::Apply(args) => &args.discovery,
            Command::Check(args) => &args.discovery,
        }
    }
}

#[derive(clap::Args)]
pub struct ApplyArgs {
    /// A file of Migration notices: a list object, an array, JSON Lines
    /// (any container `validate` reads), validated first; compressed, a zip
    /// archive or a directory of them as `validate` finds inputs; repeat it
    /// for several files. Example: --migrations page1.json --migrations page2.json
    #[arg(long, value_name = "FILE", required = true)]
    migrations: Vec<PathBuf>,

    /// The wire names the notices use: `spec` (`created_at`,
    /// `old_catalogA_id`) or `upstream`, the catalog's own (`performed_at`,
    /// `old_scryfall_id`). Example: --names upstream
    #[arg(long, value_enum, default_value_t = Names::Spec, value_name = "NAMES")]
    names: Names,

    /// The CSV column (by its header) that holds catalog ids; with --to,
    /// the table's column. Example: --column catalog_id
    #[arg(long, value_name = "NAME", conflicts_with = "pointer")]
    column: Option<String>,

    /// Where catalog ids are in JSON files: a JSON Pointer, `*` for any item
    /// or member. Example: --pointer '/cards/*/catalogAId'
    #[arg(long, value_name = "PATTERN", value_parser = Pattern::parse)]
    pointer: Option<Pattern>,

    /// A store made by `cardkit export` to update (in one transaction):
    /// `sqlite:PATH` (or a path ending in .db or .sqlite) or `postgres://…`.
    /// Example: --to cards.db
    #[arg(long, value_name = "TARGET", value_parser = clap::value_parser!(Target), requires_all = ["table", "column"], conflicts_with_all = ["inputs", "pointer", "output", "in_place"])]
    to: Option<Target>,

    /// With --to: the table. Example: --table cards
    #[arg(long, value_name = "T", requires = "to")]
    table: Option<String>,

    /// With --to: rewrites only the rows of this build (the label given to
    /// `cardkit export --build`); without it, every build the table holds
    /// (the summary says which). Example: --build 2024-05-17
    #[arg(long, value_name = "LABEL", requires = "to")]
    build: Option<String>,

    /// Reports what would change; writes nothing.
    #[arg(long)]
    dry_run: bool,

    /// A reference to a deleted id: `keep` it (and report it), `drop` its
    /// row or item, or `fail` the run (nothing is written).
    /// Example: --on-delete drop
    #[arg(long, value_enum, default_value_t = OnDelete::Keep, value_name = "MODE")]
    on_delete: OnDelete,

    /// Writes the rewritten input here (one input). Example: -o new.csv
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUT",
        conflicts_with = "in_place"
    )]
    output: Option<PathBuf>,

    /// Rewrites each input in its place (atomically: written to a
    /// temporary file beside it, `.NAME.cardkit-XXXXXX.tmp`, then renamed
    /// over it; those that runs killed before their end left are removed
    /// and named).
    #[arg(long)]
    in_place: bool,

    /// Files to rewrite (CSV with --column, JSON or JSON Lines with
    /// --pointer).
    #[arg(value_name = "INPUT")]
    inputs: Vec<PathBuf>,

    #[command(flatten)]
    pub file: ConfigFile,

    #[command(flatten)]
    pub discovery: Discovery,
}

impl ApplyArgs {
    /// What the arguments ask that cannot be done, beyond what clap checks.
    pub fn check(&self) -> Result<(), String> {
        if self.to.is_none() {
            if self.inputs.is_empty() {
                return Err("give the files to rewrite (INPUT...), or a store with --to".into());
            }
            if self.column.is_none() && self.pointer.is_none() {
                return Err(
                    "say where the ids are: --column NAME (CSV) or --pointer PATTERN (JSON)".into(),
                );
            }
            if self.inputs.len() > 1 && !self.in_place && !self.dry_run {
                return Err(
                    "several inputs are rewritten with --in-place (or looked at with --dry-run)"
                        .into(),
                );
            }
        }
        Ok(())
    }
}

pub fn run(command: &Command, walk: &Walk) -> io::Result<ExitStatus> {
    let args = match command {
        Command::Apply(args) => args,
        Command::Check(args) => return check::run(args, walk),
    };
    match apply(args, walk) {
        Ok((mut report, to_stdout)) => {
            let mut out: Box<dyn Write> = if to_stdout {
                Box::new(io::stderr().lock())
            } else {
                Box::new(io::stdout().lock())
            };
            report.text(args.dry_run, &mut out)?;
            Ok(ExitStatus::Success)
        }
        Err(error) => {
            note("migrate", &format!("error: {error}"));
            Ok(ExitStatus::Error)
        }
    }
}

fn apply(args: &ApplyArgs, walk: &Walk) -> Result<(Report, bool), cardkit_diff::Error> {
    let notices = notices::read_all(&args.migrations, args.names, walk)?;
    let plan = Plan::new(notices)?;
    let options = ApplyOptions {
        on_delete: args.on_delete,
        dry_run: args.dry_run,
    };
    if let (Some(target), Some(table), Some(column)) = (&args.to, &args.table, &args.column) {
        let mut report = Report::streaming(Box::new(io::BufWriter::new(io::stdout())));
        store::apply(
            target,
            table,
            column,
            args.build.as_deref(),
            &plan,
            options,
            &mut report,
        )?;
        return Ok((report, false));
    }
    let references = match (&args.column, &args.pointer) {
        (Some(column), _) => References::Column(column.clone()),
        (None, Some(pattern)) => References::Pointer(pattern.clone()),
        (None, None) => unreachable!("checked"),
    };
    let output = match (&args.output, args.in_place) {
        (Some(path), _) => Output::File(path.clone()),
        (None, true) => Output::InPlace,
        (None, false) => Output::Stdout,
    };
    let to_stdout = matches!(output, Output::Stdout) && !args.dry_run;
    // A line per reference changed, written as it is found (to standard
    // error when the rewritten file goes to standard output).
    let sink: Box<dyn Write> = if to_stdout {
        Box::new(io::BufWriter::new(io::stderr()))
    } else {
        Box::new(io::BufWriter::new(io::stdout()))
    };
    let mut report = Report::streaming(sink);
    apply_files(
        &args.inputs,
        &references,
        &plan,
        options,
        &output,
        &mut report,
    )?;
    Ok((report, to_stdout))
}
