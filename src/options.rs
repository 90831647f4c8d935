//! The options every command that validates takes, defined once and
//! flattened into each command: the validation itself ([`Validation`]) and
//! how the run goes ([`Running`]).

use cardkit::report::WarningFilter;
use cardkit::run::{Settings, MAX_JOBS};
use cardkit::schema::Version;
use cardkit::validate;
use cardkit::Kind;
use clap::ValueEnum;

use crate::kind;

/// What is checked, and how it is reported.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Validation")]
pub struct Validation {
    /// The kind of the documents. `auto` tells each document's kind from its
    /// members (see the README for the rules). Example: --kind set
    #[arg(long, value_name = "KIND", value_parser = kind::or_auto_parser(), default_value = "auto")]
    // `None` for `auto`. The path is spelled out so that clap takes the
    // whole `Option` as the value instead of making the flag optional.
    pub kind: std::option::Option<Kind>,

    /// Treats members the spec does not define as errors instead of warnings.
    /// Example: --deny-unknown-fields
    #[arg(long)]
    pub deny_unknown_fields: bool,

    /// Validates as consumers of this version of the Set format see the
    /// documents: fields introduced later are reported (`newer_field`) and
    /// not required. Example: --as-of v5.0.0
    #[arg(long, value_name = "vX.Y.Z", value_parser = validate::as_of_version)]
    pub as_of: Option<Version>,

    /// With --as-of, makes fields newer than that version errors instead of
    /// warnings. Example: --as-of v4.6.0 --strict-version
    #[arg(long, requires = "as_of")]
    pub strict_version: bool,

    /// Extra warnings to report: `deprecated` reports deprecated fields that
    /// are present (`deprecated_field`). Example: --warn deprecated
    #[arg(long, value_enum, value_name = "WHAT")]
    pub warn: Vec<Warn>,

    /// How many warnings of each kind (same code and field) are shown before
    /// the rest are only counted; 0 shows all. Example: --warning-limit 10
    #[arg(long, default_value_t = WarningFilter::DEFAULT_LIMIT, value_name = "N")]
    pub warning_limit: usize,
}

/// Extra warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Warn {
    /// Deprecated fields that are present.
    Deprecated,
}

impl Validation {
    /// The library's settings these flags ask for.
    pub fn settings(&self) -> Settings {
        Settings {
            kind: self.kind,
            as_of: self.as_of,
            strict_version: self.strict_version,
            deny_unknown_fields: self.deny_unknown_fields,
            warn_deprecated: self.warn.contains(&Warn::Deprecated),
            warning_limit: self.warning_limit,
        }
    }
}

/// How the run goes: threads, progress.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Running")]
pub struct Running {
    /// How many threads validate documents, from 1 to 256 (default: one per
    /// core, at most 256); with more than one, the reading thread finds where
    /// documents end and hands them out. The output is the same whatever the
    /// number. Example: --jobs 1
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_JOBS as i64))]
    pub jobs: Option<u16>,

    /// Shows no progress bar. Without it, a bar is shown on standard error
    /// when it is a terminal, for inputs of 32 MB and more and for standard
    /// input; the report itself is the same. Example: --quiet
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// When to colour the text report: `auto` on a terminal that shows
    /// colour (unless NO_COLOR is set; CLICOLOR_FORCE forces it), `always`
    /// or `never`. Files, pipes and the machine formats are never coloured
    /// under `auto`. Example: --color never
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
}

/// When to colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// On a terminal that shows colour, as NO_COLOR and CLICOLOR_FORCE say.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl Running {
    /// The threads to validate on.
    pub fn jobs(&self) -> usize {
        cardkit::run::jobs(self.jobs.map(usize::from))
    }

    /// Whether the text report written to `stream` is coloured.
    pub fn colored(&self, stream: &impl anstream::stream::RawStream) -> bool {
        match self.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never,
        }
    }
}

/// The paths given, checked: standard input can be read once.
pub fn check_paths(paths: &[String]) -> Result<(), String> {
    let stdin = paths.iter().filter(|path| *path == "-").count();
    if stdin > 1 {
        return Err(format!(
            "`-` is given {stdin} times: standard input can be read once"
        ));
    }
    Ok(())
}

/// What to do with invalid documents, in the same words on every command
/// that uses documents beyond validating them (`export`, `diff`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnInvalidWords {
    /// Stop: nothing is written, the diagnostics are printed.
    Fail,
    /// Leave invalid documents out, and report them.
    Skip,
    /// Use them too, as far as they go.
    Keep,
}
