//! Card properties in another language.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::model::wire;
use crate::Model;

/// Card properties in another language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct ForeignData {
    /// Name of this face of the card in the language.
    #[field(since = "v5.0.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_name: Option<String>,

    /// Flavor text of the card in the language.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flavor_text: Option<String>,

    /// The language (for example German, Japanese).
    #[field(since = "v4.0.0", few_values)]
    pub language: String,

    /// Identifier of the card's printing in this language at the card registry.
    #[field(since = "v4.0.0")]
    #[serde(
        default,
        deserialize_with = "wire::optional_integer",
        skip_serializing_if = "Option::is_none"
    )]
    pub registry_id: Option<i64>,

    /// Name of the card in the language.
    #[field(since = "v4.0.0")]
    pub name: String,

    /// Rules text of the card in the language.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,

    /// Type line of the card in the language.
    #[field(since = "v4.0.0")]
    #[serde(rename = "type")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
