//! The Markdown reference of every model and field (`docs/reference.md`),
//! generated from the field tables.
//!
//! ```
//! let reference = cardkit::schema::reference::markdown();
//! assert!(reference.contains("### CardSet"));
//! ```

use std::fmt::Write as _;

use crate::model::Kind;
use crate::schema::words::{
    default_words, field_type_words, format_definition, type_words, Presence,
};
use crate::table::{models_of, FieldDef, Format, ModelDef, Type};

/// The reference, as Markdown.
#[must_use]
pub fn markdown() -> String {
    let models = all_models();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# cardkit reference\n\n\
         Every model and field of the four document kinds, generated from the field tables \
         (`cardkit::schema::reference::markdown`); do not edit by hand. After a change to the \
         models, rewrite it with `CARDKIT_BLESS=1 cargo test -p cardkit --test reference`.\n\n\
         Presence: *required* members must be present; *optional* ones may be absent. \
         *or null* types allow `null` (for optional members, the same as absence); \
         *not null* means that a member with a default may be absent but not `null`. \
         Members the spec does not define are allowed everywhere (cardkit warns about them).\n"
    );

    let _ = writeln!(out, "## Document kinds\n");
    let _ = writeln!(out, "| Kind | Top-level model |\n|---|---|");
    for &kind in Kind::ALL {
        let model = kind.model().name;
        let _ = writeln!(out, "| `{kind}` | [{model}](#{}) |", anchor(model));
    }

    let _ = writeln!(out, "\n## Models\n");
    for model in &models {
        model_section(&mut out, model);
    }

    let _ = writeln!(out, "## Unions\n");
    let _ = writeln!(
        out,
        "| Used by | Type | How the shape is chosen |\n|---|---|---|"
    );
    for (used_by, ty) in unions(&models) {
        let how = match ty {
            Type::Tagged(union) if union.tag_optional => format!(
                "by the member `{}`, which may be left out (then `\"{}\"`)",
                union.tag, union.variants[0].0
            ),
            Type::Tagged(union) => format!("by the member `{}`, which is required", union.tag),
            _ => "by shape: a value is valid if it matches one of the alternatives".to_owned(),
        };
        let _ = writeln!(out, "| {used_by} | {} | {how} |", cell(&type_words(ty)));
    }

    let _ = writeln!(out, "\n## Enumerations\n");
    let _ = writeln!(out, "| Enumeration | Values |\n|---|---|");
    for (name, values) in enumerations(&models) {
        let values: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
        let _ = writeln!(out, "| {name} | {} |", values.join(", "));
    }

    let _ = writeln!(out, "\n## Formats\n");
    let _ = writeln!(out, "| Format | Definition |\n|---|---|");
    for format in [Format::Uuid, Format::Date, Format::Uri, Format::Color] {
        let _ = writeln!(
            out,
            "| `{}` | {} |",
            format.name(),
            cell(format_definition(format))
        );
    }
    out
}

fn model_section(out: &mut String, model: &ModelDef) {
    let _ = writeln!(out, "### {}\n", model.name);
    if !model.doc.is_empty() {
        let _ = writeln!(out, "{}\n", model.doc);
    }
    let _ = writeln!(
        out,
        "| Field | Type | Presence | Default | Since | Meaning |\n|---|---|---|---|---|---|"
    );
    for field in model.fields {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} |",
            field.name,
            cell(&field_type_words(field)),
            Presence::of(field).words(),
            default_words(field).map_or_else(String::new, |d| format!("`{}`", cell(&d))),
            field.since.map_or_else(String::new, |v| v.to_string()),
            meaning(field)
        );
    }
    let _ = writeln!(out);
}

fn meaning(field: &FieldDef) -> String {
    let doc = cell(field.doc);
    if field.deprecated {
        format!("**Deprecated.** {doc}")
    } else {
        doc
    }
}

/// Every model of every kind, each once, in the order they are met.
fn all_models() -> Vec<&'static ModelDef> {
    let mut models: Vec<&'static ModelDef> = Vec::new();
    for &kind in Kind::ALL {
        for model in models_of(kind.model()) {
            if !models.iter().any(|m| std::ptr::eq(*m, model)) {
                models.push(model);
            }
        }
    }
    models
}

/// The unions of the models' fields, with the field (or list) that holds
/// each.
fn unions(models: &[&'static ModelDef]) -> Vec<(String, &'static Type)> {
    let mut found = Vec::new();
    for model in models {
        for field in model.fields {
            let mut ty = field.ty;
            let mut place = format!("`{}.{}`", model.name, field.name);
            while let Type::List { item } = ty {
                ty = item;
                place.push_str(" items");
            }
            if matches!(ty, Type::Tagged(_) | Type::AnyOf { .. }) {
                found.push((place, ty));
            }
        }
    }
    found
}

/// Every enumeration of the models, each once.
fn enumerations(models: &[&'static ModelDef]) -> Vec<(&'static str, &'static [&'static str])> {
    fn visit(ty: &'static Type, found: &mut Vec<(&'static str, &'static [&'static str])>) {
        match ty {
            Type::Enum { name, values } if !found.iter().any(|(n, _)| n == name) => {
                found.push((name, values));
            }
            Type::List { item } => visit(item, found),
            Type::AnyOf { types, .. } => types.iter().for_each(|t| visit(t, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    for model in models {
        for field in model.fields {
            visit(field.ty, &mut found);
        }
    }
    found
}

/// A GitHub-style heading anchor.
fn anchor(heading: &str) -> String {
    heading.to_lowercase().replace(' ', "-")
}

/// Text that fits one table cell.
fn cell(text: &str) -> String {
    text.replace("\n\n", " ").replace('|', "\\|")
}
