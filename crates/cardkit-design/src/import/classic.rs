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

use std::collections::BTreeSet;

use cardkit::format::is_color;
use cardkit::Kind;
use serde_json::{json, Map, Value};

use std::collections::HashMap;

use super::card::{self, Mapping};
use super::notes::Notes;
use super::offsets;
use super::pointer::join;
use super::{ImportOptions, ImportedDocument, Part};

/// The tool's card size when a save names none (`baseWidth`, `baseHeight`).
const BASE_SIZE: (i64, i64) = (1500, 2100);

/// The text codes the spec's text layers read (the core text codes of the
/// layered format: a new line, italics, the year).
const KNOWN_TEXT_CODES: [&str; 4] = ["{line}", "{i}", "{/i}", "{year}"];

/// The most distinct unknown text codes reported per card: a hostile text
/// of a million codes gives a bounded report.
const MAX_TEXT_CODES: usize = 256;

/// The tool's default text size, as a fraction of the card's height.
const DEFAULT_TEXT_SIZE: f64 = 0.038;

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
            &join(pointer, "data"),
            "the entry has no `data` object: there is no card to convert".to_owned(),
        );
        return None;
    };
    let name = match entry.remove("key") {
        Some(Value::String(key)) => key,
        _ => {
            notes.derived(
                &join(pointer, "key"),
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
                &join(pointer, member),
                member,
                "the spec's Card has no such member",
            );
        }
    }
    let data_pointer = join(pointer, "data");
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

/// A value that is not the tool's default or empty.
fn holds_something(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(on) => *on,
        Value::Number(number) => number.as_f64() != Some(0.0),
        Value::String(text) => !matches!(text.as_str(), "" | "0" | "none"),
        Value::Array(items) => !items.is_empty(),
        Value::Object(members) => !members.is_empty(),
    }
}

/// One entry's `data` being converted: the members not yet taken are what
/// is reported as dropped at the end.
struct Converter<'n> {
    data: Map<String, Value>,
    /// The input's order of the texts.
    orders: &'n HashMap<String, Vec<String>>,
    pointer: String,
    width: i64,
    height: i64,
    notes: &'n mut Notes,
    /// Distinct unknown text codes reported so far.
    codes: BTreeSet<String>,
    /// Texts written with the tool's default colour, font: not the spec's.
    defaulted_color: bool,
    defaulted_font: bool,
}

