//! The options every command that validates takes, defined once and
//! flattened into each command: the validation itself ([`Validation`]) and
//! how the run goes ([`Running`]).

use std::path::PathBuf;

use cardkit::report::WarningFilter;
use cardkit::schema::Names;
use cardkit::schema::Version;
use cardkit::validate::{self, Filter};
use cardkit::Kind;
use cardkit::Severity;
use cardkit_run::config::{AsOf, Color, Config, ConfigError};
use cardkit_run::options::OPTIONS;
use cardkit_run::{check_glob, Setting, Settings, Surface, Walk, MAX_JOBS};
use clap::parser::ValueSource;
use clap::{ArgMatches, ValueEnum};

use crate::kind;

/// What is checked, and how it is reported.
// Each option's help is its definition's in `cardkit_run::options::OPTIONS`,
// naming options by their flags.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Validation")]
pub struct Validation {
    #[arg(long, value_name = "KIND", value_parser = kind::or_auto_parser(), default_value = "auto",
          help = help(Setting::Kind))]
    // `None` for `auto`. The path is spelled out so that clap takes the
    // whole `Option` as the value instead of making the flag optional.
    pub kind: std::option::Option<Kind>,

    #[arg(long, help = help(Setting::DenyUnknownFields))]
    pub deny_unknown_fields: bool,

    #[arg(long, value_name = "auto|latest|vX.Y.Z", value_parser = as_of, help = help(Setting::AsOf))]
    pub as_of: Option<AsOf>,

    #[arg(long, value_enum, default_value_t = Names::Auto, value_name = "NAMES",
          help = help(Setting::Names))]
    pub names: Names,

    #[arg(long, conflicts_with_all = ["as_of", "names"], help = help(Setting::Strict))]
    pub strict: bool,

    // Checked with the configuration's as-of too, not by clap.
    #[arg(long, help = help(Setting::StrictVersion))]
    pub strict_version: bool,

    #[arg(long, value_enum, value_name = "WHAT", help = help(Setting::Warn))]
    pub warn: Vec<Warn>,

    #[arg(long, default_value_t = WarningFilter::DEFAULT_LIMIT, value_name = "N",
          help = help(Setting::WarningLimit))]
    pub warning_limit: usize,

    #[arg(long, value_name = "N", help = help(Setting::ErrorLimit))]
    pub error_limit: Option<usize>,

    #[command(flatten)]
    pub file: ConfigFile,

    /// The configuration's `ignore` and `extend-allowed`, compiled.
    #[arg(skip)]
    pub filter: Option<&'static Filter>,

    /// The configuration's `references` (`validate` and `export` have the
    /// flag, which wins over it).
    #[arg(skip)]
    pub references: Option<cardkit::Severity>,
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
    let origins: Origins = OPTIONS
        .iter()
        .map(|def| {
            let from = match def.flag {
                Some(flag) if given(matches, &clap_id(flag)) => flag.to_owned(),
                _ => config
                    .as_ref()
                    .and_then(|c| c.source(def.key))
                    .unwrap_or_else(|| "default".to_owned()),
            };
            (def.key, from)
        })
        .collect();
    let Some(file) = &config else {
        return Ok((config, origins));
    };
    // Whether the file gives the option, and no flag overrides it.
    let origin = |setting: Setting| {
        origins
            .iter()
            .any(|(k, from)| *k == setting.key() && from != "default" && !from.starts_with("--"))
    };
    if origin(Setting::Kind) {
        validation.kind = file.kind.as_ref().and_then(|e| e.value);
    }
    if origin(Setting::AsOf) {
        validation.as_of = file.as_of.as_ref().map(|e| e.value);
    }
    if origin(Setting::Strict) {
        validation.strict = file.strict.as_ref().is_some_and(|e| e.value);
    }
    if origin(Setting::Names) {
        if let Some(names) = &file.names {
            validation.names = names.value;
        }
    }
    if origin(Setting::StrictVersion) {
        validation.strict_version = file.strict_version.as_ref().is_some_and(|e| e.value);
    }
    if origin(Setting::DenyUnknownFields) {
        validation.deny_unknown_fields = file.deny_unknown_fields.as_ref().is_some_and(|e| e.value);
    }
    if origin(Setting::Warn) {
        let deprecated = file.warn_deprecated.as_ref().is_some_and(|e| e.value);
        validation.warn = if deprecated {
            vec![Warn::Deprecated]
        } else {
            Vec::new()
        };
    }
    if origin(Setting::WarningLimit) {
        if let Some(limit) = &file.warning_limit {
            validation.warning_limit = limit.value;
        }
    }
    if origin(Setting::ErrorLimit) {
        if let Some(limit) = &file.error_limit {
            validation.error_limit = Some(limit.value);
        }
    }
    if origin(Setting::Jobs) {
        // Checked to be 1 to MAX_JOBS as the file was read.
        running.jobs = file.jobs.as_ref().and_then(|e| u16::try_from(e.value).ok());
    }
    if origin(Setting::Color) {
        if let Some(color) = &file.color {
            running.color = color.value;
        }
    }
    if origin(Setting::References) {
        validation.references = file.references.as_ref().and_then(|e| e.value);
    }
    validation.filter = file.filter;
    Ok((config, origins))
}

