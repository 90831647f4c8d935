//! The options every command that validates takes, defined once and
//! flattened into each command: the validation itself ([`Validation`]) and
//! how the run goes ([`Running`]).

use std::path::PathBuf;

use cardkit::config::{Color, Config, ConfigError};
use cardkit::report::WarningFilter;
use cardkit::run::{check_glob, Settings, Walk, MAX_JOBS};
use cardkit::schema::Version;
use cardkit::table::Names;
use cardkit::validate::{self, Filter};
use cardkit::Kind;
use clap::parser::ValueSource;
use clap::{ArgMatches, ValueEnum};

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
    /// not required. `auto` (the default) checks each file as of the
    /// version its `meta.version` declares, wherever the file keeps it
    /// (the latest when it declares none, or one newer than cardkit knows),
    /// and its report says which; `latest` checks every file as of the
    /// latest version. Example: --as-of v5.0.0, --as-of latest
    #[arg(long, value_name = "auto|latest|vX.Y.Z", value_parser = as_of)]
    pub as_of: Option<AsOf>,

    /// The wire names the documents use: `auto` (the default) reads each
    /// document under the names it uses, told from its members and said in
    /// its file's report; `spec`, the spec's neutral names (`iconCode`,
    /// `catalogAId`), or `upstream`, the publishers' own (`keyruneCode`,
    /// `scryfallId`, a migration's `performed_at`), read as the spec's
    /// fields and reported under the file's names. What cardkit writes
    /// (notices, field lists, schemas) follows what it read.
    /// Example: --names spec
    #[arg(long, value_enum, default_value_t = WireNames::Auto, value_name = "NAMES")]
    pub names: WireNames,

    /// Checks against the spec itself: its names and the latest version
    /// (`--names spec --as-of latest`), whatever a file uses or declares.
    /// Example: --strict
    #[arg(long, conflicts_with_all = ["as_of", "names"])]
    pub strict: bool,

    /// With --as-of, makes fields newer than that version errors instead of
    /// warnings. Example: --as-of v4.6.0 --strict-version
    // Checked with the configuration's as-of too, not by clap.
    #[arg(long)]
    pub strict_version: bool,

    /// Extra warnings to report: `deprecated` reports deprecated fields that
    /// are present (`deprecated_field`). Example: --warn deprecated
    #[arg(long, value_enum, value_name = "WHAT")]
    pub warn: Vec<Warn>,

    /// How many warnings of each kind (same code and field) are shown before
    /// the rest are only counted; 0 shows all. Example: --warning-limit 10
    #[arg(long, default_value_t = WarningFilter::DEFAULT_LIMIT, value_name = "N")]
    pub warning_limit: usize,

    /// How many errors of each kind (same code and field) are shown before
    /// the rest are only counted in a closing note; 0 shows all. Default: 10
    /// in the text report; every error in the machine formats unless given.
    /// The exit status never changes with it. Example: --error-limit 0
    #[arg(long, value_name = "N")]
    pub error_limit: Option<usize>,

    #[command(flatten)]
    pub file: ConfigFile,

    /// The configuration's `ignore` and `extend-allowed`, compiled.
    #[arg(skip)]
    pub filter: Option<&'static Filter>,
}

/// Which configuration file is read.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "Configuration")]
pub struct ConfigFile {
    /// Reads the options from this file (a cardkit.toml, or a pyproject.toml's
    /// [tool.cardkit]) instead of the one found upward from the working
    /// directory (or named by CARDKIT_CONFIG). Flags given override it.
    /// Example: --config ci/cardkit.toml
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,

    /// Reads no configuration file: only the flags and the defaults count.
    /// Example: --no-config
    #[arg(long)]
    pub no_config: bool,
}

impl ConfigFile {
    /// The configuration that applies: `--config`, else `CARDKIT_CONFIG`,
    /// else the one found upward from the working directory; none with
    /// `--no-config`.
    ///
    /// # Errors
    /// The file is invalid or cannot be read.
    pub fn read(&self) -> Result<Option<Config>, ConfigError> {
        if self.no_config {
            return Ok(None);
        }
        let named = self.config.clone().or_else(|| {
            std::env::var_os("CARDKIT_CONFIG")
                .filter(|path| !path.is_empty())
                .map(PathBuf::from)
        });
        match named {
            Some(path) => Config::load(&path).map(Some),
            None => Config::find(std::path::Path::new(".")),
        }
    }
}

