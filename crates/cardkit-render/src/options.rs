//! How a card is rendered ([`Options`]), and the limits that keep a hostile
//! design bounded ([`Limits`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use usvg::fontdb::{self, Database, Family, Query, Source};

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
    /// Faces named by the user, each read from a file of its own: a face
    /// named here (case-insensitive) is drawn from its file, before the
    /// template's own file for it, and even when the template does not
    /// declare it.
    pub named_fonts: Vec<NamedFont>,
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
            named_fonts: Vec::new(),
            fallback_fonts: default_fallback_fonts(),
            limits: Limits::default(),
        }
    }
}

/// The sans-serif families text falls back to, in order of preference: the
/// first one the system has is used.
pub const FALLBACK_FAMILIES: [&str; 8] = [
    "DejaVu Sans",
    "Liberation Sans",
    "Noto Sans",
    "Arimo",
    "Arial",
    "Helvetica",
    "Helvetica Neue",
    "FreeSans",
];

/// The files of the fallback face, regular then bold: the first of
/// [`FALLBACK_FAMILIES`] found among the system's fonts (the folders each
/// platform keeps fonts in: on Linux and the BSDs those fontconfig's
/// configuration names, or `/usr/share/fonts`, `/usr/local/share/fonts`,
/// `~/.local/share/fonts` and `~/.fonts` without one; `/Library/Fonts` and
/// `~/Library/Fonts` on macOS; the Windows folder's `Fonts`). The folders are read once per process; a render then loads
/// only these files, so what it draws does not depend on the other fonts
/// installed. Empty when the system has none of them.
#[must_use]
pub fn default_fallback_fonts() -> Vec<PathBuf> {
    static FOUND: OnceLock<Vec<PathBuf>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let mut db = Database::new();
            db.load_system_fonts();
            fallback_in(&db, &FALLBACK_FAMILIES)
        })
        .clone()
}

/// The files of the first of `families` that `db` has a regular face of
/// (upright, normal width, weight 400 or the nearest), with its bold face
/// when it has a distinct one. Faces inside a collection other than its
/// first are passed over, as a render loads a file's first face.
#[must_use]
pub fn fallback_in(db: &Database, families: &[&str]) -> Vec<PathBuf> {
    let file_of = |family: &str, weight: u16| -> Option<PathBuf> {
        let id = db.query(&Query {
            families: &[Family::Name(family)],
            weight: fontdb::Weight(weight),
            stretch: fontdb::Stretch::Normal,
            style: fontdb::Style::Normal,
        })?;
        let face = db.face(id)?;
        let named = face
            .families
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case(family));
        match &face.source {
            Source::File(path) if named && face.index == 0 => Some(path.clone()),
            _ => None,
        }
    };
    for family in families {
        if let Some(regular) = file_of(family, 400) {
            let bold = file_of(family, 700).filter(|bold| *bold != regular);
            return std::iter::once(regular).chain(bold).collect();
        }
    }
    Vec::new()
}

/// A face named by the user and the bytes of its file, checked to hold a
/// font.
#[derive(Clone)]
pub struct NamedFont {
    /// The face's name, as the template's text layers name it.
    pub name: String,
    /// The file it was read from, as report lines name it.
    pub file: PathBuf,
    pub(crate) bytes: Arc<Vec<u8>>,
}

impl NamedFont {
    /// The face `name` from the bytes of `file`.
    ///
    /// # Errors
    /// The bytes hold no face a render can read.
    pub fn new(name: &str, file: &Path, bytes: Vec<u8>) -> Result<NamedFont, String> {
        let bytes = Arc::new(bytes);
        let mut db = Database::new();
        if db
            .load_font_source(Source::Binary(Arc::clone(&bytes) as _))
            .is_empty()
        {
            return Err(format!(
                "{}: not a font file (no face could be read from it)",
                file.display()
            ));
        }
        Ok(NamedFont {
            name: name.to_owned(),
            file: file.to_path_buf(),
            bytes,
        })
    }
}

impl std::fmt::Debug for NamedFont {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NamedFont")
            .field("name", &self.name)
            .field("file", &self.file)
            .field("bytes", &self.bytes.len())
            .finish()
    }
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
