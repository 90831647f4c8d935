//! The field tables in plain words, in one place: a type (for listings, and
//! with its article for the validator's messages), a member's presence, a
//! default, a version tag, a format's definition, and the known name nearest
//! to an unknown one. Listings, explanations, the reference, the JSON Schema
//! and the validator's messages all word these facts through this module.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::table::{FieldDef, Format, ModelDef, Names, TaggedUnion, Type, Version};

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

/// What a value of `ty` is, in a sentence of a message: `an integer`,
/// `an array of CardSet objects`, `one of "left", "right"`.
#[must_use]
pub fn type_with_article(ty: &Type) -> String {
    match ty {
        Type::String { format: None } => "a string".to_owned(),
        Type::String {
            format: Some(format),
        } => format!("a {} string", format.name()),
        Type::Integer => "an integer".to_owned(),
        Type::Number => "a number".to_owned(),
        Type::Boolean => "a boolean".to_owned(),
        Type::Const { value } => format!("the constant \"{value}\""),
        Type::Enum { values, .. } => format!("one of {}", quoted(values)),
        Type::List { item } => format!("an array of {}", items_words(item)),
        Type::FreeObject => "an object".to_owned(),
        Type::Model { model } => format!("an object ({})", model().name),
        Type::Tagged(union) => format!("an object ({})", union.name),
        Type::AnyOf { types, .. } => {
            let each: Vec<String> = types.iter().map(|t| type_with_article(t)).collect();
            each.join(" or ")
        }
    }
}

/// The items of a list, in words: `strings`, `CardSet objects`.
fn items_words(item: &Type) -> String {
    match item {
        Type::String { format: None } => "strings".to_owned(),
        Type::String {
            format: Some(format),
        } => format!("{} strings", format.name()),
        Type::Integer => "integers".to_owned(),
        Type::Number => "numbers".to_owned(),
        Type::Boolean => "booleans".to_owned(),
        Type::Model { model } => format!("{} objects", model().name),
        Type::Tagged(union) => format!("{} objects", union.name),
        Type::AnyOf { name, .. } => format!("{name} values"),
        other => format!("({})", type_with_article(other)),
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

/// Whether a member must be present and whether it may be null.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// The member must be present, and must not be null.
    Required,
    /// The member must be present; its value may be null.
    RequiredMayBeNull,
    /// The member may be absent or null (both mean none).
    Optional,
    /// The member may be absent, but null is not allowed.
    OptionalNotNull,
}

impl Presence {
    /// A field's presence.
    #[must_use]
    pub fn of(field: &FieldDef) -> Self {
        match (field.required, field.nullable) {
            (true, false) => Presence::Required,
            (true, true) => Presence::RequiredMayBeNull,
            (false, true) => Presence::Optional,
            (false, false) => Presence::OptionalNotNull,
        }
    }

    /// The presence of a union's tag member: never null, and required unless
    /// an absent tag means the first shape.
    #[must_use]
    pub fn of_tag(union: &TaggedUnion) -> Self {
        if union.tag_optional {
            Presence::OptionalNotNull
        } else {
            Presence::Required
        }
    }

    /// In short, for listings: `required`, `required, may be null`,
    /// `optional`, `optional, not null`.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Presence::Required => "required",
            Presence::RequiredMayBeNull => "required, may be null",
            Presence::Optional => "optional",
            Presence::OptionalNotNull => "optional, not null",
        }
    }

    /// In a sentence, for explanations.
    #[must_use]
    pub fn explained(self) -> &'static str {
        match self {
            Presence::Required => "required: the member must be present, and must not be null",
            Presence::RequiredMayBeNull => {
                "required: the member must be present; its value may be null"
            }
            Presence::Optional => "optional: the member may be absent or null (both mean none)",
            Presence::OptionalNotNull => {
                "optional: the member may be absent, but null is not allowed"
            }
        }
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

/// The tag value an absent tag member means, when it may be absent: the
/// first shape's.
#[must_use]
pub fn tag_default(union: &TaggedUnion) -> Option<&'static str> {
    union.tag_optional.then(|| union.variants[0].0)
}

/// A version tag in words: `v5.0.0`, or `no version tag`.
#[must_use]
pub fn since_words(since: Option<Version>) -> String {
    since.map_or_else(|| "no version tag".to_owned(), |tag| tag.to_string())
}

/// A doc comment as one paragraph: `(no description)` when there is none.
#[must_use]
pub fn doc_words(doc: &str) -> String {
    if doc.is_empty() {
        "(no description)".to_owned()
    } else {
        doc.replace("\n\n", " ")
    }
}

/// A format's name and definition: `uuid: A UUID in its hyphenated …`.
#[must_use]
pub fn format_words(format: Format) -> String {
    format!("{}: {}", format.name(), format_definition(format))
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
             that implementation's verdict define it; `cardkit::schema::format::is_color` implements it."
        }
    }
}

/// Each value in double quotes, separated by commas: `"a", "b"`.
#[must_use]
pub fn quoted(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
    quoted.join(", ")
}

