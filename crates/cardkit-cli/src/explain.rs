//! `cardkit explain`: one field of a document kind in plain words, found by
//! its JSON Pointer.

use std::io::{self, Write};

use cardkit::schema::fields::{Member, Place};
use cardkit::schema::lookup::lookup;
use cardkit::schema::words::{
    default_words, doc_words as meaning, field_type_words, format_words, since_words, tag_default,
    type_words, Presence,
};
use cardkit::schema::{FieldDef, ModelDef, Type};
use cardkit::Kind;

use crate::kind;

#[derive(clap::Args)]
pub struct Args {
    /// The document kind. Example: cardkit explain set /cards/0/uuid
    #[arg(value_name = "KIND", value_parser = kind::parser())]
    kind: Kind,

    /// The field's JSON Pointer (RFC 6901: `~1` is `/`, `~0` is `~`); list
    /// items by index or `*`. Example: /cards/*/identifiers/shopAId
    #[arg(value_name = "POINTER")]
    pointer: String,
}

pub fn run(args: &Args) -> io::Result<u8> {
    let places = match lookup(args.kind, &args.pointer) {
        Ok(places) => places,
        Err(error) => {
            eprintln!("cardkit explain: {error}");
            return Ok(2);
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    if places.len() > 1 {
        writeln!(
            out,
            "`{}` is in a union: it names {} fields, one per branch.\n",
            args.pointer,
            places.len()
        )?;
    }
    for (i, place) in places.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        explain(&mut out, args.kind, place)?;
    }
    out.flush()?;
    Ok(0)
}

/// One place, as `label  value` lines.
fn explain(out: &mut impl Write, kind: Kind, place: &Place) -> io::Result<()> {
    let mut lines: Vec<(&str, String)> = Vec::new();
    for branch in &place.branches {
        lines.push((
            "when",
            branch.words().trim_start_matches("when ").to_owned(),
        ));
    }
    match place.member {
        Member::Field(field) => match place.item {
            None => {
                field_lines(&mut lines, place, field);
                let owner = cardkit::schema::models_of(kind.model())
                    .into_iter()
                    .find(|model| model.name == place.model);
                if let Some(owner) = owner {
                    lines.push((
                        "in model",
                        format!("{}: {}", owner.name, meaning(owner.doc)),
                    ));
                }
            }
            Some(item) => {
                let list = format!("{}.{}", place.model, field.name);
                lines.push(("item of", format!("{list}: {}", field_type_words(field))));
                lines.push(("type", type_words(item)));
                type_lines(&mut lines, item);
                lines.push(("presence", "an item of a list: never null".to_owned()));
                lines.push((
                    "meaning",
                    format!("one item of {list} ({})", meaning(field.doc)),
                ));
                if let Some(model) = model_of(item) {
                    lines.push(("value", format!("{}: {}", model.name, meaning(model.doc))));
                }
            }
        },
        Member::Tag(union) => {
            lines.push((
                "tag of",
                format!("{} (its value chooses the shape)", union.name),
            ));
            lines.push(("type", cardkit::schema::words::tag_words(union)));
            lines.push(("presence", Presence::of_tag(union).words().to_owned()));
            if let Some(default) = tag_default(union) {
                lines.push(("default", format!("\"{default}\" (when absent)")));
            }
            let shapes: Vec<String> = union
                .variants
                .iter()
                .map(|(tag, model)| format!("\"{tag}\": {}", model().name))
                .collect();
            lines.push(("shapes", shapes.join(", ")));
        }
    }
    writeln!(out, "{} ({kind})", place.pointer)?;
    let width = lines
        .iter()
        .map(|(label, _)| label.len())
        .max()
        .unwrap_or(0);
    for (label, value) in lines {
        writeln!(out, "  {label:width$}  {value}")?;
    }
    Ok(())
}

fn field_lines(lines: &mut Vec<(&str, String)>, place: &Place, field: &FieldDef) {
    lines.push(("field", format!("{}.{}", place.model, field.name)));
    lines.push(("type", field_type_words(field)));
    type_lines(lines, field.ty);
    lines.push(("presence", Presence::of(field).explained().to_owned()));
    lines.push((
        "default",
        default_words(field).unwrap_or_else(|| "none".to_owned()),
    ));
    lines.push(("since", since_words(field.since)));
    lines.push((
        "deprecated",
        if field.deprecated { "yes" } else { "no" }.to_owned(),
    ));
    lines.push(("meaning", meaning(field.doc)));
    if let Some(model) = model_of(field.ty) {
        lines.push(("value", format!("{}: {}", model.name, meaning(model.doc))));
    }
}

/// A format's definition, for string types with one.
fn type_lines(lines: &mut Vec<(&str, String)>, ty: &Type) {
    match ty {
        Type::String {
            format: Some(format),
        } => lines.push(("format", format_words(*format))),
        Type::List { item } => type_lines(lines, item),
        _ => {}
    }
}

/// The model a value of `ty` is an object of, if one.
fn model_of(ty: &Type) -> Option<&'static ModelDef> {
    match ty {
        Type::Model { model } => Some(model()),
        Type::List { item } => model_of(item),
        _ => None,
    }
}
