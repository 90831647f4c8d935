//! Renders a card design to a self-contained SVG and a PNG, offline and
//! deterministically.
//!
//! ```no_run
//! use cardkit::model::Card;
//! use cardkit_render::{render, Options};
//!
//! let card: Card = cardkit::from_slice(&std::fs::read("card.json")?)?;
//! let options = Options {
//!     assets: Some("assets/".into()),
//!     year: Some(2023),
//!     ..Options::default()
//! };
//! let rendered = render(&card, None, &options)?;
//! for line in rendered.report() {
//!     eprintln!("{line}");
//! }
//! std::fs::write("card.svg", rendered.svg())?;
//! std::fs::write("card.png", rendered.png()?)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! How a card is drawn:
//!
//! - Layers are drawn bottom first: each group's children in the order of
//!   their `z` (equal `z` keep their order), a group's children in its
//!   place.
//! - Assets are read through the asset root: `data:` URIs, files under the
//!   asset directory. Nothing is fetched: an asset that cannot be read is a
//!   report line and its layer a placeholder box, so a render always
//!   completes.
//! - An image is drawn in its saved box (`x`, `y`, `width`, `height`); when
//!   the saved box is the model's default (0, 0, 100 × 100) and the layer
//!   has `bounds`, in the box `bounds` gives: `fit` contains the image,
//!   `fill` covers the box, aligned as `horizontal` and `vertical` say.
//! - Masks are alpha masks drawn in the mask's own box when it has one, else
//!   in the layer's; several masks intersect. `colorOverlay` paints the
//!   layer's pixels in its colour and keeps their alpha; `shadow` draws an
//!   offset copy in its colour beneath, sharp (the spec's shadow has no
//!   blur; a `blur` member in pixels blurs it). `opacity` applies to its
//!   layer alone.
//! - Text is laid out by this crate (see [`Options::year`] and the book's
//!   Rendering chapter, `docs/rendering.md`) and drawn as outlines in the SVG.
//! - `corners` rounds the card's corners; with [`Options::bleed`] the margins
//!   (`marginX`, `marginY`) around the card are drawn too, corners square.
#![deny(missing_docs)]

mod fonts;
mod layout;
mod scene;

use std::fmt;
use std::path::PathBuf;

use cardkit::model::{Card, Template};

/// How a card is rendered.
#[derive(Debug, Clone)]
pub struct Options {
    /// Output pixels per card pixel (1 draws the card at its size).
    pub scale: f32,
    /// Draw the margins around the card (`marginX`, `marginY`) too, with
    /// square corners.
    pub bleed: bool,
    /// The year `{year}` stands for; `None` is the current year (UTC).
    pub year: Option<i32>,
    /// The local directory assets are read from: the asset root, or a
    /// mirror of it when the root is a URL.
    pub assets: Option<PathBuf>,
    /// The asset root (a URL, `scheme://netloc/…`, or a local directory):
    /// by default the card's `asset_root_url`, else the template's, else
    /// [`Options::assets`]. Nothing is ever fetched: a remote asset is read
    /// from the mirror or reported.
    pub root: Option<String>,
    /// A directory the template's font files are looked for in (by their
    /// `src`, then by file name) before the asset root.
    pub fonts: Option<PathBuf>,
    /// The fonts text falls back to when a font is missing, in order; the
    /// first regular and bold faces are used.
    pub fallback_fonts: Vec<PathBuf>,
    /// Limits that keep a hostile design bounded in time and memory.
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            scale: 1.0,
            bleed: false,
            year: None,
            assets: None,
            root: None,
            fonts: None,
            fallback_fonts: default_fallback_fonts(),
            limits: Limits::default(),
        }
    }
}

/// DejaVu Sans, regular and bold, where Debian and most Linux systems keep
/// them.
#[must_use]
pub fn default_fallback_fonts() -> Vec<PathBuf> {
    ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"]
        .iter()
        .map(|name| PathBuf::from("/usr/share/fonts/truetype/dejavu").join(name))
        .collect()
}

