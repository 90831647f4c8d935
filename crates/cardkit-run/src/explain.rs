//! One field of a document kind in plain words (`cardkit explain`), found by
//! its JSON Pointer (from the document's root, or from the file's root as
//! reports give it) or by a report's `Model.field` ([`resolve`]): labelled
//! lines per place named, as data and as aligned text.
//!
//! ```
//! use cardkit_run::explain::explain;
//! use cardkit::Kind;
//!
//! let explanation = explain(Kind::Set, "/cards/3/identifiers/shopAId").unwrap();
//! let place = &explanation.places[0];
//! assert_eq!(place.pointer, "/cards/*/identifiers/shopAId");
//! assert_eq!(place.lines[0].label, "field");
//! assert_eq!(place.lines[0].text, "Identifiers.shopAId");
//! assert!(explanation.text().starts_with("/cards/*/identifiers/shopAId (set)\n"));
//! ```

use serde::Serialize;

use crate::listing::Row;
use cardkit::model::Kind;
use cardkit::schema::fields::{Member, Place};
use cardkit::schema::lookup::LookupError;
use cardkit::schema::resolve::{as_field, resolve, InFile};
use cardkit::schema::words::{
    default_words, doc_words, field_type_words, format_words, since_words, tag_default, tag_words,
    type_words, Presence,
};
use cardkit::schema::{models_of, names, FieldDef, ModelDef, Names, Type};

/// What a pointer names, in words.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Explanation {
    /// The kind of document.
    pub kind: Kind,
    /// The pointer asked for, when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// The `Model.field` asked for, when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Where the document is in the file, when the pointer was from the
    /// file's root through a container (`/data/NEO/cards/3/uuid`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_file: Option<InFile>,
    /// One per place named: one, one per union branch that has the member,
    /// or for a `Model.field` one per place the field is at.
    pub places: Vec<Explained>,
}

/// One place, in words.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Serialize)]
pub struct Explained {
    /// The place's pointer pattern (list items as `*`).
    pub pointer: String,
    /// What is known of it, in order: `when` (the union branches it is in),
    /// then `field`, `type`, `format`, `presence`, `default`, `since`,
    /// `deprecated`, `meaning`, `value`, `in model` for a field; `item of`
    /// first for an item of a list; `tag of` and `shapes` for a union's tag.
    pub lines: Vec<Line>,
    /// The facts as data, as the listing (`cardkit fields --format json`)
    /// has them: for a field or a tag member, not for an item of a list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<Row>,
}

/// A labelled line of an explanation.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// What the line tells: `field`, `type`, `presence`, …
    pub label: &'static str,
    /// The line itself.
    pub text: String,
}

/// Explains what `input` names in a document of `kind`: a JSON Pointer from
/// the document's root or the file's, or a `Model.field` ([`resolve`]).
///
/// # Errors
/// The input names no field ([`resolve`]).
pub fn explain(kind: Kind, input: &str) -> Result<Explanation, LookupError> {
    let resolved = resolve(kind, input)?;
    let field = as_field(input).is_some();
    Ok(Explanation {
        kind,
        pointer: (!field).then(|| input.to_owned()),
        field: field.then(|| input.to_owned()),
        in_file: resolved.in_file,
        places: resolved
            .places
            .iter()
            .map(|place| explain_place(kind, place))
            .collect(),
    })
}

/// Explains what `input` names in a document of `kind` whose members have
/// the names `names`: under the publishers' names (and under
/// [`Names::Auto`], which reads either), a publishers' name (`keyruneCode`,
/// `/cards/0/identifiers/scryfallId`) is explained as the field it is read
/// as, with a line saying so; under the spec's, it names no field.
///
/// # Errors
/// The input names no field ([`resolve`]).
pub fn explain_named(kind: Kind, input: &str, names: Names) -> Result<Explanation, LookupError> {
    if names == Names::Spec {
        return explain(kind, input);
    }
    let (spec_input, renamed) = spec_spelling(kind, input);
    if renamed.is_empty() {
        return explain(kind, input);
    }
    let mut explanation = explain(kind, &spec_input)?;
    let field = explanation.field.is_some();
    explanation.pointer = (!field).then(|| input.to_owned());
    explanation.field = field.then(|| input.to_owned());
    let said: Vec<String> = renamed
        .iter()
        .map(|(upstream, spec)| format!("`{upstream}` is the publishers' name of `{spec}`"))
        .collect();
    for place in &mut explanation.places {
        place.lines.insert(
            0,
            Line {
                label: "read as",
                text: format!(
                    "{}: read as it under --names {} ({})",
                    said.join(", "),
                    names.name(),
                    if names == Names::Auto {
                        "each document under the names it uses"
                    } else {
                        "the publishers' names"
                    }
                ),
            },
        );
    }
    Ok(explanation)
}

