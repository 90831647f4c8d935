//! A document written with its members in the spec's order: each object's
//! known fields in the order its model's table lists them (the spec's
//! order), then the members of free objects (a prototype, a licence) by
//! name. `serde_json::Value` keeps no order of its own.

use cardkit::schema::{ModelDef, Type};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// `value` as a document of `model`, to serialize in the spec's order.
pub(super) struct Ordered<'a> {
    pub value: &'a Value,
    pub shape: Shape,
}

/// What the value is expected to be.
#[derive(Clone, Copy)]
pub(super) enum Shape {
    Model(&'static ModelDef),
    Type(&'static Type),
    Free,
}

impl Serialize for Ordered<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || match (self.value, self.shape) {
            (Value::Object(object), Shape::Model(model)) => {
                object_in_order(object, model, serializer)
            }
            (Value::Object(object), Shape::Type(ty)) => match model_of(ty, object) {
                Some(model) => object_in_order(object, model, serializer),
                None => free(object, serializer),
            },
            (Value::Object(object), Shape::Free) => free(object, serializer),
            (Value::Array(items), shape) => {
                let item_shape = match shape {
                    Shape::Type(Type::List { item }) => Shape::Type(item),
                    _ => Shape::Free,
                };
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Ordered {
                        value: item,
                        shape: item_shape,
                    })?;
                }
                seq.end()
            }
            (other, _) => other.serialize(serializer),
        })
    }
}

/// The model an object of type `ty` has: by its tag for a tagged union, by
/// the most members known for a plain one.
fn model_of(ty: &'static Type, object: &Map<String, Value>) -> Option<&'static ModelDef> {
    match ty {
        Type::Model { model } => Some(model()),
        Type::Tagged(union) => {
            let tag = object.get(union.tag).and_then(Value::as_str);
            union
                .variants
                .iter()
                .find(|(name, _)| Some(*name) == tag)
                .or_else(|| union.variants.first().filter(|_| tag.is_none()))
                .map(|(_, model)| model())
        }
        Type::AnyOf { types, .. } => types
            .iter()
            .filter_map(|ty| match ty {
                Type::Model { model } => Some(model()),
                _ => None,
            })
            .max_by_key(|model| {
                let known = model.fields.iter().filter(|field| object.contains_key(field.name)).count();
                let tagged = model.fields.iter().any(|field| {
                    matches!(field.ty, Type::Const { value } if object.get(field.name).and_then(Value::as_str) == Some(*value))
                });
                (tagged, known)
            }),
        _ => None,
    }
}

fn object_in_order<S: Serializer>(
    object: &Map<String, Value>,
    model: &'static ModelDef,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(object.len()))?;
    // A union's tag, which is no field of its models, first, as the spec
    // writes it.
    let tag_first = !model.fields.iter().any(|field| field.name == "type");
    if let Some(tag) = object.get("type").filter(|_| tag_first) {
        map.serialize_entry("type", tag)?;
    }
    for field in model.fields {
        if let Some(value) = object.get(field.name) {
            let shape = match field.ty {
                Type::FreeObject => Shape::Free,
                ty => Shape::Type(ty),
            };
            map.serialize_entry(field.name, &Ordered { value, shape })?;
        }
    }
    for (name, value) in object {
        let written =
            model.fields.iter().any(|field| field.name == name) || (tag_first && name == "type");
        if !written {
            map.serialize_entry(
                name,
                &Ordered {
                    value,
                    shape: Shape::Free,
                },
            )?;
        }
    }
    map.end()
}

fn free<S: Serializer>(object: &Map<String, Value>, serializer: S) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(object.len()))?;
    for (name, value) in object {
        map.serialize_entry(
            name,
            &Ordered {
                value,
                shape: Shape::Free,
            },
        )?;
    }
    map.end()
}
