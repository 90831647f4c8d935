//! A layer's `filters` (colour overlays and shadows), checked and applied
//! in order (written as geometry by [`effects`](super::effects)), within a
//! region grown by how far the shadows reach.

use cardkit::model::Filter;

use super::canvas::Scene;
use super::effects::{effects, Effects, Step};
use super::geometry::{clamp_coord, rotated_bounds, Rect, MAX_COORD};
use super::raster::BlurredShadow;
use super::svg::{num, svg_color};
use crate::report::Report;

/// The most a shadow may be blurred, in card pixels: far more than a shadow
/// needs, while the region a blur spreads over (three times it on each
/// side) stays within a few hundred pixels of the layer.
const MAX_BLUR: f32 = 100.0;

/// The most filters a layer's `filters` apply: each one's mask draws what
/// the ones before it drew, masks included, so the work doubles with each
/// filter; the rest are a report line.
pub(super) const MAX_FILTERS: usize = 4;

impl Scene<'_> {
    /// The filters of a text layer's `filters`: its glyphs may reach beyond
    /// its box by half the box's smaller side.
    pub(super) fn filter(
        &mut self,
        n: usize,
        filters: Option<&[Filter]>,
        frame: Rect,
        rotation: f32,
        at: &str,
    ) -> Option<Effects> {
        let glyphs = frame.height.min(frame.width).max(0.0) * 0.5 + 2.0;
        self.filter_beyond(n, filters, frame, rotation, glyphs, at)
    }

    /// The filters of a layer's `filters`, applied in order, for a layer
    /// whose content draws within `frame` (rotated) grown by `beyond`;
    /// `None` when there is nothing to apply.
    pub(super) fn filter_beyond(
        &mut self,
        n: usize,
        filters: Option<&[Filter]>,
        frame: Rect,
        rotation: f32,
        beyond: f32,
        at: &str,
    ) -> Option<Effects> {
        let filters = filters.filter(|f| !f.is_empty())?;
        if filters.len() > MAX_FILTERS {
            self.report.push(Report::new(
                at,
                format!(
                    "{} filters are more than the limit of {MAX_FILTERS}: the first {MAX_FILTERS} applied",
                    filters.len()
                ),
            ));
        }
        let mut steps = Vec::new();
        let mut reach = 0.0f32;
        for (i, filter) in filters.iter().enumerate().take(MAX_FILTERS) {
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
            let Some(shadow) = kind else {
                steps.push(Step::Overlay { color });
                continue;
            };
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
            steps.push(Step::Shadow {
                color,
                dx,
                dy,
                blur,
            });
        }
        // The region: the layer's box, rotated, grown by how far shadows
        // reach (and by a margin for glyphs beyond a text box).
        let ink = rotated_bounds(frame, rotation).grown(beyond);
        let region = ink.grown(reach);
        // What lies farther beyond the picture than the shadows reach cannot
        // show in it: the region ends there, which bounds a filter's work by
        // the picture's size. (A further eighth of the picture's longer side
        // keeps the region ordinary layers have always had.)
        let beyond = reach.min(self.canvas.width.max(self.canvas.height))
            + self.canvas.width.max(self.canvas.height) / 8.0;
        let region = region.within(self.canvas.grown(beyond));
        if !self.spend_on_filters(steps.len(), region, at) {
            return None;
        }
        let written = effects(n, &steps, ink, region)?;
        for id in &written.blurred {
            self.blurred.push(BlurredShadow {
                id: id.clone(),
                region,
                at: at.to_owned(),
            });
        }
        Some(written)
    }
}

impl Scene<'_> {
    /// Counts the drawing `count` filters' masks take over `region`: the
    /// mask of filter k draws the layer and the filters before it, 2^k
    /// drawings of the region in all. Past the render's limit, a report
    /// line and `false` (the layer is drawn without its filters).
    fn spend_on_filters(&mut self, count: usize, region: Rect, at: &str) -> bool {
        let scale = f64::from(self.options.scale);
        let side = |v: f32| (f64::from(v.max(0.0)) * scale).ceil();
        let drawings = (1u64 << count.min(MAX_FILTERS)) - 1;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        // within the picture grown
        let pixels = (side(region.width) * side(region.height)).min(u64::MAX as f64) as u64;
        let cost = pixels.saturating_mul(drawings);
        let limit = self.options.limits.max_drawn_pixels;
        if self.drawn_pixels.saturating_add(cost) > limit {
            self.report.push(Report::new(
                at,
                format!("its filters would take the card's drawing beyond the limit of {limit} pixels: drawn without them"),
            ));
            return false;
        }
        self.drawn_pixels += cost;
        true
    }
}