/// `input` with the publishers' names it holds written as the spec's, and
/// which were: each reference token of a pointer, or the member of a
/// `Model.field`, that the publishers name otherwise (a migration's own
/// renaming only in a migration).
fn spec_spelling(kind: Kind, input: &str) -> (String, Vec<(String, &'static str)>) {
    let mut renamed = Vec::new();
    let mut spec_of = |model: Option<&str>, token: &str| -> Option<&'static str> {
        let spec = match model {
            Some(model) => names::spec_name(model, token),
            None => names::UPSTREAM
                .iter()
                .filter(|rename| {
                    rename
                        .model
                        .is_none_or(|m| kind == Kind::Migration && m == "Migration")
                })
                .find(|rename| rename.upstream == token)
                .map(|rename| rename.spec),
        }?;
        renamed.push((token.to_owned(), spec));
        Some(spec)
    };
    let spelled = match as_field(input) {
        Some((model, member)) => match spec_of(Some(model), member) {
            Some(spec) => format!("{model}.{spec}"),
            None => input.to_owned(),
        },
        None => input
            .split('/')
            .map(|token| spec_of(None, token).unwrap_or(token))
            .collect::<Vec<_>>()
            .join("/"),
    };
    (spelled, renamed)
}

impl Explanation {
    /// The explanation as text: where the document is in the file (`in
    /// file: …`) when the pointer went through a container, then each
    /// place's pattern and kind, then its lines, labels aligned; places
    /// apart by a blank line, after a line that says how many there are when
    /// there are several.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        if let Some(in_file) = &self.in_file {
            out.push_str(&format!("in file: {}\n\n", in_file.text));
        }
        match (&self.pointer, &self.field) {
            (Some(pointer), _) if self.places.len() > 1 => out.push_str(&format!(
                "`{pointer}` is in a union: it names {} fields, one per branch.\n\n",
                self.places.len()
            )),
            (_, Some(field)) if self.places.len() > 1 => out.push_str(&format!(
                "`{field}` is at {} places of a {}.\n\n",
                self.places.len(),
                self.kind
            )),
            _ => {}
        }
        for (i, place) in self.places.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("{} ({})\n", place.pointer, self.kind));
            let width = place.lines.iter().map(|l| l.label.len()).max().unwrap_or(0);
            for line in &place.lines {
                out.push_str(&format!("  {:width$}  {}\n", line.label, line.text));
            }
        }
        out
    }
}

/// Collects the lines of one place.
struct Lines(Vec<Line>);

impl Lines {
    fn push(&mut self, label: &'static str, text: String) {
        self.0.push(Line { label, text });
    }
}