/// Where each option's value comes from: `--flag`, `FILE:LINE` or
/// `default`, by the configuration's key.
pub type Origins = Vec<(&'static str, String)>;

/// Whether the argument `id` was given on the command line (not a default).
fn given(matches: &ArgMatches, id: &str) -> bool {
    matches!(
        matches.try_get_raw(id).map(|_| matches.value_source(id)),
        Ok(Some(ValueSource::CommandLine | ValueSource::EnvVariable))
    )
}

/// Lays the configuration file's values under the flags given: a flag on
/// the command line wins, then the file, then the default. Returns the
/// configuration read, and where each value came from.
///
/// # Errors
/// The configuration file is invalid or cannot be read.
pub fn configure(
    validation: &mut Validation,
    running: &mut Running,
    matches: &ArgMatches,
) -> Result<(Option<Config>, Origins), ConfigError> {
    let config = validation.file.read()?;
    let origins: Origins = FLAGS
        .iter()
        .map(|&(key, id, flag)| {
            let from = if !id.is_empty() && given(matches, id) {
                flag.to_owned()
            } else {
                config
                    .as_ref()
                    .and_then(|c| c.source(key))
                    .unwrap_or_else(|| "default".to_owned())
            };
            (key, from)
        })
        .collect();
    let Some(file) = &config else {
        return Ok((config, origins));
    };
    let origin = |key: &str| {
        origins
            .iter()
            .any(|(k, from)| *k == key && from != "default" && !from.starts_with("--"))
    };
    if origin("kind") {
        validation.kind = file.kind.as_ref().and_then(|e| e.value);
    }
    if origin("as-of") {
        validation.as_of = file.as_of.as_ref().map(|e| AsOf::from(e.value));
    }
    if origin("strict") {
        validation.strict = file.strict.as_ref().is_some_and(|e| e.value);
    }
    if origin("names") {
        if let Some(names) = &file.names {
            validation.names = WireNames::from(names.value);
        }
    }
    if origin("strict-version") {
        validation.strict_version = file.strict_version.as_ref().is_some_and(|e| e.value);
    }
    if origin("deny-unknown-fields") {
        validation.deny_unknown_fields = file.deny_unknown_fields.as_ref().is_some_and(|e| e.value);
    }
    if origin("warn") {
        let deprecated = file.warn_deprecated.as_ref().is_some_and(|e| e.value);
        validation.warn = if deprecated {
            vec![Warn::Deprecated]
        } else {
            Vec::new()
        };
    }
    if origin("warning-limit") {
        if let Some(limit) = &file.warning_limit {
            validation.warning_limit = limit.value;
        }
    }
    if origin("error-limit") {
        if let Some(limit) = &file.error_limit {
            validation.error_limit = Some(limit.value);
        }
    }
    if origin("jobs") {
        // Checked to be 1 to MAX_JOBS as the file was read.
        running.jobs = file.jobs.as_ref().and_then(|e| u16::try_from(e.value).ok());
    }
    if origin("color") {
        if let Some(color) = &file.color {
            running.color = match color.value {
                Color::Auto => ColorWhen::Auto,
                Color::Always => ColorWhen::Always,
                Color::Never => ColorWhen::Never,
            };
        }
    }
    validation.filter = file.filter;
    Ok((config, origins))
}

/// The configuration's keys, with the id and the flag of each.
const FLAGS: [(&str, &str, &str); 15] = [
    ("kind", "kind", "--kind"),
    ("as-of", "as_of", "--as-of"),
    ("names", "names", "--names"),
    ("strict", "strict", "--strict"),
    ("strict-version", "strict_version", "--strict-version"),
    (
        "deny-unknown-fields",
        "deny_unknown_fields",
        "--deny-unknown-fields",
    ),
    ("warn", "warn", "--warn"),
    ("warning-limit", "warning_limit", "--warning-limit"),
    ("error-limit", "error_limit", "--error-limit"),
    ("jobs", "jobs", "--jobs"),
    ("color", "color", "--color"),
    ("ignore", "", ""),
    ("extend-allowed", "", ""),
    ("exclude", "", ""),
    // `--exclude` adds to the file's `extend-exclude`.
    ("extend-exclude", "exclude", "--exclude"),
];

/// What `--as-of` takes: `auto`, `latest`, or a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsOf {
    /// Each file as of the version it declares.
    Auto,
    /// This version; `None` for the latest.
    Version(Option<Version>),
}

