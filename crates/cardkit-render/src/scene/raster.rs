//! A blurred shadow's picture in the SVG: geometry cannot blur, and some
//! viewers draw no SVG filter (CairoSVG), so the shadow's group is drawn
//! by resvg at the output's scale, within the picture, and the SVG holds
//! that picture (a PNG `data:` URI) in its place. The PNG keeps the
//! filter, drawn from the same drawing.

use std::fmt::Write as _;

use base64::Engine as _;

use super::geometry::Rect;
use super::svg::num;
use crate::report::Report;

/// A blurred shadow drawn at the top of its layer: the id of its group and
/// the region (card pixels) its blur spreads within.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct BlurredShadow {
    pub(super) id: String,
    pub(super) region: Rect,
    pub(super) at: String,
}

/// What the pictures may take.
pub(super) struct Bounds {
    /// The most pixels one picture may have.
    pub(super) max_pixels: u64,
    /// Bytes (base64) the pictures may add to the SVG.
    pub(super) max_bytes: u64,
}

/// `svg`, as usvg wrote `tree`, with each blurred shadow's group replaced
/// by its picture; one that cannot be is a report line and keeps its
/// filter.
pub(super) fn blurred_shadows_as_pictures(
    mut svg: String,
    tree: &usvg::Tree,
    shadows: &[BlurredShadow],
    mut bounds: Bounds,
    report: &mut Vec<Report>,
) -> String {
    for shadow in shadows {
        let Some(node) = tree.node_by_id(&shadow.id) else {
            continue; // Nothing drawn.
        };
        let kept = |why: String| {
            Report::new(
                &shadow.at,
                format!("a blurred shadow {why}: written as an SVG filter, which some viewers do not draw"),
            )
        };
        let Some(picture) = picture(node, tree, shadow.region) else {
            continue; // Nothing within the picture.
        };
        let (left, top, pixmap) = match picture {
            Ok(picture) => picture,
            Err(why) => {
                report.push(kept(why));
                continue;
            }
        };
        let pixels = u64::from(pixmap.width()) * u64::from(pixmap.height());
        if pixels > bounds.max_pixels {
            report.push(kept(format!(
                "of {} × {} pixels is more than the limit of {}",
                pixmap.width(),
                pixmap.height(),
                bounds.max_pixels
            )));
            continue;
        }
        let Ok(png) = pixmap.encode_png() else {
            report.push(kept("could not be encoded as PNG".to_owned()));
            continue;
        };
        let data = base64::engine::general_purpose::STANDARD.encode(png);
        if data.len() as u64 > bounds.max_bytes {
            report.push(kept(
                "would take the card's images beyond their limit of bytes".to_owned(),
            ));
            continue;
        }
        let Some((start, end)) = element(&svg, &shadow.id) else {
            continue;
        };
        bounds.max_bytes -= data.len() as u64;
        // In the group's own coordinates: the transform is a scale and a
        // move (checked by `picture`).
        let abs = node.abs_transform();
        let mut image = String::new();
        let _ = write!(
            image,
            "<image id=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,{data}\"/>",
            shadow.id,
            num((left - abs.tx) / abs.sx),
            num((top - abs.ty) / abs.sy),
            num(pixmap.width() as f32 / abs.sx),
            num(pixmap.height() as f32 / abs.sy)
        );
        svg.replace_range(start..end, &image);
    }
    svg
}

type Picture = (f32, f32, resvg::tiny_skia::Pixmap);

/// The group `node` drawn alone, in whole output pixels of its region
/// within the picture: the picture's left and top, and its pixels; `None`
/// when none of it is in the picture.
fn picture(node: &usvg::Node, tree: &usvg::Tree, region: Rect) -> Option<Result<Picture, String>> {
    let abs = node.abs_transform();
    if abs.kx != 0.0 || abs.ky != 0.0 || abs.sx <= 0.0 || abs.sy <= 0.0 {
        return Some(Err("is turned or mirrored".to_owned()));
    }
    let size = tree.size();
    let left = (region.x * abs.sx + abs.tx).floor().max(0.0);
    let top = (region.y * abs.sy + abs.ty).floor().max(0.0);
    let right = ((region.x + region.width) * abs.sx + abs.tx)
        .ceil()
        .min(size.width().ceil());
    let bottom = ((region.y + region.height) * abs.sy + abs.ty)
        .ceil()
        .min(size.height().ceil());
    if !(right > left && bottom > top) {
        return None;
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // within the picture
    let (width, height) = ((right - left) as u32, (bottom - top) as u32);
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height)?;
    let bbox = node.abs_layer_bounding_box()?;
    // `render_node` moves the node by its box's corner: moved back, the
    // node is drawn where the picture shows it, less the picture's corner.
    let transform = resvg::tiny_skia::Transform::from_translate(-left, -top)
        .pre_concat(abs)
        .pre_translate(bbox.x(), bbox.y());
    resvg::render_node(node, transform, &mut pixmap.as_mut())?;
    Some(Ok((left, top, pixmap)))
}

/// Where the element with the id `id` starts and ends in `svg` (as usvg
/// writes it: a group, its children nested groups and empty elements).
fn element(svg: &str, id: &str) -> Option<(usize, usize)> {
    let start = svg.find(&format!("<g id=\"{id}\""))?;
    let mut depth = 0usize;
    let mut at = start;
    while let Some(offset) = svg[at..].find('<') {
        let tag = at + offset;
        let close = tag + svg[tag..].find('>')? + 1;
        let text = &svg[tag..close];
        if text.starts_with("</") {
            depth = depth.checked_sub(1)?;
        } else if !text.ends_with("/>") {
            depth += 1;
        }
        at = close;
        if depth == 0 {
            return Some((start, close));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_element_ends_where_its_group_closes() {
        let svg = "<svg><g id=\"a\"><g><path d=\"M0 0\"/></g><g/></g><g id=\"b\"/></svg>";
        let (start, end) = element(svg, "a").expect("found");
        assert_eq!(
            &svg[start..end],
            "<g id=\"a\"><g><path d=\"M0 0\"/></g><g/></g>"
        );
        assert_eq!(element(svg, "c"), None);
    }
}
