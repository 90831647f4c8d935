//! What the diff needs to know about fields, taken from the field tables of
//! `cardkit::schema` (never restated): the lists of records a set holds, the
//! key of a record, its natural key, its identifiers and catalog id, and
//! which fields have few values.

use std::sync::OnceLock;

use cardkit::schema::{Format, ModelDef, Type};
use cardkit::Kind;

/// The member of a record that keys it within its list.
pub const KEY: &str = "uuid";

/// The members of a record that name the printing whatever its uuid:
/// collector number, side, language, name (those the record's model has).
pub const NATURAL_KEY: [&str; 4] = ["number", "side", "language", "name"];

/// The member of a record that holds its identifiers.
pub const IDENTIFIERS: &str = "identifiers";

/// The identifier that Migration notices are about (`old_catalogA_id`).
pub const CATALOG_ID: &str = "catalogAId";

/// One list of records in a set (cards, tokens, sealed products).
#[derive(Debug)]
pub struct RecordList {
    /// The set's member that holds the list (`cards`).
    pub name: &'static str,
    /// The model of its items (`CardSet`).
    pub model: &'static ModelDef,
    /// The members of [`NATURAL_KEY`] the model has, in that order.
    pub natural_key: Vec<&'static str>,
}

/// The facts, found once.
#[derive(Debug)]
pub struct Facts {
    /// The Set model.
    pub set: &'static ModelDef,
    /// The set's lists of records that have a [`KEY`], in the Set model's
    /// order.
    pub lists: Vec<RecordList>,
    /// The model of [`IDENTIFIERS`].
    pub identifiers: &'static ModelDef,
}

/// The facts of the field tables the diff uses.
///
/// # Panics
/// Never with the crate's own tables: a test checks every fact.
#[must_use]
pub fn facts() -> &'static Facts {
    static FACTS: OnceLock<Facts> = OnceLock::new();
    FACTS.get_or_init(|| {
        let set = Kind::Set.model();
        let lists: Vec<RecordList> = set
            .fields
            .iter()
            .filter_map(|field| match field.ty {
                Type::List {
                    item: Type::Model { model },
                } => Some((field.name, model())),
                _ => None,
            })
            .filter(|(_, model)| is_uuid_key(model))
            .map(|(name, model)| RecordList {
                name,
                model,
                natural_key: NATURAL_KEY
                    .into_iter()
                    .filter(|key| model.field(key).is_some())
                    .collect(),
            })
            .collect();
        let identifiers = lists
            .iter()
            .find_map(|list| match list.model.field(IDENTIFIERS)?.1.ty {
                Type::Model { model } => Some(model()),
                _ => None,
            })
            .expect("records have identifiers");
        assert!(identifiers.field(CATALOG_ID).is_some(), "{CATALOG_ID}");
        Facts {
            set,
            lists,
            identifiers,
        }
    })
}

fn is_uuid_key(model: &ModelDef) -> bool {
    matches!(
        model.field(KEY),
        Some((
            _,
            cardkit::schema::FieldDef {
                ty: Type::String {
                    format: Some(Format::Uuid)
                },
                ..
            }
        ))
    )
}

impl Facts {
    /// The list named `name`, with its index.
    #[must_use]
    pub fn list(&self, name: &[u8]) -> Option<(usize, &RecordList)> {
        self.lists
            .iter()
            .enumerate()
            .find(|(_, list)| list.name.as_bytes() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_have_every_fact() {
        let facts = facts();
        let names: Vec<&str> = facts.lists.iter().map(|l| l.name).collect();
        assert_eq!(names, ["cards", "sealedProduct", "tokens"]);
        assert_eq!(facts.lists[0].natural_key, NATURAL_KEY);
        assert_eq!(facts.lists[1].natural_key, ["name"]);
        assert_eq!(facts.identifiers.name, "Identifiers");
    }
}
