//! How a card is rendered ([`Options`]), and the limits that keep a hostile
//! design bounded ([`Limits`]).

use std::path::PathBuf;

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
    /// from a file or decoded from a `data:` URI, and the most an SVGZ asset
    /// may inflate to; a larger one is a report line and a placeholder.
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
    /// The most pixels a raster image (an asset, or an image inside an SVG
    /// asset) may declare, read from its header before anything is decoded;
    /// a larger one is a report line and a placeholder. Its default is the
    /// largest PNG's ([`Limits::max_pixels`]): an image with more pixels
    /// could only ever be drawn scaled down.
    pub max_image_pixels: u64,
    /// The most pixels of image work one render may do, counted each time
    /// a layer draws an asset: a raster image's pixels (decoded for each
    /// drawing), and for an SVG asset the picture's pixels (drawn into a
    /// layer of the picture's size; a symbol, into one of its own size)
    /// times its filters' work. Past it, layers are placeholders with a
    /// report line.
    pub max_drawn_pixels: u64,
    /// The most words and symbols the text layers of one render may draw
    /// together; past it, the rest is a report line and is not drawn.
    pub max_drawn_words: usize,
    /// The most characters the text layers of one render may draw
    /// together; past it, the rest is a report line and is not drawn.
    pub max_drawn_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_asset_bytes: 32 * 1024 * 1024,
            max_embedded_bytes: 256 * 1024 * 1024,
            max_layers: 100_000,
            max_pixels: 64 * 1024 * 1024,
            max_text_chars: 100_000,
            max_image_pixels: 64 * 1024 * 1024,
            max_drawn_pixels: 1024 * 1024 * 1024,
            max_drawn_words: 20_000,
            max_drawn_chars: 200_000,
        }
    }
}
