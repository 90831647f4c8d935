//! `cardkit diff OLD NEW`: what changed between two builds of sets, through
//! `cardkit_diff`; this module parses arguments and renders. Each build is
//! read through a `cardkit_run::Run`, so that invalid documents are
//! reported as `validate` reports them.

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use cardkit_diff::pointer::{Ignore, Pattern};
use cardkit_diff::{render, DiffOptions, OnInvalid};
use cardkit_run::render::words::were;
use cardkit_run::render::Text;
use cardkit_run::{ExitStatus, Run, Shown, Surface, UntilClosed, Walk};
use clap::ValueEnum;

use crate::options::{
    references_level, ways_out_first, Discovery, ReferencesLevel, Running, Validation,
};
use crate::output::{note, Shared};
use crate::progress::Bar;

#[derive(clap::Args)]
pub struct Args {
    /// The old build: a file (a set, a wrapped set, a catalog, a code map or
    /// JSON Lines of sets) or a directory (every *.json, *.jsonl and
    /// *.ndjson file in it, searched recursively: one build). Standard input
    /// and pipes cannot be diffed: each input is read twice.
    /// Example: AllPrintings-2024-05-01.json
    #[arg(value_name = "OLD")]
    old: PathBuf,

    /// The new build, as OLD. Example: AllPrintings-2024-05-02.json
    #[arg(value_name = "NEW")]
    new: PathBuf,

    /// The report: `text` (summary first, then each set, then the drift,
    /// then the references broken), `json` (one document) or `jsonl` (a
    /// line per set, record, drift, reference broken and problem, then the
    /// summary). Example: --format jsonl
    #[arg(long, value_enum, default_value_t = Format::Text, value_name = "FORMAT")]
    format: Format,

    /// Prints the summary alone (each build and the totals), in the
    /// format asked for: no sets, records or drift.
    #[arg(long)]
    stat: bool,

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

    /// Checks the references between each build's documents, as validate
    /// --references checks them, and reports those the change breaks (the
    /// findings NEW has and OLD had not: a face or variation naming a record
    /// removed or re-keyed, a new reference naming nothing, a uuid now given
    /// twice), counting those it fixes. The configuration's `references`
    /// turns it on too; `--references=false` turns it off (`error` is taken
    /// as `true`: what a diff finds are differences). It costs a third to
    /// twice the time of the diff. Example: --references
    // The value only with `=`, so that the flag alone never takes OLD.
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", value_parser = references_level)]
    references: Option<ReferencesLevel>,

    /// What to do with invalid documents (and documents that are not sets):
    /// `fail` reports them and diffs nothing (exit status 2), `skip` leaves
    /// them out (a set with the code of an invalid one is diffed on neither
    /// side), `keep` diffs them as far as they parse.
    /// Example: --on-invalid skip
    #[arg(long, value_enum, default_value_t = OnInvalid::Fail, value_name = "MODE")]
    on_invalid: OnInvalid,

    #[command(flatten)]
    pub validation: Validation,

    #[command(flatten)]
    pub discovery: Discovery,

    #[command(flatten)]
    pub running: Running,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Jsonl,
}

impl Args {
    /// What the arguments ask that cannot be done, beyond what clap checks:
    /// the settings, inputs that cannot be read twice, and notices that
    /// would be written over a build. Refused before anything is read.
    pub fn check(&self) -> Result<(), String> {
        self.validation.settings().check(Surface::CommandLine)?;
        for path in [&self.old, &self.new] {
            if let Some(why) = cardkit_diff::unseekable(path) {
                return Err(why);
            }
        }
        // Checked by the file itself (links followed, and every file in a
        // directory given).
        if let Some(out) = &self.emit_migrations {
            if let Some(why) = overwrites(out, &[&self.old, &self.new]) {
                return Err(why);
            }
        }
        Ok(())
    }
}

