//! What drawing an asset costs the PNG, in pixels touched, and the render's
//! budget of it ([`Limits::max_drawn_pixels`](crate::Limits::max_drawn_pixels)).
//!
//! resvg decodes a raster image each time a layer draws it, and draws an
//! SVG image into a layer of its parent's size (the whole picture's, but
//! for symbols, whose groups are isolated), through each of its filters'
//! primitives over that layer; `feMorphology` visits (2rx + 1)(2ry + 1)
//! pixels for each pixel.

use super::canvas::Scene;
use super::geometry::Rect;
use crate::report::Report;

impl Scene<'_> {
    /// The pixels drawing `asset` in `frame` costs, drawn in a layer of the
    /// whole picture.
    pub(super) fn draw_cost(&self, asset: &super::canvas::Asset, frame: Rect) -> u64 {
        self.draw_cost_in(asset, frame, self.picture_pixels)
    }

    /// The pixels drawing `asset` in `frame` costs, drawn in a layer of its
    /// own (a symbol's group is isolated).
    pub(super) fn isolated_draw_cost(&self, asset: &super::canvas::Asset, frame: Rect) -> u64 {
        let side = |v: f32| f64::from((v.abs() * self.options.scale).ceil() + 4.0);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let layer = (side(frame.width) * side(frame.height)).min(self.picture_pixels as f64) as u64;
        self.draw_cost_in(asset, frame, layer)
    }

    fn draw_cost_in(&self, asset: &super::canvas::Asset, frame: Rect, layer: u64) -> u64 {
        let Some(filters) = &asset.vector else {
            return asset.raster_pixels;
        };
        let scale = if asset.width > 0.0 && asset.height > 0.0 {
            (frame.width.abs() / asset.width).max(frame.height.abs() / asset.height)
                * self.options.scale
        } else {
            self.options.scale
        };
        let scale = if scale.is_finite() { scale } else { 0.0 };
        #[allow(clippy::cast_precision_loss)]
        let cost = layer as f64 * filters.passes(scale);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let cost = if cost >= u64::MAX as f64 {
            u64::MAX
        } else {
            cost as u64
        };
        cost.saturating_add(asset.raster_pixels)
    }

    /// Counts `pixels` of drawing work; past the render's limit, a report
    /// line (once for a layer) and `false`.
    pub(super) fn spend(&mut self, pixels: u64, at: &str) -> bool {
        let limit = self.options.limits.max_drawn_pixels;
        if self.drawn_pixels.saturating_add(pixels) > limit {
            let line = Report::new(
                at,
                format!("the card's images add up to more than the limit of {limit} pixels of drawing: drawn as a placeholder box"),
            );
            if self.report.last() != Some(&line) {
                self.report.push(line);
            }
            return false;
        }
        self.drawn_pixels += pixels;
        true
    }
}