impl<'n> Converter<'n> {
    fn new(
        data: Map<String, Value>,
        pointer: &str,
        orders: &'n HashMap<String, Vec<String>>,
        notes: &'n mut Notes,
    ) -> Self {
        Converter {
            data,
            orders,
            pointer: pointer.to_owned(),
            width: BASE_SIZE.0,
            height: BASE_SIZE.1,
            notes,
            codes: BTreeSet::new(),
            defaulted_color: false,
            defaulted_font: false,
        }
    }

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
                let pointer = join(&self.pointer, member);
                match margin.as_f64() {
                    Some(fraction) if fraction != 0.0 => {
                        card.insert(member.to_owned(), json!(scaled(fraction, scale)));
                    }
                    Some(_) => {}
                    None => self.notes.dropped(&pointer, member, "it is not a number"),
                }
            }
        }
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
        let texts = join(&self.pointer, "text");
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
                    .dropped(&join(&self.pointer, &member), &member, reason);
            }
        }
        card.insert(
            "data".to_owned(),
            json!({"type": "group", "children": children}),
        );
        Value::Object(card)
    }

    /// The card's size: `width` and `height` in pixels, or the tool's base.
    fn size(&mut self) {
        let width = self.take("width");
        let height = self.take("height");
        match (
            width.as_ref().and_then(pixels),
            height.as_ref().and_then(pixels),
        ) {
            (Some(width), Some(height)) => {
                self.width = width;
                self.height = height;
            }
            _ => {
                let value = json!([BASE_SIZE.0, BASE_SIZE.1]);
                self.notes.derived(
                    &self.pointer,
                    "Card.width",
                    &value,
                    "the design tool's base card size (1500 × 2100), since `data` gives no \
                     positive width and height: every fraction is of it",
                );
            }
        }
    }

    fn take(&mut self, member: &str) -> Option<Value> {
        self.data.remove(member)
    }

    /// The art, the watermark or the set symbol: an image layer in its
    /// bounds, when the save has its `…Source`.
    fn picture(&mut self, prefix: &str, name: &str, fit: &str) -> Option<(Value, String)> {
        let source = self.take(&format!("{prefix}Source"));
        let bounds = self.take(&format!("{prefix}Bounds"));
        let source_pointer = join(&self.pointer, &format!("{prefix}Source"));
        let src = match source {
            Some(Value::String(src)) => src,
            Some(other) => {
                if holds_something(&other) {
                    self.notes.dropped(
                        &source_pointer,
                        &format!("{prefix}Source"),
                        "it is not a string",
                    );
                }
                return None;
            }
            None => return None,
        };
        let mut layer = Map::new();
        layer.insert("type".to_owned(), json!("image"));
        layer.insert("name".to_owned(), json!(name));
        layer.insert("src".to_owned(), Value::String(src));
        let bounds_pointer = join(&self.pointer, &format!("{prefix}Bounds"));
        let fraction = match bounds {
            Some(Value::Object(bounds)) => {
                self.fractions(&bounds, &bounds_pointer, &["x", "y", "width", "height"])
            }
            _ => {
                self.notes.derived(
                    &source_pointer,
                    "Image.bounds",
                    &json!({"x": 0, "y": 0, "width": self.width, "height": self.height}),
                    format!("the whole card, since the save has no `{prefix}Bounds`"),
                );
                Box4 {
                    x: 0.0,
                    y: 0.0,
                    width: 1.0,
                    height: 1.0,
                    horizontal: None,
                    vertical: None,
                }
            }
        };
        let (x, y, width, height) = self.place(&fraction);
        layer.insert("x".to_owned(), json!(x));
        layer.insert("y".to_owned(), json!(y));
        layer.insert("width".to_owned(), json!(width));
        layer.insert("height".to_owned(), json!(height));
        layer.insert(
            "bounds".to_owned(),
            json!({
                "x": x, "y": y, "width": width, "height": height, "type": fit,
                "horizontal": fraction.horizontal.unwrap_or("center"),
                "vertical": fraction.vertical.unwrap_or("center"),
            }),
        );
        // Placed by the picture's own pixel size, which the spec cannot say.
        for member in ["X", "Y", "Zoom"] {
            let member = format!("{prefix}{member}");
            if let Some(value) = self.take(&member) {
                let is_default = if member.ends_with("Zoom") {
                    value.as_f64() == Some(1.0)
                } else {
                    !holds_something(&value)
                };
                if !is_default {
                    self.notes.dropped(
                        &join(&self.pointer, &member),
                        &member,
                        "the tool places the picture by its own pixel size, which the spec's \
                         layers cannot say: the layer fills its bounds instead",
                    );
                }
            }
        }
        match prefix {
            "art" => self.drop_if_set("artRotate", "the spec's Image layer has no rotation"),
            "watermark" => self.watermark(&mut layer),
            _ => {}
        }
        Some((Value::Object(layer), source_pointer))
    }

    fn drop_if_set(&mut self, member: &str, reason: &str) {
        if let Some(value) = self.take(member) {
            if holds_something(&value) {
                self.notes
                    .dropped(&join(&self.pointer, member), member, reason);
            }
        }
    }

    /// The watermark's opacity and tint (one colour overlay).
    fn watermark(&mut self, layer: &mut Map<String, Value>) {
        if let Some(opacity) = self.take("watermarkOpacity") {
            match opacity.as_f64() {
                Some(opacity) => {
                    layer.insert("opacity".to_owned(), json!(opacity));
                }
                None => self.notes.dropped(
                    &join(&self.pointer, "watermarkOpacity"),
                    "watermarkOpacity",
                    "it is not a number",
                ),
            }
        }
        let left = self.take("watermarkLeft");
        let right = self.take("watermarkRight");
        let tint = |value: &Option<Value>| {
            value
                .as_ref()
                .and_then(Value::as_str)
                .filter(|color| !matches!(*color, "" | "none" | "default"))
                .map(str::to_owned)
        };
        let (left_tint, right_tint) = (tint(&left), tint(&right));
        if let Some(color) = &left_tint {
            if is_color(color) {
                layer.insert(
                    "filters".to_owned(),
                    json!([{"type": "colorOverlay", "color": color}]),
                );
            } else {
                self.notes.dropped(
                    &join(&self.pointer, "watermarkLeft"),
                    "watermarkLeft",
                    "it is not a colour the spec accepts",
                );
            }
        }
        if right_tint.is_some() && right_tint != left_tint {
            self.notes.dropped(
                &join(&self.pointer, "watermarkRight"),
                "watermarkRight",
                "a layer has one colour overlay in the spec: the right half's own tint has no place",
            );
        }
    }

    /// The frames, in the tool's draw order, as masked image layers in a
    /// group.
    fn frames(&mut self, mapping: &mut Mapping, index: usize) -> Option<Value> {
        let frames_pointer = join(&self.pointer, "frames");
        let frames = match self.take("frames")? {
            Value::Array(frames) => frames,
            other => {
                if holds_something(&other) {
                    self.notes
                        .dropped(&frames_pointer, "frames", "it is not a list");
                }
                return None;
            }
        };
        let group_pointer = format!("/data/children/{index}");
        mapping.add(group_pointer.clone(), frames_pointer.clone());
        let mut layers = Vec::with_capacity(frames.len());
        // The tool draws the last frame first.
        for (position, frame) in frames.into_iter().enumerate().rev() {
            let pointer = format!("{frames_pointer}/{position}");
            if let Some(layer) = self.frame(frame, &pointer) {
                mapping.add(
                    format!("{group_pointer}/children/{}", layers.len()),
                    pointer,
                );
                layers.push(layer);
            }
        }
        Some(json!({"type": "group", "name": "Frames", "children": layers}))
    }

    fn frame(&mut self, frame: Value, pointer: &str) -> Option<Value> {
        let Value::Object(mut frame) = frame else {
            self.notes.dropped(pointer, "frame", "it is not an object");
            return None;
        };
        let Some(Value::String(src)) = frame.remove("src") else {
            self.notes.dropped(
                pointer,
                "frame",
                "it has no `src` (a string): there is no picture to draw",
            );
            return None;
        };
        let mut layer = Map::new();
        layer.insert("type".to_owned(), json!("image"));
        if let Some(name) = frame.remove("name") {
            if name.is_string() {
                layer.insert("name".to_owned(), name);
            } else if holds_something(&name) {
                self.notes
                    .dropped(&join(pointer, "name"), "name", "it is not a string");
            }
        }
        layer.insert("src".to_owned(), Value::String(src));
        let fraction = match frame.remove("bounds") {
            Some(Value::Object(bounds)) => self.fractions(
                &bounds,
                &join(pointer, "bounds"),
                &["x", "y", "width", "height"],
            ),
            Some(other) if holds_something(&other) => {
                self.notes
                    .dropped(&join(pointer, "bounds"), "bounds", "it is not an object");
                Box4::WHOLE
            }
            _ => Box4::WHOLE,
        };
        let (x, y, width, height) = self.place(&fraction);
        layer.insert("x".to_owned(), json!(x));
        layer.insert("y".to_owned(), json!(y));
        layer.insert("width".to_owned(), json!(width));
        layer.insert("height".to_owned(), json!(height));
        if let Some(masks) = frame.remove("masks") {
            let masks = self.masks(masks, &join(pointer, "masks"));
            if !masks.is_empty() {
                layer.insert("masks".to_owned(), Value::Array(masks));
            }
        }
        if let Some(opacity) = frame.remove("opacity") {
            // A percentage in the tool.
            match opacity.as_f64() {
                Some(percent) => {
                    layer.insert("opacity".to_owned(), json!(percent / 100.0));
                }
                None => {
                    self.notes
                        .dropped(&join(pointer, "opacity"), "opacity", "it is not a number")
                }
            }
        }
        let overlay_on = frame
            .remove("colorOverlayCheck")
            .is_some_and(|on| on == true);
        let overlay = frame.remove("colorOverlay");
        match (overlay_on, overlay.as_ref().and_then(Value::as_str)) {
            (true, Some(color)) if is_color(color) => {
                layer.insert(
                    "filters".to_owned(),
                    json!([{"type": "colorOverlay", "color": color}]),
                );
            }
            (true, _) => self.notes.dropped(
                &join(pointer, "colorOverlay"),
                "colorOverlay",
                "it is not a colour the spec accepts",
            ),
            (false, _) => {}
        }
        for (member, value) in frame {
            if member == "mode" && value == "source-over" {
                continue;
            }
            if holds_something(&value) {
                let reason = frame_reason(&member);
                self.notes.dropped(&join(pointer, &member), &member, reason);
            }
        }
        Some(Value::Object(layer))
    }

    fn masks(&mut self, masks: Value, pointer: &str) -> Vec<Value> {
        let Value::Array(masks) = masks else {
            if holds_something(&masks) {
                self.notes.dropped(pointer, "masks", "it is not a list");
            }
            return Vec::new();
        };
        let mut output = Vec::with_capacity(masks.len());
        for (index, mask) in masks.into_iter().enumerate() {
            let mask_pointer = format!("{pointer}/{index}");
            let Value::Object(mut mask) = mask else {
                self.notes
                    .dropped(&mask_pointer, "mask", "it is not an object");
                continue;
            };
            let Some(Value::String(src)) = mask.remove("src") else {
                self.notes
                    .dropped(&mask_pointer, "mask", "it has no `src` (a string)");
                continue;
            };
            let name = match mask.remove("name") {
                Some(Value::String(name)) => name,
                _ => src.clone(),
            };
            for (member, value) in mask {
                if holds_something(&value) {
                    self.notes.dropped(
                        &join(&mask_pointer, &member),
                        &member,
                        "the spec's Mask has no such member",
                    );
                }
            }
            output.push(json!({"type": "image", "name": name, "src": src}));
        }
        output
    }

    /// The text entries of `member` (`text` or `bottomInfo`), as text layers
    /// in a group.
    fn texts(
        &mut self,
        member: &str,
        name: &str,
        index: usize,
        mapping: &mut Mapping,
    ) -> Option<Value> {
        let pointer = join(&self.pointer, member);
        let texts = match self.take(member)? {
            Value::Object(texts) => texts,
            other => {
                if holds_something(&other) {
                    self.notes
                        .dropped(&pointer, member, "it is not an object of texts");
                }
                return None;
            }
        };
        let group_pointer = format!("/data/children/{index}");
        mapping.add(group_pointer.clone(), pointer.clone());
        let mut layers = Vec::with_capacity(texts.len());
        for (key, text) in offsets::in_order(texts, self.orders.get(&pointer)) {
            let text_pointer = join(&pointer, &key);
            if let Some(layer) = self.text(&key, text, &text_pointer) {
                mapping.add(
                    format!("{group_pointer}/children/{}", layers.len()),
                    text_pointer,
                );
                layers.push(layer);
            }
        }
        Some(json!({"type": "group", "name": name, "children": layers}))
    }

    fn text(&mut self, key: &str, text: Value, pointer: &str) -> Option<Value> {
        let Value::Object(mut text) = text else {
            self.notes.dropped(pointer, key, "it is not an object");
            return None;
        };
        let mut layer = Map::new();
        layer.insert("type".to_owned(), json!("text"));
        let name = match text.remove("name") {
            Some(Value::String(name)) => name,
            _ => key.to_owned(),
        };
        layer.insert("name".to_owned(), Value::String(name));
        let content = match text.remove("text") {
            Some(Value::String(content)) => content,
            other => {
                if other.as_ref().is_some_and(holds_something) {
                    self.notes
                        .dropped(&join(pointer, "text"), "text", "it is not a string");
                }
                String::new()
            }
        };
        self.text_codes(&content, &join(pointer, "text"));
        layer.insert("text".to_owned(), Value::String(content));
        let font = match text.remove("font") {
            Some(Value::String(font)) if !font.is_empty() => font,
            _ => {
                self.defaulted_font = true;
                "mplantin".to_owned()
            }
        };
        layer.insert("font".to_owned(), Value::String(font));
        let color = match text.remove("color") {
            Some(Value::String(color)) if is_color(&color) => color,
            Some(other) => {
                if holds_something(&other) {
                    self.notes.dropped(
                        &join(pointer, "color"),
                        "color",
                        "it is not a colour the spec accepts: the text is black, the tool's default",
                    );
                }
                "black".to_owned()
            }
            None => {
                self.defaulted_color = true;
                "black".to_owned()
            }
        };
        layer.insert("color".to_owned(), Value::String(color));
        if text.remove("oneLine").is_some_and(|on| on == true) {
            layer.insert("oneLine".to_owned(), json!(true));
        }
        if let Some(align) = text.remove("align") {
            match align.as_str() {
                Some(align @ ("left" | "center" | "right")) => {
                    layer.insert("align".to_owned(), json!(align));
                }
                _ => self.notes.dropped(
                    &join(pointer, "align"),
                    "align",
                    "the spec aligns text left, right or center only",
                ),
            }
        }
        // The tool centres a text in its box unless told not to.
        let top = text.remove("noVerticalCenter").is_some_and(|on| on == true);
        layer.insert(
            "verticalAlign".to_owned(),
            json!(if top { "top" } else { "center" }),
        );
        if let Some(rotation) = text.remove("rotation") {
            match rotation.as_f64() {
                Some(degrees) if degrees != 0.0 => {
                    layer.insert("rotation".to_owned(), json!(round(degrees)));
                }
                Some(_) => {}
                None => {
                    self.notes
                        .dropped(&join(pointer, "rotation"), "rotation", "it is not a number")
                }
            }
        }
        let size = match text.remove("size") {
            Some(size) => match size.as_f64() {
                Some(size) => size,
                None => {
                    self.notes
                        .dropped(&join(pointer, "size"), "size", "it is not a number");
                    DEFAULT_TEXT_SIZE
                }
            },
            None => DEFAULT_TEXT_SIZE,
        };
        layer.insert("size".to_owned(), json!(scaled(size, self.height)));
        let fraction = self.fractions(&text, pointer, &["x", "y", "width", "height"]);
        for member in ["x", "y", "width", "height"] {
            text.remove(member);
        }
        let (x, y, width, height) = self.place(&fraction);
        layer.insert("x".to_owned(), json!(x));
        layer.insert("y".to_owned(), json!(y));
        layer.insert("width".to_owned(), json!(width));
        layer.insert("height".to_owned(), json!(height));
        let shadow_x = text
            .remove("shadowX")
            .and_then(|x| x.as_f64())
            .unwrap_or(0.0);
        let shadow_y = text
            .remove("shadowY")
            .and_then(|y| y.as_f64())
            .unwrap_or(0.0);
        let shadow_color = ["shadowColor", "shadow"]
            .into_iter()
            .find_map(|member| text.remove(member).map(|color| (member, color)));
        if shadow_x != 0.0 || shadow_y != 0.0 {
            let mut shadow = json!({
                "type": "shadow",
                "x": scaled(shadow_x, self.width),
                "y": scaled(shadow_y, self.height),
            });
            match &shadow_color {
                Some((_, Value::String(color))) if is_color(color) => {
                    shadow["color"] = json!(color);
                }
                Some((member, _)) => self.notes.dropped(
                    &join(pointer, member),
                    member,
                    "it is not a colour the spec accepts: the shadow is black",
                ),
                None => {}
            }
            layer.insert("filters".to_owned(), json!([shadow]));
        } else if let Some((member, color)) = shadow_color {
            if holds_something(&color) {
                self.notes.dropped(
                    &join(pointer, member),
                    member,
                    "a shadow colour without an offset draws nothing",
                );
            }
        }
        for (member, value) in text {
            if holds_something(&value) {
                let reason = text_reason(&member);
                self.notes.dropped(&join(pointer, &member), &member, reason);
            }
        }
        Some(Value::Object(layer))
    }

    /// Reports the codes of `text` that the spec's text layers do not read.
    fn text_codes(&mut self, text: &str, pointer: &str) {
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let after = &rest[open..];
            let Some(close) = after.find('}') else {
                break;
            };
            let code = &after[..=close];
            // A `{` inside starts another code: read on from it.
            if let Some(inner) = code[1..].find('{') {
                rest = &after[inner + 1..];
                continue;
            }
            rest = &after[close + 1..];
            let lower = code.to_lowercase();
            if KNOWN_TEXT_CODES.contains(&lower.as_str()) || self.codes.len() >= MAX_TEXT_CODES {
                continue;
            }
            let key = format!("{pointer}\u{0}{lower}");
            if self.codes.insert(key) {
                self.notes.text_code(pointer, code);
            }
        }
    }

    /// The fractions of `members` of `bounds` (a member that is no number
    /// reported; the tool's defaults for those absent: 0 for places, 1 for
    /// sizes), with the alignment the set symbol's bounds carry.
    fn fractions(&mut self, bounds: &Map<String, Value>, pointer: &str, members: &[&str]) -> Box4 {
        let mut values = [0.0, 0.0, 1.0, 1.0];
        for (slot, member) in values.iter_mut().zip(members) {
            if let Some(value) = bounds.get(*member) {
                match value.as_f64() {
                    Some(number) => *slot = number,
                    None => {
                        self.notes
                            .dropped(&join(pointer, member), member, "it is not a number")
                    }
                }
            }
        }
        let align = |member: &str, allowed: &[&'static str]| {
            bounds
                .get(member)
                .and_then(Value::as_str)
                .and_then(|value| allowed.iter().copied().find(|a| *a == value))
        };
        Box4 {
            x: values[0],
            y: values[1],
            width: values[2],
            height: values[3],
            horizontal: align("horizontal", &["left", "center", "right"]),
            vertical: align("vertical", &["top", "center", "bottom"]),
        }
    }

    /// A box of fractions in pixels.
    fn place(&self, fraction: &Box4) -> (i64, i64, i64, i64) {
        (
            scaled(fraction.x, self.width),
            scaled(fraction.y, self.height),
            scaled(fraction.width, self.width),
            scaled(fraction.height, self.height),
        )
    }
}

