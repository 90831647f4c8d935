//! The listing of a document kind's fields (`cardkit fields`): every place
//! of [`fields`], optionally filtered, as
//! serializable rows or as an aligned text table.
//!
//! ```
//! use cardkit_run::listing::{Filter, Listing};
//! use cardkit::schema::Version;
//! use cardkit::Kind;
//!
//! let filter = Filter {
//!     since: Some("v5.2.1".parse::<Version>().unwrap()),
//!     ..Filter::default()
//! };
//! let listing = Listing::new(Kind::Set, &filter);
//! let rows = listing.rows();
//! assert!(rows.iter().all(|row| row.since == Some(Some("v5.2.1".to_owned()))));
//! assert!(listing.text().starts_with("POINTER"));
//! ```

use serde::Serialize;

use cardkit::model::Kind;
use cardkit::schema::fields::{fields_named, Choice, Member, Place};
use cardkit::schema::words::{
    default_value, default_words, field_type_label, field_type_words, tag_default, tag_words,
    type_label, type_words, Presence,
};
use cardkit::schema::{Names, Version};

/// Which fields a listing keeps. The default keeps every place.
#[derive(Debug, Clone, Copy, Default)]
pub struct Filter {
    /// Only the fields introduced in this version or a later one (fields
    /// without a version tag are left out).
    pub since: Option<Version>,
    /// Only the deprecated fields.
    pub deprecated: bool,
    /// The wire names the fields are listed under.
    pub names: Names,
}

impl Filter {
    /// Whether the listing keeps `place`. A filter that asks for anything
    /// keeps fields only (no tag members, no recursion marks).
    #[must_use]
    pub fn keeps(&self, place: &Place) -> bool {
        if self.since.is_none() && !self.deprecated {
            return true;
        }
        let Some(field) = place.member.field().filter(|_| place.repeats.is_none()) else {
            return false;
        };
        self.since
            .is_none_or(|since| field.since.is_some_and(|tag| tag >= since))
            && (!self.deprecated || field.deprecated)
    }
}

/// The fields of a kind, at their places, as a filter keeps them.
#[derive(Debug, Clone)]
pub struct Listing {
    /// The kind listed.
    pub kind: Kind,
    /// The places kept, in the order of
    /// [`fields`].
    pub places: Vec<Place>,
}

/// One place of a listing as data: what `cardkit fields --format json`
/// prints for it. Members are declared (and serialized) in alphabetical
/// order; those a kind of member does not have are left out.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The default value, when the member has one (`null` included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
    /// Whether the field is deprecated (fields only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<bool>,
    /// What the field means (fields only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<&'static str>,
    /// What kind of member the place holds.
    pub member: MemberKind,
    /// The model the member belongs to, or the union of a tag member.
    pub model: &'static str,
    /// The member's wire name.
    pub name: &'static str,
    /// Whether the value may be null (not for recursion marks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nullable: Option<bool>,
    /// The JSON Pointer pattern (`*` for any item of a list).
    pub pointer: String,
    /// For a recursion mark, the pointer where the model's fields are listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<String>,
    /// Whether the member must be present (not for recursion marks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// The version tag, `null` for a field without one (fields only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<Option<String>>,
    /// The spec's name of a member listed under the publishers' name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec_name: Option<&'static str>,
    /// The type in words.
    #[serde(rename = "type")]
    pub ty: String,
    /// The union branches the place is in, outermost first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub when: Vec<Condition>,
}

/// What a listed place holds.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemberKind {
    /// A field of a model.
    Field,
    /// A field whose value is a model already listed further up (layers in
    /// layers): its fields are listed at [`Row::repeats`].
    Repeat,
    /// The tag member of a tagged union.
    Tag,
}

/// A union branch a place is in, as data. Members are in alphabetical
/// order; a tag's branch has `tag` and `value`, a shape's `shape` and
/// `union`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Condition {
    /// The pointer pattern of the value whose branch is chosen.
    pub at: String,
    /// For nested values that take the same branch, how many.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// For nested values that take the same branch, the innermost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
    /// The alternative of a plain union, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// The tag member of a tagged union.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<&'static str>,
    /// The plain union's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub union: Option<&'static str>,
    /// The tag's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<&'static str>,
}

impl Listing {
    /// The places of `kind` that `filter` keeps.
    #[must_use]
    pub fn new(kind: Kind, filter: &Filter) -> Self {
        let places = fields_named(kind, filter.names)
            .into_iter()
            .filter(|place| filter.keeps(place))
            .collect();
        Listing { kind, places }
    }

    /// One row per place.
    #[must_use]
    pub fn rows(&self) -> Vec<Row> {
        self.places.iter().map(Row::of).collect()
    }

    /// The aligned text table: a header, then one line per place (or a line
    /// that says that nothing matched).
    #[must_use]
    pub fn text(&self) -> String {
        const HEADER: [&str; 7] = [
            "POINTER", "MODEL", "TYPE", "PRESENCE", "DEFAULT", "SINCE", "NOTES",
        ];
        let mut rows = vec![HEADER.map(str::to_owned)];
        rows.extend(self.places.iter().map(cells));
        let mut out = crate::table::aligned(&rows);
        if self.places.is_empty() {
            out.push_str("(no field matches)\n");
        }
        out
    }
}

