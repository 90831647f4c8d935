//! Every option of a validation, defined once: its configuration key, its
//! command-line flag, its query parameter, its Python keyword, the values it
//! takes, its default and its help ([`OPTIONS`]). Each front end names an
//! option through this table ([`Surface`], [`said`], [`Setting::named`]),
//! so that a message that names one reads as its users name it:
//! `--names auto` on the command line, `names = "auto"` in a configuration
//! file, `?names=auto` in a query, `names="auto"` in Python.
//!
//! ```
//! use cardkit_run::options::{said, Surface};
//! use cardkit_run::Setting;
//!
//! assert_eq!(said(Setting::Names, "auto", Surface::CommandLine), "--names auto");
//! assert_eq!(said(Setting::Names, "auto", Surface::Config), "names = \"auto\"");
//! assert_eq!(said(Setting::Names, "auto", Surface::Query), "?names=auto");
//! assert_eq!(said(Setting::Names, "auto", Surface::Python), "names=\"auto\"");
//! assert_eq!(Setting::StrictVersion.named(Surface::Query), "`strict_version`");
//! ```

use std::fmt::Write as _;

use cardkit::model::Kind;
use cardkit::report::WayOut;
use cardkit::schema::{versions, ModelDef, Version};

/// Where a user names an option: each front end words options its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Surface {
    /// The command line's flags: `--as-of v5.0.0`.
    CommandLine,
    /// A configuration file's keys: `as-of = "v5.0.0"`.
    Config,
    /// The service's query parameters: `?as_of=v5.0.0`.
    Query,
    /// Python's keyword arguments: `as_of="v5.0.0"`.
    Python,
}

/// The values an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// `auto`, `latest` or a version (`vX.Y.Z`).
    Version,
    /// `true` or `false` (a flag alone on the command line).
    Bool,
    /// An integer, 0 or more; 0 shows all.
    Limit,
    /// An integer from 1 to [`crate::MAX_JOBS`].
    Threads,
    /// Some of these words (a list in a file; a flag given once for each on
    /// the command line; in Python, a boolean keyword for the one word).
    Some(&'static [&'static str]),
    /// A list of strings (codes, names or globs).
    List,
    /// A table of names to files (`NAME = "FILE"`; `--flag NAME=FILE` on
    /// the command line, given once for each).
    Files,
    /// On (`true`), with its findings as errors (`error`), or off (`false`):
    /// the flag alone, `--flag=error`, on the command line.
    Level,
}

/// One option, as every surface names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionDef {
    /// Its key in a configuration file, kebab-case (`as-of`); reports name
    /// options by it.
    pub key: &'static str,
    /// Its flag on the command line (`--as-of`), if it has one.
    pub flag: Option<&'static str>,
    /// Its query parameter in the service (`as_of`), if it has one.
    pub query: Option<&'static str>,
    /// Its keyword argument in Python (`as_of`), if it has one.
    pub python: Option<&'static str>,
    /// The values it takes.
    pub values: Values,
    /// Its default, as a value said (`auto`); `None` where the default is
    /// none, or is told in the help (`jobs`: one per core).
    pub default: Option<&'static str>,
    /// What it does, in one text for every surface: `{key}` names an option
    /// and `{key value}` an option at a value, each as the surface says them
    /// ([`OptionDef::help_for`]).
    pub help: &'static str,
}

/// An option, as the index of its definition in [`OPTIONS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setting {
    /// The documents' kind (`kind`).
    Kind,
    /// The version checked as of (`as-of`).
    AsOf,
    /// The wire names (`names`).
    Names,
    /// The spec itself: its names and the latest version (`strict`).
    Strict,
    /// Newer fields are errors (`strict-version`).
    StrictVersion,
    /// Unknown members are errors (`deny-unknown-fields`).
    DenyUnknownFields,
    /// Extra warnings (`warn`).
    Warn,
    /// Warnings shown of each kind (`warning-limit`).
    WarningLimit,
    /// Errors shown of each kind (`error-limit`).
    ErrorLimit,
    /// The threads that validate (`jobs`).
    Jobs,
    /// When the text report is coloured (`color`).
    Color,
    /// Diagnostics ignored (`ignore`).
    Ignore,
    /// Members allowed (`extend-allowed`).
    ExtendAllowed,
    /// What directories searched leave out (`exclude`).
    Exclude,
    /// More of it (`extend-exclude`).
    ExtendExclude,
    /// Fonts read from files of their own, by name (`fonts`).
    Fonts,
    /// The references between documents are checked (`references`).
    References,
}