/// Limits on what a render reads and draws.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The most bytes one asset (an image, a mask, a symbol) may have, read
    /// from a file or decoded from a `data:` URI; a larger one is a report
    /// line and a placeholder.
    pub max_asset_bytes: u64,
    /// The most bytes of images (as embedded, in base64) one render may
    /// embed in its SVG, counting an image each time a layer draws it; past
    /// it, layers are placeholders with a report line. It bounds the memory
    /// of a card that draws a large image many times.
    pub max_embedded_bytes: u64,
    /// The most layers (groups included) a card may have.
    pub max_layers: usize,
    /// The most pixels a PNG may have (width × height after scaling).
    pub max_pixels: u64,
    /// The most characters of text one text layer may have; a longer text
    /// is a report line and is not drawn.
    pub max_text_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_asset_bytes: 32 * 1024 * 1024,
            max_embedded_bytes: 256 * 1024 * 1024,
            max_layers: 100_000,
            max_pixels: 64 * 1024 * 1024,
            max_text_chars: 100_000,
        }
    }
}

/// A line of a render's report: something that was not drawn as the design
/// says (a missing asset, a substituted font, text that does not fit), and
/// where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Where: the JSON Pointer of the layer in the card (`/data/children/2`)
    /// or of the template's member, with the layer's name when it has one.
    pub at: String,
    /// What happened.
    pub message: String,
}

impl Report {
    pub(crate) fn new(at: impl Into<String>, message: impl Into<String>) -> Report {
        Report {
            at: at.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// Why a card could not be rendered at all.
#[derive(Debug)]
#[non_exhaustive]
pub enum RenderError {
    /// The card breaks a [`Limits`] limit or has an unusable size.
    Limit(String),
    /// An option is out of range.
    Option(String),
    /// The SVG drawn could not be parsed back (a bug, or an asset usvg
    /// refuses late).
    Svg(String),
    /// The PNG could not be made.
    Png(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Limit(why) => write!(f, "the card is beyond a limit: {why}"),
            RenderError::Option(why) => write!(f, "invalid option: {why}"),
            RenderError::Svg(why) => write!(f, "the drawing could not be built: {why}"),
            RenderError::Png(why) => write!(f, "the PNG could not be made: {why}"),
        }
    }
}

impl std::error::Error for RenderError {}

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
    svg: String,
    tree: usvg::Tree,
    report: Vec<Report>,
    scale: f32,
    max_pixels: u64,
    origin: (f32, f32),
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
    /// [`Limits::max_pixels`]; [`RenderError::Png`] when it cannot be encoded.
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

/// Renders `card`, with the fonts and symbols of `template` when given.
///
/// # Errors
/// [`RenderError::Limit`] for a card beyond [`Limits`] or of a size that
/// cannot be drawn; [`RenderError::Option`] for a scale that is not a
/// positive number. Missing assets and fonts are never errors: they are
/// report lines.
pub fn render(
    card: &Card,
    template: Option<&Template>,
    options: &Options,
) -> Result<Rendered, RenderError> {
    scene::render(card, template, options)
}

/// The current year (UTC), from the system clock.
#[must_use]
pub fn current_year() -> i32 {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    #[allow(clippy::cast_possible_wrap)] // days since 1970 fit an i64
    let days = (seconds / 86_400) as i64;
    year_of_days(days)
}

/// The proleptic-Gregorian year of a count of days since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn year_of_days(days: i64) -> i32 {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    i32::try_from(year).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    #[test]
    fn years_of_days() {
        assert_eq!(super::year_of_days(0), 1970);
        assert_eq!(super::year_of_days(364), 1970);
        assert_eq!(super::year_of_days(365), 1971);
        // 2024-12-31 and 2025-01-01.
        assert_eq!(super::year_of_days(20_088), 2024);
        assert_eq!(super::year_of_days(20_089), 2025);
    }
}
