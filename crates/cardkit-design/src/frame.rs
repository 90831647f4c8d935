//! The design tool's frame rule: an image layer with no `bounds` (a frame)
//! and each of its masks take, for each of `x`, `y`, `width` and
//! `height` they leave out, `0`, `0` and the card's width and height: a
//! frame covers the whole card. The tool draws them so and saves them so
//! (later saves of a card carry the card's box on every such layer and
//! mask); the spec's own defaults (100 × 100 at 0, 0) would squeeze every
//! frame into the top left corner.
//!
//! The rule is applied once, where a design file is read for the tools
//! ([`crate::source::Design::read`]), so `render`, `layers`, `assets` and
//! `symbols` see the same boxes; [`crate::expand`] makes its layers by it
//! ([`fill_card_box`]). An image with `bounds` (the art, a watermark) is
//! left as it is: the renderer fits its picture in its bounds.

use cardkit::model::{Card, Group, Image, Layer, Mask};
use cardkit_json::{skip_raw, Scanner};
use serde_json::{Map, Value};

/// The members of a layer's box, and what each takes from a card `width` ×
/// `height` when it is left out.
fn card_box(width: i64, height: i64) -> [(&'static str, i64); 4] {
    [("x", 0), ("y", 0), ("width", width), ("height", height)]
}

/// Puts the card's box into `members` for each of `x`, `y`, `width` and
/// `height` it lacks (the members of a layer or a mask, as JSON).
pub fn fill_card_box(members: &mut Map<String, Value>, width: i64, height: i64) {
    for (key, value) in card_box(width, height) {
        members.entry(key).or_insert(Value::from(value));
    }
}

/// Applies the rule to `card`, read from the object at `at` in `bytes` (the
/// file it was read from, which tells which members the layers left out:
/// the model holds the spec's defaults in their place).
pub(crate) fn apply(card: &mut Card, bytes: &[u8], at: usize) {
    let (width, height) = (card.width, card.height);
    let data = member(bytes, at, "data");
    // A group's layers, each with where its JSON is, walked without
    // recursion (groups nest as deep as the validator lets them).
    let mut stack: Vec<(&mut Group, Option<usize>)> = vec![(&mut card.data, data)];
    while let Some((group, at)) = stack.pop() {
        let children = at.and_then(|at| member(bytes, at, "children"));
        let places = children.map_or_else(Vec::new, |at| elements(bytes, at));
        for (n, layer) in group.children.iter_mut().enumerate() {
            let place = places.get(n).copied();
            match layer {
                Layer::Group(inner) => stack.push((inner, place)),
                Layer::Image(image) => frame(image, bytes, place, width, height),
                Layer::Text(_) => {}
            }
        }
    }
}

/// The rule on one image layer whose JSON is at `at`, and on its masks.
fn frame(image: &mut Image, bytes: &[u8], at: Option<usize>, width: i64, height: i64) {
    if image.bounds.is_some() {
        return;
    }
    for mask in image.masks.iter_mut().flatten() {
        mask_box(mask, width, height);
    }
    let Some(at) = at else { return };
    let given: Vec<String> = Scanner::new(bytes, at)
        .members()
        .map(|member| member.name.into_owned())
        .collect();
    for (key, value) in card_box(width, height) {
        if given.iter().any(|name| name == key) {
            continue;
        }
        match key {
            "x" => image.x = value,
            "y" => image.y = value,
            "width" => image.width = value,
            _ => image.height = value,
        }
    }
}

/// A mask holds its box, if any, among its unknown members.
fn mask_box(mask: &mut Mask, width: i64, height: i64) {
    fill_card_box(&mut mask.extra, width, height);
}

/// Where the value of `name` in the object at `at` starts.
fn member(bytes: &[u8], at: usize, name: &str) -> Option<usize> {
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    Scanner::new(bytes, at)
        .members()
        .find(|member| member.name == name)
        .map(|member| member.value_at)
}

/// Where each element of the array at `at` starts.
fn elements(bytes: &[u8], at: usize) -> Vec<usize> {
    let mut starts = Vec::new();
    if bytes.get(at) != Some(&b'[') {
        return starts;
    }
    let mut pos = at + 1;
    loop {
        pos = after_space(bytes, pos);
        match bytes.get(pos) {
            None | Some(b']') => break,
            Some(_) => starts.push(pos),
        }
        let Ok(end) = skip_raw(bytes, pos) else { break };
        pos = after_space(bytes, end);
        if bytes.get(pos) != Some(&b',') {
            break;
        }
        pos += 1;
    }
    starts
}

fn after_space(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(pos) {
        pos += 1;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_are_found_between_commas() {
        let text = br#"[ {"a": [1, 2]}, "x" ,3 ]"#;
        let starts = elements(text, 0);
        assert_eq!(starts, [2, 17, 22]);
        assert!(elements(b"[]", 0).is_empty());
        assert!(elements(b"{}", 0).is_empty());
    }
}