/// Every option, in the order `cardkit config` lists them.
pub const OPTIONS: [OptionDef; 17] = [
    OptionDef {
        key: "kind",
        flag: Some("--kind"),
        query: Some("kind"),
        python: Some("kind"),
        values: Values::Choice(&["auto", "template", "card", "set", "migration"]),
        default: Some("auto"),
        help: "The kind of the documents. `auto` tells each document's kind from its \
               members (see the book, docs/output.md, for the rules). Example: {kind set}",
    },
    OptionDef {
        key: "as-of",
        flag: Some("--as-of"),
        query: Some("as_of"),
        python: Some("as_of"),
        values: Values::Version,
        default: Some("auto"),
        help: "Validates as consumers of this version of the Set format see the documents: \
               fields introduced later are reported (`newer_field`) and not required. `auto` \
               (the default) checks each file as of the version its `meta.version` declares, \
               wherever the file keeps it (the latest when it declares none, or one newer \
               than cardkit knows), and its report says which; `latest` checks every file as \
               of the latest version. Example: {as-of v5.0.0}, {as-of latest}",
    },
    OptionDef {
        key: "names",
        flag: Some("--names"),
        query: Some("names"),
        python: Some("names"),
        values: Values::Choice(&["auto", "spec", "upstream"]),
        default: Some("auto"),
        help: "The wire names the documents use: `auto` (the default) reads each document \
               under the names it uses, told from its members and said in its file's report; \
               `spec`, the spec's neutral names (`iconCode`, `catalogAId`), or `upstream`, \
               the publishers' own (`keyruneCode`, `scryfallId`, a migration's \
               `performed_at`), read as the spec's fields and reported under the file's \
               names. What cardkit writes (notices, field lists, schemas) follows what it \
               read. Example: {names spec}",
    },
    OptionDef {
        key: "strict",
        flag: Some("--strict"),
        query: Some("strict"),
        python: None,
        values: Values::Bool,
        default: Some("false"),
        help: "Checks against the spec itself: its names and the latest version \
               (`{names spec} {as-of latest}`), whatever a file uses or declares. \
               Example: {strict true}",
    },
    OptionDef {
        key: "strict-version",
        flag: Some("--strict-version"),
        query: Some("strict_version"),
        python: Some("strict_version"),
        values: Values::Bool,
        default: Some("false"),
        help: "With {as-of}, makes fields newer than that version errors instead of \
               warnings. Example: {as-of v4.6.0} {strict-version true}",
    },
    OptionDef {
        key: "deny-unknown-fields",
        flag: Some("--deny-unknown-fields"),
        query: Some("deny_unknown_fields"),
        python: Some("deny_unknown_fields"),
        values: Values::Bool,
        default: Some("false"),
        help: "Treats members the spec does not define as errors instead of warnings. \
               Example: {deny-unknown-fields true}",
    },
    OptionDef {
        key: "warn",
        flag: Some("--warn"),
        query: Some("warn"),
        python: Some("warn_deprecated"),
        values: Values::Some(&["deprecated"]),
        default: None,
        help: "Extra warnings to report: `deprecated` reports deprecated fields that are \
               present (`deprecated_field`). Example: {warn deprecated}",
    },
    OptionDef {
        key: "warning-limit",
        flag: Some("--warning-limit"),
        query: Some("warning_limit"),
        python: Some("warning_limit"),
        values: Values::Limit,
        default: Some("3"),
        help: "How many warnings of each kind (same code and field) are shown before the \
               rest are only counted; 0 shows all. Example: {warning-limit 10}",
    },
    OptionDef {
        key: "error-limit",
        flag: Some("--error-limit"),
        query: None,
        python: Some("error_limit"),
        values: Values::Limit,
        default: None,
        help: "How many errors of each kind (same code and field) are shown before the rest \
               are only counted in a closing note; 0 shows all. Default: 10 in the text \
               report; every error in the machine formats unless given. The exit status \
               never changes with it. Example: {error-limit 0}",
    },
    OptionDef {
        key: "jobs",
        flag: Some("--jobs"),
        query: None,
        python: Some("jobs"),
        values: Values::Threads,
        default: None,
        help: "How many threads validate documents, from 1 to 256 (default: one per core, \
               at most 256); with more than one, the reading thread finds where documents \
               end and hands them out. The output is the same whatever the number. \
               Example: {jobs 1}",
    },
    OptionDef {
        key: "color",
        flag: Some("--color"),
        query: None,
        python: None,
        values: Values::Choice(&["auto", "always", "never"]),
        default: Some("auto"),
        help: "When to colour the text report: `auto` on a terminal that shows colour \
               (unless NO_COLOR is set; CLICOLOR_FORCE forces it), `always` or `never`. \
               Files, pipes and the machine formats are never coloured under `auto`. \
               Example: {color never}",
    },
    OptionDef {
        key: "ignore",
        flag: None,
        query: None,
        python: None,
        values: Values::List,
        default: None,
        help: "Diagnostics left out of reports: codes (`unknown_field`), `Model.field` \
               names and JSON Pointer globs (`/cards/*/purchaseUrls`).",
    },
    OptionDef {
        key: "extend-allowed",
        flag: None,
        query: None,
        python: None,
        values: Values::List,
        default: None,
        help: "Members the spec does not define that are known extras, as `Model.member` \
               names: they are not reported as unknown.",
    },
    OptionDef {
        key: "exclude",
        flag: None,
        query: None,
        python: None,
        values: Values::List,
        default: None,
        help: "What directories searched leave out: .gitignore patterns, relative to the \
               configuration file's folder, instead of the default list.",
    },
    OptionDef {
        key: "extend-exclude",
        // `--exclude` adds to the file's `extend-exclude` (its help is its
        // own: its globs are relative to the working directory).
        flag: Some("--exclude"),
        query: None,
        python: None,
        values: Values::List,
        default: None,
        help: "More of what directories searched leave out, besides `exclude`: .gitignore \
               patterns, relative to the configuration file's folder.",
    },
    OptionDef {
        key: "fonts",
        flag: Some("--font"),
        query: None,
        python: None,
        values: Values::Files,
        default: None,
        help: "The faces `cardkit render` reads from files of their own, by the name the \
               template's text layers give them (in any case): a table of names to .ttf or \
               .otf files, relative to the configuration file's folder. A face named on the \
               command line wins over the file's. Example: {fonts Quango=fonts/Quango.otf}",
    },
    OptionDef {
        key: "references",
        flag: Some("--references"),
        query: Some("references"),
        python: Some("references"),
        values: Values::Level,
        default: Some("false"),
        help: "Checks the references between the documents read, across every input of the \
               run: the ids `otherFaceIds`, `variations`, `originalPrintings` and \
               `rebalancedPrintings` name, faces naming each other back, each record's \
               `setCode`, the sets `parentCode` and `tokenSetcode` name, `uuid` and set \
               `code` given once, each printing once in its set, and the cards \
               `reverseRelated` and `spellbook` name (see the book, docs/references.md). \
               Findings are warnings, reported after every input; `error` makes them errors. \
               An export writes them into its table `reference_findings` too. \
               Example: {references true}, {references error}",
    },
];

