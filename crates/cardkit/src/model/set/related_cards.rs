//! Cards related to this one.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// Cards related to this one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct RelatedCards {
    /// Names of the cards this card is related to in reverse, such as the cards that create a
    /// token.
    #[field(link = CardNames, since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_related: Option<Vec<String>>,

    /// Names of the cards in this card's spellbook (online game variations).
    #[field(link = CardNames, since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spellbook: Option<Vec<String>>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
