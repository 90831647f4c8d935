//! JSON Schema (Draft 2020-12) of each document kind, from the field tables.
//!
//! ```
//! use cardkit::schema::json_schema::json_schema;
//! use cardkit::Kind;
//!
//! let schema = json_schema(Kind::Migration);
//! assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
//! assert_eq!(schema["properties"]["uri"]["$ref"], "#/$defs/uri");
//! ```
//!
//! - Every model other than the document's own is a `$defs` entry, referenced
//!   with `$ref`; so are enumerations and the four string formats.
//! - Field facts become keywords: `required`, `default`, `description` (the
//!   doc comment), `deprecated`, and the version tag as the annotation
//!   `x-since`. Nullable values are `"type": [.., "null"]`, or an `anyOf` with
//!   `{"type": "null"}` around a `$ref`.
//! - Integers are `"type": "integer"` within the signed/unsigned 64-bit range.
//! - The formats `uuid`, `date` and `uri` carry a `pattern` beside the
//!   `format` where the standard format is looser than cardkit's rule; `color`
//!   is a custom format, defined in its description.
//! - Tagged unions (layers, image filters) require their tag and choose the
//!   branch with `if`/`then`; the card's top group may omit its tag. Plain
//!   unions are `anyOf`.
//! - Members the spec does not define are allowed (no
//!   `additionalProperties: false`), as cardkit only warns about them.

use serde_json::{json, Map, Value};

use crate::model::Kind;
use crate::schema::words::{default_value, format_definition};
use crate::table::{models_of, FieldDef, Format, ModelDef, Names, TaggedUnion, Type};

/// The dialect of the exported schemas.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The `$id` of a kind's schema: a name, not a location to fetch from.
#[must_use]
pub fn schema_id(kind: Kind) -> String {
    format!("https://cardkit.example/schema/{kind}.json")
}

/// The JSON Schema of `kind`'s documents.
#[must_use]
pub fn json_schema(kind: Kind) -> Value {
    json_schema_named(kind, Names::Spec)
}

/// The JSON Schema of `kind`'s documents that use the wire names `names`.
#[must_use]
pub fn json_schema_named(kind: Kind, names: Names) -> Value {
    let root = kind.model();
    let mut writer = Writer {
        root,
        defs: Map::new(),
        names,
    };
    let mut schema = Map::new();
    schema.insert("$schema".into(), DIALECT.into());
    schema.insert("$id".into(), schema_id(kind).into());
    schema.extend(writer.model(root));
    for model in models_of(root).into_iter().skip(1) {
        let def = Value::Object(writer.model(model));
        writer.defs.insert(model.name.to_owned(), def);
    }
    let mut defs: Vec<(String, Value)> = std::mem::take(&mut writer.defs).into_iter().collect();
    defs.sort_by(|a, b| a.0.cmp(&b.0));
    if !defs.is_empty() {
        schema.insert("$defs".into(), Value::Object(defs.into_iter().collect()));
    }
    Value::Object(schema)
}

struct Writer {
    root: &'static ModelDef,
    /// Definitions of enumerations and formats, added as they are met.
    defs: Map<String, Value>,
    /// The wire names of the fields.
    names: Names,
}

impl Writer {
    /// The schema of a model's objects.
    fn model(&mut self, model: &'static ModelDef) -> Map<String, Value> {
        let mut schema = Map::new();
        schema.insert("title".into(), model.name.into());
        if !model.doc.is_empty() {
            schema.insert("description".into(), model.doc.into());
        }
        schema.insert("type".into(), "object".into());
        let properties: Map<String, Value> = model
            .fields
            .iter()
            .map(|field| {
                let name = self.names.wire_name(model, field);
                let mut schema = self.field(field);
                if name != field.name {
                    let spec = format!("The spec's `{}`.", field.name);
                    let described = match schema.get("description").and_then(Value::as_str) {
                        Some(doc) => format!("{doc} {spec}"),
                        None => spec,
                    };
                    schema["description"] = described.into();
                }
                (name.to_owned(), schema)
            })
            .collect();
        schema.insert("properties".into(), Value::Object(properties));
        let required: Vec<Value> = model
            .fields
            .iter()
            .filter(|f| f.required)
            .map(|f| self.names.wire_name(model, f).into())
            .collect();
        if !required.is_empty() {
            schema.insert("required".into(), Value::Array(required));
        }
        schema
    }

    /// The schema of a field's value, with the field's annotations.
    fn field(&mut self, field: &'static FieldDef) -> Value {
        let ty = self.ty(field.ty);
        let mut schema = if field.nullable { nullable(ty) } else { ty };
        let object = schema.as_object_mut().expect("schemas here are objects");
        if !field.doc.is_empty() {
            object.insert("description".into(), field.doc.into());
        }
        if let Some(default) = default_value(field) {
            object.insert("default".into(), default);
        }
        if field.deprecated {
            object.insert("deprecated".into(), true.into());
        }
        if let Some(since) = field.since {
            object.insert("x-since".into(), since.to_string().into());
        }
        schema
    }

