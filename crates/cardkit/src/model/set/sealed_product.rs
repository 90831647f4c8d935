//! A sealed product of a set.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::model::set::{Identifiers, PurchaseUrls};
use crate::model::wire;
use crate::Model;

/// A sealed product of a set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct SealedProduct {
    /// Category of the product (for example booster box, deck); the allowed values are not
    /// specified.
    #[field(since = "v5.2.1", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,

    /// Identifiers of the product at marketplaces, online game platforms, catalogs and
    /// registries.
    #[field(since = "v5.2.0")]
    pub identifiers: Identifiers,

    /// Name of the product.
    #[field(since = "v5.2.0")]
    pub name: String,

    /// Number of packs or cards in the product.
    #[field(since = "v5.2.1")]
    #[serde(
        default,
        deserialize_with = "wire::optional_integer",
        skip_serializing_if = "Option::is_none"
    )]
    pub product_size: Option<i64>,

    /// Where to buy the product, per marketplace.
    #[field(since = "v5.2.0")]
    pub purchase_urls: PurchaseUrls,

    /// Release date of the product in ISO 8601 format.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release_date: Option<NaiveDate>,

    /// Subtype of the product (for example collector, draft, set); the allowed values are not
    /// specified.
    #[field(since = "v5.2.1", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtype: Option<String>,

    /// Universally unique identifier of the product.
    #[field(link = Id, since = "v5.2.0")]
    pub uuid: Uuid,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
