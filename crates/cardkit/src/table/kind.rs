//! The four kinds of document, by name; the models say which is each
//! kind's top-level model (`model/kind.rs`).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// The four kinds of document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A card-design template.
    Template,
    /// A card design on its own.
    Card,
    /// A card set.
    Set,
    /// A catalog migration notice.
    Migration,
}

impl Kind {
    /// Every kind.
    pub const ALL: &'static [Kind] = &[Kind::Template, Kind::Card, Kind::Set, Kind::Migration];

    /// `template`, `card`, `set` or `migration`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Template => "template",
            Kind::Card => "card",
            Kind::Set => "set",
            Kind::Migration => "migration",
        }
    }

    /// The kind in words, as messages name a document of it: `template`,
    /// `card design`, `set`, `migration`.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Kind::Card => "card design",
            other => other.as_str(),
        }
    }

    /// Every kind's name, as a message lists them: `template, card, set or
    /// migration`.
    #[must_use]
    pub fn listed() -> &'static str {
        "template, card, set or migration"
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Kind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Kind::ALL
            .iter()
            .copied()
            .find(|kind| kind.as_str() == text)
            .ok_or_else(|| format!("unknown kind `{text}`: expected {}", Kind::listed()))
    }
}
