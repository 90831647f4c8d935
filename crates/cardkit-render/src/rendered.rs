//! A rendered card ([`Rendered`]): its SVG, its report, its PNG drawn from
//! the same drawing, and where its elements ended up ([`Bounds`]).

use std::fmt;

use crate::report::{RenderError, Report};

/// Where an element of a render ended up, for checking a render's structure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Left edge, in card pixels.
    pub x: f32,
    /// Top edge, in card pixels.
    pub y: f32,
    /// Width.
    pub width: f32,
    /// Height.
    pub height: f32,
}

/// A rendered card: its SVG, its report, and the parsed drawing a PNG is
/// made from.
pub struct Rendered {
    pub(crate) svg: String,
    pub(crate) tree: usvg::Tree,
    pub(crate) report: Vec<Report>,
    pub(crate) scale: f32,
    pub(crate) max_pixels: u64,
    pub(crate) origin: (f32, f32),
}

impl fmt::Debug for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rendered")
            .field("svg_bytes", &self.svg.len())
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

impl Rendered {
    /// The self-contained SVG: images embedded as `data:` URIs, text as
    /// outlines, so every viewer shows the same.
    #[must_use]
    pub fn svg(&self) -> &str {
        &self.svg
    }

    /// What was not drawn as the design says, in drawing order.
    #[must_use]
    pub fn report(&self) -> &[Report] {
        &self.report
    }

    /// Width and height of the picture in output pixels.
    #[must_use]
    pub fn size(&self) -> (f32, f32) {
        (self.tree.size().width(), self.tree.size().height())
    }

    /// The PNG of the card, drawn by resvg from the same drawing as the SVG.
    ///
    /// # Errors
    /// [`RenderError::Limit`] when the picture has more pixels than
    /// [`Limits::max_pixels`](crate::Limits::max_pixels); [`RenderError::Png`] when it cannot be encoded.
    pub fn png(&self) -> Result<Vec<u8>, RenderError> {
        self.pixmap()?
            .encode_png()
            .map_err(|e| RenderError::Png(e.to_string()))
    }

    /// The picture's pixels (premultiplied RGBA), drawn by resvg.
    ///
    /// # Errors
    /// As [`Rendered::png`].
    pub fn pixmap(&self) -> Result<resvg::tiny_skia::Pixmap, RenderError> {
        let size = self.tree.size().to_int_size();
        let pixels = u64::from(size.width()) * u64::from(size.height());
        if pixels > self.max_pixels {
            return Err(RenderError::Limit(format!(
                "a PNG of {} × {} is {pixels} pixels, more than the limit of {} (use a smaller scale)",
                size.width(),
                size.height(),
                self.max_pixels
            )));
        }
        let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
            .ok_or_else(|| RenderError::Png(format!("a picture of {size:?} cannot be made")))?;
        resvg::render(
            &self.tree,
            resvg::tiny_skia::Transform::default(),
            &mut pixmap.as_mut(),
        );
        Ok(pixmap)
    }

    /// The bounds, in card pixels, of what the element of `id` draws (ink,
    /// not layout boxes): `layer-N` is the N-th layer drawn (from 0),
    /// `layer-N-line-L` a line of a text layer, `layer-N-symbol-S` a symbol
    /// in it.
    #[must_use]
    pub fn bounds_of(&self, id: &str) -> Option<Bounds> {
        let node = self.tree.node_by_id(id)?;
        let rect = node.abs_stroke_bounding_box();
        Some(Bounds {
            x: rect.x() / self.scale + self.origin.0,
            y: rect.y() / self.scale + self.origin.1,
            width: rect.width() / self.scale,
            height: rect.height() / self.scale,
        })
    }
}