impl From<cardkit::config::AsOf> for AsOf {
    fn from(as_of: cardkit::config::AsOf) -> Self {
        match as_of {
            cardkit::config::AsOf::Auto => AsOf::Auto,
            cardkit::config::AsOf::Latest => AsOf::Version(None),
            cardkit::config::AsOf::Version(version) => AsOf::Version(Some(version)),
        }
    }
}

/// Reads `--as-of`: `auto`, `latest`, or a version as the library reads it.
fn as_of(text: &str) -> Result<AsOf, String> {
    match text {
        "auto" => Ok(AsOf::Auto),
        "latest" => Ok(AsOf::Version(None)),
        _ => validate::as_of_version(text).map(|version| AsOf::Version(Some(version))),
    }
}

/// Reads `--as-of` where there is no file to read a version from (`schema`):
/// a version, as for validate; `auto` is refused, and `latest` is what
/// leaving the flag out gives.
pub fn as_of_version(text: &str) -> Result<Version, String> {
    match as_of(text)? {
        AsOf::Version(Some(version)) => Ok(version),
        AsOf::Version(None) => Err("the latest version is the default: leave --as-of out".into()),
        AsOf::Auto => Err("`auto` reads the version of each file; give one: vX.Y.Z".into()),
    }
}

/// What `--names` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WireNames {
    /// Each document's own, told from its members.
    Auto,
    /// The spec's neutral names.
    Spec,
    /// The publishers' names.
    Upstream,
}

impl From<Names> for WireNames {
    fn from(names: Names) -> Self {
        match names {
            Names::Auto => WireNames::Auto,
            Names::Spec => WireNames::Spec,
            Names::Upstream => WireNames::Upstream,
        }
    }
}

impl From<WireNames> for Names {
    fn from(names: WireNames) -> Self {
        match names {
            WireNames::Auto => Names::Auto,
            WireNames::Spec => Names::Spec,
            WireNames::Upstream => Names::Upstream,
        }
    }
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
        let settings = Settings {
            kind: self.kind,
            as_of: match self.as_of {
                Some(AsOf::Version(version)) => version,
                _ => None,
            },
            as_of_auto: matches!(self.as_of, None | Some(AsOf::Auto)),
            strict_version: self.strict_version,
            deny_unknown_fields: self.deny_unknown_fields,
            warn_deprecated: self.warn.contains(&Warn::Deprecated),
            warning_limit: self.warning_limit,
            error_limit: self.error_limit,
            filter: self.filter,
            names: self.names.into(),
        };
        if self.strict {
            settings.strict()
        } else {
            settings
        }
    }
}

/// How directories given are searched for inputs.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "Discovery")]
pub struct Discovery {
    /// Leaves out of the directories searched what GLOB matches: a
    /// .gitignore pattern, relative to the working directory (repeatable).
    /// It adds to the configuration's `exclude` and `extend-exclude`; paths
    /// named are never left out. Example: --exclude drafts/ --exclude '*.tmp.json'
    #[arg(long, value_name = "GLOB", value_parser = glob)]
    pub exclude: Vec<String>,

    /// Searches directories without honouring .gitignore, .ignore and git's
    /// excludes, and without skipping hidden files and folders. The
    /// `exclude` globs still apply. Example: --no-ignore
    #[arg(long)]
    pub no_ignore: bool,
}

/// Reads `--exclude`: a glob as a .gitignore reads it.
fn glob(text: &str) -> Result<String, String> {
    check_glob(text).map(|()| text.to_owned())
}

impl Discovery {
    /// How directories are searched: the configuration's (or the default)
    /// `exclude` lists, with `--exclude` and `--no-ignore`.
    pub fn walk(&self, config: Option<&Config>) -> Walk {
        let mut walk = config.map_or_else(Walk::default, Config::walk);
        // Each glob was checked as the command line was parsed.
        let _ = walk.exclude.add(std::path::Path::new("."), &self.exclude);
        walk.ignore_files = !self.no_ignore;
        walk
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

/// The options that would read some files as they declare themselves, as
/// the closing line of a run names them before `--on-invalid`: `1 file
/// would be read as it declares itself with --names auto; ` (nothing when
/// none would).
#[cfg(feature = "export")]
pub fn ways_out_first(summary: &cardkit::report::Summary) -> String {
    cardkit::render::words::ways_out(summary)
        .into_iter()
        .map(|way_out| format!("{way_out}; "))
        .collect()
}
