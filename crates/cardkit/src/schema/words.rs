//! The field tables in plain words, for listings, explanations and the
//! reference: a type, a field's presence, a default, a format's definition.

use crate::schema::{FieldDef, Format, TaggedUnion, Type};

/// A JSON type in words: `string`, `uuid string`, `list of CardSet`,
/// `HorizontalAlign ("left", "right", "center")`, …
#[must_use]
pub fn type_words(ty: &Type) -> String {
    match ty {
        Type::String { format: None } => "string".to_owned(),
        Type::String {
            format: Some(format),
        } => format!("{} string", format.name()),
        Type::Integer => "integer".to_owned(),
        Type::Number => "number".to_owned(),
        Type::Boolean => "boolean".to_owned(),
        Type::Const { value } => format!("constant \"{value}\""),
        Type::Enum { name, values } => format!("{name} ({})", quoted(values)),
        Type::List { item } => format!("list of {}", type_words(item)),
        Type::FreeObject => "object (free-form)".to_owned(),
        Type::Model { model } => model().name.to_owned(),
        Type::Tagged(union) => union_words(union),
        Type::AnyOf { name, types } => {
            let each: Vec<String> = types.iter().map(|t| type_words(t)).collect();
            format!("{name} ({})", each.join(" or "))
        }
    }
}

/// A type's short name, for listings: like [`type_words`], but an
/// enumeration or a union is only named (`list of Tags`, `Layer`).
#[must_use]
pub fn type_label(ty: &Type) -> String {
    match ty {
        Type::Enum { name, .. } | Type::AnyOf { name, .. } => (*name).to_owned(),
        Type::Tagged(union) => match union.variants {
            [(_, model)] => model().name.to_owned(),
            _ => union.name.to_owned(),
        },
        Type::List { item } => format!("list of {}", type_label(item)),
        other => type_words(other),
    }
}

/// A tagged union in words: `Layer (by "type": "group" Group, "image" Image,
/// "text" Text)`, or for a one-shape union whose tag may be left out,
/// `Group ("type" optional, "group" if present)`.
#[must_use]
pub fn union_words(union: &TaggedUnion) -> String {
    if let [(tag, model)] = union.variants {
        let optional = if union.tag_optional { " optional," } else { "" };
        return format!(
            "{} (\"{}\"{optional} \"{tag}\" if present)",
            model().name,
            union.tag
        );
    }
    let each: Vec<String> = union
        .variants
        .iter()
        .map(|(tag, model)| format!("\"{tag}\" {}", model().name))
        .collect();
    format!("{} (by \"{}\": {})", union.name, union.tag, each.join(", "))
}

/// The type of a union's tag member in words: `"group", "image" or "text"`.
#[must_use]
pub fn tag_words(union: &TaggedUnion) -> String {
    let tags: Vec<&str> = union.variants.iter().map(|(tag, _)| *tag).collect();
    match tags[..] {
        [only] => format!("constant \"{only}\""),
        _ => format!("one of {}", quoted(&tags)),
    }
}

/// A field's type, with `or null` when null is allowed.
#[must_use]
pub fn field_type_words(field: &FieldDef) -> String {
    or_null(type_words(field.ty), field.nullable)
}

/// A field's short type ([`type_label`]), with `or null` when null is
/// allowed.
#[must_use]
pub fn field_type_label(field: &FieldDef) -> String {
    or_null(type_label(field.ty), field.nullable)
}

fn or_null(ty: String, nullable: bool) -> String {
    if nullable {
        format!("{ty} or null")
    } else {
        ty
    }
}

/// Whether a field must be present and whether it may be null, in words:
/// `required`, `required, may be null`, `optional`, `optional, not null`.
#[must_use]
pub fn presence_words(field: &FieldDef) -> &'static str {
    match (field.required, field.nullable) {
        (true, false) => "required",
        (true, true) => "required, may be null",
        (false, true) => "optional",
        (false, false) => "optional, not null",
    }
}

/// A field's default value, when it has one. A `null` default of a field
/// that may not be null (`Migration.id`) only says that an absent member has
/// no value: it is no default.
#[must_use]
pub fn default_value(field: &FieldDef) -> Option<serde_json::Value> {
    let default = field.default?();
    (field.nullable || !default.is_null()).then_some(default)
}

/// A field's default as compact JSON, when it has one ([`default_value`]).
#[must_use]
pub fn default_words(field: &FieldDef) -> Option<String> {
    default_value(field).map(|default| default.to_string())
}

/// What a string of a format is, for people reading a listing, the reference
/// or a JSON Schema.
#[must_use]
pub fn format_definition(format: Format) -> &'static str {
    match format {
        Format::Uuid => {
            "A UUID in its hyphenated 8-4-4-4-12 form of hexadecimal digits, any case, any \
             version and variant (the nil UUID too); no braces, no `urn:uuid:` prefix, no \
             32-digit form."
        }
        Format::Date => {
            "A calendar date `YYYY-MM-DD` of ASCII digits that exists in the proleptic Gregorian \
             calendar, in the years 0001 to 9999; no time part."
        }
        Format::Uri => {
            "A URI by the `URI` rule of RFC 3986: a scheme is required (relative references are \
             not URIs), query and fragment are allowed, ASCII only, at least one character."
        }
        Format::Color => {
            "A color exactly as the reference implementation of the data models (pydantic's \
             `Color` type) accepts it: a CSS3/SVG color name or `transparent` in any case with \
             no surrounding spaces (`rebeccapurple` and `currentColor` are not accepted); hex of \
             3, 4, 6 or 8 digits with an optional `#` or `0x` prefix (surrounding spaces \
             allowed); or `rgb()`/`rgba()`/`hsl()`/`hsla()` forms, comma- or space-separated, \
             with components in range. The 591 strings of the project's `colors.jsonl` with \
             that implementation's verdict define it; `cardkit::format::is_color` implements it."
        }
    }
}

fn quoted(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
    quoted.join(", ")
}
