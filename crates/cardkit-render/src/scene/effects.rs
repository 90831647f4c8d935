//! A layer's filters written as geometry every viewer draws alike: an
//! overlay is a box of its colour masked by the layer (alpha mask), a
//! shadow the same box moved by the shadow's offset, masked by the layer
//! moved with it, drawn beneath the layer. SVG filter primitives are left
//! for a shadow's blur alone, the one thing geometry cannot draw.
//!
//! Filters apply in order: each one's mask holds what the filters before
//! it drew, through `<use>` of the layer's content.

use std::fmt::Write as _;

use super::geometry::Rect;
use super::svg::num;

/// One filter of a layer, its colour and offset checked.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Step {
    /// The layer's pixels in `color`, their alpha kept.
    Overlay { color: String },
    /// A copy of the layer in `color`, moved by `dx`, `dy` and blurred by
    /// `blur` (card pixels; 0 for none), beneath it.
    Shadow {
        color: String,
        dx: f32,
        dy: f32,
        blur: f32,
    },
}

/// What a layer's filters write around its content.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Effects {
    /// Whether the group around everything has the layer's id: an overlay
    /// hides the content itself (it is drawn only through masks, from
    /// `<defs>`), so the drawn group is the layer.
    pub(super) outer_id: bool,
    /// Written after the group is opened, before the content.
    pub(super) before: String,
    /// Written after the content, before the group is closed.
    pub(super) after: String,
    /// The ids of the groups of the blurred shadows drawn (not only inside
    /// a later filter's mask): each is then drawn as a picture in the SVG
    /// (see `raster`).
    pub(super) blurred: Vec<String>,
}

/// A mask of `region` holding `content`, drawn by its alpha.
fn mask(out: &mut String, id: &str, region: Rect, content: &str) {
    let _ = write!(
        out,
        "<mask id=\"{id}\" mask-type=\"alpha\" maskUnits=\"userSpaceOnUse\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">{content}</mask>",
        num(region.x),
        num(region.y),
        num(region.width),
        num(region.height)
    );
}

/// A box of `color` masked by the mask `mask_id`.
fn masked_box(rect: Rect, color: &str, mask_id: &str) -> String {
    format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{color}\" mask=\"url(#{mask_id})\"/>",
        num(rect.x),
        num(rect.y),
        num(rect.width.max(0.0)),
        num(rect.height.max(0.0))
    )
}

/// The smallest box holding `a` and `b`.
fn union(a: Rect, b: Rect) -> Rect {
    let (x, y) = (a.x.min(b.x), a.y.min(b.y));
    Rect {
        x,
        y,
        width: (a.x + a.width).max(b.x + b.width) - x,
        height: (a.y + a.height).max(b.y + b.height) - y,
    }
}

