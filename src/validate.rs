//! `cardkit validate`: reads each input, validates it and renders the reports.

use std::io;

use cardkit_run::render::{words, Renderer, Statistics};
use cardkit_run::{ExitStatus, Run, Setting, Surface, UntilClosed, Walk};

use crate::options::{
    check_paths, references_level, Discovery, ReferencesLevel, Running, Validation,
};
use crate::output::{note, ReportFormat};
use crate::progress::Bar;

#[derive(clap::Args)]
pub struct Args {
    /// Files or directories to validate; `-` reads standard input (once).
    /// Directories are searched recursively for *.json, *.jsonl and *.ndjson
    /// (in any case), following symbolic links, leaving out what .gitignore
    /// and .ignore ignore, hidden files and folders, and what `exclude`
    /// matches (node_modules/, …); a file found whose kind cannot be told (a
    /// package.json) is skipped and counted. Files named are always checked.
    /// Example: cardkit validate examples/ extra/set.json
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// The report format: `text` (compiler-style diagnostics with the source
    /// line), `concise` (one line per diagnostic, for editors' problem
    /// matchers), `json` (one stable structure, documented in the book, docs/output.md),
    /// `github` (GitHub Actions annotations), `sarif` (SARIF 2.1.0, for code
    /// scanning) or `junit` (JUnit XML: a test case per document).
    /// Example: --format json
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,

    /// Prints, instead of the diagnostics, how many there are of each code
    /// and field (most first), then the summary; the exit status is the
    /// verdict as ever. Example: --statistics
    #[arg(long, conflicts_with = "format")]
    statistics: bool,

    /// The most results the CI formats write: `sarif` keeps 25,000 by
    /// default (the most GitHub code scanning accepts in a run), `github`
    /// 50 (the most annotations GitHub shows for a job). Errors are kept
    /// before warnings, and a closing note says how many were left out; 0
    /// keeps all. The exit status never changes with it.
    /// Example: --format sarif --max-results 0
    #[arg(long, value_name = "N")]
    max_results: Option<usize>,

    /// Skips the files named whose first document's kind cannot be told,
    /// as files found in directories are, instead of reporting them
    /// (`unknown_kind`); a run that skipped every file passes. For hooks
    /// that name every JSON file changed. Example: --skip-unknown-kind
    #[arg(long)]
    skip_unknown_kind: bool,

    // `--references=error`: the value only with `=`, so that the flag
    // alone never takes the path after it.
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", value_parser = references_level,
          help = Setting::References.def().help_for(Surface::CommandLine))]
    references: Option<ReferencesLevel>,

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
        if self.max_results.is_some() && self.format.default_max_results().is_none() {
            let format = if self.statistics {
                "--statistics".to_owned()
            } else {
                format!("--format {}", self.format.name())
            };
            return Err(format!(
                "--max-results caps only --format sarif and --format github, not {format}"
            ));
        }
        self.validation.settings().check(Surface::CommandLine)
    }

    /// The cap of the format's results: the flag's (0: none), else the
    /// format's default.
    fn max_results(&self) -> Option<usize> {
        match self.max_results {
            Some(0) => None,
            Some(limit) => Some(limit),
            None => self.format.default_max_results(),
        }
    }
}

pub fn run(args: &Args, walk: Walk) -> io::Result<ExitStatus> {
    let mut settings = args.validation.settings();
    if let Some(ReferencesLevel(references)) = args.references {
        settings.references = references;
    }
    let mut renderer: Box<dyn Renderer> = if args.statistics {
        Box::new(Statistics::new())
    } else {
        args.format.renderer(
            settings.warning_filter(),
            settings.text_filter(),
            args.running.colored(&io::stdout()),
            args.max_results(),
        )
    };
    let mut out = io::BufWriter::new(UntilClosed::new(io::stdout().lock()));
    let progress = Bar::new(args.running.quiet);
    let walk = Walk {
        skip_named_unknown_kind: args.skip_unknown_kind,
        ..walk
    };
    let found = walk.discover(&args.paths);
    for empty in &found.empty {
        // A directory's files may be there, but left out (a zip archive's
        // members are not).
        let left_out = if empty.is_dir() {
            " that is not ignored, hidden or excluded"
        } else {
            ""
        };
        note(
            "validate",
            &format!(
                "note: {} holds no *.json, *.jsonl or *.ndjson file{left_out}",
                empty.display()
            ),
        );
    }
    let mut run = Run::with_settings(&mut *renderer, &mut out, &settings).with_progress(&progress);
    run.validate_all(found, args.running.jobs())?;
    let nothing = run.checked_nothing();
    let (summary, status) = run.finish()?;
    if nothing && args.skip_unknown_kind && summary.skipped > 0 {
        // The files a hook names were all skipped: there was nothing of
        // cardkit's to check, not a wrong path.
        return Ok(ExitStatus::Success);
    }
    if nothing {
        // A run that passes on nothing would let a CI job pass on a wrong
        // path: it is an error.
        let why = match words::skipped(&summary) {
            None => "no input was found in the paths given".to_owned(),
            Some(skipped) => format!(
                "no card document was found in the paths given ({skipped}: name one, or give --kind, to check it)"
            ),
        };
        note("validate", &format!("error: nothing was checked: {why}"));
    }
    Ok(status)
}
