//! Identifiers of a card or product at marketplaces, platforms, catalogs and registries.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// Identifiers of a card or product at marketplaces, platforms, catalogs and registries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct Identifiers {
    /// Identifier of the etched printing at marketplace A.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a_etched_id: Option<String>,

    /// Identifier of the foil printing at marketplace A.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a_foil_id: Option<String>,

    /// Identifier of the printing at marketplace A.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a_id: Option<String>,

    /// Identifier of the printing at marketplace B.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_b_id: Option<String>,

    /// Identifier of the printing at marketplace C.
    #[field(since = "v4.4.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_c_id: Option<String>,

    /// Identifier at marketplace C shared by every printing of the card.
    #[field(since = "v4.4.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_c_meta_id: Option<String>,

    /// Identifier on online game platform A.
    #[field(since = "v4.5.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_a_id: Option<String>,

    /// Identifier that data provider A gives the foil version of a card printed as a separate
    /// card.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_a_foil_version_id: Option<String>,

    /// Identifier that data provider A gives the non-foil version of a card printed as a
    /// separate card.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_a_non_foil_version_id: Option<String>,

    /// Identifier of the foil version on online game platform B.
    #[field(since = "v4.5.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_b_foil_id: Option<String>,

    /// Identifier on online game platform B.
    #[field(since = "v4.5.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_b_id: Option<String>,

    /// Identifier the card had in version 4 of data provider A's data.
    #[field(since = "v5.0.0")]
    #[serde(rename = "datasetAV4Id")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_av4_id: Option<String>,

    /// Identifier of the printing at the card registry.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry_id: Option<String>,

    /// Identifier of the printing in card catalog A.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_a_id: Option<String>,

    /// Identifier in card catalog A shared by every printing of the same card.
    #[field(since = "v4.3.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_a_oracle_id: Option<String>,

    /// Identifier in card catalog A of the illustration, shared by printings with the same art.
    #[field(since = "v4.3.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_a_illustration_id: Option<String>,

    /// Product identifier at marketplace D.
    #[field(since = "v4.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_d_product_id: Option<String>,

    /// Product identifier of the etched printing at marketplace D.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_d_etched_product_id: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
