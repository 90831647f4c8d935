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
mod options;
mod rendered;
mod report;
mod scene;
mod year;

use cardkit::model::{Card, Template};

pub use fonts::MAX_FONT_BYTES;
pub use options::{
    default_fallback_fonts, fallback_in, Limits, NamedFont, Options, FALLBACK_FAMILIES,
};
pub use rendered::{Bounds, Rendered};
pub use report::{RenderError, Report};
pub use year::current_year;

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
