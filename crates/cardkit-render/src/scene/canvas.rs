//! The SVG being written for one card ([`Scene`]): its assets, loaded and
//! measured once, the images embedded within the render's limit, the
//! placeholders of what cannot be drawn, and each layer's group and
//! rotation.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use base64::Engine as _;
use cardkit_design::assets::Resolver;
use cardkit_design::symbols::SymbolTable;

use super::decoding::{inflate, is_gzip, take_seen, SeenLog};
use super::effects::Effects;
use super::filter_work::FilterWork;
use super::geometry::{Rect, MAX_COORD};
use super::raster::BlurredShadow;
use super::svg::num;
use super::wording::describe;
use crate::fonts::Fonts;
use crate::options::Options;
use crate::report::Report;

/// A decoded asset: the `data:` URI it is embedded as, its intrinsic size
/// and what drawing it costs.
#[derive(Debug, Clone)]
pub(super) struct Asset {
    pub(super) href: Arc<str>,
    pub(super) width: f32,
    pub(super) height: f32,
    /// The pixels of the raster images it is or holds, decoded each time
    /// it is drawn.
    pub(super) raster_pixels: u64,
    /// For an SVG asset, its filters' work.
    pub(super) vector: Option<FilterWork>,
}

pub(super) struct Scene<'a> {
    pub(super) options: &'a Options,
    pub(super) resolver: Resolver,
    pub(super) assets: BTreeMap<String, Result<Asset, String>>,
    pub(super) fonts: Fonts,
    pub(super) symbols: SymbolTable,
    pub(super) year: i32,
    pub(super) report: Vec<Report>,
    pub(super) svg: String,
    /// Bytes of images embedded so far.
    pub(super) embedded: u64,
    /// Pixels of image drawing so far (see `work`).
    pub(super) drawn_pixels: u64,
    /// The picture's pixels (after scaling).
    pub(super) picture_pixels: u64,
    /// Words and symbols, and characters, of text drawn so far.
    pub(super) drawn_words: usize,
    pub(super) drawn_chars: usize,
    /// What the image resolver met while an asset was probed.
    pub(super) seen: SeenLog,
    /// The picture's box, in card pixels.
    pub(super) canvas: Rect,
    /// The probe options: our font database, no file or network access.
    pub(super) usvg_options: usvg::Options<'static>,
    /// The blurred shadows drawn, to be pictures in the SVG.
    pub(super) blurred: Vec<BlurredShadow>,
}

