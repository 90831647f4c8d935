//! `cardkit fields`: lists the fields of a document kind, each at its JSON
//! Pointer, from the library's field tables.

use std::io::{self, Write};

use cardkit::schema::fields::{fields, Choice, Member, Place};
use cardkit::schema::words::{
    default_value, default_words, field_type_label, field_type_words, tag_default, tag_words,
    Presence,
};
use cardkit::schema::Version;
use cardkit::Kind;
use clap::ValueEnum;
use serde_json::{json, Value};

use crate::kind;

#[derive(clap::Args)]
pub struct Args {
    /// The document kind. Example: cardkit fields set
    #[arg(value_name = "KIND", value_parser = kind::parser())]
    kind: Kind,

    /// Lists only the fields introduced in this version or a later one: those
    /// whose version tag (`since`) is at or after it. Fields without a version
    /// tag (Template, Card and Migration fields) are left out.
    /// Example: --since v5.2.0
    #[arg(long, value_name = "vX.Y.Z", value_parser = str::parse::<Version>)]
    since: Option<Version>,

    /// Lists only the fields flagged deprecated. Example: --deprecated
    #[arg(long)]
    deprecated: bool,

    /// The output format: `text` (one aligned line per field) or `json` (an
    /// array of objects, one per field). Example: --format json
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

pub fn run(args: &Args) -> io::Result<u8> {
    let filtered = args.since.is_some() || args.deprecated;
    let places: Vec<Place> = fields(args.kind)
        .into_iter()
        .filter(|place| {
            if !filtered {
                return true;
            }
            let Some(field) = place.member.field().filter(|_| place.repeats.is_none()) else {
                return false;
            };
            args.since
                .is_none_or(|since| field.since.is_some_and(|tag| tag >= since))
                && (!args.deprecated || field.deprecated)
        })
        .collect();
    let mut out = io::BufWriter::new(io::stdout().lock());
    match args.format {
        Format::Text => text(&mut out, &places)?,
        Format::Json => {
            let all: Vec<Value> = places.iter().map(as_json).collect();
            serde_json::to_writer_pretty(&mut out, &all)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(0)
}

/// One aligned line per place, under a header.
fn text(out: &mut impl Write, places: &[Place]) -> io::Result<()> {
    const HEADER: [&str; 7] = [
        "POINTER", "MODEL", "TYPE", "PRESENCE", "DEFAULT", "SINCE", "NOTES",
    ];
    let mut rows = vec![HEADER.map(str::to_owned)];
    rows.extend(places.iter().map(columns));
    let mut widths = [0; HEADER.len()];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in &rows {
        let mut line = String::new();
        for (cell, width) in row.iter().zip(widths) {
            line.push_str(&format!("{cell:width$}  "));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    if places.is_empty() {
        writeln!(out, "(no field matches)")?;
    }
    Ok(())
}

fn columns(place: &Place) -> [String; 7] {
    let mut notes = Vec::new();
    let (ty, presence, default, since) = match (place.member, &place.repeats) {
        (Member::Field(field), None) => {
            if field.deprecated {
                notes.push("deprecated".to_owned());
            }
            (
                field_type_label(field),
                Presence::of(field).words().to_owned(),
                default_words(field).unwrap_or_else(|| "-".to_owned()),
                field
                    .since
                    .map_or_else(|| "-".to_owned(), |v| v.to_string()),
            )
        }
        (Member::Field(_), Some(at)) => {
            notes.push(format!("recursive: the fields listed at {at}"));
            (
                repeated(place),
                "-".to_owned(),
                "-".to_owned(),
                "-".to_owned(),
            )
        }
        (Member::Tag(union), _) => {
            notes.push("chooses the shape".to_owned());
            (
                tag_words(union),
                Presence::of_tag(union).words().to_owned(),
                tag_default(union).map_or_else(|| "-".to_owned(), |d| format!("\"{d}\"")),
                "-".to_owned(),
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
            Choice::Shape { ty, .. } => cardkit::schema::words::type_label(ty),
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
        _ => place
            .value_type()
            .map_or_else(String::new, cardkit::schema::words::type_words),
    }
}

fn as_json(place: &Place) -> Value {
    let when: Vec<Value> = place
        .branches
        .iter()
        .map(|b| match b.choice {
            Choice::Tag { union, value } => json!({"at": b.at, "tag": union.tag, "value": value}),
            Choice::Shape { union, ty } => json!({
                "at": b.at,
                "union": union,
                "shape": cardkit::schema::words::type_words(ty),
            }),
        })
        .collect();
    let mut entry = json!({
        "pointer": place.pointer,
        "model": place.model,
        "name": place.member.name(),
    });
    match (place.member, &place.repeats) {
        (Member::Field(field), None) => {
            entry["member"] = "field".into();
            entry["type"] = field_type_words(field).into();
            entry["required"] = field.required.into();
            entry["nullable"] = field.nullable.into();
            if let Some(default) = default_value(field) {
                entry["default"] = default;
            }
            entry["since"] = field.since.map(|v| v.to_string()).into();
            entry["deprecated"] = field.deprecated.into();
            entry["description"] = field.doc.into();
        }
        (Member::Field(_), Some(at)) => {
            entry["member"] = "repeat".into();
            entry["type"] = repeated(place).into();
            entry["repeats"] = at.as_str().into();
        }
        (Member::Tag(union), _) => {
            entry["member"] = "tag".into();
            entry["type"] = tag_words(union).into();
            entry["required"] = (!union.tag_optional).into();
            entry["nullable"] = false.into();
            if let Some(default) = tag_default(union) {
                entry["default"] = default.into();
            }
        }
    }
    if !when.is_empty() {
        entry["when"] = Value::Array(when);
    }
    entry
}
