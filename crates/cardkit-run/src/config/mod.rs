//! The configuration file: the options of every command that validates,
//! written once for a project, in `cardkit.toml` or in the `[tool.cardkit]`
//! table of a `pyproject.toml`. Every front end reads it here, the same
//! way: [`Config::find`] looks for it upward from a directory,
//! [`Config::load`] reads a file named, and [`Config::settings`] lays its
//! values over the defaults (a front end then lays its own flags or
//! parameters over those).
//!
//! ```
//! use cardkit_run::config::Config;
//! use cardkit_run::Settings;
//!
//! let text = "as-of = \"v5.0.0\"\nignore = [\"unknown_field\", \"/cards/*/purchaseUrls\"]\n";
//! let config = Config::parse(text, "cardkit.toml".as_ref()).unwrap();
//! assert_eq!(config.as_of.as_ref().unwrap().line, 1);
//! let settings = config.settings(Settings::default());
//! assert_eq!(settings.as_of.unwrap().to_string(), "v5.0.0");
//! assert!(settings.filter.is_some());
//!
//! let error = Config::parse("as_of = \"v5.0.0\"\n", "cardkit.toml".as_ref()).unwrap_err();
//! assert_eq!(error.to_string(), "cardkit.toml:1:1: as_of: unknown key: did you mean as-of?");
//! ```

use std::path::{Path, PathBuf};

use serde::Serialize;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::options::{Setting, OPTIONS};
use crate::{check_glob, Exclude, Settings, Walk, DEFAULT_EXCLUDE, MAX_JOBS};
use cardkit::diagnostic::Severity;
use cardkit::model::Kind;
use cardkit::schema::words::nearest_name;
use cardkit::schema::Names;
use cardkit::schema::Version;
use cardkit::validate::{as_of_version, Filter};

mod error;
mod file;
mod values;
pub use error::ConfigError;
use error::Lines;
pub use file::MAX_CONFIG_BYTES;
use values::{found, has_tool_cardkit, integer, strings};

/// The configuration file's name.
pub const FILE_NAME: &str = "cardkit.toml";
/// The Python project file whose `[tool.cardkit]` table is read when there
/// is no `cardkit.toml` nearer.
pub const PYPROJECT: &str = "pyproject.toml";

/// Every key of the configuration, in the order `cardkit config` lists
/// them: the keys of [`OPTIONS`](crate::options::OPTIONS).
pub const KEYS: [&str; 16] = {
    let mut keys = [""; 16];
    let mut at = 0;
    while at < keys.len() {
        keys[at] = OPTIONS[at].key;
        at += 1;
    }
    keys
};

/// A value of the file and the line it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry<T> {
    /// The value.
    pub value: T,
    /// The 1-based line of its key.
    pub line: usize,
}

impl<T> Entry<T> {
    fn on(line: usize, value: T) -> Self {
        Entry { value, line }
    }
}

/// The version documents are checked as of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsOf {
    /// Each file's own, as its `meta.version` declares.
    Auto,
    /// The format's latest.
    Latest,
    /// This one.
    Version(Version),
}

/// When to colour the text report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// On a terminal that shows colour (as `NO_COLOR` and `CLICOLOR_FORCE`
    /// say, on the command line).
    #[cfg_attr(
        feature = "clap",
        value(help = "On a terminal that shows colour, as NO_COLOR and CLICOLOR_FORCE say")
    )]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// A configuration read: each key given, with its line. A key not given is
