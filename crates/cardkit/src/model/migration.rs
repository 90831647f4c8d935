//! A catalog migration notice.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use uuid::Uuid;

use super::value::Uri;
use crate::Model;

/// A notice that a catalog card record was replaced, merged or otherwise
/// changed. It records the old identifier and, for a merge, the new one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct Migration {
    /// Object kind marker.
    pub object: MigrationObject,
    /// Link to the current object in the catalog's API.
    pub uri: Uri,
    /// Unique identifier of this migration. May be absent, but not null.
    #[field(not_null)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Uuid>,
    /// Date the migration was performed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<NaiveDate>,
    /// Computer-readable indicator of the migration strategy.
    pub migration_strategy: String,
    /// Identifier of the affected catalog card object.
    #[serde(rename = "old_catalogA_id")]
    pub old_catalog_a_id: Uuid,
    /// Replacement identifier of the catalog card object when the migration
    /// is a merge.
    #[serde(
        rename = "new_catalogA_id",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub new_catalog_a_id: Option<Uuid>,
    /// Note left by the catalog team about the migration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The constant `migration` of `Migration.object`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Model)]
#[model(constant)]
pub enum MigrationObject {
    /// `migration`.
    #[serde(rename = "migration")]
    Migration,
}