/// The id clap gives the argument of `flag`: its field's name.
fn clap_id(flag: &str) -> String {
    flag.trim_start_matches('-').replace('-', "_")
}

/// An option's help on the command line: its definition's, naming options
/// by their flags.
fn help(setting: Setting) -> String {
    setting.def().help_for(Surface::CommandLine)
}

/// Reads `--as-of`: `auto`, `latest`, or a version as the library reads it.
fn as_of(text: &str) -> Result<AsOf, String> {
    match text {
        "auto" => Ok(AsOf::Auto),
        "latest" => Ok(AsOf::Latest),
        _ => validate::as_of_version(text).map(AsOf::Version),
    }
}

/// Reads `--as-of` where there is no file to read a version from (`schema`):
/// a version, as for validate; `auto` is refused, and `latest` is what
/// leaving the flag out gives.
pub fn as_of_version(text: &str) -> Result<Version, String> {
    match as_of(text)? {
        AsOf::Version(version) => Ok(version),
        AsOf::Latest => Err("the latest version is the default: leave --as-of out".into()),
        AsOf::Auto => Err("`auto` reads the version of each file; give one: vX.Y.Z".into()),
    }
}

/// `--references`: the severity of its findings, or off.
#[derive(Debug, Clone, Copy)]
pub struct ReferencesLevel(pub Option<Severity>);

/// Reads `--references=LEVEL`: `true` (the flag alone), `error` or `false`.
pub fn references_level(text: &str) -> Result<ReferencesLevel, String> {
    match text {
        "true" | "warning" => Ok(ReferencesLevel(Some(Severity::Warning))),
        "error" => Ok(ReferencesLevel(Some(Severity::Error))),
        "false" => Ok(ReferencesLevel(None)),
        _ => Err("expected true (the flag alone), error or false".into()),
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
                Some(AsOf::Version(version)) => Some(version),
                _ => None,
            },
            as_of_auto: matches!(self.as_of, None | Some(AsOf::Auto)),
            strict_version: self.strict_version,
            deny_unknown_fields: self.deny_unknown_fields,
            warn_deprecated: self.warn.contains(&Warn::Deprecated),
            warning_limit: self.warning_limit,
            error_limit: self.error_limit,
            filter: self.filter,
            names: self.names,
            references: self.references,
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
// `--jobs`' and `--color`'s help are their definitions' (`OPTIONS`).
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Running")]
pub struct Running {
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_JOBS as i64),
          help = help(Setting::Jobs))]
    pub jobs: Option<u16>,

    /// Shows no progress bar. Without it, a bar is shown on standard error
    /// when it is a terminal, for inputs of 32 MB and more and for standard
    /// input; the report itself is the same. Example: --quiet
    #[arg(long, short = 'q')]
    pub quiet: bool,

    #[arg(long, value_enum, default_value_t = Color::Auto, value_name = "WHEN",
          help = help(Setting::Color))]
    pub color: Color,
}

impl Running {
    /// The threads to validate on.
    pub fn jobs(&self) -> usize {
        cardkit_run::jobs(self.jobs.map(usize::from))
    }

    /// Whether the text report written to `stream` is coloured.
    pub fn colored(&self, stream: &impl anstream::stream::RawStream) -> bool {
        match self.color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never,
        }
    }
}

/// That `dir`, given with `flag`, is a folder: one that is not there is a
/// mistyped path, which would otherwise draw every asset as a placeholder.
#[cfg(any(feature = "render", feature = "serve"))]
pub fn existing_dir(flag: &str, dir: &std::path::Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(found) if found.is_dir() => Ok(()),
        Ok(_) => Err(format!("{flag} {}: not a directory", dir.display())),
        Err(why) => Err(format!("{flag} {}: {why}", dir.display())),
    }
}

/// The paths given, checked: standard input can be read once.
pub fn check_paths<P: AsRef<std::path::Path>>(
    paths: impl IntoIterator<Item = P>,
) -> Result<(), String> {
    let stdin = paths
        .into_iter()
        .filter(|path| path.as_ref() == std::path::Path::new("-"))
        .count();
    if stdin > 1 {
        return Err(format!(
            "`-` is given {stdin} times: standard input can be read once"
        ));
    }
    Ok(())
}

/// The options that would read some files as they declare themselves, as
/// the closing line of a run names them before `--on-invalid`: `1 file
/// would be read as it declares itself with --names auto; ` (nothing when
/// none would).
#[cfg(feature = "export")]
pub fn ways_out_first(summary: &cardkit::report::Summary) -> String {
    cardkit_run::render::words::ways_out(summary)
        .into_iter()
        .map(|way_out| format!("{way_out}; "))
        .collect()
}
