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
//!   doc comment, then the version tag: `Since v4.0.0.`), and `deprecated`.
//!   Nullable values are `"type": [.., "null"]`, or an `anyOf` with
//!   `{"type": "null"}` around a `$ref`.
//! - Only standard keywords and formats: a validator in a strict mode (ajv's
//!   default) compiles the schemas. [`SchemaOptions::annotations`] adds the
//!   version tag as the annotation `x-since` and the custom format name
//!   `color`, for tools that read them.
//! - Integers are `"type": "integer"` within the signed/unsigned 64-bit range.
//! - The formats `uuid`, `date` and `uri` carry a `pattern` beside the
//!   `format` where the standard format is looser than cardkit's rule; `color`
//!   is an `anyOf` of the names (an `enum`, and a `pattern` for any case) and
//!   of `pattern`s of the hex and functional forms
//!   ([`crate::schema::format::color_patterns`]).
//! - Tagged unions (layers, image filters) require their tag and choose the
//!   branch with `if`/`then`; the card's top group may omit its tag. Plain
//!   unions are `anyOf`.
//! - Members the spec does not define are allowed (no
//!   `additionalProperties: false`), as cardkit only warns about them.
//! - [`SchemaOptions::container`] gives the schema of a file that holds the
//!   documents in one of the containers the validator reads
//!   ([`Layout`]); [`SchemaOptions::as_of`] the schema as of a version, as
//!   `validate --as-of` checks: fields introduced later are not required (and
//!   still checked when present, as cardkit only warns about them).

use serde_json::{json, Map, Value};

use crate::model::{Kind, Layout};
use crate::schema::format::color_patterns;
use crate::schema::words::{default_value, format_definition};
use crate::table::{models_of, FieldDef, Format, ModelDef, Names, TaggedUnion, Type, Version};

/// The dialect of the exported schemas.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The `$id` of a kind's schema: a name, not a location to fetch from.
#[must_use]
pub fn schema_id(kind: Kind) -> String {
    format!("https://cardkit.example/schema/{kind}.json")
}

/// What a schema describes, beside its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaOptions {
    /// The wire names of the properties.
    pub names: Names,
    /// The container the documents are in ([`Layout::Bare`]: the document
    /// itself).
    pub container: Layout,
    /// The version of the format the schema is of: fields introduced later
    /// are not required. `None`: the latest.
    pub as_of: Option<Version>,
    /// Adds the annotations that strict validators refuse as unknown: the
    /// version tag as `x-since`, and `"format": "color"`.
    pub annotations: bool,
}

impl Default for SchemaOptions {
    fn default() -> Self {
        SchemaOptions {
            names: Names::Spec,
            container: Layout::Bare,
            as_of: None,
            annotations: false,
        }
    }
}

/// The name of a container for `cardkit schema --container` and the
/// service's `?container=`: `bare`, `wrapped`, `catalog`, `code-map`, `list`,
/// `array`.
#[must_use]
pub fn container_name(layout: Layout) -> &'static str {
    match layout {
        Layout::CodeMap => "code-map",
        other => other.as_str(),
    }
}

/// The container named `name` ([`container_name`], or `code_map` as
/// reports name it).
#[must_use]
pub fn container_by_name(name: &str) -> Option<Layout> {
    CONTAINERS
        .iter()
        .copied()
        .find(|&layout| name == container_name(layout) || name == layout.as_str())
}

/// Every container, the bare document first.
pub const CONTAINERS: [Layout; 6] = [
    Layout::Bare,
    Layout::Wrapped,
    Layout::Catalog,
    Layout::CodeMap,
    Layout::List,
    Layout::Array,
];

/// The JSON Schema of `kind`'s documents.
#[must_use]
pub fn json_schema(kind: Kind) -> Value {
    json_schema_with(kind, &SchemaOptions::default())
}

/// The JSON Schema of `kind`'s documents that use the wire names `names`.
#[must_use]
pub fn json_schema_named(kind: Kind, names: Names) -> Value {
    json_schema_with(
        kind,
        &SchemaOptions {
            names,
            ..SchemaOptions::default()
        },
    )
}

