//! `cardkit validate`: reads each input, validates it and renders the reports.

use std::io;

use cardkit::render::{Concise, Github, Json, Junit, Renderer, Sarif, Statistics, Text};
use cardkit::run::{discover, ExitStatus, Run, UntilClosed};
use clap::ValueEnum;

use crate::options::{check_paths, Running, Validation};
use crate::output::note;
use crate::progress::Bar;

#[derive(clap::Args)]
pub struct Args {
    /// Files or directories to validate; `-` reads standard input (once).
    /// Directories are searched recursively for *.json, *.jsonl and *.ndjson
    /// (in any case), following symbolic links.
    /// Example: cardkit validate examples/ extra/set.json
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// The report format: `text` (compiler-style diagnostics with the source
    /// line), `concise` (one line per diagnostic, for editors' problem
    /// matchers), `json` (one stable structure, documented in the README),
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

    #[command(flatten)]
    pub validation: Validation,

    #[command(flatten)]
    pub running: Running,
}

/// The format of `validate`'s report.
#[derive(Clone, Copy, ValueEnum)]
enum ReportFormat {
    Text,
    Concise,
    Json,
    Github,
    Sarif,
    Junit,
}

impl Args {
    /// What the arguments ask that cannot be done, beyond what clap checks.
    pub fn check(&self) -> Result<(), String> {
        check_paths(&self.paths)?;
        self.validation.settings().check()
    }
}

pub fn run(args: &Args) -> io::Result<ExitStatus> {
    let settings = args.validation.settings();
    let filter = settings.warning_filter();
    let mut renderer: Box<dyn Renderer> = match args.format {
        _ if args.statistics => Box::new(Statistics::new()),
        ReportFormat::Text => {
            Box::new(Text::new(settings.text_filter()).colored(args.running.colored(&io::stdout())))
        }
        ReportFormat::Concise => Box::new(Concise::new(filter)),
        ReportFormat::Json => Box::new(Json::new(filter)),
        ReportFormat::Github => Box::new(Github::new(filter)),
        ReportFormat::Sarif => Box::new(Sarif::new(filter, std::env::current_dir().ok())),
        ReportFormat::Junit => Box::new(Junit::new(filter)),
    };
    let mut out = io::BufWriter::new(UntilClosed::new(io::stdout().lock()));
    let progress = Bar::new(args.running.quiet);
    let found = discover(&args.paths);
    for directory in &found.empty {
        note(
            "validate",
            &format!(
                "note: {} holds no *.json, *.jsonl or *.ndjson file",
                directory.display()
            ),
        );
    }
    let mut run = Run::with_settings(&mut *renderer, &mut out, &settings).with_progress(&progress);
    run.validate_all(found, args.running.jobs())?;
    let nothing = run.checked_nothing();
    let (_, status) = run.finish()?;
    if nothing {
        // A run that passes on nothing would let a CI job pass on a wrong
        // path: it is an error.
        note(
            "validate",
            "error: nothing was checked: no input was found in the paths given",
        );
    }
    Ok(status)
}
