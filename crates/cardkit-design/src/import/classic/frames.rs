//! The frames, in the tool's draw order: masked image layers in a group.

use cardkit::schema::format::is_color;
use serde_json::{json, Map, Value};

use super::converter::{holds_something, Box4, Converter};
use crate::import::card::Mapping;
use cardkit_json::pointer::child;

impl<'n> Converter<'n> {
    /// The frames, in the tool's draw order, as masked image layers in a
    /// group.
    pub(super) fn frames(&mut self, mapping: &mut Mapping, index: usize) -> Option<Value> {
        let frames_pointer = child(&self.pointer, "frames");
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
                    .dropped(&child(pointer, "name"), "name", "it is not a string");
            }
        }
        layer.insert("src".to_owned(), Value::String(src));
        let fraction = match frame.remove("bounds") {
            Some(Value::Object(bounds)) => self.fractions(
                &bounds,
                &child(pointer, "bounds"),
                "Image",
                &["x", "y", "width", "height"],
            ),
            Some(other) if holds_something(&other) => {
                self.notes
                    .dropped(&child(pointer, "bounds"), "bounds", "it is not an object");
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
            let masks = self.masks(masks, &child(pointer, "masks"));
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
                        .dropped(&child(pointer, "opacity"), "opacity", "it is not a number")
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
                &child(pointer, "colorOverlay"),
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
                self.notes
                    .dropped(&child(pointer, &member), &member, reason);
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
                        &child(&mask_pointer, &member),
                        &member,
                        "the spec's Mask has no such member",
                    );
                }
            }
            output.push(json!({"type": "image", "name": name, "src": src}));
        }
        output
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
