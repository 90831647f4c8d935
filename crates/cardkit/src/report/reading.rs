//! How one input was read: the names its documents use and the version they
//! were checked as of, how each was decided, and, when an option the run
//! was given kept a file from being read as it declares itself, the option
//! that would change its verdict.

use std::fmt;

use serde::Serialize;

use crate::schema::Version;
use crate::table::Names;

/// How one input was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Reading {
    /// The names its documents were read under: `spec` or `upstream`.
    pub names: &'static str,
    /// How they were decided: `members` (told from the document's own
    /// members), `none-told` (no member tells: both read alike, the spec's
    /// are named) or `asked` (an option).
    pub names_from: &'static str,
    /// The version it was checked as of (`v5.2.0`); `None` when no document
    /// of it has versioned fields (a migration notice).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub as_of: Option<String>,
    /// How: `declared` (its `meta.version`), `latest` (it declares none, or
    /// none cardkit can check as of) or `asked` (an option).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version_from: Option<&'static str>,
    /// Its `meta.version` as written, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared: Option<String>,
    /// All of it, in words.
    pub note: String,
    /// What would read it as it declares itself, when an option kept it
    /// from that.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub way_out: Option<WayOut>,
}

/// An option, with a value, that would change a file's verdict, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WayOut {
    /// The option, by its configuration key (`names`, `as-of`).
    pub option: &'static str,
    /// Its value (`auto`).
    pub value: &'static str,
    /// The option and its value as the front end names them (`--names
    /// auto` on the command line, `names="auto"` in Python).
    pub said: String,
    /// Why, in words.
    pub why: String,
}

impl fmt::Display for WayOut {
    /// `--names auto: why`, as the front end words the option.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.said, self.why)
    }
}

impl WayOut {
    /// The way out `option` = `value` (by its configuration key), as the
    /// front end says it (`said`).
    #[must_use]
    pub fn new(option: &'static str, value: &'static str, said: String, why: String) -> WayOut {
        WayOut {
            option,
            value,
            said,
            why,
        }
    }
}

/// How the version was decided, for [`Reading::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionFrom {
    /// The file's `meta.version`.
    Declared,
    /// The latest, as the file declares none cardkit can check as of.
    Latest,
    /// An option.
    Asked,
}

impl Reading {
    /// A reading under `names` (as decided for its first document,
    /// `asked`: by an option) and, for documents with versioned fields, as
    /// of `version` (`None`: the latest), with the note on the version.
    #[must_use]
    pub fn new(
        names: Names,
        names_asked: bool,
        version: Option<(Option<Version>, VersionFrom, String)>,
        declared: Option<String>,
    ) -> Reading {
        let names_from = match (names_asked, names) {
            (true, _) => "asked",
            (false, Names::Auto) => "none-told",
            (false, _) => "members",
        };
        let mut note = format!("read under {}", names.words());
        note.push_str(match names_from {
            "asked" => " (as asked)",
            "members" => " (told from its members)",
            _ => " (no member tells them apart)",
        });
        let (as_of, version_from) = match version {
            Some((as_of, from, said)) => {
                note.push_str("; ");
                note.push_str(&said);
                let from = match from {
                    VersionFrom::Declared => "declared",
                    VersionFrom::Latest => "latest",
                    VersionFrom::Asked => "asked",
                };
                (
                    Some(as_of.map_or_else(
                        || crate::schema::latest_version().to_string(),
                        |v| v.to_string(),
                    )),
                    Some(from),
                )
            }
            None => (None, None),
        };
        Reading {
            names: names.written().name(),
            names_from,
            as_of,
            version_from,
            declared,
            note,
            way_out: None,
        }
    }

    /// The note, and the way out when there is one.
    #[must_use]
    pub fn said(&self) -> String {
        match &self.way_out {
            Some(way_out) => format!("{}; {way_out}", self.note),
            None => self.note.clone(),
        }
    }
}