/// The JSON Schema of `kind`'s documents, or of a container of them, as
/// `options` say.
#[must_use]
pub fn json_schema_with(kind: Kind, options: &SchemaOptions) -> Value {
    let model = kind.model();
    let bare = options.container == Layout::Bare;
    let mut writer = Writer {
        root: bare.then_some(model),
        defs: Map::new(),
        options: *options,
    };
    let mut schema = Map::new();
    schema.insert("$schema".into(), DIALECT.into());
    schema.insert("$id".into(), id(kind, options).into());
    let models = models_of(model);
    if bare {
        schema.extend(writer.model(model));
    } else {
        schema.extend(container(options.container, model));
    }
    for model in models.into_iter().skip(usize::from(bare)) {
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

/// The `$id`: [`schema_id`] for the latest bare document; a container and a
/// version make their own names.
fn id(kind: Kind, options: &SchemaOptions) -> String {
    let version = options.as_of.map(|v| format!("{v}/")).unwrap_or_default();
    let container = match options.container {
        Layout::Bare => String::new(),
        other => format!(".{}", container_name(other)),
    };
    format!("https://cardkit.example/schema/{version}{kind}{container}.json")
}

/// The schema of a container of `model`'s documents, which are a `$defs`
/// entry.
fn container(layout: Layout, model: &'static ModelDef) -> Map<String, Value> {
    let document = reference(model.name);
    let name = model.name;
    let meta = json!({"description": "Anything: cardkit does not validate `meta`."});
    let codes = json!({
        "type": "object",
        "description": format!("{name} documents by their code."),
        "additionalProperties": document,
    });
    let items = json!({"type": "array", "items": document});
    let schema = match layout {
        Layout::Bare => unreachable!("a bare document is no container"),
        Layout::Wrapped => json!({
            "title": format!("wrapped {name}"),
            "description": format!("One {name} in `data`, beside a `meta` object."),
            "type": "object",
            "properties": {"meta": meta, "data": document},
            "required": ["data"],
        }),
        Layout::Catalog => json!({
            "title": format!("catalog of {name}"),
            "description": format!(
                "{name} documents by their code in `data`, beside an optional `meta` object."
            ),
            "type": "object",
            "properties": {"meta": meta, "data": codes},
            "required": ["data"],
        }),
        Layout::CodeMap => {
            let mut codes = codes;
            codes["title"] = format!("code map of {name}").into();
            return codes.as_object().expect("an object").clone();
        }
        Layout::List => json!({
            "title": format!("list of {name}"),
            "description": format!(
                "{name} documents in `data`, a list object (`\"object\": \"list\"`, \
                 `has_more`, `next_page` and other members beside)."
            ),
            "type": "object",
            "properties": {"data": items},
            "required": ["data"],
        }),
        Layout::Array => {
            let mut items = items;
            items["title"] = format!("array of {name}").into();
            items["description"] = format!("{name} documents in a top-level array.").into();
            return items.as_object().expect("an object").clone();
        }
    };
    schema.as_object().expect("an object").clone()
}

struct Writer {
    /// The model at the schema's root (`#`), if the schema is of a bare
    /// document.
    root: Option<&'static ModelDef>,
    /// Definitions of enumerations and formats, added as they are met.
    defs: Map<String, Value>,
    options: SchemaOptions,
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
                let name = self.options.names.wire_name(model, field);
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
            .filter(|f| f.required && !self.newer(f))
            .map(|f| self.options.names.wire_name(model, f).into())
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
        let mut description = field.doc.to_owned();
        if let (Some(since), false) = (field.since, self.options.annotations) {
            let sentence = match self.options.as_of {
                Some(as_of) if since > as_of => {
                    format!("Since {since}, after {as_of}: not required.")
                }
                _ => format!("Since {since}."),
            };
            if !description.is_empty() {
                description.push(' ');
            }
            description.push_str(&sentence);
        }
        if !description.is_empty() {
            object.insert("description".into(), description.into());
        }
        if let Some(default) = default_value(field) {
            object.insert("default".into(), default);
        }
        if field.deprecated {
            object.insert("deprecated".into(), true.into());
        }
        if let (Some(since), true) = (field.since, self.options.annotations) {
            object.insert("x-since".into(), since.to_string().into());
        }
        schema
    }

    /// Whether `field` was introduced after the version the schema is of.
    fn newer(&self, field: &FieldDef) -> bool {
        matches!((self.options.as_of, field.since), (Some(as_of), Some(since)) if since > as_of)
    }

    /// Whether `model` is the one at the schema's root.
    fn is_root(&self, model: &'static ModelDef) -> bool {
        self.root.is_some_and(|root| std::ptr::eq(model, root))
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
            Type::Model { model } => self.ty_of_model(model()),
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
        let annotations = self.options.annotations;
        self.defs.entry(name).or_insert_with(|| {
            let mut def = json!({"type": "string"});
            if format != Format::Color || annotations {
                def["format"] = name.into();
            }
            def["description"] = format_definition(format).into();
            // The standard formats alone are looser than cardkit's rules:
            // `uuid` would take other forms, `date` the year 0000, `uri`
            // the empty string.
            match format {
                Format::Uuid => def["pattern"] = UUID_PATTERN.into(),
                Format::Date => def["pattern"] = DATE_PATTERN.into(),
                Format::Uri => def["minLength"] = 1.into(),
                Format::Color => def["anyOf"] = color_branches(),
            }
            if format == Format::Color && annotations {
                def["$comment"] = "`color` is a custom format, which the `anyOf` spells out \
                    (cardkit::schema::format::is_color implements it)."
                    .into();
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
            schema["type"] = "object".into();
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

    fn ty_of_model(&self, model: &'static ModelDef) -> Value {
        if self.is_root(model) {
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

/// The forms of a color, each a branch of an `anyOf`.
fn color_branches() -> Value {
    json!([
        {
            "description": "A color name or `transparent`, lower-case.",
            "enum": color_patterns::names(),
        },
        {
            "description": "A color name or `transparent`, in any case.",
            "pattern": color_patterns::names_pattern(),
        },
        {
            "description": "Hex of 3, 4, 6 or 8 digits, `#` or `0x` before, spaces around.",
            "pattern": color_patterns::hex_pattern(),
        },
        {
            "description": "`rgb()` or `rgba()`: components 0 to 255, alpha 0 to 1 or a percentage.",
            "pattern": color_patterns::rgb_pattern(),
        },
        {
            "description": "`hsl()` or `hsla()`: any hue, saturation and lightness 0 to 100 %, alpha 0 to 1 or a percentage.",
            "pattern": color_patterns::hsl_pattern(),
        },
    ])
}

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
        assert_eq!(block.get("x-since"), None);
        assert!(block["description"]
            .as_str()
            .unwrap()
            .ends_with("Since v4.0.0."));
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

    #[test]
    fn containers_hold_the_document_by_reference() {
        let with = |container| SchemaOptions {
            container,
            ..SchemaOptions::default()
        };
        let wrapped = json_schema_with(Kind::Set, &with(Layout::Wrapped));
        assert_eq!(
            wrapped["$id"],
            "https://cardkit.example/schema/set.wrapped.json"
        );
        assert_eq!(wrapped["required"], json!(["data"]));
        assert_eq!(wrapped["properties"]["data"]["$ref"], "#/$defs/Set");
        assert_eq!(wrapped["$defs"]["Set"]["title"], "Set");
        let catalog = json_schema_with(Kind::Set, &with(Layout::Catalog));
        let codes = &catalog["properties"]["data"]["additionalProperties"];
        assert_eq!(codes["$ref"], "#/$defs/Set");
        let map = json_schema_with(Kind::Set, &with(Layout::CodeMap));
        assert_eq!(map["additionalProperties"]["$ref"], "#/$defs/Set");
        let list = json_schema_with(Kind::Migration, &with(Layout::List));
        assert_eq!(
            list["properties"]["data"]["items"]["$ref"],
            "#/$defs/Migration"
        );
        let array = json_schema_with(Kind::Card, &with(Layout::Array));
        assert_eq!(array["type"], "array");
        assert_eq!(array["items"]["$ref"], "#/$defs/Card");
        // The card's top group refers to the card by name, not as `#`.
        let card = serde_json::to_string(&array).unwrap();
        assert!(!card.contains(r##""$ref":"#""##));
        for layout in CONTAINERS {
            assert_eq!(container_by_name(container_name(layout)), Some(layout));
            assert_eq!(container_by_name(layout.as_str()), Some(layout));
        }
    }

    #[test]
    fn as_of_a_version_later_fields_are_not_required() {
        let latest = json_schema(Kind::Set);
        let card = &latest["$defs"]["CardSet"];
        assert!(card["required"]
            .as_array()
            .unwrap()
            .contains(&json!("finishes")));
        let as_of: Version = "v5.0.0".parse().unwrap();
        let older = json_schema_with(
            Kind::Set,
            &SchemaOptions {
                as_of: Some(as_of),
                ..SchemaOptions::default()
            },
        );
        assert_eq!(
            older["$id"],
            "https://cardkit.example/schema/v5.0.0/set.json"
        );
        let card = &older["$defs"]["CardSet"];
        assert!(!card["required"]
            .as_array()
            .unwrap()
            .contains(&json!("finishes")));
        // Still described, and checked when present.
        let finishes = &card["properties"]["finishes"];
        assert!(finishes["description"]
            .as_str()
            .unwrap()
            .ends_with("after v5.0.0: not required."));
        assert_eq!(finishes["type"], json!("array"));
    }

    #[test]
    fn annotations_keep_the_keywords_strict_validators_refuse() {
        let plain = serde_json::to_string(&json_schema(Kind::Card)).unwrap();
        assert!(!plain.contains("x-since") && !plain.contains(r#""format":"color""#));
        let annotated = json_schema_with(
            Kind::Set,
            &SchemaOptions {
                annotations: true,
                ..SchemaOptions::default()
            },
        );
        assert_eq!(annotated["properties"]["block"]["x-since"], "v4.0.0");
        let card = json_schema_with(
            Kind::Card,
            &SchemaOptions {
                annotations: true,
                ..SchemaOptions::default()
            },
        );
        assert_eq!(card["$defs"]["color"]["format"], "color");
        assert!(card["$defs"]["color"]["anyOf"].is_array());
    }
}