impl Scene<'_> {
    /// An asset by its `src`, loaded, checked and measured once per render.
    pub(super) fn asset(&mut self, src: &str) -> Result<Asset, String> {
        if let Some(known) = self.assets.get(src) {
            return known.clone();
        }
        let loaded = self.load_asset(src);
        self.assets.insert(src.to_owned(), loaded.clone());
        loaded
    }

    fn load_asset(&self, src: &str) -> Result<Asset, String> {
        let bytes = self
            .resolver
            .load(src, self.options.limits.max_asset_bytes)
            .map_err(|error| describe(&error, &self.resolver))?
            .bytes;
        let mime = sniff(&bytes).ok_or("not an image (PNG, JPEG, GIF, WebP or SVG)")?;
        if is_gzip(&bytes) {
            inflate(&bytes, self.options.limits.max_asset_bytes)?;
        }
        let href: Arc<str> = format!(
            "data:{mime};base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&bytes)
        )
        .into();
        // The image alone, parsed by usvg as the card will be: what it
        // cannot decode is found here, and its intrinsic size with it.
        let probe = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"1\" height=\"1\"><image xlink:href=\"{href}\"/></svg>"
        );
        take_seen(&self.seen);
        let tree = usvg::Tree::from_str(&probe, &self.usvg_options);
        let seen = take_seen(&self.seen);
        if let Some(why) = seen.refused {
            return Err(why);
        }
        let tree = tree.map_err(|e| format!("cannot be read as {mime}: {e}"))?;
        let image =
            first_image(tree.root()).ok_or_else(|| format!("cannot be decoded as {mime}"))?;
        let vector = match image.kind() {
            usvg::ImageKind::SVG(inner) => Some(FilterWork::of(inner)),
            _ => None,
        };
        Ok(Asset {
            href,
            width: image.size().width(),
            height: image.size().height(),
            raster_pixels: seen.raster_pixels,
            vector,
        })
    }

    /// Counts `bytes` of images to embed; past the render's limit, a report
    /// line and `false`.
    pub(super) fn embed(&mut self, bytes: u64, at: &str) -> bool {
        let limit = self.options.limits.max_embedded_bytes;
        if self.embedded + bytes > limit {
            self.report.push(Report::new(
                at,
                format!("the card's images add up to more than the limit of {limit} bytes: drawn as a placeholder box"),
            ));
            return false;
        }
        self.embedded += bytes;
        true
    }

    /// `rect` clamped to the coordinates drawn (see `MAX_COORD`); a box
    /// beyond them is a report line naming `what`.
    pub(super) fn clamp_box(&mut self, rect: Rect, what: &str, at: &str) -> Rect {
        let Some(clamped) = rect.clamped() else {
            return rect;
        };
        self.report.push(Report::new(
            at,
            format!(
                "{what} reaches beyond ±{} px: drawn clamped to it",
                num(MAX_COORD)
            ),
        ));
        clamped
    }

    pub(super) fn svg_image(&mut self, href: &str, frame: Rect) {
        let _ = write!(
            self.svg,
            "<image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" xlink:href=\"{href}\"/>",
            num(frame.x),
            num(frame.y),
            num(frame.width),
            num(frame.height)
        );
    }

    /// A box standing for what could not be drawn: a light fill, an
    /// outline and its diagonals.
    pub(super) fn placeholder(&mut self, n: usize, frame: Rect) {
        self.placeholder_with_id(&format!("layer-{n}"), frame);
    }

    /// A placeholder whose group has the id `id`.
    pub(super) fn placeholder_with_id(&mut self, id: &str, frame: Rect) {
        let stroke = (frame.width.min(frame.height) / 100.0).clamp(1.0, 8.0);
        let _ = write!(
            self.svg,
            "<g id=\"{id}\" class=\"placeholder\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"#808080\" fill-opacity=\"0.15\" stroke=\"#808080\" stroke-width=\"{s}\"/><path d=\"M{x} {y}L{x2} {y2}M{x2} {y}L{x} {y2}\" fill=\"none\" stroke=\"#808080\" stroke-width=\"{s}\"/></g>",
            x = num(frame.x),
            y = num(frame.y),
            w = num(frame.width.max(0.0)),
            h = num(frame.height.max(0.0)),
            x2 = num(frame.x + frame.width.max(0.0)),
            y2 = num(frame.y + frame.height.max(0.0)),
            s = num(stroke)
        );
    }

    /// Opens layer `n`'s group (closed by [`Scene::close_layer`]): its
    /// opacity, and what its filters draw around its content.
    pub(super) fn open_layer(&mut self, n: usize, opacity: Option<f64>, effects: Option<&Effects>) {
        self.svg.push_str("<g");
        if effects.is_none_or(|e| e.outer_id) {
            let _ = write!(self.svg, " id=\"layer-{n}\"");
        }
        if let Some(opacity) = opacity.filter(|o| o.is_finite()) {
            #[allow(clippy::cast_possible_truncation)]
            let _ = write!(
                self.svg,
                " opacity=\"{}\"",
                num(opacity.clamp(0.0, 1.0) as f32)
            );
        }
        self.svg.push('>');
        if let Some(effects) = effects {
            self.svg.push_str(&effects.before);
        }
    }

    /// Closes the group [`Scene::open_layer`] opened.
    pub(super) fn close_layer(&mut self, effects: Option<&Effects>) {
        if let Some(effects) = effects {
            self.svg.push_str(&effects.after);
        }
        self.svg.push_str("</g>");
    }

    pub(super) fn open_rotation(&mut self, degrees: f32, frame: Rect) {
        if degrees != 0.0 && degrees.is_finite() {
            let _ = write!(
                self.svg,
                "<g transform=\"rotate({} {} {})\">",
                num(degrees),
                num(frame.x + frame.width / 2.0),
                num(frame.y + frame.height / 2.0)
            );
        }
    }

    pub(super) fn close_rotation(&mut self, degrees: f32) {
        if degrees != 0.0 && degrees.is_finite() {
            self.svg.push_str("</g>");
        }
    }
}

/// The kind of image in `bytes`, by its signature.
fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() > 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else if bytes.starts_with(&[0x1F, 0x8B]) {
        Some("image/svg+xml")
    } else {
        let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let start = text.iter().position(|b| !b.is_ascii_whitespace())?;
        (text[start] == b'<').then_some("image/svg+xml")
    }
}

fn first_image(group: &usvg::Group) -> Option<&usvg::Image> {
    for node in group.children() {
        match node {
            usvg::Node::Image(image) => return Some(image),
            usvg::Node::Group(inner) => {
                if let Some(image) = first_image(inner) {
                    return Some(image);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_told_by_their_signature() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n...."), Some("image/png"));
        assert_eq!(
            sniff(b"  <?xml version='1.0'?><svg/>"),
            Some("image/svg+xml")
        );
        assert_eq!(sniff(b"OTTO not an image"), None);
    }
}
