//! The classic save file to the spec's Cards: an array of `{key, data}`,
//! one card per entry.
//!
//! The classic tool stores positions and sizes as fractions of the card's
//! size (`data.width` × `data.height`, in pixels; when they are absent, the
//! tool's base size of 1500 × 2100, its `baseWidth` and `baseHeight`): x
//! and widths of the width, y, heights and text sizes of the height
//! (`scaleX`, `scaleWidth`, `scaleY`, `scaleHeight` of its creator script).
//! A card's layers are in the tool's draw order: the art, the frames (the
//! last of `frames` first: the tool draws them reversed, so the first is on
//! top), the watermark, the texts, the set symbol, the bottom info texts.
//! A frame without `bounds` covers the whole card, as in the tool.
//!
//! A member is reported only when it holds something: a value that is the
//! tool's default or empty (`0`, `"0"`, `false`, `""`, `"none"`, `[]`, `{}`,
//! null) carries nothing to lose.

mod codes;
mod converter;
mod frames;
mod pictures;
mod texts;

use std::collections::HashMap;

use cardkit::Kind;
use serde_json::{json, Map, Value};

use super::card::{self, Mapping};
use super::document::{ImportedDocument, Part};
use super::notes::Notes;
use super::offsets;
use super::options::ImportOptions;
use cardkit_json::pointer::child;

use converter::{holds_something, scaled, Converter};

/// Converts every entry of a classic save file.
pub(super) fn convert(value: Value, options: &ImportOptions, bytes: &[u8]) -> Vec<Part> {
    let Value::Array(entries) = value else {
        let mut notes = Notes::default();
        notes.not_convertible("", "a classic save file is an array".to_owned());
        return vec![Part {
            pointer: String::new(),
            kind: None,
            document: None,
            notes,
        }];
    };
    // The texts are layers in the order the save has them.
    let mut keyed = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        for member in ["text", "bottomInfo"] {
            if entry
                .get("data")
                .and_then(|data| data.get(member))
                .is_some_and(Value::is_object)
            {
                keyed.push(format!("/{index}/data/{member}"));
            }
        }
    }
    let orders = offsets::key_orders(bytes, &keyed);
    entries
        .into_iter()
        .enumerate()
        .map(|(index, entry)| {
            let pointer = format!("/{index}");
            let mut notes = Notes::default();
            let document = entry_card(entry, &pointer, options, &orders, &mut notes);
            Part {
                pointer,
                kind: Some(Kind::Card),
                document,
                notes,
            }
        })
        .collect()
}

/// The card of one entry.
fn entry_card(
    entry: Value,
    pointer: &str,
    options: &ImportOptions,
    orders: &HashMap<String, Vec<String>>,
    notes: &mut Notes,
) -> Option<ImportedDocument> {
    let Value::Object(mut entry) = entry else {
        notes.not_convertible(
            pointer,
            "an entry of a save file is an object `{key, data}`".to_owned(),
        );
        return None;
    };
    let Some(Value::Object(data)) = entry.remove("data") else {
        notes.not_convertible(
            &child(pointer, "data"),
            "the entry has no `data` object: there is no card to convert".to_owned(),
        );
        return None;
    };
    let name = match entry.remove("key") {
        Some(Value::String(key)) => key,
        _ => {
            notes.derived(
                &child(pointer, "key"),
                "Card.name",
                &Value::String(String::new()),
                "since the entry's `key` is no string",
            );
            String::new()
        }
    };
    for (member, value) in &entry {
        if holds_something(value) {
            notes.dropped(
                &child(pointer, member),
                member,
                "the spec's Card has no such member",
            );
        }
    }
    let data_pointer = child(pointer, "data");
    let mut converter = Converter::new(data, &data_pointer, orders, notes);
    let mut mapping = Mapping::default();
    let mut value = converter.card(&name, options, &mut mapping);
    card::settle(&mut value, Kind::Card, &mapping, notes);
    Some(ImportedDocument {
        kind: Kind::Card,
        name,
        value,
        pointer: pointer.to_owned(),
    })
}

