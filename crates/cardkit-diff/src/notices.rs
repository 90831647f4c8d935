//! Migration notices for the catalog ids a new build no longer has: a
//! `merge` into the catalog id the printing has now (its uuid is the same,
//! or it was re-keyed), a `delete` when the printing is gone. Each notice
//! is a valid Migration document: its `id` is a version-5 UUID of its
//! content (strategy, old and new id, date), so the same change always
//! gets the same id; its `uri` is the URN of that id; its `created_at` is
//! the new build's date; its `note` the evidence.

use cardkit::schema::Names;
use cardkit::Kind;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use uuid::Uuid;

/// The namespace of the notices' ids: the version-5 UUID (URL namespace)
/// of `https://github.com/cardkit/cardkit/migration`.
#[must_use]
pub fn namespace() -> Uuid {
    Uuid::new_v5(
        &Uuid::NAMESPACE_URL,
        b"https://github.com/cardkit/cardkit/migration",
    )
}

/// What became of a printing that had a catalog id the new build lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Same uuid, another catalog id.
    Reidentified {
        /// The catalog id it has now.
        new_catalog: String,
    },
    /// Another uuid (same natural key), another catalog id.
    Rekeyed {
        /// The uuid it had.
        old_uuid: String,
        /// The uuid it has.
        new_uuid: String,
        /// The catalog id it has now.
        new_catalog: String,
    },
    /// Not in the new build (or there without a catalog id).
    Gone,
}

/// The evidence for one notice: the printing, in the old build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    /// The catalog id the new build no longer has.
    pub catalog: String,
    /// The set's code.
    pub set: String,
    /// The printing's collector number.
    pub number: Option<String>,
    /// Its name.
    pub name: Option<String>,
    /// What became of it.
    pub fate: Fate,
}

impl Evidence {
    /// The catalog id it was merged into, if it was.
    #[must_use]
    pub fn merged_into(&self) -> Option<&str> {
        match &self.fate {
            Fate::Reidentified { new_catalog } | Fate::Rekeyed { new_catalog, .. } => {
                Some(new_catalog)
            }
            Fate::Gone => None,
        }
    }

    fn note(&self) -> String {
        let mut what = format!("set {}", self.set);
        if let Some(number) = &self.number {
            what.push_str(&format!(" #{number}"));
        }
        if let Some(name) = &self.name {
            what.push_str(&format!(" {name:?}"));
        }
        match &self.fate {
            Fate::Reidentified { new_catalog } => format!(
                "{what}: catalogAId changed from {} to {new_catalog} on the same uuid",
                self.catalog
            ),
            Fate::Rekeyed {
                old_uuid,
                new_uuid,
                new_catalog,
            } => format!(
                "{what}: re-keyed (uuid {old_uuid} -> {new_uuid}), catalogAId changed from {} to {new_catalog}",
                self.catalog
            ),
            Fate::Gone => format!("{what}: the printing is no longer in the build"),
        }
    }
}

/// The id of a notice of this content.
#[must_use]
pub fn notice_id(strategy: &str, old: &str, new: Option<&str>, created_at: Option<&str>) -> Uuid {
    let content = format!(
        "{strategy}\n{old}\n{}\n{}",
        new.unwrap_or(""),
        created_at.unwrap_or("")
    );
    Uuid::new_v5(&namespace(), content.as_bytes())
}

/// A Migration notice, its members in the spec's order, written under the
/// wire names of the builds it was made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationNotice {
    /// Always `migration`.
    pub object: &'static str,
    /// A version-5 UUID of the content ([`notice_id`]).
    pub id: String,
    /// `urn:uuid:` and the id.
    pub uri: String,
    /// The new build's date.
    pub created_at: Option<String>,
    /// `merge` or `delete`.
    pub migration_strategy: &'static str,
    /// The catalog id the new build no longer has.
    pub old_catalog_a_id: String,
    /// For a merge, the catalog id the printing has now.
    pub new_catalog_a_id: Option<String>,
    /// The evidence: set, number, name, what changed.
    pub note: String,
    /// The wire names it is written under: the spec's (`created_at`,
    /// `old_catalogA_id`) or the publishers' (`performed_at`,
    /// `old_scryfall_id`).
    pub names: Names,
}

/// Written member by member, each under its wire name from the Migration
/// model's table.
impl Serialize for MigrationNotice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let model = Kind::Migration.model();
        let name = |spec: &'static str| self.names.name_of(model, spec);
        let mut map = serializer.serialize_map(Some(8))?;
        map.serialize_entry(name("object"), self.object)?;
        map.serialize_entry(name("id"), &self.id)?;
        map.serialize_entry(name("uri"), &self.uri)?;
        map.serialize_entry(name("created_at"), &self.created_at)?;
        map.serialize_entry(name("migration_strategy"), self.migration_strategy)?;
        map.serialize_entry(name("old_catalogA_id"), &self.old_catalog_a_id)?;
        map.serialize_entry(name("new_catalogA_id"), &self.new_catalog_a_id)?;
        map.serialize_entry(name("note"), &self.note)?;
        map.end()
    }
}

/// The Migration notice for `evidence`, dated `created_at`, written under
/// the wire names `names`.
#[must_use]
pub fn notice(evidence: &Evidence, created_at: Option<&str>, names: Names) -> MigrationNotice {
    let new = evidence.merged_into();
    let strategy = if new.is_some() { "merge" } else { "delete" };
    let id = notice_id(strategy, &evidence.catalog, new, created_at);
    MigrationNotice {
        object: "migration",
        id: id.to_string(),
        uri: format!("urn:uuid:{id}"),
        created_at: created_at.map(str::to_owned),
        migration_strategy: strategy,
        old_catalog_a_id: evidence.catalog.clone(),
        new_catalog_a_id: new.map(str::to_owned),
        note: evidence.note(),
        names,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_content_has_the_same_id() {
        let a = notice_id("merge", "a", Some("b"), Some("2024-05-01"));
        assert_eq!(a, notice_id("merge", "a", Some("b"), Some("2024-05-01")));
        assert_ne!(a, notice_id("merge", "a", Some("c"), Some("2024-05-01")));
        assert_eq!(a.get_version_num(), 5);
    }
}