impl Setting {
    /// Every option, in the order of [`OPTIONS`].
    pub const ALL: [Setting; 17] = [
        Setting::Kind,
        Setting::AsOf,
        Setting::Names,
        Setting::Strict,
        Setting::StrictVersion,
        Setting::DenyUnknownFields,
        Setting::Warn,
        Setting::WarningLimit,
        Setting::ErrorLimit,
        Setting::Jobs,
        Setting::Color,
        Setting::Ignore,
        Setting::ExtendAllowed,
        Setting::Exclude,
        Setting::ExtendExclude,
        Setting::Fonts,
        Setting::References,
    ];

    /// Its definition.
    #[must_use]
    pub fn def(self) -> &'static OptionDef {
        &OPTIONS[self as usize]
    }

    /// The option of a configuration key (`as-of`).
    #[must_use]
    pub fn of_key(key: &str) -> Option<Setting> {
        Setting::ALL.into_iter().find(|s| s.def().key == key)
    }

    /// Its key in a configuration file (`as-of`), as reports name it.
    #[must_use]
    pub fn key(self) -> &'static str {
        self.def().key
    }

    /// The command line's flag for it (its key's, when it has none).
    #[must_use]
    pub fn flag(self) -> &'static str {
        self.def().flag.unwrap_or(self.def().key)
    }

    /// Its name where `surface` names it, in a message: `--as-of`,
    /// `as-of`, `` `as_of` `` (the service quotes its parameters) or
    /// `as_of`. Where the surface has no such option, its key.
    #[must_use]
    pub fn named(self, surface: Surface) -> String {
        let def = self.def();
        match surface {
            Surface::CommandLine => self.flag().to_owned(),
            Surface::Config => def.key.to_owned(),
            Surface::Query => format!("`{}`", def.query.unwrap_or(def.key)),
            Surface::Python => def.python.unwrap_or(def.key).to_owned(),
        }
    }

    /// The way out: this setting at `value`, said for `surface`, and why.
    #[must_use]
    pub fn way_out(self, value: &'static str, surface: Surface, why: String) -> WayOut {
        WayOut::new(self.key(), value, said(self, value, surface), why)
    }
}

