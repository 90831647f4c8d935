//! The layers in drawing order: each group's children sorted by `z`, a
//! group's children in its place, up to the render's limit of layers.

use cardkit::model::{Group, Layer};

use super::wording::place_of;
use crate::report::{RenderError, Report};

/// A layer to draw, with where it is in the card.
pub(super) struct Drawn<'a> {
    pub(super) pointer: String,
    pub(super) layer: &'a Layer,
}

/// The layers in drawing order: each group's children sorted by `z`
/// (stable), a group's children in its place. Walks without recursion, so
/// any depth the model holds is drawn.
pub(super) fn order<'a>(
    top: &'a Group,
    max_layers: usize,
    report: &mut Vec<Report>,
) -> Result<Vec<Drawn<'a>>, RenderError> {
    let mut drawn = Vec::new();
    let mut count = 0usize;
    // A stack of iterators over sorted children, with the parent's pointer.
    let mut stack: Vec<(String, std::vec::IntoIter<(usize, &Layer)>)> =
        vec![("/data".to_owned(), sorted(&top.children).into_iter())];
    while let Some((pointer, children)) = stack.last_mut() {
        let Some((index, layer)) = children.next() else {
            stack.pop();
            continue;
        };
        count += 1;
        if count > max_layers {
            return Err(RenderError::Limit(format!(
                "the card has more than {max_layers} layers"
            )));
        }
        let here = format!("{pointer}/children/{index}");
        if let Layer::Group(group) = layer {
            for member in ["filters", "opacity", "masks", "rotation"] {
                if group.extra.contains_key(member) {
                    report.push(Report::new(
                        place_of(&here, group.name.as_deref()),
                        format!("a group's `{member}` is not part of the spec: not drawn (`cardkit import --push-filters` moves filters onto the layers)"),
                    ));
                }
            }
            let children = sorted(&group.children).into_iter();
            stack.push((here, children));
        } else {
            drawn.push(Drawn {
                pointer: here,
                layer,
            });
        }
    }
    Ok(drawn)
}

fn sorted(children: &[Layer]) -> Vec<(usize, &Layer)> {
    let mut children: Vec<(usize, &Layer)> = children.iter().enumerate().collect();
    children.sort_by_key(|(_, layer)| z_of(layer));
    children
}

fn z_of(layer: &Layer) -> i64 {
    match layer {
        Layer::Image(image) => image.z,
        Layer::Text(text) => text
            .extra
            .get("z")
            .and_then(serde_json::Value::as_i64)
            .unwrap_or(0),
        Layer::Group(group) => group
            .extra
            .get("z")
            .and_then(serde_json::Value::as_i64)
            .unwrap_or(0),
    }
}
