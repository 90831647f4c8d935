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

use cardkit::model::{Card, Image, Layer, Mask};
use cardkit_json::Scanner;
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
    let layers = member(bytes, at, "data").map_or_else(LayersAsWritten::default, |data| {
        LayersAsWritten::read(bytes, data)
    });
    // The model's layers walked in the order of the file, matched with
    // the layers as written by their parent and place among its children
    // (groups nest as deep as the validator lets them: no recursion).
    let mut stack = vec![(card.data.children.iter_mut(), Some(0), 0)];
    while let Some((children, parent, place)) = stack.last_mut() {
        let Some(layer) = children.next() else {
            stack.pop();
            continue;
        };
        let written = parent.and_then(|parent| layers.child(parent, *place));
        *place += 1;
        match layer {
            Layer::Group(inner) => stack.push((inner.children.iter_mut(), written, 0)),
            Layer::Image(image) => {
                let given = written.map(|index| layers.given[index]);
                frame(image, given, width, height);
            }
            Layer::Text(_) => {}
        }
    }
}

/// The rule on one image layer that gives the members `given` of its box
/// (`None` when where it is written is not known), and on its masks.
fn frame(image: &mut Image, given: Option<Given>, width: i64, height: i64) {
    if image.bounds.is_some() {
        return;
    }
    for mask in image.masks.iter_mut().flatten() {
        mask_box(mask, width, height);
    }
    let Some(given) = given else { return };
    for (bit, (_, value)) in card_box(width, height).into_iter().enumerate() {
        if given & (1 << bit) != 0 {
            continue;
        }
        match bit {
            0 => image.x = value,
            1 => image.y = value,
            2 => image.width = value,
            _ => image.height = value,
        }
    }
}

/// A mask holds its box, if any, among its unknown members.
fn mask_box(mask: &mut Mask, width: i64, height: i64) {
    fill_card_box(&mut mask.extra, width, height);
}

/// Which of `x`, `y`, `width` and `height` a layer gives, one bit each in
/// the order of [`card_box`].
type Given = u8;

/// The layers of a card as written: each object under a `children` array,
/// in the order of the file, with its parent and which members of its box
/// it gives. Index 0 is the card's `data`.
#[derive(Debug, Default)]
struct LayersAsWritten {
    parent: Vec<usize>,
    given: Vec<Given>,
    /// Each layer's children, by index, in order.
    children: Vec<Vec<usize>>,
}

/// What the walk of [`LayersAsWritten::read`] is inside.
enum Inside {
    /// The object of a layer (or of `data`), by index.
    Layer(usize),
    /// The `children` array of a layer, by index.
    Children(usize),
}

impl LayersAsWritten {
    /// The layers under the object at `at`, read in one pass: every byte is
    /// looked at once, however deep the groups nest. Reading stops at the
    /// first thing that is not JSON (the layers found so far are kept).
    fn read(bytes: &[u8], at: usize) -> LayersAsWritten {
        let mut layers = LayersAsWritten::default();
        let _ = layers.walk(bytes, at);
        layers.children = vec![Vec::new(); layers.parent.len()];
        for (index, &parent) in layers.parent.iter().enumerate().skip(1) {
            layers.children[parent].push(index);
        }
        layers
    }

    fn walk(&mut self, bytes: &[u8], at: usize) -> Result<(), cardkit_json::SyntaxError> {
        let mut scan = Scanner::new(bytes, at);
        if scan.peek() != Some(b'{') {
            return Ok(());
        }
        self.parent.push(0);
        self.given.push(0);
        let mut stack = Vec::new();
        if scan.open()? {
            stack.push(Inside::Layer(0));
        }
        while let Some(inside) = stack.last() {
            // Reads one value: steps into it (and goes on there) or past it.
            match *inside {
                Inside::Layer(layer) => {
                    let (name, _) = scan.member_name()?;
                    let name = scan.decode(name);
                    if name == "children" && scan.peek() == Some(b'[') {
                        if scan.open()? {
                            stack.push(Inside::Children(layer));
                            continue;
                        }
                    } else {
                        if let Some(bit) = card_box(0, 0).iter().position(|(key, _)| *key == name) {
                            self.given[layer] |= 1 << bit;
                        }
                        scan.skip_structure()?;
                    }
                }
                Inside::Children(parent) => {
                    let index = self.parent.len();
                    self.parent.push(parent);
                    self.given.push(0);
                    if scan.peek() == Some(b'{') {
                        if scan.open()? {
                            stack.push(Inside::Layer(index));
                            continue;
                        }
                    } else {
                        scan.skip_structure()?;
                    }
                }
            }
            // Past a value: on to the next one, closing what ends here.
            while let Some(inside) = stack.last() {
                let more = match inside {
                    Inside::Layer(_) => scan.after_member()?,
                    Inside::Children(_) => scan.after_item()?,
                };
                if more {
                    break;
                }
                stack.pop();
            }
        }
        Ok(())
    }

    /// The layer written at `place` among the children of `parent`.
    fn child(&self, parent: usize, place: usize) -> Option<usize> {
        self.children.get(parent)?.get(place).copied()
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_are_read_with_their_parents_and_the_members_of_their_box() {
        let text = br#"{"children": [ {"x": 1, "children": [{"width": 2}, 3]}, {"type": "image", "height": 4} ], "y": 0}"#;
        let layers = LayersAsWritten::read(text, 0);
        assert_eq!(layers.parent, [0, 0, 1, 1, 0]);
        assert_eq!(layers.given, [0b0010, 0b0001, 0b0100, 0, 0b1000]);
        assert_eq!(layers.child(0, 1), Some(4));
        assert_eq!(layers.child(1, 0), Some(2));
        assert_eq!(layers.child(4, 0), None);
        assert_eq!(LayersAsWritten::read(b"[]", 0).parent, Vec::<usize>::new());
    }

    #[test]
    fn deeply_nested_groups_are_read_in_one_pass() {
        // Each group skipped again by every group around it made this
        // quadratic in the depth; one pass reads each byte once.
        let depth = 20_000;
        let mut text = String::new();
        for _ in 0..depth {
            text.push_str(r#"{"type": "group", "children": ["#);
        }
        text.push_str(r#"{"type": "image", "src": "f.png"}"#);
        for _ in 0..depth {
            text.push_str("]}");
        }
        let layers = LayersAsWritten::read(text.as_bytes(), 0);
        assert_eq!(layers.parent.len(), depth + 1);
        assert_eq!(layers.child(depth - 1, 0), Some(depth));
    }
}