/// `None`, and leaves the setting to the defaults and the flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The file read, as it is named in messages (a file in the directory
    /// searched from by its name alone, others by their whole path).
    pub path: PathBuf,
    /// `kind`: `None` for `auto`.
    pub kind: Option<Entry<Option<Kind>>>,
    /// `as-of`: `auto` (each file as of the version it declares), `latest`
    /// or a version.
    pub as_of: Option<Entry<AsOf>>,
    /// `strict`: the spec's names and the latest version, whatever a file
    /// uses or declares (over `names` and `as-of`).
    pub strict: Option<Entry<bool>>,
    /// `names`: the wire names documents use.
    pub names: Option<Entry<Names>>,
    /// `strict-version`.
    pub strict_version: Option<Entry<bool>>,
    /// `deny-unknown-fields`.
    pub deny_unknown_fields: Option<Entry<bool>>,
    /// `references`: `true` (warnings), `"error"` or `false`.
    pub references: Option<Entry<Option<Severity>>>,
    /// `warn = ["deprecated"]`: whether deprecated fields are reported.
    pub warn_deprecated: Option<Entry<bool>>,
    /// `warning-limit`.
    pub warning_limit: Option<Entry<usize>>,
    /// `error-limit`.
    pub error_limit: Option<Entry<usize>>,
    /// `jobs`, 1 to [`MAX_JOBS`].
    pub jobs: Option<Entry<usize>>,
    /// `color`.
    pub color: Option<Entry<Color>>,
    /// `ignore`: codes, `Model.field` names and JSON Pointer globs.
    pub ignore: Option<Entry<Vec<String>>>,
    /// `extend-allowed`: `Model.member` names that are known extras.
    pub extend_allowed: Option<Entry<Vec<String>>>,
    /// `ignore` and `extend-allowed` compiled, when either holds anything.
    pub filter: Option<&'static Filter>,
    /// `exclude`: `.gitignore` patterns of what directories searched leave
    /// out, relative to the file's folder, instead of [`DEFAULT_EXCLUDE`].
    pub exclude: Option<Entry<Vec<String>>>,
    /// `extend-exclude`: more of them, besides `exclude`.
    pub extend_exclude: Option<Entry<Vec<String>>>,
    /// `[fonts]`: faces read from files of their own, by name, each file
    /// relative to the configuration file's folder (joined to it here).
    pub fonts: Option<Entry<Vec<(String, PathBuf)>>>,
}

impl Config {
    /// Finds the configuration that applies in `dir`: in `dir`, then in each
    /// directory above it, a `cardkit.toml`, or a `pyproject.toml` with a
    /// `[tool.cardkit]` table (in one directory, `cardkit.toml` first). The
    /// nearest wins. The search stops after a repository's root (a
    /// directory holding `.git`) and after the user's home directory, and
    /// never enters the filesystem's root or a directory anyone may write
    /// to (`/tmp`): a project's checks do not depend on files outside it.
    ///
    /// # Errors
    /// The file found is invalid, or cannot be read (it is not a regular
    /// file, or is larger than [`MAX_CONFIG_BYTES`]).
    pub fn find(dir: &Path) -> Result<Option<Config>, ConfigError> {
        let Some(path) = Config::locate(dir) else {
            return Ok(None);
        };
        Config::load(&path).map(Some)
    }

    /// Where [`Config::find`] finds the configuration, without reading it
    /// whole. A `pyproject.toml` counts when it names `cardkit` and holds
    /// a `[tool.cardkit]` table (one that cannot be parsed counts too, so
    /// that reading it says why, and so does one that cannot be read).
    #[must_use]
    pub fn locate(dir: &Path) -> Option<PathBuf> {
        let absolute = std::path::absolute(dir).ok()?;
        for (up, at) in file::searched(&absolute).into_iter().enumerate() {
            // The working directory's file is named by its name alone.
            let name = |file: &str| {
                if up == 0 {
                    let here = dir.join(file);
                    here.strip_prefix(".")
                        .map(Path::to_path_buf)
                        .unwrap_or(here)
                } else {
                    at.join(file)
                }
            };
            // Any kind of file counts: reading one that is not a regular
            // file says why it cannot be a configuration.
            if at.join(FILE_NAME).exists() {
                return Some(name(FILE_NAME));
            }
            let pyproject = at.join(PYPROJECT);
            if pyproject.exists() {
                match file::read_text(&pyproject) {
                    Ok(text) if !(text.contains("cardkit") && has_tool_cardkit(&text)) => {}
                    _ => return Some(name(PYPROJECT)),
                }
            }
        }
        None
    }