/// The place of the frames among the card's layers: after the art, when
/// there is art.
fn children_len_after(art: &Option<(Value, String)>, children: &[Value]) -> usize {
    children.len() + usize::from(art.is_some())
}

/// A box as fractions of the card.
#[derive(Debug, Clone, Copy)]
struct Box4 {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    horizontal: Option<&'static str>,
    vertical: Option<&'static str>,
}

impl Box4 {
    /// The whole card: a frame without bounds.
    const WHOLE: Box4 = Box4 {
        x: 0.0,
        y: 0.0,
        width: 1.0,
        height: 1.0,
        horizontal: None,
        vertical: None,
    };
}

/// `fraction` of `size` pixels, rounded as the tool rounds (`Math.round`:
/// halves up).
fn scaled(fraction: f64, size: i64) -> i64 {
    #[allow(clippy::cast_precision_loss)]
    round(fraction * size as f64)
}

/// Rounded to the nearest integer, halves up; saturating.
fn round(value: f64) -> i64 {
    #[allow(clippy::cast_possible_truncation)]
    let rounded = (value + 0.5).floor() as i64;
    rounded
}

/// A positive whole number of pixels.
fn pixels(value: &Value) -> Option<i64> {
    let number = value.as_f64()?;
    let rounded = round(number);
    (rounded > 0).then_some(rounded)
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
            "`{member}` fills the bottom texts' codes (`{{elemidinfo-…}}`), which the spec's text \
             layers do not read"
        ),
        _ => "the spec's Card has no such member".to_owned(),
    }
}

fn frame_reason(member: &str) -> &'static str {
    match member {
        "erase" => "the spec's Image layer cannot erase what is under it",
        "preserveAlpha" => "the spec's Image layer cannot keep the transparency under it",
        "mode" => "the spec's Image layer has no blend mode",
        "hslHue" | "hslSaturation" | "hslLightness" => {
            "the spec's Image layer has no hue, saturation or lightness adjustment"
        }
        "complementary" => "the spec's Image layer does not link frames to each other",
        "ogBounds" => "the spec places masks over the whole card, not by a frame's first bounds",
        _ => "the spec's Image layer has no such member",
    }
}

fn text_reason(member: &str) -> &'static str {
    match member {
        "manaCost" => "the spec's Text layer has no mana-cost mode: the text is written as it is",
        "manaSpacing" => "the spec's Text layer has no spacing of mana symbols",
        "outlineWidth" | "outlineColor" => "the spec's Text layer has no outline",
        "lineSpacing" => {
            "the spec's Text layer gives line spacing by `lineHeightScale`, not by an added gap"
        }
        "shadowBlur" => "the spec's shadow filter has no blur",
        "fontSize" => "the spec's Text layer has one size",
        _ => "the spec's Text layer has no such member",
    }
}
