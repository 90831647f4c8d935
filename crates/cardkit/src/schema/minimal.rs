//! The smallest valid document of a kind, made from the field tables: every
//! required member with the plainest value of its type, and nothing else
//! (`cardkit dummy KIND`). Made from the tables, it cannot go stale when a
//! field is added; the tests validate it for every kind.
//!
//! ```
//! use cardkit::schema::minimal::minimal;
//! use cardkit::validate::{validate, Options};
//! use cardkit::Kind;
//!
//! let migration = minimal(Kind::Migration);
//! assert_eq!(migration["object"], "migration");
//! let bytes = serde_json::to_vec(&migration).unwrap();
//! assert!(validate(&bytes, &Options::default()).is_valid());
//! ```

use serde_json::{json, Map, Value};

use crate::model::Kind;
use crate::table::{Format, ModelDef, Type};

/// The document `cardkit dummy KIND` gives to start from: the spec's dummy
/// template, its card, or the smallest valid set or migration
/// ([`minimal`]).
#[must_use]
pub fn dummy(kind: Kind) -> Value {
    let template = crate::model::Template::dummy();
    let document = match kind {
        Kind::Template => serde_json::to_value(&template),
        Kind::Card => serde_json::to_value(&template.card),
        Kind::Set | Kind::Migration => return minimal(kind),
    };
    // The models serialize to JSON: maps with string keys, no failing
    // serializer.
    document.unwrap_or(Value::Null)
}

/// The smallest valid document of `kind`.
#[must_use]
pub fn minimal(kind: Kind) -> Value {
    object(kind.model())
}

fn object(model: &'static ModelDef) -> Value {
    let members: Map<String, Value> = model
        .fields
        .iter()
        .filter(|field| field.required)
        .map(|field| (field.name.to_owned(), value(field.ty)))
        .collect();
    Value::Object(members)
}

/// The plainest value of `ty`: empty lists, so that no model is made twice
/// along a path (a required list of a model is valid empty).
fn value(ty: &'static Type) -> Value {
    match ty {
        Type::String { format } => Value::String(sample(*format).to_owned()),
        Type::Integer | Type::Number => json!(0),
        Type::Boolean => json!(false),
        Type::Const { value } => json!(value),
        Type::Enum { values, .. } => json!(values.first().copied().unwrap_or_default()),
        Type::List { .. } => json!([]),
        Type::FreeObject => json!({}),
        Type::Model { model } => object(model()),
        Type::Tagged(union) => {
            let Some(&(tag, model)) = union.variants.first() else {
                return json!({});
            };
            let mut made = object(model());
            if let Value::Object(members) = &mut made {
                members.insert(union.tag.to_owned(), json!(tag));
            }
            made
        }
        Type::AnyOf { types, .. } => types.first().map_or(Value::Null, |ty| value(ty)),
    }
}

/// A valid string of a format.
fn sample(format: Option<Format>) -> &'static str {
    match format {
        None => "",
        Some(Format::Uuid) => "00000000-0000-4000-8000-000000000000",
        Some(Format::Date) => "2000-01-01",
        Some(Format::Uri) => "https://example.org/",
        Some(Format::Color) => "#000000",
    }
}
