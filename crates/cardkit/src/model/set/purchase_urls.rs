//! Where to buy a card or product, per marketplace.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// Where to buy a card or product, per marketplace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseUrls {
    /// Where to buy the card or product at marketplace A.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a: Option<String>,

    /// Where to buy the etched printing at marketplace A.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a_etched: Option<String>,

    /// Where to buy the foil printing at marketplace A.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a_foil: Option<String>,

    /// Where to buy the card or product at marketplace C.
    #[field(since = "v4.4.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_c: Option<String>,

    /// Where to buy the card or product at marketplace D.
    #[field(since = "v4.4.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_d: Option<String>,

    /// Where to buy the etched printing at marketplace D.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_d_etched: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