impl<'n> Converter<'n> {
    fn card(&mut self, name: &str, options: &ImportOptions, mapping: &mut Mapping) -> Value {
        self.size();
        let mut card = Map::new();
        if let Some(root) = &options.asset_root {
            card.insert("asset_root_url".to_owned(), Value::String(root.clone()));
        }
        card.insert("name".to_owned(), Value::String(name.to_owned()));
        card.insert("width".to_owned(), json!(self.width));
        card.insert("height".to_owned(), json!(self.height));
        for (member, scale) in [("marginX", self.width), ("marginY", self.height)] {
            if let Some(margin) = self.take(member) {
                let pointer = child(&self.pointer, member);
                match margin.as_f64() {
                    Some(fraction) if fraction != 0.0 => {
                        self.in_range(&pointer, &format!("Card.{member}"), fraction, scale);
                        card.insert(member.to_owned(), json!(scaled(fraction, scale)));
                    }
                    Some(_) => {}
                    None => self.notes.dropped(&pointer, member, "it is not a number"),
                }
            }
        }
        // What the texts' codes read, before the frames are taken.
        self.info = codes::Info::of(&self.data);
        let frame_names = self
            .data
            .get("frames")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        self.pt_shift = codes::pt_shift_applies(
            self.data.get("version").and_then(Value::as_str),
            frame_names.filter_map(|frame| frame.get("name").and_then(Value::as_str)),
        );
        let mut children = Vec::new();
        let art = self.picture("art", "Art", "fill");
        let frames = self.frames(mapping, children_len_after(&art, &children));
        if let Some((layer, source)) = art {
            mapping.add(format!("/data/children/{}", children.len()), source);
            children.push(layer);
        }
        if let Some(frames) = frames {
            children.push(frames);
        }
        if let Some((layer, source)) = self.picture("watermark", "Watermark", "fit") {
            mapping.add(format!("/data/children/{}", children.len()), source);
            children.push(layer);
        }
        if let Some(texts) = self.texts("text", "Text", children.len(), mapping) {
            children.push(texts);
        }
        if let Some((layer, source)) = self.picture("setSymbol", "Set Symbol", "fit") {
            mapping.add(format!("/data/children/{}", children.len()), source);
            children.push(layer);
        }
        if let Some(texts) = self.texts("bottomInfo", "Bottom Info", children.len(), mapping) {
            children.push(texts);
        }
        let texts = child(&self.pointer, "text");
        if self.defaulted_color {
            self.notes.derived(
                &texts,
                "Text.color",
                &json!("black"),
                "the design tool's default, written on each text that names no colour (the \
                 spec's default is white)",
            );
        }
        if self.defaulted_font {
            self.notes.derived(
                &texts,
                "Text.font",
                &json!("mplantin"),
                "the design tool's default, written on each text that names no font (the spec \
                 has none)",
            );
        }
        let data = std::mem::take(&mut self.data);
        for (member, value) in data {
            if holds_something(&value) {
                let reason = dropped_reason(&member);
                self.notes
                    .dropped(&child(&self.pointer, &member), &member, reason);
            }
        }
        card.insert(
            "data".to_owned(),
            json!({"type": "group", "children": children}),
        );
        Value::Object(card)
    }
}

/// The place of the frames among the card's layers: after the art, when
/// there is art.
fn children_len_after(art: &Option<(Value, String)>, children: &[Value]) -> usize {
    children.len() + usize::from(art.is_some())
}

fn dropped_reason(member: &str) -> String {
    match member {
        "version" | "onload" => {
            "the tool's frame version, which loads its frames and texts: the spec's Card holds \
             the layers it made"
                .to_owned()
        }
        "manaSymbols" => "the spec's Card has no list of mana symbols".to_owned(),
        "margins" => "the spec's Card gives its margins by `marginX` and `marginY`".to_owned(),
        member if member.starts_with("info") => format!(
            "the spec's Card has no such member: `{member}` is written into the texts that name \
             it (`{{elemidinfo-…}}`)"
        ),
        _ => "the spec's Card has no such member".to_owned(),
    }
}
