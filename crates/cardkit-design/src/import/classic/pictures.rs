//! The art, the watermark and the set symbol: each an image layer in its
//! bounds; the watermark's opacity and tint.

use cardkit::schema::format::is_color;
use serde_json::{json, Map, Value};

use super::converter::{holds_something, Box4, Converter};
use cardkit_json::pointer::child;

impl<'n> Converter<'n> {
    /// The art, the watermark or the set symbol: an image layer in its
    /// bounds, when the save has its `…Source`.
    pub(super) fn picture(
        &mut self,
        prefix: &str,
        name: &str,
        fit: &str,
    ) -> Option<(Value, String)> {
        let source = self.take(&format!("{prefix}Source"));
        let bounds = self.take(&format!("{prefix}Bounds"));
        let source_pointer = child(&self.pointer, &format!("{prefix}Source"));
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
        let bounds_pointer = child(&self.pointer, &format!("{prefix}Bounds"));
        let fraction = match bounds {
            Some(Value::Object(bounds)) => self.fractions(
                &bounds,
                &bounds_pointer,
                "Image",
                &["x", "y", "width", "height"],
            ),
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
                        &child(&self.pointer, &member),
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

    /// The watermark's opacity and tint (one colour overlay).
    fn watermark(&mut self, layer: &mut Map<String, Value>) {
        if let Some(opacity) = self.take("watermarkOpacity") {
            match opacity.as_f64() {
                Some(opacity) => {
                    layer.insert("opacity".to_owned(), json!(opacity));
                }
                None => self.notes.dropped(
                    &child(&self.pointer, "watermarkOpacity"),
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
                    &child(&self.pointer, "watermarkLeft"),
                    "watermarkLeft",
                    "it is not a colour the spec accepts",
                );
            }
        }
        if right_tint.is_some() && right_tint != left_tint {
            self.notes.dropped(
                &child(&self.pointer, "watermarkRight"),
                "watermarkRight",
                "a layer has one colour overlay in the spec: the right half's own tint has no place",
            );
        }
    }
}
