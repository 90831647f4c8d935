//! Identifiers of a card or product at marketplaces, platforms, catalogs and registries.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// Identifiers of a card or product at marketplaces, platforms, catalogs and registries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct Identifiers {
    /// The `shopAEtchedId` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a_etched_id: Option<String>,

    /// The `shopAFoilId` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a_foil_id: Option<String>,

    /// The `shopAId` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_a_id: Option<String>,

    /// The `shopBId` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_b_id: Option<String>,

    /// The `shopCId` value.
    #[field(since = "v4.4.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_c_id: Option<String>,

    /// The `shopCMetaId` value.
    #[field(since = "v4.4.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_c_meta_id: Option<String>,

    /// The `platformAId` value.
    #[field(since = "v4.5.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_a_id: Option<String>,

    /// The `datasetAFoilVersionId` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_a_foil_version_id: Option<String>,

    /// The `datasetANonFoilVersionId` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_a_non_foil_version_id: Option<String>,

    /// The `platformBFoilId` value.
    #[field(since = "v4.5.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_b_foil_id: Option<String>,

    /// The `platformBId` value.
    #[field(since = "v4.5.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_b_id: Option<String>,

    /// The `datasetAV4Id` value.
    #[field(since = "v5.0.0")]
    #[serde(rename = "datasetAV4Id")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_av4_id: Option<String>,

    /// The `registryId` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry_id: Option<String>,

    /// The `catalogAId` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_a_id: Option<String>,

    /// The `catalogAOracleId` value.
    #[field(since = "v4.3.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_a_oracle_id: Option<String>,

    /// The `catalogAIllustrationId` value.
    #[field(since = "v4.3.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_a_illustration_id: Option<String>,

    /// The `shopDProductId` value.
    #[field(since = "v4.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_d_product_id: Option<String>,

    /// The `shopDEtchedProductId` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_d_etched_product_id: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
