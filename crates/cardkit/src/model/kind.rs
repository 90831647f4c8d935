//! The four kinds of document, each named by its top-level model.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::table::{Describe, Model, ModelDef, Type};

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

    /// Every model of every kind, each once.
    #[must_use]
    pub fn every_model() -> Vec<&'static ModelDef> {
        let mut all: Vec<&'static ModelDef> = Vec::new();
        for kind in Kind::ALL {
            for model in crate::table::models_of(kind.model()) {
                if !all.iter().any(|m| std::ptr::eq(*m, model)) {
                    all.push(model);
                }
            }
        }
        all
    }

    /// Whether a document of this kind has fields the publishers name
    /// otherwise (sets, migrations): its report says which names it was
    /// read under.
    #[must_use]
    pub fn has_names(self) -> bool {
        self.traits().0
    }

    /// Whether a document of this kind has fields with version tags (sets):
    /// its report says which version it was checked as of.
    #[must_use]
    pub fn has_versions(self) -> bool {
        self.traits().1
    }

    /// [`Kind::has_names`] and [`Kind::has_versions`], read off the field
    /// tables once.
    fn traits(self) -> (bool, bool) {
        static TRAITS: std::sync::OnceLock<Vec<(bool, bool)>> = std::sync::OnceLock::new();
        let all = TRAITS.get_or_init(|| {
            Kind::ALL
                .iter()
                .map(|kind| {
                    let models = crate::table::models_of(kind.model());
                    let names = models
                        .iter()
                        .any(|model| crate::table::Names::Upstream.of(model).is_some());
                    let versions = models
                        .iter()
                        .any(|model| model.fields.iter().any(|field| field.since.is_some()));
                    (names, versions)
                })
                .collect()
        });
        let at = Kind::ALL.iter().position(|&kind| kind == self).unwrap_or(0);
        all[at]
    }

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

    /// The top-level model of the kind.
    #[must_use]
    pub fn model(self) -> &'static ModelDef {
        match self {
            Kind::Template => crate::model::Template::model(),
            Kind::Card => crate::model::Card::model(),
            Kind::Set => crate::model::Set::model(),
            Kind::Migration => crate::model::Migration::model(),
        }
    }

    pub(crate) fn root_type(self) -> &'static Type {
        match self {
            Kind::Template => crate::model::Template::TYPE,
            Kind::Card => crate::model::Card::TYPE,
            Kind::Set => crate::model::Set::TYPE,
            Kind::Migration => crate::model::Migration::TYPE,
        }
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