/// `setting` at `value` as `surface` says it: `--names auto`,
/// `names = "auto"`, `?names=auto`, `names="auto"`. A surface without the
/// option says it as a configuration file does.
#[must_use]
pub fn said(setting: Setting, value: &str, surface: Surface) -> String {
    let def = setting.def();
    let quoted = |value: &str| format!("{value:?}");
    let config = || {
        let value = match def.values {
            Values::Bool | Values::Limit | Values::Threads => value.to_owned(),
            Values::Some(_) | Values::List => format!("[{}]", quoted(value)),
            // `NAME=FILE`, as the command line gives it.
            Values::Files => match value.split_once('=') {
                Some((name, file)) => return format!("[{}] {name} = {}", def.key, quoted(file)),
                None => quoted(value),
            },
            Values::Choice(_) | Values::Version => quoted(value),
            Values::Level => match value {
                "true" | "false" => value.to_owned(),
                _ => quoted(value),
            },
        };
        format!("{} = {value}", def.key)
    };
    match surface {
        Surface::CommandLine => match def.flag {
            Some(flag) if def.values == Values::Bool => flag.to_owned(),
            Some(flag) if def.values == Values::Level && value == "true" => flag.to_owned(),
            Some(flag) if def.values == Values::Level => format!("{flag}={value}"),
            Some(flag) => format!("{flag} {value}"),
            None => config(),
        },
        Surface::Config => config(),
        Surface::Query => match def.query {
            Some(query) => format!("?{query}={value}"),
            None => config(),
        },
        Surface::Python => match def.python {
            Some(python) => match def.values {
                Values::Level if value != "true" && value != "false" => {
                    format!("{python}={}", quoted(value))
                }
                Values::Bool | Values::Some(_) | Values::Level => {
                    let on = value != "false";
                    format!("{python}={}", if on { "True" } else { "False" })
                }
                Values::Limit | Values::Threads => format!("{python}={value}"),
                Values::Choice(_) | Values::Version | Values::List | Values::Files => {
                    format!("{python}={}", quoted(value))
                }
            },
            None => config(),
        },
    }
}