fn explain_place(kind: Kind, place: &Place) -> Explained {
    let mut lines = Lines(Vec::new());
    for branch in &place.branches {
        let words = branch.words();
        let text = words.strip_prefix("when ").unwrap_or(&words).to_owned();
        lines.push("when", text);
    }
    match place.member {
        Member::Field(field) => match place.item {
            None => {
                field_lines(&mut lines, place, field);
                if let Some(habit) = publishers_habit(place.model, field.name) {
                    lines.push("publishers", habit.to_owned());
                }
                let owner = models_of(kind.model())
                    .into_iter()
                    .find(|model| model.name == place.model);
                if let Some(owner) = owner {
                    let text = format!("{}: {}", owner.name, doc_words(owner.doc));
                    lines.push("in model", text);
                }
            }
            Some(item) => {
                let list = format!("{}.{}", place.model, field.name);
                lines.push("item of", format!("{list}: {}", field_type_words(field)));
                lines.push("type", type_words(item));
                format_lines(&mut lines, item);
                lines.push("presence", "an item of a list: never null".to_owned());
                let text = format!("one item of {list} ({})", doc_words(field.doc));
                lines.push("meaning", text);
                value_lines(&mut lines, item);
            }
        },
        Member::Tag(union) => {
            let text = format!("{} (its value chooses the shape)", union.name);
            lines.push("tag of", text);
            lines.push("type", tag_words(union));
            lines.push("presence", Presence::of_tag(union).words().to_owned());
            if let Some(default) = tag_default(union) {
                lines.push("default", format!("\"{default}\" (when absent)"));
            }
            let shapes: Vec<String> = union
                .variants
                .iter()
                .map(|(tag, model)| format!("\"{tag}\": {}", model().name))
                .collect();
            lines.push("shapes", shapes.join(", "));
        }
    }
    Explained {
        pointer: place.pointer.clone(),
        lines: lines.0,
        row: place.item.is_none().then(|| Row::of(place)),
    }
}

/// What the publishers' data does with a field otherwise than the spec
/// asks, and how a project that takes their files as they are can leave
/// that one finding out (the verdict stays the spec's).
fn publishers_habit(model: &str, field: &str) -> Option<&'static str> {
    match (model, field) {
        ("Set", "sealedProduct") => Some(
            "the publishers leave the key out when a set has no sealed products (a missing_field error: the spec requires the key, null allowed); to leave that one finding out of your reports, ignore = [\"Set.sealedProduct\"] in cardkit.toml (counted as ignored, never shown)",
        ),
        _ => None,
    }
}

fn field_lines(lines: &mut Lines, place: &Place, field: &FieldDef) {
    lines.push("field", format!("{}.{}", place.model, field.name));
    lines.push("type", field_type_words(field));
    format_lines(lines, field.ty);
    lines.push("presence", Presence::of(field).explained().to_owned());
    let default = default_words(field).unwrap_or_else(|| "none".to_owned());
    lines.push("default", default);
    lines.push("since", since_words(field.since));
    let deprecated = if field.deprecated { "yes" } else { "no" };
    lines.push("deprecated", deprecated.to_owned());
    lines.push("meaning", doc_words(field.doc));
    value_lines(lines, field.ty);
}

/// A format's definition, for string types with one.
fn format_lines(lines: &mut Lines, ty: &Type) {
    match ty {
        Type::String {
            format: Some(format),
        } => lines.push("format", format_words(*format)),
        Type::List { item } => format_lines(lines, item),
        _ => {}
    }
}

/// The model a value is an object of, if one.
fn value_lines(lines: &mut Lines, ty: &Type) {
    fn model_of(ty: &Type) -> Option<&'static ModelDef> {
        match ty {
            Type::Model { model } => Some(model()),
            Type::List { item } => model_of(item),
            _ => None,
        }
    }
    if let Some(model) = model_of(ty) {
        lines.push("value", format!("{}: {}", model.name, doc_words(model.doc)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_place_per_union_branch() {
        let explanation = explain(Kind::Card, "/data/children/0/name").unwrap();
        assert_eq!(explanation.places.len(), 3);
        let text = explanation.text();
        assert!(text.starts_with("`/data/children/0/name` is in a union: it names 3 fields"));
        assert_eq!(text.matches("\n\n").count(), 3);
    }

    #[test]
    fn as_json() {
        let explanation = explain(Kind::Set, "/code").unwrap();
        let json = serde_json::to_value(&explanation).unwrap();
        assert_eq!(json["kind"], "set");
        assert_eq!(json["places"][0]["lines"][0]["label"], "field");
        assert_eq!(json["places"][0]["lines"][0]["text"], "Set.code");
        assert_eq!(json["places"][0]["row"]["required"], true);
        let item = explain(Kind::Set, "/cards/0").unwrap();
        assert!(item.places[0].row.is_none());
    }
}