/// How alike (Jaro-Winkler similarity of the lowercased names, from 0 to 1)
/// a known name must be to an unknown one to be suggested as a likely typo.
pub const NEAR: f64 = 0.9;

/// The known name closest to an unknown `name`, when one is close enough to
/// be a likely typo ([`NEAR`]); of equally close names, the last.
///
/// ```
/// use cardkit::schema::words::nearest_name;
///
/// let known = ["tokenSetcode", "code", "name"];
/// assert_eq!(nearest_name(known, "tokenSetCode"), Some("tokenSetcode"));
/// assert_eq!(nearest_name(known, "zzz"), None);
/// ```
pub fn nearest_name<'a>(known: impl IntoIterator<Item = &'a str>, name: &str) -> Option<&'a str> {
    let lower = name.to_lowercase();
    known
        .into_iter()
        .map(|candidate| {
            let candidate_lower = candidate.to_lowercase();
            let score = if candidate_lower == lower {
                1.0
            } else {
                strsim::jaro_winkler(&candidate_lower, &lower)
            };
            (score, candidate)
        })
        .filter(|&(score, _)| score >= NEAR)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}

/// The longest unknown name, in bytes, that a suggestion is looked for:
/// twice the longest field name's characters, four bytes each, is less.
const LONGEST_NEAR: usize = 256;

/// The field of `model` whose name is closest to an unknown `name`
/// ([`nearest_name`] of the model's fields, under the wire names `names`):
/// a publishers' name read under the spec's names suggests the spec's name,
/// and the reverse. The same unknown names come back on every record of a
/// catalog: each is compared with the model's fields once per thread.
pub fn nearest_field(model: &'static ModelDef, name: &str, names: Names) -> Option<&'static str> {
    /// Enough for every unknown name of real data; past it, start over.
    const REMEMBERED: usize = 4096;
    /// The nearest name of each unknown name met.
    type Nearest = HashMap<String, Option<&'static str>>;
    thread_local! {
        /// By model (its table's address) and names, then by unknown name.
        static NEAREST: RefCell<HashMap<(usize, Names), Nearest>> = RefCell::new(HashMap::new());
    }
    // No field's name is that long, and a name more than twice as long as
    // another is never near it (its Jaro-Winkler score stays below
    // [`NEAR`]): a huge name is neither compared nor remembered.
    if name.len() > LONGEST_NEAR {
        return None;
    }
    NEAREST.with_borrow_mut(|known| {
        let at = (std::ptr::from_ref(model) as usize, names);
        let remembered = known.entry(at).or_default();
        if let Some(&near) = remembered.get(name) {
            return near;
        }
        if remembered.len() >= REMEMBERED {
            remembered.clear();
        }
        let other = match names.written() {
            Names::Upstream => Names::Spec,
            _ => Names::Upstream,
        };
        let near = match other.field(model, name) {
            Some((_, field)) => Some(names.wire_name(model, field)),
            None => nearest_name(
                model
                    .fields
                    .iter()
                    .map(|field| names.wire_name(model, field)),
                name,
            ),
        };
        remembered.insert(name.to_owned(), near);
        near
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Kind;
    use crate::table::models_of;

    #[test]
    fn types_in_words_and_with_their_article() {
        let set = Kind::Set.model();
        let (_, cards) = set.field("cards").unwrap();
        assert_eq!(type_words(cards.ty), "list of CardSet");
        assert_eq!(type_with_article(cards.ty), "an array of CardSet objects");
        assert_eq!(type_with_article(&Type::Integer), "an integer");
        let (_, date) = set.field("releaseDate").unwrap();
        assert_eq!(type_with_article(date.ty), "a date string");
    }

    #[test]
    fn every_presence_is_worded_short_and_in_a_sentence() {
        for presence in [
            Presence::Required,
            Presence::RequiredMayBeNull,
            Presence::Optional,
            Presence::OptionalNotNull,
        ] {
            let short = presence.words();
            assert!(presence
                .explained()
                .starts_with(short.split(',').next().unwrap()));
        }
    }

    #[test]
    fn huge_names_are_never_near() {
        let set = Kind::Set.model();
        for model in models_of(set) {
            for field in model.fields {
                assert!(field.name.chars().count() * 2 * 4 < LONGEST_NEAR);
            }
        }
        let huge = "tokenSetCode".repeat(100_000);
        assert_eq!(nearest_field(set, &huge, Names::Spec), None);
    }

    #[test]
    fn nearest_names_of_model_fields() {
        let set = Kind::Set.model();
        assert_eq!(
            nearest_field(set, "tokenSetCode", Names::Spec),
            Some("tokenSetcode")
        );
        assert_eq!(
            nearest_field(set, "tokenSetCode", Names::Spec),
            Some("tokenSetcode")
        );
        assert_eq!(nearest_field(set, "nothingLikeIt", Names::Spec), None);
        // Every field is its own nearest name, whatever its case.
        for model in models_of(set) {
            for field in model.fields {
                let upper = field.name.to_uppercase();
                let near = nearest_field(model, &upper, Names::Spec).unwrap();
                assert_eq!(near.to_lowercase(), field.name.to_lowercase());
            }
        }
    }
}
