//! A ruling on a card.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// A ruling on a card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[model(name = "Rulings")]
#[serde(rename_all = "camelCase")]
pub struct Ruling {
    /// Date of the ruling.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<NaiveDate>,

    /// Text of the ruling.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
