//! Formats in which the card can lead a deck.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// Formats in which the card can lead a deck.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct LeadershipSkills {
    /// The card can lead a deck in the brawl format.
    #[field(since = "v4.5.1")]
    pub brawl: bool,

    /// The card can lead a deck in the commander format.
    #[field(since = "v4.5.1")]
    pub commander: bool,

    /// The card can lead a deck in the oathbreaker format.
    #[field(since = "v4.5.1")]
    pub oathbreaker: bool,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
