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
    /// The `category` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,

    /// The `identifiers` value.
    #[field(since = "v5.2.0")]
    pub identifiers: Identifiers,

    /// The `name` value.
    #[field(since = "v5.2.0")]
    pub name: String,

    /// The `productSize` value.
    #[field(since = "v5.2.1")]
    #[serde(
        default,
        deserialize_with = "wire::optional_integer",
        skip_serializing_if = "Option::is_none"
    )]
    pub product_size: Option<i64>,

    /// The `purchaseUrls` value.
    #[field(since = "v5.2.0")]
    pub purchase_urls: PurchaseUrls,

    /// The `releaseDate` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release_date: Option<NaiveDate>,

    /// The `subtype` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtype: Option<String>,

    /// The `uuid` value.
    #[field(since = "v5.2.0")]
    pub uuid: Uuid,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
