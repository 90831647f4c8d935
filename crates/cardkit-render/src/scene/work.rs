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

/// The filter work of an SVG asset, per pixel of the layer it is drawn in.
#[derive(Debug, Clone, Default)]
pub(super) struct FilterWork {
    /// Primitives that visit each pixel a bounded number of times.
    pub(super) primitives: u64,
    /// The radii of `feMorphology` primitives, in the asset's units.
    pub(super) morphology: Vec<(f32, f32)>,
}

impl FilterWork {
    /// The filter work of `tree` and of the SVG images inside it.
    pub(super) fn of(tree: &usvg::Tree) -> FilterWork {
        let mut work = FilterWork::default();
        work.add_tree(tree);
        work
    }

    fn add_tree(&mut self, tree: &usvg::Tree) {
        for filter in tree.filters() {
            for primitive in filter.primitives() {
                match primitive.kind() {
                    usvg::filter::Kind::Morphology(morphology) => self
                        .morphology
                        .push((morphology.radius_x().get(), morphology.radius_y().get())),
                    usvg::filter::Kind::ConvolveMatrix(convolve) => {
                        let matrix = convolve.matrix();
                        self.primitives = self
                            .primitives
                            .saturating_add(u64::from(matrix.columns()) * u64::from(matrix.rows()));
                    }
                    _ => self.primitives = self.primitives.saturating_add(1),
                }
            }
        }
        // Masks are drawn into a layer of the picture's size too.
        self.primitives = self.primitives.saturating_add(tree.masks().len() as u64);
        self.add_images(tree.root());
    }

    fn add_images(&mut self, group: &usvg::Group) {
        for node in group.children() {
            match node {
                usvg::Node::Group(inner) => self.add_images(inner),
                usvg::Node::Image(image) => {
                    if let usvg::ImageKind::SVG(tree) = image.kind() {
                        self.primitives = self.primitives.saturating_add(1);
                        self.add_tree(tree);
                    }
                }
                _ => {}
            }
        }
    }

    /// Passes over the layer's pixels when the asset is drawn `scale`
    /// output pixels per asset unit.
    fn passes(&self, scale: f32) -> f64 {
        let morphology: f64 = self
            .morphology
            .iter()
            .map(|(rx, ry)| {
                let side = |r: f32| 2.0 * f64::from((r * scale).round().max(0.0)) + 1.0;
                side(*rx) * side(*ry)
            })
            .sum();
        1.0 + self.primitives as f64 + morphology
    }
}

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
