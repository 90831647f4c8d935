//! Where to buy a card or product, per marketplace.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// Where to buy a card or product, per marketplace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseUrls {
    /// The `shopA` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a: Option<String>,

    /// The `shopAEtched` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a_etched: Option<String>,

    /// The `shopAFoil` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a_foil: Option<String>,

    /// The `shopC` value.
    #[field(since = "v4.4.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_c: Option<String>,

    /// The `shopD` value.
    #[field(since = "v4.4.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_d: Option<String>,

    /// The `shopDEtched` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_d_etched: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