pub fn run(args: &Args, walk: Walk) -> io::Result<ExitStatus> {
    let mut settings = args.validation.settings();
    // The flag, else the configuration's; the diff reads them itself, on
    // its pass over each build, not the run.
    let references = match args.references {
        Some(ReferencesLevel(level)) => level.is_some(),
        None => settings.references.is_some(),
    };
    settings.references = None;
    let on_invalid = args.on_invalid;
    let options = DiffOptions {
        validate: settings.options(false),
        jobs: args.running.jobs(),
        ignore: Ignore(args.ignore.clone()),
        on_invalid,
        walk,
        references,
    };
    // Invalid documents are reported on standard error as `validate`
    // reports them, with the closing summary; the notes go there too, in
    // order. A closed stderr stops the report, not the diff.
    let err = RefCell::new(BufWriter::new(UntilClosed::new(io::stderr().lock())));
    let colored = args.running.colored(&io::stderr());
    let mut renderer = Text::new(settings.text_filter()).colored(colored);
    let progress = Bar::new(args.running.quiet);
    let mut shared = Shared(&err);
    let mut run = Run::with_settings(&mut renderer, &mut shared, &settings)
        .showing(Shown::Invalid)
        .with_progress(&progress);
    let diffed = cardkit_diff::diff_in(&mut run, &args.old, &args.new, &options);
    let diff = match diffed {
        Ok(diff) => diff,
        Err(error) => {
            // What was read is summed up, then why the diff stopped.
            if !run.checked_nothing() {
                run.finish()?;
            }
            drop(err);
            note("diff", &format!("error: {error}"));
            return Ok(ExitStatus::Error);
        }
    };
    crate::output::documents_not_sets(&mut *err.borrow_mut(), "diff", &diff.problems)?;
    let (read_summary, read) = run.finish()?;
    drop(err);
    if !diff.problems.is_empty() && on_invalid == OnInvalid::Fail {
        note("diff", &format!("the builds were not diffed: some documents are invalid or not sets ({}--on-invalid skip leaves them out, keep diffs them as far as they parse)", ways_out_first(&read_summary)));
        return Ok(ExitStatus::Error);
    }
    if on_invalid == OnInvalid::Skip && !diff.problems.is_empty() {
        let sets = if diff.left_out.is_empty() {
            String::new()
        } else {
            let codes: Vec<&str> = diff
                .left_out
                .iter()
                .map(|code| if code.is_empty() { "(no code)" } else { code })
                .collect();
            format!(
                "; sets with their codes were diffed on neither side: {}",
                codes.join(", ")
            )
        };
        note(
            "diff",
            &format!(
                "note: {} left out, invalid or not sets (--on-invalid skip){sets}",
                were(diff.problems.len(), "document")
            ),
        );
    }
    if let Some(path) = &args.emit_migrations {
        let builds: Vec<PathBuf> = [&args.old, &args.new]
            .into_iter()
            .filter(|build| build.is_file())
            .cloned()
            .collect();
        if let Err(error) = write_migrations(path, &diff.migrations, &builds) {
            note("diff", &format!("error: {error}"));
            return Ok(ExitStatus::Error);
        }
    }
    // A closed pipe (`cardkit diff … | head`) stops the output, not the run:
    // the exit status still says whether the builds differ.
    let mut out = BufWriter::new(UntilClosed::new(io::stdout().lock()));
    match (args.format, args.stat) {
        (Format::Text, false) => render::text(&diff, &mut out)?,
        (Format::Json, false) => render::json(&diff, &mut out)?,
        (Format::Jsonl, false) => render::json_lines(&diff, &mut out)?,
        (Format::Text, true) => render::text_stat(&diff, &mut out)?,
        (Format::Json, true) => render::json_stat(&diff, &mut out)?,
        (Format::Jsonl, true) => render::json_lines_stat(&diff, &mut out)?,
    }
    out.flush()?;
    // The status tells whether the builds differ: documents left out or
    // diffed as far as they parse (--on-invalid skip or keep) are reported
    // on standard error, and an input that could not be read fails the run.
    if read == ExitStatus::Error {
        return Ok(read);
    }
    // 1: the builds differ.
    Ok(if diff.summary.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

/// The notices, written beside `path` and renamed over it (a file there is
/// replaced, as each run makes the notices anew; the builds were refused
/// as its place before the diff, and are refused again here).
fn write_migrations(
    path: &std::path::Path,
    notices: &[cardkit_diff::notices::MigrationNotice],
    builds: &[PathBuf],
) -> Result<(), cardkit_run::output::Refused> {
    let rules = cardkit_run::output::Rules {
        inputs: builds,
        replace: true,
        suffix: ".tmp",
    };
    let failed = |error: io::Error| cardkit_run::output::Refused::Io(path.to_path_buf(), error);
    cardkit_run::output::write(path, &rules, |out| {
        for notice in notices {
            serde_json::to_writer(&mut *out, notice).map_err(|e| failed(e.into()))?;
            writeln!(out).map_err(failed)?;
        }
        Ok(true)
    })
    .map(|_| ())
}

/// What tells a file from another: its device and inode (its canonical
/// path where there are none); links followed.
#[cfg(unix)]
type FileId = (u64, u64);
#[cfg(not(unix))]
type FileId = PathBuf;

#[cfg(unix)]
fn file_id(path: &std::path::Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(path: &std::path::Path) -> Option<FileId> {
    std::fs::canonicalize(path).ok()
}

/// Why writing to `out` would overwrite one of `inputs` (the same file:
/// same device and inode, symbolic links followed, a file inside an input
/// directory included), or `None`.
fn overwrites(out: &std::path::Path, inputs: &[&PathBuf]) -> Option<String> {
    // A file that does not exist yet is none of the inputs.
    let target = file_id(out)?;
    for input in inputs {
        let found = if input.is_dir() {
            let mut seen = std::collections::HashSet::new();
            within(input, &target, &mut seen)
        } else {
            (file_id(input).as_ref() == Some(&target)).then(|| input.to_path_buf())
        };
        if let Some(file) = found {
            let which = if file == **input {
                format!("{} (given as a build)", input.display())
            } else {
                format!("{}, in the build {}", file.display(), input.display())
            };
            return Some(format!(
                "--emit-migrations {} would be written over {which}: write the notices to another file",
                out.display()
            ));
        }
    }
    None
}

/// The file under `dir` (searched recursively, links followed, each
/// directory once) that is the file `target`.
fn within(
    dir: &std::path::Path,
    target: &FileId,
    seen: &mut std::collections::HashSet<FileId>,
) -> Option<PathBuf> {
    if !seen.insert(file_id(dir)?) {
        return None;
    }
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = within(&path, target, seen) {
                return Some(found);
            }
        } else if file_id(&path).as_ref() == Some(target) {
            return Some(path);
        }
    }
    None
}
