//! One entry's `data` being converted ([`Converter`]): the members taken
//! one by one (those left are reported as dropped), and the card's
//! geometry, the tool's fractions of the card's size in pixels.

use std::collections::{BTreeSet, HashMap};

use serde_json::{json, Map, Value};

use super::codes::Info;
use crate::import::notes::Notes;
use cardkit_json::pointer::child;

/// The tool's card size when a save names none (`baseWidth`, `baseHeight`).
const BASE_SIZE: (i64, i64) = (1500, 2100);

/// A value that is not the tool's default or empty.
pub(super) fn holds_something(value: &Value) -> bool {
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
pub(super) struct Converter<'n> {
    pub(super) data: Map<String, Value>,
    /// The input's order of the texts.
    pub(super) orders: &'n HashMap<String, Vec<String>>,
    pub(super) pointer: String,
    pub(super) width: i64,
    pub(super) height: i64,
    pub(super) notes: &'n mut Notes,
    /// Distinct unknown text codes reported so far.
    pub(super) codes: BTreeSet<String>,
    /// Texts written with the tool's default colour, font: not the spec's.
    pub(super) defaulted_color: bool,
    pub(super) defaulted_font: bool,
    /// What the texts' `{elemid…}` codes read.
    pub(super) info: Info,
    /// Whether the tool moves texts by their `{ptshift}` codes on this card.
    pub(super) pt_shift: bool,
}

impl<'n> Converter<'n> {
    pub(super) fn new(
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
            info: Info::default(),
            pt_shift: false,
        }
    }

    /// The card's size: `width` and `height` in pixels, or the tool's base.
    pub(super) fn size(&mut self) {
        let width = self.take("width");
        let height = self.take("height");
        for (member, value) in [("width", &width), ("height", &height)] {
            if let Some(number) = value.as_ref().and_then(Value::as_f64) {
                let pointer = child(&self.pointer, member);
                self.in_range(&pointer, &format!("Card.{member}"), number, 1);
            }
        }
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

    pub(super) fn take(&mut self, member: &str) -> Option<Value> {
        self.data.remove(member)
    }

    pub(super) fn drop_if_set(&mut self, member: &str, reason: &str) {
        if let Some(value) = self.take(member) {
            if holds_something(&value) {
                self.notes
                    .dropped(&child(&self.pointer, member), member, reason);
            }
        }
    }

    /// The fractions of `members` of `bounds` (a member that is no number
    /// reported; the tool's defaults for those absent: 0 for places, 1 for
    /// sizes), with the alignment the set symbol's bounds carry; `model`
    /// is the spec's model of the layer they place (`Image`, `Text`).
    pub(super) fn fractions(
        &mut self,
        bounds: &Map<String, Value>,
        pointer: &str,
        model: &str,
        members: &[&str],
    ) -> Box4 {
        let mut values = [0.0, 0.0, 1.0, 1.0];
        // x and widths are of the card's width, y and heights of its height.
        let scales = [self.width, self.height, self.width, self.height];
        for ((slot, member), scale) in values.iter_mut().zip(members).zip(scales) {
            if let Some(value) = bounds.get(*member) {
                match value.as_f64() {
                    Some(number) => {
                        *slot = number;
                        let field = format!("{model}.{member}");
                        self.in_range(&child(pointer, member), &field, number, scale);
                    }
                    None => {
                        self.notes
                            .dropped(&child(pointer, member), member, "it is not a number")
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

    /// Notes (`derived_value`) at `pointer` a fraction whose pixels, of
    /// `scale`, are beyond the whole numbers the spec's fields hold (64-bit
    /// integers): the output has them clamped to the nearest it holds.
    pub(super) fn in_range(&mut self, pointer: &str, field: &str, fraction: f64, scale: i64) {
        #[allow(clippy::cast_precision_loss)]
        let exact = fraction * scale as f64;
        if exact.abs() < i64_limit() {
            return;
        }
        let clamped = scaled(fraction, scale);
        self.notes.derived(
            pointer,
            field,
            &json!(clamped),
            format!(
                "{fraction} of {scale} pixels is beyond the whole numbers the spec holds \
                 (64-bit integers): clamped to the nearest"
            ),
        );
    }

    /// A box of fractions in pixels.
    pub(super) fn place(&self, fraction: &Box4) -> (i64, i64, i64, i64) {
        (
            scaled(fraction.x, self.width),
            scaled(fraction.y, self.height),
            scaled(fraction.width, self.width),
            scaled(fraction.height, self.height),
        )
    }
}

/// A box as fractions of the card.
#[derive(Debug, Clone, Copy)]
pub(super) struct Box4 {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) width: f64,
    pub(super) height: f64,
    pub(super) horizontal: Option<&'static str>,
    pub(super) vertical: Option<&'static str>,
}

impl Box4 {
    /// The whole card: a frame without bounds.
    pub(super) const WHOLE: Box4 = Box4 {
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
pub(super) fn scaled(fraction: f64, size: i64) -> i64 {
    #[allow(clippy::cast_precision_loss)]
    round(fraction * size as f64)
}

/// 2^63: the first magnitude a 64-bit integer does not hold.
fn i64_limit() -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let limit = i64::MAX as f64;
    limit
}

/// Rounded to the nearest integer, halves up; saturating (the import notes
/// where it saturates: [`Converter::in_range`]).
pub(super) fn round(value: f64) -> i64 {
    #[allow(clippy::cast_possible_truncation)]
    let rounded = (value + 0.5).floor() as i64;
    rounded
}

/// A positive whole number of pixels.
pub(super) fn pixels(value: &Value) -> Option<i64> {
    let number = value.as_f64()?;
    let rounded = round(number);
    (rounded > 0).then_some(rounded)
}