impl Row {
    /// The row of a place.
    #[must_use]
    pub fn of(place: &Place) -> Row {
        let mut row = Row {
            default: None,
            deprecated: None,
            description: None,
            member: MemberKind::Field,
            model: place.model,
            name: place.name,
            nullable: None,
            pointer: place.pointer.clone(),
            repeats: None,
            required: None,
            since: None,
            spec_name: (place.name != place.member.name()).then(|| place.member.name()),
            ty: String::new(),
            when: place.branches.iter().map(Condition::of).collect(),
        };
        match (place.member, &place.repeats) {
            (Member::Field(field), None) => {
                row.ty = field_type_words(field);
                row.required = Some(field.required);
                row.nullable = Some(field.nullable);
                row.default = default_value(field);
                row.since = Some(field.since.map(|tag| tag.to_string()));
                row.deprecated = Some(field.deprecated);
                row.description = Some(field.doc);
            }
            (Member::Field(_), Some(at)) => {
                row.member = MemberKind::Repeat;
                row.ty = repeated(place);
                row.repeats = Some(at.clone());
            }
            (Member::Tag(union), _) => {
                row.member = MemberKind::Tag;
                row.ty = tag_words(union);
                row.required = Some(!union.tag_optional);
                row.nullable = Some(false);
                row.default = tag_default(union).map(Into::into);
            }
        }
        row
    }
}

impl Condition {
    /// A branch as data.
    #[must_use]
    pub fn of(branch: &cardkit::schema::fields::Branch) -> Condition {
        let mut condition = Condition {
            at: branch.at.clone(),
            count: branch.run.as_ref().map(|run| run.count),
            last: branch.run.as_ref().map(|run| run.last.clone()),
            shape: None,
            tag: None,
            union: None,
            value: None,
        };
        match branch.choice {
            Choice::Tag { union, value } => {
                condition.tag = Some(union.tag);
                condition.value = Some(value);
            }
            Choice::Shape { union, ty } => {
                condition.union = Some(union);
                condition.shape = Some(type_words(ty));
            }
        }
        condition
    }
}

/// The cells of a place in the text table.
fn cells(place: &Place) -> [String; 7] {
    let dash = || "-".to_owned();
    let mut notes = Vec::new();
    let (ty, presence, default, since) = match (place.member, &place.repeats) {
        (Member::Field(field), None) => {
            if place.name != field.name {
                notes.push(format!("the spec's `{}`", field.name));
            }
            if field.deprecated {
                notes.push("deprecated".to_owned());
            }
            (
                field_type_label(field),
                Presence::of(field).words().to_owned(),
                default_words(field).unwrap_or_else(dash),
                field.since.map_or_else(dash, |tag| tag.to_string()),
            )
        }
        (Member::Field(_), Some(at)) => {
            notes.push(format!("recursive: the fields listed at {at}"));
            (repeated(place), dash(), dash(), dash())
        }
        (Member::Tag(union), _) => {
            notes.push("chooses the shape".to_owned());
            (
                tag_words(union),
                Presence::of_tag(union).words().to_owned(),
                tag_default(union).map_or_else(dash, |tag| format!("\"{tag}\"")),
                dash(),
            )
        }
    };
    [
        place.pointer.clone(),
        model_chain(place),
        ty,
        presence,
        default,
        since,
        notes.join("; "),
    ]
}

/// The model of a place, after the union branches it is in:
/// `Image › FilterShadow` for a shadow filter of an image layer.
fn model_chain(place: &Place) -> String {
    let mut chain: Vec<String> = place
        .branches
        .iter()
        .map(|b| match b.choice {
            Choice::Tag { union, value } => union
                .variant(value)
                .map_or_else(|| value.to_owned(), |m| m.name.to_owned()),
            Choice::Shape { ty, .. } => type_label(ty),
        })
        .collect();
    if chain.last().map(String::as_str) != Some(place.model) && place.repeats.is_none() {
        chain.push(place.model.to_owned());
    }
    chain.join(" › ")
}

/// The model that comes back inside itself at a place: the branch chosen,
/// or the value's type.
fn repeated(place: &Place) -> String {
    match place.branches.last().map(|b| b.choice) {
        Some(Choice::Tag { union, value }) => union
            .variant(value)
            .map_or_else(String::new, |model| model.name.to_owned()),
        _ => place.value_type().map_or_else(String::new, type_words),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_serialize_with_their_members_in_alphabetical_order() {
        let listing = Listing::new(Kind::Migration, &Filter::default());
        let rows = listing.rows();
        let id = rows.iter().find(|row| row.pointer == "/id").unwrap();
        let json = serde_json::to_string(id).unwrap();
        let keys = [
            "deprecated",
            "description",
            "member",
            "model",
            "name",
            "nullable",
            "pointer",
            "required",
            "since",
            "type",
        ];
        let at: Vec<usize> = keys
            .iter()
            .map(|key| json.find(&format!("\"{key}\":")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{json}");
        assert!(json.contains("\"since\":null") && !json.contains("\"default\""));
        assert!(listing.text().contains("/id "));
    }

    #[test]
    fn filters_keep_fields_only() {
        let filter = Filter {
            deprecated: true,
            ..Filter::default()
        };
        let listing = Listing::new(Kind::Set, &filter);
        assert_eq!(listing.places.len(), 7);
        let none = Listing::new(
            Kind::Card,
            &Filter {
                since: Some(Version::new(4, 0, 0)),
                ..Filter::default()
            },
        );
        assert!(none.places.is_empty());
        assert!(none.text().ends_with("(no field matches)\n"));
    }
}