/// The geometry of `steps` for layer `n`, whose content draws within
/// `ink`; masks and blurs work within `region`. `None` when there are no
/// steps.
pub(super) fn effects(n: usize, steps: &[Step], ink: Rect, region: Rect) -> Option<Effects> {
    if steps.is_empty() {
        return None;
    }
    let outer_id = steps.iter().any(|s| matches!(s, Step::Overlay { .. }));
    let content_id = if outer_id {
        format!("layer-{n}-source")
    } else {
        format!("layer-{n}")
    };
    let source = format!("<use xlink:href=\"#{content_id}\"/>");
    let mut defs = String::new();
    // What the filters so far draw, the content as `source`.
    let mut current = source.clone();
    // Where it draws.
    let mut cover = ink.within(region);
    let mut blurs = Vec::new();
    for (k, step) in steps.iter().enumerate() {
        let mask_id = format!("layer-{n}-filter-{k}");
        match step {
            Step::Overlay { color } => {
                mask(&mut defs, &mask_id, region, &current);
                current = masked_box(cover, color, &mask_id);
            }
            Step::Shadow {
                color,
                dx,
                dy,
                blur,
            } => {
                let moved = format!(
                    "<g transform=\"translate({} {})\">{current}</g>",
                    num(*dx),
                    num(*dy)
                );
                mask(&mut defs, &mask_id, region, &moved);
                let shifted = Rect {
                    x: cover.x + dx,
                    y: cover.y + dy,
                    ..cover
                }
                .within(region);
                let mut piece = masked_box(shifted, color, &mask_id);
                let mut spread = shifted;
                if *blur > 0.0 {
                    let blur_id = format!("{mask_id}-blur");
                    let _ = write!(
                        defs,
                        "<filter id=\"{blur_id}\" filterUnits=\"userSpaceOnUse\" color-interpolation-filters=\"sRGB\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><feGaussianBlur stdDeviation=\"{}\"/></filter>",
                        num(region.x),
                        num(region.y),
                        num(region.width),
                        num(region.height),
                        num(blur / 2.0)
                    );
                    piece = format!("<g filter=\"url(#{blur_id})\">{piece}</g>");
                    blurs.push((k, blur_id));
                    spread = shifted.grown(blur * 3.0);
                }
                cover = union(cover, spread).within(region);
                current = piece + &current;
            }
        }
    }
    // The blurred shadows drawn (each once, if at all, among what is
    // drawn), by an id.
    let mut blurred = Vec::new();
    for (k, blur_id) in blurs {
        let group = format!("<g filter=\"url(#{blur_id})\">");
        if current.contains(&group) {
            let id = format!("layer-{n}-shadow-{k}");
            current = current.replace(
                &group,
                &format!("<g id=\"{id}\" filter=\"url(#{blur_id})\">"),
            );
            blurred.push(id);
        }
    }
    Some(if outer_id {
        Effects {
            outer_id,
            before: format!("<defs><g id=\"{content_id}\">"),
            after: format!("</g></defs>{defs}{current}"),
            blurred,
        }
    } else {
        // The content itself is drawn last, above its shadows.
        let below = current.strip_suffix(source.as_str()).unwrap_or_default();
        Effects {
            outer_id,
            before: format!("{defs}{below}<g id=\"{content_id}\">"),
            after: "</g>".to_owned(),
            blurred,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const INK: Rect = Rect {
        x: 10.0,
        y: 20.0,
        width: 30.0,
        height: 40.0,
    };
    const REGION: Rect = Rect {
        x: 0.0,
        y: 0.0,
        width: 100.0,
        height: 100.0,
    };

    fn shadow(blur: f32) -> Step {
        Step::Shadow {
            color: "rgb(0,0,0)".to_owned(),
            dx: 2.0,
            dy: 4.0,
            blur,
        }
    }

    #[test]
    fn no_filters_write_nothing() {
        assert_eq!(effects(0, &[], INK, REGION), None);
    }

    #[test]
    fn an_overlay_is_a_box_of_its_colour_masked_by_the_layer() {
        let overlay = Step::Overlay {
            color: "rgb(255,255,255)".to_owned(),
        };
        let written = effects(3, &[overlay], INK, REGION).expect("written");
        assert!(written.outer_id);
        assert_eq!(written.before, "<defs><g id=\"layer-3-source\">");
        assert_eq!(
            written.after,
            "</g></defs>\
             <mask id=\"layer-3-filter-0\" mask-type=\"alpha\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"100\" height=\"100\"><use xlink:href=\"#layer-3-source\"/></mask>\
             <rect x=\"10\" y=\"20\" width=\"30\" height=\"40\" fill=\"rgb(255,255,255)\" mask=\"url(#layer-3-filter-0)\"/>"
        );
        assert!(!written.after.contains("<filter"));
    }

    #[test]
    fn a_sharp_shadow_is_the_layer_moved_in_its_colour_beneath_it() {
        let written = effects(5, &[shadow(0.0)], INK, REGION).expect("written");
        assert!(!written.outer_id);
        assert_eq!(
            written.before,
            "<mask id=\"layer-5-filter-0\" mask-type=\"alpha\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"100\" height=\"100\"><g transform=\"translate(2 4)\"><use xlink:href=\"#layer-5\"/></g></mask>\
             <rect x=\"12\" y=\"24\" width=\"30\" height=\"40\" fill=\"rgb(0,0,0)\" mask=\"url(#layer-5-filter-0)\"/>\
             <g id=\"layer-5\">"
        );
        assert_eq!(written.after, "</g>");
        assert!(!written.before.contains("<filter"));
    }

    #[test]
    fn a_blurred_shadow_blurs_only_the_shadow() {
        let written = effects(1, &[shadow(4.0)], INK, REGION).expect("written");
        assert!(written.before.contains(
            "<filter id=\"layer-1-filter-0-blur\" filterUnits=\"userSpaceOnUse\" color-interpolation-filters=\"sRGB\" x=\"0\" y=\"0\" width=\"100\" height=\"100\"><feGaussianBlur stdDeviation=\"2\"/></filter>"
        ));
        assert!(written.before.ends_with(
            "<g id=\"layer-1-shadow-0\" filter=\"url(#layer-1-filter-0-blur)\"><rect x=\"12\" y=\"24\" width=\"30\" height=\"40\" fill=\"rgb(0,0,0)\" mask=\"url(#layer-1-filter-0)\"/></g><g id=\"layer-1\">"
        ));
        assert_eq!(written.blurred, ["layer-1-shadow-0"]);
    }

    #[test]
    fn a_blurred_shadow_seen_only_through_an_overlay_has_no_id() {
        let steps = [
            shadow(4.0),
            Step::Overlay {
                color: "rgb(255,0,0)".to_owned(),
            },
        ];
        let written = effects(0, &steps, INK, REGION).expect("written");
        assert!(written.blurred.is_empty());
        assert!(!written.after.contains("layer-0-shadow-0"));
    }

    #[test]
    fn filters_apply_in_order() {
        // A shadow, then an overlay of both: the overlay's mask holds the
        // shadow and the layer, its box covers both.
        let steps = [
            shadow(0.0),
            Step::Overlay {
                color: "rgb(255,0,0)".to_owned(),
            },
        ];
        let written = effects(0, &steps, INK, REGION).expect("written");
        assert!(written.outer_id);
        assert!(written.blurred.is_empty());
        assert!(written.after.contains(
            "<mask id=\"layer-0-filter-1\" mask-type=\"alpha\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"100\" height=\"100\"><rect x=\"12\" y=\"24\" width=\"30\" height=\"40\" fill=\"rgb(0,0,0)\" mask=\"url(#layer-0-filter-0)\"/><use xlink:href=\"#layer-0-source\"/></mask>"
        ));
        assert!(written.after.ends_with(
            "<rect x=\"10\" y=\"20\" width=\"32\" height=\"44\" fill=\"rgb(255,0,0)\" mask=\"url(#layer-0-filter-1)\"/>"
        ));
    }
}
