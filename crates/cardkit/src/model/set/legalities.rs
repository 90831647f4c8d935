//! Legality of a card per play format.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// Legality of a card per play format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct Legalities {
    /// The `brawl` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brawl: Option<String>,

    /// The `commander` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander: Option<String>,

    /// The `duel` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duel: Option<String>,

    /// The `explorer` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explorer: Option<String>,

    /// The `future` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub future: Option<String>,

    /// The `gladiator` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gladiator: Option<String>,

    /// The `historic` value.
    #[field(since = "v5.1.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub historic: Option<String>,

    /// The `historicbrawl` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub historicbrawl: Option<String>,

    /// The `legacy` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legacy: Option<String>,

    /// The `modern` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modern: Option<String>,

    /// The `oldschool` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oldschool: Option<String>,

    /// The `pauper` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pauper: Option<String>,

    /// The `paupercommander` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paupercommander: Option<String>,

    /// The `penny` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penny: Option<String>,

    /// The `pioneer` value.
    #[field(since = "v4.6.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pioneer: Option<String>,

    /// The `predh` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predh: Option<String>,

    /// The `premodern` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub premodern: Option<String>,

    /// The `standard` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard: Option<String>,

    /// The `vintage` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vintage: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
