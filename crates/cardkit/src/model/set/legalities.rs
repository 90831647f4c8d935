//! Legality of a card per play format.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// Legality of a card per play format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct Legalities {
    /// Legality of the card in the brawl play format (the allowed values are not specified).
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brawl: Option<String>,

    /// Legality of the card in the commander play format (the allowed values are not
    /// specified).
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander: Option<String>,

    /// Legality of the card in the duel play format (the allowed values are not specified).
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duel: Option<String>,

    /// Legality of the card in the explorer play format (the allowed values are not specified).
    #[field(since = "v5.2.1", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explorer: Option<String>,

    /// Legality of the card in the future play format (the allowed values are not specified).
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub future: Option<String>,

    /// Legality of the card in the gladiator play format (the allowed values are not
    /// specified).
    #[field(since = "v5.2.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gladiator: Option<String>,

    /// Legality of the card in the historic play format (the allowed values are not specified).
    #[field(since = "v5.1.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub historic: Option<String>,

    /// Legality of the card in the historicbrawl play format (the allowed values are not
    /// specified).
    #[field(since = "v5.2.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub historicbrawl: Option<String>,

    /// Legality of the card in the legacy play format (the allowed values are not specified).
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legacy: Option<String>,

    /// Legality of the card in the modern play format (the allowed values are not specified).
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modern: Option<String>,

    /// Legality of the card in the oldschool play format (the allowed values are not
    /// specified).
    #[field(since = "v5.2.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oldschool: Option<String>,

    /// Legality of the card in the pauper play format (the allowed values are not specified).
    #[field(since = "v5.2.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pauper: Option<String>,

    /// Legality of the card in the paupercommander play format (the allowed values are not
    /// specified).
    #[field(since = "v5.2.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paupercommander: Option<String>,

    /// Legality of the card in the penny play format (the allowed values are not specified).
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penny: Option<String>,

    /// Legality of the card in the pioneer play format (the allowed values are not specified).
    #[field(since = "v4.6.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pioneer: Option<String>,

    /// Legality of the card in the predh play format (the allowed values are not specified).
    #[field(since = "v5.2.1", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predh: Option<String>,

    /// Legality of the card in the premodern play format (the allowed values are not
    /// specified).
    #[field(since = "v5.2.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub premodern: Option<String>,

    /// Legality of the card in the standard play format (the allowed values are not specified).
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard: Option<String>,

    /// Legality of the card in the vintage play format (the allowed values are not specified).
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vintage: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
