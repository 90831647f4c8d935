//! A layer's `filters` (colour overlays and shadows) as one SVG filter,
//! applied in order, its region grown by how far the shadows reach.

use std::fmt::Write as _;

use cardkit::model::Filter;

use super::canvas::Scene;
use super::geometry::{clamp_coord, rotated_bounds, Rect, MAX_COORD};
use super::svg::{num, svg_color};
use crate::report::Report;

/// The most a shadow may be blurred, in card pixels: far more than a shadow
/// needs, while the region a blur spreads over (three times it on each
/// side) stays within a few hundred pixels of the layer.
const MAX_BLUR: f32 = 100.0;

impl Scene<'_> {
    /// The filter of a layer's `filters`, applied in order; its id, or
    /// `None` when there is nothing to apply.
    pub(super) fn filter(
        &mut self,
        n: usize,
        filters: Option<&[Filter]>,
        frame: Rect,
        rotation: f32,
        at: &str,
    ) -> Option<String> {
        let filters = filters.filter(|f| !f.is_empty())?;
        let mut primitives = String::new();
        let mut previous = "SourceGraphic".to_owned();
        let mut reach = 0.0f32;
        for (i, filter) in filters.iter().enumerate() {
            let (color, kind) = match filter {
                Filter::Overlay(overlay) => (overlay.color.as_ref(), None),
                Filter::Shadow(shadow) => (shadow.color.as_ref(), Some(shadow)),
            };
            let Some(color) = svg_color(color) else {
                self.report.push(Report::new(
                    at,
                    format!("filter {i}: the colour \"{color}\" cannot be drawn: filter left out"),
                ));
                continue;
            };
            let result = format!("f{i}");
            match kind {
                None => {
                    let _ = write!(
                        primitives,
                        "<feFlood flood-color=\"{color}\" result=\"{result}c\"/><feComposite in=\"{result}c\" in2=\"{previous}\" operator=\"in\" result=\"{result}\"/>"
                    );
                }
                Some(shadow) => {
                    let blur = shadow
                        .extra
                        .get("blur")
                        .and_then(serde_json::Value::as_f64)
                        .filter(|b| b.is_finite() && *b > 0.0)
                        .map_or(0.0, |b| b as f32);
                    let blur = if blur > MAX_BLUR {
                        self.report.push(Report::new(
                            at,
                            format!("filter {i}: a blur of {} px is more than the limit of {MAX_BLUR} px: drawn at {MAX_BLUR} px", num(blur)),
                        ));
                        MAX_BLUR
                    } else {
                        blur
                    };
                    #[allow(clippy::cast_precision_loss)]
                    let (dx, dy) = (shadow.x as f32, shadow.y as f32);
                    let (dx, dy) = (clamp_coord(dx), clamp_coord(dy));
                    if (dx, dy) != (shadow.x as f32, shadow.y as f32) {
                        self.report.push(Report::new(
                            at,
                            format!("filter {i}: the shadow's offset reaches beyond ±{} px: drawn clamped to it", num(MAX_COORD)),
                        ));
                    }
                    reach = reach.max(dx.abs()).max(dy.abs()) + blur * 3.0;
                    let _ = write!(
                        primitives,
                        "<feFlood flood-color=\"{color}\" result=\"{result}c\"/><feComposite in=\"{result}c\" in2=\"{previous}\" operator=\"in\" result=\"{result}a\"/><feOffset in=\"{result}a\" dx=\"{}\" dy=\"{}\" result=\"{result}o\"/>",
                        num(dx),
                        num(dy)
                    );
                    let shadow_result = if blur > 0.0 {
                        let _ = write!(
                            primitives,
                            "<feGaussianBlur in=\"{result}o\" stdDeviation=\"{}\" result=\"{result}b\"/>",
                            num(blur / 2.0)
                        );
                        format!("{result}b")
                    } else {
                        format!("{result}o")
                    };
                    let _ = write!(
                        primitives,
                        "<feMerge result=\"{result}\"><feMergeNode in=\"{shadow_result}\"/><feMergeNode in=\"{previous}\"/></feMerge>"
                    );
                }
            }
            previous = result;
        }
        if primitives.is_empty() {
            return None;
        }
        // The region: the layer's box, rotated, grown by how far shadows
        // reach (and by a margin for glyphs beyond a text box).
        let margin = reach + frame.height.min(frame.width).max(0.0) * 0.5 + 2.0;
        let region = rotated_bounds(frame, rotation).grown(margin);
        // What lies farther beyond the picture than the shadows reach cannot
        // show in it: the region ends there, which bounds a filter's work by
        // the picture's size. (A further eighth of the picture's longer side
        // keeps the region ordinary layers have always had.)
        let beyond = reach.min(self.canvas.width.max(self.canvas.height))
            + self.canvas.width.max(self.canvas.height) / 8.0;
        let region = region.within(self.canvas.grown(beyond));
        let id = format!("layer-{n}-filter");
        let _ = write!(
            self.svg,
            "<filter id=\"{id}\" filterUnits=\"userSpaceOnUse\" color-interpolation-filters=\"sRGB\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">{primitives}</filter>",
            num(region.x),
            num(region.y),
            num(region.width),
            num(region.height)
        );
        Some(id)
    }
}