impl OptionDef {
    /// Its help as `surface` says the options it names: `{as-of}` is
    /// `--as-of`, `` `as_of` ``…; `{as-of latest}` is `--as-of latest`,
    /// `?as_of=latest`…. In a query, options at a value one space apart
    /// are joined as a query joins them (`?names=spec&as_of=latest`).
    #[must_use]
    pub fn help_for(&self, surface: Surface) -> String {
        let mut out = String::new();
        let mut rest = self.help;
        let mut after_value = false;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|at| open + at) else {
                break;
            };
            let between = &rest[..open];
            let inner = &rest[open + 1..close];
            let (key, value) = match inner.split_once(' ') {
                Some((key, value)) => (key, Some(value)),
                None => (inner, None),
            };
            let Some(setting) = Setting::of_key(key) else {
                out.push_str(&rest[..=close]);
                rest = &rest[close + 1..];
                after_value = false;
                continue;
            };
            match value {
                Some(value) => {
                    let words = said(setting, value, surface);
                    match words.strip_prefix('?') {
                        Some(pair) if after_value && between == " " => {
                            let _ = write!(out, "&{pair}");
                        }
                        _ => {
                            out.push_str(between);
                            out.push_str(&words);
                        }
                    }
                    after_value = true;
                }
                None => {
                    out.push_str(between);
                    out.push_str(&setting.named(surface));
                    after_value = false;
                }
            }
            rest = &rest[close + 1..];
        }
        out.push_str(rest);
        out
    }

    /// Its choices in a sentence, each between `quote`s: `'auto', 'spec'
    /// or 'upstream'`; `None` for an option that is no choice.
    #[must_use]
    pub fn choices_said(&self, quote: char) -> Option<String> {
        let Values::Choice(words) = self.values else {
            return None;
        };
        let words: Vec<String> = words.iter().map(|w| format!("{quote}{w}{quote}")).collect();
        let (last, rest) = words.split_last()?;
        Some(if rest.is_empty() {
            last.clone()
        } else {
            format!("{} or {last}", rest.join(", "))
        })
    }

    /// The values it takes, as an error message expects them: `one of
    /// "auto", "spec", "upstream"` for a choice; `None` for others.
    #[must_use]
    pub fn one_of(&self) -> Option<String> {
        let Values::Choice(words) = self.values else {
            return None;
        };
        let words: Vec<String> = words.iter().map(|word| format!("{word:?}")).collect();
        Some(format!("one of {}", words.join(", ")))
    }
}

/// The format's first version: the oldest a document can be checked as of.
#[must_use]
pub fn first_version() -> Version {
    let roots: Vec<&'static ModelDef> = Kind::ALL.iter().map(|kind| kind.model()).collect();
    versions(&roots)
        .first()
        .copied()
        .unwrap_or(Version::new(0, 0, 0))
}

/// A regular expression of what `as-of` takes: `auto`, `latest`, or a
/// version no older than [`first_version`] ([`version_pattern`]), for a
/// schema's `pattern`.
#[must_use]
pub fn as_of_pattern() -> String {
    format!("^(auto|latest|{})$", version_pattern())
}

/// A regular expression of a version (its `v` optional) no older than
/// [`first_version`], each part of at most 9 digits; not anchored.
#[must_use]
pub fn version_pattern() -> String {
    let first = first_version();
    let any = "(0|[1-9][0-9]{0,8})";
    let version = if (first.minor, first.patch) == (0, 0) {
        format!("{}\\.{any}\\.{any}", at_least(first.major))
    } else {
        format!(
            "({}\\.{any}\\.{any}|{}\\.{}\\.{any}|{}\\.{}\\.{})",
            at_least(first.major + 1),
            first.major,
            at_least(first.minor + 1),
            first.major,
            first.minor,
            at_least(first.patch),
        )
    };
    format!("v?{version}")
}

/// A regular expression of the numbers of at most 9 digits, no leading
/// zero, from `n` up: `([4-9]|[1-9][0-9]{1,8})` from 4.
fn at_least(n: u32) -> String {
    let digits: Vec<u32> = n.to_string().bytes().map(|b| u32::from(b - b'0')).collect();
    let width = digits.len();
    let mut ways = Vec::new();
    if width == 1 {
        ways.push(format!("[{n}-9]"));
    } else {
        ways.push(n.to_string());
        // Same width: the same digits up to one that is larger, then any.
        for (at, &digit) in digits.iter().enumerate() {
            if digit == 9 {
                continue;
            }
            let prefix: String = digits[..at].iter().map(ToString::to_string).collect();
            let rest = width - at - 1;
            let tail = if rest == 0 {
                String::new()
            } else {
                format!("[0-9]{{{rest}}}")
            };
            ways.push(format!("{prefix}[{}-9]{tail}", digit + 1));
        }
    }
    if width < 9 {
        ways.push(format!("[1-9][0-9]{{{width},8}}"));
    }
    format!("({})", ways.join("|"))
}

/// Every configuration key, in the order `cardkit config` lists them.
#[must_use]
pub fn keys() -> [&'static str; 17] {
    OPTIONS.map(|def| def.key)
}

#[cfg(test)]
mod tests;