    /// The schema of a value of `ty` (null not allowed).
    fn ty(&mut self, ty: &'static Type) -> Value {
        match ty {
            Type::String { format: None } => json!({"type": "string"}),
            Type::String {
                format: Some(format),
            } => self.format(*format),
            Type::Integer => json!({
                "type": "integer",
                "minimum": i64::MIN,
                "maximum": u64::MAX,
            }),
            Type::Number => json!({"type": "number"}),
            Type::Boolean => json!({"type": "boolean"}),
            Type::Const { value } => json!({"const": value}),
            Type::Enum { name, values } => {
                self.defs
                    .entry(*name)
                    .or_insert_with(|| json!({"title": name, "enum": values}));
                reference(name)
            }
            Type::List { item } => json!({"type": "array", "items": self.ty(item)}),
            Type::FreeObject => json!({"type": "object"}),
            Type::Model { model } => {
                let model = model();
                if std::ptr::eq(model, self.root) {
                    json!({"$ref": "#"})
                } else {
                    reference(model.name)
                }
            }
            Type::Tagged(union) => self.tagged(union),
            Type::AnyOf { types, .. } => {
                let each: Vec<Value> = types.iter().map(|t| self.ty(t)).collect();
                json!({"anyOf": each})
            }
        }
    }

    /// A format's definition, added to `$defs` under the format's name.
    fn format(&mut self, format: Format) -> Value {
        let name = format.name();
        self.defs.entry(name).or_insert_with(|| {
            let mut def = json!({
                "type": "string",
                "format": name,
                "description": format_definition(format),
            });
            // The standard formats alone are looser than cardkit's rules:
            // `uuid` would take other forms, `date` the year 0000, `uri`
            // the empty string.
            match format {
                Format::Uuid => def["pattern"] = UUID_PATTERN.into(),
                Format::Date => def["pattern"] = DATE_PATTERN.into(),
                Format::Uri => def["minLength"] = 1.into(),
                Format::Color => {
                    def["$comment"] = "`color` is a custom format: register it with your \
                        validator (cardkit::format::is_color implements it), or it is only an \
                        annotation."
                        .into();
                }
            }
            def
        });
        reference(name)
    }

    /// A tagged union: the tag is required and names a branch, whose model
    /// the object must then match. A one-shape union whose tag may be left
    /// out (the card's top group) is that model with the tag as a constant.
    fn tagged(&mut self, union: &'static TaggedUnion) -> Value {
        let tag = union.tag;
        if let ([(value, model)], true) = (union.variants, union.tag_optional) {
            let mut schema = self.ty_of_model(model());
            schema["properties"] = json!({ tag: {"const": value} });
            return schema;
        }
        let tags: Vec<&str> = union.variants.iter().map(|(value, _)| *value).collect();
        let branches: Vec<Value> = union
            .variants
            .iter()
            .map(|&(value, model)| {
                json!({
                    "if": {"properties": {tag: {"const": value}}, "required": [tag]},
                    "then": self.ty_of_model(model()),
                })
            })
            .collect();
        let mut schema = json!({
            "type": "object",
            "properties": {tag: {"enum": tags}},
            "allOf": branches,
        });
        if !union.tag_optional {
            schema["required"] = json!([tag]);
        }
        schema
    }

    fn ty_of_model(&mut self, model: &'static ModelDef) -> Value {
        if std::ptr::eq(model, self.root) {
            json!({"$ref": "#"})
        } else {
            reference(model.name)
        }
    }
}

/// `^[0-9a-fA-F]{8}-…$`: the hyphenated form only.
const UUID_PATTERN: &str =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/// `YYYY-MM-DD` of ASCII digits, years 0001 to 9999; the format checks the
/// calendar.
const DATE_PATTERN: &str =
    "^(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})-[0-9]{2}-[0-9]{2}$";

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/$defs/{name}")})
}

/// `schema` or null: a `type` list gains `"null"`; anything else is wrapped
/// in an `anyOf`.
fn nullable(mut schema: Value) -> Value {
    let plain_type = schema
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_owned);
    match plain_type {
        Some(ty) => {
            schema["type"] = json!([ty, "null"]);
            schema
        }
        None => json!({"anyOf": [schema, {"type": "null"}]}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullable_types_and_references() {
        let set = json_schema(Kind::Set);
        let block = &set["properties"]["block"];
        assert_eq!(block["type"], json!(["string", "null"]));
        assert_eq!(block["x-since"], "v4.0.0");
        assert_eq!(block["default"], Value::Null);
        let sealed = &set["properties"]["sealedProduct"];
        assert_eq!(sealed["type"], json!(["array", "null"]));
        assert!(set["required"]
            .as_array()
            .unwrap()
            .contains(&json!("sealedProduct")));
        let id = &set["properties"]["id"];
        assert_eq!(
            id["anyOf"],
            json!([{"$ref": "#/$defs/uuid"}, {"type": "null"}])
        );
        let cmc = &set["$defs"]["CardSet"]["properties"]["convertedManaCost"];
        assert_eq!(cmc["deprecated"], true);
        // `Migration.id` may be absent but not null: no `null` default.
        let migration = json_schema(Kind::Migration);
        assert_eq!(migration["properties"]["id"].get("default"), None);
        assert_eq!(migration["properties"]["note"]["default"], Value::Null);
    }

    #[test]
    fn unions() {
        let card = json_schema(Kind::Card);
        let data = &card["properties"]["data"];
        assert_eq!(data["$ref"], "#/$defs/Group");
        assert_eq!(data["properties"]["type"]["const"], "group");
        let children = &card["$defs"]["Group"]["properties"]["children"]["items"];
        assert_eq!(children["required"], json!(["type"]));
        assert_eq!(children["allOf"].as_array().unwrap().len(), 3);
        let text_filters = &card["$defs"]["Text"]["properties"]["filters"];
        assert_eq!(text_filters["type"], json!(["array", "null"]));
        assert_eq!(text_filters["items"]["anyOf"].as_array().unwrap().len(), 2);
    }
}
