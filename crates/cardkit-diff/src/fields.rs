//! What the diff needs to know about fields, taken from the field tables of
//! `cardkit::schema` (never restated): the lists of records a set holds, the
//! key of a record, its natural key, its identifiers and catalog id, and
//! which fields have few values.
//!
//! Fields are found by their Rust names in the models (`catalog_a_id`), and
//! their wire names (`catalogAId`) taken from the tables: a field renamed on
//! the wire is followed, and one renamed in the models fails the test that
//! checks every fact instead of silently matching nothing.

use std::sync::OnceLock;

use cardkit::schema::Names;
use cardkit::schema::{FieldDef, Format, ModelDef, Type};
use cardkit::Kind;

/// The Rust name of a set's code.
const CODE: &str = "code";

/// The Rust name of the member of a record that keys it within its list.
const KEY: &str = "uuid";

/// The Rust names of the members of a record that name the printing
/// whatever its uuid: collector number, side, language, name (those the
/// record's model has).
const NATURAL_KEY: [&str; 4] = ["number", "side", "language", "name"];

/// The Rust names of a record's collector number and name, which label it
/// in reports.
const NUMBER: &str = "number";
const NAME: &str = "name";

/// The Rust name of the member of a record that holds its identifiers.
const IDENTIFIERS: &str = "identifiers";

/// The Rust name of the identifier that Migration notices are about
/// (`old_catalogA_id`).
const CATALOG_ID: &str = "catalog_a_id";

/// One list of records in a set (cards, tokens, sealed products).
#[derive(Debug)]
pub struct RecordList {
    /// The set's member that holds the list (`cards`).
    pub name: &'static str,
    /// The model of its items (`CardSet`).
    pub model: &'static ModelDef,
    /// The wire names of the members of the natural key the model has, in
    /// the order of collector number, side, language, name.
    pub natural_key: Vec<&'static str>,
    /// The wire name of the collector number, when the model has one.
    pub number: Option<&'static str>,
    /// The wire name of the record's name, when the model has one.
    pub label: Option<&'static str>,
}

/// The facts, found once.
#[derive(Debug)]
pub struct Facts {
    /// The Set model.
    pub set: &'static ModelDef,
    /// The wire name of a set's code (`code`).
    pub code: &'static str,
    /// The set's lists of records that have a key (a uuid), in the Set
    /// model's order.
    pub lists: Vec<RecordList>,
    /// The wire name of the member that keys a record (`uuid`).
    pub key: &'static str,
    /// The wire name of a record's identifiers (`identifiers`).
    pub identifiers_name: &'static str,
    /// The model of the identifiers.
    pub identifiers: &'static ModelDef,
    /// The wire name of the catalog id among the identifiers
    /// (`catalogAId`).
    pub catalog_id: &'static str,
}

/// The field of `model` whose Rust name is `rust_name`.
#[must_use]
pub fn by_rust_name(model: &ModelDef, rust_name: &str) -> Option<&'static FieldDef> {
    model
        .fields
        .iter()
        .find(|field| field.rust_name == rust_name)
}

/// The facts of the field tables the diff uses, under the spec's names.
#[must_use]
pub fn facts() -> &'static Facts {
    facts_for(Names::Spec)
}

/// The facts of the field tables the diff uses, under the wire names
/// `names`.
///
/// # Panics
/// Never with the crate's own tables: a test checks every fact.
#[must_use]
pub fn facts_for(names: Names) -> &'static Facts {
    static FACTS: [OnceLock<Facts>; Names::FIXED.len()] = [OnceLock::new(), OnceLock::new()];
    let names = names.written();
    let at = Names::FIXED.iter().position(|n| *n == names).unwrap_or(0);
    FACTS[at].get_or_init(|| {
        let set = Kind::Set.model();
        let wire = |model: &'static ModelDef, rust_name: &str| {
            by_rust_name(model, rust_name).map(|f| names.wire_name(model, f))
        };
        let lists: Vec<RecordList> = set
            .fields
            .iter()
            .filter_map(|field| match field.ty {
                Type::List {
                    item: Type::Model { model },
                } => Some((names.wire_name(set, field), model())),
                _ => None,
            })
            .filter(|(_, model)| is_uuid_key(model))
            .map(|(name, model)| RecordList {
                name,
                model,
                natural_key: NATURAL_KEY
                    .into_iter()
                    .filter_map(|key| wire(model, key))
                    .collect(),
                number: wire(model, NUMBER),
                label: wire(model, NAME),
            })
            .collect();
        let key = lists
            .first()
            .and_then(|list| wire(list.model, KEY))
            .expect("records have a key");
        let (identifiers_name, identifiers) = lists
            .iter()
            .find_map(|list| {
                let field = by_rust_name(list.model, IDENTIFIERS)?;
                match field.ty {
                    Type::Model { model } => Some((names.wire_name(list.model, field), model())),
                    _ => None,
                }
            })
            .expect("records have identifiers");
        Facts {
            set,
            code: wire(set, CODE).expect("sets have a code"),
            lists,
            key,
            identifiers_name,
            identifiers,
            catalog_id: wire(identifiers, CATALOG_ID).expect("identifiers have a catalog id"),
        }
    })
}

/// Whether the model's records are keyed by a uuid.
fn is_uuid_key(model: &ModelDef) -> bool {
    matches!(
        by_rust_name(model, KEY),
        Some(FieldDef {
            ty: Type::String {
                format: Some(Format::Uuid)
            },
            ..
        })
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
        assert_eq!(
            facts.lists[0].natural_key,
            ["number", "side", "language", "name"]
        );
        assert_eq!(facts.lists[1].natural_key, ["name"]);
        assert_eq!(
            (facts.lists[0].number, facts.lists[0].label),
            (Some("number"), Some("name"))
        );
        assert_eq!(facts.identifiers.name, "Identifiers");
        assert_eq!(
            (
                facts.code,
                facts.key,
                facts.identifiers_name,
                facts.catalog_id
            ),
            ("code", "uuid", "identifiers", "catalogAId")
        );
        assert_eq!(facts_for(Names::Upstream).catalog_id, "scryfallId");
    }
}
