//! The texts (`text` and `bottomInfo`): text layers in a group, in the
//! order the save has them, and the text codes the spec's text layers do
//! not read.

use cardkit::schema::format::is_color;
use serde_json::{json, Map, Value};

use super::codes;
use super::converter::{holds_something, round, scaled, Converter};
use crate::import::card::Mapping;
use crate::import::offsets;
use crate::symbols::TextCode;
use cardkit_json::pointer::child;

/// The most distinct unknown text codes reported per card: a hostile text
/// of a million codes gives a bounded report.
const MAX_TEXT_CODES: usize = 256;

/// The tool's default text size, as a fraction of the card's height.
const DEFAULT_TEXT_SIZE: f64 = 0.038;

impl<'n> Converter<'n> {
    /// The text entries of `member` (`text` or `bottomInfo`), as text layers
    /// in a group.
    pub(super) fn texts(
        &mut self,
        member: &str,
        name: &str,
        index: usize,
        mapping: &mut Mapping,
    ) -> Option<Value> {
        let pointer = child(&self.pointer, member);
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
            let text_pointer = child(&pointer, &key);
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
                        .dropped(&child(pointer, "text"), "text", "it is not a string");
                }
                String::new()
            }
        };
        let (content, shift) = self.card_codes(content, &mut text, pointer);
        self.text_codes(&content, &child(pointer, "text"));
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
                        &child(pointer, "color"),
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
                    &child(pointer, "align"),
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
                None => self.notes.dropped(
                    &child(pointer, "rotation"),
                    "rotation",
                    "it is not a number",
                ),
            }
        }
        let size = match text.remove("size") {
            Some(size) => match size.as_f64() {
                Some(size) => size,
                None => {
                    self.notes
                        .dropped(&child(pointer, "size"), "size", "it is not a number");
                    DEFAULT_TEXT_SIZE
                }
            },
            None => DEFAULT_TEXT_SIZE,
        };
        self.in_range(&child(pointer, "size"), "Text.size", size, self.height);
        layer.insert("size".to_owned(), json!(scaled(size, self.height)));
        let fraction = self.fractions(&text, pointer, "Text", &["x", "y", "width", "height"]);
        for member in ["x", "y", "width", "height"] {
            text.remove(member);
        }
        let (x, y, width, height) = self.place(&fraction);
        let (x, y) = match shift {
            Some((dx, dy)) => (
                x.saturating_add(scaled(dx, self.width)),
                y.saturating_add(scaled(dy, self.height)),
            ),
            None => (x, y),
        };
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
        self.in_range(
            &child(pointer, "shadowX"),
            "FilterShadow.x",
            shadow_x,
            self.width,
        );
        self.in_range(
            &child(pointer, "shadowY"),
            "Shadow.y",
            shadow_y,
            self.height,
        );
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
                    &child(pointer, member),
                    member,
                    "it is not a colour the spec accepts: the shadow is black",
                ),
                None => {}
            }
            layer.insert("filters".to_owned(), json!([shadow]));
        } else if let Some((member, color)) = shadow_color {
            if holds_something(&color) {
                self.notes.dropped(
                    &child(pointer, member),
                    member,
                    "a shadow colour without an offset draws nothing",
                );
            }
        }
        for (member, value) in text {
            if holds_something(&value) {
                let reason = text_reason(&member);
                self.notes
                    .dropped(&child(pointer, &member), &member, reason);
            }
        }
        Some(Value::Object(layer))
    }

    /// `content` with the codes that read the card applied (see
    /// [`codes`]), each change noted; and how far `{ptshift}` moves the
    /// text, as fractions of the card's size.
    fn card_codes(
        &mut self,
        mut content: String,
        text: &mut Map<String, Value>,
        pointer: &str,
    ) -> (String, Option<(f64, f64)>) {
        let text_pointer = child(pointer, "text");
        if text.get("manaCost") == Some(&Value::Bool(true)) {
            text.remove("manaCost");
            let symbols = codes::mana_cost(&content);
            if symbols != content {
                self.notes.derived(
                    &text_pointer,
                    "Text.text",
                    &json!(symbols),
                    "the tool's mana-cost mode (`manaCost`): each word is a symbol's name",
                );
                content = symbols;
            }
        }
        let (filled, any) = self.info.fill(&content);
        if any {
            self.notes.derived(
                &text_pointer,
                "Text.text",
                &json!(filled),
                "the tool's `{elemidinfo-…}` codes, filled from the card's `info…` members",
            );
            content = filled;
        }
        let (without, shift) = codes::take_pt_shift(&content);
        if without.len() == content.len() {
            return (content, None);
        }
        let shift = shift.filter(|_| self.pt_shift);
        let why = match shift {
            Some((x, y)) => format!(
                "the tool's `{{ptshift}}` code: the text moved by {x} of the card's width and {y} \
                 of its height, as on a card with a power/toughness box"
            ),
            None => "the tool's `{ptshift}` code, which moves a text only on a card with a \
                     power/toughness box: this card has none"
                .to_owned(),
        };
        self.notes
            .derived(&text_pointer, "Text.text", &json!(without), why);
        (without, shift)
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
            let name = &lower[1..lower.len() - 1];
            if TextCode::from_name(name).is_some() || self.codes.len() >= MAX_TEXT_CODES {
                continue;
            }
            let key = format!("{pointer}\u{0}{lower}");
            if self.codes.insert(key) {
                self.notes.text_code(pointer, code);
            }
        }
    }
}

fn text_reason(member: &str) -> &'static str {
    match member {
        "manaCost" => {
            "the tool's mana-cost mode is on only when this is `true`: the text is written as it is"
        }
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