    /// Reads the configuration file at `path`: a `pyproject.toml` (by its
    /// name) is read for its `[tool.cardkit]` table, any other file as a
    /// `cardkit.toml`.
    ///
    /// # Errors
    /// The file cannot be read, is not TOML, or holds a key or value that
    /// is not a configuration's; the error names the line and the key.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = file::read_text(path).map_err(|why| ConfigError {
            path: path.to_path_buf(),
            at: None,
            key: None,
            message: format!("cannot be read: {why}"),
        })?;
        Config::parse(&text, path)
    }

    /// Reads a configuration from `text`, the content of the file `path`
    /// (a `pyproject.toml`, by its name, is read for `[tool.cardkit]`).
    ///
    /// # Errors
    /// As [`Config::load`].
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let lines = Lines::new(text, path);
        let root = DeTable::parse(text).map_err(|error| {
            let message = error.message().trim_end().replace('\n', " ");
            lines.error(error.span().unwrap_or(0..0), None, message)
        })?;
        let in_pyproject = path.file_name().is_some_and(|name| name == PYPROJECT);
        let table = if in_pyproject {
            let tool = root.get_ref().get("tool").map(Spanned::get_ref);
            match tool.and_then(|t| t.as_table()?.get("cardkit")) {
                Some(cardkit) => match cardkit.get_ref().as_table() {
                    Some(table) => table,
                    None => {
                        return Err(lines.error(
                            cardkit.span(),
                            Some("tool.cardkit"),
                            "expected a table ([tool.cardkit])".to_owned(),
                        ))
                    }
                },
                None => {
                    return Err(lines.error(0..0, None, "holds no [tool.cardkit] table".to_owned()))
                }
            }
        } else {
            root.get_ref()
        };
        let mut config = Config::empty(path);
        let mut entries: Vec<_> = table.iter().collect();
        entries.sort_by_key(|(key, _)| key.span().start);
        for (key, value) in entries {
            config.set(&lines, key, value)?;
        }
        config.compile(&lines)?;
        Ok(config)
    }

    /// A configuration that sets nothing, as if read from `path`.
    #[must_use]
    pub fn empty(path: &Path) -> Config {
        Config {
            path: path.to_path_buf(),
            kind: None,
            as_of: None,
            strict: None,
            names: None,
            strict_version: None,
            deny_unknown_fields: None,
            references: None,
            warn_deprecated: None,
            warning_limit: None,
            error_limit: None,
            jobs: None,
            color: None,
            ignore: None,
            extend_allowed: None,
            filter: None,
            exclude: None,
            extend_exclude: None,
            fonts: None,
        }
    }

    /// What directories searched leave out: `exclude` (else
    /// [`DEFAULT_EXCLUDE`]), then `extend-exclude`, matched relative to the
    /// folder of the file.
    #[must_use]
    pub fn exclude(&self) -> Exclude {
        let folder = match self.path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        let base: Vec<&str> = match &self.exclude {
            Some(entry) => entry.value.iter().map(String::as_str).collect(),
            None => DEFAULT_EXCLUDE.to_vec(),
        };
        let extended = self.extend_exclude.iter().flat_map(|e| &e.value);
        let globs: Vec<&str> = base
            .into_iter()
            .chain(extended.map(String::as_str))
            .collect();
        let mut exclude = Exclude::none();
        // Every glob was checked as the file was read.
        let _ = exclude.add(folder, &globs);
        exclude
    }

    /// How directories are searched under this configuration: as ripgrep
    /// searches, leaving out [`Config::exclude`].
    #[must_use]
    pub fn walk(&self) -> Walk {
        Walk {
            exclude: self.exclude(),
            ..Walk::default()
        }
    }

    /// `base` with the values this configuration gives laid over it.
    #[must_use]
    pub fn settings(&self, base: Settings) -> Settings {
        let settings = Settings {
            kind: self.kind.as_ref().map_or(base.kind, |e| e.value),
            as_of: self.as_of.as_ref().map_or(base.as_of, |e| match e.value {
                AsOf::Version(version) => Some(version),
                AsOf::Auto | AsOf::Latest => None,
            }),
            as_of_auto: self
                .as_of
                .as_ref()
                .map_or(base.as_of_auto, |e| e.value == AsOf::Auto),
            strict_version: value_or(self.strict_version.as_ref(), base.strict_version),
            deny_unknown_fields: value_or(
                self.deny_unknown_fields.as_ref(),
                base.deny_unknown_fields,
            ),
            warn_deprecated: value_or(self.warn_deprecated.as_ref(), base.warn_deprecated),
            warning_limit: value_or(self.warning_limit.as_ref(), base.warning_limit),
            error_limit: self
                .error_limit
                .as_ref()
                .map_or(base.error_limit, |e| Some(e.value)),
            filter: self.filter.or(base.filter),
            names: value_or(self.names.as_ref(), base.names),
            references: self
                .references
                .as_ref()
                .map_or(base.references, |e| e.value),
        };
        if value_or(self.strict.as_ref(), false) {
            settings.strict()
        } else {
            settings
        }
    }

    /// Where the value of `key` is: `cardkit.toml:3`, or `None` when the
    /// file does not give it.
    #[must_use]
    pub fn source(&self, key: &str) -> Option<String> {
        let line = match Setting::of_key(key)? {
            Setting::Kind => self.kind.as_ref().map(|e| e.line),
            Setting::AsOf => self.as_of.as_ref().map(|e| e.line),
            Setting::Strict => self.strict.as_ref().map(|e| e.line),
            Setting::Names => self.names.as_ref().map(|e| e.line),
            Setting::StrictVersion => self.strict_version.as_ref().map(|e| e.line),
            Setting::DenyUnknownFields => self.deny_unknown_fields.as_ref().map(|e| e.line),
            Setting::Warn => self.warn_deprecated.as_ref().map(|e| e.line),
            Setting::WarningLimit => self.warning_limit.as_ref().map(|e| e.line),
            Setting::ErrorLimit => self.error_limit.as_ref().map(|e| e.line),
            Setting::Jobs => self.jobs.as_ref().map(|e| e.line),
            Setting::Color => self.color.as_ref().map(|e| e.line),
            Setting::Ignore => self.ignore.as_ref().map(|e| e.line),
            Setting::ExtendAllowed => self.extend_allowed.as_ref().map(|e| e.line),
            Setting::Exclude => self.exclude.as_ref().map(|e| e.line),
            Setting::ExtendExclude => self.extend_exclude.as_ref().map(|e| e.line),
            Setting::Fonts => self.fonts.as_ref().map(|e| e.line),
            Setting::References => self.references.as_ref().map(|e| e.line),
        }?;
        Some(format!("{}:{line}", self.path.display()))
    }

    /// Reads one key's value.
    fn set(
        &mut self,
        lines: &Lines<'_>,
        key: &Spanned<std::borrow::Cow<'_, str>>,
        value: &Spanned<DeValue<'_>>,
    ) -> Result<(), ConfigError> {
        let name = key.get_ref().as_ref();
        let line = lines.at(key.span().start).0;
        let wrong = |expected: &str| {
            lines.error(
                value.span(),
                Some(name),
                format!("expected {expected}, found {}", found(value.get_ref())),
            )
        };
        let bad = |why: String| lines.error(value.span(), Some(name), why);
        match Setting::of_key(name) {
            Some(Setting::Kind) => {
                let words = one_of(Setting::Kind);
                let text = value.get_ref().as_str().ok_or_else(|| wrong(&words))?;
                let kind = match text {
                    "auto" => None,
                    _ => Some(text.parse::<Kind>().map_err(|_| wrong(&words))?),
                };
                self.kind = Some(Entry::on(line, kind));
            }
            Some(Setting::AsOf) => {
                let text = value.get_ref().as_str().ok_or_else(|| {
                    wrong("\"auto\", \"latest\" or a version string such as \"v5.2.0\"")
                })?;
                let as_of = match text {
                    "auto" => AsOf::Auto,
                    "latest" => AsOf::Latest,
                    _ => AsOf::Version(as_of_version(text).map_err(bad)?),
                };
                self.as_of = Some(Entry::on(line, as_of));
            }
            Some(Setting::Names) => {
                let words = one_of(Setting::Names);
                let names = value
                    .get_ref()
                    .as_str()
                    .and_then(Names::named)
                    .ok_or_else(|| wrong(&words))?;
                self.names = Some(Entry::on(line, names));
            }
            Some(Setting::Strict | Setting::StrictVersion | Setting::DenyUnknownFields) => {
                let flag = value
                    .get_ref()
                    .as_bool()
                    .ok_or_else(|| wrong("a boolean (true or false)"))?;
                let slot = match name {
                    "strict" => &mut self.strict,
                    "strict-version" => &mut self.strict_version,
                    _ => &mut self.deny_unknown_fields,
                };
                *slot = Some(Entry::on(line, flag));
            }
            Some(Setting::References) => {
                let level = match (value.get_ref().as_bool(), value.get_ref().as_str()) {
                    (Some(true), _) | (_, Some("warning")) => Some(Severity::Warning),
                    (Some(false), _) => None,
                    (_, Some("error")) => Some(Severity::Error),
                    _ => return Err(wrong("true, false or \"error\"")),
                };
                self.references = Some(Entry::on(line, level));
            }
            Some(Setting::Warn) => {
                let what = strings(value).ok_or_else(|| wrong(WARN_WORDS))?;
                for (text, span) in &what {
                    if text != "deprecated" {
                        return Err(lines.error(
                            span.clone(),
                            Some(name),
                            format!(
                                "`{text}` is no extra warning: the only extra warning is \"deprecated\""
                            ),
                        ));
                    }
                }
                self.warn_deprecated = Some(Entry::on(line, !what.is_empty()));
            }
            Some(Setting::WarningLimit) => {
                let limit = integer(value.get_ref())
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| wrong("an integer, 0 or more (0 shows all)"))?;
                self.warning_limit = Some(Entry::on(line, limit));
            }
            Some(Setting::ErrorLimit) => {
                let limit = integer(value.get_ref())
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| wrong("an integer, 0 or more (0 shows all)"))?;
                self.error_limit = Some(Entry::on(line, limit));
            }
            Some(Setting::Jobs) => {
                let words = format!("an integer from 1 to {MAX_JOBS}");
                let jobs = integer(value.get_ref())
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|n| (1..=MAX_JOBS).contains(n))
                    .ok_or_else(|| wrong(&words))?;
                self.jobs = Some(Entry::on(line, jobs));
            }
            Some(Setting::Color) => {
                let words = one_of(Setting::Color);
                let color = match value.get_ref().as_str() {
                    Some("auto") => Color::Auto,
                    Some("always") => Color::Always,
                    Some("never") => Color::Never,
                    _ => return Err(wrong(&words)),
                };
                self.color = Some(Entry::on(line, color));
            }
            Some(Setting::Ignore | Setting::ExtendAllowed) => {
                let expected = if name == "ignore" {
                    "an array of strings (codes, Model.field names, JSON Pointer globs)"
                } else {
                    "an array of Model.member strings"
                };
                let items = strings(value).ok_or_else(|| wrong(expected))?;
                let mut check = Filter::new("");
                for (text, span) in &items {
                    let checked = if name == "ignore" {
                        check.ignore(text)
                    } else {
                        check.allow(text)
                    };
                    checked.map_err(|why| lines.error(span.clone(), Some(name), why))?;
                }
                let items = Entry::on(line, items.into_iter().map(|(text, _)| text).collect());
                if name == "ignore" {
                    self.ignore = Some(items);
                } else {
                    self.extend_allowed = Some(items);
                }
            }
            Some(Setting::Exclude | Setting::ExtendExclude) => {
                let items = strings(value)
                    .ok_or_else(|| wrong("an array of globs (.gitignore patterns)"))?;
                for (text, span) in &items {
                    check_glob(text).map_err(|why| lines.error(span.clone(), Some(name), why))?;
                }
                let items = Entry::on(line, items.into_iter().map(|(text, _)| text).collect());
                if name == "exclude" {
                    self.exclude = Some(items);
                } else {
                    self.extend_exclude = Some(items);
                }
            }
            Some(Setting::Fonts) => {
                let expected = "a table of font names to files, such as \
                                [fonts] Quango = \"fonts/Quango.otf\"";
                let table = value.get_ref().as_table().ok_or_else(|| wrong(expected))?;
                let folder = self.path.parent().unwrap_or(Path::new(""));
                let mut fonts = Vec::new();
                for (face, file) in table {
                    let at = |why: String| lines.error(file.span(), Some(name), why);
                    let face = face.get_ref().as_ref();
                    let Some(text) = file.get_ref().as_str() else {
                        return Err(at(format!(
                            "{face}: expected the path of a font file, found {}",
                            found(file.get_ref())
                        )));
                    };
                    if face.trim().is_empty() || text.is_empty() {
                        return Err(at(format!("{face:?}: a font needs a name and a file")));
                    }
                    fonts.push((face.to_owned(), folder.join(text)));
                }
                self.fonts = Some(Entry::on(line, fonts));
            }
            None => {
                let near = KEYS
                    .iter()
                    .find(|known| known.replace('-', "_") == name.replace('-', "_"))
                    .copied()
                    .or_else(|| nearest_name(KEYS, name));
                let message = match near {
                    Some(near) => format!("unknown key: did you mean {near}?"),
                    None => format!("unknown key: the keys are {}", KEYS.join(", ")),
                };
                return Err(lines.error(key.span(), Some(name), message));
            }
        }
        Ok(())
    }

    /// Compiles `ignore` and `extend-allowed` into the validator's filter.
    fn compile(&mut self, lines: &Lines<'_>) -> Result<(), ConfigError> {
        let mut filter = Filter::new(self.path.display().to_string());
        for (entries, ignore) in [(&self.ignore, true), (&self.extend_allowed, false)] {
            for text in entries.iter().flat_map(|e| &e.value) {
                let added = if ignore {
                    filter.ignore(text)
                } else {
                    filter.allow(text)
                };
                // Checked as each key was read.
                added.map_err(|why| lines.error(0..0, None, why))?;
            }
        }
        self.filter = (!filter.is_empty()).then(|| filter.into_static());
        Ok(())
    }
}

/// The values a choice takes, as an error expects them.
fn one_of(setting: Setting) -> String {
    setting.def().one_of().unwrap_or_default()
}

const WARN_WORDS: &str = "an array of extra warnings, such as [\"deprecated\"]";

fn value_or<T: Copy>(entry: Option<&Entry<T>>, base: T) -> T {
    entry.map_or(base, |e| e.value)
}

#[cfg(test)]
mod tests;
